//! The ceiling of imitating DRF: a perfect imitator of its labels acting where the network
//! acts ([`schedlab_dl2_train::imitator`]), with DL2's labels (a worker, then a server) and
//! with bundle actions, against DRF itself, on the validation traces of the default
//! configuration (seed 0): mean JCT and tasks per slot.
//!
//! Usage: `cargo run --release -p schedlab-dl2-train --example drf_imitator`

use schedlab_dl2_speed::Dl2Speed;
use schedlab_dl2_train::imitator::imitate_drf;
use schedlab_dl2_train::{SlLabels, Traces, TrainConfig, cluster, validate_heuristic};
use schedlab_policies_dl2::heuristics::Heuristic;

fn main() -> Result<(), String> {
    let config = TrainConfig::default();
    let speeds_path = schedlab_core::DataDir::locate().file("dl2/config_speed.txt").map_err(|e| e.to_string())?;
    let speeds = Dl2Speed::load(&speeds_path).map_err(|e| e.to_string())?;
    let traces = Traces::new(&config)?;
    let cluster = cluster(config.nodes);
    let (drf_jct, drf_tasks) = validate_heuristic(&Heuristic::Drf, &traces, &cluster, &speeds)?;
    println!("DRF (the teacher): mean JCT {drf_jct:.3} slots, {drf_tasks:.1} tasks per slot");
    for (name, labels) in
        [("worker then server (DL2's labels)", SlLabels::Tasks), ("bundle actions", SlLabels::Bundles)]
    {
        let (jct, tasks) = imitate_drf(labels, &traces, &cluster, &speeds, config.seed)?;
        println!(
            "perfect imitator, {name}: mean JCT {jct:.3} slots ({:.3} of DRF), {tasks:.1} tasks per slot",
            jct / drf_jct
        );
    }
    Ok(())
}

//! DL2's slot loop in the engine against a slot-by-slot re-simulation written from DL2's
//! `scheduler_base.py` (`step`: prepare, schedule, progress by `speed x TS / epoch_size`,
//! completion at the fraction of the slot that finishes the job).

use schedlab_core::{ClusterSpec, JobSpec, NodeId};
use schedlab_dl2_speed::{Dl2Speed, model_info};
use schedlab_policies_dl2::heuristics::Heuristic;
use schedlab_policies_dl2::network::PolicyNetwork;
use schedlab_policies_dl2::slot::{Slot, SlotCluster, SlotJob, dl2_cluster};
use schedlab_policies_dl2::{BUILTIN_WEIGHTS, Chooser, Dl2, SlotConfig};
use schedlab_sim::{SimConfig, run};
use schedlab_trace::dl2::{CpuOnlyModels, Dl2Workload};
use std::path::Path;
use std::sync::Arc;

fn speeds() -> Arc<Dl2Speed> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let path = schedlab_core::datadir::test_data_file(&root, "dl2/config_speed.txt");
    Arc::new(Dl2Speed::load(&path).unwrap())
}

fn cluster(nodes: usize) -> Arc<ClusterSpec> {
    Arc::new(dl2_cluster(nodes))
}

fn workload(jobs: usize, seed: u64) -> Vec<JobSpec> {
    Dl2Workload {
        jobs,
        max_arrivals_per_slot: 3,
        slot: 1200.0,
        max_epochs: 300.0,
        task_cpus: 2.0,
        cpu_only: CpuOnlyModels::OneGpu,
        seed,
    }
    .generate()
    .unwrap()
}

/// Completion times (seconds) by DL2's own loop, with `heuristic` filling each slot.
fn resimulate(jobs: &[JobSpec], nodes: &ClusterSpec, speeds: &Dl2Speed, heuristic: &Heuristic) -> Vec<f64> {
    let mut progress = vec![0.0; jobs.len()];
    let mut finish = vec![f64::NAN; jobs.len()];
    let mut cluster = SlotCluster::new(nodes, 4.0).unwrap();
    for ts in 0u64.. {
        let uncompleted: Vec<usize> =
            (0..jobs.len()).filter(|&j| jobs[j].arrival.secs() <= ts as f64 * 1200.0 && finish[j].is_nan()).collect();
        if uncompleted.is_empty() && finish.iter().all(|f| !f.is_nan()) {
            break;
        }
        cluster.clear();
        let slot_jobs = uncompleted
            .iter()
            .map(|&j| SlotJob {
                id: jobs[j].id,
                model: Arc::from(jobs[j].job_type.as_str()),
                type_number: model_info(&jobs[j].job_type).unwrap().type_number,
                arrival_slot: (jobs[j].arrival.secs() / 1200.0) as u64,
                epochs: jobs[j].work,
                progress: progress[j],
                worker_cpus: 2.0,
                ps_cpus: 2.0,
                worker_nodes: Vec::<NodeId>::new(),
                ps_nodes: Vec::new(),
                dom_share: 0.0,
            })
            .collect();
        let mut slot = Slot { index: ts, jobs: slot_jobs, cluster: cluster.clone(), max_workers: 16, max_ps: 16 };
        heuristic.fill(&mut slot, 1200.0, &mut None);
        cluster = slot.cluster.clone();
        for (job, &j) in slot.jobs.iter().zip(&uncompleted) {
            let epoch_size = model_info(&job.model).unwrap().epoch_size;
            let epochs = speeds.speed(&job.model, job.ps(), job.workers()).unwrap() * 1200.0 / epoch_size;
            if progress[j] + epochs >= jobs[j].work && epochs > 0.0 {
                finish[j] = (ts as f64 + (jobs[j].work - progress[j]) / epochs) * 1200.0;
                progress[j] = jobs[j].work;
            } else {
                progress[j] += epochs;
            }
        }
    }
    finish
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn the_engine_runs_dl2_slots_as_dl2s_own_loop_does() {
    let speeds = speeds();
    for (name, heuristic) in [
        ("drf", Heuristic::Drf),
        ("fifo", Heuristic::Fifo),
        ("srtf", Heuristic::Srtf),
        ("tetris", Heuristic::Tetris),
        ("optimus", Heuristic::Optimus(Arc::clone(&speeds))),
    ] {
        for seed in 0..3 {
            let jobs = workload(30, seed);
            let nodes = cluster(12);
            let expected = resimulate(&jobs, &nodes, &speeds, &heuristic);
            let chooser = Chooser::Heuristic { heuristic: heuristic.clone(), recorder: None };
            let mut policy = Dl2::new(format!("dl2-{name}"), chooser, SlotConfig::default());
            let config = SimConfig { check_invariants: true, seed, ..SimConfig::default() };
            let result = run(nodes, &jobs, speeds.as_ref(), &mut policy, &config).unwrap();
            for (record, expected) in result.jobs.iter().zip(&expected) {
                let finish = record.finish.unwrap();
                assert!(
                    (finish - expected).abs() <= 1e-6 * expected.max(1.0),
                    "{name} seed {seed} job {}: engine {finish}, DL2's loop {expected}",
                    record.id
                );
            }
            assert_eq!(
                policy.rewards().len() as f64,
                (result.metrics.makespan / 1200.0).ceil(),
                "{name}: one reward per slot"
            );
            let chooser = Chooser::Heuristic { heuristic: heuristic.clone(), recorder: None };
            let mut again = Dl2::new(format!("dl2-{name}"), chooser, SlotConfig::default());
            let repeated = run(cluster(12), &jobs, speeds.as_ref(), &mut again, &config).unwrap();
            assert_eq!((&repeated.jobs, &repeated.metrics), (&result.jobs, &result.metrics), "{name}: deterministic");
        }
    }
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn the_built_in_network_finishes_every_job_and_repeats_from_its_seed() {
    let speeds = speeds();
    let network = Arc::new(PolicyNetwork::from_json(BUILTIN_WEIGHTS[0].1).unwrap());
    let jobs = workload(40, 4);
    let simulate = |seed: u64| {
        let chooser = Chooser::Network { network: Arc::clone(&network), sample: true };
        let mut policy = Dl2::new("dl2".into(), chooser, SlotConfig::default());
        let config = SimConfig { check_invariants: true, seed, ..SimConfig::default() };
        run(cluster(12), &jobs, speeds.as_ref(), &mut policy, &config).unwrap()
    };
    let first = simulate(1);
    assert!(first.jobs.iter().all(|job| job.finish.is_some()));
    assert_eq!(simulate(1).jobs, first.jobs, "the same run seed gives the same run");
    assert_ne!(simulate(2).jobs, first.jobs, "actions are sampled from the run seed");
}

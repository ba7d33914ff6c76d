//! Writes the samples DL2's supervised phase learns from: DRF's increments on the training
//! traces of the default configuration (seed 0), each as the network's 240 inputs (f32,
//! little-endian) then the label (i32: `3 x column + task`, -1 when DRF's job is beyond the
//! window). `scripts/dl2/imitation_check.py` fits a scikit-learn MLP of DL2's shape to them.
//!
//! Usage: `cargo run --release -p schedlab-dl2-train --example drf_samples -- OUT.bin
//! [--no-shuffle] [--samples N]` (the window's columns are shuffled as `JOB_ORDER_SHUFFLE` does
//! unless `--no-shuffle`; one increment in 32 is kept, so that the samples span the traces, up
//! to N samples, 300,000 by default).

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_dl2_train::{Traces, TrainConfig, cluster, derive, run_episode};
use schedlab_policies_dl2::heuristics::{Heuristic, Recorder};
use schedlab_policies_dl2::observation::{Observation, WINDOW, encode};
use schedlab_policies_dl2::slot::{Slot, Task};
use schedlab_policies_dl2::{Chooser, Dl2, SlotConfig};
use std::sync::{Arc, Mutex};

/// One increment in this many is kept.
const KEEP_ONE_IN: u32 = 32;

struct Samples {
    rng: ChaCha8Rng,
    shuffle: bool,
    limit: usize,
    count: usize,
    bytes: Vec<u8>,
}

struct Record(Arc<Mutex<Samples>>);

impl Recorder for Record {
    fn before(&mut self, slot: &Slot, job: usize, task: Task) {
        let mut samples = self.0.lock().expect("not poisoned");
        if samples.count >= samples.limit || samples.rng.random_range(0..KEEP_ONE_IN) != 0 {
            return;
        }
        let mut order: [usize; WINDOW] = std::array::from_fn(|column| column);
        if samples.shuffle {
            order.shuffle(&mut samples.rng);
        }
        let observation = Observation::of(slot).permuted(&order);
        let label = observation.column_of(job).map_or(-1, |column| encode(column, task) as i32);
        for value in &observation.state {
            samples.bytes.extend_from_slice(&value.to_le_bytes());
        }
        samples.bytes.extend_from_slice(&label.to_le_bytes());
        samples.count += 1;
    }
}

fn main() -> Result<(), String> {
    let usage = "usage: drf_samples OUT.bin [--no-shuffle] [--samples N]";
    let mut args = std::env::args().skip(1);
    let out = args.next().ok_or(usage)?;
    let (mut shuffle, mut limit) = (true, 300_000);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--no-shuffle" => shuffle = false,
            "--samples" => {
                let value = args.next().ok_or(usage)?;
                limit = value.parse().map_err(|_| format!("--samples: expected a whole number, got '{value}'"))?;
            }
            other => return Err(format!("unknown option '{other}'; {usage}")),
        }
    }
    let config = TrainConfig::default();
    let speeds_path = schedlab_core::DataDir::locate().file("dl2/config_speed.txt").map_err(|e| e.to_string())?;
    let speeds = schedlab_dl2_speed::Dl2Speed::load(&speeds_path).map_err(|e| e.to_string())?;
    let traces = Traces::new(&config)?;
    let cluster = cluster(config.nodes);
    let samples = Arc::new(Mutex::new(Samples {
        rng: ChaCha8Rng::seed_from_u64(derive(config.seed, 9, 0)),
        shuffle,
        limit,
        count: 0,
        bytes: Vec::new(),
    }));
    for (episode, jobs) in traces.train.iter().enumerate() {
        if samples.lock().expect("not poisoned").count >= limit {
            break;
        }
        let recorder = Some(Box::new(Record(Arc::clone(&samples))) as Box<dyn Recorder>);
        let chooser = Chooser::Heuristic { heuristic: Heuristic::Drf, recorder };
        let mut policy = Dl2::new("dl2-drf".into(), chooser, SlotConfig::default());
        run_episode(&cluster, jobs, &speeds, &mut policy, derive(config.seed, 4, episode as u64))?;
    }
    let samples = samples.lock().expect("not poisoned");
    std::fs::write(&out, &samples.bytes).map_err(|error| format!("{out}: {error}"))?;
    eprintln!(
        "wrote {} samples ({}) to {out}",
        samples.count,
        if shuffle { "window shuffled" } else { "arrival order" }
    );
    Ok(())
}

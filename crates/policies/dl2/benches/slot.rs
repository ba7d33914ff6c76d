//! One slot of DL2's decisions at 40 jobs on its 500-node cluster: one decision of the policy
//! network (observe, mask, forward, sample), a whole slot by the network, and a whole slot by
//! DRF and by Optimus.

use criterion::{Criterion, criterion_group, criterion_main};
use schedlab_core::JobId;
use schedlab_policies_dl2::heuristics::Heuristic;
use schedlab_policies_dl2::network::{Dense, FORMAT, FrozenNorm, HIDDEN, PolicyNetwork};
use schedlab_policies_dl2::observation::{ACTIONS, INPUTS, Observation};
use schedlab_policies_dl2::slot::{Slot, SlotCluster, SlotJob, dl2_cluster};
use schedlab_policies_dl2::{Chooser, Dl2, SlotConfig, pick};
use std::hint::black_box;
use std::sync::Arc;

/// Deterministic weights of the trained network's shape and scale (about 0.02).
fn network() -> PolicyNetwork {
    let mut state = 12345u64;
    let mut next = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.04
    };
    let mut dense = |inputs: usize, outputs: usize| Dense {
        weight: (0..inputs).map(|_| (0..outputs).map(|_| next()).collect()).collect(),
        bias: vec![0.0; outputs],
    };
    let norm = || FrozenNorm { gamma: vec![1.0; HIDDEN], beta: vec![0.0; HIDDEN] };
    PolicyNetwork {
        format: FORMAT.into(),
        dense1: dense(INPUTS, HIDDEN),
        norm1: norm(),
        dense2: dense(HIDDEN, HIDDEN),
        norm2: norm(),
        output: dense(HIDDEN, ACTIONS),
    }
}

fn empty_slot() -> Slot {
    let models =
        ["resnet-50", "vgg-16", "resnext-110", "inception-bn", "seq2seq", "cnn-text-classification", "dssm", "wlm"];
    let spec = dl2_cluster(500);
    let jobs = (0..40)
        .map(|index| SlotJob {
            id: JobId(index as u32),
            model: Arc::from(models[index % 8]),
            type_number: (index % 8) as u32 + 1,
            arrival_slot: (index / 10) as u64,
            epochs: 9000.0,
            progress: 100.0 * index as f64,
            worker_cpus: 2.0,
            ps_cpus: 2.0,
            worker_nodes: Vec::new(),
            ps_nodes: Vec::new(),
            dom_share: 0.0,
        })
        .collect();
    Slot { index: 5, jobs, cluster: SlotCluster::new(&spec, 4.0).unwrap(), max_workers: 16, max_ps: 16 }
}

fn bench(c: &mut Criterion) {
    let network = Arc::new(network());
    let mut slot = empty_slot();
    slot.assign_bundles();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    c.bench_function("dl2/one decision at 40 jobs (observe, mask, forward, sample)", |b| {
        b.iter(|| {
            let observation = Observation::of(black_box(&slot));
            let mask = observation.mask(&slot);
            let probabilities = network.probabilities(&observation.state);
            pick(&probabilities, &mask, true, &mut rng)
        })
    });
    // Optimus needs DL2's speed table; without the data directory the benchmark leaves it out.
    let speeds =
        schedlab_core::DataDir::locate_from(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.."))
            .file("dl2/config_speed.txt")
            .ok()
            .map(|path| Arc::new(schedlab_dl2_speed::Dl2Speed::load(&path).unwrap()));
    let mut choosers: Vec<(&str, Chooser)> = vec![
        ("network", Chooser::Network { network: Arc::clone(&network), sample: true }),
        ("drf", Chooser::Heuristic { heuristic: Heuristic::Drf, recorder: None }),
    ];
    if let Some(speeds) = speeds {
        choosers.push(("optimus", Chooser::Heuristic { heuristic: Heuristic::Optimus(speeds), recorder: None }));
    }
    for (name, chooser) in choosers {
        let mut policy = Dl2::new(name.to_string(), chooser, SlotConfig::default());
        c.bench_function(&format!("dl2/one slot at 40 jobs on 500 nodes: {name}"), |b| {
            b.iter_batched(
                empty_slot,
                |mut slot| {
                    policy.fill(&mut slot).unwrap();
                    slot
                },
                criterion::BatchSize::SmallInput,
            )
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);

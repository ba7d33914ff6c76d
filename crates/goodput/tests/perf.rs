//! The ground-truth perf model, worked by hand from the artifact's formulas, and in the engine:
//! a job's rate changes at every epoch boundary, and a batch change there is no restart.

use schedlab_cluster::{CompactCluster, PerfModel, Placement};
use schedlab_core::{Allocation, Context, DataDir, Decision, JobId, JobSpec, NodeId, Policy, PolicyError, Time};
use schedlab_goodput::{Config, PolluxPerf, config_for_batch, true_goodput};
use schedlab_sim::{SimConfig, run};
use std::path::Path;
use std::sync::Arc;

fn perf() -> PolluxPerf {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    schedlab_core::datadir::test_data_file(root, "pollux/profiles/cifar10/placements.csv");
    PolluxPerf::load(&DataDir::locate_from(root), Path::new("pollux/profiles")).unwrap()
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn configurations_follow_the_artifacts_update_local_bsz() {
    let perf = perf();
    let cifar = perf.app("cifar10").unwrap();
    assert_eq!(
        (cifar.init_batch_size, cifar.max_batch_size, cifar.min_local_bsz, cifar.max_local_bsz),
        (128, 4096, 32, 1024)
    );
    // 2048 over 6 GPUs: ceil(341.3) = 342 per GPU, under the 1024 cap, no accumulation.
    assert_eq!(config_for_batch(cifar, 2048, 6), Config { atomic_bsz: 342, accum_steps: 0 });
    // 2048 on one GPU: two micro-batches of 1024 (at least two above the initial 128).
    assert_eq!(config_for_batch(cifar, 2048, 1), Config { atomic_bsz: 1024, accum_steps: 1 });
    // 4096 on 3 GPUs: 1366 per GPU needs two micro-batches of 683, capped at 4096 / 6 = 682.
    assert_eq!(config_for_batch(cifar, 4096, 3), Config { atomic_bsz: 682, accum_steps: 1 });
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn goodput_is_efficiency_over_step_time() {
    let perf = perf();
    let cifar = perf.app("cifar10").unwrap();
    // One node with 4 GPUs at 128 per GPU: the step time is interpolated between the measured
    // 91 (0.0819 s) and 129 (0.1105 s); the batch 512 is validated, with gradient statistics
    // sqr 8.2201, var 8.9145 in epoch 0; scale 512 / 128 = 4.
    let step = 0.08193559646606445 + (0.11051218509674073 - 0.08193559646606445) / (129.0 - 91.0) * (128.0 - 91.0);
    let (sqr, var) = (8.220063889732206, 8.914520446545186);
    let gain = (var + sqr) / (var / 4.0 + sqr);
    let got = true_goodput(cifar, &[4], Config { atomic_bsz: 128, accum_steps: 0 }, 0).unwrap();
    assert!((got - gain / step).abs() < 1e-12 * got, "{got} vs {}", gain / step);
    // Accumulating once more costs one more compute-only pass (step - sync) per update.
    let sync = 0.004566883277893065 + (0.004427110409736633 - 0.004566883277893065) / 38.0 * 37.0;
    let twice = true_goodput(cifar, &[4], Config { atomic_bsz: 128, accum_steps: 1 }, 0).unwrap();
    let (sqr2, var2) = cifar.grad_stats(1024.0, 0).unwrap();
    let gain2 = (var2 + sqr2) / (var2 / 8.0 + sqr2);
    assert!((twice - gain2 / (step + (step - sync))).abs() < 1e-9 * twice);
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn segments_end_at_epoch_boundaries() {
    let perf = perf();
    let cifar = perf.app("cifar10").unwrap().clone();
    let job =
        JobSpec { batch_size: Some(512), ..JobSpec::new(JobId(0), Time::ZERO, 4, "cifar10", cifar.total_progress()) };
    let parts = [("gpu", 4)];
    let first = perf.segment(&job, &Placement::gpus(&parts), 0.0).unwrap();
    assert_eq!(first.until, Some(cifar.progress_at(1)));
    let second = perf.segment(&job, &Placement::gpus(&parts), cifar.progress_at(1)).unwrap();
    assert_eq!(second.until, Some(cifar.progress_at(2)));
    let expected = true_goodput(&cifar, &[4], config_for_batch(&cifar, 512, 4), 1).unwrap();
    assert_eq!(second.rate, expected);
    let last = perf.segment(&job, &Placement::gpus(&parts), cifar.progress_at(99)).unwrap();
    assert_eq!(last.until, None);
}

/// Starts job 0 on 4 GPUs with 128 per GPU; at the first epoch boundary switches to 256.
struct SwitchAtFirstEpoch {
    switched: bool,
}

impl Policy for SwitchAtFirstEpoch {
    fn name(&self) -> &str {
        "switch-at-first-epoch"
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let batch = |atomic_bsz| Some(Config { atomic_bsz, accum_steps: 0 }.to_batch());
        if context.arrived.contains(&JobId(0)) {
            let allocation = Allocation::on_node(NodeId(0), 4).with_batch(batch(128));
            return Ok(Decision { start: vec![(JobId(0), allocation)], ..Decision::none() });
        }
        if !self.switched && context.rate_changed.contains(&JobId(0)) {
            self.switched = true;
            return Ok(Decision { reconfigure: vec![(JobId(0), batch(256))], ..Decision::none() });
        }
        Ok(Decision::none())
    }
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn a_batch_change_at_an_epoch_boundary_is_no_restart_and_completion_is_exact() {
    let perf = perf();
    let cifar = perf.app("cifar10").unwrap().clone();
    let cluster = Arc::new(CompactCluster::parse("gpu=4", 4).unwrap().build().unwrap());
    let job = JobSpec::new(JobId(0), Time::ZERO, 4, "cifar10", cifar.total_progress());
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let result = run(cluster, &[job], &perf, &mut SwitchAtFirstEpoch { switched: false }, &config).unwrap();
    let record = &result.jobs[0];
    assert_eq!((record.restarts, record.reconfigurations), (0, 1));
    // Epoch 0 at 128 per GPU, every later epoch at 256, each at its own efficiency.
    let mut expected = 0.0;
    for epoch in 0..cifar.max_epochs {
        let atomic_bsz = if epoch == 0 { 128 } else { 256 };
        let rate = true_goodput(&cifar, &[4], Config { atomic_bsz, accum_steps: 0 }, epoch).unwrap();
        expected += (cifar.progress_at(epoch + 1) - cifar.progress_at(epoch)) / rate;
    }
    let jct = record.jct.unwrap();
    assert!((jct - expected).abs() < 1e-9 * expected, "{jct} vs {expected}");
    // One rate change per epoch boundary (99), plus arrival and completion.
    assert_eq!(result.metrics.events, 101);
}

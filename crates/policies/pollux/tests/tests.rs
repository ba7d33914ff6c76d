//! The artifact's baselines on small workloads worked by hand.

use schedlab_cluster::{CompactCluster, TraceDuration};
use schedlab_core::{DataDir, JobId, JobSpec, PolicyEnv, PolicyParams, Time};
use schedlab_sim::{SimConfig, run};
use std::sync::Arc;

fn build(spec: &str) -> Box<dyn schedlab_core::Policy> {
    let params: PolicyParams = spec.parse().unwrap();
    let entry = schedlab_policies_pollux::POLICIES.iter().find(|entry| entry.name == params.name).unwrap();
    entry.build(&params, &PolicyEnv::new(DataDir::none())).unwrap()
}

#[test]
fn tiresias_demotes_at_the_threshold_and_decides_on_the_minute() {
    // One 4-GPU node; A (4 GPUs, 200 s) arrives at 0, B (4 GPUs, 200 s) at 30; threshold 480
    // GPU-s = 120 s on 4 GPUs. Decisions at 60, 120, ...: A starts at 60, is demoted at 180
    // (120 s done) and B, still in queue 0, takes the node; B is demoted at 300, and queue 1
    // runs A first (it entered first): A finishes at 300 + 80 = 380, B resumes at the step
    // after, 420, and finishes at 500.
    let cluster = Arc::new(CompactCluster::parse("gpu=4", 4).unwrap().build().unwrap());
    let jobs = vec![
        JobSpec::new(JobId(0), Time::ZERO, 4, "rigid", 200.0),
        JobSpec::new(JobId(1), Time::from_secs(30.0), 4, "rigid", 200.0),
    ];
    let mut policy = build("pollux-tiresias[threshold=480]");
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let result = run(cluster, &jobs, &TraceDuration::uniform(), policy.as_mut(), &config).unwrap();
    let finish: Vec<Option<f64>> = result.jobs.iter().map(|job| job.finish).collect();
    assert_eq!(finish, vec![Some(380.0), Some(500.0)]);
    assert_eq!((result.jobs[0].restarts, result.jobs[1].restarts), (1, 1));
}

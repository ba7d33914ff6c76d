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

fn pollux_run(seed: u64) -> schedlab_sim::RunResult {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../.."));
    schedlab_core::datadir::test_data_file(root, "pollux/profiles/cifar10/placements.csv");
    let data = DataDir::locate_from(root);
    let perf = schedlab_goodput::PolluxPerf::load(&data, std::path::Path::new("pollux/profiles")).unwrap();
    let cluster = Arc::new(CompactCluster::parse("gpu=8", 4).unwrap().build().unwrap());
    // Four bert jobs (two epochs each), one a minute.
    let jobs: Vec<JobSpec> = (0..4)
        .map(|index| {
            let app = "bert";
            let work = perf.app(app).unwrap().total_progress();
            JobSpec {
                batch_size: Some(12),
                ..JobSpec::new(JobId(index), Time::from_secs(60.0 * f64::from(index)), 1, app, work)
            }
        })
        .collect();
    let params: PolicyParams = "pollux[generations=8,population=20]".parse().unwrap();
    let entry = schedlab_policies_pollux::POLICIES.iter().find(|entry| entry.name == "pollux").unwrap();
    let mut policy = entry.build(&params, &PolicyEnv::new(data)).unwrap();
    let config = SimConfig {
        restart_overhead: 30.0,
        overhead_on_first_start: true,
        check_invariants: true,
        seed,
        ..SimConfig::default()
    };
    run(cluster, &jobs, &perf, policy.as_mut(), &config).unwrap()
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn pollux_finishes_every_job_adapting_batches_without_restarts_and_is_seeded() {
    let first = pollux_run(7);
    assert!(first.jobs.iter().all(|job| job.finish.is_some()));
    // Agents change batch sizes at epoch boundaries and steps without restarting the job.
    let reconfigurations: u32 = first.jobs.iter().map(|job| job.reconfigurations).sum();
    assert!(reconfigurations > 0, "{:?}", first.jobs);
    // Jobs grow beyond the one GPU they asked for.
    assert!(first.jobs.iter().any(|job| job.gpu_seconds[0] > 1.5 * job.run_time), "{:?}", first.jobs);
    let again = pollux_run(7);
    let jcts = |result: &schedlab_sim::RunResult| result.jobs.iter().map(|job| job.jct).collect::<Vec<_>>();
    assert_eq!(jcts(&first), jcts(&again));
}

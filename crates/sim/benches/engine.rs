//! Engine throughput: FIFO and LAS over 100,000 synthetic jobs on a 2,816-GPU cluster
//! (Philly's size: 352 nodes x 8 GPUs). Criterion reports events per second (arrivals,
//! completions and ticks) and the time of a whole run.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use schedlab_cluster::{CompactCluster, TraceDuration};
use schedlab_core::{ClusterSpec, JobSpec};
use schedlab_sim::{SimConfig, run};
use schedlab_trace::synthetic::{Arrivals, GavelStyle};
use std::sync::Arc;

/// Gavel-style jobs (mean 1.9 GPUs, mean 16.8 h): 60 jobs per hour offer about 70% of the
/// cluster's GPU-time, 80 per hour about 93% (queues build up and LAS preempts).
fn workload(rate_per_hour: f64) -> Vec<JobSpec> {
    GavelStyle {
        jobs: 100_000,
        arrivals: Arrivals::Poisson { rate_per_hour },
        multi_gpu: true,
        multi_priority: false,
        seed: 0,
        templates: Vec::new(),
    }
    .generate()
    .expect("valid generator")
}

fn philly_sized() -> Arc<ClusterSpec> {
    Arc::new(CompactCluster::parse("v100=2816", 8).unwrap().build().unwrap())
}

fn engine(criterion: &mut Criterion) {
    let cluster = philly_sized();
    let config = SimConfig { check_invariants: false, ..SimConfig::default() };
    let mut group = criterion.benchmark_group("engine_100k_jobs_2816_gpus");
    group.sample_size(10);
    for (rate, policy_name) in [(60.0, "fifo"), (60.0, "las"), (80.0, "fifo"), (80.0, "las")] {
        let jobs = workload(rate);
        let mut policy =
            schedlab_zoo::build(policy_name, &schedlab_core::PolicyEnv::new(schedlab_core::DataDir::none())).unwrap();
        let probe = run(cluster.clone(), &jobs, &TraceDuration::uniform(), policy.as_mut(), &config).unwrap();
        eprintln!(
            "{policy_name} at {rate} jobs/h: {} events, {} decisions, utilisation {:.3}, avg JCT {:.1} h, one run {:?}",
            probe.metrics.events,
            probe.metrics.decisions,
            probe.metrics.utilization,
            probe.metrics.avg_jct / 3600.0,
            probe.wall_time
        );
        group.throughput(Throughput::Elements(probe.metrics.events));
        group.bench_function(format!("{policy_name}_{rate}_per_hour"), |bencher| {
            bencher.iter(|| {
                let mut policy =
                    schedlab_zoo::build(policy_name, &schedlab_core::PolicyEnv::new(schedlab_core::DataDir::none()))
                        .unwrap();
                run(cluster.clone(), &jobs, &TraceDuration::uniform(), policy.as_mut(), &config).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);

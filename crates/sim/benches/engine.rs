//! Engine throughput: FIFO and LAS over 100,000 synthetic jobs on a 2,816-GPU cluster
//! (Philly's size: 352 nodes x 8 GPUs). Criterion reports events per second (arrivals,
//! completions and ticks) and the time of a whole run. A second group runs 2,000 of those jobs
//! under FIFO with rigid rates and with a model whose rate segment ends every simulated minute,
//! so that the cost of the rate-change path shows as events per second against the rigid case.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use schedlab_cluster::{CompactCluster, PerfError, PerfModel, Placement, RateSegment, TraceDuration};
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

/// Rigid speeds, but a new rate segment every simulated minute (the rate alternates between
/// the rigid rate and 90% of it), as a model whose efficiency changes during training would.
struct EveryMinute;

impl PerfModel for EveryMinute {
    fn describe(&self) -> String {
        "a new rate every simulated minute".into()
    }

    fn rate(&self, job: &JobSpec, gpu_type: &str, gpus: u32) -> Result<f64, PerfError> {
        TraceDuration::uniform().rate(job, gpu_type, gpus)
    }

    fn segment(&self, job: &JobSpec, placement: &Placement<'_>, progress: f64) -> Result<RateSegment, PerfError> {
        let base = self.allocation_rate(job, placement.parts)?;
        // The engine asks again at exactly the previous `until`: nudge past float rounding.
        let minute = (progress / (60.0 * base) + 1e-9).floor();
        let rate = if (minute as u64).is_multiple_of(2) { base } else { 0.9 * base };
        Ok(RateSegment { rate, until: Some((minute + 1.0) * 60.0 * base) })
    }
}

fn rate_segments(criterion: &mut Criterion) {
    let cluster = philly_sized();
    let config = SimConfig { check_invariants: false, ..SimConfig::default() };
    let jobs: Vec<JobSpec> = workload(60.0).into_iter().take(2_000).collect();
    let mut group = criterion.benchmark_group("rate_segments_2000_jobs");
    group.sample_size(10);
    let models: [(&str, &dyn PerfModel); 2] = [("rigid", &TraceDuration::uniform()), ("every_minute", &EveryMinute)];
    for (name, model) in models {
        let env = schedlab_core::PolicyEnv::new(schedlab_core::DataDir::none());
        let mut policy = schedlab_zoo::build("fifo", &env).unwrap();
        let probe = run(cluster.clone(), &jobs, model, policy.as_mut(), &config).unwrap();
        eprintln!("fifo, {name}: {} events, one run {:?}", probe.metrics.events, probe.wall_time);
        group.throughput(Throughput::Elements(probe.metrics.events));
        group.bench_function(format!("fifo_{name}"), |bencher| {
            bencher.iter(|| {
                let mut policy = schedlab_zoo::build("fifo", &env).unwrap();
                run(cluster.clone(), &jobs, model, policy.as_mut(), &config).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, engine, rate_segments);
criterion_main!(benches);

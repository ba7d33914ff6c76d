use crate::common::{cluster, simulate_with};
use schedlab_cluster::TraceDuration;
use schedlab_sim::SimConfig;
use schedlab_trace::synthetic::{Arrivals, GavelStyle};

#[test]
fn every_policy_gives_bit_identical_results_on_repeated_runs() {
    let mut jobs = GavelStyle {
        jobs: 300,
        arrivals: Arrivals::Poisson { rate_per_hour: 40.0 },
        multi_gpu: true,
        multi_priority: true,
        seed: 3,
        templates: Vec::new(),
    }
    .generate()
    .unwrap();
    for (index, job) in jobs.iter_mut().enumerate() {
        job.user = Some(format!("user{}", index % 4));
        job.cpus = Some(f64::from(job.gpus) * 4.0);
    }
    let config = SimConfig { restart_overhead: 10.0, ..SimConfig::default() };
    // Gavel's and Hadar's policies need job types from a throughput table, Pollux's crate's
    // its applications, DL2's its models, declared epochs and nodes with CPUs; their crates
    // test them.
    let own_job_types = ["gavel", "hadar", "pollux", "optimus", "dl2"];
    for entry in
        schedlab_zoo::entries().filter(|entry| !own_job_types.iter().any(|prefix| entry.name.starts_with(prefix)))
    {
        let first =
            simulate_with(entry.name, cluster("v100=16,k80=16", 8), &jobs, &TraceDuration::uniform(), &config).unwrap();
        let second =
            simulate_with(entry.name, cluster("v100=16,k80=16", 8), &jobs, &TraceDuration::uniform(), &config).unwrap();
        assert_eq!(first.jobs, second.jobs, "{}", entry.name);
        assert_eq!(first.metrics, second.metrics, "{}", entry.name);
        assert_eq!(first.timeline, second.timeline, "{}", entry.name);
        assert_eq!(first.metrics.jobs_finished, 300, "{}", entry.name);
    }
}

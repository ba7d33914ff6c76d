//! Helpers shared by the integration tests.

use schedlab_cluster::{CompactCluster, PerfModel, TraceDuration};
use schedlab_core::{ClusterSpec, Context, Decision, JobId, JobSpec, Policy, PolicyError, Time};
use schedlab_sim::{RunResult, SimConfig, SimError, run};
use std::sync::Arc;

/// A cluster from the compact text form.
pub fn cluster(text: &str, gpus_per_node: u32) -> Arc<ClusterSpec> {
    Arc::new(CompactCluster::parse(text, gpus_per_node).unwrap().build().unwrap())
}

/// Rigid jobs `(arrival, gpus, duration)`, ids in order.
pub fn rigid(jobs: &[(f64, u32, f64)]) -> Vec<JobSpec> {
    jobs.iter()
        .enumerate()
        .map(|(index, &(arrival, gpus, duration))| {
            JobSpec::new(JobId(index as u32), Time::from_secs(arrival), gpus, "rigid", duration)
        })
        .collect()
}

/// Runs a zoo policy with the given perf model and config.
pub fn simulate_with(
    policy: &str,
    cluster: Arc<ClusterSpec>,
    jobs: &[JobSpec],
    perf: &dyn PerfModel,
    config: &SimConfig,
) -> Result<RunResult, SimError> {
    let mut policy =
        schedlab_zoo::build(policy, &schedlab_core::PolicyEnv::new(schedlab_core::DataDir::none())).unwrap();
    run(cluster, jobs, perf, policy.as_mut(), config)
}

/// Runs a zoo policy on rigid jobs with uniform speed and invariant checks on.
pub fn simulate(policy: &str, cluster: Arc<ClusterSpec>, jobs: &[JobSpec]) -> RunResult {
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    simulate_with(policy, cluster, jobs, &TraceDuration::uniform(), &config).unwrap()
}

/// The JCT of every job, in id order.
pub fn jcts(result: &RunResult) -> Vec<f64> {
    result.jobs.iter().map(|job| job.jct.expect("every job finishes")).collect()
}

/// A policy that returns scripted decisions at its first calls, then nothing.
pub struct Scripted(pub Vec<Decision>);

impl Policy for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn schedule(&mut self, _: &Context<'_>) -> Result<Decision, PolicyError> {
        Ok(if self.0.is_empty() { Decision::none() } else { self.0.remove(0) })
    }
}

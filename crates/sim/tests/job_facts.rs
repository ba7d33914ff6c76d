//! What a job brings besides its size and work: its own restart cost, and the work its user
//! declared, which realistic policies see.

use crate::common::cluster;
use schedlab_cluster::TraceDuration;
use schedlab_core::{Allocation, Context, Decision, JobId, JobSpec, NodeId, Policy, PolicyError, Time};
use schedlab_sim::{SimConfig, SimError, run};

/// Starts job 0 at 0, preempts it at 10 s, restarts it at 20 s; records what it saw.
struct StopAndGo {
    calls: u32,
    declared: Vec<(Option<f64>, Option<f64>, bool)>,
}

impl Policy for StopAndGo {
    fn name(&self) -> &str {
        "stop-and-go"
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        self.calls += 1;
        if let Some(job) = context.jobs.get(JobId(0)) {
            self.declared.push((job.declared_work, job.declared_remaining_work(context.now), job.oracle.is_some()));
        }
        let start = || vec![(JobId(0), Allocation::on_node(NodeId(0), 1))];
        Ok(match self.calls {
            1 => Decision { start: start(), next_tick: Some(Time::from_secs(10.0)), ..Decision::none() },
            2 => Decision { preempt: vec![JobId(0)], next_tick: Some(Time::from_secs(20.0)), ..Decision::none() },
            3 => Decision { start: start(), ..Decision::none() },
            _ => Decision::none(),
        })
    }
}

fn config() -> SimConfig {
    SimConfig { check_invariants: true, restart_overhead: 3.0, ..SimConfig::default() }
}

#[test]
fn a_job_pays_its_own_restart_cost_instead_of_the_runs() {
    // 30 s of work: 10 done by the preemption at 10 s; restarted at 20 s, it pays 3 s (the run's
    // overhead) and ends at 43 s, or 12 s (its own) and ends at 52 s.
    let job = JobSpec::new(JobId(0), Time::ZERO, 1, "rigid", 30.0);
    let mut policy = StopAndGo { calls: 0, declared: Vec::new() };
    let result = run(cluster("g=1", 1), std::slice::from_ref(&job), &TraceDuration::uniform(), &mut policy, &config());
    assert_eq!(result.unwrap().jobs[0].jct, Some(43.0));
    let own = JobSpec { restart_overhead: Some(12.0), ..job };
    let mut policy = StopAndGo { calls: 0, declared: Vec::new() };
    let result = run(cluster("g=1", 1), &[own], &TraceDuration::uniform(), &mut policy, &config()).unwrap();
    assert_eq!(result.jobs[0].jct, Some(52.0));
}

#[test]
fn realistic_policies_see_the_declared_work_and_not_the_truth() {
    // The user declared 40 s of work for a 30 s job: at 10 s the policy sees 30 s declared left.
    let job = JobSpec { declared_work: Some(40.0), ..JobSpec::new(JobId(0), Time::ZERO, 1, "rigid", 30.0) };
    let mut policy = StopAndGo { calls: 0, declared: Vec::new() };
    run(cluster("g=1", 1), &[job], &TraceDuration::uniform(), &mut policy, &config()).unwrap();
    assert_eq!(policy.declared[0], (Some(40.0), Some(40.0), false));
    assert_eq!(policy.declared[1], (Some(40.0), Some(30.0), false));
}

#[test]
fn bad_per_job_facts_are_refused_before_the_run() {
    let job = JobSpec::new(JobId(0), Time::ZERO, 1, "rigid", 30.0);
    for (bad, expected) in [
        (JobSpec { declared_work: Some(f64::NAN), ..job.clone() }, "declared work must be a positive number"),
        (JobSpec { restart_overhead: Some(-1.0), ..job.clone() }, "restart overhead must be a non-negative number"),
    ] {
        let mut policy = StopAndGo { calls: 0, declared: Vec::new() };
        let error = run(cluster("g=1", 1), &[bad], &TraceDuration::uniform(), &mut policy, &config()).unwrap_err();
        assert!(matches!(error, SimError::Workload { .. }) && error.to_string().contains(expected), "{error}");
    }
}

use crate::common::{cluster, rigid};
use schedlab_cluster::TraceDuration;
use schedlab_core::{Allocation, Context, Decision, JobId, NodeId, Policy, PolicyError, Time};
use schedlab_sim::{SimConfig, SimError, run};

/// A policy that returns one scripted decision at its first call, then nothing.
struct Scripted(Option<Decision>);

impl Policy for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn schedule(&mut self, _: &Context<'_>) -> Result<Decision, PolicyError> {
        Ok(self.0.take().unwrap_or_default())
    }
}

fn refuse(decision: Decision) -> String {
    let jobs = rigid(&[(0.0, 2, 5.0), (0.0, 1, 5.0), (10.0, 1, 1.0)]);
    let err =
        run(cluster("g=4", 2), &jobs, &TraceDuration::uniform(), &mut Scripted(Some(decision)), &SimConfig::default())
            .unwrap_err();
    assert!(matches!(err, SimError::InvalidDecision { .. }), "{err}");
    err.to_string()
}

fn start(job: u32, parts: Vec<(u32, u32)>) -> Decision {
    let parts = parts.into_iter().map(|(node, gpus)| (NodeId(node), gpus)).collect();
    Decision { start: vec![(JobId(job), Allocation::new(parts))], ..Decision::none() }
}

#[test]
fn over_capacity_names_policy_job_and_node() {
    let mut decision = start(0, vec![(0, 2)]);
    decision.start.push((JobId(1), Allocation::on_node(NodeId(0), 1)));
    let message = refuse(decision);
    assert_eq!(
        message,
        "policy 'scripted' at 0.000s: invalid decision for job 1 on node 0: node 0 has 0 free GPUs but 1 were allocated on it"
    );
}

#[test]
fn unknown_node_and_wrong_size_and_future_jobs_are_refused() {
    assert!(refuse(start(0, vec![(7, 2)])).contains("on node 7: the cluster has only 2 nodes"));
    assert!(refuse(start(0, vec![(0, 1)])).contains("allocated 1 GPU but requested 2"));
    assert!(refuse(start(0, vec![(0, 2), (1, 1)])).contains("allocated 3 GPUs but requested 2"));
    assert!(refuse(start(2, vec![(0, 1)])).contains("job 2: started, but it has not arrived"));
    assert!(refuse(start(9, vec![(0, 1)])).contains("job 9"));
}

#[test]
fn preempting_waiting_jobs_and_double_starts_are_refused() {
    let preempt = Decision { preempt: vec![JobId(1)], ..Decision::none() };
    assert!(refuse(preempt).contains("job 1: preempted, but it is not running"));
    let mut twice = start(1, vec![(0, 1)]);
    twice.start.push((JobId(1), Allocation::on_node(NodeId(1), 1)));
    assert!(refuse(twice).contains("started twice"));
    let past_tick = Decision { next_tick: Some(Time::ZERO), ..Decision::none() };
    assert!(refuse(past_tick).contains("next tick 0.000s must be finite and after the current time"));
}

/// Starts job 0 at its first call, then tries to start it again while it runs.
struct StartsTwice(u32);

impl Policy for StartsTwice {
    fn name(&self) -> &str {
        "starts-twice"
    }

    fn schedule(&mut self, _: &Context<'_>) -> Result<Decision, PolicyError> {
        self.0 += 1;
        Ok(start(0, vec![(self.0 - 1, 2)]))
    }
}

#[test]
fn starting_a_running_job_is_refused() {
    let jobs = rigid(&[(0.0, 2, 5.0), (1.0, 1, 5.0)]);
    let err = run(cluster("g=4", 2), &jobs, &TraceDuration::uniform(), &mut StartsTwice(0), &SimConfig::default())
        .unwrap_err();
    assert!(
        err.to_string().contains("at 1.000s: invalid decision for job 0: started, but it is already running"),
        "{err}"
    );
}

#[test]
fn malformed_workloads_are_refused_before_running() {
    let mut jobs = rigid(&[(5.0, 1, 5.0), (1.0, 1, 5.0)]);
    let err = run(cluster("g=2", 2), &jobs, &TraceDuration::uniform(), &mut Scripted(None), &SimConfig::default())
        .unwrap_err();
    assert!(err.to_string().contains("job 1: arrives at 1.000s before the previous job"), "{err}");
    jobs = rigid(&[(0.0, 3, 5.0)]);
    let err = run(cluster("g=2", 2), &jobs, &TraceDuration::uniform(), &mut Scripted(None), &SimConfig::default())
        .unwrap_err();
    assert!(err.to_string().contains("requests 3 GPUs but the cluster has only 2"), "{err}");
}

#[test]
fn a_policy_that_never_starts_anything_stalls_with_a_clear_error() {
    let jobs = rigid(&[(0.0, 1, 5.0)]);
    let err = run(cluster("g=2", 2), &jobs, &TraceDuration::uniform(), &mut Scripted(None), &SimConfig::default())
        .unwrap_err();
    assert!(err.to_string().contains("stalled at 0.000s: 1 jobs wait on an idle cluster"), "{err}");
}

#[test]
fn time_slicing_with_a_slice_no_longer_than_the_restart_overhead_is_a_livelock_error() {
    // Three one-GPU jobs on one GPU: Gandiva swaps them every 60 s, and each restart costs
    // 60 s, so no job ever progresses.
    let jobs = rigid(&[(0.0, 1, 600.0), (0.0, 1, 600.0), (0.0, 1, 600.0)]);
    let params: schedlab_core::PolicyParams = "gandiva[quantum=60]".parse().unwrap();
    let mut policy = schedlab_policies_basic::Gandiva::read(&mut params.reader()).unwrap();
    let config = SimConfig { restart_overhead: 60.0, ..SimConfig::default() };
    let err = run(cluster("g=1", 1), &jobs, &TraceDuration::uniform(), &mut policy, &config).unwrap_err();
    assert!(matches!(err, SimError::Stalled { .. }), "{err}");
    assert!(
        err.to_string().contains("preemptions in a row stopped jobs before their restart overhead had passed"),
        "{err}"
    );
    // With a slice longer than the overhead every job finishes.
    let config = SimConfig { restart_overhead: 30.0, ..SimConfig::default() };
    let result = run(cluster("g=1", 1), &jobs, &TraceDuration::uniform(), &mut policy, &config).unwrap();
    assert!(result.jobs.iter().all(|job| job.jct.is_some()));
}

#[test]
fn an_infinite_arrival_is_refused_in_plain_seconds() {
    let mut jobs = rigid(&[(0.0, 1, 5.0)]);
    jobs[0].arrival = Time::from_secs(f64::INFINITY);
    let err = run(cluster("g=4", 2), &jobs, &TraceDuration::uniform(), &mut Scripted(None), &SimConfig::default())
        .unwrap_err()
        .to_string();
    // Not "infs": the seconds are printed as a number.
    assert!(err.contains("arrival inf s: expected a finite number of seconds >= 0"), "{err}");
}

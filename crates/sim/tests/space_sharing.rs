use crate::common::{Scripted, cluster};
use schedlab_cluster::{ThroughputTable, TraceDuration};
use schedlab_core::{Allocation, Context, Decision, JobId, JobSpec, NodeId, Policy, PolicyError, Time};
use schedlab_sim::{SimConfig, run};

/// On one v100: A alone 10 steps/s, B alone 4; sharing, A 6 and B 3.
fn table() -> ThroughputTable {
    let json = serde_json::json!({
        "v100": {
            "('A', 1)": {"null": 10.0, "('B', 1)": [6.0, 3.0]},
            "('B', 1)": {"null": 4.0, "('A', 1)": [3.0, 6.0]}
        }
    });
    ThroughputTable::from_json(&json, "pairs").unwrap().0
}

fn jobs() -> Vec<JobSpec> {
    vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 600.0), JobSpec::new(JobId(1), Time::ZERO, 1, "B", 600.0)]
}

fn pair() -> Decision {
    let gpu = Allocation::on_node(NodeId(0), 1);
    Decision {
        start: vec![(JobId(0), gpu.clone().shared_with(JobId(1))), (JobId(1), gpu.shared_with(JobId(0)))],
        ..Decision::none()
    }
}

#[test]
fn a_pair_shares_one_gpu_at_colocated_rates_and_the_survivor_speeds_up_without_a_restart() {
    // A runs at 6 steps/s while sharing: 600 steps end at 100 s. By then B has done 300 of its
    // 600 steps at 3/s; alone at 4/s the other 300 take 75 s: B ends at 175 s, with no restart,
    // on the GPU the pair held once.
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let result = run(cluster("v100=1", 1), &jobs(), &table(), &mut Scripted(vec![pair()]), &config).unwrap();
    let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
    assert_eq!(jcts, vec![100.0, 175.0]);
    assert_eq!((result.jobs[0].restarts, result.jobs[1].restarts), (0, 0));
    assert_eq!(result.jobs[1].gpu_seconds, vec![175.0]);
    // One GPU busy from 0 to 175 s: utilisation 1 over the makespan.
    assert!((result.metrics.utilization - 1.0).abs() < 1e-9, "{:?}", result.metrics);
}

#[test]
fn preempting_one_of_a_pair_leaves_the_other_running_alone() {
    // Shared from 0 to 50 s: A 300 steps, B 150. At 50 s A is preempted; B keeps the GPU alone
    // at 4/s: 450 steps in 112.5 s, so B ends at 162.5 s. A restarts on the freed GPU then
    // (the scripted second decision is taken at B's completion): 300 steps at 10/s, ends at 192.5.
    struct PreemptAt50(u32);
    impl Policy for PreemptAt50 {
        fn name(&self) -> &str {
            "preempt-at-50"
        }
        fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
            self.0 += 1;
            Ok(match self.0 {
                1 => Decision { next_tick: Some(Time::from_secs(50.0)), ..pair() },
                2 => Decision { preempt: vec![JobId(0)], ..Decision::none() },
                _ if context.jobs.get(JobId(0)).is_some_and(|job| !job.is_running())
                    && context.cluster.free_gpus(NodeId(0)) == 1 =>
                {
                    Decision { start: vec![(JobId(0), Allocation::on_node(NodeId(0), 1))], ..Decision::none() }
                }
                _ => Decision::none(),
            })
        }
    }
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let result = run(cluster("v100=1", 1), &jobs(), &table(), &mut PreemptAt50(0), &config).unwrap();
    let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
    assert_eq!(jcts, vec![192.5, 162.5]);
    assert_eq!((result.jobs[0].restarts, result.jobs[1].restarts), (1, 0));
}

#[test]
fn work_limits_pause_a_pair_on_its_shared_gpu_at_colocated_rates() {
    // t=0: A may do 120 steps (20 s at 6/s), B 30 (10 s at 3/s); both then hold the GPU at rate
    // 0. t=50: 60 more each (A 10 s, B 20 s), still at co-located rates. t=100: A (180 done)
    // needs 420 steps, 70 s at 6/s: done at 170. B has 90 + 210 = 300 by then and 300 left
    // alone at 4/s: 75 s, done at 245, on the GPU the pair held once.
    let limits = |a: f64, b: f64, tick: Option<f64>| Decision {
        work_limits: vec![(JobId(0), a), (JobId(1), b)],
        next_tick: tick.map(Time::from_secs),
        ..Decision::none()
    };
    let first = Decision { start: pair().start, ..limits(120.0, 30.0, Some(50.0)) };
    let decisions = vec![first, limits(60.0, 60.0, Some(100.0)), limits(1000.0, 1000.0, None)];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let result = run(cluster("v100=1", 1), &jobs(), &table(), &mut Scripted(decisions), &config).unwrap();
    let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
    assert_eq!(jcts, vec![170.0, 245.0]);
    assert_eq!((result.jobs[0].restarts, result.jobs[1].restarts), (0, 0));
    assert_eq!(result.jobs[1].gpu_seconds, vec![245.0]);
    // Called at the arrival, the two ticks and the two completions, never at a pause.
    assert_eq!(result.metrics.decisions, 5);
}

fn refuse(decision: Decision, perf: &dyn schedlab_cluster::PerfModel) -> String {
    let err =
        run(cluster("v100=2", 1), &jobs(), perf, &mut Scripted(vec![decision]), &SimConfig::default()).unwrap_err();
    err.to_string()
}

#[test]
fn broken_pairs_and_models_without_pair_rates_are_refused() {
    let gpu = Allocation::on_node(NodeId(0), 1);
    let alone = Decision { start: vec![(JobId(0), gpu.clone().shared_with(JobId(1)))], ..Decision::none() };
    let message = refuse(alone, &table());
    assert!(message.contains("job 0: shares its GPUs with job 1, which is not running on the same GPUs"), "{message}");
    let apart = Decision {
        start: vec![
            (JobId(0), gpu.clone().shared_with(JobId(1))),
            (JobId(1), Allocation::on_node(NodeId(1), 1).shared_with(JobId(0))),
        ],
        ..Decision::none()
    };
    let message = refuse(apart, &table());
    assert!(message.contains("job 1: shares its GPUs with job 0, which runs elsewhere or alone"), "{message}");
    let message = refuse(pair(), &TraceDuration::uniform());
    assert!(
        message.contains("no co-located throughput for 'A' sharing 1 x v100 with 'B'; this model has no pair rates"),
        "{message}"
    );
}

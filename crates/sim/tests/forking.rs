use crate::common::{Scripted, cluster};
use schedlab_cluster::ThroughputTable;
use schedlab_core::{Allocation, Context, Decision, JobId, JobSpec, NodeId, Policy, PolicyError, Time};
use schedlab_sim::{SimConfig, SimError, run};

/// Job type A on one GPU: 10 steps/s on a v100, 2 on a k80.
fn table() -> ThroughputTable {
    let json = serde_json::json!({
        "v100": {"('A', 1)": {"null": 10.0}},
        "k80": {"('A', 1)": {"null": 2.0}}
    });
    ThroughputTable::from_json(&json, "fork").unwrap().0
}

fn config() -> SimConfig {
    SimConfig { check_invariants: true, fork_overhead: 0.05, ..SimConfig::default() }
}

/// Node 0 is the v100, node 1 the k80.
fn start_forked(job: JobId) -> Decision {
    Decision { start: vec![(job, Allocation::copies(vec![NodeId(1), NodeId(0)], 1))], ..Decision::none() }
}

#[test]
fn a_forked_job_progresses_at_the_sum_of_its_copies_less_aggregation() {
    // Copies on the v100 (10 steps/s) and the k80 (2): 12 steps/s, less 5% aggregation = 11.4.
    // 1,140 steps take 100 s; both GPUs are busy for all of it.
    let jobs = vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 1140.0)];
    let result =
        run(cluster("v100=1,k80=1", 1), &jobs, &table(), &mut Scripted(vec![start_forked(JobId(0))]), &config())
            .unwrap();
    assert!((result.jobs[0].jct.unwrap() - 100.0).abs() < 1e-9, "{:?}", result.jobs[0]);
    assert!((result.jobs[0].gpu_seconds.iter().sum::<f64>() - 200.0).abs() < 1e-9);
    assert!((result.metrics.utilization - 1.0).abs() < 1e-9, "{:?}", result.metrics);
}

#[test]
fn a_forked_job_preempted_and_restarted_as_one_copy_keeps_its_progress() {
    // Forked from 0 to 50 s at 11.4 steps/s: 570 steps. Restarted at 50 s on the v100 alone,
    // 570 steps left at 10/s take 57 s: the job ends at 107 s.
    struct ForkThenShrink(u32);
    impl Policy for ForkThenShrink {
        fn name(&self) -> &str {
            "fork-then-shrink"
        }
        fn schedule(&mut self, _: &Context<'_>) -> Result<Decision, PolicyError> {
            self.0 += 1;
            Ok(match self.0 {
                1 => Decision { next_tick: Some(Time::from_secs(50.0)), ..start_forked(JobId(0)) },
                2 => Decision {
                    preempt: vec![JobId(0)],
                    start: vec![(JobId(0), Allocation::on_node(NodeId(0), 1))],
                    ..Decision::none()
                },
                _ => Decision::none(),
            })
        }
    }
    let jobs = vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 1140.0)];
    let result = run(cluster("v100=1,k80=1", 1), &jobs, &table(), &mut ForkThenShrink(0), &config()).unwrap();
    assert!((result.jobs[0].jct.unwrap() - 107.0).abs() < 1e-9, "{:?}", result.jobs[0]);
    assert_eq!(result.jobs[0].restarts, 1);
}

#[test]
fn two_copies_on_one_node_and_copies_of_the_wrong_size_are_refused() {
    let jobs = vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 100.0)];
    let same_node = Allocation { parts: vec![(NodeId(0), 1), (NodeId(0), 1)], ..Allocation::copies(vec![], 1) };
    let decision = Decision { start: vec![(JobId(0), same_node)], ..Decision::none() };
    let error = run(cluster("v100=2", 2), &jobs, &table(), &mut Scripted(vec![decision]), &config()).unwrap_err();
    assert!(matches!(error, SimError::InvalidDecision { .. }), "{error}");
    assert!(error.to_string().contains("each node once"), "{error}");

    let two_gpus = Allocation { parts: vec![(NodeId(0), 2), (NodeId(1), 1)], ..Allocation::copies(vec![], 1) };
    let decision = Decision { start: vec![(JobId(0), two_gpus)], ..Decision::none() };
    let error = run(cluster("v100=2,k80=2", 2), &jobs, &table(), &mut Scripted(vec![decision]), &config()).unwrap_err();
    assert!(error.to_string().contains("a forked copy has 2 GPUs; each copy must have the job's 1 GPUs"), "{error}");
}

#[test]
fn an_aggregation_overhead_outside_zero_to_one_is_refused() {
    let jobs = vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 100.0)];
    let config = SimConfig { fork_overhead: 1.0, ..config() };
    let error = run(cluster("v100=1", 1), &jobs, &table(), &mut Scripted(vec![]), &config).unwrap_err();
    assert_eq!(error.to_string(), "invalid engine setting: fork_overhead is 1; expected a fraction in [0, 1)");
}

//! Hadar and HadarE on instances small enough to work out by hand (the working is in each
//! test's comment), run through the engine with every invariant checked.

use schedlab_cluster::{MixedTypes, ThroughputTable};
use schedlab_core::{
    Allocation, ClusterSpec, Context, Decision, GpuTypeId, JobId, JobSpec, Node, NodeId, Policy, PolicyError,
    PolicyParams, Time,
};
use schedlab_policies_hadar::Hadar;
use schedlab_sim::{RunResult, SimConfig, run};
use std::path::PathBuf;
use std::sync::Arc;

/// Job type `m` measured as gangs of 1 and 2: on a v100 10 steps/s per worker, on a p100 3.
fn table_json() -> serde_json::Value {
    serde_json::json!({
        "v100": {"('m', 1)": {"null": 10.0}, "('m', 2)": {"null": 20.0}},
        "p100": {"('m', 1)": {"null": 3.0}, "('m', 2)": {"null": 6.0}}
    })
}

/// Writes the table where the policy's `throughputs=` parameter can read it.
fn table_file(test: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("schedlab-hadar-{}-{test}.json", std::process::id()));
    std::fs::write(&path, table_json().to_string()).unwrap();
    path
}

fn engine_table(mixed: MixedTypes) -> ThroughputTable {
    ThroughputTable::from_json(&table_json(), "inline").unwrap().0.with_mixed_types(mixed)
}

/// Nodes `(type, gpus)` of types v100 (0) and p100 (1).
fn cluster(nodes: &[(u16, u32)]) -> Arc<ClusterSpec> {
    let nodes = nodes
        .iter()
        .enumerate()
        .map(|(index, &(gpu_type, gpus))| Node {
            name: format!("n{index}"),
            gpu_type: GpuTypeId(gpu_type),
            gpus,
            cpus: None,
            mem_gib: None,
            group: None,
        })
        .collect();
    Arc::new(ClusterSpec::new(vec!["v100".into(), "p100".into()], nodes).unwrap())
}

fn hadar(test: &str, params: &str, forking: bool) -> Hadar {
    let name = if forking { "hadare" } else { "hadar" };
    let path = table_file(test);
    let text = format!("{name}[throughputs={}{}{params}]", path.display(), if params.is_empty() { "" } else { "," });
    let params: PolicyParams = text.parse().unwrap();
    Hadar::from_params(&params, forking, &schedlab_core::PolicyEnv::new(schedlab_core::DataDir::none())).unwrap()
}

/// Records the policy's first decision on the way through.
struct Recording<P> {
    inner: P,
    first: Option<Decision>,
}

impl<P: Policy> Policy for Recording<P> {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn knowledge(&self) -> schedlab_core::Knowledge {
        self.inner.knowledge()
    }
    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let decision = self.inner.schedule(context)?;
        if self.first.is_none() {
            self.first = Some(decision.clone());
        }
        Ok(decision)
    }
}

fn simulate(policy: Hadar, cluster: Arc<ClusterSpec>, jobs: &[JobSpec], mixed: MixedTypes) -> (RunResult, Decision) {
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let mut recording = Recording { inner: policy, first: None };
    let result = run(cluster, jobs, &engine_table(mixed), &mut recording, &config).unwrap();
    (result, recording.first.unwrap())
}

fn jcts(result: &RunResult) -> Vec<f64> {
    result.jobs.iter().map(|job| (job.jct.unwrap() * 1e6).round() / 1e6).collect()
}

#[test]
fn task_level_placement_beats_whole_job_placement() {
    // Node 0 has 3 v100s, node 1 one p100. Two 2-worker jobs of 4,000 steps: 200 s on two
    // v100s (20 steps/s, the ideal D); on a v100 and the p100, 10 + 3 = 13 steps/s with the
    // sum rule, 307.7 s.
    //
    // Round 0 (360 s): each job's utility per GPU-round on an idle cluster is u / (W x rounds)
    // = 1 / (2 x 1) = 0.5 (a job pays at least one round), so L = 0.25 and U = 0.5 and a
    // node's GPU costs 0.25 x 2^(busy / capacity) per round. Job 0 (tie by arrival) takes the
    // two cheapest v100s on node 0 (0.25 and 0.315 for one round; 20 steps/s per 0.565 beats
    // anything with the p100), busy until 200 s = 0.556 rounds. Job 1 then sees node 0's last
    // v100 at p(2) = 0.397 until 0.556 rounds and 0.25 after, 0.332 for its round, and the
    // p100 at 0.25: task-level, it takes both (13 steps/s, 307.7 s, utility
    // 200 / 307.7 = 0.65 > price 0.582), and ends at 307.7 s. Job 0 ends at 200 s.
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 2, "m", 4000.0), JobSpec::new(JobId(1), Time::ZERO, 2, "m", 4000.0)];
    let nodes = [(0, 3), (1, 1)];
    let (result, first) = simulate(hadar("task", "", false), cluster(&nodes), &jobs, MixedTypes::Sum);
    assert_eq!(
        first.start,
        vec![
            (JobId(0), Allocation::new(vec![(NodeId(0), 2)])),
            (JobId(1), Allocation::new(vec![(NodeId(0), 1), (NodeId(1), 1)])),
        ]
    );
    assert_eq!(jcts(&result), vec![200.0, (4000.0f64 / 13.0 * 1e6).round() / 1e6]);

    // Whole-job placement (task_level=false, as Gavel places jobs): job 1 needs two GPUs of
    // one type, so it waits for job 0's v100s and runs 200..400 s.
    let (result, first) = simulate(hadar("whole", "task_level=false", false), cluster(&nodes), &jobs, MixedTypes::Sum);
    assert_eq!(first.start, vec![(JobId(0), Allocation::new(vec![(NodeId(0), 2)]))]);
    assert_eq!(jcts(&result), vec![200.0, 400.0]);
    let task_level = (200.0 + 4000.0 / 13.0) / 2.0;
    assert!(task_level < result.metrics.avg_jct, "{task_level} vs {}", result.metrics.avg_jct);
}

#[test]
fn a_job_whose_utility_is_below_its_price_waits_and_hadare_gives_it_the_idle_gpu() {
    // One node of two v100s (10 steps/s per worker). Two 1-GPU jobs of 100 rounds
    // (360,000 steps); job 0 has weight 10, job 1 weight 1. Utility per GPU-round on an idle
    // cluster: job 0 10 / 100 = 0.1, job 1 1 / 100 = 0.01, so L = 0.005 and U = 0.1.
    // Job 0 pays 100 rounds at p(0) = 0.005 (payoff 9.5) and goes first. The second GPU then
    // costs p(1) = 0.005 x 20^(1/2) = 0.0224 in each of the 100 rounds job 0 holds the other:
    // 2.24 in all, above job 1's utility of 1. Job 1 waits although the GPU is idle, and
    // finishes after job 0 (at 36,000 s).
    let jobs = vec![
        JobSpec { weight: 10.0, ..JobSpec::new(JobId(0), Time::ZERO, 1, "m", 360_000.0) },
        JobSpec::new(JobId(1), Time::ZERO, 1, "m", 360_000.0),
    ];
    let (result, first) = simulate(hadar("wait", "", false), cluster(&[(0, 2)]), &jobs, MixedTypes::Sum);
    assert_eq!(first.start, vec![(JobId(0), Allocation::on_node(NodeId(0), 1))]);
    let jct = jcts(&result);
    assert_eq!(jct[0], 36_000.0);
    assert!(jct[1] > 36_000.0, "{jct:?}");

    // HadarE fills the idle GPU Hadar left: job 1 gets a copy at once (a single copy, so an
    // ordinary allocation), keeps it every round, and also ends at 36,000 s.
    let (result, first) = simulate(hadar("wait-e", "", true), cluster(&[(0, 2)]), &jobs, MixedTypes::Sum);
    assert_eq!(
        first.start,
        vec![(JobId(0), Allocation::on_node(NodeId(0), 1)), (JobId(1), Allocation::on_node(NodeId(0), 1))]
    );
    assert_eq!(jcts(&result), vec![36_000.0, 36_000.0]);
    assert_eq!(result.jobs[1].restarts, 0);
}

#[test]
fn hadare_forks_a_job_onto_every_idle_node_and_sums_its_copies_progress() {
    // A v100 node and a p100 node, one GPU each, one job of 13,000 steps. Hadar places it on
    // the v100 (10 steps/s); HadarE adds a copy on the p100 (3). Less the engine's 5%
    // aggregation overhead, (10 + 3) x 0.95 = 12.35 steps/s: 1,052.6 s, spanning three
    // rounds with the same copies (no restart). The engine checks at every decision that the
    // copies sit on separate nodes and that progress is their sum less aggregation.
    let jobs = vec![JobSpec::new(JobId(0), Time::ZERO, 1, "m", 13_000.0)];
    let (result, first) = simulate(hadar("fork", "", true), cluster(&[(0, 1), (1, 1)]), &jobs, MixedTypes::Sum);
    assert_eq!(first.start, vec![(JobId(0), Allocation::copies(vec![NodeId(0), NodeId(1)], 1))]);
    assert_eq!(jcts(&result), vec![(13_000.0f64 / 12.35 * 1e6).round() / 1e6]);
    assert_eq!(result.jobs[0].restarts, 0);
    assert!((result.metrics.utilization - 1.0).abs() < 1e-9);

    // Hadar alone leaves the p100 idle: 1,300 s.
    let (result, _) = simulate(hadar("nofork", "", false), cluster(&[(0, 1), (1, 1)]), &jobs, MixedTypes::Sum);
    assert_eq!(jcts(&result), vec![1300.0]);
    assert!((result.metrics.utilization - 0.5).abs() < 1e-9);
}

#[test]
fn hadare_never_places_two_copies_of_a_job_on_one_node() {
    // Three jobs on two nodes of four v100s and one node of two p100s, arriving over time.
    // Every round, each job's copies are on distinct nodes (checked by the engine's
    // invariants at every decision, and here on every first decision's allocation).
    let jobs: Vec<JobSpec> = (0..6)
        .map(|index| {
            JobSpec::new(JobId(index), Time::from_secs(f64::from(index) * 500.0), 1 + index % 2, "m", 50_000.0)
        })
        .collect();
    let (result, first) = simulate(hadar("many", "", true), cluster(&[(0, 4), (0, 4), (1, 2)]), &jobs, MixedTypes::Sum);
    for (_, allocation) in &first.start {
        assert!(allocation.parts.windows(2).all(|pair| pair[0].0 < pair[1].0), "{allocation:?}");
    }
    assert!(result.jobs.iter().all(|job| job.jct.is_some()));
}

#[test]
fn bad_parameters_are_errors_that_name_the_key() {
    let params: PolicyParams = "hadar[low_factor=2]".parse().unwrap();
    let error = Hadar::from_params(&params, false, &schedlab_core::PolicyEnv::new(schedlab_core::DataDir::none()))
        .err()
        .unwrap();
    assert!(error.to_string().contains("parameter 'low_factor'"), "{error}");
    let params: PolicyParams = "hadar[progress=async]".parse().unwrap();
    let error = Hadar::from_params(&params, false, &schedlab_core::PolicyEnv::new(schedlab_core::DataDir::none()))
        .err()
        .unwrap();
    assert!(error.to_string().contains("progress"), "{error}");
}

#[test]
fn random_workloads_keep_every_invariant_and_repeat_bit_for_bit() {
    // Jobs of 1 or 2 workers with random arrivals and work on a mixed cluster, under both
    // progress rules, Hadar and HadarE: the engine checks capacity, copies on separate nodes
    // and progress = copies' sum less aggregation at every decision; a second run must give
    // identical records.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for case in 0..6 {
        let mut arrival = 0.0;
        let jobs: Vec<JobSpec> = (0..30)
            .map(|index| {
                arrival += next() * 900.0;
                let workers = if next() < 0.6 { 1 } else { 2 };
                JobSpec::new(JobId(index), Time::from_secs(arrival), workers, "m", 1000.0 + next() * 200_000.0)
            })
            .collect();
        let (mixed, progress) =
            if case % 2 == 0 { (MixedTypes::Sum, "sum") } else { (MixedTypes::Bottleneck, "bottleneck") };
        let forking = case >= 3;
        let nodes = [(0, 2), (0, 4), (1, 4), (1, 1)];
        let params = format!("progress={progress}");
        let (first, _) = simulate(hadar(&format!("random{case}"), &params, forking), cluster(&nodes), &jobs, mixed);
        let (second, _) = simulate(hadar(&format!("random{case}b"), &params, forking), cluster(&nodes), &jobs, mixed);
        assert_eq!(first.jobs, second.jobs, "case {case}");
        assert_eq!(first.metrics, second.metrics, "case {case}");
        assert_eq!(first.metrics.jobs_finished, 30, "case {case}");
    }
}

#[test]
fn jobs_of_one_model_pinned_to_different_types_get_their_own_rates() {
    // Two 1-GPU jobs of model m, the first pinned to the p100 (a trace's `gpu_type`), the
    // second free to use any type. A v100 node and a p100 node, one GPU each. The policy
    // caches rates by model and GPUs; with the feasible types in the key, job 1 sees its
    // v100 rate and starts there at once (10 steps/s: 100 s) while job 0 runs on the p100
    // (3 steps/s: 333.3 s). Had job 0's row (no v100) been reused for job 1, job 1 would have
    // waited for the p100.
    let jobs = vec![
        JobSpec { gpu_type: Some("p100".into()), ..JobSpec::new(JobId(0), Time::ZERO, 1, "m", 1000.0) },
        JobSpec::new(JobId(1), Time::ZERO, 1, "m", 1000.0),
    ];
    let (result, first) = simulate(hadar("pinned", "", false), cluster(&[(0, 1), (1, 1)]), &jobs, MixedTypes::Sum);
    assert_eq!(
        first.start,
        vec![(JobId(0), Allocation::on_node(NodeId(1), 1)), (JobId(1), Allocation::on_node(NodeId(0), 1))]
    );
    assert_eq!(jcts(&result), vec![(1000.0f64 / 3.0 * 1e6).round() / 1e6, 100.0]);
}

#[test]
fn each_open_pricing_choice_keeps_every_invariant_repeats_and_changes_the_schedule() {
    // 40 jobs of 1 or 2 workers (the table measures gangs of 1 and 2) arriving faster than the cluster drains them, so prices
    // bind: `gang_price=marginal`, `bounds=fixed` and `price_scope=type` each give another schedule than the
    // defaults, and each run repeats bit for bit with every job finished.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut arrival = 0.0;
    let jobs: Vec<JobSpec> = (0..40)
        .map(|index| {
            arrival += next() * 300.0;
            let workers = [1, 2, 2][(next() * 3.0) as usize];
            JobSpec::new(JobId(index), Time::from_secs(arrival), workers, "m", 5000.0 + next() * 400_000.0)
        })
        .collect();
    let nodes = [(0, 4), (0, 4), (1, 4), (1, 4)];
    let run =
        |params: &str, test: &str| simulate(hadar(test, params, false), cluster(&nodes), &jobs, MixedTypes::Sum).0;
    let default = run("", "open-default");
    let choices = [
        "gang_price=marginal",
        "bounds=fixed",
        "price_scope=type",
        "gang_price=marginal,bounds=fixed",
        "prices=flat",
        "utility_weight=gpus",
    ];
    for (case, params) in choices.iter().enumerate() {
        let first = run(params, &format!("open{case}a"));
        let second = run(params, &format!("open{case}b"));
        assert_eq!(first.jobs, second.jobs, "{params}");
        assert_eq!(first.metrics.jobs_finished, 40, "{params}");
        assert_ne!(first.jobs, default.jobs, "{params} changes the schedule");
    }
    let error = hadar_error("gang_price=average");
    assert!(error.contains("gang_price") && error.contains("marginal"), "{error}");
    let error = hadar_error("utility_weight=size");
    assert!(error.contains("utility_weight") && error.contains("gpus"), "{error}");
    let error = hadar_error("prices=linear");
    assert!(error.contains("prices") && error.contains("exponential"), "{error}");
    let error = hadar_error("price_scope=cluster");
    assert!(error.contains("price_scope") && error.contains("node"), "{error}");
    let error = hadar_error("bounds=oracle");
    assert!(error.contains("bounds") && error.contains("adaptive"), "{error}");
}

/// The error reading `hadar[params]` gives.
fn hadar_error(params: &str) -> String {
    let params: PolicyParams = format!("hadar[{params}]").parse().unwrap();
    Hadar::from_params(&params, false, &schedlab_core::PolicyEnv::new(schedlab_core::DataDir::none()))
        .err()
        .expect("an error")
        .to_string()
}

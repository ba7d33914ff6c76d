//! RLTune's environment loop in the engine: blocking without backfill, the authors' placement on
//! Philly's two node sizes, features on a hand-built queue, and the agent choosing.

use schedlab_cluster::TraceDuration;
use schedlab_core::{
    ClusterSpec, ClusterView, Context, GpuTypeSet, JobId, JobSpec, JobView, JobsView, NodeId, Policy, Time,
};
use schedlab_policies_rltune::network::{Agent, JOB_FEATURES, OBSERVATION};
use schedlab_policies_rltune::observation::{PoolRules, observe};
use schedlab_policies_rltune::{Chooser, Order, RlTune};
use schedlab_sim::{SimConfig, run};
use std::sync::Arc;

/// RLTune's Philly cluster: 16 nodes of 2 GPUs (ids 0-15) then 20 of 8 (16-35).
fn philly() -> Arc<ClusterSpec> {
    Arc::new(schedlab_policies_rltune::clusters::philly())
}

fn rigid(jobs: &[(f64, u32, f64)]) -> Vec<JobSpec> {
    jobs.iter()
        .enumerate()
        .map(|(index, &(arrival, gpus, duration))| {
            JobSpec::new(JobId(index as u32), Time::from_secs(arrival), gpus, "rigid", duration)
        })
        .collect()
}

fn simulate(chooser: Chooser, jobs: &[JobSpec]) -> schedlab_sim::RunResult {
    let mut policy = RlTune::new("rltune-test".to_string(), chooser, PoolRules::default(), false);
    let config = SimConfig { check_invariants: true, seed: 7, ..SimConfig::default() };
    run(philly(), jobs, &TraceDuration::uniform(), &mut policy, &config).unwrap()
}

#[test]
fn the_chosen_job_blocks_later_ones_until_it_fits() {
    // Job 0 takes 156 of 192 GPUs (20 eight-GPU nodes minus half of one... 19.5 nodes).
    // Job 1 (the next FCFS) needs 16: two whole 8-GPU nodes; only 4 GPUs of 8-GPU nodes are free.
    // Job 2 (one GPU) would fit on a 2-GPU node, but FCFS without backfill waits for job 1.
    let jobs = rigid(&[(0.0, 156, 100.0), (1.0, 16, 10.0), (2.0, 1, 10.0)]);
    let result = simulate(Chooser::Order(Order::Fcfs), &jobs);
    let starts: Vec<f64> = result.jobs.iter().map(|job| job.first_start.unwrap()).collect();
    assert_eq!(starts, vec![0.0, 100.0, 100.0]);
}

#[test]
fn small_jobs_take_the_two_gpu_nodes_and_large_ones_whole_eight_gpu_nodes() {
    let jobs = rigid(&[(0.0, 2, 100.0), (0.0, 4, 100.0), (0.0, 12, 100.0), (0.0, 5, 100.0)]);
    let mut policy = RlTune::new("fcfs".to_string(), Chooser::Order(Order::Fcfs), PoolRules::default(), false);
    let cluster = ClusterView::new(philly());
    let mut views = JobsView::with_capacity(jobs.len());
    for job in &jobs {
        views.insert(JobView::arrived(job, GpuTypeSet::ALL, None));
    }
    let context = Context {
        now: Time::ZERO,
        cluster: &cluster,
        jobs: &views,
        arrived: &[],
        finished: &[],
        rate_changed: &[],
        tick: false,
    };
    let decision = policy.schedule(&context).unwrap();
    let parts: Vec<Vec<(u32, u32)>> = decision
        .start
        .iter()
        .map(|(_, allocation)| allocation.parts.iter().map(|&(node, gpus)| (node.0, gpus)).collect())
        .collect();
    // 2 GPUs: node 0 (lowest index). 4 GPUs: nodes 1 and 2 (the 2-GPU pool's tier 1 sorts
    // before the 8-GPU pool's). 12: two 8-GPU nodes, 6 + 6 (lexicographically smallest).
    // 5 GPUs: more than 4, so only 8-GPU nodes; node 16 has 2 left, so node 18.
    assert_eq!(parts, vec![vec![(0, 2)], vec![(1, 2), (2, 2)], vec![(16, 6), (17, 6)], vec![(18, 5)]]);
}

#[test]
fn features_of_a_hand_built_queue() {
    let spec = philly();
    let mut cluster = ClusterView::new(spec.clone());
    // Node 16 runs a 6-GPU job: 186 of 192 GPUs free, one partial node.
    cluster.take(&schedlab_core::Allocation::on_node(NodeId(16), 6), None).unwrap();
    let specs = rigid(&[(0.0, 4, 10.0), (3600.0, 8, 10.0)]);
    let views: Vec<JobView> = specs.iter().map(|job| JobView::arrived(job, GpuTypeSet::ALL, None)).collect();
    let visible: Vec<&JobView> = views.iter().collect();
    let now = Time::from_secs(7200.0);
    let observation = observe(now, &cluster, &visible, &PoolRules::default());
    assert_eq!(observation.features.len(), OBSERVATION);
    assert_eq!(&observation.mask[..3], &[true, true, false]);
    let row = |slot: usize| &observation.features[slot * JOB_FEATURES..(slot + 1) * JOB_FEATURES];
    let near = |a: f32, b: f64| assert!((f64::from(a) - b).abs() < 1e-6, "{a} vs {b}");
    // Job 0: waited 2 h of 12; 4 of 8 GPUs; demand/supply (4/186)/192; near-future availability
    // ((186 - 4) - 8 + 192) / (2 * 192); 1 partial node of 36; ways: several tier-1 ways (2-GPU
    // pairs and 8-GPU nodes) and a tier 2 (three nodes of the 2-GPU pool? no: it would add a
    // partial node; but node 16's 2 free GPUs plus a 2-GPU node... merged counts give 3).
    let job0 = row(0);
    near(job0[0], 2.0 / 12.0);
    near(job0[1], 0.5);
    near(job0[2], (4.0 / 186.0) / 192.0);
    near(job0[3], (182.0 - 8.0 + 192.0) / (384.0 + 1e-5));
    near(job0[4], 1.0 / 36.0);
    assert!(job0[5] >= (2.0 / 3.0) as f32 - 1e-6, "{job0:?}");
    near(job0[6], (1.0 - 1e-5) * 1.5);
    // Job 1: waited 1 h; 8 GPUs is the largest node: capped just below 1.
    let job1 = row(1);
    near(job1[0], 1.0 / 12.0);
    near(job1[1], 1.0 - 1e-5);
    // An empty slot.
    assert_eq!(row(2), &[0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]);
}

#[test]
fn the_agent_runs_every_job_and_its_draws_follow_the_run_seed() {
    let jobs: Vec<JobSpec> = rigid(
        &(0..60)
            .map(|index| (index as f64 * 5.0, [1, 2, 4, 8, 32][index % 5], 600.0 + index as f64))
            .collect::<Vec<_>>(),
    );
    let agent = Arc::new(Agent::zeros());
    let a = simulate(Chooser::Agent { agent: agent.clone(), sample: true }, &jobs);
    let b = simulate(Chooser::Agent { agent, sample: true }, &jobs);
    assert!(a.jobs.iter().all(|job| job.jct.is_some()));
    assert!(a.jobs == b.jobs, "the same run seed gives the same draws");
    // Jobs queue here, and a uniform agent does not start them in arrival order.
    let fcfs = simulate(Chooser::Order(Order::Fcfs), &jobs);
    assert!(fcfs.jobs.iter().any(|job| job.queueing_delay.unwrap() > 0.0));
    assert!(a.jobs != fcfs.jobs, "the agent's order differs from FCFS");
}

#[test]
fn every_placement_mode_runs_a_queue_to_completion_with_valid_allocations() {
    use schedlab_policies_rltune::allocation::{Placement, WaysSolver, Weights};
    use schedlab_solver::Backend;
    let jobs: Vec<JobSpec> = rigid(
        &(0..80)
            .map(|index| (index as f64 * 30.0, [1, 2, 4, 8, 12, 3, 16][index % 7], 900.0 + 7.0 * index as f64))
            .collect::<Vec<_>>(),
    );
    let mut finished = Vec::new();
    for placement in [
        Placement::Greedy,
        Placement::Ways(WaysSolver::Enumerate, Weights::default()),
        Placement::Ways(WaysSolver::Solver(Backend::MicroLp), Weights::default()),
        Placement::Milp(Backend::MicroLp, Weights::default()),
    ] {
        let rules = PoolRules { placement, ..PoolRules::default() };
        let mut policy = RlTune::new("rltune-test".to_string(), Chooser::Order(Order::Fcfs), rules, false);
        // The engine checks every allocation against the cluster (invariants on).
        let config = SimConfig { check_invariants: true, seed: 7, ..SimConfig::default() };
        let result = run(philly(), &jobs, &TraceDuration::uniform(), &mut policy, &config).unwrap();
        assert!(result.jobs.iter().all(|job| job.jct.is_some()), "{placement:?}");
        finished.push(result.jobs);
    }
    // The authors' way MILP gives the same schedule enumerated or solved.
    assert!(finished[1] == finished[2]);
}

/// The first slot's features of `job` alone in the queue at time 0 on `cluster`.
fn features_alone(cluster: &ClusterView, job: &JobSpec, types: GpuTypeSet, rules: &PoolRules) -> Vec<f32> {
    let view = JobView::arrived(job, types, None);
    observe(Time::ZERO, cluster, &[&view], rules).features[..JOB_FEATURES].to_vec()
}

#[test]
fn helios_features_stay_in_the_job_vc_and_count_no_tier_2() {
    use schedlab_core::Allocation;
    let spec = Arc::new(schedlab_policies_rltune::clusters::helios());
    assert_eq!((spec.nodes().len(), spec.total_gpus()), (17, 136));
    let mut cluster = ClusterView::new(spec.clone());
    // vc2 is nodes 6-9: 5, 1, 1 and 0 GPUs free. vc1 (nodes 0-5) is untouched.
    for (node, used) in [(6, 3), (7, 7), (8, 7), (9, 8)] {
        cluster.take(&Allocation::on_node(NodeId(node), used), None).unwrap();
    }
    let mut job = rigid(&[(0.0, 2, 10.0)]).remove(0);
    job.pool = Some("vc2".to_string());
    let helios = PoolRules::for_env("helios");
    let row = features_alone(&cluster, &job, GpuTypeSet::ALL, &helios);
    let near = |a: f32, b: f64| assert!((f64::from(a) - b).abs() < 1e-6, "{a} vs {b}");
    // 2 of 8 GPUs; (2 / 7 free) / 32 GPUs of vc2; ((7 - 2) - 0 + 32) / 64; the three vc2 nodes
    // with a free GPU are all partial (Philly's rule would give 3 of 4 nodes).
    near(row[1], 0.25);
    near(row[2], (2.0 / 7.0) / 32.0);
    near(row[3], 37.0 / (64.0 + 1e-5));
    near(row[4], 1.0);
    near(features_alone(&cluster, &job, GpuTypeSet::ALL, &PoolRules::default())[4], 0.75);
    // One tier-1 way (node 6) and a tier-2 way (1 + 1 on nodes 7 and 8, filling both), which
    // Helios does not count: 1/3 and "can start, one way".
    near(row[5], 1.0 / 3.0);
    near(row[6], 1.0 - 1e-5);
    let with_tier2 = features_alone(&cluster, &job, GpuTypeSet::ALL, &PoolRules { tier2_feature: true, ..helios });
    near(with_tier2[5], 2.0 / 3.0);
    near(with_tier2[6], (1.0 - 1e-5) * 1.5);
    // The same job in vc1 sees an empty pool of 48 GPUs.
    job.pool = Some("vc1".to_string());
    let row = features_alone(&cluster, &job, GpuTypeSet::ALL, &helios);
    near(row[2], (2.0 / 48.0) / 48.0);
    near(row[4], 0.0);
}

#[test]
fn alibaba_features_use_the_job_gpu_type_pool_and_the_cluster_largest_node() {
    use schedlab_core::{Allocation, GpuTypeId};
    let spec = Arc::new(schedlab_policies_rltune::clusters::alibaba());
    assert_eq!((spec.nodes().len(), spec.total_gpus()), (49, 254));
    let mut cluster = ClusterView::new(spec.clone());
    // The T4 pool is nodes 0-7 of 2 GPUs: node 0 half used, node 1 full.
    cluster.take(&Allocation::on_node(NodeId(0), 1), None).unwrap();
    cluster.take(&Allocation::on_node(NodeId(1), 2), None).unwrap();
    let job = rigid(&[(0.0, 2, 10.0)]).remove(0);
    let t4 = GpuTypeSet::EMPTY.with(GpuTypeId(0));
    let alibaba = PoolRules::for_env("alibaba");
    let row = features_alone(&cluster, &job, t4, &alibaba);
    let near = |a: f32, b: f64| assert!((f64::from(a) - b).abs() < 1e-6, "{a} vs {b}");
    // 2 GPUs over the largest node of the cluster (8), not of the T4 pool (2).
    near(row[1], 0.25);
    near(row[2], (2.0 / 13.0) / 16.0);
    near(row[3], (11.0 + 16.0) / (32.0 + 1e-5));
    // One partial node among the 7 with a free GPU (Philly's rule would divide by all 8).
    near(row[4], 1.0 / 7.0);
    let philly_rule = features_alone(&cluster, &job, t4, &PoolRules::default());
    near(philly_rule[4], 1.0 / 8.0);
}

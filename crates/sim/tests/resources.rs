//! Parameter servers and CPUs, CPU nodes, pools and required GPU types, worked out by hand.

use crate::common::Scripted;
use schedlab_cluster::{NodeEntry, PerfError, PerfModel, Placement, TraceDuration, build};
use schedlab_core::{Allocation, ClusterSpec, Decision, JobId, JobSpec, NodeId, Time};
use schedlab_sim::{SimConfig, SimError, run};
use std::sync::Arc;

/// Node 0: 4 v100 and 8 CPUs in group a; node 1: 4 k80 and 8 CPUs in group b; node 2: no GPUs
/// and 6 CPUs in group a.
fn cluster() -> Arc<ClusterSpec> {
    let entry = |gpu_type: Option<&str>, gpus, cpus, group: &str| NodeEntry {
        name: None,
        gpu_type: gpu_type.map(str::to_string),
        gpus,
        cpus: Some(cpus),
        mem_gib: None,
        group: Some(group.to_string()),
        count: None,
    };
    let entries = [entry(Some("v100"), 4, 8.0, "a"), entry(Some("k80"), 4, 8.0, "b"), entry(None, 0, 6.0, "a")];
    Arc::new(build::from_node_list(&entries).unwrap())
}

/// DL2's shape: a job's speed grows with its servers, here `workers x ps / (ps + 1)` steps/s.
struct ServerBound;

impl PerfModel for ServerBound {
    fn describe(&self) -> String {
        "server-bound test model".into()
    }

    fn rate(&self, _: &JobSpec, _: &str, gpus: u32) -> Result<f64, PerfError> {
        Ok(f64::from(gpus))
    }

    fn segment(
        &self,
        job: &JobSpec,
        placement: &Placement<'_>,
        _: f64,
    ) -> Result<schedlab_cluster::RateSegment, PerfError> {
        let workers = self.allocation_rate(job, placement.parts)?;
        let ps = f64::from(placement.ps);
        Ok(schedlab_cluster::RateSegment { rate: workers * ps / (ps + 1.0), until: None })
    }
}

fn config() -> SimConfig {
    SimConfig { check_invariants: true, ..SimConfig::default() }
}

fn start(job: u32, allocation: Allocation) -> Decision {
    Decision { start: vec![(JobId(job), allocation)], ..Decision::none() }
}

#[test]
fn parameter_servers_set_the_rate_and_take_cpus_on_a_cpu_node() {
    // 2 workers and 3 servers: 2 x 3 / 4 = 1.5 steps/s, so 30 steps take 20 s. The servers use
    // 2 CPUs each on the CPU node (6 of its 6), the workers 1 CPU per GPU on node 0.
    let job = JobSpec { ps_cpus: Some(2.0), ..JobSpec::new(JobId(0), Time::ZERO, 2, "m", 30.0).with_cpus(2.0) };
    let allocation = Allocation::on_node(NodeId(0), 2).with_ps(vec![(NodeId(2), 3)]);
    let result = run(cluster(), &[job], &ServerBound, &mut Scripted(vec![start(0, allocation)]), &config()).unwrap();
    assert_eq!(result.jobs[0].jct, Some(20.0));
}

#[test]
fn servers_beyond_a_nodes_cpus_are_refused() {
    // Four servers of 2 CPUs need 8 CPUs on the CPU node, which has 6.
    let job = JobSpec { ps_cpus: Some(2.0), ..JobSpec::new(JobId(0), Time::ZERO, 2, "m", 30.0) };
    let allocation = Allocation::on_node(NodeId(0), 2).with_ps(vec![(NodeId(2), 4)]);
    let error = run(cluster(), &[job], &ServerBound, &mut Scripted(vec![start(0, allocation)]), &config())
        .unwrap_err()
        .to_string();
    assert!(error.contains("invalid decision for job 0 on node 2") && error.contains("6 free CPUs but 8"), "{error}");
}

#[test]
fn workers_and_servers_share_a_nodes_cpus() {
    // Two jobs on node 0 (8 CPUs): the first's 2 workers take 2 x 3 CPUs, its server 1 more;
    // the second's one worker needs 3 more, but only 1 is left.
    let jobs = vec![
        JobSpec::new(JobId(0), Time::ZERO, 2, "m", 30.0).with_cpus(6.0),
        JobSpec::new(JobId(1), Time::ZERO, 1, "m", 30.0).with_cpus(3.0),
    ];
    let decision = Decision {
        start: vec![
            (JobId(0), Allocation::on_node(NodeId(0), 2).with_ps(vec![(NodeId(0), 1)])),
            (JobId(1), Allocation::on_node(NodeId(0), 1).with_ps(vec![(NodeId(0), 1)])),
        ],
        ..Decision::none()
    };
    let error = run(cluster(), &jobs, &ServerBound, &mut Scripted(vec![decision]), &config()).unwrap_err();
    assert!(matches!(error, SimError::InvalidDecision { job: Some(JobId(1)), node: Some(NodeId(0)), .. }), "{error}");
}

#[test]
fn gpus_on_a_cpu_node_are_refused() {
    let job = JobSpec::new(JobId(0), Time::ZERO, 1, "m", 30.0);
    let error = run(
        cluster(),
        &[job],
        &TraceDuration::uniform(),
        &mut Scripted(vec![start(0, Allocation::on_node(NodeId(2), 1))]),
        &config(),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("on node 2: the node has no GPUs"), "{error}");
}

#[test]
fn a_pool_keeps_a_job_and_its_servers_on_its_groups_nodes() {
    let job = || JobSpec { pool: Some("b".into()), ..JobSpec::new(JobId(0), Time::ZERO, 1, "m", 30.0) };
    let uniform = TraceDuration::uniform();
    let outside = start(0, Allocation::on_node(NodeId(0), 1));
    let error = run(cluster(), &[job()], &uniform, &mut Scripted(vec![outside]), &config()).unwrap_err().to_string();
    assert!(error.contains("may only use nodes of its pool 'b'") && error.contains("in 'a'"), "{error}");
    let server_outside = start(0, Allocation::on_node(NodeId(1), 1).with_ps(vec![(NodeId(2), 1)]));
    let error = run(cluster(), &[job()], &ServerBound, &mut Scripted(vec![server_outside]), &config()).unwrap_err();
    assert!(error.to_string().contains("outside the job's pool 'b'"), "{error}");
    let inside = start(0, Allocation::on_node(NodeId(1), 1));
    let result = run(cluster(), &[job()], &uniform, &mut Scripted(vec![inside]), &config()).unwrap();
    assert_eq!(result.jobs[0].jct, Some(30.0));
    // A pool's GPUs bound the job's size before anything runs.
    let too_large = JobSpec { gpus: 5, ..job() };
    let error = run(cluster(), &[too_large], &uniform, &mut Scripted(vec![]), &config()).unwrap_err();
    assert!(error.to_string().contains("requests 5 GPUs but its pool 'b' has 4"), "{error}");
}

#[test]
fn a_required_gpu_type_restricts_the_feasible_types() {
    // A zoo policy places the job: FIFO sees only k80 as feasible and puts it on node 1.
    let job = JobSpec { gpu_type: Some("k80".into()), ..JobSpec::new(JobId(0), Time::ZERO, 1, "m", 30.0) };
    let result = crate::common::simulate_with(
        "fifo",
        cluster(),
        std::slice::from_ref(&job),
        &TraceDuration::uniform(),
        &config(),
    )
    .unwrap();
    assert_eq!(result.jobs[0].gpu_seconds, vec![0.0, 30.0]);
    let error = run(
        cluster(),
        &[job],
        &TraceDuration::uniform(),
        &mut Scripted(vec![start(0, Allocation::on_node(NodeId(0), 1))]),
        &config(),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("cannot run on GPU type 'v100'"), "{error}");
    let unknown = JobSpec { gpu_type: Some("a100".into()), ..JobSpec::new(JobId(0), Time::ZERO, 1, "m", 30.0) };
    let error = run(cluster(), &[unknown], &TraceDuration::uniform(), &mut Scripted(vec![]), &config()).unwrap_err();
    assert!(
        error.to_string().contains("requires GPU type 'a100', which the cluster does not have (v100, k80)"),
        "{error}"
    );
}

#[test]
fn a_zoo_policy_places_pooled_jobs_inside_their_pools() {
    // Two 4-GPU jobs in pool b: FIFO runs them one after the other on node 1, never on node 0.
    let jobs: Vec<JobSpec> = (0..2)
        .map(|id| JobSpec { pool: Some("b".into()), ..JobSpec::new(JobId(id), Time::ZERO, 4, "m", 30.0) })
        .collect();
    let result = crate::common::simulate_with("fifo", cluster(), &jobs, &TraceDuration::uniform(), &config()).unwrap();
    let jcts: Vec<Option<f64>> = result.jobs.iter().map(|job| job.jct).collect();
    assert_eq!(jcts, vec![Some(30.0), Some(60.0)]);
}

//! Test helpers for policy authors, so that a policy's test reads like the scenario it checks:
//!
//! ```
//! use schedlab_testkit::{JobSpecExt, Scenario, job};
//! # use schedlab_core::{Context, Decision, Policy, PolicyError};
//! # struct StartNothing;
//! # impl Policy for StartNothing {
//! #     fn name(&self) -> &str { "start-nothing" }
//! #     fn schedule(&mut self, _: &Context<'_>) -> Result<Decision, PolicyError> { Ok(Decision::none()) }
//! # }
//! // Two nodes of 4 V100s in pool vc1, one node of 8 K80s in vc2, 32 CPUs each.
//! let mut scenario = Scenario::new("2x4 v100 @vc1 cpus=32, 1x8 k80 @vc2 cpus=32");
//! scenario.arrive(job(0, 0.0, 4, 3600.0));
//! scenario.arrive(job(1, 0.0, 2, 600.0).in_pool("vc2"));
//! scenario.running(0, 1); // job 0 runs on node 1
//! let decision = scenario.decide(&mut StartNothing).unwrap();
//! assert!(decision.start.is_empty());
//! ```
//!
//! [`run`] sends a small workload through the real engine (rigid jobs whose work is their
//! duration in seconds on any GPU type) and returns one record per job.

use schedlab_core::{
    Allocation, ClusterSpec, ClusterView, Context, DataDir, Decision, GpuTypeId, GpuTypeSet, JobId, JobSpec, JobView,
    JobsView, Node, NodeId, Policy, PolicyEntry, PolicyEnv, PolicyError, PolicyParams, Time,
};
use schedlab_sim::{JobRecord, SimConfig};
use std::sync::Arc;

/// A cluster from a one-line description: comma-separated groups of
/// `COUNTxGPUS TYPE [@POOL] [cpus=N]`, e.g. `"2x4 v100 @vc1 cpus=32, 1x8 k80"`. Nodes are numbered
/// in the order written (node 0 is the first of the first group); GPU types get ids in the
/// order they first appear.
///
/// # Panics
/// Panics, naming the part and what was expected, on a malformed description (tests want the
/// message, not a `Result`).
pub fn cluster(description: &str) -> Arc<ClusterSpec> {
    let mut types: Vec<String> = Vec::new();
    let mut nodes = Vec::new();
    for part in description.split(',').map(str::trim) {
        let expected = || {
            format!("cluster part '{part}': expected COUNTxGPUS TYPE [@POOL] [cpus=N], e.g. '2x4 v100 @vc1 cpus=32'")
        };
        let mut words = part.split_whitespace();
        let (count, gpus) =
            words.next().and_then(|size| size.split_once('x')).unwrap_or_else(|| panic!("{}", expected()));
        let number = |text: &str| text.parse::<u32>().unwrap_or_else(|_| panic!("{}", expected()));
        let (count, gpus) = (number(count), number(gpus));
        let gpu_type = words.next().unwrap_or_else(|| panic!("{}", expected())).to_string();
        let (mut group, mut cpus) = (None, None);
        for word in words {
            if let Some(pool) = word.strip_prefix('@') {
                group = Some(pool.to_string());
            } else if let Some(value) = word.strip_prefix("cpus=") {
                cpus = Some(value.parse::<f64>().unwrap_or_else(|_| panic!("{}", expected())));
            } else {
                panic!("{}", expected());
            }
        }
        let type_id = match types.iter().position(|known| *known == gpu_type) {
            Some(index) => index,
            None => {
                types.push(gpu_type.clone());
                types.len() - 1
            }
        };
        for _ in 0..count {
            nodes.push(Node {
                name: format!("n{}", nodes.len()),
                gpu_type: GpuTypeId(type_id as u16),
                gpus,
                cpus,
                mem_gib: None,
                group: group.clone(),
            });
        }
    }
    Arc::new(ClusterSpec::new(types, nodes).unwrap_or_else(|error| panic!("cluster '{description}': {error}")))
}

/// Builds the policy written as `text` (`fifo[backfill=true]`, say) from a crate's registry
/// entries (its `POLICIES`), with the data directory found as the tool finds it.
///
/// # Panics
/// Panics with the registry's message on an unknown name or a bad parameter.
pub fn policy(entries: &[PolicyEntry], text: &str) -> Box<dyn Policy> {
    let params: PolicyParams = text.parse().unwrap_or_else(|error| panic!("'{text}': {error}"));
    let entry = entries.iter().find(|entry| entry.name == params.name).unwrap_or_else(|| {
        let known: Vec<&str> = entries.iter().map(|entry| entry.name).collect();
        panic!("'{text}': no policy '{}' among {}", params.name, known.join(", "))
    });
    entry.build(&params, &PolicyEnv::new(DataDir::locate())).unwrap_or_else(|error| panic!("'{text}': {error}"))
}

/// A rigid job: id `id`, arriving at `arrival` seconds, needing `gpus` GPUs and `seconds` of
/// running on any GPU type (type `"job"`). Refine it with [`JobSpecExt`].
pub fn job(id: u32, arrival: f64, gpus: u32, seconds: f64) -> JobSpec {
    JobSpec::new(JobId(id), Time::from_secs(arrival), gpus, "job", seconds)
}

/// Refinements of a [`JobSpec`] for tests.
pub trait JobSpecExt {
    /// The job may only run on the nodes of pool (group) `pool`.
    fn in_pool(self, pool: &str) -> JobSpec;
    /// The job's type (the perf model's key; policies may read it).
    fn of_type(self, job_type: &str) -> JobSpec;
}

impl JobSpecExt for JobSpec {
    fn in_pool(mut self, pool: &str) -> JobSpec {
        self.pool = Some(pool.to_string());
        self
    }

    fn of_type(mut self, job_type: &str) -> JobSpec {
        self.job_type = job_type.to_string();
        self
    }
}

/// A cluster state a policy is asked to decide in: jobs that arrived, some of them running.
pub struct Scenario {
    cluster: ClusterView,
    jobs: JobsView,
    now: Time,
    arrived: Vec<JobId>,
}

impl Scenario {
    /// An empty cluster (see [`cluster`] for the description) at time 0.
    pub fn new(description: &str) -> Scenario {
        Scenario {
            cluster: ClusterView::new(cluster(description)),
            jobs: JobsView::with_capacity(0),
            now: Time::ZERO,
            arrived: Vec::new(),
        }
    }

    /// Sets the time of the decision, in seconds.
    pub fn at(&mut self, seconds: f64) -> &mut Scenario {
        self.now = Time::from_secs(seconds);
        self
    }

    /// Job `spec` has arrived (and is in the decision's `arrived` list); queued until
    /// [`Scenario::running`].
    pub fn arrive(&mut self, spec: JobSpec) -> &mut Scenario {
        self.arrived.push(spec.id);
        self.jobs.insert(JobView::arrived(&spec, GpuTypeSet::ALL, None));
        self
    }

    /// Job `id` runs on node `node` (all its GPUs there, with its CPUs), since the decision's
    /// time.
    ///
    /// # Panics
    /// Panics if the job has not arrived, already runs, or does not fit on the node.
    pub fn running(&mut self, id: u32, node: usize) -> &mut Scenario {
        let id = JobId(id);
        let job = self.jobs.get(id).unwrap_or_else(|| panic!("job {}: arrive it before running it", id.0));
        assert!(!job.is_running(), "job {} already runs", id.0);
        let allocation = Allocation::new(vec![(NodeId(node as u32), job.gpus)]);
        let cpus = job.cpu_demand();
        self.cluster
            .take(&allocation, cpus)
            .unwrap_or_else(|error| panic!("job {} does not fit on node {node}: {error}", id.0));
        let view = self.jobs.get_mut(id).expect("present");
        view.record_start(self.now, allocation, 1.0, self.now);
        self.jobs.sync_state(id);
        self
    }

    /// Asks `policy` for its decision in this state (nothing finished, no tick).
    pub fn decide(&self, policy: &mut dyn Policy) -> Result<Decision, PolicyError> {
        let context = Context {
            now: self.now,
            cluster: &self.cluster,
            jobs: &self.jobs,
            arrived: &self.arrived,
            finished: &[],
            rate_changed: &[],
            tick: false,
        };
        policy.schedule(&context)
    }
}

/// Runs `jobs` with `policy` through the real engine on the cluster `description` (see
/// [`cluster`]); each job's work is its running time in seconds on any GPU type. Returns one
/// record per job, in id order, or the engine's error (an invalid decision, a stall) as text.
pub fn run(policy: &mut dyn Policy, description: &str, jobs: &[JobSpec]) -> Result<Vec<JobRecord>, String> {
    let perf = schedlab_cluster::TraceDuration::uniform();
    let result = schedlab_sim::run(cluster(description), jobs, &perf, policy, &SimConfig::default())
        .map_err(|error| error.to_string())?;
    Ok(result.jobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_description_gives_nodes_in_order_with_pools_and_cpus() {
        let spec = cluster("2x4 v100 @vc1 cpus=32, 1x8 k80");
        assert_eq!(spec.gpu_types(), ["v100".to_string(), "k80".to_string()]);
        let nodes: Vec<(u32, Option<&str>, Option<f64>)> =
            spec.nodes().iter().map(|node| (node.gpus, node.group.as_deref(), node.cpus)).collect();
        assert_eq!(nodes, [(4, Some("vc1"), Some(32.0)), (4, Some("vc1"), Some(32.0)), (8, None, None)]);
    }

    #[test]
    #[should_panic(expected = "cluster part '2 v100': expected COUNTxGPUS TYPE")]
    fn a_malformed_description_says_what_was_expected() {
        cluster("2 v100");
    }
}

//! The agent's view of the queue: up to 128 waiting jobs in arrival order, 7 features each, as
//! `build_observation` of the authors' Philly environment computes them.

use crate::allocation::{Placement, Pool};
use crate::network::{JOB_FEATURES, OBSERVATION, QUEUE_SLOTS};
use crate::placement::{Ways, find_ways};
use schedlab_core::{ClusterView, JobView, Time};

/// The environment's cap on the normalised wait, `MAX_WAIT_TIME`: 12 hours.
pub const MAX_WAIT_SECONDS: f64 = 12.0 * 3600.0;
/// Values the environment keeps just below 1 (`1.0 - 1e-5`).
const ALMOST_ONE: f64 = 1.0 - 1e-5;
/// The environment's stand-in for zero (`1e-5`).
const EPSILON: f64 = 1e-5;

/// Choices the authors' environments make differently per trace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoolRules {
    /// Jobs of more GPUs than this avoid nodes smaller than the pool's largest (Philly: jobs of
    /// more than 4 GPUs use only the 8-GPU nodes, `Cluster_philly.get_allocation_options`).
    pub small_node_limit: u32,
    /// The fragmentation feature divides partially used nodes by every node of the pool
    /// (`true`, Philly) or by the nodes with a free GPU (`false`, Helios).
    pub fragmentation_over_all_nodes: bool,
    /// The "ways to schedule" feature counts tier 2 (Philly and Alibaba ask for it,
    /// `allow_relax_min_nodes=True`; Helios' `build_observation` does not, so its count is
    /// tier 1's only).
    pub tier2_feature: bool,
    /// Where a job that may start is placed.
    pub placement: Placement,
}

impl Default for PoolRules {
    fn default() -> PoolRules {
        PoolRules {
            small_node_limit: 4,
            fragmentation_over_all_nodes: true,
            tier2_feature: true,
            placement: Placement::Greedy,
        }
    }
}

impl PoolRules {
    /// The rules of one of the authors' environments: `philly` ([`PoolRules::default`]),
    /// `helios` (fragmentation over nodes with a free GPU, helios_env_base_v2.py 1488; no tier 2
    /// in the ways feature, 1505) or `alibaba` (fragmentation over nodes with a free GPU,
    /// alibaba_env_base_v2.py 403; tier 2 counted, 420). Placement is greedy in all three.
    pub fn for_env(env: &str) -> PoolRules {
        match env {
            "helios" => PoolRules { fragmentation_over_all_nodes: false, tier2_feature: false, ..PoolRules::default() },
            "alibaba" => PoolRules { fragmentation_over_all_nodes: false, ..PoolRules::default() },
            _ => PoolRules::default(),
        }
    }
}

/// The pools `job` may use now: one per capacity class of its nodes, each with its nodes' free
/// GPUs. Jobs of more than `small_node_limit` GPUs skip classes smaller than the largest.
pub fn job_pools(cluster: &ClusterView, job: &JobView, rules: &PoolRules) -> Vec<Pool> {
    let spec = cluster.spec();
    let mut capacities: Vec<u32> =
        spec.nodes().iter().filter(|node| node.gpus > 0 && job.may_use(node)).map(|node| node.gpus).collect();
    capacities.sort_unstable();
    capacities.dedup();
    let largest = capacities.last().copied().unwrap_or(0);
    capacities
        .iter()
        .filter(|&&capacity| capacity == largest || job.gpus <= rules.small_node_limit)
        .map(|&capacity| Pool {
            capacity,
            free: spec
                .nodes()
                .iter()
                .enumerate()
                .filter(|(_, node)| node.gpus == capacity && job.may_use(node))
                .map(|(index, _)| (index, cluster.free_gpus(schedlab_core::NodeId(index as u32))))
                .filter(|&(_, free)| free > 0)
                .collect(),
        })
        .collect()
}

/// The ways to place `job` now: the tiers of its pools ([`job_pools`]), merged. Tier 2 only for
/// jobs of more than one GPU.
pub fn placement_ways(cluster: &ClusterView, job: &JobView, rules: &PoolRules) -> Ways {
    let mut ways = Ways::default();
    for pool in job_pools(cluster, job, rules) {
        ways.merge(find_ways(&pool.free, job.gpus, pool.capacity, job.gpus > 1));
    }
    ways
}

/// Pool-wide numbers for one job: free GPUs, capacity, fragmentation.
struct PoolState {
    free: u32,
    capacity: u32,
    fragmentation: f64,
}

fn pool_state(cluster: &ClusterView, job: &JobView, rules: &PoolRules) -> PoolState {
    let (mut free, mut capacity, mut partial, mut nodes, mut nodes_with_free) = (0, 0, 0, 0, 0);
    for (index, node) in cluster.spec().nodes().iter().enumerate() {
        if node.gpus == 0 || !job.may_use(node) {
            continue;
        }
        let node_free = cluster.free_gpus(schedlab_core::NodeId(index as u32));
        free += node_free;
        capacity += node.gpus;
        nodes += 1;
        if node_free > 0 {
            nodes_with_free += 1;
            if node_free < node.gpus {
                partial += 1;
            }
        }
    }
    let denominator = if rules.fragmentation_over_all_nodes { nodes } else { nodes_with_free };
    PoolState { free, capacity, fragmentation: partial as f64 / f64::max(denominator as f64, EPSILON) }
}

/// Two jobs share a pool when they may use the same nodes (same pool and GPU types).
fn same_pool(a: &JobView, b: &JobView) -> bool {
    a.pool == b.pool && a.feasible_types == b.feasible_types
}

/// The features of an empty slot (the authors' padding: `[0, 1, 1, 1, 1, 1, 0]`).
pub const EMPTY_SLOT: [f32; JOB_FEATURES] = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0];

/// The observation of the first [`QUEUE_SLOTS`] jobs of `visible` (already in the agent's order)
/// and the mask of occupied slots.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// `QUEUE_SLOTS * JOB_FEATURES` features; empty slots hold [`EMPTY_SLOT`].
    pub features: Vec<f32>,
    /// True for occupied slots.
    pub mask: Vec<bool>,
}

/// Builds the observation of `visible` (at most [`QUEUE_SLOTS`] jobs are used).
pub fn observe(now: Time, cluster: &ClusterView, visible: &[&JobView], rules: &PoolRules) -> Observation {
    let visible = &visible[..visible.len().min(QUEUE_SLOTS)];
    let mut features = Vec::with_capacity(OBSERVATION);
    let mut mask = vec![false; QUEUE_SLOTS];
    // The environments divide a job's GPUs by the largest node of the whole cluster
    // (`loads.max_gpu`: 8 on Philly, Helios and Alibaba alike), whatever pool the job is in.
    let largest_node = cluster.spec().nodes().iter().map(|node| node.gpus).max().unwrap_or(1).max(1);
    // Ways depend only on the job's pool and size while the cluster is fixed (the authors cache
    // them by size).
    let mut cache: Vec<(&JobView, (u32, bool))> = Vec::new();
    for (slot, job) in visible.iter().enumerate() {
        mask[slot] = true;
        let pool = pool_state(cluster, job, rules);
        let demand: u32 = visible.iter().filter(|other| same_pool(job, other)).map(|other| other.gpus).sum();
        let future_demand = f64::from(demand) - f64::from(job.gpus);
        let (num_ways, can_start) =
            match cache.iter().find(|(other, _)| same_pool(job, other) && other.gpus == job.gpus) {
                Some(&(_, found)) => found,
                None => {
                    let ways = placement_ways(cluster, job, rules);
                    let count = if rules.tier2_feature { ways.count() } else { ways.tier1_count() };
                    let found = (count, !ways.tier1.is_empty());
                    cache.push((job, found));
                    found
                }
            };
        let wait = (now.secs() - job.arrival.secs()).max(0.0);
        let gpus = f64::from(job.gpus);
        let free = f64::from(pool.free);
        let total = f64::from(pool.capacity);
        let can_start_now = match (can_start, num_ways >= 2) {
            (true, true) => ALMOST_ONE * 1.5,
            (true, false) => ALMOST_ONE,
            (false, _) => EPSILON,
        };
        let ways_feature = if num_ways > 0 { (f64::from(num_ways) / 3.0).min(ALMOST_ONE) } else { EPSILON };
        let supply = ((gpus / free.max(EPSILON)) / total.max(1.0)).min(ALMOST_ONE);
        let near_future = ((free - gpus) - future_demand + total) / (2.0 * total + EPSILON);
        let row = [
            (wait / MAX_WAIT_SECONDS).min(ALMOST_ONE),
            (gpus / f64::from(largest_node)).min(ALMOST_ONE),
            supply,
            near_future.clamp(0.0, ALMOST_ONE),
            pool.fragmentation,
            ways_feature,
            can_start_now,
        ];
        features.extend(row.iter().map(|&v| v as f32));
    }
    for _ in visible.len()..QUEUE_SLOTS {
        features.extend_from_slice(&EMPTY_SLOT);
    }
    debug_assert_eq!(features.len(), QUEUE_SLOTS * JOB_FEATURES);
    Observation { features, mask }
}

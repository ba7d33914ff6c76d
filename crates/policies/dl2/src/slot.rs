//! One scheduling slot of DL2's simulator (`scheduler_base.py`, `rl_env.py`, `cluster.py`):
//! every allocation is cleared, and tasks (a worker, a parameter server, or both) are added one
//! at a time, each on the least-loaded node.

use schedlab_core::{ClusterSpec, GpuTypeId, JobId, Node, NodeId};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// DL2's large-scale cluster with `nodes` nodes (`parameters.py`: 500), each with 8 CPUs and
/// 2 GPUs (8 CPU slots and 8 GPU slots, a GPU being 4), all of GPU type `gpu`.
pub fn dl2_cluster(nodes: usize) -> ClusterSpec {
    let nodes = (0..nodes)
        .map(|index| Node {
            name: format!("n{index}"),
            gpu_type: GpuTypeId(0),
            gpus: 2,
            cpus: Some(8.0),
            mem_gib: None,
            group: None,
        })
        .collect();
    ClusterSpec::new(vec!["gpu".into()], nodes).expect("a valid cluster")
}

/// What one action adds to a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// One worker (one GPU and its CPUs).
    Worker,
    /// One parameter server (CPUs only).
    Ps,
    /// One of each, on the same node.
    Bundle,
}

impl Task {
    /// The three tasks in the order of DL2's actions per job (`3i`, `3i + 1`, `3i + 2`).
    pub const ALL: [Task; 3] = [Task::Worker, Task::Ps, Task::Bundle];
}

/// A job as one slot sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotJob {
    /// The engine's id.
    pub id: JobId,
    /// The model (the job type), which Optimus's speed estimates need.
    pub model: std::sync::Arc<str>,
    /// DL2's job type (1 to 8, `trace.py`'s model order; 0 for another model), the state's
    /// first row.
    pub type_number: u32,
    /// The slot the job arrived in (the first slot boundary at or after its arrival).
    pub arrival_slot: u64,
    /// Declared epochs to completion (DL2's `num_epochs`).
    pub epochs: f64,
    /// Epochs done when the slot began.
    pub progress: f64,
    /// CPUs of one worker.
    pub worker_cpus: f64,
    /// CPUs of one parameter server.
    pub ps_cpus: f64,
    /// The node of each worker, in the order they were added.
    pub worker_nodes: Vec<NodeId>,
    /// The node of each parameter server, in the order they were added.
    pub ps_nodes: Vec<NodeId>,
    /// Dominant share: the larger of its CPUs and GPUs over the cluster's (`job.dom_share`).
    pub dom_share: f64,
}

impl SlotJob {
    /// Workers this slot.
    pub fn workers(&self) -> u32 {
        self.worker_nodes.len() as u32
    }

    /// Parameter servers this slot.
    pub fn ps(&self) -> u32 {
        self.ps_nodes.len() as u32
    }

    /// DL2's remaining fraction, `1 - progress / num_epochs`.
    pub fn remaining_fraction(&self) -> f64 {
        1.0 - self.progress / self.epochs
    }
}

/// Per-node resources used this slot and the least-loaded order (`rl_env.py`'s
/// `node_used_resr_queue`: a priority queue of `(used slots, node)`).
#[derive(Clone, Debug)]
pub struct SlotCluster {
    cpus: Vec<f64>,
    gpus: Vec<u32>,
    used_cpus: Vec<f64>,
    used_gpus: Vec<u32>,
    total_cpus: f64,
    total_gpus: f64,
    gpu_weight: f64,
    queue: BinaryHeap<Reverse<(Load, usize)>>,
}

/// A node's load as a totally ordered key.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Load(f64);

impl Eq for Load {}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Load {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl SlotCluster {
    /// An empty slot on `cluster`, whose nodes must declare CPUs. A node's load is its used
    /// CPUs plus `gpu_weight` per used GPU (DL2 counts a GPU as 4 of a node's 8 GPU slots and a
    /// CPU as one of its 8 CPU slots, and orders nodes by the sum).
    pub fn new(cluster: &ClusterSpec, gpu_weight: f64) -> Result<SlotCluster, String> {
        let mut cpus = Vec::with_capacity(cluster.nodes().len());
        for node in cluster.nodes() {
            cpus.push(node.cpus.ok_or_else(|| {
                format!(
                    "node '{}' declares no CPUs; DL2 places workers and parameter servers by CPUs and GPUs",
                    node.name
                )
            })?);
        }
        let gpus: Vec<u32> = cluster.nodes().iter().map(|node| node.gpus).collect();
        let n = gpus.len();
        let mut slot = SlotCluster {
            total_cpus: cpus.iter().sum(),
            total_gpus: gpus.iter().map(|&gpus| gpus as f64).sum(),
            cpus,
            gpus,
            used_cpus: vec![0.0; n],
            used_gpus: vec![0; n],
            gpu_weight,
            queue: BinaryHeap::with_capacity(n),
        };
        slot.clear();
        Ok(slot)
    }

    /// Frees every node (a new slot).
    pub fn clear(&mut self) {
        self.used_cpus.iter_mut().for_each(|used| *used = 0.0);
        self.used_gpus.iter_mut().for_each(|used| *used = 0);
        self.queue.clear();
        self.queue.extend((0..self.cpus.len()).map(|node| Reverse((Load(0.0), node))));
    }

    /// Returns the number of nodes.
    pub fn nodes(&self) -> usize {
        self.cpus.len()
    }

    /// Returns the node's load (used CPUs + `gpu_weight` x used GPUs).
    pub fn load(&self, node: usize) -> f64 {
        self.used_cpus[node] + self.gpu_weight * self.used_gpus[node] as f64
    }

    /// Returns the node's used `(CPUs, GPUs)`.
    pub fn used(&self, node: usize) -> (f64, u32) {
        (self.used_cpus[node], self.used_gpus[node])
    }

    /// Returns the node's capacity `(CPUs, GPUs)`.
    pub fn capacity(&self, node: usize) -> (f64, u32) {
        (self.cpus[node], self.gpus[node])
    }

    /// Takes `(cpus, gpus)` on `node` if they fit (`cluster.py`, `alloc`).
    pub fn try_take(&mut self, node: usize, cpus: f64, gpus: u32) -> bool {
        if self.used_cpus[node] + cpus > self.cpus[node] || self.used_gpus[node] + gpus > self.gpus[node] {
            return false;
        }
        self.used_cpus[node] += cpus;
        self.used_gpus[node] += gpus;
        true
    }

    /// Removes and returns the least-loaded node (lowest load, then lowest index).
    pub fn pop_least_loaded(&mut self) -> Option<usize> {
        self.queue.pop().map(|Reverse((_, node))| node)
    }

    /// Puts `node` back in the order at its current load.
    pub fn push(&mut self, node: usize) {
        self.queue.push(Reverse((Load(self.load(node)), node)));
    }

    /// Returns how many CPUs one GPU counts as in a node's load.
    pub fn gpu_weight(&self) -> f64 {
        self.gpu_weight
    }

    /// Returns `(total CPUs, total GPUs)` of the cluster.
    pub fn totals(&self) -> (f64, f64) {
        (self.total_cpus, self.total_gpus)
    }
}

/// The jobs of one slot and the cluster they are placed on.
#[derive(Clone, Debug)]
pub struct Slot {
    /// The slot's index (time / slot length).
    pub index: u64,
    /// Uncompleted jobs in arrival order (DL2's `uncompleted_jobs`, sorted as `observe` sorts).
    pub jobs: Vec<SlotJob>,
    /// Per-node use.
    pub cluster: SlotCluster,
    /// Most workers of a job (`MAX_NUM_WORKERS`, 16).
    pub max_workers: u32,
    /// Most parameter servers of a job (also `MAX_NUM_WORKERS`).
    pub max_ps: u32,
}

impl Slot {
    /// Returns the `(CPUs, GPUs)` a task of job `job` needs.
    pub fn demand(&self, job: usize, task: Task) -> (f64, u32) {
        let job = &self.jobs[job];
        match task {
            Task::Worker => (job.worker_cpus, 1),
            Task::Ps => (job.ps_cpus, 0),
            Task::Bundle => (job.worker_cpus + job.ps_cpus, 1),
        }
    }

    /// Adds `task` to job `job` on the least-loaded node; returns false (and changes nothing
    /// but the node order) when it does not fit there. The node goes back into the order
    /// either way (DL2's heuristics put it back; its RL environment ends the slot instead,
    /// after which the order is rebuilt, so the two agree).
    pub fn place(&mut self, job: usize, task: Task) -> bool {
        let Some(node) = self.cluster.pop_least_loaded() else {
            return false;
        };
        let placed = self.place_on(job, task, node);
        self.cluster.push(node);
        placed
    }

    /// Adds `task` to job `job` on `node` if it fits there.
    pub fn place_on(&mut self, job: usize, task: Task, node: usize) -> bool {
        let (cpus, gpus) = self.demand(job, task);
        if !self.cluster.try_take(node, cpus, gpus) {
            return false;
        }
        self.record(job, task, node);
        true
    }

    /// Books `task` of job `job` on `node` whose resources were already taken (DRF takes a
    /// bundle's resources at once but adds its worker and its server as two steps).
    pub fn record(&mut self, job: usize, task: Task, node: usize) {
        let (total_cpus, total_gpus) = self.cluster.totals();
        let entry = &mut self.jobs[job];
        let node = NodeId(node as u32);
        if matches!(task, Task::Worker | Task::Bundle) {
            entry.worker_nodes.push(node);
        }
        if matches!(task, Task::Ps | Task::Bundle) {
            entry.ps_nodes.push(node);
        }
        let cpus = entry.workers() as f64 * entry.worker_cpus + entry.ps() as f64 * entry.ps_cpus;
        entry.dom_share = (cpus / total_cpus).max(entry.workers() as f64 / total_gpus);
    }

    /// Gives every job one worker and one server on one node, in arrival order, before the
    /// policy acts (`rl_env.py`, `_prepare` with `ASSIGN_BUNDLE`); a job that does not fit gets
    /// nothing and the next is tried.
    pub fn assign_bundles(&mut self) {
        for job in 0..self.jobs.len() {
            self.place(job, Task::Bundle);
        }
    }

    /// Whether job `job` may get another task of kind `task` (DL2's caps).
    pub fn allows(&self, job: usize, task: Task) -> bool {
        let job = &self.jobs[job];
        let worker_ok = job.workers() < self.max_workers;
        let ps_ok = job.ps() < self.max_ps;
        match task {
            Task::Worker => worker_ok,
            Task::Ps => ps_ok,
            Task::Bundle => worker_ok && ps_ok,
        }
    }
}

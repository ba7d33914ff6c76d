//! The cluster's static shape ([`ClusterSpec`]) and its changing state ([`ClusterView`]).

use crate::{Allocation, GpuTypeId, NodeId};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One machine: a number of GPUs of a single type, plus CPUs and memory when known. A node
/// with 0 GPUs (a CPU node, for parameter servers) has a `gpu_type` that means nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Human-readable name (machine id in the source file, or `v100-3`).
    pub name: String,
    /// The type of every GPU on the node.
    pub gpu_type: GpuTypeId,
    /// Number of GPUs.
    pub gpus: u32,
    /// CPU cores, if known.
    pub cpus: Option<f64>,
    /// Memory in GiB, if known.
    pub mem_gib: Option<f64>,
    /// Group the node belongs to, such as a Philly virtual cluster, if any.
    pub group: Option<String>,
}

impl Node {
    /// Returns true if and only if the node is in group `pool` (`""`: nodes without a group).
    pub fn in_group(&self, pool: &str) -> bool {
        self.group.as_deref().unwrap_or("") == pool
    }
}

/// Occurs when a cluster description is inconsistent.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ClusterError {
    /// Occurs when the cluster has no node with a GPU.
    #[error("the cluster has no GPUs; expected at least one node with one or more GPUs")]
    Empty,
    /// Occurs when a node refers to a GPU type index outside the type list.
    #[error("node '{node}' has GPU type index {index}, but only {known} GPU types are declared")]
    UnknownGpuType {
        /// The node's name.
        node: String,
        /// The offending index.
        index: u16,
        /// How many types exist.
        known: usize,
    },
    /// Occurs when a GPU type name is declared twice.
    #[error("GPU type '{0}' is declared twice")]
    DuplicateGpuType(String),
    /// Occurs when more than 64 GPU types are declared.
    #[error("{0} GPU types declared; at most 64 are supported")]
    TooManyGpuTypes(usize),
}

/// The static shape of a cluster: GPU type names and nodes. Built by `schedlab-cluster`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterSpec {
    gpu_types: Vec<String>,
    nodes: Vec<Node>,
}

impl ClusterSpec {
    /// Checks and returns a cluster; node `i` gets [`NodeId`] `i`.
    pub fn new(gpu_types: Vec<String>, nodes: Vec<Node>) -> Result<ClusterSpec, ClusterError> {
        if gpu_types.len() > 64 {
            return Err(ClusterError::TooManyGpuTypes(gpu_types.len()));
        }
        for (index, name) in gpu_types.iter().enumerate() {
            if gpu_types[..index].contains(name) {
                return Err(ClusterError::DuplicateGpuType(name.clone()));
            }
        }
        if nodes.iter().all(|node| node.gpus == 0) {
            return Err(ClusterError::Empty);
        }
        for node in &nodes {
            if node.gpu_type.index() >= gpu_types.len() {
                return Err(ClusterError::UnknownGpuType {
                    node: node.name.clone(),
                    index: node.gpu_type.0,
                    known: gpu_types.len(),
                });
            }
        }
        Ok(ClusterSpec { gpu_types, nodes })
    }

    /// Returns the GPU type names, indexed by [`GpuTypeId`].
    pub fn gpu_types(&self) -> &[String] {
        &self.gpu_types
    }

    /// Returns the name of a GPU type.
    pub fn gpu_type_name(&self, gpu_type: GpuTypeId) -> &str {
        &self.gpu_types[gpu_type.index()]
    }

    /// Returns the id of the GPU type with this name, if any.
    pub fn gpu_type_id(&self, name: &str) -> Option<GpuTypeId> {
        self.gpu_types.iter().position(|known| known == name).map(|index| GpuTypeId(index as u16))
    }

    /// Returns the nodes, indexed by [`NodeId`].
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Returns one node.
    pub fn node(&self, node: NodeId) -> &Node {
        &self.nodes[node.index()]
    }

    /// Returns the total number of GPUs.
    pub fn total_gpus(&self) -> u32 {
        self.nodes.iter().map(|node| node.gpus).sum()
    }

    /// Returns the number of GPUs of each type, indexed by [`GpuTypeId`].
    pub fn gpus_per_type(&self) -> Vec<u32> {
        let mut counts = vec![0; self.gpu_types.len()];
        for node in &self.nodes {
            counts[node.gpu_type.index()] += node.gpus;
        }
        counts
    }

    /// Returns the total number of CPUs, if every node's is known.
    pub fn total_cpus(&self) -> Option<f64> {
        self.nodes.iter().map(|node| node.cpus).sum()
    }

    /// Returns the largest number of GPUs on one node.
    pub fn max_gpus_per_node(&self) -> u32 {
        self.nodes.iter().map(|node| node.gpus).max().unwrap_or(0)
    }
}

/// Occurs when an allocation does not fit the cluster's free resources.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CapacityError {
    /// Occurs when an allocation names a node the cluster does not have.
    #[error("{node} does not exist (the cluster has {nodes} nodes)")]
    UnknownNode {
        /// The node named.
        node: NodeId,
        /// The number of nodes in the cluster.
        nodes: usize,
    },
    /// Occurs when an allocation asks a node for more GPUs than are free.
    #[error("{node} has {free} free GPUs but {requested} were allocated on it")]
    Gpus {
        /// The node.
        node: NodeId,
        /// GPUs asked for.
        requested: u32,
        /// GPUs free.
        free: u32,
    },
    /// Occurs when an allocation asks a node for more CPUs than are free.
    #[error("{node} has {free} free CPUs but {requested} were allocated on it")]
    Cpus {
        /// The node.
        node: NodeId,
        /// CPUs asked for.
        requested: f64,
        /// CPUs free.
        free: f64,
    },
    /// Occurs when an allocation has a part with zero GPUs.
    #[error("{node} is listed with 0 GPUs; every part of an allocation needs at least one")]
    EmptyPart {
        /// The node.
        node: NodeId,
    },
    /// Occurs when an allocation lists a node with zero parameter servers.
    #[error("{node} is listed with 0 parameter servers; list only nodes that hold one or more")]
    EmptyPsPart {
        /// The node.
        node: NodeId,
    },
}

impl CapacityError {
    /// Returns the node the error is about.
    pub fn node(&self) -> NodeId {
        match *self {
            CapacityError::UnknownNode { node, .. }
            | CapacityError::Gpus { node, .. }
            | CapacityError::Cpus { node, .. }
            | CapacityError::EmptyPart { node }
            | CapacityError::EmptyPsPart { node } => node,
        }
    }
}

/// The CPUs a job's allocation uses: some per GPU of its workers (if CPUs are modelled for
/// it) and some per parameter server ([`Allocation::ps`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CpuDemand {
    /// CPUs per GPU; `None`: the job's workers use no CPUs that are accounted.
    pub per_gpu: Option<f64>,
    /// CPUs per parameter server.
    pub per_ps: f64,
}

impl From<Option<f64>> for CpuDemand {
    /// CPUs per GPU only (a job without parameter servers).
    fn from(per_gpu: Option<f64>) -> CpuDemand {
        CpuDemand { per_gpu, per_ps: 0.0 }
    }
}

impl CpuDemand {
    /// Returns the CPUs the allocation uses on `node`.
    fn on(&self, allocation: &Allocation, node: NodeId) -> f64 {
        let find = |parts: &[(NodeId, u32)]| {
            parts.binary_search_by_key(&node, |part| part.0).map_or(0, |index| parts[index].1)
        };
        let workers = self.per_gpu.map_or(0.0, |per_gpu| per_gpu * f64::from(find(&allocation.parts)));
        workers + self.per_ps * f64::from(find(&allocation.ps))
    }

    /// Returns true if and only if the allocation uses CPUs that are accounted.
    fn counts(&self, allocation: &Allocation) -> bool {
        self.per_gpu.is_some() || (self.per_ps != 0.0 && !allocation.ps.is_empty())
    }

    /// Calls `visit(node, cpus)` once for every node of the allocation (GPU parts and parameter
    /// servers, in node order) if it uses CPUs that are accounted.
    pub fn each_node(&self, allocation: &Allocation, mut visit: impl FnMut(NodeId, f64)) {
        if !self.counts(allocation) {
            return;
        }
        let (mut gpu_parts, mut ps_parts) = (allocation.parts.iter().peekable(), allocation.ps.iter().peekable());
        loop {
            let node = match (gpu_parts.peek(), ps_parts.peek()) {
                (None, None) => return,
                (Some(a), Some(b)) => a.0.min(b.0),
                (Some(a), None) | (None, Some(a)) => a.0,
            };
            gpu_parts.next_if(|part| part.0 == node);
            ps_parts.next_if(|part| part.0 == node);
            visit(node, self.on(allocation, node));
        }
    }
}

/// The cluster as a policy sees it at a decision point: static shape plus free GPUs and CPUs.
///
/// Cheap to clone (one `Arc` and a few short vectors), so a policy can plan several starts on
/// a copy with [`ClusterView::take`] before returning its decision.
#[derive(Clone, Debug)]
pub struct ClusterView {
    spec: Arc<ClusterSpec>,
    free_gpus: Vec<u32>,
    /// Free CPUs per node; `f64::INFINITY` where the node's CPUs are unknown.
    free_cpus: Vec<f64>,
    free_total: u32,
    free_per_type: Vec<u32>,
    gpus_per_type: Vec<u32>,
}

/// Tolerance for CPU accounting, which uses fractional cores.
const CPU_EPSILON: f64 = 1e-9;

impl ClusterView {
    /// Returns a view of the cluster with every resource free.
    pub fn new(spec: Arc<ClusterSpec>) -> ClusterView {
        let free_gpus = spec.nodes().iter().map(|node| node.gpus).collect();
        let free_cpus = spec.nodes().iter().map(|node| node.cpus.unwrap_or(f64::INFINITY)).collect();
        let free_total = spec.total_gpus();
        let free_per_type = spec.gpus_per_type();
        let gpus_per_type = free_per_type.clone();
        ClusterView { spec, free_gpus, free_cpus, free_total, free_per_type, gpus_per_type }
    }

    /// Returns the static shape.
    pub fn spec(&self) -> &ClusterSpec {
        &self.spec
    }

    /// Returns the shared static shape.
    pub fn spec_arc(&self) -> &Arc<ClusterSpec> {
        &self.spec
    }

    /// Returns the free GPUs on a node.
    pub fn free_gpus(&self, node: NodeId) -> u32 {
        self.free_gpus[node.index()]
    }

    /// Returns the free GPUs of every node, indexed by [`NodeId`].
    pub fn free_gpus_per_node(&self) -> &[u32] {
        &self.free_gpus
    }

    /// Returns the free CPUs on a node (`f64::INFINITY` if unknown).
    pub fn free_cpus(&self, node: NodeId) -> f64 {
        self.free_cpus[node.index()]
    }

    /// Returns the free GPUs in the whole cluster.
    pub fn total_free(&self) -> u32 {
        self.free_total
    }

    /// Returns the free GPUs of one type.
    pub fn free_of_type(&self, gpu_type: GpuTypeId) -> u32 {
        self.free_per_type[gpu_type.index()]
    }

    /// Returns the busy GPUs of each type, indexed by [`GpuTypeId`].
    pub fn busy_per_type(&self) -> Vec<u32> {
        self.gpus_per_type.iter().zip(&self.free_per_type).map(|(total, free)| total - free).collect()
    }

    /// Returns the total GPUs of each type, indexed by [`GpuTypeId`].
    pub fn gpus_per_type(&self) -> &[u32] {
        &self.gpus_per_type
    }

    /// Checks that `allocation` fits the free resources: its GPUs, and the CPUs of `cpus` (CPUs
    /// per GPU, or a [`CpuDemand`] that also counts parameter servers).
    pub fn check_fits(&self, allocation: &Allocation, cpus: impl Into<CpuDemand>) -> Result<(), CapacityError> {
        let nodes = self.free_gpus.len();
        for &(node, gpus) in &allocation.parts {
            if node.index() >= nodes {
                return Err(CapacityError::UnknownNode { node, nodes });
            }
            if gpus == 0 {
                return Err(CapacityError::EmptyPart { node });
            }
            let free = self.free_gpus[node.index()];
            if gpus > free {
                return Err(CapacityError::Gpus { node, requested: gpus, free });
            }
        }
        for &(node, servers) in &allocation.ps {
            if node.index() >= nodes {
                return Err(CapacityError::UnknownNode { node, nodes });
            }
            if servers == 0 {
                return Err(CapacityError::EmptyPsPart { node });
            }
        }
        let mut result = Ok(());
        cpus.into().each_node(allocation, |node, requested| {
            let free = self.free_cpus[node.index()];
            if result.is_ok() && requested > free + CPU_EPSILON {
                result = Err(CapacityError::Cpus { node, requested, free });
            }
        });
        result
    }

    /// Marks the allocation's resources as used, after checking that they are free.
    pub fn take(&mut self, allocation: &Allocation, cpus: impl Into<CpuDemand>) -> Result<(), CapacityError> {
        let cpus = cpus.into();
        self.check_fits(allocation, cpus)?;
        for &(node, gpus) in &allocation.parts {
            self.free_gpus[node.index()] -= gpus;
            self.free_total -= gpus;
            let gpu_type = self.spec.node(node).gpu_type;
            self.free_per_type[gpu_type.index()] -= gpus;
        }
        cpus.each_node(allocation, |node, used| self.free_cpus[node.index()] -= used);
        Ok(())
    }

    /// Marks the allocation's resources as free again; the inverse of [`ClusterView::take`].
    ///
    /// # Panics
    /// Panics if this would free more GPUs than a node has: that is a bookkeeping bug.
    pub fn release(&mut self, allocation: &Allocation, cpus: impl Into<CpuDemand>) {
        for &(node, gpus) in &allocation.parts {
            let capacity = self.spec.node(node).gpus;
            let free = &mut self.free_gpus[node.index()];
            assert!(*free + gpus <= capacity, "releasing {gpus} GPUs on {node} would exceed its {capacity}");
            *free += gpus;
            self.free_total += gpus;
            let gpu_type = self.spec.node(node).gpu_type;
            self.free_per_type[gpu_type.index()] += gpus;
        }
        cpus.into().each_node(allocation, |node, used| self.free_cpus[node.index()] += used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_node_cluster() -> Arc<ClusterSpec> {
        let node = |name: &str, gpu_type, gpus| Node {
            name: name.into(),
            gpu_type: GpuTypeId(gpu_type),
            gpus,
            cpus: Some(8.0),
            mem_gib: None,
            group: None,
        };
        Arc::new(ClusterSpec::new(vec!["v100".into(), "k80".into()], vec![node("a", 0, 4), node("b", 1, 2)]).unwrap())
    }

    #[test]
    fn take_and_release_keep_counts_consistent() {
        let mut view = ClusterView::new(two_node_cluster());
        let allocation = Allocation::new(vec![(NodeId(0), 3), (NodeId(1), 1)]);
        view.take(&allocation, Some(2.0)).unwrap();
        assert_eq!(view.total_free(), 2);
        assert_eq!(view.free_of_type(GpuTypeId(0)), 1);
        assert_eq!(view.busy_per_type(), vec![3, 1]);
        assert_eq!(view.free_cpus(NodeId(0)), 2.0);
        let err = view.take(&Allocation::on_node(NodeId(0), 2), None).unwrap_err();
        assert_eq!(err, CapacityError::Gpus { node: NodeId(0), requested: 2, free: 1 });
        view.release(&allocation, Some(2.0));
        assert_eq!(view.total_free(), 6);
    }

    #[test]
    fn cpu_capacity_is_enforced_when_known() {
        let view = ClusterView::new(two_node_cluster());
        let err = view.check_fits(&Allocation::on_node(NodeId(1), 2), Some(5.0)).unwrap_err();
        assert!(matches!(err, CapacityError::Cpus { node: NodeId(1), .. }));
    }

    #[test]
    fn parameter_servers_take_cpus_on_their_nodes_which_may_have_no_gpus() {
        let node = |name: &str, gpus, cpus| Node {
            name: name.into(),
            gpu_type: GpuTypeId(0),
            gpus,
            cpus: Some(cpus),
            mem_gib: None,
            group: None,
        };
        let spec = ClusterSpec::new(vec!["v100".into()], vec![node("gpu", 4, 8.0), node("cpu", 0, 10.0)]).unwrap();
        assert_eq!(spec.total_cpus(), Some(18.0));
        let mut view = ClusterView::new(Arc::new(spec));
        let demand = CpuDemand { per_gpu: Some(1.0), per_ps: 3.0 };
        // 2 GPUs (2 CPUs) and one server (3 CPUs) on node 0, two servers (6 CPUs) on node 1.
        let allocation = Allocation::on_node(NodeId(0), 2).with_ps(vec![(NodeId(0), 1), (NodeId(1), 2)]);
        view.take(&allocation, demand).unwrap();
        assert_eq!((view.free_cpus(NodeId(0)), view.free_cpus(NodeId(1))), (3.0, 4.0));
        assert_eq!(view.total_free(), 2);
        // Two more servers need 6 CPUs on node 1, which has 4 free.
        let over = Allocation::on_node(NodeId(0), 1).with_ps(vec![(NodeId(1), 2)]);
        assert_eq!(
            view.check_fits(&over, demand),
            Err(CapacityError::Cpus { node: NodeId(1), requested: 6.0, free: 4.0 })
        );
        // Workers and a server on one node add up: 1 + 3 > 3 free.
        let crowded = Allocation::on_node(NodeId(0), 1).with_ps(vec![(NodeId(0), 1)]);
        assert!(matches!(view.check_fits(&crowded, demand), Err(CapacityError::Cpus { node: NodeId(0), .. })));
        assert_eq!(
            view.check_fits(&Allocation::on_node(NodeId(0), 1).with_ps(vec![(NodeId(5), 1)]), demand),
            Err(CapacityError::UnknownNode { node: NodeId(5), nodes: 2 })
        );
        view.release(&allocation, demand);
        assert_eq!((view.free_cpus(NodeId(0)), view.free_cpus(NodeId(1)), view.total_free()), (8.0, 10.0, 4));
    }

    #[test]
    fn spec_rejects_bad_shapes() {
        assert_eq!(ClusterSpec::new(vec!["v100".into()], vec![]), Err(ClusterError::Empty));
        let dup = ClusterSpec::new(vec!["v100".into(), "v100".into()], vec![]);
        assert_eq!(dup, Err(ClusterError::DuplicateGpuType("v100".into())));
    }
}

//! Where to put a job of a given size: placement helpers shared by the policies.
//!
//! Ordering (which job runs) is the policy's business; placement (on which nodes) is here, so
//! every policy places the same way unless its paper says otherwise.

use schedlab_core::{Allocation, ClusterView, GpuTypeId, GpuTypeSet, JobView, NodeId, ParamError, ParamReader};

/// How to lay a job's GPUs out over nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacementStrategy {
    /// Fewest nodes, and among those the tightest fit (least free capacity left on them).
    Consolidated,
    /// As many nodes as possible, one GPU at a time on the nodes with the most free GPUs.
    Spread,
}

/// Which GPU types one job may span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeRule {
    /// All of a job's GPUs have one type.
    SameTypeOnly,
    /// One type if possible, otherwise mixed (the job then runs at its slowest part's rate).
    PreferSameType,
}

/// A placement rule: strategy plus type rule. The default is consolidated, same type only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placer {
    /// Node layout.
    pub strategy: PlacementStrategy,
    /// GPU type mixing.
    pub types: TypeRule,
}

impl Default for Placer {
    fn default() -> Placer {
        Placer { strategy: PlacementStrategy::Consolidated, types: TypeRule::SameTypeOnly }
    }
}

/// One candidate layout, compared by (nodes used, capacity wasted on them, type).
struct Plan {
    parts: Vec<(NodeId, u32)>,
    waste: u32,
    gpu_type: u16,
}

impl Plan {
    fn key(&self) -> (usize, u32, u16) {
        (self.parts.len(), self.waste, self.gpu_type)
    }
}

impl Placer {
    /// Reads `placement=consolidated|spread` and `same_type=true|false` from policy parameters.
    pub fn from_params(reader: &mut ParamReader<'_>) -> Result<Placer, ParamError> {
        let strategy = match reader.choice("placement", "consolidated", &["consolidated", "spread"])? {
            "spread" => PlacementStrategy::Spread,
            _ => PlacementStrategy::Consolidated,
        };
        let types = if reader.bool("same_type", true)? { TypeRule::SameTypeOnly } else { TypeRule::PreferSameType };
        Ok(Placer { strategy, types })
    }

    /// Finds free GPUs for `job` at its requested size: on its feasible types, inside its pool
    /// (if it has one), with its CPUs per GPU. Returns `None` if nothing fits.
    pub fn place_job(&self, cluster: &ClusterView, job: &JobView) -> Option<Allocation> {
        self.place_in(cluster, job.gpus, job.feasible_types, job.cpu_demand().per_gpu, job.pool.as_deref())
    }

    /// Finds free GPUs for a job of `gpus` GPUs that may run on `feasible` types, with
    /// `cpus_per_gpu` CPUs per GPU if CPUs are modelled. Returns `None` if nothing fits.
    pub fn place(
        &self,
        cluster: &ClusterView,
        gpus: u32,
        feasible: GpuTypeSet,
        cpus_per_gpu: Option<f64>,
    ) -> Option<Allocation> {
        self.place_in(cluster, gpus, feasible, cpus_per_gpu, None)
    }

    /// [`Placer::place`] restricted to the nodes of group `pool`, if given.
    pub fn place_in(
        &self,
        cluster: &ClusterView,
        gpus: u32,
        feasible: GpuTypeSet,
        cpus_per_gpu: Option<f64>,
        pool: Option<&str>,
    ) -> Option<Allocation> {
        if gpus == 0 || cluster.total_free() < gpus {
            return None;
        }
        let n_types = cluster.spec().gpu_types().len();
        let mut best: Option<Plan> = None;
        for type_index in 0..n_types {
            let gpu_type = GpuTypeId(type_index as u16);
            if !feasible.contains(gpu_type) || cluster.free_of_type(gpu_type) < gpus {
                continue;
            }
            if let Some(plan) =
                self.plan(cluster, gpus, GpuTypeSet::EMPTY.with(gpu_type), cpus_per_gpu, pool, type_index as u16)
                && best.as_ref().is_none_or(|known| plan.key() < known.key())
            {
                let exact_single = plan.parts.len() == 1 && plan.waste == 0;
                best = Some(plan);
                if exact_single {
                    // One node with no waste: no later type can compare lower.
                    break;
                }
            }
        }
        if best.is_none() && self.types == TypeRule::PreferSameType {
            best = self.plan(cluster, gpus, feasible, cpus_per_gpu, pool, u16::MAX);
        }
        best.map(|plan| Allocation::new(plan.parts))
    }

    /// Finds free GPUs of exactly one given type.
    pub fn place_on_type(
        &self,
        cluster: &ClusterView,
        gpus: u32,
        gpu_type: GpuTypeId,
        cpus_per_gpu: Option<f64>,
    ) -> Option<Allocation> {
        if gpus == 0 || cluster.free_of_type(gpu_type) < gpus {
            return None;
        }
        self.plan(cluster, gpus, GpuTypeSet::EMPTY.with(gpu_type), cpus_per_gpu, None, gpu_type.0)
            .map(|plan| Allocation::new(plan.parts))
    }

    fn plan(
        &self,
        cluster: &ClusterView,
        gpus: u32,
        types: GpuTypeSet,
        cpus_per_gpu: Option<f64>,
        pool: Option<&str>,
        gpu_type: u16,
    ) -> Option<Plan> {
        let nodes = cluster.spec().nodes();
        let free_gpus = cluster.free_gpus_per_node();
        // The GPUs this job may use on node `index`: 0 on a full node (skipped before anything
        // else is read, which keeps placement cheap on large, busy clusters), a node of another
        // type or outside the pool, and at most what the node's free CPUs allow.
        let usable = |index: usize| -> u32 {
            let free = free_gpus[index];
            if free == 0 {
                return 0;
            }
            let node = &nodes[index];
            if !types.contains(node.gpu_type) || pool.is_some_and(|pool| !node.in_group(pool)) {
                return 0;
            }
            match cpus_per_gpu {
                Some(per_gpu) if per_gpu > 0.0 => {
                    let by_cpu = (cluster.free_cpus(NodeId(index as u32)) / per_gpu + 1e-9).floor();
                    if by_cpu >= f64::from(free) { free } else { by_cpu as u32 }
                }
                _ => free,
            }
        };
        match self.strategy {
            PlacementStrategy::Consolidated => {
                // A single node with the tightest fit, if one is big enough. An exact fit cannot
                // be beaten (ties keep the first node), so the scan stops there.
                let mut single: Option<(NodeId, u32)> = None;
                let mut total = 0u32;
                let mut all = Vec::new();
                for index in 0..nodes.len() {
                    let free = usable(index);
                    if free == 0 {
                        continue;
                    }
                    let node = NodeId(index as u32);
                    total += free;
                    if free >= gpus && single.is_none_or(|(_, best)| free < best) {
                        single = Some((node, free));
                        if free == gpus {
                            break;
                        }
                    }
                    if single.is_none() {
                        all.push((node, free));
                    }
                }
                if let Some((node, free)) = single {
                    return Some(Plan { parts: vec![(node, gpus)], waste: free - gpus, gpu_type });
                }
                if total < gpus {
                    return None;
                }
                // Fewest nodes: take the largest nodes whole, then the tightest fit for the rest.
                all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                let mut parts = Vec::new();
                let mut remaining = gpus;
                let mut index = 0;
                while remaining > all[index].1 {
                    parts.push(all[index]);
                    remaining -= all[index].1;
                    index += 1;
                }
                let last = all[index..].iter().rev().find(|(_, free)| *free >= remaining).expect("sorted");
                parts.push((last.0, remaining));
                let waste = last.1 - remaining;
                Some(Plan { parts, waste, gpu_type })
            }
            PlacementStrategy::Spread => {
                let mut all: Vec<(NodeId, u32)> = (0..nodes.len())
                    .filter_map(|index| {
                        let free = usable(index);
                        (free > 0).then_some((NodeId(index as u32), free))
                    })
                    .collect();
                let total: u32 = all.iter().map(|(_, free)| free).sum();
                if total < gpus {
                    return None;
                }
                all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                let mut taken = vec![0u32; all.len()];
                let mut remaining = gpus;
                while remaining > 0 {
                    for (slot, (_, free)) in taken.iter_mut().zip(&all) {
                        if remaining > 0 && *slot < *free {
                            *slot += 1;
                            remaining -= 1;
                        }
                    }
                }
                let parts: Vec<(NodeId, u32)> = all
                    .iter()
                    .zip(&taken)
                    .filter(|(_, count)| **count > 0)
                    .map(|((node, _), count)| (*node, *count))
                    .collect();
                Some(Plan { parts, waste: 0, gpu_type })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CompactCluster;
    use std::sync::Arc;

    fn view(text: &str, per_node: u32) -> ClusterView {
        ClusterView::new(Arc::new(CompactCluster::parse(text, per_node).unwrap().build().unwrap()))
    }

    #[test]
    fn a_pool_keeps_a_job_on_its_groups_nodes() {
        let mut spec = CompactCluster::parse("v100=8", 2).unwrap().build().unwrap();
        let groups = ["a", "a", "b", "b"];
        let nodes: Vec<schedlab_core::Node> = spec
            .nodes()
            .iter()
            .zip(groups)
            .map(|(node, group)| schedlab_core::Node { group: Some(group.into()), ..node.clone() })
            .collect();
        spec = schedlab_core::ClusterSpec::new(spec.gpu_types().to_vec(), nodes).unwrap();
        let mut cluster = ClusterView::new(Arc::new(spec));
        cluster.take(&Allocation::on_node(NodeId(3), 1), None).unwrap();
        let placer = Placer::default();
        let all = GpuTypeSet::EMPTY.with(GpuTypeId(0));
        // Pool b has 3 free GPUs on nodes 2 and 3; the tightest single node is node 3.
        assert_eq!(placer.place_in(&cluster, 1, all, None, Some("b")), Some(Allocation::on_node(NodeId(3), 1)));
        assert_eq!(
            placer.place_in(&cluster, 3, all, None, Some("b")),
            Some(Allocation::new(vec![(NodeId(2), 2), (NodeId(3), 1)]))
        );
        assert_eq!(placer.place_in(&cluster, 4, all, None, Some("b")), None);
        assert_eq!(placer.place_in(&cluster, 1, all, None, Some("c")), None);
        assert_eq!(placer.place(&cluster, 1, all, None), Some(Allocation::on_node(NodeId(3), 1)));
    }

    #[test]
    fn consolidated_prefers_tightest_single_node() {
        let mut cluster = view("v100=12", 4);
        cluster.take(&Allocation::on_node(NodeId(1), 3), None).unwrap();
        let placer = Placer::default();
        // Node 1 has 1 free GPU: the tightest fit for a 1-GPU job.
        assert_eq!(placer.place(&cluster, 1, GpuTypeSet::ALL, None), Some(Allocation::on_node(NodeId(1), 1)));
        // A 4-GPU job needs a whole node: node 0 (lowest id among equals).
        assert_eq!(placer.place(&cluster, 4, GpuTypeSet::ALL, None), Some(Allocation::on_node(NodeId(0), 4)));
    }

    #[test]
    fn consolidated_uses_fewest_nodes_for_large_jobs() {
        let mut cluster = view("v100=12", 4);
        cluster.take(&Allocation::on_node(NodeId(0), 2), None).unwrap();
        let allocation = Placer::default().place(&cluster, 6, GpuTypeSet::ALL, None).unwrap();
        // Node 1 whole (4) plus 2 on node 0, which has exactly 2 free: tightest fit.
        assert_eq!(allocation.parts, vec![(NodeId(0), 2), (NodeId(1), 4)]);
        assert_eq!(Placer::default().place(&cluster, 11, GpuTypeSet::ALL, None), None);
    }

    #[test]
    fn same_type_only_does_not_mix_types() {
        let cluster = view("v100=4,k80=4", 4);
        let placer = Placer::default();
        assert_eq!(placer.place(&cluster, 8, GpuTypeSet::ALL, None), None);
        let mixing = Placer { types: TypeRule::PreferSameType, ..placer };
        assert_eq!(mixing.place(&cluster, 8, GpuTypeSet::ALL, None).unwrap().nodes(), 2);
        // Feasibility masks apply: a job that cannot run on v100 (type 0) goes to k80.
        let k80_only = GpuTypeSet::EMPTY.with(GpuTypeId(1));
        assert_eq!(placer.place(&cluster, 2, k80_only, None), Some(Allocation::on_node(NodeId(1), 2)));
    }

    #[test]
    fn spread_uses_many_nodes() {
        let cluster = view("v100=12", 4);
        let placer = Placer { strategy: PlacementStrategy::Spread, ..Placer::default() };
        let allocation = placer.place(&cluster, 4, GpuTypeSet::ALL, None).unwrap();
        assert_eq!(allocation.parts, vec![(NodeId(0), 2), (NodeId(1), 1), (NodeId(2), 1)]);
    }

    #[test]
    fn cpus_limit_usable_gpus() {
        let mut compact = CompactCluster::parse("v100=8", 8).unwrap();
        compact.cpus_per_node = Some(8.0);
        let cluster = ClusterView::new(Arc::new(compact.build().unwrap()));
        // 3 CPUs per GPU: only 2 GPUs of the node are usable.
        assert_eq!(Placer::default().place(&cluster, 3, GpuTypeSet::ALL, Some(3.0)), None);
        assert!(Placer::default().place(&cluster, 2, GpuTypeSet::ALL, Some(3.0)).is_some());
    }
}

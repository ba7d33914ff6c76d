//! The clusters of the authors' environments, as their code defines them.

use schedlab_core::{ClusterSpec, GpuTypeId, Node};

fn node(index: usize, gpu_type: u16, gpus: u32, group: Option<&str>) -> Node {
    Node {
        name: format!("n{index}"),
        gpu_type: GpuTypeId(gpu_type),
        gpus,
        cpus: None,
        mem_gib: None,
        group: group.map(str::to_string),
    }
}

/// RLTune's Philly cluster (`philly_env_base_v2.py`, `PHILLY_NODES_2GPU` and `_8GPU`): 16 nodes
/// of 2 P100s (ids 0-15), then 20 of 8 (16-35), 192 GPUs; nodes are named `n<id>`.
pub fn philly() -> ClusterSpec {
    let nodes = (0..36).map(|index| node(index, 0, if index < 16 { 2 } else { 8 }, None)).collect();
    ClusterSpec::new(vec!["p100".to_string()], nodes).expect("a fixed, valid node list")
}

/// The node counts of Helios' five VCs (`helios_env_base_v2.py`, `HELIOS_VC_NODE_COUNTS`).
pub const HELIOS_VC_NODES: [usize; 5] = [6, 4, 3, 2, 2];

/// RLTune's Helios cluster: VCs `vc1` to `vc5` of [`HELIOS_VC_NODES`] nodes of 8 V100s (136
/// GPUs), in VC order; each node's group is its VC.
pub fn helios() -> ClusterSpec {
    let groups = HELIOS_VC_NODES.iter().enumerate().flat_map(|(vc, &count)| std::iter::repeat_n(vc, count));
    let nodes = groups.enumerate().map(|(index, vc)| node(index, 0, 8, Some(&format!("vc{}", vc + 1)))).collect();
    ClusterSpec::new(vec!["v100".to_string()], nodes).expect("a fixed, valid node list")
}

/// The GPU types of RLTune's Alibaba pools, with their node counts and GPUs per node
/// (`alibaba_env_base_v2.py`, `ALIBABA_NODE_COUNTS` and `ALIBABA_GPUS_PER_NODE`).
pub const ALIBABA_POOLS: [(&str, usize, u32); 5] =
    [("t4", 8, 2), ("misc", 8, 8), ("p100", 15, 2), ("v100", 10, 8), ("v100m32", 8, 8)];

/// RLTune's Alibaba cluster: one pool per GPU type ([`ALIBABA_POOLS`], type ids in that order),
/// 49 nodes, 254 GPUs.
pub fn alibaba() -> ClusterSpec {
    let types = ALIBABA_POOLS.iter().map(|(name, _, _)| name.to_string()).collect();
    let pools = ALIBABA_POOLS
        .iter()
        .enumerate()
        .flat_map(|(pool, &(_, count, gpus))| std::iter::repeat_n((pool as u16, gpus), count));
    let nodes = pools.enumerate().map(|(index, (pool, gpus))| node(index, pool, gpus, None)).collect();
    ClusterSpec::new(types, nodes).expect("a fixed, valid node list")
}

//! The clusters of the authors' environments, as their code defines them.

use schedlab_core::{ClusterSpec, GpuTypeId, Node};

/// RLTune's Philly cluster (`philly_env_base_v2.py`, `PHILLY_NODES_2GPU` and `_8GPU`): 16 nodes
/// of 2 P100s (ids 0-15), then 20 of 8 (16-35), 192 GPUs; nodes are named `n<id>`.
pub fn philly() -> ClusterSpec {
    let nodes = (0..36)
        .map(|index| Node {
            name: format!("n{index}"),
            gpu_type: GpuTypeId(0),
            gpus: if index < 16 { 2 } else { 8 },
            cpus: None,
            mem_gib: None,
            group: None,
        })
        .collect();
    ClusterSpec::new(vec!["p100".to_string()], nodes).expect("a fixed, valid node list")
}

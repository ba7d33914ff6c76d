//! The artifact's placement for Tiresias and Optimus: fill the node with the most free GPUs,
//! then the next (`collections.Counter.most_common(1)` in `tiresias.py` and `optimus.py`).

use schedlab_core::{Allocation, ClusterView, NodeId};

/// Free GPUs per node, in node order.
pub fn free_gpus(cluster: &ClusterView) -> Vec<u32> {
    cluster.free_gpus_per_node().to_vec()
}

/// Takes `replicas` GPUs from `free`, each time as many as possible from the node with the most
/// free GPUs (the lowest-numbered among equals); `None` (and `free` unchanged) if they do not
/// fit.
pub fn most_free(free: &mut [u32], replicas: u32) -> Option<Allocation> {
    if free.iter().map(|&gpus| u64::from(gpus)).sum::<u64>() < u64::from(replicas) {
        return None;
    }
    let mut parts = Vec::new();
    let mut left = replicas;
    while left > 0 {
        let (node, &gpus) = free.iter().enumerate().rev().max_by_key(|(_, gpus)| **gpus).expect("nodes exist");
        let take = gpus.min(left);
        parts.push((NodeId(node as u32), take));
        free[node] -= take;
        left -= take;
    }
    Some(Allocation::new(parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_the_most_free_node_first_lowest_index_on_ties() {
        let mut free = vec![2, 4, 4, 1];
        assert_eq!(most_free(&mut free, 6), Some(Allocation::new(vec![(NodeId(1), 4), (NodeId(2), 2)])));
        assert_eq!(free, vec![2, 0, 2, 1]);
        assert_eq!(most_free(&mut free, 6), None);
        assert_eq!(free, vec![2, 0, 2, 1]);
    }
}

//! RLTune's placement: the ways a job can be placed on nodes of one capacity, in tiers, as the
//! authors' `allocation_score.py` (`find_gpu_assignments`) enumerates them.
//!
//! Nodes are grouped by free GPUs. A pattern takes, from some groups, a number of nodes and a
//! non-increasing distribution of GPUs over them; each group takes as many GPUs as it can
//! (`min(nodes * min(free, G), remaining)`), and the nodes taken are the group's lowest indices.
//! Tier 1 uses exactly `ceil(g / G)` nodes; tier 2 uses one more and does not add partially
//! used nodes. A job can start only if tier 1 is not empty; it then takes the tier-1 way whose
//! `(node, gpus)` list, sorted by node, is lexicographically smallest (the environment's
//! `_pick_greedy_assignment`).

/// One way to place a job: `(node index, GPUs)` sorted by node index.
pub type Way = Vec<(usize, u32)>;

/// GPUs `way` takes on `node` (0 if it does not use it).
pub fn used_on(way: &Way, node: usize) -> u32 {
    way.iter().find(|&&(used, _)| used == node).map_or(0, |&(_, gpus)| gpus)
}

/// The ways to place a job on one pool (nodes of one capacity).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ways {
    /// Ways using the fewest nodes possible, `ceil(g / G)`.
    pub tier1: Vec<Way>,
    /// Ways using one more node without increasing the number of partially used nodes.
    pub tier2: Vec<Way>,
}

impl Ways {
    /// Adds another pool's ways (the Philly environment merges its two pools' tiers).
    pub fn merge(&mut self, other: Ways) {
        self.tier1.extend(other.tier1);
        self.tier2.extend(other.tier2);
    }

    /// Returns the tier-1 way with the lexicographically smallest `(node, gpus)` list, the one
    /// the environment allocates; `None` if the job cannot start.
    pub fn greedy(&self) -> Option<&Way> {
        self.tier1.iter().min()
    }

    /// Returns the environment's "ways to schedule" count in `{0, 1, 2, 3}`: 2 for several tier-1
    /// ways, 1 for one, plus 1 if tier 2 has any.
    pub fn count(&self) -> u32 {
        self.tier1_count() + u32::from(!self.tier2.is_empty())
    }

    /// Returns tier 1's part of [`Ways::count`]: 2 for several ways, 1 for one, 0 for none.
    pub fn tier1_count(&self) -> u32 {
        match self.tier1.len() {
            0 => 0,
            1 => 1,
            _ => 2,
        }
    }
}

/// Enumerates the ways to place `request` GPUs on a pool whose nodes hold `capacity` GPUs each;
/// `free` lists `(node index, free GPUs)` of the pool's nodes with at least one free GPU.
/// With `relax` false there is no tier 2 (as for one-GPU jobs).
pub fn find_ways(free: &[(usize, u32)], request: u32, capacity: u32, relax: bool) -> Ways {
    if request == 0 || capacity == 0 {
        return Ways::default();
    }
    let min_nodes = request.div_ceil(capacity) as usize;
    let max_nodes = if relax { (min_nodes + 1).min(free.len()) } else { min_nodes };
    // Groups by free count, largest first; each group's nodes in increasing index.
    let mut groups: Vec<(u32, Vec<usize>)> = Vec::new();
    let mut sorted: Vec<(usize, u32)> = free.iter().copied().filter(|&(_, f)| f > 0).collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (node, f) in sorted {
        match groups.last_mut() {
            Some((count, nodes)) if *count == f => nodes.push(node),
            _ => groups.push((f, vec![node])),
        }
    }
    let mut ways = Ways::default();
    let frag_before = partial_nodes(free.iter().map(|&(_, f)| f), capacity);
    let mut search = Search { groups: &groups, capacity, min_nodes, max_nodes, chosen: Vec::new(), found: Vec::new() };
    search.groups_from(0, request, 0);
    for way in search.found {
        let nodes = way.len();
        if nodes == min_nodes {
            ways.tier1.push(way);
        } else if relax && nodes == min_nodes + 1 {
            let after = free.iter().map(|&(node, f)| f - used_on(&way, node));
            if partial_nodes(after, capacity) <= frag_before {
                ways.tier2.push(way);
            }
        }
    }
    ways
}

fn partial_nodes(free: impl Iterator<Item = u32>, capacity: u32) -> usize {
    free.filter(|&f| f > 0 && f < capacity).count()
}

struct Search<'a> {
    groups: &'a [(u32, Vec<usize>)],
    capacity: u32,
    min_nodes: usize,
    max_nodes: usize,
    /// Per chosen group: (group index, distribution).
    chosen: Vec<(usize, Vec<u32>)>,
    found: Vec<Way>,
}

impl Search<'_> {
    fn groups_from(&mut self, group: usize, remaining: u32, nodes_used: usize) {
        if remaining == 0 {
            if (self.min_nodes..=self.max_nodes).contains(&nodes_used) {
                let mut way: Way = Vec::new();
                for (index, distribution) in &self.chosen {
                    let nodes = &self.groups[*index].1;
                    way.extend(nodes.iter().copied().zip(distribution.iter().copied()));
                }
                way.sort_unstable();
                self.found.push(way);
            }
            return;
        }
        if group >= self.groups.len() {
            return;
        }
        self.groups_from(group + 1, remaining, nodes_used);
        let (free, ref nodes) = self.groups[group];
        let cap = free.min(self.capacity);
        let most = nodes.len().min(self.max_nodes.saturating_sub(nodes_used)).min(remaining as usize);
        for count in 1..=most {
            let gpus = (count as u32 * cap).min(remaining);
            for distribution in distributions(gpus, count, cap) {
                self.chosen.push((group, distribution));
                self.groups_from(group + 1, remaining - gpus, nodes_used + count);
                self.chosen.pop();
            }
        }
    }
}

/// Every non-increasing list of `nodes` positive counts, each at most `cap`, summing to `total`,
/// in the order `generate_distributions` produces them (largest first element first).
fn distributions(total: u32, nodes: usize, cap: u32) -> Vec<Vec<u32>> {
    fn walk(remaining: u32, left: usize, bound: u32, current: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if left == 0 {
            if remaining == 0 {
                out.push(current.clone());
            }
            return;
        }
        let most = bound.min(remaining);
        for amount in (1..=most).rev() {
            current.push(amount);
            walk(remaining - amount, left - 1, amount, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    if nodes == 1 {
        if total <= cap {
            out.push(vec![total]);
        }
        return out;
    }
    walk(total, nodes, cap, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_are_non_increasing_partitions() {
        assert_eq!(distributions(12, 2, 8), vec![vec![8, 4], vec![7, 5], vec![6, 6]]);
        assert_eq!(distributions(3, 1, 2), Vec::<Vec<u32>>::new());
        assert_eq!(distributions(4, 3, 2), vec![vec![2, 1, 1]]);
    }

    #[test]
    fn twelve_gpus_on_empty_eight_gpu_nodes() {
        let free: Vec<(usize, u32)> = (0..3).map(|node| (node, 8)).collect();
        let ways = find_ways(&free, 12, 8, true);
        // Two nodes, the two lowest of the one group, three distributions.
        assert_eq!(ways.tier1, vec![vec![(0, 8), (1, 4)], vec![(0, 7), (1, 5)], vec![(0, 6), (1, 6)]]);
        // The lexicographically smallest list puts 6 on node 0.
        assert_eq!(ways.greedy(), Some(&vec![(0, 6), (1, 6)]));
        // Three nodes would leave partial nodes where there were none: no tier 2.
        assert!(ways.tier2.is_empty());
        assert_eq!(ways.count(), 2);
    }

    #[test]
    fn tier_two_may_not_add_partial_nodes() {
        // Node 0 has 4 free, nodes 1 and 2 have 2 free (all partial), node 3 is empty.
        let free = vec![(0, 4), (1, 2), (2, 2), (3, 8)];
        let ways = find_ways(&free, 4, 8, true);
        // Tier 1: one node with at least 4 free: node 0 (exactly 4) or node 3.
        // (Depth first, skipping a group before taking it, as the authors' backtracking does.)
        assert_eq!(ways.tier1, vec![vec![(0, 4)], vec![(3, 4)]]);
        assert_eq!(ways.greedy(), Some(&vec![(0, 4)]));
        // Tier 2: nodes 1 and 2 together (both become full: 3 partial nodes before, 1 after).
        // Every other two-node way would take all of node 0 or 3 first and need no second node.
        assert_eq!(ways.tier2, vec![vec![(1, 2), (2, 2)]]);
        assert_eq!(ways.count(), 3);
    }

    #[test]
    fn a_job_that_needs_more_nodes_than_exist_cannot_start() {
        let free = vec![(0, 8), (1, 3)];
        let ways = find_ways(&free, 12, 8, true);
        assert!(ways.tier1.is_empty(), "{ways:?}");
        assert_eq!(ways.greedy(), None);
        assert_eq!(ways.count(), 0);
    }
}

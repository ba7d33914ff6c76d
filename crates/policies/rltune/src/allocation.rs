//! Choosing where a job starts, once it may start (its tier 1 is not empty).
//!
//! - [`Placement::Greedy`]: the tier-1 way with the lexicographically smallest `(node, gpus)`
//!   list, the authors' default (`use_milp_allocation=0`).
//! - [`Placement::Ways`]: the authors' `choose_allocation_milp_solver` (`use_milp_allocation=1`,
//!   helios_env_base_v2.py 708-799): among at most four ways (the first of tier 1 and of tier 2
//!   sorted for defragmentation and for load balance), minimise
//!   `alpha * sum f + beta * (max - min free) - gamma * sum y` over the nodes those ways touch,
//!   where `y_n = 1` needs `free_after_n >= g_next` (the GPUs of the second job of the queue in
//!   arrival order). Its `f_n` is only ever forced to 0 or left free, never to 1, so minimising
//!   sets every `f_n = 0`: the term is vacuous and comparing the ways is exact
//!   ([`WaysSolver::Enumerate`]); the same MILP can also be handed to a solver.
//! - [`Placement::Milp`]: the placement the paper describes, as a MILP over every node of the
//!   pool with the fragmentation term working (`f_n = 1` whenever `0 < free_after_n < G_n`),
//!   tier 1 (`ceil(g / G)` nodes) or tier 2 (one more without more partial nodes).

use crate::placement::{Way, find_ways, used_on};
use schedlab_solver::{Backend, Comparison, Failure, LinearProgram, Sense, SolverError, Var, solve};

/// The objective's weights (`choose_allocation_milp_solver` defaults: helios_env_base_v2.py 709).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per partially used node after placement.
    pub alpha: f64,
    /// Per GPU of spread between the most and least free node.
    pub beta: f64,
    /// Per node where the next job would fit whole.
    pub gamma: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights { alpha: 1.0, beta: 0.3, gamma: 0.5 }
    }
}

/// How the authors' way-choosing MILP is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaysSolver {
    /// Score each way (exact: the fragmentation term is vacuous in that formulation).
    Enumerate,
    /// Hand the MILP, as written, to an LP backend.
    Solver(Backend),
}

/// Where a job that may start is placed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Placement {
    /// The lexicographically smallest tier-1 way.
    Greedy,
    /// The authors' MILP over at most four ways.
    Ways(WaysSolver, Weights),
    /// The paper's MILP over every node of the pool, on a backend.
    Milp(Backend, Weights),
}

/// The free GPUs of one pool of nodes of one capacity that a job may use: `(node, free)` for
/// every node with a free GPU, in node order (full nodes are not listed, as in the authors'
/// `cluster_status`).
#[derive(Clone, Debug, PartialEq)]
pub struct Pool {
    /// GPUs per node.
    pub capacity: u32,
    /// `(node index, free GPUs)` of the nodes with a free GPU.
    pub free: Vec<(usize, u32)>,
}

/// A way with the scores `find_gpu_assignments` sorts by (allocation_score.py 211-256).
#[derive(Clone, Debug, PartialEq)]
struct Scored {
    way: Way,
    /// Change in partially used nodes of the pool.
    frag_delta: i64,
    /// Change in unused GPUs on partially used nodes.
    waste_delta: i64,
    /// Change in the variance of node utilisation over the pool's listed nodes.
    balance_delta: f64,
}

fn score(pool: &Pool, way: &Way) -> Scored {
    let capacity = pool.capacity;
    let after = |node: usize, free: u32| free - used_on(way, node);
    let partial = |free: u32| free > 0 && free < capacity;
    let (mut frag_delta, mut waste_delta) = (0i64, 0i64);
    for &(node, free) in &pool.free {
        let later = after(node, free);
        frag_delta += i64::from(partial(later)) - i64::from(partial(free));
        waste_delta += if partial(later) { i64::from(capacity - later) } else { 0 }
            - if partial(free) { i64::from(capacity - free) } else { 0 };
    }
    let variance = |values: &[f64]| {
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        values.iter().map(|value| (value - mean).powi(2)).sum::<f64>() / values.len() as f64
    };
    let balance_delta = if pool.free.len() <= 1 {
        0.0
    } else {
        let utilisation = |free: u32| 1.0 - f64::from(free) / f64::from(capacity);
        let before: Vec<f64> = pool.free.iter().map(|&(_, free)| utilisation(free)).collect();
        let later: Vec<f64> = pool.free.iter().map(|&(node, free)| utilisation(after(node, free))).collect();
        variance(&later) - variance(&before)
    };
    Scored { way: way.clone(), frag_delta, waste_delta, balance_delta }
}

/// The ways the authors' MILP chooses from (`_collect_allocation_ways`): the first of tier 1
/// sorted for defragmentation, for load balance, then the same for tier 2, without repeats.
/// Tiers of several pools are merged before sorting (Philly's `_merge_philly_allocation_results`).
pub fn candidate_ways(pools: &[Pool], gpus: u32) -> Vec<Way> {
    let (mut tier1, mut tier2) = (Vec::new(), Vec::new());
    for pool in pools {
        let ways = find_ways(&pool.free, gpus, pool.capacity, gpus > 1);
        tier1.extend(ways.tier1.iter().map(|way| score(pool, way)));
        tier2.extend(ways.tier2.iter().map(|way| score(pool, way)));
    }
    let nodes = |way: &Way| way.iter().map(|&(node, _)| node).collect::<Vec<usize>>();
    let defrag = |a: &Scored, b: &Scored| {
        (a.frag_delta, a.waste_delta)
            .cmp(&(b.frag_delta, b.waste_delta))
            .then(a.balance_delta.total_cmp(&b.balance_delta))
            .then(a.way.len().cmp(&b.way.len()))
            .then(nodes(&a.way).cmp(&nodes(&b.way)))
    };
    let balance = |a: &Scored, b: &Scored| {
        a.balance_delta
            .total_cmp(&b.balance_delta)
            .then((a.frag_delta, a.waste_delta).cmp(&(b.frag_delta, b.waste_delta)))
            .then(a.way.len().cmp(&b.way.len()))
            .then(nodes(&a.way).cmp(&nodes(&b.way)))
    };
    let mut chosen: Vec<Way> = Vec::new();
    for tier in [&tier1, &tier2] {
        // Python's sort is stable: the first of equal keys is the first listed.
        for order in [&defrag as &dyn Fn(&Scored, &Scored) -> std::cmp::Ordering, &balance] {
            if let Some(first) = tier.iter().min_by(|a, b| order(a, b))
                && !chosen.contains(&first.way)
            {
                chosen.push(first.way.clone());
            }
        }
    }
    chosen
}

/// The authors' objective for one way, with the fragmentation term at its optimum of 0:
/// `beta * (max - min free after) - gamma * #(free after >= next)` over `nodes`.
pub fn way_objective(free: &[(usize, u32)], way: &Way, next: u32, weights: &Weights) -> f64 {
    let after: Vec<u32> = free.iter().map(|&(node, f)| f - used_on(way, node)).collect();
    let spread = after.iter().max().copied().unwrap_or(0) - after.iter().min().copied().unwrap_or(0);
    let fits = after.iter().filter(|&&f| f >= next).count();
    weights.beta * f64::from(spread) - weights.gamma * fits as f64
}

/// The nodes of `pools` that some way touches, with their free GPUs (the authors' reduced
/// pool), in node order.
fn touched(pools: &[Pool], ways: &[Way]) -> Vec<(usize, u32)> {
    let mut nodes: Vec<(usize, u32)> = pools
        .iter()
        .flat_map(|pool| pool.free.iter().copied())
        .filter(|&(node, _)| ways.iter().any(|way| way.iter().any(|&(used, _)| used == node)))
        .collect();
    nodes.sort_unstable();
    nodes
}

/// The authors' choice among `ways` (see the module docs): the way with the smallest objective,
/// the first listed on ties (whichever backend solved it). `big_m_capacity` is the environment's `num_gpu_per_node` (its
/// big-M is that plus 10).
pub fn choose_way(
    pools: &[Pool],
    ways: &[Way],
    next: u32,
    weights: &Weights,
    solver: WaysSolver,
    big_m_capacity: u32,
) -> Result<usize, SolverError> {
    let nodes = touched(pools, ways);
    match solver {
        WaysSolver::Enumerate => {
            let objectives: Vec<f64> = ways.iter().map(|way| way_objective(&nodes, way, next, weights)).collect();
            Ok((0..ways.len()).fold(0, |best, index| if objectives[index] < objectives[best] { index } else { best }))
        }
        WaysSolver::Solver(backend) => {
            let mut lp = LinearProgram::new("rltune way choice", Sense::Minimize);
            let x: Vec<Var> = ways.iter().map(|_| lp.integer_variable(0.0, 1.0)).collect();
            let f: Vec<Var> = nodes.iter().map(|_| lp.integer_variable(0.0, 1.0)).collect();
            let y: Vec<Var> = nodes.iter().map(|_| lp.integer_variable(0.0, 1.0)).collect();
            let free_max = lp.variable(0.0, f64::INFINITY);
            let free_min = lp.variable(0.0, f64::INFINITY);
            lp.constraint(x.iter().map(|&var| (var, 1.0)).collect(), Comparison::Equal, 1.0);
            let g = f64::from(big_m_capacity);
            let big_m = g + 10.0;
            for (index, &(node, free)) in nodes.iter().enumerate() {
                // free_after_n = sum_w x_w * g_wn.
                let after: Vec<(Var, f64)> =
                    ways.iter().zip(&x).map(|(way, &var)| (var, f64::from(free - used_on(way, node)))).collect();
                let with = |extra: &[(Var, f64)]| after.iter().copied().chain(extra.iter().copied()).collect();
                lp.constraint(with(&[(free_max, -1.0)]), Comparison::AtMost, 0.0);
                lp.constraint(with(&[(free_min, -1.0)]), Comparison::AtLeast, 0.0);
                // free_after >= 1 - M (1 - f) and free_after <= G - 1 + M (1 - f).
                lp.constraint(with(&[(f[index], -big_m)]), Comparison::AtLeast, 1.0 - big_m);
                lp.constraint(with(&[(f[index], big_m)]), Comparison::AtMost, g - 1.0 + big_m);
                lp.constraint(with(&[(y[index], -f64::from(next))]), Comparison::AtLeast, 0.0);
                lp.objective(f[index], weights.alpha);
                lp.objective(y[index], -weights.gamma);
            }
            lp.objective(free_max, weights.beta);
            lp.objective(free_min, -weights.beta);
            let solution = solve(&lp, backend)?;
            // Ties go to the first listed way on every backend (each breaks them its own way):
            // the first way whose objective is the solver's optimum.
            let chosen = (0..ways.len())
                .fold(0, |best, index| if solution.value(x[index]) > solution.value(x[best]) { index } else { best });
            let optimum = way_objective(&nodes, &ways[chosen], next, weights);
            Ok((0..ways.len())
                .find(|&index| way_objective(&nodes, &ways[index], next, weights) <= optimum + 1e-9)
                .unwrap_or(chosen))
        }
    }
}

/// The paper's placement MILP over every listed node: the best way over `pools` (each solved
/// on its own; other pools' nodes count as they are), or `None` if no pool admits a tier-1 or
/// tier-2 placement. Returns the way and its objective.
pub fn milp_place(
    pools: &[Pool],
    gpus: u32,
    next: u32,
    weights: &Weights,
    backend: Backend,
) -> Result<Option<(Way, f64)>, SolverError> {
    let mut best: Option<(Way, f64)> = None;
    for (index, pool) in pools.iter().enumerate() {
        let others: Vec<(u32, u32)> = pools
            .iter()
            .enumerate()
            .filter(|&(other, _)| other != index)
            .flat_map(|(_, other)| other.free.iter().map(move |&(_, free)| (free, other.capacity)))
            .collect();
        if let Some(found) = milp_pool(pool, &others, gpus, next, weights, backend)?
            && best.as_ref().is_none_or(|(_, objective)| found.1 < *objective - 1e-9)
        {
            best = Some(found);
        }
    }
    Ok(best)
}

/// The objective of a placement under the paper's MILP, with every term evaluated directly:
/// for checking the solver.
pub fn milp_objective(pools: &[Pool], way: &Way, next: u32, weights: &Weights) -> f64 {
    let mut after: Vec<(u32, u32)> = Vec::new();
    for pool in pools {
        for &(node, free) in &pool.free {
            after.push((free - used_on(way, node), pool.capacity));
        }
    }
    let partial = after.iter().filter(|&&(free, capacity)| free > 0 && free < capacity).count();
    let spread = after.iter().map(|&(f, _)| f).max().unwrap_or(0) - after.iter().map(|&(f, _)| f).min().unwrap_or(0);
    let fits = after.iter().filter(|&&(free, _)| free >= next).count();
    weights.alpha * partial as f64 + weights.beta * f64::from(spread) - weights.gamma * fits as f64
}

fn milp_pool(
    pool: &Pool,
    others: &[(u32, u32)],
    gpus: u32,
    next: u32,
    weights: &Weights,
    backend: Backend,
) -> Result<Option<(Way, f64)>, SolverError> {
    let capacity = f64::from(pool.capacity);
    let min_nodes = gpus.div_ceil(pool.capacity) as usize;
    let pool_gpus: u32 = pool.free.iter().map(|&(_, free)| free).sum();
    if pool.free.len() < min_nodes || pool_gpus < gpus {
        return Ok(None);
    }
    let partial_before = pool.free.iter().filter(|&&(_, free)| free < pool.capacity).count();
    let mut lp = LinearProgram::new(format!("rltune placement ({} nodes)", pool.free.len()), Sense::Minimize);
    // Tier 2 (one more node) only for jobs of more than one GPU, and only with a node to spare.
    let tier2 = lp.integer_variable(0.0, if gpus > 1 && pool.free.len() > min_nodes { 1.0 } else { 0.0 });
    let free_max = lp.variable(0.0, f64::INFINITY);
    let free_min = lp.variable(0.0, f64::INFINITY);
    let mut used_terms = Vec::new();
    let mut gpu_terms = Vec::new();
    let mut partial_terms = Vec::new();
    let mut assigned = Vec::new();
    // The last node seen with each free count: nodes with equal free GPUs are interchangeable,
    // so the MILP may ask for non-increasing GPUs among them in node order (this cuts the
    // branch and bound's symmetric copies; the optimum's value is unchanged).
    let mut last_with: std::collections::BTreeMap<u32, Var> = std::collections::BTreeMap::new();
    for &(_, free_count) in &pool.free {
        let free = f64::from(free_count);
        let a = lp.integer_variable(0.0, free);
        if let Some(previous) = last_with.insert(free_count, a) {
            lp.constraint(vec![(previous, 1.0), (a, -1.0)], Comparison::AtLeast, 0.0);
        }
        let used = lp.integer_variable(0.0, 1.0);
        let partial = lp.integer_variable(0.0, 1.0);
        let whole = lp.integer_variable(0.0, 1.0);
        let empty = lp.integer_variable(0.0, 1.0);
        let fits = lp.integer_variable(0.0, 1.0);
        // a <= free * used, a >= used: `used` says whether the node takes part.
        lp.constraint(vec![(a, 1.0), (used, -free)], Comparison::AtMost, 0.0);
        lp.constraint(vec![(a, 1.0), (used, -1.0)], Comparison::AtLeast, 0.0);
        // free_after = free - a; whole => free_after = G; empty => free_after = 0; a node that
        // is neither is partial.
        lp.constraint(vec![(a, 1.0), (whole, capacity)], Comparison::AtMost, free);
        lp.constraint(vec![(a, -1.0), (empty, capacity)], Comparison::AtMost, capacity - free);
        lp.constraint(vec![(partial, 1.0), (whole, 1.0), (empty, 1.0)], Comparison::AtLeast, 1.0);
        // The next job fits whole: free_after >= next.
        lp.constraint(vec![(a, 1.0), (fits, f64::from(next))], Comparison::AtMost, free);
        // The spread: free_min <= free_after <= free_max.
        lp.constraint(vec![(a, -1.0), (free_max, -1.0)], Comparison::AtMost, -free);
        lp.constraint(vec![(a, -1.0), (free_min, -1.0)], Comparison::AtLeast, -free);
        lp.objective(partial, weights.alpha);
        lp.objective(fits, -weights.gamma);
        used_terms.push((used, 1.0));
        gpu_terms.push((a, 1.0));
        partial_terms.push((partial, 1.0));
        assigned.push(a);
    }
    lp.constraint(gpu_terms, Comparison::Equal, f64::from(gpus));
    // Exactly ceil(g / G) nodes, or one more in tier 2.
    used_terms.push((tier2, -1.0));
    lp.constraint(used_terms, Comparison::Equal, min_nodes as f64);
    // Tier 2 may not add partially used nodes: sum partial <= before + N (1 - tier2).
    let n = pool.free.len() as f64;
    partial_terms.push((tier2, n));
    lp.constraint(partial_terms, Comparison::AtMost, partial_before as f64 + n);
    // Nodes of other pools: fixed terms.
    for &(free, _) in others {
        lp.constraint(vec![(free_max, 1.0)], Comparison::AtLeast, f64::from(free));
        lp.constraint(vec![(free_min, 1.0)], Comparison::AtMost, f64::from(free));
    }
    lp.objective(free_max, weights.beta);
    lp.objective(free_min, -weights.beta);
    let solution = match solve(&lp, backend) {
        Ok(solution) => solution,
        Err(error) if error.failure == Failure::Infeasible => return Ok(None),
        Err(error) => return Err(error),
    };
    let way: Way = pool
        .free
        .iter()
        .zip(&assigned)
        .filter_map(|(&(node, _), &a)| {
            let gpus = solution.value(a).round() as u32;
            (gpus > 0).then_some((node, gpus))
        })
        .collect();
    let constant = others
        .iter()
        .map(|&(free, other_capacity)| {
            weights.alpha * f64::from(u8::from(free > 0 && free < other_capacity))
                - weights.gamma * f64::from(u8::from(free >= next))
        })
        .sum::<f64>();
    Ok(Some((way, solution.objective + constant)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_pool(rng: &mut ChaCha8Rng, nodes: usize, capacity: u32, first: usize) -> Pool {
        let free = (0..nodes)
            .map(|index| (first + index, rng.random_range(0..=capacity)))
            .filter(|&(_, free)| free > 0)
            .collect();
        Pool { capacity, free }
    }

    #[test]
    fn the_fragmentation_term_decides_where_a_hand_built_job_goes() {
        // Three 8-GPU nodes with 8, 4 and 8 free; a 4-GPU job, then a job of 8.
        let pools = [Pool { capacity: 8, free: vec![(0, 8), (1, 4), (2, 8)] }];
        let weights = Weights::default();
        // Greedy takes node 0: 2 partial nodes (alpha 2), spread 8 - 4 = 4 (beta 1.2), one node
        // fits 8 (gamma -0.5): 2.7. Node 1 instead: no partial node, spread 8 (2.4), two fit
        // (-1.0): 1.4, the optimum.
        assert!((milp_objective(&pools, &vec![(0, 4)], 8, &weights) - 2.7).abs() < 1e-12);
        assert!((milp_objective(&pools, &vec![(1, 4)], 8, &weights) - 1.4).abs() < 1e-12);
        for backend in Backend::available_for_milps() {
            let (way, objective) = milp_place(&pools, 4, 8, &weights, backend).unwrap().unwrap();
            assert_eq!(way, vec![(1, 4)], "{backend}");
            assert!((objective - 1.4).abs() < 1e-6, "{backend}: {objective}");
        }
        // In the authors' formulation the fragmentation term is vacuous: both ways are among its
        // candidates (node 1 sorts first for defragmentation, node 0 for load balance) and only
        // spread and fit over the nodes the ways touch (0 and 1) count: node 0 leaves [4, 4],
        // spread 0 and no fit: 0; node 1 leaves [8, 0]: 2.4 - 0.5 = 1.9. Node 0 wins.
        let ways = candidate_ways(&pools, 4);
        assert_eq!(ways, vec![vec![(1, 4)], vec![(0, 4)]]);
        let chosen = choose_way(&pools, &ways, 8, &weights, WaysSolver::Enumerate, 8).unwrap();
        assert_eq!(ways[chosen], vec![(0, 4)]);
    }

    #[test]
    fn the_authors_way_milp_on_every_backend_agrees_with_enumerating_the_ways() {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        let weights = Weights::default();
        let mut compared = 0;
        for _ in 0..200 {
            let pools = [random_pool(&mut rng, 6, 2, 0), random_pool(&mut rng, 8, 8, 6)];
            let gpus = [1, 2, 3, 4, 6, 8, 12, 16][rng.random_range(0..8)];
            let pools: Vec<Pool> = pools.into_iter().filter(|pool| gpus <= 4 || pool.capacity == 8).collect();
            let next = rng.random_range(1..=8);
            let ways = candidate_ways(&pools, gpus);
            if ways.len() < 2 {
                continue;
            }
            compared += 1;
            let nodes = touched(&pools, &ways);
            let objective = |index: usize| way_objective(&nodes, &ways[index], next, &weights);
            let enumerated = choose_way(&pools, &ways, next, &weights, WaysSolver::Enumerate, 8).unwrap();
            for backend in Backend::available_for_milps() {
                let solved = choose_way(&pools, &ways, next, &weights, WaysSolver::Solver(backend), 8).unwrap();
                assert_eq!(solved, enumerated, "{backend}: {pools:?} g={gpus} next={next}");
                assert!((objective(solved) - objective(enumerated)).abs() < 1e-9);
            }
        }
        assert!(compared > 50, "only {compared} states had two ways or more");
    }

    /// Every placement on at most `nodes + 1` nodes, by brute force.
    fn brute_force(pools: &[Pool], gpus: u32, next: u32, weights: &Weights) -> Option<f64> {
        let mut best: Option<f64> = None;
        for pool in pools {
            let min_nodes = gpus.div_ceil(pool.capacity) as usize;
            let partial = |free: u32| free > 0 && free < pool.capacity;
            let before = pool.free.iter().filter(|&&(_, free)| partial(free)).count();
            let mut counts = vec![0u32; pool.free.len()];
            loop {
                if counts.iter().sum::<u32>() == gpus {
                    let way: Way = pool
                        .free
                        .iter()
                        .zip(&counts)
                        .filter(|&(_, &count)| count > 0)
                        .map(|(&(node, _), &count)| (node, count))
                        .collect();
                    let after =
                        pool.free.iter().zip(&counts).filter(|&(&(_, free), &count)| partial(free - count)).count();
                    let tier1 = way.len() == min_nodes;
                    let tier2 = gpus > 1 && way.len() == min_nodes + 1 && after <= before;
                    if tier1 || tier2 {
                        let objective = milp_objective(pools, &way, next, weights);
                        if best.is_none_or(|best| objective < best) {
                            best = Some(objective);
                        }
                    }
                }
                // The next assignment, odometer style.
                let mut index = 0;
                while index < counts.len() && counts[index] == pool.free[index].1 {
                    counts[index] = 0;
                    index += 1;
                }
                if index == counts.len() {
                    break;
                }
                counts[index] += 1;
            }
        }
        best
    }

    #[test]
    fn the_placement_milp_finds_the_brute_force_optimum_with_fragmentation_on() {
        let mut rng = ChaCha8Rng::seed_from_u64(1024);
        for round in 0..60 {
            let pools = vec![random_pool(&mut rng, 3, 2, 0), random_pool(&mut rng, 4, 8, 3)];
            let gpus = rng.random_range(1..=10);
            let pools: Vec<Pool> = pools.into_iter().filter(|pool| gpus <= 4 || pool.capacity == 8).collect();
            let next = rng.random_range(1..=8);
            let weights =
                if round % 2 == 0 { Weights::default() } else { Weights { alpha: 0.0, ..Weights::default() } };
            let expected = brute_force(&pools, gpus, next, &weights);
            for backend in Backend::available_for_milps() {
                let found = milp_place(&pools, gpus, next, &weights, backend).unwrap();
                match (&found, expected) {
                    (None, None) => {}
                    (Some((way, objective)), Some(expected)) => {
                        assert!(
                            (objective - expected).abs() < 1e-6,
                            "{backend}: {pools:?} g={gpus}: {objective} vs {expected}"
                        );
                        // The way it returns scores what it claims, and holds the job.
                        assert!((milp_objective(&pools, way, next, &weights) - objective).abs() < 1e-6);
                        assert_eq!(way.iter().map(|&(_, g)| g).sum::<u32>(), gpus);
                    }
                    _ => panic!("{backend}: {pools:?} g={gpus}: MILP {found:?}, brute force {expected:?}"),
                }
            }
        }
    }
}

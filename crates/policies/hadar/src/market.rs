//! The GPUs of the cluster over time and their prices, as Hadar's dual subroutine reads them.

use crate::pricing::PriceFunction;
use std::collections::BTreeMap;

/// The GPUs of the cluster over time, and their prices: each node's planned busy GPUs, each
/// until its job's planned end. Prices are per (node, round): a round's price on a node follows
/// the GPUs planned busy there in that round, so a job that runs for many rounds pays the
/// current high price only while the jobs planned before it still run.
#[derive(Clone, Debug)]
pub struct Market {
    /// Each node's GPU type index.
    pub node_types: Vec<usize>,
    /// Each node's GPUs.
    pub capacity: Vec<u32>,
    /// Per node, the end (in rounds from now) of each planned busy GPU, sorted.
    ends: Vec<Vec<f64>>,
    /// The price function.
    pub prices: PriceFunction,
    /// How the GPUs a job takes on one node are priced ([`GangPrice`]).
    pub gang_price: GangPrice,
    /// Whether a GPU's price follows its node's utilisation or its GPU type's
    /// ([`Market::set_price_scope`]).
    pub(crate) price_scope: PriceScope,
    /// With [`PriceScope::Type`], per GPU type, the planned ends of all its busy GPUs, sorted.
    pub(crate) type_ends: Vec<Vec<f64>>,
    /// With [`PriceScope::Type`], per GPU type, `p(g)` for g = 0..=the type's GPUs.
    type_steps: Vec<Vec<f64>>,
    /// Round length in seconds: a price is per GPU-round.
    pub round: f64,
    /// `p(g)` for g = 0..=capacity of each node, computed once (`powf` is the hot path).
    price_steps: Vec<Vec<f64>>,
    /// The nodes of each GPU type, in index order.
    pub(crate) nodes_by_type: Vec<Vec<usize>>,
    /// Per node, whether it is in the same state as the node before it of its type
    /// ([`Market::same_state`]), so has the same prices.
    pub(crate) same_as_previous: Vec<bool>,
    /// Per GPU type, its nodes with a free GPU that are not in the same state as the node
    /// before them: one node of each set of free nodes priced alike.
    distinct_free: Vec<Vec<usize>>,
}

/// How the GPUs one job takes on a node are priced. The papers do not say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GangPrice {
    /// Each GPU at the price the node would have with the job's earlier GPUs there taken: the
    /// price rises along the job's own GPUs, as if each were a separate arrival.
    Marginal,
    /// Every GPU at the node's price before the job is placed (the job's own GPUs do not raise
    /// the price it pays; later jobs see them). Hadar's default.
    #[default]
    Current,
}

/// What a price is the price of. The papers give "an exponential price per node, GPU type and
/// round" without saying whose utilisation sets it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PriceScope {
    /// Each node has its price, set by its own GPUs planned busy.
    #[default]
    Node,
    /// Every GPU of a type has one price, set by all GPUs of the type planned busy. With
    /// [`GangPrice::Marginal`] a job's earlier GPUs of the type raise the price of its later
    /// ones; the subroutine still ranks a node's GPUs by the job's GPUs on that node, and the
    /// chosen set is then priced by its GPUs per type.
    Type,
}

impl Market {
    /// Returns a market with nothing planned.
    pub fn idle(node_types: Vec<usize>, capacity: Vec<u32>, prices: PriceFunction, round: f64) -> Market {
        let ends = vec![Vec::new(); capacity.len()];
        // Nodes of one size share their steps (computed once per size).
        let mut by_size: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
        let price_steps = capacity
            .iter()
            .map(|&gpus| by_size.entry(gpus).or_insert_with(|| rising_steps(&prices, gpus)).clone())
            .collect();
        let types = node_types.iter().map(|&gpu_type| gpu_type + 1).max().unwrap_or(0);
        let mut nodes_by_type = vec![Vec::new(); types];
        for (node, &gpu_type) in node_types.iter().enumerate() {
            nodes_by_type[gpu_type].push(node);
        }
        let nodes = capacity.len();
        let mut market = Market {
            node_types,
            capacity,
            ends,
            prices,
            gang_price: GangPrice::default(),
            price_scope: PriceScope::Node,
            type_ends: Vec::new(),
            type_steps: Vec::new(),
            round,
            price_steps,
            nodes_by_type,
            same_as_previous: vec![false; nodes],
            distinct_free: vec![Vec::new(); types],
        };
        for gpu_type in 0..types {
            market.refresh(gpu_type);
        }
        market
    }

    /// Whether a GPU's price follows its node's utilisation or its GPU type's.
    pub fn price_scope(&self) -> PriceScope {
        self.price_scope
    }

    /// Prices GPUs by `scope` from now on (per type: from every GPU of the type planned busy).
    pub fn set_price_scope(&mut self, scope: PriceScope) {
        self.price_scope = scope;
        self.type_ends.clear();
        self.type_steps.clear();
        if scope == PriceScope::Type {
            for nodes in &self.nodes_by_type {
                let gpus: u32 = nodes.iter().map(|&node| self.capacity[node]).sum();
                let mut ends: Vec<f64> = nodes.iter().flat_map(|&node| self.ends[node].iter().copied()).collect();
                ends.sort_by(f64::total_cmp);
                self.type_ends.push(ends);
                self.type_steps.push(rising_steps(&self.prices, gpus));
            }
        }
    }

    /// Recomputes which nodes of `gpu_type` share their prices, after one of them changed.
    fn refresh(&mut self, gpu_type: usize) {
        let mut distinct = std::mem::take(&mut self.distinct_free[gpu_type]);
        distinct.clear();
        let mut previous: Option<usize> = None;
        for &node in &self.nodes_by_type[gpu_type] {
            let same = previous.is_some_and(|before| self.same_state(before, node));
            self.same_as_previous[node] = same;
            if !same && self.free(node) > 0 {
                distinct.push(node);
            }
            previous = Some(node);
        }
        self.distinct_free[gpu_type] = distinct;
    }

    /// Returns the planned ends of `node`'s busy GPUs, in rounds from now, sorted.
    pub fn ends(&self, node: usize) -> &[f64] {
        &self.ends[node]
    }

    /// Returns the GPUs of `node` planned busy now.
    pub fn used(&self, node: usize) -> u32 {
        self.ends[node].len() as u32
    }

    /// Returns the GPUs of `node` free now.
    pub fn free(&self, node: usize) -> u32 {
        self.capacity[node] - self.used(node)
    }

    /// Returns the free GPUs of each GPU type now.
    pub fn free_per_type(&self) -> Vec<u32> {
        self.nodes_by_type.iter().map(|nodes| nodes.iter().map(|&node| self.free(node)).sum()).collect()
    }

    /// Returns true if and only if every GPU is planned busy now.
    pub fn is_full(&self) -> bool {
        self.distinct_free.iter().all(Vec::is_empty)
    }

    /// Returns the price of one more GPU on `node` for `rounds` rounds from now, when the job
    /// already takes `extra` GPUs there: the integral over time of `p(busy(t) + extra)`
    /// ([`GangPrice::Marginal`]) or of `p(busy(t))` ([`GangPrice::Current`]).
    pub fn gpu_cost(&self, node: usize, extra: u32, rounds: f64) -> f64 {
        let extra = match self.gang_price {
            GangPrice::Marginal => extra,
            GangPrice::Current => 0,
        };
        let (steps, ends) = match self.price_scope {
            PriceScope::Node => (&self.price_steps[node], &self.ends[node]),
            PriceScope::Type => {
                let gpu_type = self.node_types[node];
                (&self.type_steps[gpu_type], &self.type_ends[gpu_type])
            }
        };
        let price = |busy: u32| steps[(busy as usize).min(steps.len() - 1)];
        let mut busy = ends.len() as u32;
        let mut from = 0.0;
        let mut cost = 0.0;
        // `ends` is sorted: busy drops by one at each end.
        for &end in ends {
            if end >= rounds {
                break;
            }
            cost += (end - from).max(0.0) * price(busy + extra);
            from = end.max(from);
            busy -= 1;
        }
        cost + (rounds - from).max(0.0) * price(busy + extra)
    }

    /// The least any one GPU with a positive rate in `worker_rates` costs for `rounds` rounds
    /// from now (the cheapest node's first free GPU), or `None` when no such GPU is free. Taking
    /// GPUs only raises prices and frees none, so this stays a lower bound as the market fills.
    pub fn cheapest_gpu_cost(&self, worker_rates: &[f64], rounds: f64) -> Option<f64> {
        let mut cheapest: Option<f64> = None;
        // Nodes in the same state cost the same: one of each is priced.
        for (gpu_type, nodes) in self.distinct_free.iter().enumerate().take(worker_rates.len()) {
            if worker_rates[gpu_type] <= 0.0 {
                continue;
            }
            // Priced by type, every node of the type costs the same.
            let priced = if self.price_scope == PriceScope::Type { &nodes[..nodes.len().min(1)] } else { nodes };
            for &node in priced {
                let cost = self.gpu_cost(node, 0, rounds);
                cheapest = Some(cheapest.map_or(cost, |known| known.min(cost)));
            }
        }
        cheapest
    }

    /// Whether nodes `a` and `b` have the same GPUs and the same planned ends, so the same
    /// prices.
    fn same_state(&self, a: usize, b: usize) -> bool {
        self.capacity[a] == self.capacity[b] && self.ends[a] == self.ends[b]
    }

    /// Plans `gpus` GPUs of `node` busy for `rounds` rounds from now.
    pub fn take(&mut self, node: usize, gpus: u32, rounds: f64) {
        let gpu_type = self.node_types[node];
        insert_ends(&mut self.ends[node], gpus, rounds);
        if let Some(type_ends) = self.type_ends.get_mut(gpu_type) {
            insert_ends(type_ends, gpus, rounds);
        }
        self.refresh(gpu_type);
    }
}

/// `p(used)` for used = 0..=gpus, each at least the one before it: the running maximum guards
/// against a last-bit dip in `powf`, so that each GPU a job takes costs at least as much as the
/// one before it (the subroutine's selection relies on it).
fn rising_steps(prices: &PriceFunction, gpus: u32) -> Vec<f64> {
    let mut highest = 0.0_f64;
    (0..=gpus)
        .map(|used| {
            highest = highest.max(prices.price(used, gpus));
            highest
        })
        .collect()
}

/// Adds `gpus` ends at `rounds` to the sorted `ends`.
fn insert_ends(ends: &mut Vec<f64>, gpus: u32, rounds: f64) {
    let at = ends.partition_point(|end| *end <= rounds);
    for _ in 0..gpus {
        ends.insert(at, rounds);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A market pricing a job's own GPUs marginally, where the rising steps show (the
    /// policy's default, [`GangPrice::Current`], is checked in its own test).
    pub(crate) fn market(nodes: &[(usize, u32)], low: f64, high: f64) -> Market {
        let mut market = Market::idle(
            nodes.iter().map(|node| node.0).collect(),
            nodes.iter().map(|node| node.1).collect(),
            PriceFunction::new(low, high),
            100.0,
        );
        market.gang_price = GangPrice::Marginal;
        market
    }

    #[test]
    fn with_type_prices_every_node_of_a_type_costs_what_the_types_utilisation_sets() {
        // Two 4-GPU nodes of one type (8 GPUs), L = 1, U = 16: p(g) = 16^(g/8).
        let mut market = market(&[(0, 4), (0, 4)], 1.0, 16.0);
        market.take(0, 1, 10.0);
        // Switching scope counts what is already planned.
        market.set_price_scope(PriceScope::Type);
        market.take(0, 1, 10.0);
        // Node 1 is idle, but the type has 2 of 8 GPUs busy: p(2) = 16^(1/4) = 2 per round.
        assert!((market.gpu_cost(1, 0, 5.0) - 10.0).abs() < 1e-12);
        assert_eq!(market.gpu_cost(1, 0, 5.0), market.gpu_cost(0, 0, 5.0));
        // By node, the idle node is at L.
        market.set_price_scope(PriceScope::Node);
        assert_eq!(market.gpu_cost(1, 0, 5.0), 5.0);
    }

    #[test]
    fn with_current_gang_prices_a_jobs_own_gpus_do_not_raise_its_price() {
        let mut market = market(&[(0, 4)], 1.0, 16.0);
        // Idle node, 5 rounds: the marginal price of the third GPU is p(2) = 1 x 16^(2/4) = 4.
        assert_eq!(market.gpu_cost(0, 2, 5.0), 20.0);
        market.gang_price = GangPrice::Current;
        assert_eq!(market.gpu_cost(0, 2, 5.0), 5.0);
        // GPUs taken by earlier jobs still raise it.
        market.take(0, 2, 10.0);
        assert_eq!(market.gpu_cost(0, 1, 5.0), 20.0);
    }

    #[test]
    fn a_gpu_costs_each_round_at_the_price_of_the_gpus_planned_busy_then() {
        // A 2-GPU node with prices 1 (idle) to 16 (full): one GPU busy until round 3.
        let mut market = market(&[(0, 2)], 1.0, 16.0);
        market.take(0, 1, 3.0);
        assert_eq!((market.used(0), market.free(0)), (1, 1));
        // The other GPU for 5 rounds: 3 rounds at p(1) = 4, then 2 at p(0) = 1.
        assert_eq!(market.gpu_cost(0, 0, 5.0), 14.0);
        // For 2 rounds, all at p(1); a second GPU of the same job pays p(2) = 16 while busy.
        assert_eq!(market.gpu_cost(0, 0, 2.0), 8.0);
        assert_eq!(market.gpu_cost(0, 1, 5.0), 3.0 * 16.0 + 2.0 * 4.0);
        market.take(0, 1, 1.0);
        assert!(market.is_full());
        assert_eq!(market.ends(0), [1.0, 3.0]);
    }
}

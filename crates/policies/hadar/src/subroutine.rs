//! Hadar's dual subroutine: a job's cheapest schedule at the current prices, and its payoff.

use crate::pricing::PriceFunction;
use schedlab_core::NodeId;

/// How a job whose workers sit on several GPU types progresses. It must match the engine's
/// perf model (`perf.throughputs.mixed_types`) for the policy's estimates to be exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Each worker adds its type's per-worker rate (`sum_g rate(type(g)) / W`).
    Sum,
    /// Synchronous SGD: W x the slowest worker's per-worker rate.
    Bottleneck,
}

/// A job's utility as a function of its completion time: `u = weight x (D / JCT)^exponent`,
/// where `D` is its shortest possible JCT (its work alone on its fastest type). Non-increasing
/// in the completion time, at most `weight`, and scale-free, so short and long jobs compare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Utility {
    /// The exponent (1 by default: utility is the inverse slowdown).
    pub exponent: f64,
}

impl Utility {
    /// Returns the utility of finishing with job completion time `jct` (seconds since arrival).
    pub fn value(&self, weight: f64, ideal_duration: f64, jct: f64) -> f64 {
        let slowdown = (jct / ideal_duration.max(f64::MIN_POSITIVE)).max(1.0);
        weight * slowdown.powf(-self.exponent)
    }
}

/// One job as the dual subroutine sees it.
#[derive(Clone, Debug)]
pub struct JobInput<'a> {
    /// GPUs (workers) the job needs.
    pub workers: u32,
    /// Steps per second one worker contributes on each GPU type: the table's gang rate over
    /// the workers; 0 where the job cannot run.
    pub worker_rates: &'a [f64],
    /// Steps left.
    pub remaining: f64,
    /// Seconds since the job arrived.
    pub age: f64,
    /// The job's shortest possible JCT: all its work alone on its fastest type (`D`).
    pub ideal_duration: f64,
    /// The job's weight.
    pub weight: f64,
    /// Nodes the job runs on now; preferred when two GPUs are worth the same.
    pub current: &'a [NodeId],
}

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
    /// Per node, the end (in rounds from now) of each planned busy GPU.
    pub ends: Vec<Vec<f64>>,
    /// The price function.
    pub prices: PriceFunction,
    /// Round length in seconds: a price is per GPU-round.
    pub round: f64,
    /// `p(g)` for g = 0..=capacity of each node, computed once (`powf` is the hot path).
    price_steps: Vec<Vec<f64>>,
}

impl Market {
    /// Returns a market with nothing planned.
    pub fn idle(node_types: Vec<usize>, capacity: Vec<u32>, prices: PriceFunction, round: f64) -> Market {
        let ends = vec![Vec::new(); capacity.len()];
        let price_steps =
            capacity.iter().map(|&gpus| (0..=gpus).map(|used| prices.price(used, gpus)).collect()).collect();
        Market { node_types, capacity, ends, prices, round, price_steps }
    }

    /// Returns the GPUs of `node` planned busy now.
    pub fn used(&self, node: usize) -> u32 {
        self.ends[node].len() as u32
    }

    /// Returns the GPUs of `node` free now.
    pub fn free(&self, node: usize) -> u32 {
        self.capacity[node] - self.used(node)
    }

    /// Returns true if and only if every GPU is planned busy now.
    pub fn is_full(&self) -> bool {
        (0..self.capacity.len()).all(|node| self.free(node) == 0)
    }

    /// Returns the price of one more GPU on `node` for `rounds` rounds from now, when the job
    /// already takes `extra` GPUs there: the integral over time of `p(busy(t) + extra)`.
    pub fn gpu_cost(&self, node: usize, extra: u32, rounds: f64) -> f64 {
        let steps = &self.price_steps[node];
        let price = |busy: u32| steps[(busy as usize).min(steps.len() - 1)];
        let ends = &self.ends[node];
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

    /// Plans `gpus` GPUs of `node` busy for `rounds` rounds from now.
    pub fn take(&mut self, node: usize, gpus: u32, rounds: f64) {
        let ends = &mut self.ends[node];
        let at = ends.partition_point(|end| *end <= rounds);
        for _ in 0..gpus {
            ends.insert(at, rounds);
        }
    }
}

/// A job's schedule from the dual subroutine: where it runs, how fast, and what it is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// GPUs per node, sorted by node.
    pub parts: Vec<(NodeId, u32)>,
    /// Steps per second.
    pub rate: f64,
    /// Seconds to finish the remaining work at that rate.
    pub duration: f64,
    /// Utility of finishing then.
    pub utility: f64,
    /// Price of the GPUs for the rounds it needs (at least one), at each round's price.
    pub cost: f64,
}

impl Schedule {
    /// Returns utility minus cost; the job runs only if this is positive.
    pub fn payoff(&self) -> f64 {
        self.utility - self.cost
    }
}

/// Returns GPU-rounds: a job holds its GPUs for at least the round it starts in.
pub fn rounds(duration: f64, round: f64) -> f64 {
    duration.max(round) / round
}

/// Which GPU types a candidate schedule may use.
#[derive(Clone, Copy, Debug)]
enum TypeRule {
    /// Only this type (whole-job placement, as Gavel does).
    Only(usize),
    /// Any type at least as fast per worker as this one (bottleneck thresholds).
    AtLeast(f64),
    /// Any type (task-level placement by throughput per unit price).
    Any,
}

/// Hadar's dual subroutine: the schedule with the highest payoff (utility minus price) for
/// `job` at the market's current prices, or `None` when it cannot be placed at all.
///
/// Candidates: the job on one GPU type (for each type), and with `task_level` also across
/// types: with [`Progress::Sum`] the W GPUs with the best per-worker throughput per unit price;
/// with [`Progress::Bottleneck`], for each threshold type, the W cheapest GPUs among the types
/// at least that fast. A GPU's price is its node's price in each round the job would hold it
/// ([`Market::gpu_cost`]), and a job taking several GPUs on one node pays the rising price of
/// each; GPUs are ranked by their average price over the job's shortest possible duration.
pub fn best_schedule(
    job: &JobInput<'_>,
    market: &Market,
    progress: Progress,
    task_level: bool,
    utility: Utility,
) -> Option<Schedule> {
    best_schedule_with(job, market, progress, task_level, utility, &mut Scratch::default())
}

/// Buffers [`best_schedule_with`] reuses from one call to the next (a greedy pass evaluates
/// hundreds of jobs per round).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    rules: Vec<TypeRule>,
    gpus: Vec<Candidate>,
    candidates: Vec<Candidate>,
}

/// [`best_schedule`] with its working buffers in `scratch`; the result is the same.
pub fn best_schedule_with(
    job: &JobInput<'_>,
    market: &Market,
    progress: Progress,
    task_level: bool,
    utility: Utility,
    scratch: &mut Scratch,
) -> Option<Schedule> {
    let Scratch { rules, gpus, candidates } = scratch;
    let types = job.worker_rates.len();
    rules.clear();
    rules.extend((0..types).filter(|&k| job.worker_rates[k] > 0.0).map(TypeRule::Only));
    if task_level && rules.len() > 1 {
        match progress {
            Progress::Sum => rules.push(TypeRule::Any),
            Progress::Bottleneck => {
                // A threshold that admits a single type gives that type's candidates, in the
                // same order, so the same schedule as its `Only` rule: skip it.
                let admitted = |threshold: f64| job.worker_rates.iter().filter(|rate| **rate >= threshold).count();
                rules.extend(
                    job.worker_rates
                        .iter()
                        .filter(|rate| **rate > 0.0 && admitted(**rate) > 1)
                        .map(|&rate| TypeRule::AtLeast(rate)),
                )
            }
        }
    }
    let best_rate = job.worker_rates.iter().copied().fold(0.0, f64::max) * f64::from(job.workers);
    let horizon = rounds(job.remaining / best_rate, market.round);
    // Every GPU the job could take, priced once and shared by all rules.
    gpus.clear();
    for (node, &gpu_type) in market.node_types.iter().enumerate() {
        let rate = job.worker_rates[gpu_type];
        if rate <= 0.0 {
            continue;
        }
        let current = job.current.contains(&NodeId(node as u32));
        for extra in 0..market.free(node).min(job.workers) {
            let price = market.gpu_cost(node, extra, horizon) / horizon;
            gpus.push(Candidate { node, gpu_type, extra, rate, price, value: 0.0, current });
        }
    }
    let mut best: Option<Schedule> = None;
    for &rule in rules.iter() {
        let Some(terms) = schedule_under(job, market, progress, utility, rule, gpus, candidates) else {
            continue;
        };
        if best.as_ref().is_none_or(|best| terms.payoff() > best.payoff()) {
            // Only a new best needs its parts: `candidates` holds its GPUs, sorted by node.
            let mut parts: Vec<(NodeId, u32)> = Vec::new();
            for candidate in candidates.iter() {
                match parts.last_mut() {
                    Some(last) if last.0.index() == candidate.node => last.1 += 1,
                    _ => parts.push((NodeId(candidate.node as u32), 1)),
                }
            }
            best = Some(Schedule { parts, ..terms });
        }
    }
    best
}

/// A GPU a job could take: `extra` more on its node than the node already has busy.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    node: usize,
    gpu_type: usize,
    /// GPUs the job takes on this node before this one.
    extra: u32,
    /// The job's per-worker rate on this GPU's type.
    rate: f64,
    /// Average price per round over the job's shortest possible duration.
    price: f64,
    /// Throughput per unit of price (or 1 / price when every allowed GPU is as fast); set per
    /// type rule.
    value: f64,
    /// Whether the job runs on this node now.
    current: bool,
}

/// The job's best W GPUs under one type rule, left in `candidates` sorted by node and extra;
/// returns the schedule's terms with empty `parts`.
fn schedule_under(
    job: &JobInput<'_>,
    market: &Market,
    progress: Progress,
    utility: Utility,
    rule: TypeRule,
    gpus: &[Candidate],
    candidates: &mut Vec<Candidate>,
) -> Option<Schedule> {
    // Best first: throughput per unit price (for one type or a bottleneck threshold this is
    // the cheapest GPU), then the job's current nodes, then the lowest node and GPU. The order
    // is total, so the best W are one set however they are found: one pass keeps them in
    // `candidates`, best first (W is at most a gang's size, so inserting is cheap).
    let order = |a: &Candidate, b: &Candidate| {
        b.value
            .total_cmp(&a.value)
            .then(b.current.cmp(&a.current))
            .then(a.node.cmp(&b.node))
            .then(a.extra.cmp(&b.extra))
    };
    let workers = job.workers as usize;
    candidates.clear();
    for gpu in gpus {
        let allowed = match rule {
            TypeRule::Only(only) => gpu.gpu_type == only,
            TypeRule::AtLeast(threshold) => gpu.rate >= threshold,
            TypeRule::Any => true,
        };
        if !allowed {
            continue;
        }
        let value = match rule {
            TypeRule::Any => gpu.rate / gpu.price,
            _ => 1.0 / gpu.price,
        };
        let candidate = Candidate { value, ..*gpu };
        if candidates.len() == workers {
            match candidates.last() {
                // Fast path: a strictly smaller value ranks below whatever the other keys say.
                Some(worst) if candidate.value < worst.value => continue,
                Some(worst) if order(&candidate, worst).is_lt() => {
                    candidates.pop();
                }
                _ => continue,
            }
        }
        let at = candidates.partition_point(|kept| order(kept, &candidate).is_lt());
        candidates.insert(at, candidate);
    }
    if candidates.len() < workers {
        return None;
    }
    // Sums in node order, so that they do not depend on how the best W were selected.
    candidates.sort_unstable_by_key(|candidate| (candidate.node, candidate.extra));
    let workers = f64::from(job.workers);
    let rate = match progress {
        Progress::Sum => candidates.iter().map(|candidate| candidate.rate).sum(),
        Progress::Bottleneck => {
            workers * candidates.iter().map(|candidate| candidate.rate).fold(f64::INFINITY, f64::min)
        }
    };
    let duration = job.remaining / rate;
    let charged = rounds(duration, market.round);
    let cost: f64 = candidates.iter().map(|candidate| market.gpu_cost(candidate.node, candidate.extra, charged)).sum();
    Some(Schedule {
        parts: Vec::new(),
        rate,
        duration,
        utility: utility.value(job.weight, job.ideal_duration, job.age + duration),
        cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn market(nodes: &[(usize, u32)], low: f64, high: f64) -> Market {
        Market::idle(
            nodes.iter().map(|node| node.0).collect(),
            nodes.iter().map(|node| node.1).collect(),
            PriceFunction::new(low, high),
            100.0,
        )
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
        assert_eq!(market.ends[0], vec![1.0, 3.0]);
    }

    #[test]
    fn utility_is_the_inverse_slowdown_and_never_rises_with_completion_time() {
        let utility = Utility { exponent: 1.0 };
        assert_eq!(utility.value(2.0, 100.0, 100.0), 2.0);
        assert_eq!(utility.value(2.0, 100.0, 400.0), 0.5);
        // Faster than ideal is impossible; it is capped at the weight.
        assert_eq!(utility.value(2.0, 100.0, 50.0), 2.0);
        let mut previous = f64::INFINITY;
        for jct in [100.0, 150.0, 1e3, 1e6] {
            let value = utility.value(1.0, 100.0, jct);
            assert!(value <= previous);
            previous = value;
        }
    }

    #[test]
    fn a_job_takes_the_best_throughput_per_unit_price_across_types() {
        // Type 0 (fast): 3 steps/s per worker; type 1 (slow): 1. Node 0 is type 0 with 2 GPUs,
        // 1 already taken; node 1 is type 1 with 2 GPUs, idle. Prices from 1 (idle) to 16
        // (full): the fast node's free GPU costs 16^(1/2) = 4, the slow node's GPUs 1 and 4.
        // Per unit price: fast 3/4 = 0.75, slow 1/1 = 1 then 1/4 = 0.25. A 2-worker job with
        // the sum rule takes the slow node's first GPU and the fast GPU: 1 + 3 = 4 steps/s.
        let mut market = market(&[(0, 2), (1, 2)], 1.0, 16.0);
        market.take(0, 1, 1e9);
        let rates = [3.0, 1.0];
        let job = JobInput {
            workers: 2,
            worker_rates: &rates,
            remaining: 800.0,
            age: 0.0,
            ideal_duration: 100.0,
            weight: 1.0,
            current: &[],
        };
        let utility = Utility { exponent: 1.0 };
        let schedule = best_schedule(&job, &market, Progress::Sum, true, utility).unwrap();
        assert_eq!(schedule.parts, vec![(NodeId(0), 1), (NodeId(1), 1)]);
        assert_eq!(schedule.rate, 4.0);
        // 800 steps at 4/s: 200 s = 2 rounds at prices 4 + 1; utility 100/200 = 0.5.
        assert_eq!(schedule.duration, 200.0);
        assert_eq!(schedule.cost, 10.0);
        assert_eq!(schedule.utility, 0.5);
        // Whole-job placement can only use the slow node: 2 steps/s, 400 s, prices 1 + 4.
        let whole = best_schedule(&job, &market, Progress::Sum, false, utility).unwrap();
        assert_eq!(whole.parts, vec![(NodeId(1), 2)]);
        assert_eq!((whole.rate, whole.cost), (2.0, 20.0));
        // Synchronous SGD: the split runs at 2 x 1 = 2 steps/s for the same prices, so the
        // subroutine keeps whole-job placement there.
        let sync = best_schedule(&job, &market, Progress::Bottleneck, true, utility).unwrap();
        assert_eq!(sync.rate, 2.0);
    }

    #[test]
    fn a_job_that_cannot_get_its_workers_has_no_schedule() {
        let market = market(&[(0, 1)], 1.0, 2.0);
        let rates = [1.0];
        let job = JobInput {
            workers: 2,
            worker_rates: &rates,
            remaining: 1.0,
            age: 0.0,
            ideal_duration: 1.0,
            weight: 1.0,
            current: &[],
        };
        assert_eq!(best_schedule(&job, &market, Progress::Sum, true, Utility { exponent: 1.0 }), None);
    }
}

//! Hadar's dual subroutine: a job's cheapest schedule at the current prices, and its payoff.

use crate::market::{Market, PriceScope};
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
    best_schedule_with(job, market, progress, task_level, utility, None, &mut Scratch::default())
}

/// Buffers [`best_schedule_with`] reuses from one call to the next (a greedy pass evaluates
/// hundreds of jobs per round).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    rules: Vec<TypeRule>,
    /// Every node with a GPU the job could take, grouped by GPU type (nodes in index order
    /// within a type).
    slots: Vec<Slot>,
    /// `slots[type_starts[k]..type_starts[k + 1]]` are the nodes of type `k`.
    type_starts: Vec<usize>,
    /// `prices[slot.prices + extra]`: the average price of the node's GPU `extra`, NaN until
    /// a rule needs it.
    prices: Vec<f64>,
    /// The best W GPUs so far of the rule being tried, best first.
    kept_gpus: Vec<RankedGpu>,
    /// The best W GPUs of the rule being tried.
    candidates: Vec<Candidate>,
    /// The best W GPUs of the best rule so far.
    best: Vec<Candidate>,
}

/// A node with free GPUs the job can use: its GPUs `extra = 0..limit`, in the order the job
/// would take them, each dearer than the one before (prices rise with utilisation), so a rule
/// stops reading a node at its first GPU that misses the rule's best W so far.
#[derive(Clone, Copy, Debug)]
struct Slot {
    node: usize,
    /// The job's per-worker rate on the node's type.
    rate: f64,
    /// [`RankedGpu::tie_key`] of the node.
    tie: u64,
    /// GPUs the job could take here: `min(free, workers)`.
    limit: u32,
    /// Where the node's prices start in `Scratch::prices`: a node in the same state as the
    /// node before it shares that node's prices.
    prices: usize,
}

/// A GPU a rule could give the job, with its rank.
#[derive(Clone, Copy, Debug)]
struct RankedGpu {
    /// Throughput per unit of price (or 1 / price when every GPU the rule admits is as fast).
    value: f64,
    /// Ties in `value` go to the lowest key: the job's current nodes first, then the lowest
    /// node, then the lowest `extra` ([`RankedGpu::tie_key`] plus `extra`).
    tie: u64,
    slot: usize,
    extra: u32,
}

impl RankedGpu {
    /// The tie key of a node's GPUs without their `extra`: not current, node, and 24 bits
    /// left for `extra`.
    fn tie_key(current: bool, node: usize) -> u64 {
        (u64::from(!current) << 63) | ((node as u64) << 24)
    }

    /// Best first (`Less`): the highest value, then the lowest tie key. The order is total
    /// over a job's GPUs, so the best W are one set however they are found. Values are
    /// positive and never NaN, so the plain comparisons agree with `total_cmp`.
    fn order(&self, other: &RankedGpu) -> std::cmp::Ordering {
        if self.value > other.value {
            std::cmp::Ordering::Less
        } else if self.value < other.value {
            std::cmp::Ordering::Greater
        } else {
            self.tie.cmp(&other.tie)
        }
    }
}

/// [`best_schedule`] with its working buffers in `scratch`, returning the schedule only if its
/// payoff exceeds `worth_more_than` (always with `None`). A greedy pass that drops schedules
/// paying 0 or less asks for `Some(0.0)`, which skips the utility of any schedule that costs the
/// job's weight or more.
pub fn best_schedule_with(
    job: &JobInput<'_>,
    market: &Market,
    progress: Progress,
    task_level: bool,
    utility: Utility,
    worth_more_than: Option<f64>,
    scratch: &mut Scratch,
) -> Option<Schedule> {
    let Scratch { rules, slots, type_starts, prices, kept_gpus, candidates, best: best_gpus } = scratch;
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
    // Every node the job could take a GPU on, grouped by type so that a rule reads only the
    // types it admits. Prices are computed when a rule first needs them and shared by all
    // rules; a node in the same state as the one before it (same GPUs, same planned ends: idle
    // nodes, mostly) shares its prices.
    slots.clear();
    type_starts.clear();
    prices.clear();
    for (gpu_type, nodes) in market.nodes_by_type.iter().enumerate().take(types) {
        type_starts.push(slots.len());
        let rate = job.worker_rates[gpu_type];
        if rate <= 0.0 {
            continue;
        }
        // Where the previous node's prices start. Priced by type, every node of the type has
        // the same prices (a GPU's price then depends on the type and the job's GPUs before it on
        // the node only): the type's nodes share one list, long enough for the largest limit.
        let by_type = market.price_scope == PriceScope::Type;
        let mut previous: Option<usize> = None;
        if by_type {
            prices.resize(prices.len() + job.workers as usize, f64::NAN);
            previous = Some(prices.len() - job.workers as usize);
        }
        for &node in nodes {
            let limit = market.free(node).min(job.workers);
            let shared = previous.filter(|_| by_type || market.same_as_previous[node]);
            let at = shared.unwrap_or_else(|| {
                prices.resize(prices.len() + limit as usize, f64::NAN);
                prices.len() - limit as usize
            });
            previous = Some(at);
            if limit > 0 {
                let current = job.current.contains(&NodeId(node as u32));
                slots.push(Slot { node, rate, tie: RankedGpu::tie_key(current, node), limit, prices: at });
            }
        }
    }
    type_starts.resize(types + 1, slots.len());
    let mut price_of = |slot: &Slot, extra: u32| {
        let price = &mut prices[slot.prices + extra as usize];
        if price.is_nan() {
            *price = market.gpu_cost(slot.node, extra, horizon) / horizon;
        }
        *price
    };
    let mut best: Option<Schedule> = None;
    for &rule in rules.iter() {
        select(job, rule, slots, type_starts, &mut price_of, kept_gpus, candidates);
        let floor = best.as_ref().map(Schedule::payoff).or(worth_more_than);
        let Some(terms) = schedule_terms(job, market, progress, utility, candidates, floor) else {
            continue;
        };
        if floor.is_none_or(|floor| terms.payoff() > floor) {
            std::mem::swap(candidates, best_gpus);
            best = Some(terms);
        }
    }
    // Only the best needs its parts: `best_gpus` holds its GPUs, sorted by node.
    let mut best = best?;
    for candidate in best_gpus.iter() {
        match best.parts.last_mut() {
            Some(last) if last.0.index() == candidate.node => last.1 += 1,
            _ => best.parts.push((NodeId(candidate.node as u32), 1)),
        }
    }
    Some(best)
}

/// A GPU a job takes: `extra` more on its node than the node already has busy.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    node: usize,
    /// GPUs the job takes on this node before this one.
    extra: u32,
    /// The job's per-worker rate on this GPU's type.
    rate: f64,
}

/// The job's best W GPUs under one type rule, into `candidates` (fewer when the rule cannot
/// place the job). Best first: throughput per unit price (for one type or a bottleneck
/// threshold this is the cheapest GPU), then the job's current nodes, then the lowest node and
/// GPU. The order is total, so the best W are one set however they are found.
fn select(
    job: &JobInput<'_>,
    rule: TypeRule,
    slots: &[Slot],
    type_starts: &[usize],
    price_of: &mut impl FnMut(&Slot, u32) -> f64,
    kept_gpus: &mut Vec<RankedGpu>,
    candidates: &mut Vec<Candidate>,
) {
    let admitted = |gpu_type: usize| match rule {
        TypeRule::Only(only) => gpu_type == only,
        TypeRule::AtLeast(threshold) => job.worker_rates[gpu_type] >= threshold,
        TypeRule::Any => true,
    };
    let value = |slot: &Slot, price: f64| match rule {
        TypeRule::Any => slot.rate / price,
        TypeRule::Only(_) | TypeRule::AtLeast(_) => 1.0 / price,
    };
    // One pass keeps the best W in `kept_gpus`, best first (W is at most a gang's size, so
    // inserting is cheap; a single worker just keeps the best). A GPU that does not make the
    // best W so far ends its node's list: the node's later GPUs are worse.
    let workers = job.workers as usize;
    kept_gpus.clear();
    let mut offer = |gpu: RankedGpu| -> bool {
        if workers == 1 {
            match kept_gpus.first_mut() {
                Some(kept) if gpu.order(kept).is_lt() => *kept = gpu,
                Some(_) => return false,
                None => kept_gpus.push(gpu),
            }
            return true;
        }
        if kept_gpus.len() == workers {
            match kept_gpus.last() {
                // Fast path: a strictly smaller value ranks below whatever the tie says.
                Some(worst) if gpu.value < worst.value => return false,
                Some(worst) if gpu.order(worst).is_lt() => {
                    kept_gpus.pop();
                }
                _ => return false,
            }
        }
        let at = kept_gpus.partition_point(|kept| kept.order(&gpu).is_lt());
        kept_gpus.insert(at, gpu);
        true
    };
    for gpu_type in (0..type_starts.len() - 1).filter(|&gpu_type| admitted(gpu_type)) {
        let first = type_starts[gpu_type];
        for (offset, slot) in slots[first..type_starts[gpu_type + 1]].iter().enumerate() {
            let index = first + offset;
            for extra in 0..slot.limit {
                let gpu = RankedGpu {
                    value: value(slot, price_of(slot, extra)),
                    tie: slot.tie | u64::from(extra),
                    slot: index,
                    extra,
                };
                if !offer(gpu) {
                    break;
                }
            }
        }
    }
    candidates.clear();
    candidates.extend(kept_gpus.iter().map(|gpu| {
        let slot = &slots[gpu.slot];
        Candidate { node: slot.node, extra: gpu.extra, rate: slot.rate }
    }));
}

/// The terms of the schedule on `candidates` (left sorted by node and extra) with empty
/// `parts`, or `None` when they are fewer than the job's workers or its payoff cannot exceed
/// `floor` (the best payoff of the rules tried before).
fn schedule_terms(
    job: &JobInput<'_>,
    market: &Market,
    progress: Progress,
    utility: Utility,
    candidates: &mut [Candidate],
    floor: Option<f64>,
) -> Option<Schedule> {
    let workers = job.workers as usize;
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
    let cost: f64 = match market.price_scope {
        PriceScope::Node => {
            candidates.iter().map(|candidate| market.gpu_cost(candidate.node, candidate.extra, charged)).sum()
        }
        // The job's earlier GPUs of the type, on any node, come before each one.
        PriceScope::Type => {
            let mut taken = vec![0u32; market.type_ends.len()];
            candidates
                .iter()
                .map(|candidate| {
                    let gpu_type = market.node_types[candidate.node];
                    taken[gpu_type] += 1;
                    market.gpu_cost(candidate.node, taken[gpu_type] - 1, charged)
                })
                .sum()
        }
    };
    // The utility is at most the weight, so a rule whose cost leaves no more than `floor`
    // cannot win; its utility (a `powf`) is not computed.
    if floor.is_some_and(|floor| job.weight - cost <= floor) {
        return None;
    }
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
    use crate::market::tests::market;
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

    /// The subroutine as its doc comment states it, written plainly: every rule sorts all its
    /// GPUs, prices each node's GPUs afresh, and computes every utility.
    fn reference(job: &JobInput<'_>, market: &Market, progress: Progress, task_level: bool) -> Option<Schedule> {
        let utility = Utility { exponent: 1.0 };
        let types = job.worker_rates.len();
        let mut rules: Vec<TypeRule> = (0..types).filter(|&k| job.worker_rates[k] > 0.0).map(TypeRule::Only).collect();
        if task_level && rules.len() > 1 {
            match progress {
                Progress::Sum => rules.push(TypeRule::Any),
                Progress::Bottleneck => {
                    for &rate in job.worker_rates {
                        if rate > 0.0 && job.worker_rates.iter().filter(|other| **other >= rate).count() > 1 {
                            rules.push(TypeRule::AtLeast(rate));
                        }
                    }
                }
            }
        }
        let best_rate = job.worker_rates.iter().copied().fold(0.0, f64::max) * f64::from(job.workers);
        let horizon = rounds(job.remaining / best_rate, market.round);
        let mut best: Option<Schedule> = None;
        for rule in rules {
            // (value, not current, node, extra, rate)
            let mut gpus: Vec<(f64, bool, usize, u32, f64)> = Vec::new();
            for (node, &gpu_type) in market.node_types.iter().enumerate() {
                let rate = job.worker_rates[gpu_type];
                let allowed = match rule {
                    TypeRule::Only(only) => gpu_type == only,
                    TypeRule::AtLeast(threshold) => rate >= threshold,
                    TypeRule::Any => true,
                };
                if rate <= 0.0 || !allowed {
                    continue;
                }
                let current = job.current.contains(&NodeId(node as u32));
                for extra in 0..market.free(node).min(job.workers) {
                    let price = market.gpu_cost(node, extra, horizon) / horizon;
                    let value = if matches!(rule, TypeRule::Any) { rate / price } else { 1.0 / price };
                    gpus.push((value, !current, node, extra, rate));
                }
            }
            gpus.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)).then(a.3.cmp(&b.3)));
            if gpus.len() < job.workers as usize {
                continue;
            }
            gpus.truncate(job.workers as usize);
            gpus.sort_by_key(|gpu| (gpu.2, gpu.3));
            let rate = match progress {
                Progress::Sum => gpus.iter().map(|gpu| gpu.4).sum(),
                Progress::Bottleneck => {
                    f64::from(job.workers) * gpus.iter().map(|gpu| gpu.4).fold(f64::INFINITY, f64::min)
                }
            };
            let duration = job.remaining / rate;
            let charged = rounds(duration, market.round);
            let cost: f64 = gpus.iter().map(|gpu| market.gpu_cost(gpu.2, gpu.3, charged)).sum();
            let mut parts: Vec<(NodeId, u32)> = Vec::new();
            for gpu in &gpus {
                match parts.last_mut() {
                    Some(last) if last.0.index() == gpu.2 => last.1 += 1,
                    _ => parts.push((NodeId(gpu.2 as u32), 1)),
                }
            }
            let schedule = Schedule {
                parts,
                rate,
                duration,
                utility: utility.value(job.weight, job.ideal_duration, job.age + duration),
                cost,
            };
            if best.as_ref().is_none_or(|best| schedule.payoff() > best.payoff()) {
                best = Some(schedule);
            }
        }
        best
    }

    #[test]
    fn the_fast_subroutine_matches_the_plain_one_on_random_markets() {
        // xorshift64*: the test needs no random crate, and its cases are the same every run.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_f491_4f6c_dd1d)
        };
        let mut uniform = move |below: u64| next() % below;
        let mut scratch = Scratch::default();
        let (mut checked, mut paid) = (0, 0);
        for case in 0..3000 {
            let types = 1 + uniform(3) as usize;
            let nodes: Vec<(usize, u32)> = (0..2 + uniform(10))
                .map(|_| (uniform(types as u64) as usize, [1, 2, 4, 8][uniform(4) as usize]))
                .collect();
            // Small integer prices make ties between nodes common.
            let low = 1.0 + uniform(3) as f64;
            let mut market = market(&nodes, low, low * [1.0, 2.0, 16.0][uniform(3) as usize]);
            for _ in 0..uniform(12) {
                let node = uniform(nodes.len() as u64) as usize;
                if market.free(node) > 0 {
                    market.take(node, 1, [0.5, 1.0, 3.0, 40.0][uniform(4) as usize]);
                }
            }
            let rates: Vec<f64> = (0..types).map(|_| [0.0, 1.0, 2.0, 2.5, 3.0][uniform(5) as usize]).collect();
            let current: Vec<NodeId> = (0..uniform(3)).map(|_| NodeId(uniform(nodes.len() as u64) as u32)).collect();
            let job = JobInput {
                workers: [1, 1, 2, 3, 4, 8][uniform(6) as usize],
                worker_rates: &rates,
                remaining: [50.0, 400.0, 9000.0][uniform(3) as usize],
                age: [0.0, 100.0][uniform(2) as usize],
                ideal_duration: 100.0,
                weight: [1.0, 0.01, 1e3, 1e5][uniform(4) as usize],
                current: &current,
            };
            if rates.iter().all(|rate| *rate == 0.0) {
                continue;
            }
            for progress in [Progress::Sum, Progress::Bottleneck] {
                for task_level in [true, false] {
                    let fast = best_schedule_with(
                        &job,
                        &market,
                        progress,
                        task_level,
                        Utility { exponent: 1.0 },
                        None,
                        &mut scratch,
                    );
                    let plain = reference(&job, &market, progress, task_level);
                    assert_eq!(fast, plain, "case {case}: {progress:?}, task level {task_level}");
                    // As the greedy asks: only a schedule that pays.
                    let paying = best_schedule_with(
                        &job,
                        &market,
                        progress,
                        task_level,
                        Utility { exponent: 1.0 },
                        Some(0.0),
                        &mut scratch,
                    );
                    let plain_paying = plain.clone().filter(|schedule| schedule.payoff() > 0.0);
                    assert_eq!(paying, plain_paying, "case {case}: {progress:?}, task level {task_level}, paying");
                    paid += usize::from(plain_paying.is_some());
                    checked += usize::from(plain.is_some());
                }
            }
        }
        assert!(checked > 5000, "only {checked} cases placed a job");
        assert!(paid > 1000 && paid < checked, "{paid} of {checked} placements paid");
    }
}

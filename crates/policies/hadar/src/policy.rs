//! `Hadar`: rounds, prices from the active jobs, the greedy primal step, and HadarE's forks.

use crate::market::{GangPrice, Market, PriceScope};
use crate::pricing::PriceFunction;
use crate::report::{Diagnostics, Waiting, fits};
use crate::subroutine::{JobInput, Progress, Schedule, Scratch, Utility, best_schedule_with, rounds};
use schedlab_cluster::ThroughputTable;
use schedlab_core::{
    Allocation, ClusterView, Context, Decision, GpuTypeId, JobId, JobView, Knowledge, NodeId, ParamError, ParamReader,
    Phase, Policy, PolicyEnv, PolicyError, PolicyParams, PolicyReport, RoundClock, build_with,
};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::sync::Arc;

/// Hadar (and HadarE with `forking`): every round, prices every (node, round) GPU from the
/// active jobs' utilities, lets each job's dual subroutine pick its best schedule across GPU
/// types and nodes, and runs jobs greedily by payoff while it is positive, raising the prices
/// of the GPUs taken. See the crate README for the algorithm and its parameters.
pub struct Hadar {
    name: String,
    /// The throughput table's path (`throughputs=`), relative to the data directory.
    throughputs: String,
    table: Arc<ThroughputTable>,
    /// Rounds (`round=` seconds) and `idle_until_round`.
    clock: RoundClock,
    progress: Progress,
    task_level: bool,
    forking: bool,
    max_copies: usize,
    utility: Utility,
    /// With `utility_weight=gpus`, a job's utility is its weight times its GPUs.
    weight_by_gpus: bool,
    low_factor: f64,
    high_factor: f64,
    gang_price: GangPrice,
    price_scope: PriceScope,
    bounds: Bounds,
    /// With `prices=flat`, every GPU costs L whatever the utilisation (U = L).
    flat: bool,
    /// With [`Bounds::Fixed`], the jobs seen so far and the lowest and highest utility per
    /// GPU-round any of them had when first seen.
    seen: BTreeSet<JobId>,
    seen_range: Option<(f64, f64)>,
    /// Per-worker rates per cluster GPU type, by (job type, workers, feasible types' mask).
    rows: BTreeMap<(Arc<str>, u32, u64), Arc<[f64]>>,
    /// What the run's report says ([`Policy::report`]); no decision reads it.
    diagnostics: Diagnostics,
}

/// Where the price range `[L, U]` comes from. The papers do not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bounds {
    /// From the active jobs' utility per GPU-round at each decision: a waiting job's utility
    /// decays, so L falls and prices steepen as jobs wait.
    Adaptive,
    /// OASiS's bounds are the workload's lowest and highest value per unit resource, known in
    /// advance; online, the lowest and highest utility per GPU-round of every job when the
    /// policy first saw it (the range only widens). L still falls to the lowest active job's,
    /// as under `Adaptive`: OASiS rejects the jobs a fixed L prices out, Hadar rejects none,
    /// and a waiting job's utility decays, so with L held it would wait forever.
    Fixed,
}

/// A job prepared for the subroutine.
struct Prepared {
    id: JobId,
    workers: u32,
    rates: Arc<[f64]>,
    remaining: f64,
    age: f64,
    ideal_duration: f64,
    weight: f64,
    current: Vec<NodeId>,
    /// Utility finishing at its fastest rate (all its workers on its fastest type).
    utility: f64,
    /// Rounds its remaining work takes at that rate (at least one).
    fastest_rounds: f64,
    /// Utility per GPU-round on its best type of an idle cluster.
    density: f64,
}

impl Prepared {
    /// An upper bound on the job's payoff in any market priced by a function whose lowest
    /// price is `lowest_price`: its utility finishing at its fastest rate (all its workers on
    /// its fastest type), less its workers at the lowest price for the rounds that rate takes.
    /// The subroutine's payoff is at most this: its rate is at most that one, so its duration
    /// is at least as long, its utility no higher and its GPU-rounds no fewer. The price is
    /// taken 1e-9 lower than it is, so that rounding in the subroutine's sums cannot put a
    /// payoff above its bound.
    fn payoff_bound(&self, lowest_price: f64) -> f64 {
        self.utility - f64::from(self.workers) * self.fastest_rounds * lowest_price * (1.0 - 1e-9)
    }

    /// An upper bound on the job's payoff at `market`'s prices and at any higher ones: its
    /// utility finishing at its fastest rate, less its workers at the price of the cheapest
    /// free GPU it can use for the rounds that rate takes (taken 1e-9 lower, as in
    /// [`Prepared::payoff_bound`]); `None` when it can use no free GPU. Every GPU the
    /// subroutine gives it costs at least that much for at least that long.
    fn bound_at(&self, market: &Market) -> Option<f64> {
        let cheapest = market.cheapest_gpu_cost(&self.rates, self.fastest_rounds)?;
        Some(self.utility - f64::from(self.workers) * cheapest * (1.0 - 1e-9))
    }

    fn input(&self) -> JobInput<'_> {
        JobInput {
            workers: self.workers,
            worker_rates: &self.rates,
            remaining: self.remaining,
            age: self.age,
            ideal_duration: self.ideal_duration,
            weight: self.weight,
            current: &self.current,
        }
    }
}

/// A heap entry: a job's payoff when last evaluated, or an upper bound on it (`key` says which
/// and at which prices). Its schedule is kept beside the heap: a job has at most one offer in it.
struct Offer {
    payoff: f64,
    job: usize,
    key: Key,
}

/// What an offer's payoff is.
#[derive(Clone, Copy)]
enum Key {
    /// An upper bound on the job's payoff: from the lowest price (`at` `None`), or from the
    /// prices at version `at`.
    Bound { at: Option<u64> },
    /// The job's payoff at version `at`.
    Payoff { at: u64 },
}

impl PartialEq for Offer {
    fn eq(&self, other: &Offer) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Offer {}
impl PartialOrd for Offer {
    fn partial_cmp(&self, other: &Offer) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Offer {
    /// Highest payoff first; ties go to the earlier job.
    fn cmp(&self, other: &Offer) -> std::cmp::Ordering {
        self.payoff.total_cmp(&other.payoff).then(other.job.cmp(&self.job))
    }
}

/// A Hadar policy as read from its parameters, before its throughput table is loaded.
pub struct HadarConfig(Hadar);

impl Hadar {
    /// Reads Hadar, or HadarE with `forking`, from its parameters: `throughputs` (path in the
    /// data directory, default `gavel/simulation_throughputs.json`), `round` (seconds, 360),
    /// `progress` (`sum` or `bottleneck`: how a job spread over types progresses; match the
    /// experiment's `perf.throughputs.mixed_types`), `task_level` (`true`; `false` gives each
    /// job one GPU type, as Gavel does), `utility_exponent` (1), `utility_weight` (`job`: the
    /// job's weight; `gpus`: its weight times its GPUs, a size-weighted utility), `low_factor` (0.5) and
    /// `high_factor` (1), which set the price range `L = low_factor x` the lowest and
    /// `U = high_factor x` the highest utility per GPU-round among active jobs, and
    /// `idle_until_round` (`false`: jobs may start on free GPUs between rounds), `gang_price`
    /// (`current`: every GPU at the node's price before the job is placed; `marginal`: each
    /// further GPU of a job on a node at the price its earlier GPUs raise), `price_scope`
    /// (`node`: each node's utilisation sets its price; `type`: each GPU type's), `bounds`
    /// (`adaptive`: L and U from the active jobs at each decision; `fixed`: from every job's
    /// utility per GPU-round when first seen, a range that only widens, L still following the
    /// lowest active job down), `prices` (`exponential`; `flat`: every GPU at L, isolating what
    /// the rising price does). HadarE also
    /// takes `max_copies` (0: as many as there are nodes).
    ///
    /// Reading does no I/O: the table is loaded by [`Hadar::new`].
    pub fn read(reader: &mut ParamReader<'_>, forking: bool) -> Result<HadarConfig, ParamError> {
        let throughputs = reader.file("throughputs", "gavel/simulation_throughputs.json")?;
        let round = reader.positive_f64("round", 360.0)?;
        let progress = match reader.choice("progress", "sum", &["sum", "bottleneck"])? {
            "sum" => Progress::Sum,
            _ => Progress::Bottleneck,
        };
        let task_level = reader.bool("task_level", true)?;
        let exponent = reader.positive_f64("utility_exponent", 1.0)?;
        let weight_by_gpus = reader.choice("utility_weight", "job", &["job", "gpus"])? == "gpus";
        let low_factor = reader.positive_f64("low_factor", 0.5)?;
        let high_factor = reader.positive_f64("high_factor", 1.0)?;
        let idle_until_round = reader.bool("idle_until_round", false)?;
        let gang_price = match reader.choice("gang_price", "current", &["current", "marginal"])? {
            "marginal" => GangPrice::Marginal,
            _ => GangPrice::Current,
        };
        let price_scope = match reader.choice("price_scope", "node", &["node", "type"])? {
            "node" => PriceScope::Node,
            _ => PriceScope::Type,
        };
        let flat = reader.choice("prices", "exponential", &["exponential", "flat"])? == "flat";
        let bounds = match reader.choice("bounds", "adaptive", &["adaptive", "fixed"])? {
            "adaptive" => Bounds::Adaptive,
            _ => Bounds::Fixed,
        };
        let max_copies = if forking { reader.f64("max_copies", 0.0)?.max(0.0) as usize } else { 1 };
        let name = reader.name();
        if low_factor > 1.0 {
            return Err(ParamError {
                policy: name,
                message: format!(
                    "parameter 'low_factor': {low_factor} would price an idle GPU above the lowest job's utility \
                     (expected 0 < x <= 1)"
                ),
            });
        }
        Ok(HadarConfig(Hadar {
            name,
            throughputs,
            table: Arc::new(ThroughputTable::default()),
            clock: RoundClock::new(round, idle_until_round),
            progress,
            task_level,
            forking,
            max_copies: if max_copies == 0 { usize::MAX } else { max_copies },
            utility: Utility { exponent },
            weight_by_gpus,
            low_factor,
            high_factor,
            gang_price,
            price_scope,
            bounds,
            flat,
            seen: BTreeSet::new(),
            seen_range: None,
            rows: BTreeMap::new(),
            diagnostics: Diagnostics::default(),
        }))
    }

    /// Reads and builds the policy written as `params` in one step (for tests and benches; the
    /// zoo goes through the crate's `POLICIES` entries).
    pub fn from_params(params: &PolicyParams, forking: bool, env: &PolicyEnv) -> Result<Hadar, ParamError> {
        build_with(params, env, |reader| Hadar::read(reader, forking), Hadar::new)
    }

    /// Builds the policy [`Hadar::read`] read, loading its throughput table through `env`.
    pub fn new(config: HadarConfig, env: &PolicyEnv) -> Result<Hadar, ParamError> {
        let HadarConfig(mut hadar) = config;
        hadar.table = ThroughputTable::shared(env, &hadar.throughputs, &hadar.name)?;
        Ok(hadar)
    }

    /// Per-worker rates of `job` on each of the cluster's GPU types (0 where it cannot run).
    fn worker_rates(&mut self, job: &JobView, cluster: &ClusterView) -> Result<Arc<[f64]>, PolicyError> {
        let key = (job.job_type.clone(), job.gpus, job.feasible_types.0);
        if let Some(row) = self.rows.get(&key) {
            return Ok(row.clone());
        }
        let names = cluster.spec().gpu_types();
        let usable = |index: usize| job.feasible_types.contains(GpuTypeId(index as u16));
        let Some(mut row) = self.table.isolated_row(&job.job_type, job.gpus, names, usable) else {
            return Err(PolicyError::Unsupported(format!(
                "{}: job {} ('{}' on {} GPUs) has no throughput in the table on any of this cluster's GPU types ({}); \
                 Hadar needs jobs from the table's models (workload model gavel-zoo, perf throughputs)",
                self.name,
                job.id.0,
                job.job_type,
                job.gpus,
                names.join(", ")
            )));
        };
        for rate in &mut row {
            *rate /= f64::from(job.gpus);
        }
        let row: Arc<[f64]> = row.into();
        self.rows.insert(key, row.clone());
        Ok(row)
    }

    fn prepare(&mut self, job: &JobView, context: &Context<'_>) -> Result<Prepared, PolicyError> {
        let rates = self.worker_rates(job, context.cluster)?;
        let (Some(remaining), Some(oracle)) = (job.oracle_remaining_work(context.now), job.oracle) else {
            return Err(PolicyError::Unsupported(format!(
                "{}: job {} has no oracle information; Hadar plans with each job's total work",
                self.name, job.id.0
            )));
        };
        let age = context.now - job.arrival;
        let best = rates.iter().copied().fold(0.0, f64::max) * f64::from(job.gpus);
        let duration = remaining / best;
        // With `utility_weight=gpus` a job's utility scales with its GPUs, so that its utility
        // per GPU-round does not fall with its size.
        let weight = if self.weight_by_gpus { job.weight * f64::from(job.gpus) } else { job.weight };
        let utility = self.utility.value(weight, oracle.isolated_duration, age + duration);
        let fastest_rounds = rounds(duration, self.clock.length());
        let density = utility / (f64::from(job.gpus) * fastest_rounds);
        if self.bounds == Bounds::Fixed && self.seen.insert(job.id) {
            let (low, high) = self.seen_range.unwrap_or((density, density));
            self.seen_range = Some((low.min(density), high.max(density)));
        }
        let current = job.allocation.as_ref().map(|allocation| allocation.parts.iter().map(|part| part.0).collect());
        Ok(Prepared {
            id: job.id,
            workers: job.gpus,
            rates,
            remaining,
            age,
            ideal_duration: oracle.isolated_duration,
            weight,
            current: current.unwrap_or_default(),
            utility,
            fastest_rounds,
            density,
        })
    }

    /// The price function for these jobs: from `low_factor` x the lowest to `high_factor` x
    /// the highest utility per GPU-round (of these jobs, or with `bounds=fixed` of every job
    /// when first seen). The range is capped at 10^12 (a job of weight 0 has
    /// no utility at all), so that prices stay finite.
    fn price_function(&self, jobs: &[Prepared]) -> PriceFunction {
        let active_lowest = jobs.iter().map(|job| job.density).fold(f64::INFINITY, f64::min);
        let (lowest, highest) = match (self.bounds, self.seen_range) {
            // Never above the lowest active job's: OASiS rejects a job priced out for good,
            // Hadar has no rejection, and a waiting job's utility decays below any fixed L.
            (Bounds::Fixed, Some((low, high))) => (low.min(active_lowest), high),
            _ => (active_lowest, jobs.iter().map(|job| job.density).fold(0.0, f64::max)),
        };
        let high = (self.high_factor * highest).max(f64::MIN_POSITIVE);
        let low = (self.low_factor * lowest).max(high * 1e-12);
        // A flat price (U = L) isolates what the rising price does.
        PriceFunction::new(low, if self.flat { low } else { high })
    }

    /// The primal step: jobs take their subroutine's schedule, highest payoff first, while the
    /// payoff is positive; each commitment raises the prices of the GPUs taken. Evaluation is
    /// lazy. A job enters the heap keyed by an upper bound on its payoff at the lowest price
    /// ([`Prepared::payoff_bound`]); when that tops the heap it is replaced by a bound at the
    /// current prices ([`Prepared::bound_at`]), and when that one tops the heap at the same
    /// prices the job is evaluated. Prices only rise, so both stay bounds. After a commitment
    /// a stale payoff is taken as a bound on the fresh one, which holds in all but about 0.07%
    /// of re-evaluations (the crate README, step 4), so the job taken can then differ from the
    /// one re-evaluating everyone would take.
    fn greedy(&self, jobs: &[Prepared], market: &mut Market) -> Vec<Option<Schedule>> {
        let mut chosen: Vec<Option<Schedule>> = vec![None; jobs.len()];
        // Each job's schedule behind its offer in the heap.
        let mut offered: Vec<Option<Schedule>> = vec![None; jobs.len()];
        let mut version = 0u64;
        let lowest_price = market.prices.low();
        let mut heap: BinaryHeap<Offer> = jobs
            .iter()
            .enumerate()
            .map(|(index, job)| Offer {
                payoff: job.payoff_bound(lowest_price),
                job: index,
                key: Key::Bound { at: None },
            })
            .filter(|offer| offer.payoff > 0.0)
            .collect();
        let mut scratch = Scratch::default();
        while let Some(offer) = heap.pop() {
            match offer.key {
                Key::Payoff { at } if at == version => {
                    let schedule = offered[offer.job].take().expect("an offer's schedule");
                    let planned = schedule.duration / market.round;
                    for &(node, gpus) in &schedule.parts {
                        market.take(node.index(), gpus, planned);
                    }
                    chosen[offer.job] = Some(schedule);
                    version += 1;
                    if market.is_full() {
                        break;
                    }
                    continue;
                }
                Key::Bound { at } if at != Some(version) => {
                    // No free GPU the job can use: no schedule, now or later in this pass.
                    let Some(bound) = jobs[offer.job].bound_at(market) else {
                        continue;
                    };
                    if bound > 0.0 {
                        heap.push(Offer {
                            payoff: bound.min(offer.payoff),
                            job: offer.job,
                            key: Key::Bound { at: Some(version) },
                        });
                    }
                    continue;
                }
                _ => {}
            }
            let job = jobs[offer.job].input();
            let fresh =
                best_schedule_with(&job, market, self.progress, self.task_level, self.utility, Some(0.0), &mut scratch);
            if let Some(schedule) = fresh {
                heap.push(Offer { payoff: schedule.payoff(), job: offer.job, key: Key::Payoff { at: version } });
                offered[offer.job] = Some(schedule);
            }
        }
        chosen
    }

    /// HadarE: idle GPUs get copies of jobs, one copy per node, in rounds over the jobs by
    /// utility per GPU-round (highest first) until no idle node fits another copy. A job
    /// Hadar placed on one node keeps that node as its first copy; a job it spread over several
    /// nodes is not forked; a job it left waiting may get copies too.
    fn fork(&self, jobs: &[Prepared], chosen: &[Option<Schedule>], market: &mut Market) -> Vec<Vec<NodeId>> {
        let mut copies: Vec<Vec<NodeId>> = chosen
            .iter()
            .map(|schedule| match schedule {
                Some(schedule) if schedule.parts.len() == 1 => vec![schedule.parts[0].0],
                _ => Vec::new(),
            })
            .collect();
        let mut order: Vec<usize> =
            (0..jobs.len()).filter(|&index| chosen[index].is_none() || !copies[index].is_empty()).collect();
        order.sort_by(|&a, &b| jobs[b].density.total_cmp(&jobs[a].density).then(a.cmp(&b)));
        loop {
            let mut added = false;
            for &index in &order {
                let job = &jobs[index];
                if copies[index].len() >= self.max_copies {
                    continue;
                }
                // The fastest free node for this job, its current nodes first, then the lowest.
                let best = (0..market.node_types.len())
                    .filter(|&node| {
                        market.free(node) >= job.workers
                            && job.rates[market.node_types[node]] > 0.0
                            && !copies[index].contains(&NodeId(node as u32))
                    })
                    .max_by(|&a, &b| {
                        let rate = |node: usize| job.rates[market.node_types[node]];
                        let current = |node: usize| job.current.contains(&NodeId(node as u32));
                        rate(a).total_cmp(&rate(b)).then(current(a).cmp(&current(b))).then(b.cmp(&a))
                    });
                if let Some(node) = best {
                    market.take(
                        node,
                        job.workers,
                        job.remaining / (job.rates[market.node_types[node]] * f64::from(job.workers)) / market.round,
                    );
                    copies[index].push(NodeId(node as u32));
                    added = true;
                }
            }
            if !added {
                break;
            }
        }
        copies
    }

    /// The market now: idle at a round start; between rounds, each running job's GPUs are
    /// busy until its planned end at its current rate.
    fn market(&self, context: &Context<'_>, prices: PriceFunction, with_running: bool) -> Market {
        let spec = context.cluster.spec();
        let mut market = Market::idle(
            spec.nodes().iter().map(|node| node.gpu_type.index()).collect(),
            spec.nodes().iter().map(|node| node.gpus).collect(),
            prices,
            self.clock.length(),
        );
        market.gang_price = self.gang_price;
        market.set_price_scope(self.price_scope);
        if with_running {
            for job in context.jobs.running() {
                let left = job.oracle_remaining_work(context.now).unwrap_or(0.0);
                let rounds = left / job.observed_rate().max(f64::MIN_POSITIVE) / self.clock.length();
                let allocation = job.allocation.as_ref().expect("running");
                for &(node, gpus) in &allocation.parts {
                    market.take(node.index(), gpus, rounds);
                }
            }
        }
        market
    }

    /// A round: every active job is planned afresh on an idle cluster.
    fn round_decision(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let active: Vec<&JobView> = context.jobs.active().collect();
        let jobs: Vec<Prepared> = active.iter().map(|job| self.prepare(job, context)).collect::<Result<_, _>>()?;
        let prices = self.price_function(&jobs);
        self.diagnostics.round(context.now, prices.low(), prices.high());
        let mut market = self.market(context, prices, false);
        let chosen = self.greedy(&jobs, &mut market);
        let mut desired: Vec<(JobId, Allocation)> = Vec::new();
        if self.forking {
            let copies = self.fork(&jobs, &chosen, &mut market);
            for (index, job) in jobs.iter().enumerate() {
                match (&chosen[index], copies[index].len()) {
                    (_, 2..) => desired.push((job.id, Allocation::copies(copies[index].clone(), job.workers))),
                    (None, 1) => desired.push((job.id, Allocation::on_node(copies[index][0], job.workers))),
                    (Some(schedule), _) => desired.push((job.id, Allocation::new(schedule.parts.clone()))),
                    (None, _) => {}
                }
            }
        } else {
            for (index, job) in jobs.iter().enumerate() {
                if let Some(schedule) = &chosen[index] {
                    desired.push((job.id, Allocation::new(schedule.parts.clone())));
                }
            }
        }
        // Jobs left waiting: Hadar gave them no schedule, nor HadarE a copy.
        // `desired` lists the placed jobs in the order of `jobs`, each once.
        let free = market.free_per_type();
        let mut placed = desired.iter().map(|(id, _)| *id).peekable();
        for job in &jobs {
            if placed.next_if_eq(&job.id).is_none() {
                let priced_out = fits(&free, &job.rates, job.workers, self.task_level);
                self.diagnostics.wait(Waiting { gpus: job.workers, priced_out });
            }
        }
        let running = context.jobs.running().map(|job| (job.id, job.allocation.as_ref().expect("running")));
        Ok(Decision::reconcile(running, desired, self.clock.next()))
    }

    /// Between rounds: waiting jobs may take free GPUs at the prices the current utilisation
    /// sets (the price range still spans every active job's utility per GPU-round).
    fn fill_decision(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let none = Decision { next_tick: self.clock.next(), ..Decision::none() };
        if context.cluster.total_free() == 0 || context.jobs.n_queued() == 0 {
            self.wait_for_room(context);
            return Ok(none);
        }
        let active: Vec<&JobView> = context.jobs.active().collect();
        let jobs: Vec<Prepared> = active.iter().map(|job| self.prepare(job, context)).collect::<Result<_, _>>()?;
        let prices = self.price_function(&jobs);
        let waiting: Vec<Prepared> = jobs.into_iter().filter(|job| job.current.is_empty()).collect();
        let mut market = self.market(context, prices, true);
        let chosen = self.greedy(&waiting, &mut market);
        let free = market.free_per_type();
        for (job, schedule) in waiting.iter().zip(&chosen) {
            if schedule.is_none() {
                let priced_out = fits(&free, &job.rates, job.workers, self.task_level);
                self.diagnostics.wait(Waiting { gpus: job.workers, priced_out });
            }
        }
        let start = waiting
            .iter()
            .zip(chosen)
            .filter_map(|(job, schedule)| schedule.map(|schedule| (job.id, Allocation::new(schedule.parts))))
            .collect();
        Ok(Decision { start, ..none })
    }

    /// Records every waiting job as waiting for room (no decision considered it: between
    /// rounds with no GPU free, or with `idle_until_round` until the next round).
    fn wait_for_room(&mut self, context: &Context<'_>) {
        for job in context.jobs.queued() {
            self.diagnostics.wait(Waiting { gpus: job.gpus, priced_out: false });
        }
    }
}

impl Policy for Hadar {
    fn name(&self) -> &str {
        &self.name
    }

    fn knowledge(&self) -> Knowledge {
        Knowledge::Oracle
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        self.diagnostics.advance(context.now);
        if context.jobs.n_active() == 0 {
            self.clock.stop();
            return Ok(Decision::none());
        }
        match self.clock.phase(context.now) {
            Phase::Round => self.round_decision(context),
            Phase::Wait => {
                self.wait_for_room(context);
                Ok(Decision { next_tick: self.clock.next(), ..Decision::none() })
            }
            Phase::Fill => self.fill_decision(context),
        }
    }

    fn report(&self) -> Option<PolicyReport> {
        Some(self.diagnostics.report())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subroutine::best_schedule;

    /// SplitMix64: enough randomness for a property test without a dependency.
    struct Draws(u64);

    impl Draws {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        /// Uniform in [0, 1).
        fn unit(&mut self) -> f64 {
            (self.next() >> 11) as f64 / (1u64 << 53) as f64
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn no_schedule_pays_more_than_its_jobs_payoff_bounds() {
        let mut draws = Draws(7);
        let utility = Utility { exponent: 1.0 };
        let round = 360.0;
        let (mut checked, mut tight, mut tight_at_lowest) = (0, 0, 0);
        for _ in 0..300 {
            // 2-4 types, 3-12 nodes of 1-8 GPUs, some GPUs planned busy.
            let types = 2 + draws.below(3) as usize;
            let nodes = 3 + draws.below(10) as usize;
            let node_types: Vec<usize> = (0..nodes).map(|node| node % types).collect();
            let capacity: Vec<u32> = (0..nodes).map(|_| 1 << draws.below(4)).collect();
            let low = 0.01 + draws.unit();
            let prices = PriceFunction::new(low, low * (1.0 + 100.0 * draws.unit()));
            let mut market = Market::idle(node_types, capacity.clone(), prices, round);
            for (node, &gpus) in capacity.iter().enumerate() {
                let busy = draws.below(u64::from(gpus) + 1) as u32;
                for _ in 0..busy {
                    market.take(node, 1, 20.0 * draws.unit());
                }
            }
            for _ in 0..10 {
                let rates: Arc<[f64]> =
                    (0..types).map(|_| if draws.below(4) == 0 { 0.0 } else { 0.1 + 5.0 * draws.unit() }).collect();
                if rates.iter().all(|rate| *rate == 0.0) {
                    continue;
                }
                let workers = 1 << draws.below(3);
                let remaining = 1e3 + 1e6 * draws.unit();
                let best = rates.iter().copied().fold(0.0, f64::max) * f64::from(workers);
                let (age, ideal_duration) = (1e5 * draws.unit(), remaining / best * (0.5 + draws.unit()));
                let job = Prepared {
                    id: JobId(0),
                    workers,
                    rates,
                    remaining,
                    age,
                    ideal_duration,
                    weight: 1.0,
                    current: Vec::new(),
                    utility: utility.value(1.0, ideal_duration, age + remaining / best),
                    fastest_rounds: rounds(remaining / best, round),
                    density: 0.0,
                };
                let bound = job.payoff_bound(low);
                // The bound at the market's prices: none when the job can use no free GPU.
                let Some(bound_now) = job.bound_at(&market) else {
                    assert!(best_schedule(&job.input(), &market, Progress::Sum, true, utility).is_none());
                    continue;
                };
                assert!(bound_now <= bound + 1e-12 * bound.abs(), "{bound_now} above {bound}");
                for (progress, task_level) in
                    [(Progress::Sum, true), (Progress::Bottleneck, true), (Progress::Sum, false)]
                {
                    if let Some(schedule) = best_schedule(&job.input(), &market, progress, task_level, utility) {
                        let payoff = schedule.payoff();
                        assert!(payoff <= bound_now, "payoff {payoff} above its bound {bound_now} at these prices");
                        checked += 1;
                        tight += usize::from(payoff > bound_now - 1e-6 * bound_now.abs());
                        tight_at_lowest += usize::from(payoff > bound - 1e-6 * bound.abs());
                    }
                }
            }
        }
        // The bounds are reached where the cheapest GPUs are of the fastest type: a test of
        // them, not of nothing.
        assert!(
            checked > 1000 && tight > 20 && tight_at_lowest > 20,
            "{checked} schedules, {tight} at their bound, {tight_at_lowest} at the lowest price's"
        );
    }
}

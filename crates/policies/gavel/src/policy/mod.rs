//! Gavel's round-based scheduling on top of an allocation LP.

use crate::allocation::{AllocationInput, PackingInput};
use crate::objectives::{self, GavelKind, Objective, Request};
use schedlab_cluster::{Placer, ThroughputTable};
use schedlab_core::{
    Allocation, ClusterView, Context, Decision, GpuTypeId, JobId, JobView, Knowledge, ParamError, ParamReader, Phase,
    Policy, PolicyEnv, PolicyError, PolicyParams, RoundClock, SolverStats, Time, build_with,
};
use schedlab_pyrandom::PyRandom;
use schedlab_solver::Backend;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

mod ledger;
mod ranking;
mod rules;

use ledger::{JobAccount, PerType};
use ranking::{Combo, Ranked};
use rules::TypeShuffler;

/// Two templates, `(job type, scale, job type, scale)`, for the co-located rate cache.
type PairKey = (Arc<str>, u32, Arc<str>, u32);

/// Gavel's round-based scheduling on one of its allocation policies ([`GavelKind`]),
/// heterogeneity-aware or agnostic.
///
/// Every `round` seconds it ranks (job, GPU type) pairs by `X[m][j]` divided by the job's share
/// of the time combinations ran on type j since the allocation was computed (Gavel's
/// `_update_priorities`; time, not GPU-time, as `X` is a time fraction), selects pairs by GPU count per type in that order (each job at most
/// once), keeps selected jobs on their current GPUs when their type is unchanged (lease
/// extension), places the rest, and preempts the others. Between rounds, arrivals and
/// completions only fill free GPUs. The allocation is recomputed when jobs arrive or finish,
/// at most once every `min_interval` seconds.
pub struct Gavel {
    name: String,
    /// The objective whose allocation the rounds follow.
    objective: Box<dyn Objective>,
    aware: bool,
    /// Rounds (`round=` seconds) and `idle_until_round`.
    clock: RoundClock,
    min_interval: f64,
    /// Gavel's quirk: seconds every combination is credited on every type when the allocation is
    /// recomputed (Gavel: half a round), so that nothing ranks at `X x 1e9`.
    reset_credit: f64,
    /// Gavel's quirk: break priority ties by deficit, then allocation, before job ids.
    deficit_ties: bool,
    /// Gavel's round filling: jobs with no allocation on a type still fill its GPUs left over,
    /// at priority 0 (ranked by deficit with `tie_break=deficit`, else by job id).
    fill_unallocated: bool,
    /// Gavel's quirk: a job that arrived since the allocation was computed takes its GPUs in a
    /// round's selection but does not start before the next recomputation.
    new_jobs_wait: bool,
    /// Gavel's quirk: recompute the allocation only when a round starts, not at the arrival or
    /// completion that made it stale.
    recompute_at_rounds: bool,
    /// Gavel's quirk: a round lasts until its last job has run its whole steps for the round
    /// (`floor(rate x round)`), and ends when every job running in it has finished.
    short_rounds: bool,
    /// Gavel's quirk: each job runs `floor(rate x round)` whole steps per round, then holds its
    /// GPUs idle until the round ends.
    whole_steps: bool,
    /// Gavel's quirk: fill rounds type by type in this order (names), not all pairs together.
    type_order: Vec<String>,
    /// With `type_order=shuffle`: the seeded order of types, shuffled every round (Gavel shuffles
    /// the type order for its policies that are neither "Perf" nor "Packing").
    type_shuffler: Option<TypeShuffler>,
    backend: Backend,
    /// The throughput table's path (`throughputs=`), relative to the data directory.
    throughputs: String,
    table: Arc<ThroughputTable>,
    placer: Placer,
    accounts: BTreeMap<Combo, JobAccount>,
    /// Co-located rates by (job type, scale, job type, scale), per GPU type of the cluster.
    pair_cache: HashMap<PairKey, Vec<(f64, f64)>>,
    /// The lists a round ranks its entries in, kept between rounds for their memory.
    rank_lists: Vec<Vec<Ranked>>,
    /// Per list, the priority of the last entry the last round popped (0 where it popped none);
    /// empty after a recomputation.
    rank_floors: Vec<f64>,
    /// Each active job's throughput row ([`Gavel::throughput_row`]), looked up once per job.
    rows: HashMap<JobId, Vec<f64>>,
    /// GPU-seconds given out per type since the allocation was computed.
    given: Vec<f64>,
    computed_at: Option<Time>,
    stale: bool,
    last_call: Option<Time>,
    /// With `whole_steps`: when each combination chosen at the last round runs out of its
    /// round's steps (`round start + floor(rate x round) / rate`, the latest of a pair's two),
    /// after which it holds its GPUs idle and, as in Gavel, is credited no more time.
    busy_until: BTreeMap<Combo, Time>,
    /// What the LP solver did so far, for the run's manifest.
    solver: SolverStats,
}

/// A Gavel policy as read from its parameters, before its throughput table is loaded.
pub struct GavelConfig(Gavel);

impl Gavel {
    /// Reads and builds the policy written as `params` in one step (for tests and benches; the
    /// zoo goes through the crate's `POLICIES` entries).
    pub fn from_params(
        params: &PolicyParams,
        kind: GavelKind,
        aware: bool,
        env: &PolicyEnv,
    ) -> Result<Gavel, ParamError> {
        build_with(params, env, |reader| Gavel::read(reader, kind, aware), Gavel::new)
    }

    /// Builds the policy [`Gavel::read`] read, loading its throughput table through `env`.
    pub fn new(config: GavelConfig, env: &PolicyEnv) -> Result<Gavel, ParamError> {
        let GavelConfig(mut gavel) = config;
        gavel.table = ThroughputTable::shared(env, &gavel.throughputs, &gavel.name)?;
        if let Some(TypeShuffler::Python(rng)) = gavel.type_shuffler.as_mut() {
            // Gavel's simulator: `self._worker_type_shuffler.seed(seed + 5)` (`_initialize_seeds`).
            let seed = env.spec_seed().checked_add(5).ok_or_else(|| ParamError {
                policy: gavel.name.clone(),
                message: format!("shuffle_rng=python: the run's seed {} has no seed + 5", env.spec_seed()),
            })?;
            *rng = Some(Box::new(PyRandom::new(seed)));
        }
        Ok(gavel)
    }

    /// The job's throughput on each GPU type (0 where it cannot run), or an error when the
    /// table knows the job on no type of this cluster: a Gavel policy cannot schedule a job
    /// it has no throughput for (run Gavel's policies with `perf: throughputs` and a
    /// `gavel-zoo` workload model, or `--perf gavel` on the command line).
    fn throughput_row(&mut self, job: &JobView, cluster: &ClusterView) -> Result<Vec<f64>, PolicyError> {
        if let Some(row) = self.rows.get(&job.id) {
            return Ok(row.clone());
        }
        let names = cluster.spec().gpu_types();
        let usable = |index: usize| job.feasible_types.contains(GpuTypeId(index as u16));
        let row = self.table.isolated_row(&job.job_type, job.gpus, names, usable).ok_or_else(|| {
            PolicyError::Unsupported(format!(
                "job {} ('{}' on {} GPUs) has no throughput in the table on any of this cluster's GPU types ({}); \
                 Gavel's policies need jobs from the table's models (workload model gavel-zoo, perf throughputs)",
                job.id.0,
                job.job_type,
                job.gpus,
                names.join(", ")
            ))
        })?;
        self.rows.insert(job.id, row.clone());
        Ok(row)
    }

    /// The packing LP's inputs: templates of the active jobs and their co-located rates.
    fn packing_input(&mut self, input: AllocationInput, active: &[&JobView], cluster: &ClusterView) -> PackingInput {
        let mut template_ids: HashMap<(Arc<str>, u32), usize> = HashMap::new();
        let mut templates_list: Vec<(Arc<str>, u32)> = Vec::new();
        let templates: Vec<usize> = active
            .iter()
            .map(|job| {
                *template_ids.entry((job.job_type.clone(), job.gpus)).or_insert_with(|| {
                    templates_list.push((job.job_type.clone(), job.gpus));
                    templates_list.len() - 1
                })
            })
            .collect();
        let names = cluster.spec().gpu_types();
        let pair_rates = templates_list
            .iter()
            .map(|(type_a, scale_a)| {
                templates_list
                    .iter()
                    .map(|(type_b, scale_b)| {
                        if scale_a != scale_b {
                            return vec![(0.0, 0.0); names.len()];
                        }
                        let key = (type_a.clone(), *scale_a, type_b.clone(), *scale_b);
                        self.pair_cache
                            .entry(key)
                            .or_insert_with(|| {
                                names
                                    .iter()
                                    .map(|name| {
                                        self.table
                                            .colocated((type_a, *scale_a), (type_b, *scale_b), name)
                                            .unwrap_or((0.0, 0.0))
                                    })
                                    .collect()
                            })
                            .clone()
                    })
                    .collect()
            })
            .collect();
        PackingInput { base: input, templates, pair_rates }
    }

    fn recompute(&mut self, context: &Context<'_>) -> Result<(), PolicyError> {
        let active: Vec<&JobView> = context.jobs.active().collect();
        let input = AllocationInput {
            throughputs: active
                .iter()
                .map(|job| self.throughput_row(job, context.cluster))
                .collect::<Result<_, _>>()?,
            scale_factors: active.iter().map(|job| job.gpus).collect(),
            weights: active.iter().map(|job| job.weight.max(f64::MIN_POSITIVE)).collect(),
            capacity: context.cluster.gpus_per_type().to_vec(),
        };
        let packing = self.objective.uses_pairs().then(|| self.packing_input(input.clone(), &active, context.cluster));
        let request = Request {
            name: &self.name,
            now: context.now,
            cluster: context.cluster,
            active: &active,
            input: &input,
            packing: packing.as_ref(),
            aware: self.aware,
            backend: self.backend,
        };
        let allocated = self.objective.allocate(&request)?;
        for stats in &allocated.solves {
            self.solver.record(
                &stats.backend.to_string(),
                stats.variables,
                stats.constraints,
                stats.build_time.as_secs_f64(),
                stats.solve_time.as_secs_f64(),
            );
            self.solver.fell_back += u64::from(stats.fell_back);
        }
        self.solver.relaxed += allocated.relaxed;
        let (fractions, pairs) = (allocated.singles, allocated.pairs);
        let types = input.capacity.len();
        let credit = self.reset_credit;
        // Rounding to 1e-9 removes solver noise, so that equal fractions tie exactly and ties
        // break by job id and type order rather than by the last bits of the simplex.
        let round = |fractions: Vec<f64>| -> PerType<f64> {
            fractions.into_iter().map(|fraction| (fraction * 1e9).round() / 1e9).collect()
        };
        // Gavel's deficits carry over from the allocation that ends here.
        let elapsed = self.computed_at.map_or(0.0, |at| context.now - at);
        let deficit_of = |combo: &Combo| -> PerType<f64> {
            match self.accounts.get(combo) {
                Some(old) => (0..types)
                    .map(|j| {
                        let should = old.allocation.get(j).copied().unwrap_or(0.0) * elapsed;
                        let ran = old.received.get(j).copied().unwrap_or(0.0) - credit;
                        // Gavel's association: `deficits += should - received`.
                        old.deficit.get(j).copied().unwrap_or(0.0) + (should - ran)
                    })
                    .collect(),
                None => PerType::from_elem(0.0, types),
            }
        };
        let mut accounts: BTreeMap<Combo, JobAccount> = active
            .iter()
            .zip(fractions)
            .zip(&input.throughputs)
            .map(|((job, fractions), rates)| {
                let combo = Combo::Single(job.id);
                let deficit = deficit_of(&combo);
                let usable = rates.iter().map(|rate| *rate > 0.0).collect();
                let allocation = round(fractions);
                let received = PerType::from_elem(credit, types);
                (combo, JobAccount { allocation, usable, received, deficit, held: false, gang: job.gpus })
            })
            .collect();
        for ((m, n), fractions) in pairs {
            let combo = Combo::of(active[m].id, Some(active[n].id));
            let deficit = deficit_of(&combo);
            let allocation = round(fractions);
            // A pair is ranked only where it has an allocation.
            let usable = allocation.iter().map(|fraction| *fraction > 1e-9).collect();
            let received = PerType::from_elem(credit, types);
            let gang = active[m].gpus.max(active[n].gpus);
            accounts.insert(combo, JobAccount { allocation, usable, received, deficit, held: false, gang });
        }
        self.accounts = accounts;
        self.given = vec![credit * self.accounts.len() as f64; types];
        self.computed_at = Some(context.now);
        self.stale = false;
        self.rank_floors.clear();
        Ok(())
    }

    /// The allocation `combo` keeps if it already runs as such on `gpu_type` (lease extension).
    fn lease(context: &Context<'_>, combo: Combo, gpu_type: usize) -> Option<Allocation> {
        let (first, partner) = match combo {
            Combo::Single(job) => (job, None),
            Combo::Pair(a, b) => (a, Some(b)),
        };
        let allocation = context.jobs.get(first)?.allocation.as_ref()?;
        let same_type = context.cluster.spec().node(allocation.parts[0].0).gpu_type.index() == gpu_type;
        (same_type && allocation.colocated_with == partner).then(|| allocation.clone())
    }

    /// The jobs of `combo` on `allocation`: one entry alone, two sharing.
    fn assign(combo: Combo, allocation: Allocation) -> Vec<(JobId, Allocation)> {
        match combo {
            Combo::Single(job) => vec![(job, Allocation { colocated_with: None, ..allocation })],
            Combo::Pair(a, b) => vec![(a, allocation.clone().shared_with(b)), (b, allocation.shared_with(a))],
        }
    }

    /// A full round: select by per-type GPU budget in priority order, keep leases, place.
    fn round_decision(&mut self, context: &Context<'_>) -> Decision {
        // Default: all (combination, type) pairs in one priority order. With `type_order`
        // (Gavel's quirk), one pass per type in that order, then the unlisted types.
        let passes: Vec<Option<usize>> = if let Some(shuffler) = self.type_shuffler.as_mut() {
            shuffler.order(context.cluster.spec().gpu_types()).into_iter().map(Some).collect()
        } else if self.type_order.is_empty() {
            vec![None]
        } else {
            let names = context.cluster.spec().gpu_types();
            let mut order: Vec<usize> =
                self.type_order.iter().filter_map(|name| names.iter().position(|known| known == name)).collect();
            order.extend((0..names.len()).filter(|index| !order.contains(index)).collect::<Vec<_>>());
            order.into_iter().map(Some).collect()
        };
        // The order is read lazily, sorted in chunks (one list per type with passes): a round on a
        // saturated cluster fills its GPUs from the first few hundred of thousands of entries,
        // and every job needs at least one GPU, so a pass ends when its budget is spent. So
        // each list also leaves out the entries below half the lowest priority it popped the
        // round before (priorities of jobs that did not run only rise between
        // recomputations); a list that runs dry while it left entries out is ranked again in
        // full, so the round pops exactly what a full ranking pops (the entries kept are a
        // prefix of the order, which sorts by priority first). The lists keep their memory
        // from one round to the next.
        let by_type = !(passes.len() == 1 && passes[0].is_none());
        let floors: Vec<f64> = self.rank_floors.iter().map(|lowest| lowest * 0.5).collect();
        let mut lists = std::mem::take(&mut self.rank_lists);
        let mut selection = self.select(context, &passes, by_type, &floors, &mut lists);
        if selection.ran_dry {
            selection = self.select(context, &passes, by_type, &[], &mut lists);
        }
        #[cfg(debug_assertions)]
        {
            // Tests and debug runs check every round against a full ranking.
            let full = self.select(context, &passes, by_type, &[], &mut Vec::new());
            debug_assert_eq!(selection.chosen, full.chosen, "a floored ranking chose differently at {}", context.now);
        }
        self.rank_floors = selection.lowest;
        let chosen = selection.chosen;
        self.rank_lists = lists;
        let mut plan = context.cluster.clone();
        for job in context.jobs.running() {
            let allocation = job.allocation.as_ref().expect("running");
            if allocation.colocated_with.is_none_or(|partner| partner > job.id) {
                plan.release(allocation, None);
            }
        }
        if self.short_rounds {
            let end = self.round_end(context, &chosen);
            self.clock.end_round_at(end);
        }
        let mut desired: Vec<(JobId, Allocation)> = Vec::new();
        let mut to_place = Vec::new();
        // As Gavel's `_schedule_jobs_on_workers`, which assigns no workers to a selected job
        // missing from the allocation: its GPUs stay idle this round.
        for &(combo, gpu_type) in chosen.iter().filter(|(combo, _)| !self.is_held(*combo)) {
            match Self::lease(context, combo, gpu_type) {
                Some(allocation) => {
                    plan.take(&allocation, None).expect("a running job's own GPUs are free in the plan");
                    desired.extend(Self::assign(combo, allocation));
                }
                None => to_place.push((combo, gpu_type)),
            }
        }
        // As Gavel's `_schedule_jobs_on_workers`: the largest gangs are placed first, which
        // leaves the least fragmentation for the small ones.
        let gang = |combo: Combo| combo.jobs().map(|id| context.jobs.get(id).expect("active").gpus).max().unwrap_or(0);
        to_place.sort_by_key(|&(combo, _)| std::cmp::Reverse(gang(combo)));
        for (combo, gpu_type) in to_place {
            let gpus = gang(combo);
            if let Some(allocation) = self.placer.place_on_type(&plan, gpus, GpuTypeId(gpu_type as u16), None) {
                plan.take(&allocation, None).expect("the placer only returns free resources");
                desired.extend(Self::assign(combo, allocation));
            }
        }
        let work_limits = if self.whole_steps { self.lease_whole_steps(context, &desired) } else { Vec::new() };
        Decision { work_limits, ..Decision::reconcile(context.jobs.running_allocations(), desired, self.clock.next()) }
    }

    /// Whether `combo` arrived since the allocation was computed and waits for the next one
    /// (`new_jobs_wait`).
    fn is_held(&self, combo: Combo) -> bool {
        self.accounts.get(&combo).is_some_and(|account| account.held)
    }

    /// Each job's rate (steps/s) when `combo` runs on `gpu_type`, alone or co-located in a
    /// pair; `None` where the throughput table has none.
    fn combo_rates(&self, context: &Context<'_>, combo: Combo, gpu_type: usize) -> Option<Vec<(JobId, f64)>> {
        let name = &context.cluster.spec().gpu_types()[gpu_type];
        let job = |id: JobId| context.jobs.get(id).expect("active");
        match combo {
            Combo::Single(id) => {
                let single = job(id);
                self.table.isolated(&single.job_type, single.gpus, name).map(|rate| vec![(id, rate)])
            }
            Combo::Pair(a, b) => {
                let (first, second) = (job(a), job(b));
                self.table
                    .colocated((&first.job_type, first.gpus), (&second.job_type, second.gpus), name)
                    .map(|(rate_a, rate_b)| vec![(a, rate_a), (b, rate_b)])
            }
        }
    }

    /// When a round of `chosen` ends in Gavel's simulator (`_get_job_steps_and_finish_times`):
    /// every job runs `floor(rate x round)` whole steps, at its rate on the chosen type (alone,
    /// or co-located in a pair), so the round lasts the longest `floor(rate x round) / rate`.
    fn round_end(&self, context: &Context<'_>, chosen: &[(Combo, usize)]) -> Time {
        let round = self.clock.length();
        let whole = |rate: f64| if rate > 0.0 { (rate * round).floor() / rate } else { 0.0 };
        let mut length: f64 = 0.0;
        for &(combo, gpu_type) in chosen {
            if self.is_held(combo) {
                continue;
            }
            let combo_length = self
                .combo_rates(context, combo, gpu_type)
                .map_or(round, |rates| rates.iter().map(|&(_, rate)| whole(rate)).fold(0.0, f64::max));
            length = length.max(combo_length);
        }
        context.now + if length > 0.0 { length } else { round }
    }

    /// Between rounds: start combinations whose jobs all wait on free GPUs in priority order,
    /// preempting nobody.
    fn fill_decision(&self, context: &Context<'_>) -> Decision {
        let mut plan = context.cluster.clone();
        let mut start: Vec<(JobId, Allocation)> = Vec::new();
        let waiting = |id: JobId| context.jobs.get(id).is_some_and(|job| !job.is_running());
        for (_, combo, gpu_type) in self.ranked(waiting) {
            if self.is_held(combo) {
                continue;
            }
            if combo.jobs().any(|id| start.iter().any(|(known, _)| *known == id)) {
                continue;
            }
            let gpus = combo.jobs().map(|id| context.jobs.get(id).expect("active").gpus).max().unwrap_or(0);
            if let Some(allocation) = self.placer.place_on_type(&plan, gpus, GpuTypeId(gpu_type as u16), None) {
                plan.take(&allocation, None).expect("the placer only returns free resources");
                start.extend(Self::assign(combo, allocation));
            }
        }
        start.sort_by_key(|entry| entry.0);
        Decision { start, next_tick: self.clock.next(), ..Decision::none() }
    }
}

impl Policy for Gavel {
    fn name(&self) -> &str {
        &self.name
    }

    fn knowledge(&self) -> Knowledge {
        // Gavel's jobs declare their total steps at submission; here that is oracle knowledge.
        if self.objective.oracle() { Knowledge::Oracle } else { Knowledge::Realistic }
    }

    fn solver_stats(&self) -> Option<SolverStats> {
        self.objective.solves_lps().then(|| self.solver.clone())
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        for id in context.finished {
            self.rows.remove(id);
        }
        self.account(context);
        if !context.arrived.is_empty() || !context.finished.is_empty() {
            self.stale = true;
        }
        if context.jobs.n_active() == 0 {
            self.accounts.clear();
            self.clock.stop();
            return Ok(Decision::none());
        }
        if self.short_rounds && !context.finished.is_empty() && context.jobs.running().next().is_none() {
            // Gavel's round ends when the last job running in it ends.
            self.clock.end_round_at(context.now);
        }
        let phase = self.clock.phase(context.now);
        // Gavel marks "never reset" with a last reset time of 0, so with its round timing a
        // recomputation at t = 0 does not start the interval.
        let never = |at: Time| self.recompute_at_rounds && at == Time::ZERO;
        let due = self.computed_at.is_none_or(|at| never(at) || context.now - at >= self.min_interval)
            && (!self.recompute_at_rounds || phase == Phase::Round);
        if self.stale && due {
            self.recompute(context)?;
        } else if self.fill_unallocated {
            // As in Gavel, a job that arrived since the allocation was computed has no
            // allocation yet but may fill GPUs left over, at priority 0. Gavel's `add_job`
            // credits it with the reset credit on every type (`_job_time_so_far`, without adding
            // to `_worker_time_so_far`), so its deficit starts at 0 at the next recomputation.
            let types = context.cluster.spec().gpu_types().len();
            for &id in context.arrived {
                let Some(job) = context.jobs.get(id) else { continue };
                let usable = self.throughput_row(job, context.cluster)?.iter().map(|rate| *rate > 0.0).collect();
                let account = JobAccount {
                    allocation: PerType::from_elem(0.0, types),
                    usable,
                    received: PerType::from_elem(self.reset_credit, types),
                    deficit: PerType::from_elem(0.0, types),
                    held: self.new_jobs_wait,
                    gang: job.gpus,
                };
                self.accounts.entry(Combo::Single(id)).or_insert(account);
            }
        }
        Ok(match phase {
            Phase::Round => self.round_decision(context),
            Phase::Wait => Decision { next_tick: self.clock.next(), ..Decision::none() },
            Phase::Fill => self.fill_decision(context),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranked_entries_come_out_in_the_sorted_order_across_chunks() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        // Few distinct values, so that priorities and ties repeat and the later keys decide;
        // 1,200 entries, so the reading crosses the chunks of 64, 128, 256, 512 and the rest.
        let mut entries: Vec<Ranked> = Vec::new();
        for id in 0..400u32 {
            for gpu_type in 0..3 {
                let pick = |rng: &mut rand_chacha::ChaCha8Rng| [0.0, 0.5, 1.0, 1e9][rng.random_range(0..4)];
                let combo =
                    if id % 5 == 0 { Combo::Pair(JobId(id), JobId(id + 1000)) } else { Combo::Single(JobId(id)) };
                entries.push(Ranked {
                    priority: pick(&mut rng),
                    tie: (pick(&mut rng), pick(&mut rng)),
                    combo,
                    gpu_type,
                    gang: 1,
                });
            }
        }
        let mut sorted = entries.clone();
        sorted.sort_by(Ranked::order);
        let key = |entry: &Ranked| (entry.combo, entry.gpu_type);
        let mut in_order = ranking::InOrder::new(&mut entries);
        let mut read = Vec::new();
        while !in_order.is_empty() {
            read.push(key(&in_order.next().expect("not empty")));
        }
        assert_eq!(in_order.next().map(|entry| key(&entry)), None);
        assert_eq!(read, sorted.iter().map(key).collect::<Vec<_>>());
        assert!(sorted.windows(2).all(|pair| pair[0].priority >= pair[1].priority));
        // A list read only in part: its first entries are those of the full order.
        let mut again = entries.clone();
        let first: Vec<_> = ranking::InOrder::new(&mut again).take(300).map(|entry| key(&entry)).collect();
        assert_eq!(first, sorted[..300].iter().map(key).collect::<Vec<_>>());
    }

    #[test]
    fn the_python_shuffler_draws_gavels_type_orders() {
        // python3: r = random.Random(5); six times t = ['v100', 'p100', 'k80']; r.shuffle(t)
        // (Gavel's simulator with --seed 0). Our cluster lists its types in another order, so
        // the indices map back through the names.
        let names: Vec<String> = ["k80", "p100", "v100"].iter().map(|name| name.to_string()).collect();
        let mut shuffler = TypeShuffler::Python(Some(Box::new(PyRandom::new(5))));
        let drawn: Vec<Vec<&str>> =
            (0..6).map(|_| shuffler.order(&names).into_iter().map(|index| names[index].as_str()).collect()).collect();
        let expected = [
            ["v100", "p100", "k80"],
            ["v100", "p100", "k80"],
            ["p100", "v100", "k80"],
            ["k80", "v100", "p100"],
            ["p100", "v100", "k80"],
            ["p100", "k80", "v100"],
        ];
        assert_eq!(drawn, expected.map(|order| order.to_vec()).to_vec());
    }

    fn gavel(extra: &str) -> Gavel {
        let path = std::env::temp_dir().join(format!("schedlab-gavel-ranked-{}.json", std::process::id()));
        std::fs::write(&path, r#"{"v100": {"('A', 1)": {"null": 10.0}}, "k80": {"('A', 1)": {"null": 1.0}}}"#).unwrap();
        let text = format!("gavel-las[{extra}throughputs={}]", path.display());
        Gavel::from_params(
            &text.parse().unwrap(),
            GavelKind::MaxMinFairness,
            true,
            &PolicyEnv::new(schedlab_core::DataDir::none()),
        )
        .unwrap()
    }

    #[test]
    fn the_fairness_lps_solve_at_an_interior_point() {
        // Aware max-min fairness in both modes; finish-time fairness with `mode=gavel`.
        assert_eq!(gavel("").backend, Backend::MaxMinIpm);
        assert_eq!(gavel("mode=gavel,").backend, Backend::MaxMinIpm);
        assert_eq!(gavel("mode=gavel,backend=microlp,").backend, Backend::MicroLp);
        assert_eq!(gavel("backend=microlp,").backend, Backend::MicroLp);
        let env = PolicyEnv::new(schedlab_core::DataDir::none());
        let path = std::env::temp_dir().join(format!("schedlab-gavel-backend-{}.json", std::process::id()));
        std::fs::write(&path, r#"{"v100": {"('A', 1)": {"null": 10.0}}}"#).unwrap();
        for (name, kind, aware, expected) in [
            ("gavel-ftf", GavelKind::FinishTimeFairness, true, Backend::MaxMinIpm),
            ("gavel-ftf-agnostic", GavelKind::FinishTimeFairness, false, Backend::MaxMinIpm),
            ("gavel-las-agnostic", GavelKind::MaxMinFairness, false, Backend::MicroLp),
            ("gavel-las-packed", GavelKind::MaxMinFairnessPacked, true, Backend::MicroLp),
            ("gavel-makespan", GavelKind::Makespan, true, Backend::MicroLp),
        ] {
            let text = format!("{name}[mode=gavel,throughputs={}]", path.display());
            let policy = Gavel::from_params(&text.parse().unwrap(), kind, aware, &env).unwrap();
            assert_eq!(policy.backend, expected, "{name}");
        }
        // Without `mode=gavel` every other LP keeps microlp's simplex.
        for (name, kind, aware) in [
            ("gavel-ftf", GavelKind::FinishTimeFairness, true),
            ("gavel-las-agnostic", GavelKind::MaxMinFairness, false),
            ("gavel-makespan", GavelKind::Makespan, true),
        ] {
            let text = format!("{name}[throughputs={}]", path.display());
            let policy = Gavel::from_params(&text.parse().unwrap(), kind, aware, &env).unwrap();
            assert_eq!(policy.backend, Backend::MicroLp, "{name}");
        }
        std::fs::remove_file(&path).unwrap();
    }

    fn account(allocation: [f64; 2], usable: [bool; 2], deficit: [f64; 2]) -> JobAccount {
        JobAccount {
            allocation: PerType::from_slice(&allocation),
            usable: PerType::from_slice(&usable),
            received: PerType::from_elem(0.0, 2),
            deficit: PerType::from_slice(&deficit),
            held: false,
            gang: 1,
        }
    }

    #[test]
    fn unallocated_jobs_rank_last_at_priority_zero_only_with_fill_unallocated() {
        // J0 has all its time on type 0 and could run on type 1; J1 has no allocation and can
        // run only on type 0; J2 can run nowhere here.
        let accounts = [
            (Combo::Single(JobId(0)), account([1.0, 0.0], [true, true], [0.0, 0.0])),
            (Combo::Single(JobId(1)), account([0.0, 0.0], [true, false], [5.0, 0.0])),
            (Combo::Single(JobId(2)), account([0.0, 0.0], [false, false], [0.0, 0.0])),
        ];
        let ranking = |extra: &str| {
            let mut policy = gavel(extra);
            policy.accounts = accounts.iter().cloned().collect();
            policy.given = vec![0.0; 2];
            policy.ranked(|_| true)
        };
        let j = |id| Combo::Single(JobId(id));
        assert_eq!(ranking(""), vec![(1e9, j(0), 0)]);
        // Gavel's filling: every usable (job, type) follows at priority 0, ties by job id...
        assert_eq!(ranking("fill_unallocated=true,"), vec![(1e9, j(0), 0), (0.0, j(0), 1), (0.0, j(1), 0)]);
        // ...or by deficit first (J1 should have run 5 s more than it did).
        assert_eq!(
            ranking("fill_unallocated=true,tie_break=deficit,"),
            vec![(1e9, j(0), 0), (0.0, j(1), 0), (0.0, j(0), 1)]
        );
    }
}

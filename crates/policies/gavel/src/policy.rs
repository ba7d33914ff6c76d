//! Gavel's round-based scheduling on top of an allocation LP.

use crate::allocation::{AllocationInput, max_min_fairness};
use schedlab_cluster::{Placer, ThroughputTable};
use schedlab_core::{
    Allocation, ClusterView, Context, Decision, GpuTypeId, JobId, JobView, ParamError, Policy, PolicyError,
    PolicyParams, Time,
};
use schedlab_solver::Backend;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// Loads a throughput table once per process and path (every run of a sweep shares it).
fn shared_table(path: &PathBuf) -> Result<Arc<ThroughputTable>, String> {
    static TABLES: OnceLock<Mutex<HashMap<PathBuf, Arc<ThroughputTable>>>> = OnceLock::new();
    let mut tables =
        TABLES.get_or_init(Default::default).lock().map_err(|_| "throughput table cache poisoned".to_string())?;
    if let Some(table) = tables.get(path) {
        return Ok(table.clone());
    }
    let (table, _) = ThroughputTable::load(path).map_err(|error| error.to_string())?;
    let table = Arc::new(table);
    tables.insert(path.clone(), table.clone());
    Ok(table)
}

/// Per-job bookkeeping of the round mechanism.
#[derive(Clone, Debug, Default)]
struct JobAccount {
    /// Time fraction per GPU type from the last allocation.
    allocation: Vec<f64>,
    /// GPU-seconds received on each type since the allocation was last computed.
    received: Vec<f64>,
}

/// Which allocation the rounds follow.
enum Objective {
    /// Max-min fairness (LAS) from the LP.
    MaxMinFairness,
    /// Gavel's FIFO: jobs in arrival order, each on one type (X = 1), until one does not fit.
    /// Aware ("perf" mode): recomputed from scratch, each job on its fastest type with room.
    /// Agnostic ("base" mode): assignments persist; a finished job's type goes to the next
    /// waiting job if it fits; the rest get a random type with room.
    Fifo {
        /// Persistent assignments (agnostic mode).
        assigned: BTreeMap<JobId, usize>,
        /// Seeded random choice of types (agnostic mode); boxed, as it is large.
        rng: Box<rand_chacha::ChaCha8Rng>,
    },
}

/// Gavel's round-based scheduling with max-min fairness (LAS) or FIFO allocations,
/// heterogeneity-aware or agnostic.
///
/// Every `round` seconds it ranks (job, GPU type) pairs by `X[m][j]` divided by the share of
/// type j's GPU time the job received since the allocation was computed (Gavel's
/// `_update_priorities`), selects pairs by GPU count per type in that order (each job at most
/// once), keeps selected jobs on their current GPUs when their type is unchanged (lease
/// extension), places the rest, and preempts the others. Between rounds, arrivals and
/// completions only fill free GPUs. The allocation is recomputed when jobs arrive or finish,
/// at most once every `min_interval` seconds.
pub struct GavelLas {
    name: String,
    objective: Objective,
    aware: bool,
    round: f64,
    min_interval: f64,
    backend: Backend,
    table: Arc<ThroughputTable>,
    placer: Placer,
    jobs: BTreeMap<JobId, JobAccount>,
    /// GPU-seconds given out per type since the allocation was computed.
    given: Vec<f64>,
    computed_at: Option<Time>,
    stale: bool,
    last_call: Option<Time>,
    next_round: Option<Time>,
    /// Solver time spent so far, for reports.
    solve_seconds: f64,
}

impl GavelLas {
    /// Builds `gavel-las[...]` (aware) or, with `aware` false, `gavel-las-agnostic[...]`. Parameters:
    /// `throughputs` (path in the data directory, default `gavel/simulation_throughputs.json`),
    /// `round` (seconds, 360), `min_interval` (seconds between LP solves, 0), `backend` (microlp).
    pub fn from_params(params: &PolicyParams, aware: bool) -> Result<GavelLas, ParamError> {
        GavelLas::build(params, aware, false)
    }

    /// Builds `gavel-fifo[...]` (aware) or `gavel-fifo-agnostic[...]`; the agnostic twin also
    /// takes `seed` (default 0) for its random choice of types.
    pub fn fifo_from_params(params: &PolicyParams, aware: bool) -> Result<GavelLas, ParamError> {
        GavelLas::build(params, aware, true)
    }

    fn build(params: &PolicyParams, aware: bool, fifo: bool) -> Result<GavelLas, ParamError> {
        use rand::SeedableRng;
        let mut reader = params.reader();
        let objective = if fifo {
            let seed = if aware { 0.0 } else { reader.f64("seed", 0.0)? };
            Objective::Fifo {
                assigned: BTreeMap::new(),
                rng: Box::new(rand_chacha::ChaCha8Rng::seed_from_u64(seed as u64)),
            }
        } else {
            Objective::MaxMinFairness
        };
        let round = reader.positive_f64("round", 360.0)?;
        let min_interval = reader.f64("min_interval", 0.0)?;
        // One backend so far; the parameter is accepted so specs stay valid when more arrive.
        reader.choice("backend", "microlp", &["microlp"])?;
        let backend = Backend::MicroLp;
        let throughputs = reader.choice_text("throughputs", "gavel/simulation_throughputs.json")?;
        let name = reader.finish()?;
        let error = |message: String| ParamError { policy: name.clone(), message };
        let path = if std::path::Path::new(&throughputs).is_absolute() {
            PathBuf::from(&throughputs)
        } else {
            schedlab_core::datadir::data_file(&throughputs)
                .map_err(|message| error(format!("parameter 'throughputs': {message}")))?
        };
        let table = shared_table(&path).map_err(|message| error(format!("parameter 'throughputs': {message}")))?;
        Ok(GavelLas {
            name,
            objective,
            aware,
            round,
            min_interval,
            backend,
            table,
            placer: Placer::default(),
            jobs: BTreeMap::new(),
            given: Vec::new(),
            computed_at: None,
            stale: true,
            last_call: None,
            next_round: None,
            solve_seconds: 0.0,
        })
    }

    /// Returns the seconds spent in the LP solver so far.
    pub fn solve_seconds(&self) -> f64 {
        self.solve_seconds
    }

    fn throughput_row(&self, job: &JobView, cluster: &ClusterView) -> Vec<f64> {
        cluster
            .spec()
            .gpu_types()
            .iter()
            .enumerate()
            .map(|(index, name)| {
                if !job.feasible_types.contains(GpuTypeId(index as u16)) {
                    return 0.0;
                }
                self.table.isolated(&job.job_type, job.gpus, name).unwrap_or(0.0)
            })
            .collect()
    }

    /// Books the GPU time running jobs received since the last call.
    fn account(&mut self, context: &Context<'_>) {
        let types = context.cluster.spec().gpu_types().len();
        if self.given.len() != types {
            self.given = vec![0.0; types];
        }
        if let Some(last) = self.last_call {
            let elapsed = context.now - last;
            for job in context.jobs.running() {
                let allocation = job.allocation.as_ref().expect("running jobs have allocations");
                let gpu_type = context.cluster.spec().node(allocation.parts[0].0).gpu_type.index();
                let gpu_seconds = f64::from(allocation.gpus()) * elapsed;
                self.given[gpu_type] += gpu_seconds;
                if let Some(account) = self.jobs.get_mut(&job.id) {
                    account.received[gpu_type] += gpu_seconds;
                }
            }
        }
        self.last_call = Some(context.now);
    }

    fn recompute(&mut self, context: &Context<'_>) -> Result<(), PolicyError> {
        let active: Vec<&JobView> = context.jobs.active().collect();
        let input = AllocationInput {
            throughputs: active.iter().map(|job| self.throughput_row(job, context.cluster)).collect(),
            scale_factors: active.iter().map(|job| job.gpus).collect(),
            weights: active.iter().map(|job| job.weight.max(f64::MIN_POSITIVE)).collect(),
            capacity: context.cluster.gpus_per_type().to_vec(),
        };
        let fractions = match &mut self.objective {
            Objective::MaxMinFairness => {
                let result = max_min_fairness(&input, self.aware, self.backend)
                    .map_err(|error| PolicyError::Solver(format!("{}: {error}", self.name)))?;
                self.solve_seconds += (result.stats.build_time + result.stats.solve_time).as_secs_f64();
                result.fractions
            }
            Objective::Fifo { assigned, rng } => {
                let ids: Vec<JobId> = active.iter().map(|job| job.id).collect();
                fifo_allocation(&input, &ids, self.aware, assigned, rng)
            }
        };
        let types = input.capacity.len();
        // Rounding to 1e-9 removes solver noise, so that equal fractions tie exactly and ties
        // break by job id and type order rather than by the last bits of the simplex.
        self.jobs = active
            .iter()
            .zip(fractions)
            .map(|(job, fractions)| {
                let allocation = fractions.into_iter().map(|fraction| (fraction * 1e9).round() / 1e9).collect();
                (job.id, JobAccount { allocation, received: vec![0.0; types] })
            })
            .collect();
        self.given = vec![0.0; types];
        self.computed_at = Some(context.now);
        self.stale = false;
        Ok(())
    }

    /// (priority, job, type) for every job and type it has time on, highest priority first.
    fn ranked(&self, candidates: impl Iterator<Item = JobId>) -> Vec<(f64, JobId, usize)> {
        let mut pairs = Vec::new();
        for id in candidates {
            let Some(account) = self.jobs.get(&id) else { continue };
            for (gpu_type, &fraction) in account.allocation.iter().enumerate() {
                if fraction <= 1e-9 {
                    continue;
                }
                let share =
                    if self.given[gpu_type] > 0.0 { account.received[gpu_type] / self.given[gpu_type] } else { 0.0 };
                // As Gavel: a job that received nothing on this type gets a large finite priority
                // scaled by its allocation, so that newly added jobs run in proportion to it.
                let priority = if share > 0.0 { fraction / share } else { fraction * 1e9 };
                pairs.push((priority, id, gpu_type));
            }
        }
        pairs.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        pairs
    }

    /// A full round: select by per-type GPU budget in priority order, keep leases, place.
    fn round_decision(&self, context: &Context<'_>) -> Decision {
        let mut budget: Vec<u32> = context.cluster.gpus_per_type().to_vec();
        let mut chosen: Vec<(JobId, usize)> = Vec::new();
        for (_, id, gpu_type) in self.ranked(context.jobs.active().map(|job| job.id)) {
            let gpus = context.jobs.get(id).expect("active").gpus;
            if chosen.iter().any(|(known, _)| *known == id) || budget[gpu_type] < gpus {
                continue;
            }
            budget[gpu_type] -= gpus;
            chosen.push((id, gpu_type));
        }
        let mut plan = context.cluster.clone();
        for job in context.jobs.running() {
            plan.release(job.allocation.as_ref().expect("running"), None);
        }
        let mut desired: Vec<(JobId, Allocation)> = Vec::new();
        let mut to_place = Vec::new();
        for &(id, gpu_type) in &chosen {
            let job = context.jobs.get(id).expect("active");
            let kept = job
                .allocation
                .as_ref()
                .filter(|allocation| context.cluster.spec().node(allocation.parts[0].0).gpu_type.index() == gpu_type);
            match kept {
                Some(allocation) => {
                    plan.take(allocation, None).expect("a running job's own GPUs are free in the plan");
                    desired.push((id, allocation.clone()));
                }
                None => to_place.push((id, gpu_type)),
            }
        }
        for (id, gpu_type) in to_place {
            let job = context.jobs.get(id).expect("active");
            if let Some(allocation) = self.placer.place_on_type(&plan, job.gpus, GpuTypeId(gpu_type as u16), None) {
                plan.take(&allocation, None).expect("the placer only returns free resources");
                desired.push((id, allocation));
            }
        }
        Decision::reconcile(context.jobs.running_allocations(), desired, self.next_round)
    }

    /// Between rounds: start waiting jobs on free GPUs in priority order, preempting nobody.
    fn fill_decision(&self, context: &Context<'_>) -> Decision {
        let mut plan = context.cluster.clone();
        let mut start: Vec<(JobId, Allocation)> = Vec::new();
        for (_, id, gpu_type) in self.ranked(context.jobs.queued().map(|job| job.id)) {
            if start.iter().any(|(known, _)| *known == id) {
                continue;
            }
            let job = context.jobs.get(id).expect("active");
            if let Some(allocation) = self.placer.place_on_type(&plan, job.gpus, GpuTypeId(gpu_type as u16), None) {
                plan.take(&allocation, None).expect("the placer only returns free resources");
                start.push((id, allocation));
            }
        }
        Decision { start, preempt: Vec::new(), next_tick: self.next_round }
    }
}

/// Gavel's FIFO allocation (`scheduler/policies/fifo.py`): rows of 0/1 time fractions.
fn fifo_allocation(
    input: &AllocationInput,
    ids: &[JobId],
    aware: bool,
    assigned: &mut BTreeMap<JobId, usize>,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> Vec<Vec<f64>> {
    use rand::Rng;
    let index_of: BTreeMap<JobId, usize> = ids.iter().enumerate().map(|(index, id)| (*id, index)).collect();
    let mut available: Vec<u32> = input.capacity.clone();
    if aware {
        // "perf" mode resets the allocation every time.
        assigned.clear();
    }
    let mut queue: std::collections::VecDeque<JobId> =
        ids.iter().copied().filter(|id| !assigned.contains_key(id)).collect();
    // A finished job's type goes to the next waiting job if it fits (agnostic mode only:
    // in aware mode nothing is assigned here).
    let previous: Vec<(JobId, usize)> = assigned.iter().map(|(id, gpu_type)| (*id, *gpu_type)).collect();
    for (id, gpu_type) in previous {
        match index_of.get(&id) {
            Some(&index) => available[gpu_type] = available[gpu_type].saturating_sub(input.scale_factors[index]),
            None => {
                assigned.remove(&id);
                if let Some(next) = queue.pop_front() {
                    let scale = input.scale_factors[index_of[&next]];
                    if scale <= available[gpu_type] {
                        assigned.insert(next, gpu_type);
                        available[gpu_type] -= scale;
                    }
                }
            }
        }
    }
    while let Some(id) = queue.pop_front() {
        let index = index_of[&id];
        let scale = input.scale_factors[index];
        let fitting: Vec<usize> = (0..available.len())
            .filter(|&gpu_type| available[gpu_type] >= scale && input.throughputs[index][gpu_type] > 0.0)
            .collect();
        if fitting.is_empty() {
            break;
        }
        let gpu_type = if aware {
            // The fastest type with room; the first in type order on ties.
            let mut best = fitting[0];
            for &candidate in &fitting[1..] {
                if input.throughputs[index][candidate] > input.throughputs[index][best] {
                    best = candidate;
                }
            }
            best
        } else {
            fitting[rng.random_range(0..fitting.len())]
        };
        assigned.insert(id, gpu_type);
        available[gpu_type] -= scale;
    }
    ids.iter()
        .map(|id| {
            let mut row = vec![0.0; input.capacity.len()];
            if let Some(&gpu_type) = assigned.get(id) {
                row[gpu_type] = 1.0;
            }
            row
        })
        .collect()
}

impl Policy for GavelLas {
    fn name(&self) -> &str {
        &self.name
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        self.account(context);
        if !context.arrived.is_empty() || !context.finished.is_empty() {
            self.stale = true;
        }
        if context.jobs.n_active() == 0 {
            self.jobs.clear();
            self.next_round = None;
            return Ok(Decision::none());
        }
        let due = self.computed_at.is_none_or(|at| context.now - at >= self.min_interval);
        if self.stale && due {
            self.recompute(context)?;
        }
        let round_due = self.next_round.is_none_or(|round| context.now >= round);
        if round_due {
            self.next_round = Some(context.now + self.round);
            return Ok(self.round_decision(context));
        }
        Ok(self.fill_decision(context))
    }
}

//! Gavel's objectives behind one trait: each turns the active jobs into time fractions per
//! GPU type (and per sharing pair), which the round mechanism in `policy.rs` then follows. The
//! LPs themselves are in `allocation/`.

use crate::allocation::packing::per_job::{finish_time_fairness_packed, makespan_packed, max_throughput_packed_slos};
use crate::allocation::{
    AllocationInput, FtfIteration, FtfReference, Normalisation, PackingInput, PairRows, finish_time_fairness, makespan,
    max_min_fairness_normalised, max_min_fairness_packed, max_throughput, max_throughput_packed,
};
use crate::fifo::{fifo_allocation, fifo_pack};
use crate::gandiva::gandiva_allocation;
use rand::SeedableRng;
use schedlab_core::{ClusterView, JobId, JobView, ParamError, ParamReader, PolicyError, Time};
use schedlab_solver::{Backend, Failure, SolveStats, SolverError};
use std::collections::BTreeMap;

/// Default GPU prices for `gavel-cost`, dollars per GPU-hour.
const DEFAULT_COSTS: &str = "v100:2.48/p100:1.46/k80:0.45";

/// What an objective is given when the allocation is recomputed.
pub(crate) struct Request<'a> {
    /// The policy's canonical name, for error messages.
    pub name: &'a str,
    /// The current time.
    pub now: Time,
    /// The cluster.
    pub cluster: &'a ClusterView,
    /// The active jobs, in id order; rows of `input` follow this order.
    pub active: &'a [&'a JobView],
    /// Throughputs (1 where usable for agnostic twins is the LP's business), scale factors,
    /// weights and capacities.
    pub input: &'a AllocationInput,
    /// The co-located rates, for objectives that pair jobs ([`Objective::uses_pairs`]).
    pub packing: Option<&'a PackingInput>,
    /// Heterogeneity-aware (true) or agnostic.
    pub aware: bool,
    /// The LP backend.
    pub backend: Backend,
}

impl Request<'_> {
    fn solver_error(&self, error: SolverError) -> PolicyError {
        PolicyError::Solver(format!("{}: {error}", self.name))
    }

    fn packing(&self) -> &PackingInput {
        self.packing.expect("objectives that use pairs get the packing input")
    }

    /// Each active job's remaining work (oracle knowledge: only objectives that declare it ask).
    fn remaining(&self) -> Vec<f64> {
        self.active
            .iter()
            .map(|job| {
                let work =
                    job.oracle.as_ref().expect("objectives that need remaining work declare oracle knowledge").work;
                (work - job.progress(self.now)).max(0.0)
            })
            .collect()
    }

    fn ids(&self) -> Vec<JobId> {
        self.active.iter().map(|job| job.id).collect()
    }
}

/// An allocation: time fractions of each job alone (rows of the request) and of pairs sharing.
#[derive(Default)]
pub(crate) struct Allocated {
    /// `singles[m][j]`: job `m` alone on type `j`.
    pub singles: Vec<Vec<f64>>,
    /// Pairs of jobs sharing GPUs, per type.
    pub pairs: PairRows,
    /// The LP solves it took.
    pub solves: Vec<SolveStats>,
    /// Solves repeated without their optional constraints (infeasible SLOs).
    pub relaxed: u64,
}

/// One of Gavel's objectives.
pub(crate) trait Objective: Send {
    /// Whether it pairs jobs on shared GPUs (needs the co-located rates).
    fn uses_pairs(&self) -> bool {
        false
    }

    /// Whether it plans with each job's total work (ORACLE).
    fn oracle(&self) -> bool {
        false
    }

    /// Whether it solves LPs (takes `backend`, reports solver statistics).
    fn solves_lps(&self) -> bool {
        true
    }

    /// Whether jobs may fill GPUs left over where their allocation is 0 (`fill_unallocated`).
    fn fills_unallocated(&self) -> bool {
        true
    }

    /// Reads the parameters whose defaults depend on `mode` (read after `round` and `mode`).
    fn read_mode_dependent(&mut self, _reader: &mut ParamReader<'_>, _gavel_mode: bool) -> Result<(), ParamError> {
        Ok(())
    }

    /// Computes the allocation.
    fn allocate(&mut self, request: &Request<'_>) -> Result<Allocated, PolicyError>;
}

/// Reads `slo_factor` (0, the default, means no SLOs).
fn slo_factor(reader: &mut ParamReader<'_>) -> Result<Option<f64>, ParamError> {
    let factor = reader.f64("slo_factor", 0.0)?;
    Ok((factor > 0.0).then_some(factor))
}

/// Parses `type:price/type:price`.
fn parse_costs(text: &str) -> Result<Vec<(String, f64)>, String> {
    text.split('/')
        .map(|pair| {
            let (name, price) = pair
                .split_once(':')
                .ok_or_else(|| format!("expected type:price pairs separated by '/', got '{pair}'"))?;
            let price: f64 = price.trim().parse().map_err(|_| format!("'{price}' in '{pair}' is not a number"))?;
            if !(price.is_finite() && price > 0.0) {
                return Err(format!("the price of '{name}' must be positive, got {price}"));
            }
            Ok((name.trim().to_string(), price))
        })
        .collect()
}

/// Which of Gavel's policies a [`crate::Gavel`] scheduler runs; each has an agnostic twin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GavelKind {
    /// Max-min fairness (LAS): `gavel-las`.
    MaxMinFairness,
    /// Max-min fairness with space sharing: `gavel-las-packed`.
    MaxMinFairnessPacked,
    /// FIFO: `gavel-fifo`.
    Fifo,
    /// FIFO with space sharing: `gavel-fifo-packed`.
    FifoPacked,
    /// Gandiva as Gavel simulates it (random pairing, equal shares): `gavel-gandiva`.
    Gandiva,
    /// Finish-time fairness (Themis): `gavel-ftf`.
    FinishTimeFairness,
    /// Finish-time fairness with space sharing: `gavel-ftf-packed`.
    FinishTimeFairnessPacked,
    /// Makespan: `gavel-makespan`.
    Makespan,
    /// Makespan with space sharing: `gavel-makespan-packed`.
    MakespanPacked,
    /// Total throughput: `gavel-max-throughput`.
    MaxThroughput,
    /// Total throughput with space sharing: `gavel-max-throughput-packed`.
    MaxThroughputPacked,
    /// Total throughput per dollar: `gavel-cost`.
    MinCost,
    /// Total throughput per dollar with space sharing: `gavel-cost-packed`.
    MinCostPacked,
}

impl GavelKind {
    /// The LP backend this kind solves with unless `backend=` says otherwise: `maxmin-ipm`, an
    /// interior point, for the aware max-min fairness LP in both modes and the finish-time
    /// fairness LPs with `mode=gavel`; microlp for every other LP.
    pub(crate) fn default_backend(self, aware: bool, gavel_mode: bool) -> Backend {
        // Gavel's simulator solves with ECOS, an interior-point method, whose solution lies
        // inside the LP's optimal face where our simplex returns a vertex. For the aware
        // max-min and finish-time fairness LPs the two differ in every job's time on each
        // type (only the bottleneck jobs are pinned), and replays of a multi-GPU trace in
        // Gavel's simulator come 3-4x closer with an interior point (crate README). The
        // solver crate's structured one takes these LPs 8-9x faster than Clarabel's, and
        // the agnostic finish-time fairness LPs 6x faster than microlp (where ECOS fails).
        // The aware max-min fairness LP takes it in both modes: Gavel's own method, and with
        // an allocation at every event (schedlab's default) 6x less time per run than
        // microlp's simplex (crate README, "A structured interior point").
        let interior = match self {
            GavelKind::MaxMinFairness => aware,
            GavelKind::FinishTimeFairness => gavel_mode,
            _ => false,
        };
        if interior { Backend::MaxMinIpm } else { Backend::MicroLp }
    }
}

/// Reads the objective of `kind` from its own parameters (those read before `round`).
pub(crate) fn read(
    reader: &mut ParamReader<'_>,
    kind: GavelKind,
    aware: bool,
) -> Result<Box<dyn Objective>, ParamError> {
    Ok(match kind {
        GavelKind::Fifo | GavelKind::FifoPacked => {
            let seed = if aware { 0.0 } else { reader.f64("seed", 0.0)? };
            let packing_threshold =
                if kind == GavelKind::FifoPacked { Some(reader.f64("packing_threshold", 1.5)?) } else { None };
            Box::new(Fifo {
                assigned: BTreeMap::new(),
                rng: Box::new(rand_chacha::ChaCha8Rng::seed_from_u64(seed as u64)),
                packing_threshold,
            })
        }
        GavelKind::MaxMinFairness => Box::new(MaxMinFairness {
            packed: false,
            normalisation: Normalisation::parse(reader.choice("normalise", "proportional", &Normalisation::NAMES)?)
                .expect("every listed name parses"),
        }),
        GavelKind::MaxMinFairnessPacked => {
            Box::new(MaxMinFairness { packed: true, normalisation: Normalisation::Proportional })
        }
        GavelKind::Gandiva => Box::new(Gandiva {
            partners: BTreeMap::new(),
            blind: false,
            rng: Box::new(rand_chacha::ChaCha8Rng::seed_from_u64(reader.f64("seed", 0.0)? as u64)),
        }),
        GavelKind::FinishTimeFairness | GavelKind::FinishTimeFairnessPacked => Box::new(FinishTimeFairness {
            iteration: FtfIteration::parse(reader.choice("iteration", "scaled", &FtfIteration::NAMES)?)
                .expect("every listed name parses"),
            tolerance: reader.positive_f64("tolerance", 1e-4)?,
            max_iterations: reader.positive_f64("max_iterations", 50.0)?.round() as usize,
            packed: kind == GavelKind::FinishTimeFairnessPacked,
            gavel_reference: reader.choice("reference", "gavel", &FtfReference::NAMES)? == "gavel",
            cumulative: BTreeMap::new(),
            previous: BTreeMap::new(),
        }),
        GavelKind::Makespan => Box::new(Makespan { packed: false }),
        GavelKind::MakespanPacked => Box::new(Makespan { packed: true }),
        GavelKind::MaxThroughput | GavelKind::MaxThroughputPacked => Box::new(MaxThroughput {
            slo_factor: slo_factor(reader)?,
            costs: None,
            named_costs: None,
            packed: kind == GavelKind::MaxThroughputPacked,
        }),
        GavelKind::MinCost | GavelKind::MinCostPacked => {
            let text = reader.choice_text("costs", DEFAULT_COSTS)?;
            let named = parse_costs(&text).map_err(|message| ParamError {
                policy: reader.name(),
                message: format!("parameter 'costs': {message}"),
            })?;
            Box::new(MaxThroughput {
                slo_factor: slo_factor(reader)?,
                costs: None,
                named_costs: Some(named),
                packed: kind == GavelKind::MinCostPacked,
            })
        }
    })
}

/// Max-min fairness (LAS) from the LP, optionally with pairs of jobs sharing GPUs.
struct MaxMinFairness {
    packed: bool,
    /// What the aware LP divides each job's rate by.
    normalisation: Normalisation,
}

impl Objective for MaxMinFairness {
    fn uses_pairs(&self) -> bool {
        self.packed
    }

    fn allocate(&mut self, request: &Request<'_>) -> Result<Allocated, PolicyError> {
        let error = |error| request.solver_error(error);
        if self.packed {
            let result = max_min_fairness_packed(request.packing(), request.backend).map_err(error)?;
            Ok(Allocated { singles: result.singles, pairs: result.pairs, solves: vec![result.stats], relaxed: 0 })
        } else {
            let result = max_min_fairness_normalised(request.input, request.aware, self.normalisation, request.backend)
                .map_err(error)?;
            Ok(Allocated { singles: result.fractions, solves: vec![result.stats], ..Allocated::default() })
        }
    }
}

/// Makespan from one LP, optionally with pairs.
struct Makespan {
    packed: bool,
}

impl Objective for Makespan {
    fn uses_pairs(&self) -> bool {
        self.packed
    }

    fn oracle(&self) -> bool {
        true
    }

    fn allocate(&mut self, request: &Request<'_>) -> Result<Allocated, PolicyError> {
        let error = |error| request.solver_error(error);
        let remaining = request.remaining();
        if self.packed {
            let result = makespan_packed(request.packing(), &remaining, request.backend).map_err(error)?;
            Ok(Allocated { singles: result.singles, pairs: result.pairs, solves: vec![result.stats], relaxed: 0 })
        } else {
            let result = makespan(request.input, &remaining, request.aware, request.backend).map_err(error)?;
            Ok(Allocated { singles: result.fractions, solves: vec![result.stats], ..Allocated::default() })
        }
    }
}

/// Finish-time fairness, by iterated LPs, optionally with pairs.
struct FinishTimeFairness {
    /// How the LPs are iterated.
    iteration: FtfIteration,
    /// Stop when an LP step improves by less than this factor.
    tolerance: f64,
    /// At most this many LPs per allocation.
    max_iterations: usize,
    packed: bool,
    /// Gavel's reference ([`FtfReference::Gavel`]), or time since arrival ([`FtfReference::Arrival`]).
    gavel_reference: bool,
    /// Each job's cumulative isolated time `C_m` (Gavel's `_cumulative_isolated_time`).
    cumulative: BTreeMap<JobId, f64>,
    /// Each job's remaining steps and isolated rate at the previous allocation (Gavel's
    /// `_num_steps_remaining_prev_iteration`, `_isolated_throughputs_prev_iteration`).
    previous: BTreeMap<JobId, (f64, f64)>,
}

impl FinishTimeFairness {
    /// Adds the steps each job made since the previous allocation, at its isolated rate then,
    /// to its cumulative isolated time, and returns `C_m` for the active jobs.
    fn advance_cumulative(&mut self, ids: &[JobId], remaining: &[f64]) -> Vec<f64> {
        ids.iter()
            .zip(remaining)
            .map(|(id, now)| {
                let total = self.cumulative.entry(*id).or_insert(0.0);
                if let Some((before, rate)) = self.previous.get(id) {
                    *total += (before - now) / rate.max(f64::MIN_POSITIVE);
                }
                *total
            })
            .collect()
    }

    /// Remembers each active job's remaining steps and isolated rate for the next allocation.
    fn remember(&mut self, ids: &[JobId], remaining: &[f64], isolated_rates: &[f64]) {
        self.previous = ids.iter().zip(remaining).zip(isolated_rates).map(|((id, r), iso)| (*id, (*r, *iso))).collect();
    }
}

impl Objective for FinishTimeFairness {
    fn uses_pairs(&self) -> bool {
        self.packed
    }

    fn oracle(&self) -> bool {
        true
    }

    fn allocate(&mut self, request: &Request<'_>) -> Result<Allocated, PolicyError> {
        let error = |error| request.solver_error(error);
        let elapsed: Vec<f64> = request.active.iter().map(|job| request.now - job.arrival).collect();
        let remaining = request.remaining();
        let ids = request.ids();
        let cumulative = self.advance_cumulative(&ids, &remaining);
        let reference = if self.gavel_reference {
            // Gavel's agnostic twin plans at each job's V100 throughput (hard-coded there).
            let reference_type = request.cluster.spec().gpu_types().iter().position(|name| name == "v100");
            FtfReference::Gavel { cumulative: &cumulative, reference_type }
        } else {
            FtfReference::Arrival
        };
        let (tolerance, iterations, backend) = (self.tolerance, self.max_iterations, request.backend);
        let iteration = self.iteration;
        let (allocated, isolated_rates) = if self.packed {
            let result = finish_time_fairness_packed(
                request.packing(),
                &remaining,
                &elapsed,
                reference,
                backend,
                iteration,
                tolerance,
                iterations,
            )
            .map_err(error)?;
            let allocated = Allocated {
                singles: result.fractions.singles,
                pairs: result.fractions.pairs,
                solves: result.solves,
                relaxed: 0,
            };
            (allocated, result.isolated_rates)
        } else {
            let result = finish_time_fairness(
                request.input,
                &remaining,
                &elapsed,
                request.aware,
                reference,
                backend,
                iteration,
                tolerance,
                iterations,
            )
            .map_err(error)?;
            (
                Allocated { singles: result.fractions, solves: result.solves, ..Allocated::default() },
                result.isolated_rates,
            )
        };
        self.remember(&ids, &remaining, &isolated_rates);
        Ok(allocated)
    }
}

/// Total throughput, divided by each type's cost if given; optional SLOs and pairs.
struct MaxThroughput {
    /// SLOs: each job's deadline is its arrival plus this many times its isolated duration
    /// (oracle); `None` for no SLOs.
    slo_factor: Option<f64>,
    /// Cost per GPU type in the cluster's type order, resolved at the first allocation.
    costs: Option<Vec<f64>>,
    /// The costs as named in the parameter, for matching against the cluster's types.
    named_costs: Option<Vec<(String, f64)>>,
    packed: bool,
}

impl MaxThroughput {
    fn resolve_costs(&mut self, cluster: &ClusterView) -> Result<(), PolicyError> {
        if let (None, Some(named)) = (&self.costs, &self.named_costs) {
            let names = cluster.spec().gpu_types();
            let resolved: Result<Vec<f64>, PolicyError> = names
                .iter()
                .map(|name| {
                    named.iter().find(|(known, _)| known == name).map(|(_, price)| *price).ok_or_else(|| {
                        PolicyError::Unsupported(format!(
                            "parameter 'costs' has no price for GPU type '{name}' (cluster types: {})",
                            names.join(", ")
                        ))
                    })
                })
                .collect();
            self.costs = Some(resolved?);
        }
        Ok(())
    }
}

impl Objective for MaxThroughput {
    fn uses_pairs(&self) -> bool {
        self.packed
    }

    fn oracle(&self) -> bool {
        self.slo_factor.is_some()
    }

    fn allocate(&mut self, request: &Request<'_>) -> Result<Allocated, PolicyError> {
        self.resolve_costs(request.cluster)?;
        // SLOs as in Gavel's `...SLOs` policies: remaining steps over the time left to the
        // deadline; a job already past its deadline gets no constraint.
        let required: Vec<f64> = request
            .active
            .iter()
            .map(|job| match (self.slo_factor, job.oracle.as_ref()) {
                (Some(factor), Some(oracle)) => {
                    let left = job.arrival.secs() + factor * oracle.isolated_duration - request.now.secs();
                    let remaining = (oracle.work - job.progress(request.now)).max(0.0);
                    if left > 0.0 { remaining / left } else { 0.0 }
                }
                _ => 0.0,
            })
            .collect();
        let with_slos = required.iter().any(|rate| *rate > 0.0);
        let (costs, packed, backend) = (self.costs.as_deref(), self.packed, request.backend);
        let solve_with = |required: &[f64]| -> Result<(Vec<Vec<f64>>, PairRows, SolveStats), SolverError> {
            if packed {
                let packing = request.packing();
                let result = if required.iter().any(|rate| *rate > 0.0) {
                    max_throughput_packed_slos(packing, costs, required, backend)?
                } else {
                    max_throughput_packed(packing, costs, backend)?
                };
                Ok((result.singles, result.pairs, result.stats))
            } else {
                let result = max_throughput(request.input, costs, required, request.aware, backend)?;
                Ok((result.fractions, Vec::new(), result.stats))
            }
        };
        let mut relaxed = 0;
        let (singles, pairs, stats) = match solve_with(&required) {
            Err(failure) if failure.failure == Failure::Infeasible && with_slos => {
                // As Gavel: no allocation meets every SLO, so solve without them (counted in the
                // run's solver statistics as `relaxed`).
                relaxed = 1;
                solve_with(&vec![0.0; required.len()]).map_err(|error| request.solver_error(error))?
            }
            solved => solved.map_err(|error| request.solver_error(error))?,
        };
        Ok(Allocated { singles, pairs, solves: vec![stats], relaxed })
    }
}

/// Gavel's Gandiva (`scheduler/policies/gandiva.py`): an equal share of every type for each
/// combination; when the jobs ask for more GPUs than the cluster has, waiting jobs are paired
/// at random (same scale factor), and pairs whose normalised throughput summed over the types
/// falls below 1 are split again.
struct Gandiva {
    /// Each paired job's partner.
    partners: BTreeMap<JobId, JobId>,
    /// Pair jobs whatever their co-located throughput, as Gavel does.
    blind: bool,
    /// Seeded random pairing; boxed, as it is large.
    rng: Box<rand_chacha::ChaCha8Rng>,
}

impl Objective for Gandiva {
    fn uses_pairs(&self) -> bool {
        true
    }

    fn solves_lps(&self) -> bool {
        false
    }

    fn read_mode_dependent(&mut self, reader: &mut ParamReader<'_>, gavel_mode: bool) -> Result<(), ParamError> {
        self.blind =
            reader.choice("pairing", if gavel_mode { "blind" } else { "gains" }, &["gains", "blind"])? == "blind";
        Ok(())
    }

    fn allocate(&mut self, request: &Request<'_>) -> Result<Allocated, PolicyError> {
        let (singles, pairs) =
            gandiva_allocation(request.packing(), &request.ids(), &mut self.partners, &mut self.rng, self.blind);
        Ok(Allocated { singles, pairs, ..Allocated::default() })
    }
}

/// Gavel's FIFO: jobs in arrival order, each on one type (X = 1), until one does not fit.
/// Aware ("perf" mode): recomputed from scratch, each job on its fastest type with room.
/// Agnostic ("base" mode): assignments persist; a finished job's type goes to the next waiting
/// job if it fits; the rest get a random type with room. Packing mode (aware): then the jobs
/// still waiting, in order, each join the scheduled single job whose pair gains most, if the
/// pair's normalised throughput exceeds `packing_threshold`; the first that finds none ends
/// the packing.
struct Fifo {
    /// Persistent assignments (agnostic mode).
    assigned: BTreeMap<JobId, usize>,
    /// Seeded random choice of types (agnostic mode); boxed, as it is large.
    rng: Box<rand_chacha::ChaCha8Rng>,
    /// Packing mode's threshold on `packed_a / iso_a + packed_b / iso_b` (Gavel: 1.5).
    packing_threshold: Option<f64>,
}

impl Objective for Fifo {
    fn uses_pairs(&self) -> bool {
        self.packing_threshold.is_some()
    }

    fn solves_lps(&self) -> bool {
        false
    }

    /// Gavel's FIFO never schedules a job at priority 0.
    fn fills_unallocated(&self) -> bool {
        false
    }

    fn allocate(&mut self, request: &Request<'_>) -> Result<Allocated, PolicyError> {
        let ids = request.ids();
        let (mut rows, waiting) =
            fifo_allocation(request.input, &ids, request.aware, &mut self.assigned, &mut self.rng);
        let mut pairs = Vec::new();
        if let (Some(threshold), Some(packing)) = (self.packing_threshold, request.packing) {
            for (m, n, gpu_type) in fifo_pack(packing, &ids, &rows, &waiting, threshold) {
                rows[m][gpu_type] = 0.0;
                let mut row = vec![0.0; request.input.capacity.len()];
                row[gpu_type] = 1.0;
                pairs.push(((m.min(n), m.max(n)), row));
            }
        }
        Ok(Allocated { singles: rows, pairs, ..Allocated::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finish_time_fairness_accumulates_isolated_time_as_gavel_does() {
        let mut ftf = FinishTimeFairness {
            iteration: FtfIteration::Scaled,
            tolerance: 1e-4,
            max_iterations: 50,
            packed: false,
            gavel_reference: true,
            cumulative: BTreeMap::new(),
            previous: BTreeMap::new(),
        };
        let (a, b, c) = (JobId(1), JobId(2), JobId(3));
        // First allocation: nothing accumulated yet.
        assert_eq!(ftf.advance_cumulative(&[a, b], &[100.0, 50.0]), vec![0.0, 0.0]);
        ftf.remember(&[a, b], &[100.0, 50.0], &[2.0, 5.0]);
        // Job a made 40 steps at an isolated rate of 2 (20 s), b 10 at 5 (2 s); c is new.
        assert_eq!(ftf.advance_cumulative(&[a, b, c], &[60.0, 40.0, 30.0]), vec![20.0, 2.0, 0.0]);
        ftf.remember(&[a, c], &[60.0, 30.0], &[4.0, 3.0]);
        // b was not active at the last allocation, so it gains nothing; a gains 20 / 4.
        assert_eq!(ftf.advance_cumulative(&[a, b, c], &[40.0, 40.0, 27.0]), vec![25.0, 2.0, 1.0]);
    }
}

//! Allocation LPs: the fraction of time `X[m][j]` each job `m` should spend on each GPU type `j`.

use schedlab_solver::max_min::{MaxMinRatio, solve_max_min_ratio};
use schedlab_solver::{
    Backend, Comparison, Failure, LinearProgram, LpSolution, Sense, SolveStats, SolverError, Var, solve,
};
use std::collections::HashMap;

/// The inputs every Gavel allocation LP shares.
#[derive(Clone, Debug, PartialEq)]
pub struct AllocationInput {
    /// `throughputs[m][j]`: steps/s of job `m` on its scale factor's worth of type `j` GPUs;
    /// 0 means the job cannot run on that type.
    pub throughputs: Vec<Vec<f64>>,
    /// Scale factor (GPUs) of each job.
    pub scale_factors: Vec<u32>,
    /// Priority weight of each job.
    pub weights: Vec<f64>,
    /// GPUs of each type.
    pub capacity: Vec<u32>,
}

/// An allocation: time fractions per job and type, and the solve's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeFractions {
    /// `fractions[m][j]` in `[0, 1]`, each row summing to at most 1.
    pub fractions: Vec<Vec<f64>>,
    /// The objective value (the smallest normalised, weighted throughput).
    pub objective: f64,
    /// Sizes and timings of the LP solve.
    pub stats: SolveStats,
}

/// Each job's rate under an allocation: `rate_m = sum_j T[m][j] X[m][j]`.
pub(crate) fn job_rates(throughputs: &[Vec<f64>], fractions: &[Vec<f64>]) -> Vec<f64> {
    throughputs.iter().zip(fractions).map(|(row, x)| row.iter().zip(x).map(|(t, x)| t * x).sum()).collect()
}

/// Returns the throughputs a policy optimises with: the measured ones (aware), or 1 for every
/// usable type (Gavel's agnostic twins, which replace every throughput by 1.0).
fn effective_throughputs(input: &AllocationInput, heterogeneity_aware: bool) -> Vec<Vec<f64>> {
    if heterogeneity_aware {
        input.throughputs.clone()
    } else {
        input
            .throughputs
            .iter()
            .map(|row| row.iter().map(|rate| if *rate > 0.0 { 1.0 } else { 0.0 }).collect())
            .collect()
    }
}

/// Solves `maximise t` subject to `sum_j T[m][j] X[m][j] >= t demand[m]` for every job with
/// `demand[m] > 0`, `X >= 0`, `X[m][j] = 0` where `T[m][j] = 0`, `sum_j X[m][j] <= 1` and
/// `sum_m s_m X[m][j] <= N_j`. Max-min fairness, makespan and each step of finish-time fairness
/// are this LP with different demands. Identical jobs share one row ([`JobClasses`]).
///
/// With `offset`, each job's row is `rate_m >= offset[m] + t demand[m]` instead (the scaled
/// step of finish-time fairness, [`FtfIteration::Scaled`]).
fn max_min_ratio(
    name: &str,
    throughputs: &[Vec<f64>],
    demand: &[f64],
    offset: Option<&[f64]>,
    scale_factors: &[u32],
    capacity: &[u32],
    backend: Backend,
) -> Result<(Vec<Vec<f64>>, f64, SolveStats), SolverError> {
    let classes = JobClasses::group(throughputs, scale_factors, demand, offset);
    if backend == Backend::MaxMinIpm {
        return max_min_ratio_structured(name, throughputs, demand, offset, scale_factors, capacity, &classes);
    }
    let (mut lp, objective) = ratio_program(name);
    let vars = classes.time_variables(&mut lp, throughputs);
    for (row, &m) in vars.iter().zip(&classes.representatives) {
        if has_rate_row(demand, offset, m) {
            // t demand[m] - sum_j T[m][j] X[m][j] <= -offset[m]
            let mut terms: Vec<_> = row.iter().zip(&throughputs[m]).map(|(&var, rate)| (var, -rate)).collect();
            terms.push((objective, demand[m]));
            lp.constraint(terms, Comparison::AtMost, offset.map_or(0.0, |offset| -offset[m]));
        }
    }
    bound_when_nothing_to_balance(&mut lp, objective, classes.representatives.iter().map(|&m| demand[m]));
    for (j, &gpus) in capacity.iter().enumerate() {
        lp.constraint(classes.capacity_terms(&vars, scale_factors, j), Comparison::AtMost, f64::from(gpus));
    }
    let solution = solve(&lp, backend)?;
    let fractions = classes.expand(&vars, &solution);
    Ok((fractions, solution.value(objective), solution.stats))
}

/// [`max_min_ratio`] by the solver crate's structured interior point, one row per class. When it
/// stops short of its tolerances, or leaves the program to a general method (offsets without
/// positive demand, or with a job that has demand but can run nowhere), the LP is solved again
/// with microlp, at a vertex, and the statistics say so, as for Clarabel.
fn max_min_ratio_structured(
    name: &str,
    throughputs: &[Vec<f64>],
    demand: &[f64],
    offset: Option<&[f64]>,
    scale_factors: &[u32],
    capacity: &[u32],
    classes: &JobClasses,
) -> Result<(Vec<Vec<f64>>, f64, SolveStats), SolverError> {
    let rates: Vec<Vec<f64>> = classes.representatives.iter().map(|&m| throughputs[m].clone()).collect();
    let class_demand: Vec<f64> = classes.representatives.iter().map(|&m| demand[m]).collect();
    let class_offset: Option<Vec<f64>> =
        offset.map(|offset| classes.representatives.iter().map(|&m| offset[m]).collect());
    let gpu_use: Vec<f64> = classes
        .representatives
        .iter()
        .zip(&classes.sizes)
        .map(|(&m, &size)| f64::from(scale_factors[m]) * size as f64)
        .collect();
    let gpus: Vec<f64> = capacity.iter().map(|&gpus| f64::from(gpus)).collect();
    let problem = MaxMinRatio {
        name,
        rates: &rates,
        demand: &class_demand,
        offset: class_offset.as_deref(),
        gpu_use: &gpu_use,
        capacity: &gpus,
    };
    match solve_max_min_ratio(&problem) {
        Ok(solution) => {
            let fractions = classes.class_of.iter().map(|&class| solution.fractions[class].clone()).collect();
            Ok((fractions, solution.ratio, solution.stats))
        }
        Err(error) if matches!(error.failure, Failure::StoppedShort | Failure::Unusable) => {
            let (fractions, ratio, mut stats) =
                max_min_ratio(name, throughputs, demand, offset, scale_factors, capacity, Backend::MicroLp)?;
            stats.fell_back = true;
            Ok((fractions, ratio, stats))
        }
        Err(error) => Err(error),
    }
}

/// Whether job `m` gets the row `rate_m >= offset[m] + t demand[m]` in a max-min ratio LP: when
/// either side asks for something (the structured interior point writes the same rows).
pub(crate) fn has_rate_row(demand: &[f64], offset: Option<&[f64]>, m: usize) -> bool {
    demand[m] > 0.0 || offset.is_some_and(|offset| offset[m] > 0.0)
}

/// A program that maximises its first variable, `t` (unbounded: the rows bound it).
fn ratio_program(name: &str) -> (LinearProgram, Var) {
    let mut lp = LinearProgram::new(name, Sense::Maximize);
    let objective = lp.variable(f64::NEG_INFINITY, f64::INFINITY);
    lp.objective(objective, 1.0);
    (lp, objective)
}

/// With no positive demand no row bounds `t`: `t <= 0` keeps the program bounded.
fn bound_when_nothing_to_balance(lp: &mut LinearProgram, objective: Var, mut demands: impl Iterator<Item = f64>) {
    if demands.all(|demand| demand <= 0.0) {
        lp.constraint(vec![(objective, 1.0)], Comparison::AtMost, 0.0);
    }
}

/// GPU types up to which [`max_min_ratio_totals`] writes one capacity row per set of types.
const MAX_TYPES_FOR_TOTALS: usize = 6;

/// [`max_min_ratio`] for rates that are the same on every type a job can use (agnostic
/// throughputs), deciding each job's total time `x_m = sum_j X[m][j]` only. Totals can be split
/// over the types within their capacities exactly when, for every set `S` of types, the jobs
/// that can only use types in `S` fit in them: `sum_{m: U_m in S} s_m x_m <= sum_{j in S} N_j`
/// (`U_m` the job's usable types; Gale's supply-demand theorem). So this LP has the feasible
/// totals of the per-type LP, with one variable per job and at most `2^types - 1` capacity rows.
/// Returns each job's total on its first usable type, for `spread_over_types` to spread.
fn max_min_ratio_totals(
    name: &str,
    throughputs: &[Vec<f64>],
    demand: &[f64],
    offset: Option<&[f64]>,
    scale_factors: &[u32],
    capacity: &[u32],
    backend: Backend,
) -> Result<(Vec<Vec<f64>>, f64, SolveStats), SolverError> {
    let types = capacity.len();
    let usable: Vec<usize> = throughputs
        .iter()
        .map(|row| row.iter().enumerate().filter(|(_, rate)| **rate > 0.0).fold(0, |set, (j, _)| set | 1 << j))
        .collect();
    let (mut lp, objective) = ratio_program(name);
    let totals: Vec<Var> = usable.iter().map(|&set| lp.variable(0.0, if set == 0 { 0.0 } else { 1.0 })).collect();
    for m in 0..throughputs.len() {
        if has_rate_row(demand, offset, m) {
            // t demand[m] - rate_m x_m <= -offset[m], with rate_m the job's rate on any usable type
            let rate = throughputs[m].iter().copied().fold(0.0, f64::max);
            lp.constraint(
                vec![(totals[m], -rate), (objective, demand[m])],
                Comparison::AtMost,
                offset.map_or(0.0, |offset| -offset[m]),
            );
        }
    }
    bound_when_nothing_to_balance(&mut lp, objective, demand.iter().copied());
    for types_in in 1..(1usize << types) {
        let terms: Vec<(Var, f64)> = (0..totals.len())
            .filter(|&m| usable[m] != 0 && usable[m] & !types_in == 0)
            .map(|m| (totals[m], f64::from(scale_factors[m])))
            .collect();
        if !terms.is_empty() {
            let gpus: u32 = (0..types).filter(|j| types_in & (1 << j) != 0).map(|j| capacity[j]).sum();
            lp.constraint(terms, Comparison::AtMost, f64::from(gpus));
        }
    }
    let solution = solve(&lp, backend)?;
    let fractions = totals
        .iter()
        .zip(&usable)
        .map(|(&total, &set)| {
            let x = solution.value(total).clamp(0.0, 1.0);
            (0..types).map(|j| if j == set.trailing_zeros() as usize { x } else { 0.0 }).collect()
        })
        .collect();
    Ok((fractions, solution.value(objective), solution.stats))
}

/// Max-min fairness (Gavel's LAS, `MaxMinFairnessPolicyWithPerf`): maximise
/// `min_m (s_m / w_m) sum_j T[m][j] X[m][j] / iso_m` subject to `X >= 0`,
/// `sum_j X[m][j] <= 1`, `sum_m s_m X[m][j] <= N_j`, and `X[m][j] = 0` where the job cannot
/// run. `iso_m` is the job's throughput under the reference allocation `normalisation` names:
/// Gavel's `ProportionalPolicy` by default (see [`Normalisation`]).
///
/// The agnostic twin (`MaxMinFairnessPolicy`) takes every usable throughput as 1 and no
/// normalisation: maximise `min_m (s_m / w_m) sum_j X[m][j]`, so every job gets the same
/// weighted share of GPUs. When every job can use every type, each job's time is spread over
/// the types in proportion to their capacity (see `spread_over_types`).
pub fn max_min_fairness(
    input: &AllocationInput,
    heterogeneity_aware: bool,
    backend: Backend,
) -> Result<TimeFractions, SolverError> {
    max_min_fairness_normalised(input, heterogeneity_aware, Normalisation::Proportional, backend)
}

/// What the heterogeneity-aware max-min fairness LP divides each job's rate by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Normalisation {
    /// Gavel's `ProportionalPolicy` (`policies/proportional.py`, used by
    /// `MaxMinFairnessPolicyWithPerf` in `policies/max_min_fairness.py`): every job gets each
    /// type's share of the cluster, `X[m][j] = N_j / sum_k N_k`, whatever its scale factor, so
    /// `iso_m = sum_j T[m][j] N_j / sum_k N_k`.
    Proportional,
    /// The job's throughput under our agnostic max-min fairness allocation (time
    /// `t w_m / s_m`, spread over the types): the normalisation before 2026-12-03. It equals
    /// Gavel's up to one factor common to all jobs when every job has scale factor 1 and weight
    /// 1, and divides a gang's demand by its scale factor otherwise.
    AgnosticAllocation,
}

impl Normalisation {
    /// The parameter's values.
    pub const NAMES: [&'static str; 2] = ["proportional", "agnostic"];

    /// Reads the parameter value `proportional` or `agnostic`.
    pub fn parse(text: &str) -> Option<Normalisation> {
        match text {
            "proportional" => Some(Normalisation::Proportional),
            "agnostic" => Some(Normalisation::AgnosticAllocation),
            _ => None,
        }
    }
}

/// [`max_min_fairness`] with the aware LP's normalisation chosen.
pub fn max_min_fairness_normalised(
    input: &AllocationInput,
    heterogeneity_aware: bool,
    normalisation: Normalisation,
    backend: Backend,
) -> Result<TimeFractions, SolverError> {
    // Each job's rate under the reference allocation, and the agnostic LP's statistics when
    // that allocation needed one.
    let (iso, agnostic_stats): (Vec<f64>, Option<SolveStats>) =
        if heterogeneity_aware && normalisation == Normalisation::Proportional {
            let total: f64 = input.capacity.iter().map(|&gpus| f64::from(gpus)).sum();
            let iso = input
                .throughputs
                .iter()
                .map(|row| {
                    row.iter().zip(&input.capacity).map(|(rate, &gpus)| rate * f64::from(gpus) / total.max(1.0)).sum()
                })
                .collect();
            (iso, None)
        } else {
            let usable = effective_throughputs(input, false);
            // s_m / w_m sum_j X[m][j] >= t  is  sum_j 1 X[m][j] >= t (w_m / s_m).
            let demand: Vec<f64> =
                (0..usable.len()).map(|m| input.weights[m] / f64::from(input.scale_factors[m])).collect();
            let (mut isolated, agnostic_objective, agnostic_stats) = max_min_ratio(
                "max-min fairness (agnostic)",
                &usable,
                &demand,
                None,
                &input.scale_factors,
                &input.capacity,
                backend,
            )?;
            spread_over_types(&mut isolated, &usable, &input.scale_factors, &input.capacity);
            if !heterogeneity_aware {
                return Ok(TimeFractions { fractions: isolated, objective: agnostic_objective, stats: agnostic_stats });
            }
            (job_rates(&input.throughputs, &isolated), Some(agnostic_stats))
        };
    // s_m rate_m / (w_m iso_m) >= t  is  rate_m >= t (w_m iso_m / s_m).
    let demand: Vec<f64> = iso
        .iter()
        .enumerate()
        .map(|(m, iso)| input.weights[m] * iso.max(f64::MIN_POSITIVE) / f64::from(input.scale_factors[m]))
        .collect();
    let (fractions, objective, mut stats) = max_min_ratio(
        "max-min fairness",
        &input.throughputs,
        &demand,
        None,
        &input.scale_factors,
        &input.capacity,
        backend,
    )?;
    if let Some(agnostic) = agnostic_stats {
        stats.build_time += agnostic.build_time;
        stats.solve_time += agnostic.solve_time;
    }
    Ok(TimeFractions { fractions, objective, stats })
}

/// Makespan (Gavel's `MinTotalDuration`): the smallest horizon `H` such that every job can
/// finish its remaining steps by `H`, `sum_j T[m][j] X[m][j] >= remaining_m / H`. Gavel
/// bisects over `H` with one feasibility LP per step and stops within 5%; substituting
/// `z = 1 / H` makes it one LP, `maximise z` subject to `rate_m >= z remaining_m`, solved
/// exactly. The returned objective is `H` in seconds (infinite if some job cannot progress,
/// 0 when nothing remains).
pub fn makespan(
    input: &AllocationInput,
    remaining_steps: &[f64],
    heterogeneity_aware: bool,
    backend: Backend,
) -> Result<TimeFractions, SolverError> {
    let throughputs = effective_throughputs(input, heterogeneity_aware);
    let name = if heterogeneity_aware { "makespan" } else { "makespan (agnostic)" };
    let (fractions, z, stats) =
        max_min_ratio(name, &throughputs, remaining_steps, None, &input.scale_factors, &input.capacity, backend)?;
    let horizon = if remaining_steps.iter().all(|steps| *steps <= 0.0) { 0.0 } else { 1.0 / z.max(0.0) };
    Ok(TimeFractions { fractions, objective: horizon, stats })
}

/// Finish-time fairness (Themis as Gavel defines it, `FinishTimeFairnessPolicyWithPerf`):
/// minimise `max_m rho_m` with `rho_m = (t_m + R_m / rate_m) / D_m`, where `t_m` is the time
/// since the job arrived, `R_m` its remaining steps, `rate_m = sum_j T[m][j] X[m][j]`, and `D_m`
/// the job's finish time in isolation as `reference` defines it (see [`FtfReference`]).
///
/// Reformulation (ours): `rho_m = N_m / E_m` with `N_m = t_m rate_m + R_m` and
/// `E_m = D_m rate_m`, both linear in `X`: a generalised fractional program, solved by iterated
/// LPs (see [`FtfIteration`]) from the isolated allocation: Gavel's `IsolatedPolicy` with
/// [`FtfReference::Gavel`] (no time where a job cannot run), the agnostic max-min allocation
/// with [`FtfReference::Arrival`]. It stops when a step would improve `rho` by less than the
/// factor `tolerance`, or after `max_iterations` LPs. The objective returned is the final `rho`.
///
/// The agnostic twin with [`FtfReference::Gavel`] plans, as Gavel's `FinishTimeFairnessPolicy`,
/// with every usable type at the job's throughput on the reference type; with
/// [`FtfReference::Arrival`] with throughputs of 1 (time fractions).
#[allow(clippy::too_many_arguments)]
pub fn finish_time_fairness(
    input: &AllocationInput,
    remaining_steps: &[f64],
    elapsed: &[f64],
    heterogeneity_aware: bool,
    reference: FtfReference<'_>,
    backend: Backend,
    iteration: FtfIteration,
    tolerance: f64,
    max_iterations: usize,
) -> Result<FinishTimeFairness, SolverError> {
    let throughputs = match reference {
        FtfReference::Gavel { reference_type, .. } if !heterogeneity_aware => {
            reference_throughputs(&input.throughputs, reference_type)
        }
        _ => effective_throughputs(input, heterogeneity_aware),
    };
    let (start, start_stats) = match reference {
        FtfReference::Gavel { .. } => {
            (gavel_isolated_allocation(&throughputs, &input.scale_factors, &input.capacity), None)
        }
        FtfReference::Arrival => {
            let isolated_input = AllocationInput { throughputs: throughputs.clone(), ..input.clone() };
            let isolated = max_min_fairness(&isolated_input, false, backend)?;
            (isolated.fractions, Some(isolated.stats))
        }
    };
    let start_rates = job_rates(&throughputs, &start);
    let isolated_time = reference.isolated_time(remaining_steps, elapsed, &start_rates);
    let name = if heterogeneity_aware { "finish-time fairness" } else { "finish-time fairness (agnostic)" };
    let dinkelbach =
        Dinkelbach { remaining_steps, elapsed, isolated_time: &isolated_time, iteration, tolerance, max_iterations };
    // Agnostic rates are the same on every type a job can use, and the allocation is spread
    // over the types from each job's total below: a general LP only decides the totals
    // (`max_min_ratio_totals`, one variable per job instead of one per job and type). The
    // structured interior point takes the per-type program at about the cost of the totals.
    let by_totals =
        !heterogeneity_aware && input.capacity.len() <= MAX_TYPES_FOR_TOTALS && backend != Backend::MaxMinIpm;
    let (mut best, rho, mut solves) =
        dinkelbach.run(start, &start_rates, start_stats, |offset: Option<&[f64]>, demand: &[f64]| {
            let (fractions, t, step) = if by_totals {
                max_min_ratio_totals(
                    name,
                    &throughputs,
                    demand,
                    offset,
                    &input.scale_factors,
                    &input.capacity,
                    backend,
                )?
            } else {
                max_min_ratio(name, &throughputs, demand, offset, &input.scale_factors, &input.capacity, backend)?
            };
            let step_rates = job_rates(&throughputs, &fractions);
            Ok((fractions, t, step, step_rates))
        })?;
    if !heterogeneity_aware && !spread_over_types(&mut best, &throughputs, &input.scale_factors, &input.capacity) {
        // The spread did not settle. A per-type LP's point is a split within capacity already;
        // totals need one: the split LP.
        if by_totals {
            let (split, stats) =
                split_totals(name, &throughputs, &best, &input.scale_factors, &input.capacity, backend)?;
            best = split;
            solves.push(stats);
        }
    }
    Ok(FinishTimeFairness { fractions: best, rho, solves, isolated_rates: start_rates })
}

/// What finish-time fairness compares a job's finish time with: `D_m`, the job's finish time
/// in isolation, and the isolated rate `iso_m` behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FtfReference<'a> {
    /// Gavel's code (`finish_time_fairness.py`, `FinishTimeFairnessPolicyWithPerf`):
    /// `D_m = C_m + R_m / iso_m`, with `iso_m` the job's rate under Gavel's `IsolatedPolicy`
    /// ([`gavel_isolated_allocation`]) and `C_m` its cumulative isolated time so far (`cumulative`,
    /// kept by the caller: each recomputation adds the steps done since the previous one
    /// divided by the previous `iso_m`).
    Gavel {
        /// `C_m`, seconds.
        cumulative: &'a [f64],
        /// The agnostic twin's reference type (Gavel hard-codes `v100`); `None` takes each
        /// job's fastest type.
        reference_type: Option<usize>,
    },
    /// schedlab before 2026-12-03: `D_m = t_m + R_m / iso_m`, with `iso_m` the job's rate
    /// under the agnostic max-min fairness allocation.
    Arrival,
}

impl FtfReference<'_> {
    /// The parameter's values, in the order documented.
    pub const NAMES: [&'static str; 2] = ["gavel", "arrival"];

    /// Each job's finish time in isolation `D_m`, from its isolated rate `iso_m`: its rate
    /// under the isolated allocation the iteration starts from (Gavel's `IsolatedPolicy`
    /// allocation for [`FtfReference::Gavel`], the agnostic max-min allocation for
    /// [`FtfReference::Arrival`]).
    pub(crate) fn isolated_time(&self, remaining_steps: &[f64], elapsed: &[f64], start_rates: &[f64]) -> Vec<f64> {
        let before = match self {
            FtfReference::Gavel { cumulative, .. } => cumulative,
            FtfReference::Arrival => elapsed,
        };
        (0..start_rates.len()).map(|m| before[m] + remaining_steps[m] / start_rates[m].max(f64::MIN_POSITIVE)).collect()
    }
}

/// Gavel's `IsolatedPolicy` (`policies/isolated.py`): the cluster split evenly over the `M`
/// jobs, `x_mj = N_j / (M s_m)`, each row scaled down to sum to at most 1; here with `x_mj = 0`
/// where the job cannot run (`T[m][j] = 0`), which changes no rate and makes it a feasible
/// allocation.
pub fn gavel_isolated_allocation(throughputs: &[Vec<f64>], scale_factors: &[u32], capacity: &[u32]) -> Vec<Vec<f64>> {
    let jobs = throughputs.len() as f64;
    throughputs
        .iter()
        .zip(scale_factors)
        .map(|(row, &scale)| {
            let x: Vec<f64> = capacity.iter().map(|&n| f64::from(n) / jobs / f64::from(scale)).collect();
            let row_sum = x.iter().sum::<f64>().max(1.0);
            row.iter().zip(&x).map(|(t, x)| if *t > 0.0 { x / row_sum } else { 0.0 }).collect()
        })
        .collect()
}

/// Gavel's agnostic finish-time fairness throughputs (`FinishTimeFairnessPolicy`): every type
/// at the job's throughput on `reference_type` (or, without one or where the job cannot use
/// it, its fastest type's). Gavel gives unusable types that throughput too; here they stay
/// unusable.
fn reference_throughputs(throughputs: &[Vec<f64>], reference_type: Option<usize>) -> Vec<Vec<f64>> {
    throughputs
        .iter()
        .map(|row| {
            let fastest = row.iter().copied().fold(0.0, f64::max);
            let rate = reference_type.map(|j| row[j]).filter(|rate| *rate > 0.0).unwrap_or(fastest);
            row.iter().map(|t| if *t > 0.0 { rate } else { 0.0 }).collect()
        })
        .collect()
}

/// How finish-time fairness iterates its LPs. Both start from the isolated allocation `X_0` with
/// value `rho_0 = max_m rho_m(X_0)`, solve one LP per step, take `rho_{k+1} = max_m rho_m(X_{k+1})`
/// from the step's allocation, and stop when the step proves `rho_k` optimal to `tolerance` or no
/// longer improves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FtfIteration {
    /// Dinkelbach's method, each ratio scaled by a constant: `maximise lambda` s.t.
    /// `rate_m >= lambda R_m / (rho_k D_m - t_m)` (that is, `N_m - rho_k E_m <= (1 - lambda) R_m`);
    /// `lambda <= 1` proves `rho_k` optimal. Converges linearly: about 6 LPs per allocation on
    /// Gavel's multi-GPU workload.
    Dinkelbach,
    /// The variant of Crouzeix, Ferland and Schaible (J. Optim. Theory Appl. 50, 1986), each ratio
    /// scaled by its denominator at the current allocation: `minimise s` s.t.
    /// `N_m(X) - rho_k E_m(X) <= s E_m(X_k)`, that is `maximise t = -s` s.t.
    /// `rate_m >= (R_m + t D_m rate_m(X_k)) / (rho_k D_m - t_m)`. `X_k` is feasible with `t = 0`,
    /// `t <= 0` proves `rho_k` optimal, and `t` approximates the step's decrease of `rho`.
    /// Converges superlinearly (their Theorem 4.1).
    Scaled,
}

impl FtfIteration {
    /// The parameter's values, in the order documented.
    pub const NAMES: [&'static str; 2] = ["scaled", "dinkelbach"];

    /// Reads the parameter value `scaled` or `dinkelbach`.
    pub fn parse(text: &str) -> Option<FtfIteration> {
        match text {
            "scaled" => Some(FtfIteration::Scaled),
            "dinkelbach" => Some(FtfIteration::Dinkelbach),
            _ => None,
        }
    }
}

/// The iteration of finish-time fairness, shared by the plain and space-sharing forms: from a
/// starting allocation, one max-min LP per step (see [`FtfIteration`]) until the step proves the
/// current value optimal to `tolerance`, the value stops falling, or `max_iterations` LPs have
/// been solved.
pub(crate) struct Dinkelbach<'a> {
    /// `R_m`, remaining steps.
    pub(crate) remaining_steps: &'a [f64],
    /// `t_m`, seconds since arrival.
    pub(crate) elapsed: &'a [f64],
    /// `D_m`, each job's finish time in isolation (see [`FtfReference`]).
    pub(crate) isolated_time: &'a [f64],
    /// How each step scales the ratios.
    pub(crate) iteration: FtfIteration,
    /// Stop when a step would improve `rho` by less than this factor.
    pub(crate) tolerance: f64,
    /// At most this many LPs after the start.
    pub(crate) max_iterations: usize,
}

impl Dinkelbach<'_> {
    /// Runs the iteration. `step(offset, demand)` solves `maximise t` s.t.
    /// `rate_m >= offset[m] + t demand[m]` (`offset` 0 when `None`) and returns the allocation,
    /// `t`, its statistics and each job's rate. Returns the best allocation, its `rho` and
    /// every solve's statistics (the start's first).
    pub(crate) fn run<A>(
        &self,
        start: A,
        start_rates: &[f64],
        start_stats: Option<SolveStats>,
        mut step: impl FnMut(Option<&[f64]>, &[f64]) -> Result<(A, f64, SolveStats, Vec<f64>), SolverError>,
    ) -> Result<(A, f64, Vec<SolveStats>), SolverError> {
        let (remaining, elapsed, isolated_time) = (self.remaining_steps, self.elapsed, self.isolated_time);
        let jobs = remaining.len();
        let value = |rates: &[f64]| -> f64 {
            (0..jobs)
                .filter(|&m| remaining[m] > 0.0)
                .map(|m| (elapsed[m] + remaining[m] / rates[m]) / isolated_time[m])
                .fold(0.0, f64::max)
        };
        let mut stats: Vec<SolveStats> = start_stats.into_iter().collect();
        let mut steps = 0;
        let mut best = start;
        let mut best_rates = start_rates.to_vec();
        let mut rho = value(start_rates);
        while steps < self.max_iterations && rho.is_finite() && rho > 0.0 {
            steps += 1;
            // rho_m <= rho is rate_m >= R_m / (rho D_m - t_m), the rate each job requires.
            let slack = |m: usize| (rho * isolated_time[m] - elapsed[m]).max(f64::MIN_POSITIVE);
            let active = |m: usize| remaining[m] > 0.0;
            let required: Vec<f64> = (0..jobs).map(|m| if active(m) { remaining[m] / slack(m) } else { 0.0 }).collect();
            let (allocation, t, solve_stats, rates) = match self.iteration {
                // rate_m >= lambda required_m
                FtfIteration::Dinkelbach => step(None, &required)?,
                // rate_m >= required_m + t D_m rate_m(X_k) / (rho D_m - t_m)
                FtfIteration::Scaled => {
                    let demand: Vec<f64> = (0..jobs)
                        .map(|m| if active(m) { isolated_time[m] * best_rates[m] / slack(m) } else { 0.0 })
                        .collect();
                    step(Some(&required), &demand)?
                }
            };
            stats.push(solve_stats);
            let proven = match self.iteration {
                FtfIteration::Dinkelbach => t <= 1.0 + self.tolerance,
                FtfIteration::Scaled => t <= self.tolerance * rho,
            };
            if proven {
                break;
            }
            let next = value(&rates);
            if next >= rho {
                break;
            }
            best = allocation;
            best_rates = rates;
            rho = next;
        }
        Ok((best, rho, stats))
    }
}

/// The result of [`finish_time_fairness`].
#[derive(Clone, Debug, PartialEq)]
pub struct FinishTimeFairness {
    /// `fractions[m][j]`.
    pub fractions: Vec<Vec<f64>>,
    /// The largest finish-time fairness ratio of the allocation.
    pub rho: f64,
    /// Every LP solved, in order (the isolated allocation first).
    pub solves: Vec<SolveStats>,
    /// Each job's isolated rate `iso_m` (see [`FtfReference`]).
    pub isolated_rates: Vec<f64>,
}

/// Total throughput (Gavel's `ThroughputSumWithPerf`, and `ThroughputNormalizedByCostSum` with
/// `costs`): maximise `sum_m sum_j T[m][j] X[m][j] / cost_j` under the base constraints, with
/// `cost_j = 1` when `costs` is `None`. The objective is in steps/s (per dollar-hour with
/// costs).
///
/// `required_rates[m] > 0` adds job m's SLO constraint `sum_j T[m][j] X[m][j] >= required_rates[m]`
/// (Gavel's `...PerfSLOs`: remaining steps over the time left to the deadline); 0 means none.
/// Infeasible SLOs are an error; the caller decides whether to retry without them, as Gavel does.
pub fn max_throughput(
    input: &AllocationInput,
    costs: Option<&[f64]>,
    required_rates: &[f64],
    heterogeneity_aware: bool,
    backend: Backend,
) -> Result<TimeFractions, SolverError> {
    let throughputs = effective_throughputs(input, heterogeneity_aware);
    let name = match (costs, required_rates.iter().any(|rate| *rate > 0.0)) {
        (None, false) => "max total throughput",
        (None, true) => "max total throughput with SLOs",
        (Some(_), false) => "max throughput per cost",
        (Some(_), true) => "max throughput per cost with SLOs",
    };
    let classes = JobClasses::group(&throughputs, &input.scale_factors, required_rates, None);
    let mut lp = LinearProgram::new(name, Sense::Maximize);
    let vars = classes.time_variables(&mut lp, &throughputs);
    for (row, (&m, &size)) in vars.iter().zip(classes.representatives.iter().zip(&classes.sizes)) {
        for (j, (&var, rate)) in row.iter().zip(&throughputs[m]).enumerate() {
            let cost = costs.map_or(1.0, |costs| costs[j]);
            lp.objective(var, rate / cost * size as f64);
        }
        if required_rates[m] > 0.0 {
            let terms = row.iter().zip(&input.throughputs[m]).map(|(&var, rate)| (var, *rate)).collect();
            lp.constraint(terms, Comparison::AtLeast, required_rates[m]);
        }
    }
    for (j, &gpus) in input.capacity.iter().enumerate() {
        lp.constraint(classes.capacity_terms(&vars, &input.scale_factors, j), Comparison::AtMost, f64::from(gpus));
    }
    let solution = solve(&lp, backend)?;
    let fractions = classes.expand(&vars, &solution);
    Ok(TimeFractions { fractions, objective: solution.objective, stats: solution.stats })
}

/// Inputs of the space-sharing LPs: the base inputs plus, for each job, its template and the
/// rates of every pair of templates sharing a GPU type.
#[derive(Clone, Debug, PartialEq)]
pub struct PackingInput {
    /// Throughputs alone, scale factors, weights and capacities.
    pub base: AllocationInput,
    /// Each job's template (model and scale factor), an index into `pair_rates`.
    pub templates: Vec<usize>,
    /// `pair_rates[a][b][j]`: the rates `(of a, of b)` of templates `a` and `b` sharing GPUs of
    /// type `j`; `(0, 0)` where they cannot share or the pair was not measured.
    pub pair_rates: Vec<Vec<Vec<(f64, f64)>>>,
}

/// Time fractions per type of pairs of jobs sharing GPUs: `((m, n), fractions)`, `m < n`.
pub type PairRows = Vec<((usize, usize), Vec<f64>)>;

/// A space-sharing allocation: time fractions of each job alone and of pairs of jobs sharing.
#[derive(Clone, Debug, PartialEq)]
pub struct PackedFractions {
    /// `singles[m][j]`: job `m` alone on type `j`.
    pub singles: Vec<Vec<f64>>,
    /// `((m, n), fractions)` with `m < n`: jobs `m` and `n` sharing, per type; only pairs with
    /// some time are listed.
    pub pairs: PairRows,
    /// The smallest normalised rate.
    pub objective: f64,
    /// Sizes and timings of the LP solves.
    pub stats: SolveStats,
}

/// Max-min fairness with space sharing (Gavel's `MaxMinFairnessPolicyWithPacking`): as
/// [`max_min_fairness`], with a variable for each pair of jobs of the same scale factor that can
/// share a GPU type. A job's rate counts its time alone and its time in each pair at the pair's
/// rate; its time alone and in pairs sums to at most 1; a pair uses its GPUs once.
///
/// Jobs with the same template, weight and usable types form classes; by the same symmetry
/// argument as [`JobClasses`], one variable per (class, type) and per (class pair, type)
/// suffices: a job of class `a` shares with each of the `n_b` jobs of class `b` (`n_a - 1`
/// for `b = a`) for the same fraction. Normalisation, as in Gavel's packing policies: maximise
/// `min_m s_m rate_m / (w_m sum_j T[m][j])` (the sum of the job's throughputs over the types,
/// not its throughput under the agnostic allocation, which [`max_min_fairness`] uses). Pairs
/// that do not beat time slicing on a type get no variable there (this leaves the optimum as
/// is).
pub fn max_min_fairness_packed(input: &PackingInput, backend: Backend) -> Result<PackedFractions, SolverError> {
    packed(input, PackedGoal::MaxMinFairness, backend)
}

/// Total throughput with space sharing (Gavel's `ThroughputNormalizedByCostSumWithPackingSLOs`
/// without SLOs): maximise the summed rates of every job alone and in pairs, each divided by
/// its type's cost (1 when `costs` is `None`), under the constraints of
/// [`max_min_fairness_packed`]. The objective is in steps/s (per dollar-hour with costs).
pub fn max_throughput_packed(
    input: &PackingInput,
    costs: Option<&[f64]>,
    backend: Backend,
) -> Result<PackedFractions, SolverError> {
    packed(input, PackedGoal::Throughput { costs }, backend)
}

/// What a space-sharing LP optimises.
#[derive(Clone, Copy)]
enum PackedGoal<'a> {
    /// The smallest normalised rate.
    MaxMinFairness,
    /// The summed rates divided by each type's cost.
    Throughput { costs: Option<&'a [f64]> },
}

fn packed(input: &PackingInput, goal: PackedGoal<'_>, backend: Backend) -> Result<PackedFractions, SolverError> {
    let base = &input.base;
    let jobs = base.throughputs.len();
    let types = base.capacity.len();
    // Gavel's packing policies normalise each job by the sum of its throughputs over the types
    // (`PolicyWithPacking.flatten`), not by an isolated allocation: `s_m rate_m / (w_m sum_j
    // T[m][j]) >= t`.
    let demand: Vec<f64> = match goal {
        PackedGoal::MaxMinFairness => (0..jobs)
            .map(|m| {
                let total: f64 = base.throughputs[m].iter().sum();
                base.weights[m] * total.max(f64::MIN_POSITIVE) / f64::from(base.scale_factors[m])
            })
            .collect(),
        PackedGoal::Throughput { .. } => vec![0.0; jobs],
    };
    let cost = |j: usize| match goal {
        PackedGoal::Throughput { costs: Some(costs) } => costs[j],
        _ => 1.0,
    };
    // Classes: same template, weight (in the demand) and usable types.
    let grouped = JobClasses::by_key(base.throughputs.iter().enumerate().map(|(m, row)| {
        (input.templates[m], demand[m].to_bits(), row.iter().map(|rate| *rate > 0.0).collect::<Vec<bool>>())
    }));
    let (representatives, sizes) = (&grouped.representatives, &grouped.sizes);
    let classes = representatives.len();
    let name = match goal {
        PackedGoal::MaxMinFairness => "max-min fairness (packed)",
        PackedGoal::Throughput { costs: None } => "max total throughput (packed)",
        PackedGoal::Throughput { costs: Some(_) } => "max throughput per cost (packed)",
    };
    let mut lp = LinearProgram::new(name, Sense::Maximize);
    let objective = matches!(goal, PackedGoal::MaxMinFairness).then(|| {
        let t = lp.variable(f64::NEG_INFINITY, f64::INFINITY);
        lp.objective(t, 1.0);
        t
    });
    let singles: Vec<Vec<Var>> = representatives
        .iter()
        .map(|&m| {
            base.throughputs[m].iter().map(|rate| lp.variable(0.0, if *rate > 0.0 { 1.0 } else { 0.0 })).collect()
        })
        .collect();
    // Pair variables (a <= b), per type, where both can share.
    let mut pairs: Vec<(usize, usize, Vec<Option<Var>>)> = Vec::new();
    for a in 0..classes {
        for b in a..classes {
            let (ma, mb) = (representatives[a], representatives[b]);
            if base.scale_factors[ma] != base.scale_factors[mb] || (a == b && sizes[a] < 2) {
                continue;
            }
            let vars: Vec<Option<_>> = (0..types)
                .map(|j| {
                    let (rate_a, rate_b) = input.pair_rates[input.templates[ma]][input.templates[mb]][j];
                    let (alone_a, alone_b) = (base.throughputs[ma][j], base.throughputs[mb][j]);
                    // A pair whose rates sum to at most one GPU's worth of the two jobs alone
                    // (rate_a / alone_a + rate_b / alone_b <= 1) is never better than slicing
                    // the GPU between them, which also uses less of each job's time: leaving
                    // it out does not change the optimum.
                    let gains = alone_a > 0.0 && alone_b > 0.0 && rate_a / alone_a + rate_b / alone_b > 1.0;
                    (rate_a > 0.0 && rate_b > 0.0 && gains).then(|| lp.variable(0.0, 1.0))
                })
                .collect();
            if vars.iter().any(Option::is_some) {
                pairs.push((a, b, vars));
            }
        }
    }
    let partners = |a: usize, b: usize| -> f64 { if a == b { sizes[a] as f64 - 1.0 } else { sizes[b] as f64 } };
    for a in 0..classes {
        let m = representatives[a];
        let mut time: Vec<_> = singles[a].iter().map(|&var| (var, 1.0)).collect();
        let mut rate: Vec<_> = singles[a].iter().zip(&base.throughputs[m]).map(|(&var, t)| (var, -t)).collect();
        for (pa, pb, vars) in &pairs {
            let other = match (*pa == a, *pb == a) {
                (true, _) => *pb,
                (false, true) => *pa,
                _ => continue,
            };
            let count = partners(a, other);
            for (j, var) in vars.iter().enumerate() {
                let Some(var) = var else { continue };
                let (rate_a, rate_b) =
                    input.pair_rates[input.templates[representatives[*pa]]][input.templates[representatives[*pb]]][j];
                // Within a same-class pair both jobs run at the first rate.
                let own = if *pa == a { rate_a } else { rate_b };
                time.push((*var, count));
                rate.push((*var, -own * count));
                if objective.is_none() {
                    // This class's jobs' share of the pair's throughput; the other class adds its own.
                    lp.objective(*var, sizes[a] as f64 * count * own / cost(j));
                }
            }
        }
        lp.constraint(time, Comparison::AtMost, 1.0);
        match objective {
            Some(t) => {
                rate.push((t, demand[m]));
                lp.constraint(rate, Comparison::AtMost, 0.0);
            }
            None => {
                for (j, (&var, alone)) in singles[a].iter().zip(&base.throughputs[m]).enumerate() {
                    lp.objective(var, sizes[a] as f64 * alone / cost(j));
                }
            }
        }
    }
    for j in 0..types {
        let mut terms = grouped.capacity_terms(&singles, &base.scale_factors, j);
        for (a, b, vars) in &pairs {
            if let Some(var) = vars[j] {
                let pair_count =
                    if a == b { (sizes[*a] * (sizes[*a] - 1)) as f64 / 2.0 } else { (sizes[*a] * sizes[*b]) as f64 };
                terms.push((var, f64::from(base.scale_factors[representatives[*a]]) * pair_count));
            }
        }
        lp.constraint(terms, Comparison::AtMost, f64::from(base.capacity[j]));
    }
    let solution = solve(&lp, backend)?;
    let value = |var| (solution.value(var) * 1e9).round().clamp(0.0, 1e9) / 1e9;
    let single_fractions =
        grouped.class_of.iter().map(|&class| singles[class].iter().map(|&var| value(var)).collect()).collect();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); classes];
    for (m, &class) in grouped.class_of.iter().enumerate() {
        members[class].push(m);
    }
    let mut pair_fractions = Vec::new();
    for (a, b, vars) in &pairs {
        let fractions: Vec<f64> = vars.iter().map(|var| var.map_or(0.0, value)).collect();
        if fractions.iter().all(|fraction| *fraction <= 0.0) {
            continue;
        }
        for (position, &m) in members[*a].iter().enumerate() {
            let others: &[usize] = if a == b { &members[*a][position + 1..] } else { &members[*b] };
            for &n in others {
                pair_fractions.push(((m.min(n), m.max(n)), fractions.clone()));
            }
        }
    }
    pair_fractions.sort_by_key(|entry| entry.0);
    let objective = objective.map_or(solution.objective, |t| solution.value(t));
    Ok(PackedFractions { singles: single_fractions, pairs: pair_fractions, objective, stats: solution.stats })
}

/// Jobs grouped into classes of identical LP rows: same throughputs, scale factor and demand
/// (for max-min fairness, the demand folds in the weight and equal share).
///
/// In these LPs, swapping two identical jobs' rows keeps a solution feasible and
/// its objective unchanged, and the LP is convex, so averaging over such swaps gives an optimal
/// solution in which identical jobs get identical fractions. Solving one row per class, with
/// its GPU use counted `size` times, is therefore exact, and returns what an interior-point
/// solver such as Gavel's returns anyway (the central path is symmetric). Gavel's workloads
/// draw jobs from 26 model configurations and 4 scale factors, so at most about 100 rows
/// remain however many jobs are active.
pub(crate) struct JobClasses {
    /// The first job of each class.
    pub(crate) representatives: Vec<usize>,
    /// How many jobs each class has.
    pub(crate) sizes: Vec<usize>,
    /// Each job's class.
    pub(crate) class_of: Vec<usize>,
}

impl JobClasses {
    /// Groups jobs by identical LP rows: throughputs, scale factor, demand and offset.
    fn group(throughputs: &[Vec<f64>], scale_factors: &[u32], demand: &[f64], offset: Option<&[f64]>) -> JobClasses {
        JobClasses::by_key(throughputs.iter().enumerate().map(|(m, row)| {
            let offset = offset.map_or(0, |offset| offset[m].to_bits());
            (row.iter().map(|rate| rate.to_bits()).collect::<Vec<u64>>(), scale_factors[m], demand[m].to_bits(), offset)
        }))
    }

    /// Groups jobs by a key per job, in job order; the first job of a class represents it.
    pub(crate) fn by_key<K: std::hash::Hash + Eq>(keys: impl Iterator<Item = K>) -> JobClasses {
        let mut index: HashMap<K, usize> = HashMap::new();
        let mut classes = JobClasses { representatives: Vec::new(), sizes: Vec::new(), class_of: Vec::new() };
        for (m, key) in keys.enumerate() {
            let class = *index.entry(key).or_insert_with(|| {
                classes.representatives.push(m);
                classes.sizes.push(0);
                classes.representatives.len() - 1
            });
            classes.sizes[class] += 1;
            classes.class_of.push(class);
        }
        classes
    }

    /// One variable per class and type (fixed at 0 where the class cannot run), and each
    /// class's time constraint `sum_j X[c][j] <= 1`.
    fn time_variables(&self, lp: &mut LinearProgram, throughputs: &[Vec<f64>]) -> Vec<Vec<Var>> {
        let vars: Vec<Vec<Var>> = self
            .representatives
            .iter()
            .map(|&m| throughputs[m].iter().map(|rate| lp.variable(0.0, if *rate > 0.0 { 1.0 } else { 0.0 })).collect())
            .collect();
        for row in &vars {
            lp.constraint(row.iter().map(|&var| (var, 1.0)).collect(), Comparison::AtMost, 1.0);
        }
        vars
    }

    /// The capacity terms of type `j`: each class's variable times its members' GPUs.
    pub(crate) fn capacity_terms(&self, vars: &[Vec<Var>], scale_factors: &[u32], j: usize) -> Vec<(Var, f64)> {
        vars.iter()
            .zip(self.representatives.iter().zip(&self.sizes))
            .map(|(row, (&m, &size))| (row[j], f64::from(scale_factors[m]) * size as f64))
            .collect()
    }

    /// Each job's fractions: its class's solved values, clamped to `[0, 1]`.
    fn expand(&self, vars: &[Vec<Var>], solution: &LpSolution) -> Vec<Vec<f64>> {
        self.class_of
            .iter()
            .map(|&class| vars[class].iter().map(|&var| solution.value(var).clamp(0.0, 1.0)).collect())
            .collect()
    }
}

/// Rewrites each job's time across the GPU types it can use, keeping its total, as evenly in
/// proportion to the types' capacities as the capacities allow. In the agnostic LP every type
/// is worth the same, so any split of a job's total is optimal; a simplex solver returns an
/// arbitrary vertex (one job all on V100, another all on K80), while Gavel's interior-point
/// solver (cvxpy with ECOS) returns a point in the middle of the optimal face, which spreads
/// every job over the types.
///
/// Each job starts with `total_m N_j / sum_{usable j} N_j` on each usable type. When every job
/// can use every type this already fits (type j receives `N_j / sum N` of the scaled time,
/// which the LP bounds by `sum N`). Otherwise (jobs that cannot run on some type crowd the
/// others) alternating projections fix it: scale down each type over capacity, scale each job
/// back up to its total, until both hold within 1e-9 (Bregman's cyclic projections in the
/// Kullback-Leibler sense, which keep the spread as even as the constraints allow); if that
/// does not settle in 500 rounds the LP's own split is kept and this returns false.
fn spread_over_types(
    fractions: &mut [Vec<f64>],
    throughputs: &[Vec<f64>],
    scale_factors: &[u32],
    capacity: &[u32],
) -> bool {
    let totals: Vec<f64> = fractions.iter().map(|row| row.iter().sum()).collect();
    let mut spread: Vec<Vec<f64>> = throughputs
        .iter()
        .zip(&totals)
        .map(|(rates, total)| {
            let usable: f64 =
                rates.iter().zip(capacity).filter(|(rate, _)| **rate > 0.0).map(|(_, &n)| f64::from(n)).sum();
            rates
                .iter()
                .zip(capacity)
                .map(|(rate, &n)| if *rate > 0.0 && usable > 0.0 { total * f64::from(n) / usable } else { 0.0 })
                .collect()
        })
        .collect();
    for _ in 0..500 {
        let mut worst: f64 = 0.0;
        for (j, &gpus) in capacity.iter().enumerate() {
            let used: f64 = spread.iter().zip(scale_factors).map(|(row, &s)| row[j] * f64::from(s)).sum();
            if used > f64::from(gpus) {
                worst = worst.max(used - f64::from(gpus));
                let factor = f64::from(gpus) / used;
                spread.iter_mut().for_each(|row| row[j] *= factor);
            }
        }
        for (row, &total) in spread.iter_mut().zip(&totals) {
            let sum: f64 = row.iter().sum();
            if sum > 0.0 {
                worst = worst.max((total - sum).abs());
                row.iter_mut().for_each(|fraction| *fraction *= total / sum);
            }
        }
        if worst <= 1e-9 {
            // The last row scaling may exceed a capacity by at most the tolerance: one more
            // column pass keeps every type within its capacity exactly.
            for (j, &gpus) in capacity.iter().enumerate() {
                let used: f64 = spread.iter().zip(scale_factors).map(|(row, &s)| row[j] * f64::from(s)).sum();
                if used > f64::from(gpus) {
                    spread.iter_mut().for_each(|row| row[j] *= f64::from(gpus) / used);
                }
            }
            fractions.iter_mut().zip(spread).for_each(|(row, spread)| *row = spread);
            return true;
        }
    }
    false
}

/// A split of each job's total time (`totals[m]`, summed over its row) over the types it can
/// use, within every type's capacity: maximise the time placed, `sum X[m][j]`, subject to
/// `sum_j X[m][j] <= total_m` and the capacities. When the totals satisfy the set conditions of
/// [`max_min_ratio_totals`], all of it is placed.
fn split_totals(
    name: &str,
    throughputs: &[Vec<f64>],
    totals: &[Vec<f64>],
    scale_factors: &[u32],
    capacity: &[u32],
    backend: Backend,
) -> Result<(Vec<Vec<f64>>, SolveStats), SolverError> {
    let mut lp = LinearProgram::new(format!("{name}: split over types"), Sense::Maximize);
    let vars: Vec<Vec<Var>> = throughputs
        .iter()
        .map(|row| row.iter().map(|rate| lp.variable(0.0, if *rate > 0.0 { 1.0 } else { 0.0 })).collect())
        .collect();
    for (row, total) in vars.iter().zip(totals) {
        for &var in row {
            lp.objective(var, 1.0);
        }
        lp.constraint(row.iter().map(|&var| (var, 1.0)).collect(), Comparison::AtMost, total.iter().sum());
    }
    for (j, &gpus) in capacity.iter().enumerate() {
        let terms = vars.iter().zip(scale_factors).map(|(row, &scale)| (row[j], f64::from(scale))).collect();
        lp.constraint(terms, Comparison::AtMost, f64::from(gpus));
    }
    let solution = solve(&lp, backend)?;
    let split = vars.iter().map(|row| row.iter().map(|&var| solution.value(var).clamp(0.0, 1.0)).collect()).collect();
    Ok((split, solution.stats))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    /// A 1-GPU job (3 steps/s) and a 2-GPU job (5 steps/s) on two GPUs of one type.
    fn single_and_gang_on_two_gpus() -> AllocationInput {
        AllocationInput {
            throughputs: vec![vec![3.0], vec![5.0]],
            scale_factors: vec![1, 2],
            weights: vec![1.0, 1.0],
            capacity: vec![2],
        }
    }

    #[test]
    fn the_agnostic_allocation_gives_every_job_the_same_share_of_gpus() {
        // Gavel's agnostic max-min maximises min_m s_m sum_j X[m][j] / w_m: a 1-GPU and a 2-GPU
        // job on two GPUs each get one GPU's worth, so the 1-GPU job runs all the time and the
        // 2-GPU job half the time (1 + 2 x 1/2 = 2 GPUs).
        let input = single_and_gang_on_two_gpus();
        let agnostic = max_min_fairness(&input, false, Backend::MicroLp).unwrap();
        assert!(close(agnostic.fractions[0][0], 1.0) && close(agnostic.fractions[1][0], 0.5), "{agnostic:?}");
        assert!(close(agnostic.objective, 1.0), "{agnostic:?}");
        // Aware: iso = (3 x 1, 5 x 1/2) = (3, 2.5); normalised rates s T x / iso are x0 and 4 x1.
        // x0 <= 1 caps the minimum at 1, reached with x0 = 1 and any x1 in [1/4, 1/2].
        let aware = max_min_fairness(&input, true, Backend::MicroLp).unwrap();
        assert!(close(aware.objective, 1.0) && close(aware.fractions[0][0], 1.0), "{aware:?}");
        assert!(aware.fractions[1][0] >= 0.25 - 1e-9 && aware.fractions[1][0] <= 0.5 + 1e-9, "{aware:?}");
    }

    #[test]
    fn the_totals_lp_has_the_per_type_lps_optimum_and_its_totals_split_within_capacity() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut split = 0;
        for case in 0..40 {
            let jobs = rng.random_range(2..40);
            let capacity: Vec<u32> = (0..3).map(|_| rng.random_range(1..12)).collect();
            // Agnostic rows: one rate per job on every usable type; some jobs miss a type or two.
            let throughputs: Vec<Vec<f64>> = (0..jobs)
                .map(|_| {
                    let rate = rng.random_range(0.5..4.0);
                    let usable = [1, 2, 4, 3, 5, 6, 7, 7, 7][rng.random_range(0..9)];
                    (0..3).map(|j| if usable & (1 << j) != 0 { rate } else { 0.0 }).collect()
                })
                .collect();
            let scale_factors: Vec<u32> = (0..jobs).map(|_| [1, 1, 2, 4][rng.random_range(0..4)]).collect();
            let demand: Vec<f64> = (0..jobs).map(|_| rng.random_range(0.1..3.0)).collect();
            let offset: Vec<f64> = (0..jobs).map(|_| rng.random_range(0.0..0.5)).collect();
            let offset = (case % 2 == 0).then_some(offset.as_slice());
            let per_type =
                max_min_ratio("t", &throughputs, &demand, offset, &scale_factors, &capacity, Backend::MicroLp).unwrap();
            let (mut fractions, t, _) =
                max_min_ratio_totals("t", &throughputs, &demand, offset, &scale_factors, &capacity, Backend::MicroLp)
                    .unwrap();
            assert!((t - per_type.1).abs() < 1e-6 * per_type.1.abs().max(1.0), "case {case}: {t} vs {}", per_type.1);
            if !spread_over_types(&mut fractions, &throughputs, &scale_factors, &capacity) {
                fractions =
                    split_totals("t", &throughputs, &fractions, &scale_factors, &capacity, Backend::MicroLp).unwrap().0;
                split += 1;
            }
            for (j, &gpus) in capacity.iter().enumerate() {
                let used: f64 = fractions.iter().zip(&scale_factors).map(|(row, &s)| row[j] * f64::from(s)).sum();
                assert!(used <= f64::from(gpus) + 1e-6, "case {case}: type {j} uses {used} of {gpus}");
            }
            let rates = job_rates(&throughputs, &fractions);
            for m in 0..jobs {
                assert!(fractions[m].iter().sum::<f64>() <= 1.0 + 1e-9, "case {case}");
                let needed = offset.map_or(0.0, |offset| offset[m]) + t * demand[m];
                assert!(rates[m] >= needed - 1e-5, "case {case}: job {m} runs at {} < {needed}", rates[m]);
            }
        }
        // Some tight cases need the split LP, where the spread does not settle.
        assert!(split > 0 && split < 40, "{split} of 40 cases needed the split LP");
    }

    #[test]
    fn the_agnostic_spread_respects_types_a_job_cannot_use() {
        // One GPU of type 0 and three of type 1; job 0 runs only on type 0, jobs 1-3 on both.
        // Four GPUs, four jobs: each gets all its time. Spreading in proportion to capacity
        // would put a quarter of jobs 1-3 on type 0, which job 0 fills: the spread settles
        // with job 0 on type 0 and the others on type 1.
        let input = AllocationInput {
            throughputs: vec![vec![1.0, 0.0], vec![1.0, 1.0], vec![1.0, 1.0], vec![1.0, 1.0]],
            scale_factors: vec![1; 4],
            weights: vec![1.0; 4],
            capacity: vec![1, 3],
        };
        let result = max_min_fairness(&input, false, Backend::MicroLp).unwrap();
        assert!(close(result.fractions[0][0], 1.0) && close(result.fractions[0][1], 0.0), "{result:?}");
        for row in &result.fractions[1..] {
            assert!(row[0] < 1e-6 && close(row[1], 1.0), "{result:?}");
        }
        // With two GPUs of type 0, job 0 takes one and jobs 1-3 share the other evenly.
        let input = AllocationInput { capacity: vec![2, 3], ..input };
        let result = max_min_fairness(&input, false, Backend::MicroLp).unwrap();
        assert!(close(result.fractions[0][0], 1.0), "{result:?}");
        for row in &result.fractions[1..] {
            assert!(close(row[0], 1.0 / 3.0) && close(row[1], 2.0 / 3.0), "{result:?}");
        }
    }

    #[test]
    fn two_jobs_one_gpu_share_by_normalised_throughput_and_weight() {
        // One GPU; job 0 runs at 2 steps/s, job 1 at 1. Gavel's proportional share gives each
        // job the whole type: iso = (2, 1), so the normalised rates are x0 and x1; max-min
        // gives x0 = x1 = 1/2 with objective 1/2.
        let mut input = AllocationInput {
            throughputs: vec![vec![2.0], vec![1.0]],
            scale_factors: vec![1, 1],
            weights: vec![1.0, 1.0],
            capacity: vec![1],
        };
        let result = max_min_fairness(&input, true, Backend::MicroLp).unwrap();
        assert!(close(result.fractions[0][0], 0.5) && close(result.fractions[1][0], 0.5), "{result:?}");
        assert!(close(result.objective, 0.5), "{result:?}");
        // Weight 2 on job 0: as in Gavel's code (`priority_weights` 1 / w) the weight divides
        // once: x0 / 2 = x1 with x0 + x1 = 1 gives x0 = 2/3, objective 1/3.
        input.weights = vec![2.0, 1.0];
        let result = max_min_fairness(&input, true, Backend::MicroLp).unwrap();
        assert!(close(result.fractions[0][0], 2.0 / 3.0) && close(result.objective, 1.0 / 3.0), "{result:?}");
        // The normalisation before 2026-12-03 divided by the agnostic allocation's rate, which
        // already carries the weight: agnostic max min(x0 / 2, x1) gives (2/3, 1/3), iso =
        // (4/3, 1/3); (1/2) 2 x0 / (4/3) = 3/4 x0 and 3 x1 are equal at x0 = 4/5, objective 3/5.
        let agnostic = max_min_fairness(&input, false, Backend::MicroLp).unwrap();
        assert!(close(agnostic.fractions[0][0], 2.0 / 3.0), "{agnostic:?}");
        let result =
            max_min_fairness_normalised(&input, true, Normalisation::AgnosticAllocation, Backend::MicroLp).unwrap();
        assert!(close(result.fractions[0][0], 0.8) && close(result.objective, 0.6), "{result:?}");
    }

    #[test]
    fn a_gang_is_normalised_by_its_proportional_share_as_in_gavel() {
        // Two GPUs of one type; jobs A and B run alone at 1 step/s, gang C on 2 GPUs at 2.
        // Gavel's proportional share gives every job the whole type: iso = (1, 1, 2), so the
        // normalised rates are x_A, x_B and 2 (2 x_C) / 2 = 2 x_C. With x_A + x_B + 2 x_C <= 2
        // they are equal at 2/3: x_C = 1/3.
        let input = AllocationInput {
            throughputs: vec![vec![1.0], vec![1.0], vec![2.0]],
            scale_factors: vec![1, 1, 2],
            weights: vec![1.0; 3],
            capacity: vec![2],
        };
        let result = max_min_fairness(&input, true, Backend::MicroLp).unwrap();
        assert!(close(result.objective, 2.0 / 3.0), "{result:?}");
        assert!(close(result.fractions[2][0], 1.0 / 3.0) && close(result.fractions[0][0], 2.0 / 3.0), "{result:?}");
        // Normalised by the agnostic allocation instead (x = (2/3, 2/3, 1/3), iso = 2/3 for
        // all), the gang's demand shrinks by its scale factor: 1.5 x_A = 1.5 x_B = 6 x_C gives
        // x_C = 1/5.
        let before =
            max_min_fairness_normalised(&input, true, Normalisation::AgnosticAllocation, Backend::MicroLp).unwrap();
        assert!(close(before.fractions[2][0], 0.2), "{before:?}");
    }

    /// The smallest normalised, weighted throughput of an allocation (the LP's objective):
    /// each rate over the job's rate under Gavel's proportional share.
    fn min_normalised_rate(input: &AllocationInput, fractions: &[Vec<f64>]) -> f64 {
        let total: f64 = input.capacity.iter().map(|&gpus| f64::from(gpus)).sum();
        let proportional: Vec<Vec<f64>> = input
            .throughputs
            .iter()
            .map(|_| input.capacity.iter().map(|&gpus| f64::from(gpus) / total).collect())
            .collect();
        let rate = |x: &[Vec<f64>], m: usize| input.throughputs[m].iter().zip(&x[m]).map(|(t, x)| t * x).sum::<f64>();
        (0..input.throughputs.len())
            .map(|m| {
                f64::from(input.scale_factors[m]) * rate(fractions, m) / (input.weights[m] * rate(&proportional, m))
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn heterogeneity_awareness_never_does_worse_than_the_agnostic_allocation() {
        // Three single-GPU jobs on one v100 and one k80: job 0 is 10x faster on the v100,
        // job 1 2x, job 2 not at all. The proportional share (half of each type) gives rates
        // 5.5, 1.5 and 1; the agnostic allocation (a third of each type) two thirds of that, so
        // the optimum is at least 2/3; the agnostic allocation, judged by the same measure,
        // cannot beat the aware one; both respect every constraint.
        let input = AllocationInput {
            throughputs: vec![vec![10.0, 1.0], vec![2.0, 1.0], vec![1.0, 1.0]],
            scale_factors: vec![1, 1, 1],
            weights: vec![1.0, 1.0, 1.0],
            capacity: vec![1, 1],
        };
        let aware = max_min_fairness(&input, true, Backend::MicroLp).unwrap();
        let agnostic = max_min_fairness(&input, false, Backend::MicroLp).unwrap();
        assert!(aware.objective >= 2.0 / 3.0 - 1e-9, "{aware:?}");
        assert!(close(min_normalised_rate(&input, &aware.fractions), aware.objective));
        assert!(min_normalised_rate(&input, &agnostic.fractions) <= aware.objective + 1e-9);
        for result in [&aware, &agnostic] {
            for row in &result.fractions {
                assert!(row.iter().sum::<f64>() <= 1.0 + 1e-9);
            }
            for j in 0..2 {
                assert!(result.fractions.iter().map(|row| row[j]).sum::<f64>() <= 1.0 + 1e-9);
            }
        }
        // Agnostic: every job's share of time is 2/3 (two GPUs, three jobs), which is its
        // objective, spread evenly over the two equal types: 1/3 each.
        assert!(close(agnostic.objective, 2.0 / 3.0), "{agnostic:?}");
        for row in &agnostic.fractions {
            assert!(close(row[0], 1.0 / 3.0) && close(row[1], 1.0 / 3.0), "{agnostic:?}");
        }
    }

    #[test]
    fn types_a_job_cannot_use_get_no_time() {
        let input = AllocationInput {
            throughputs: vec![vec![0.0, 1.0], vec![1.0, 1.0]],
            scale_factors: vec![1, 1],
            weights: vec![1.0, 1.0],
            capacity: vec![1, 1],
        };
        let result = max_min_fairness(&input, true, Backend::MicroLp).unwrap();
        assert_eq!(result.fractions[0][0], 0.0);
    }

    #[test]
    fn identical_jobs_share_one_lp_row_and_get_identical_fractions() {
        // Three identical jobs (2 steps/s on type 0, 1 on type 1) and one job at 1 on both, one
        // GPU of each type. Proportional share (half of each type): iso = 3/2 for the
        // identical jobs and 1 for the last.
        // Aware: the identical jobs have the comparative advantage on type 0 and take all of
        // it (a0 = 1/3 each); they take a1 each of type 1 and the last job b1 = 1 - 3 a1.
        // Equal normalised rates: (2/3 + a1) / (3/2) = b1 / 1 gives a1 = 5/33, b1 = 6/11
        // and t = 6/11.
        let input = AllocationInput {
            throughputs: vec![vec![2.0, 1.0], vec![2.0, 1.0], vec![1.0, 1.0], vec![2.0, 1.0]],
            scale_factors: vec![1, 1, 1, 1],
            weights: vec![1.0; 4],
            capacity: vec![1, 1],
        };
        let result = max_min_fairness(&input, true, Backend::MicroLp).unwrap();
        assert_eq!(result.stats.variables, 1 + 2 * 2, "one row per class: {result:?}");
        assert!(close(result.objective, 6.0 / 11.0), "{result:?}");
        assert!(close(result.fractions[2][0], 0.0) && close(result.fractions[2][1], 6.0 / 11.0), "{result:?}");
        for m in [0, 1, 3] {
            assert_eq!(result.fractions[m], result.fractions[0]);
            assert!(close(result.fractions[m][0], 1.0 / 3.0) && close(result.fractions[m][1], 5.0 / 33.0));
        }
    }

    #[test]
    fn the_structured_interior_point_reaches_the_simplex_optimum_and_ends_where_clarabel_does() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for case in 0..40 {
            let jobs = rng.random_range(1..60);
            let types = rng.random_range(1..4);
            let templates: Vec<Vec<f64>> =
                (0..5).map(|_| (0..types).map(|_| rng.random_range(0.5..20.0)).collect()).collect();
            let input = AllocationInput {
                // Half the cases draw from five templates, so that rows merge into classes.
                throughputs: (0..jobs)
                    .map(|_| match case % 2 {
                        0 => templates[rng.random_range(0..5)].clone(),
                        _ => (0..types)
                            .map(|_| if rng.random_bool(0.1) { 0.0 } else { rng.random_range(0.5..20.0) })
                            .collect(),
                    })
                    .collect(),
                scale_factors: (0..jobs).map(|_| [1, 2, 4][rng.random_range(0..3)]).collect(),
                weights: (0..jobs).map(|_| rng.random_range(0.5..2.0)).collect(),
                capacity: (0..types).map(|_| rng.random_range(1..(jobs as u32 / 2).max(2))).collect(),
            };
            let remaining: Vec<f64> = (0..jobs).map(|_| rng.random_range(1e3..1e6)).collect();
            for aware in [true, false] {
                let pairs = [
                    (
                        max_min_fairness(&input, aware, Backend::MicroLp),
                        max_min_fairness(&input, aware, Backend::MaxMinIpm),
                    ),
                    (
                        makespan(&input, &remaining, aware, Backend::MicroLp),
                        makespan(&input, &remaining, aware, Backend::MaxMinIpm),
                    ),
                ];
                for (vertex, interior) in pairs {
                    let (vertex, interior) = (vertex.unwrap(), interior.unwrap());
                    assert_eq!(interior.stats.backend, Backend::MaxMinIpm);
                    // A job that can run nowhere makes the horizon infinite in both.
                    let gap = if vertex.objective.is_infinite() && interior.objective == vertex.objective {
                        0.0
                    } else {
                        (vertex.objective - interior.objective).abs() / vertex.objective.abs().max(1e-12)
                    };
                    assert!(
                        gap < 1e-7,
                        "case {case}, aware {aware}: {} against the simplex's {}",
                        interior.objective,
                        vertex.objective
                    );
                    for (j, &gpus) in input.capacity.iter().enumerate() {
                        let used: f64 = interior
                            .fractions
                            .iter()
                            .zip(&input.scale_factors)
                            .map(|(x, &s)| x[j] * f64::from(s))
                            .sum();
                        assert!(used <= f64::from(gpus) * (1.0 + 1e-8), "case {case}: type {j} uses {used} of {gpus}");
                    }
                }
            }
        }
        // The aware LP of `the_agnostic_allocation_gives_every_job_the_same_share_of_gpus`:
        // every x1 in [1/4, 1/2] is optimal. Both interior points end at x1 = 1/2, one end of
        // the optimal segment (not its middle: where the central path leads).
        let input = single_and_gang_on_two_gpus();
        let interior = max_min_fairness(&input, true, Backend::MaxMinIpm).unwrap();
        let clarabel = max_min_fairness(&input, true, Backend::Clarabel).unwrap();
        let x1 = interior.fractions[1][0];
        assert!(
            (x1 - 0.5).abs() < 1e-6 && (x1 - clarabel.fractions[1][0]).abs() < 1e-6,
            "{interior:?} against {clarabel:?}"
        );
    }

    /// Two single-GPU jobs on one GPU of each of two types.
    fn two_by_two(rows: [[f64; 2]; 2]) -> AllocationInput {
        AllocationInput {
            throughputs: rows.iter().map(|row| row.to_vec()).collect(),
            scale_factors: vec![1, 1],
            weights: vec![1.0, 1.0],
            capacity: vec![1, 1],
        }
    }

    #[test]
    fn makespan_puts_each_job_where_the_horizon_is_shortest() {
        // Job 0: 2 steps/s on type A, 1 on B, 4 steps left. Job 1: 1 on either, 2 left.
        // Job 0's rate is at most 2 (its row sums to 1), so H >= 4 / 2 = 2, which needs job 0
        // on A full time; job 1 then needs rate 2 / 2 = 1 from B alone: x1B = 1. H = 2.
        let input = two_by_two([[2.0, 1.0], [1.0, 1.0]]);
        let result = makespan(&input, &[4.0, 2.0], true, Backend::MicroLp).unwrap();
        assert!(close(result.objective, 2.0), "{result:?}");
        assert!(close(result.fractions[0][0], 1.0) && close(result.fractions[0][1], 0.0), "{result:?}");
        assert!(close(result.fractions[1][1], 1.0) && close(result.fractions[1][0], 0.0), "{result:?}");
        // Agnostic: rates are time fractions, so job 0 needs x0 >= 4 z with x0 <= 1: H = 4.
        let agnostic = makespan(&input, &[4.0, 2.0], false, Backend::MicroLp).unwrap();
        assert!(close(agnostic.objective, 4.0), "{agnostic:?}");
        // Nothing left to do: a horizon of 0 and no error.
        assert_eq!(makespan(&input, &[0.0, 0.0], true, Backend::MicroLp).unwrap().objective, 0.0);
    }

    /// The finish-time fairness ratio of each job under an allocation, given each job's finish
    /// time in isolation `D_m`.
    fn ftf_ratios(
        input: &AllocationInput,
        isolated_time: &[f64],
        fractions: &[Vec<f64>],
        remaining: &[f64],
        elapsed: &[f64],
    ) -> Vec<f64> {
        let rate = |x: &[Vec<f64>], m: usize| input.throughputs[m].iter().zip(&x[m]).map(|(t, x)| t * x).sum::<f64>();
        (0..remaining.len()).map(|m| (elapsed[m] + remaining[m] / rate(fractions, m)) / isolated_time[m]).collect()
    }

    #[test]
    fn finish_time_fairness_reaches_the_optimum_found_by_brute_force() {
        for backend in [Backend::MicroLp, Backend::MaxMinIpm] {
            for iteration in [FtfIteration::Scaled, FtfIteration::Dinkelbach] {
                for gavel in [false, true] {
                    ftf_reaches_the_brute_force_optimum(backend, iteration, gavel);
                }
            }
        }
    }

    fn ftf_reaches_the_brute_force_optimum(backend: Backend, iteration: FtfIteration, gavel: bool) {
        let cumulative = [20.0, 5.0];
        let reference = if gavel {
            FtfReference::Gavel { cumulative: &cumulative, reference_type: None }
        } else {
            FtfReference::Arrival
        };
        let ftf = |input: &AllocationInput, remaining: &[f64], elapsed: &[f64], reference| {
            finish_time_fairness(input, remaining, elapsed, true, reference, backend, iteration, 1e-9, 50).unwrap()
        };
        // Job 0 is 4x faster on type A; job 1 runs equally on both. The isolated (agnostic
        // max-min) allocation spreads each job half and half: iso = (2.5, 1).
        // With no time elapsed, rho_1 = 1 / rate_1 >= 1 (job 1's rate is at most 1), and
        // rho = 1 is reachable: job 1 full time on B, job 0 on A at rate 4 (rho_0 = 0.625).
        // Gavel's isolated policy gives the same rates here (each job half of each GPU).
        let input = two_by_two([[4.0, 1.0], [1.0, 1.0]]);
        let result = ftf(&input, &[100.0, 50.0], &[0.0, 0.0], FtfReference::Arrival);
        assert!(close(result.rho, 1.0), "{result:?}");
        // With time elapsed the optimum is interior; compare with a grid search over every
        // allocation on a 1/40 grid (an upper bound on the optimum).
        let (remaining, elapsed) = ([400.0, 30.0], [50.0, 10.0]);
        let input = two_by_two([[3.0, 1.0], [2.0, 1.5]]);
        let result = ftf(&input, &remaining, &elapsed, reference);
        let isolated_rates = if gavel {
            // Two jobs, one GPU of each type: x = 1/2 everywhere.
            vec![2.0, 1.75]
        } else {
            let isolated = max_min_fairness(&input, false, backend).unwrap().fractions;
            (0..2).map(|m| input.throughputs[m].iter().zip(&isolated[m]).map(|(t, x)| t * x).sum()).collect()
        };
        assert_eq!(result.isolated_rates, isolated_rates);
        let before = if gavel { cumulative } else { elapsed };
        let isolated_time: Vec<f64> = (0..2).map(|m| before[m] + remaining[m] / isolated_rates[m]).collect();
        let achieved = ftf_ratios(&input, &isolated_time, &result.fractions, &remaining, &elapsed);
        assert!(close(achieved.iter().cloned().fold(0.0, f64::max), result.rho), "{achieved:?} {result:?}");
        let steps = 40;
        let mut grid_best = f64::INFINITY;
        for a0 in 0..=steps {
            for b0 in 0..=steps - a0 {
                for a1 in 0..=steps - a0 {
                    for b1 in 0..=(steps - a1).min(steps - b0) {
                        let x = |v: usize| v as f64 / steps as f64;
                        let fractions = vec![vec![x(a0), x(b0)], vec![x(a1), x(b1)]];
                        let worst = ftf_ratios(&input, &isolated_time, &fractions, &remaining, &elapsed)
                            .into_iter()
                            .fold(0.0, f64::max);
                        grid_best = grid_best.min(worst);
                    }
                }
            }
        }
        // The interior point meets its rows to ECOS's 1e-8, a simplex to rounding.
        let slack = if backend == Backend::MaxMinIpm { 1e-7 } else { 1e-9 };
        assert!(result.rho <= grid_best + slack, "LP {} vs grid {grid_best}", result.rho);
        assert!(result.rho >= grid_best - 0.02, "LP {} is far below the grid's {grid_best}", result.rho);
        assert!(
            result.solves.len() >= 2,
            "at least two LPs (with the arrival reference, the isolated one first): {result:?}"
        );
    }

    #[test]
    fn finish_time_fairness_with_the_structured_interior_point_reaches_the_simplex_optimum() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
        let mut structured_steps = 0;
        for case in 0..40 {
            let jobs = rng.random_range(2..80);
            let types = rng.random_range(1..4);
            let input = AllocationInput {
                throughputs: (0..jobs)
                    .map(|_| {
                        (0..types)
                            .map(|_| if rng.random_bool(0.1) { 0.0 } else { rng.random_range(0.5..20.0) })
                            .collect()
                    })
                    .collect(),
                scale_factors: (0..jobs).map(|_| [1, 2, 4][rng.random_range(0..3)]).collect(),
                weights: vec![1.0; jobs],
                capacity: (0..types).map(|_| rng.random_range(1..(jobs as u32 / 2).max(2))).collect(),
            };
            let remaining: Vec<f64> = (0..jobs).map(|_| rng.random_range(1e3..1e6)).collect();
            let elapsed: Vec<f64> = (0..jobs).map(|_| rng.random_range(0.0..1e5)).collect();
            let cumulative: Vec<f64> = (0..jobs).map(|_| rng.random_range(0.0..1e5)).collect();
            let iteration = [FtfIteration::Scaled, FtfIteration::Dinkelbach][case % 2];
            for aware in [true, false] {
                let reference = FtfReference::Gavel { cumulative: &cumulative, reference_type: None };
                let ftf = |backend| {
                    finish_time_fairness(&input, &remaining, &elapsed, aware, reference, backend, iteration, 1e-4, 50)
                        .unwrap()
                };
                let (vertex, interior) = (ftf(Backend::MicroLp), ftf(Backend::MaxMinIpm));
                structured_steps += interior.solves.iter().filter(|stats| stats.backend == Backend::MaxMinIpm).count();
                // Both stop within the iteration's tolerance of the optimal rho.
                assert!(
                    (vertex.rho - interior.rho).abs() <= 2e-4 * vertex.rho,
                    "case {case}, aware {aware}: rho {} against the simplex's {}",
                    interior.rho,
                    vertex.rho
                );
                for (j, &gpus) in input.capacity.iter().enumerate() {
                    let used: f64 =
                        interior.fractions.iter().zip(&input.scale_factors).map(|(x, &s)| x[j] * f64::from(s)).sum();
                    assert!(used <= f64::from(gpus) * (1.0 + 1e-8), "case {case}: type {j} uses {used} of {gpus}");
                }
            }
        }
        assert!(structured_steps >= 100, "only {structured_steps} steps were solved by the structured method");
    }

    #[test]
    fn gavels_isolated_rates_split_the_cluster_evenly_and_cap_each_row_at_one() {
        // Three jobs on 6 GPUs of type A and 3 of type B. Job 0 (1 GPU): x = (2, 1), scaled to
        // (2/3, 1/3); job 1 (2 GPUs): x = (1, 1/2), scaled to (2/3, 1/3); job 2 (4 GPUs):
        // x = (1/2, 1/4), already below 1.
        let throughputs = vec![vec![3.0, 6.0], vec![3.0, 0.0], vec![8.0, 4.0]];
        let rates = job_rates(&throughputs, &gavel_isolated_allocation(&throughputs, &[1, 2, 4], &[6, 3]));
        let expected = [3.0 * 2.0 / 3.0 + 6.0 / 3.0, 3.0 * 2.0 / 3.0, 8.0 / 2.0 + 4.0 / 4.0];
        for (rate, expected) in rates.iter().zip(expected) {
            assert!(close(*rate, expected), "{rates:?}");
        }
        // The agnostic twin plans every usable type at the reference type's throughput, or
        // the fastest where there is none or the job cannot use it.
        assert_eq!(reference_throughputs(&throughputs, Some(1)), vec![vec![6.0, 6.0], vec![3.0, 0.0], vec![4.0, 4.0]]);
        assert_eq!(reference_throughputs(&throughputs, None), vec![vec![6.0, 6.0], vec![3.0, 0.0], vec![8.0, 8.0]]);
    }

    #[test]
    fn the_scaled_iteration_reaches_dinkelbachs_optimum_in_fewer_lps() {
        // 24 jobs of 1-2 GPUs on three types of 6 GPUs, throughputs, remaining steps and ages
        // from a fixed linear congruential sequence.
        let mut state = 12345_u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let jobs = 24;
        let input = AllocationInput {
            throughputs: (0..jobs).map(|_| (0..3).map(|_| 0.2 + 2.0 * next()).collect()).collect(),
            scale_factors: (0..jobs).map(|m| 1 + (m % 2) as u32).collect(),
            weights: vec![1.0; jobs],
            capacity: vec![6, 6, 6],
        };
        let remaining: Vec<f64> = (0..jobs).map(|_| 1e3 + 1e5 * next()).collect();
        let elapsed: Vec<f64> = (0..jobs).map(|_| 1e4 * next()).collect();
        let solve = |iteration| {
            finish_time_fairness(
                &input,
                &remaining,
                &elapsed,
                true,
                FtfReference::Arrival,
                Backend::MicroLp,
                iteration,
                1e-7,
                50,
            )
            .unwrap()
        };
        let (scaled, dinkelbach) = (solve(FtfIteration::Scaled), solve(FtfIteration::Dinkelbach));
        assert!((scaled.rho - dinkelbach.rho).abs() <= 1e-5 * dinkelbach.rho, "{} vs {}", scaled.rho, dinkelbach.rho);
        assert!(
            scaled.solves.len() < dinkelbach.solves.len(),
            "scaled {} LPs, Dinkelbach {}",
            scaled.solves.len(),
            dinkelbach.solves.len()
        );
    }

    #[test]
    fn max_throughput_and_cost_pick_the_types_that_maximise_their_sum() {
        // Job 0: 3 on A, 1 on B; job 1: 2 on either. Total throughput: job 0 on A and job 1 on
        // B gives 5 (the other way gives 3).
        let input = two_by_two([[3.0, 1.0], [2.0, 2.0]]);
        let result = max_throughput(&input, None, &[0.0, 0.0], true, Backend::MicroLp).unwrap();
        assert!(close(result.objective, 5.0), "{result:?}");
        assert!(close(result.fractions[0][0], 1.0) && close(result.fractions[1][1], 1.0), "{result:?}");
        // One job alone, A four times the price of B: per dollar B is better (1 / 1 > 3 / 4).
        let single = AllocationInput {
            throughputs: vec![vec![3.0, 1.0]],
            scale_factors: vec![1],
            weights: vec![1.0],
            capacity: vec![1, 1],
        };
        let cheap = max_throughput(&single, Some(&[4.0, 1.0]), &[0.0], true, Backend::MicroLp).unwrap();
        assert!(close(cheap.fractions[0][1], 1.0) && close(cheap.objective, 1.0), "{cheap:?}");
        let fast = max_throughput(&single, None, &[0.0], true, Backend::MicroLp).unwrap();
        assert!(close(fast.fractions[0][0], 1.0) && close(fast.objective, 3.0), "{fast:?}");
    }

    /// Three jobs of one template on `gpus` GPUs of one type: 10 steps/s alone, 8 each sharing.
    pub(crate) fn identical_triple(gpus: u32) -> PackingInput {
        PackingInput {
            base: AllocationInput {
                throughputs: vec![vec![10.0]; 3],
                scale_factors: vec![1; 3],
                weights: vec![1.0; 3],
                capacity: vec![gpus],
            },
            templates: vec![0; 3],
            pair_rates: vec![vec![vec![(8.0, 8.0)]]],
        }
    }

    /// One GPU; A runs at 10 steps/s alone, B at 4; sharing, they run at `(a, b)`.
    pub(crate) fn one_gpu_pair((a, b): (f64, f64)) -> PackingInput {
        PackingInput {
            base: AllocationInput {
                throughputs: vec![vec![10.0], vec![4.0]],
                scale_factors: vec![1, 1],
                weights: vec![1.0, 1.0],
                capacity: vec![1],
            },
            templates: vec![0, 1],
            pair_rates: vec![vec![vec![(0.0, 0.0)], vec![(a, b)]], vec![vec![(b, a)], vec![(0.0, 0.0)]]],
        }
    }

    #[test]
    fn packing_shares_a_gpu_when_the_pair_beats_time_slicing() {
        // One GPU. A runs at 10 steps/s alone and 6 sharing with B; B at 4 alone, 3 sharing.
        // Gavel's packing normalisation divides each rate by the job's throughputs summed over
        // the types (10 and 4). With sA, sB alone and p shared (sA + sB + p <= 1): A's
        // normalised rate is (10 sA + 6 p) / 10 and B's (4 sB + 3 p) / 4. Time slicing alone
        // gives both 1/2; sharing all the time gives min(0.6, 0.75). Equalising with sB = 0
        // and sA = 1 - p: 1 - 0.4 p = 0.75 p, so p = 20/23, sA = 3/23 and t = 15/23 (the best
        // mix: any sB > 0 lowers A more than it raises B).
        let input = one_gpu_pair((6.0, 3.0));
        let result = max_min_fairness_packed(&input, Backend::MicroLp).unwrap();
        assert!(close(result.objective, 15.0 / 23.0), "{result:?}");
        assert_eq!(result.pairs.len(), 1, "{result:?}");
        assert_eq!(result.pairs[0].0, (0, 1));
        assert!(close(result.pairs[0].1[0], 20.0 / 23.0), "{result:?}");
        assert!(close(result.singles[0][0], 3.0 / 23.0) && close(result.singles[1][0], 0.0), "{result:?}");
        // Pairs that cannot share (rates 0) leave plain max-min fairness: both get 1/2.
        let result = max_min_fairness_packed(&one_gpu_pair((0.0, 0.0)), Backend::MicroLp).unwrap();
        assert!(result.pairs.is_empty() && close(result.objective, 0.5), "{result:?}");
    }

    #[test]
    fn an_slo_holds_a_job_to_the_rate_its_deadline_needs() {
        // Job 0: 3 on A, 1 on B; job 1: 4 on A, 1 on B; one GPU of each. Without SLOs job 1
        // takes A and job 0 takes B (total 5). If job 0 needs 2 steps/s, B alone is not enough:
        // with x0A + x0B <= 1, 3 x0A + x0B >= 2 needs x0A >= 1/2, so job 0 gets half of each
        // and job 1 the other halves: total 1.5 + 0.5 + 2 + 0.5 = 4.5.
        let input = two_by_two([[3.0, 1.0], [4.0, 1.0]]);
        let free = max_throughput(&input, None, &[0.0, 0.0], true, Backend::MicroLp).unwrap();
        assert!(close(free.objective, 5.0) && close(free.fractions[0][1], 1.0), "{free:?}");
        let result = max_throughput(&input, None, &[2.0, 0.0], true, Backend::MicroLp).unwrap();
        assert!(close(result.objective, 4.5), "{result:?}");
        assert!(close(result.fractions[0][0], 0.5) && close(result.fractions[0][1], 0.5), "{result:?}");
        // 3.5 steps/s cannot be reached (job 0's time sums to at most 1): infeasible, an error.
        let error = max_throughput(&input, None, &[3.5, 0.0], true, Backend::MicroLp).unwrap_err();
        assert_eq!(error.failure, schedlab_solver::Failure::Infeasible);
    }

    #[test]
    fn packed_throughput_shares_a_gpu_only_when_the_pair_does_more_work() {
        // One GPU. A alone 10 steps/s, B alone 4. Sharing at (6, 3) gives 9 < 10: A runs alone,
        // objective 10. Sharing at (8, 4) gives 12 > 10: the pair runs all the time.
        let input = one_gpu_pair((6.0, 3.0));
        let alone = max_throughput_packed(&input, None, Backend::MicroLp).unwrap();
        assert!(close(alone.objective, 10.0) && close(alone.singles[0][0], 1.0) && alone.pairs.is_empty(), "{alone:?}");
        let shared = max_throughput_packed(&one_gpu_pair((8.0, 4.0)), None, Backend::MicroLp).unwrap();
        assert!(close(shared.objective, 12.0), "{shared:?}");
        assert_eq!(shared.pairs.len(), 1);
        assert!(close(shared.pairs[0].1[0], 1.0), "{shared:?}");
        // Three identical jobs (10 alone, 8 each when sharing) on two GPUs: by symmetry each job
        // gets s alone and p with each of the other two. Time: s + 2p <= 1; GPUs: 3s + 3p <= 2.
        // Work 30 s + 3 x 16 p is largest at the vertex s = p = 1/3: 10 + 16 = 26 (the
        // vertices (0, 1/2) and (2/3, 0) give 24 and 20).
        let result = max_throughput_packed(&identical_triple(2), None, Backend::MicroLp).unwrap();
        assert!(close(result.objective, 26.0), "{result:?}");
        assert_eq!(result.pairs.len(), 3, "same-class pairs: {result:?}");
    }
}

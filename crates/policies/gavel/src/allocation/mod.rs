//! Allocation LPs: the fraction of time `X[m][j]` each job `m` should spend on each GPU type `j`.

use schedlab_solver::max_min::{MaxMinRatio, solve_max_min_ratio};
use schedlab_solver::{Backend, Comparison, Failure, LinearProgram, Sense, SolveStats, SolverError, Var, solve};

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

mod ftf;
mod job_classes;
pub mod packing;
mod throughput;

pub(crate) use job_classes::JobClasses;

pub(crate) use ftf::Dinkelbach;
pub use ftf::{FinishTimeFairness, FtfIteration, FtfReference, finish_time_fairness, gavel_isolated_allocation};
pub use packing::{PackedFractions, PackingInput, PairRows, max_min_fairness_packed, max_throughput_packed};
pub use throughput::max_throughput;

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

    pub(crate) fn close(a: f64, b: f64) -> bool {
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
    pub(crate) fn two_by_two(rows: [[f64; 2]; 2]) -> AllocationInput {
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
}

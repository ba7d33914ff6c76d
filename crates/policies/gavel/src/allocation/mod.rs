//! Allocation LPs: the fraction of time `X[m][j]` each job `m` should spend on each GPU type `j`.

use schedlab_solver::{Backend, SolveStats, SolverError};

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
            let RatioSolution { fractions: mut isolated, ratio: agnostic_objective, stats: agnostic_stats } =
                RatioProblem {
                    name: "max-min fairness (agnostic)",
                    throughputs: &usable,
                    demand: &demand,
                    offset: None,
                    scale_factors: &input.scale_factors,
                    capacity: &input.capacity,
                }
                .solve(backend)?;
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
    let RatioSolution { fractions, ratio: objective, mut stats } = RatioProblem {
        name: "max-min fairness",
        throughputs: &input.throughputs,
        demand: &demand,
        offset: None,
        scale_factors: &input.scale_factors,
        capacity: &input.capacity,
    }
    .solve(backend)?;
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
    let RatioSolution { fractions, ratio: z, stats } = RatioProblem {
        name,
        throughputs: &throughputs,
        demand: remaining_steps,
        offset: None,
        scale_factors: &input.scale_factors,
        capacity: &input.capacity,
    }
    .solve(backend)?;
    let horizon = if remaining_steps.iter().all(|steps| *steps <= 0.0) { 0.0 } else { 1.0 / z.max(0.0) };
    Ok(TimeFractions { fractions, objective: horizon, stats })
}

mod ftf;
mod job_classes;
pub mod packing;
mod ratio;
mod spread;
mod throughput;

pub(crate) use ratio::has_rate_row;
use ratio::{MAX_TYPES_FOR_TOTALS, RatioProblem, RatioSolution};
use spread::{split_totals, spread_over_types};

pub(crate) use job_classes::JobClasses;

pub(crate) use ftf::Dinkelbach;
pub use ftf::{FinishTimeFairness, FtfIteration, FtfReference, finish_time_fairness, gavel_isolated_allocation};
pub use packing::{PackedFractions, PackingInput, PairRows, max_min_fairness_packed, max_throughput_packed};
pub use throughput::max_throughput;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    /// A 1-GPU job (3 steps/s) and a 2-GPU job (5 steps/s) on two GPUs of one type.
    pub(crate) fn single_and_gang_on_two_gpus() -> AllocationInput {
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

//! Finish-time fairness: the iterated LPs of Gavel's `FinishTimeFairnessPolicy`.

use super::*;

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
    // (`RatioProblem::solve_totals`, one variable per job instead of one per job and type). The
    // structured interior point takes the per-type program at about the cost of the totals.
    let by_totals =
        !heterogeneity_aware && input.capacity.len() <= MAX_TYPES_FOR_TOTALS && backend != Backend::MaxMinIpm;
    let (mut best, rho, mut solves) =
        dinkelbach.run(start, &start_rates, start_stats, |offset: Option<&[f64]>, demand: &[f64]| {
            let problem = RatioProblem {
                name,
                throughputs: &throughputs,
                demand,
                offset,
                scale_factors: &input.scale_factors,
                capacity: &input.capacity,
            };
            let RatioSolution { fractions, ratio: t, stats: step } =
                if by_totals { problem.solve_totals(backend)? } else { problem.solve(backend)? };
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::allocation::tests::{close, two_by_two};

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
}

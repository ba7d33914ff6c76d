//! A dedicated interior-point solver for max-min ratio LPs, the shape of Gavel's max-min
//! fairness and makespan allocations and of each step of its finish-time fairness:
//!
//! ```text
//! maximise t  subject to  sum_j R[m][j] x[m][j] >= o[m] + t d[m]   (every job m)
//!                         sum_j x[m][j] <= 1                       (every job m)
//!                         sum_m a[m] x[m][j] <= N[j]               (every type j)
//!                         x >= 0, x[m][j] = 0 where R[m][j] = 0
//! ```
//!
//! The offsets `o` are 0 for max-min fairness and makespan; the scaled step of finish-time
//! fairness sets them (each job's required rate).
//!
//! Each job's variables meet only its own two rows and the few capacity rows, so the normal
//! equations of an interior-point method are 2x2 blocks, one per job, bordered by one row per
//! type and one for `t`. Eliminating the blocks leaves a dense system of (types + 1) unknowns:
//! an iteration costs O(jobs x types^2) where a general solver factors a sparse matrix of all
//! jobs. The method is Mehrotra's predictor-corrector (Nocedal and Wright, *Numerical
//! Optimization*, 2nd ed., Algorithm 14.3, with its starting point, section 14.2) on the
//! program in standard form. Like cvxpy's ECOS, which Gavel uses, it follows the central
//! path, so where the optimum is not unique it returns the point that path leads to, in
//! general inside the optimal face where a simplex method returns a vertex.

use crate::{Backend, Failure, SolveStats, SolverError};
use std::time::Instant;

/// A max-min ratio LP (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct MaxMinRatio<'a> {
    /// Names the program in errors.
    pub name: &'a str,
    /// `rates[m][j]`: job `m`'s rate on type `j` (at least 0; 0: the job cannot use the type).
    pub rates: &'a [Vec<f64>],
    /// `demand[m]`: the rate job `m` needs per unit of `t` (at least 0; 0: no demand row).
    pub demand: &'a [f64],
    /// `offset[m]`: the rate job `m` needs at `t = 0` (at least 0; `None`: all 0).
    ///
    /// Without offsets `t >= 0` holds at every optimum, and the method keeps `t >= 0`. With
    /// offsets it keeps `t >= -T`, `T` the largest `t` any job allows on its own without them
    /// (`min_m max_j R[m][j] / d[m]`), where a general method leaves `t` free: so the program
    /// has interior points even when the offsets are met only on a face (the scaled step of
    /// finish-time fairness once its allocation is optimal, `t = 0`).
    pub offset: Option<&'a [f64]>,
    /// `gpu_use[m]`: GPUs of every type that one unit of job `m`'s time takes (its scale
    /// factor, times the jobs its row stands for).
    pub gpu_use: &'a [f64],
    /// `capacity[j]`: GPUs of type `j`.
    pub capacity: &'a [f64],
}

/// An optimal solution of a [`MaxMinRatio`] program.
#[derive(Clone, Debug, PartialEq)]
pub struct MaxMinSolution {
    /// `x[m][j]`: non-negative, each row summing to at most 1, each type within its capacity
    /// (an interior point meets its rows only to its tolerance; these are scaled down by as
    /// much, at most about 1e-9 relative).
    pub fractions: Vec<Vec<f64>>,
    /// The optimal `t`.
    pub ratio: f64,
    /// Interior-point iterations taken (0 when the optimum needed none).
    pub iterations: usize,
    /// Sizes (of the program as an LP: one variable per usable pair and `t`, two rows per job
    /// and one per type) and timings.
    pub stats: SolveStats,
}

/// Relative primal and dual infeasibility and duality gap at which the method stops (ECOS's
/// default `feastol`, `abstol` and `reltol`).
const TOLERANCE: f64 = 1e-8;
/// Average complementarity below which no further step can help: the method has stalled at
/// the rounding floor of its linear algebra short of [`TOLERANCE`].
const STALLED: f64 = 1e-24;
/// Iterations after which the method gives up (it takes 6-16 on the policy-runtime bench's
/// instances and 8 on average on random ones).
const MAX_ITERATIONS: usize = 200;
/// Fraction of the way to the boundary that a step goes.
const STEP_TO_BOUNDARY: f64 = 0.995;
/// Rounds of iterative refinement of a solve at most.
const REFINEMENTS: usize = 2;
/// A solve whose residual is below this fraction of its right-hand side is not refined.
const REFINED: f64 = 1e-10;
/// A job's block whose determinant is below this fraction of the product of its diagonal
/// keeps its rows in the dense system (see `Blocks::factor`).
const DEGENERATE_BLOCK: f64 = 1e-8;

/// Solves `problem` with the structured interior-point method.
///
/// Programs without offsets whose optimum is `t = 0` for lack of anything to balance (no
/// positive demand), or because a job with demand can use no type with capacity, return `t = 0`
/// and no time for any job. With offsets, a job that cannot reach its offset even with all of its
/// time (beyond the tolerance) is [`Failure::Infeasible`], and the same two cases are
/// [`Failure::Unusable`] (a point at `t = 0` must meet the offsets): the caller solves them with
/// a general method. An input that is not finite and non-negative is a
/// [`Failure::Unusable`] error naming the entry; not converging within 200 iterations, or
/// stalling short of the tolerances (an infeasible program with offsets ends so too), is
/// [`Failure::StoppedShort`].
pub fn solve_max_min_ratio(problem: &MaxMinRatio<'_>) -> Result<MaxMinSolution, SolverError> {
    let started = Instant::now();
    let jobs = problem.rates.len();
    let types = problem.capacity.len();
    let usable_pairs = problem.rates.iter().flatten().filter(|rate| **rate > 0.0).count();
    let fail = |failure: Failure, reason: String| SolverError {
        name: problem.name.to_string(),
        variables: usable_pairs + 1,
        constraints: 2 * jobs + types,
        backend: Backend::MaxMinIpm,
        failure,
        reason,
    };
    problem.check().map_err(|reason| fail(Failure::Unusable, reason))?;
    let mut fractions = vec![vec![0.0; types]; jobs];
    let stats = |solve_time| SolveStats {
        backend: Backend::MaxMinIpm,
        variables: usable_pairs + 1,
        constraints: 2 * jobs + types,
        build_time: std::time::Duration::ZERO,
        solve_time,
        fell_back: false,
    };
    let Some(blocks) = Blocks::new(problem).map_err(|(failure, reason)| fail(failure, reason))? else {
        return Ok(MaxMinSolution { fractions, ratio: 0.0, iterations: 0, stats: stats(started.elapsed()) });
    };
    let (z, iterations) = blocks.interior_point().map_err(|reason| fail(Failure::StoppedShort, reason))?;
    for (k, &(m, j)) in blocks.pairs.iter().enumerate() {
        fractions[m][j] = z[k].max(0.0);
    }
    make_feasible(problem, &mut fractions);
    let ratio = (z[blocks.t()] - blocks.t_shift) * blocks.t_scale;
    Ok(MaxMinSolution { fractions, ratio, iterations, stats: stats(started.elapsed()) })
}

/// Scales down each row of `fractions` that sums to more than 1, then each type's column
/// that uses more than its capacity, so that the point is feasible exactly.
fn make_feasible(problem: &MaxMinRatio<'_>, fractions: &mut [Vec<f64>]) {
    for row in fractions.iter_mut() {
        let total: f64 = row.iter().sum();
        if total > 1.0 {
            row.iter_mut().for_each(|x| *x /= total);
        }
    }
    for (j, &gpus) in problem.capacity.iter().enumerate() {
        let used: f64 = fractions.iter().zip(problem.gpu_use).map(|(row, used)| row[j] * used).sum();
        if used > gpus {
            fractions.iter_mut().for_each(|row| row[j] *= gpus / used);
        }
    }
}

impl MaxMinRatio<'_> {
    /// Job `m`'s offset (0 without offsets).
    fn offset_of(&self, m: usize) -> f64 {
        self.offset.map_or(0.0, |offset| offset[m])
    }

    /// Every entry must be finite and non-negative and the rows as long as promised.
    fn check(&self) -> Result<(), String> {
        let jobs = self.rates.len();
        if self.demand.len() != jobs || self.gpu_use.len() != jobs {
            return Err(format!(
                "{jobs} rows of rates but {} demands and {} GPU uses",
                self.demand.len(),
                self.gpu_use.len()
            ));
        }
        if let Some(offset) = self.offset
            && offset.len() != jobs
        {
            return Err(format!("{jobs} rows of rates but {} offsets", offset.len()));
        }
        let valid = |value: f64| value.is_finite() && value >= 0.0;
        for (m, row) in self.rates.iter().enumerate() {
            if row.len() != self.capacity.len() {
                return Err(format!("job {m} has {} rates for {} types", row.len(), self.capacity.len()));
            }
            if let Some(j) = row.iter().position(|rate| !valid(*rate)) {
                return Err(format!("job {m}'s rate on type {j} is {}, expected a finite number >= 0", row[j]));
            }
            let offset = self.offset_of(m);
            for (what, value) in [("demand", self.demand[m]), ("GPU use", self.gpu_use[m]), ("offset", offset)] {
                if !valid(value) {
                    return Err(format!("job {m}'s {what} is {value}, expected a finite number >= 0"));
                }
            }
        }
        if let Some(j) = self.capacity.iter().position(|gpus| !valid(*gpus)) {
            return Err(format!("type {j}'s capacity is {}, expected a finite number >= 0", self.capacity[j]));
        }
        Ok(())
    }
}

mod blocks;
mod interior_point;

use blocks::Blocks;

/// The largest `alpha` in `[0, 1]` with `v + alpha dv >= 0`.
fn longest_step(v: &[f64], dv: &[f64]) -> f64 {
    v.iter().zip(dv).filter(|(_, dv)| **dv < 0.0).map(|(v, dv)| -v / dv).fold(1.0, f64::min)
}

/// The largest absolute entry.
fn max_abs(values: &[f64]) -> f64 {
    values.iter().fold(0.0, |max, value| max.max(value.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Comparison, LinearProgram, Sense, Var, solve};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The same program as a general LP.
    fn as_lp(problem: &MaxMinRatio<'_>) -> (LinearProgram, Var, Vec<Vec<Var>>) {
        let mut lp = LinearProgram::new(problem.name, Sense::Maximize);
        let t = lp.variable(f64::NEG_INFINITY, f64::INFINITY);
        lp.objective(t, 1.0);
        let vars: Vec<Vec<Var>> = problem
            .rates
            .iter()
            .map(|row| row.iter().map(|rate| lp.variable(0.0, if *rate > 0.0 { 1.0 } else { 0.0 })).collect())
            .collect();
        for (m, row) in vars.iter().enumerate() {
            lp.constraint(row.iter().map(|&var| (var, 1.0)).collect(), Comparison::AtMost, 1.0);
            let offset = problem.offset_of(m);
            if problem.demand[m] > 0.0 || offset > 0.0 {
                let mut terms: Vec<_> = row.iter().zip(&problem.rates[m]).map(|(&var, rate)| (var, -rate)).collect();
                terms.push((t, problem.demand[m]));
                lp.constraint(terms, Comparison::AtMost, -offset);
            }
        }
        if problem.demand.iter().all(|demand| *demand <= 0.0) {
            lp.constraint(vec![(t, 1.0)], Comparison::AtMost, 0.0);
        }
        for (j, &gpus) in problem.capacity.iter().enumerate() {
            let terms = vars.iter().zip(problem.gpu_use).map(|(row, &used)| (row[j], used)).collect();
            lp.constraint(terms, Comparison::AtMost, gpus);
        }
        (lp, t, vars)
    }

    struct Instance {
        rates: Vec<Vec<f64>>,
        demand: Vec<f64>,
        gpu_use: Vec<f64>,
        capacity: Vec<f64>,
        offset: Option<Vec<f64>>,
    }

    impl Instance {
        fn problem(&self) -> MaxMinRatio<'_> {
            MaxMinRatio {
                name: "test",
                rates: &self.rates,
                demand: &self.demand,
                offset: self.offset.as_deref(),
                gpu_use: &self.gpu_use,
                capacity: &self.capacity,
            }
        }

        /// Offsets that a feasible point meets with room `1 - share` to spare, as in the
        /// scaled step of finish-time fairness (there, the current allocation meets them).
        fn with_offsets_met_by_a_feasible_point(mut self, rng: &mut ChaCha8Rng, share: f64) -> Instance {
            let mut point: Vec<Vec<f64>> = self
                .rates
                .iter()
                .map(|row| row.iter().map(|rate| if *rate > 0.0 { rng.random_range(0.0..1.0) } else { 0.0 }).collect())
                .collect();
            let problem = self.problem();
            make_feasible(&problem, &mut point);
            let offsets = point
                .iter()
                .zip(&self.rates)
                .map(|(row, rates)| share * row.iter().zip(rates).map(|(x, rate)| x * rate).sum::<f64>())
                .collect();
            self.offset = Some(offsets);
            self
        }
    }

    /// Random jobs on `types` types, some types unusable by some jobs, some jobs without
    /// demand, scale factors 1-8; with `wide`, demands spread over eight orders of magnitude
    /// (as remaining steps in makespan LPs).
    fn random_instance(rng: &mut ChaCha8Rng, jobs: usize, types: usize, wide: bool) -> Instance {
        let rates = (0..jobs)
            .map(|_| {
                let mut row: Vec<f64> =
                    (0..types).map(|_| if rng.random_bool(0.15) { 0.0 } else { rng.random_range(0.5..50.0) }).collect();
                if row.iter().all(|rate| *rate == 0.0) {
                    row[0] = 1.0;
                }
                row
            })
            .collect();
        let demand = (0..jobs)
            .map(|_| match (rng.random_bool(0.1), wide) {
                (true, _) => 0.0,
                (false, true) => 10f64.powf(rng.random_range(-1.0..7.0)),
                (false, false) => rng.random_range(0.1..1e3),
            })
            .collect();
        let gpu_use = (0..jobs).map(|_| f64::from([1u32, 2, 4, 8][rng.random_range(0..4)])).collect();
        let capacity = (0..types).map(|_| f64::from(rng.random_range(1u32..(jobs as u32).max(2)))).collect();
        Instance { rates, demand, gpu_use, capacity, offset: None }
    }

    /// Checks feasibility within `tolerance` and returns the smallest ratio
    /// `(rate - offset) / demand`.
    fn check_feasible(problem: &MaxMinRatio<'_>, fractions: &[Vec<f64>], tolerance: f64) -> f64 {
        let mut ratio = f64::INFINITY;
        for (m, row) in fractions.iter().enumerate() {
            assert!(row.iter().sum::<f64>() <= 1.0 + tolerance, "job {m} has more than all of its time: {row:?}");
            for (j, x) in row.iter().enumerate() {
                assert!(*x >= 0.0 && (problem.rates[m][j] > 0.0 || *x == 0.0), "job {m} type {j}: {x}");
            }
            let rate: f64 = row.iter().zip(&problem.rates[m]).map(|(x, rate)| x * rate).sum();
            let offset = problem.offset.map_or(0.0, |offset| offset[m]);
            if problem.demand[m] > 0.0 {
                ratio = ratio.min((rate - offset) / problem.demand[m]);
            } else {
                assert!(rate >= offset * (1.0 - tolerance), "job {m} has a rate of {rate} under its offset {offset}");
            }
        }
        for (j, &gpus) in problem.capacity.iter().enumerate() {
            let used: f64 = fractions.iter().zip(problem.gpu_use).map(|(row, used)| row[j] * used).sum();
            assert!(used <= gpus * (1.0 + tolerance) + tolerance, "type {j} uses {used} of {gpus} GPUs");
        }
        ratio
    }

    #[test]
    fn input_that_is_not_a_finite_non_negative_number_is_an_error_naming_it() {
        let instance = Instance {
            rates: vec![vec![1.0, f64::NAN]],
            demand: vec![1.0],
            gpu_use: vec![1.0],
            capacity: vec![1.0, 1.0],
            offset: None,
        };
        let error = solve_max_min_ratio(&instance.problem()).unwrap_err();
        assert_eq!(error.failure, Failure::Unusable);
        assert!(error.to_string().contains("job 0's rate on type 1 is NaN"), "{error}");
        let instance = Instance { capacity: vec![1.0, -2.0], rates: vec![vec![1.0, 1.0]], ..instance };
        let error = solve_max_min_ratio(&instance.problem()).unwrap_err();
        assert!(error.to_string().contains("type 1's capacity is -2"), "{error}");
        let instance = Instance { capacity: vec![1.0, 1.0], offset: Some(vec![f64::INFINITY]), ..instance };
        let error = solve_max_min_ratio(&instance.problem()).unwrap_err();
        assert!(error.to_string().contains("job 0's offset is inf"), "{error}");
    }

    #[test]
    fn an_offset_out_of_a_jobs_reach_is_infeasible_and_one_at_its_reach_leaves_t_at_zero() {
        let instance = Instance {
            rates: vec![vec![1.0, 2.0], vec![1.0, 0.0]],
            demand: vec![1.0, 1.0],
            gpu_use: vec![1.0, 1.0],
            capacity: vec![1.0, 1.0],
            offset: Some(vec![0.0, 1.5]),
        };
        let error = solve_max_min_ratio(&instance.problem()).unwrap_err();
        assert_eq!(error.failure, Failure::Infeasible);
        assert!(error.to_string().contains("job 1 needs a rate of 1.5 but reaches at most 1"), "{error}");
        // Job 1 needs all of its time at t = 0: no t > 0 is feasible, and the point gives it all.
        let instance = Instance { offset: Some(vec![0.0, 1.0]), ..instance };
        let solved = solve_max_min_ratio(&instance.problem()).unwrap();
        assert!(solved.ratio.abs() < 1e-8 && (solved.fractions[1][0] - 1.0).abs() < 1e-8, "{solved:?}");
        // With offsets, t = 0 for lack of demand, or for a job with demand that can run
        // nowhere, needs a point that meets the offsets: left to a general method.
        let no_demand = Instance { offset: Some(vec![0.5, 0.5]), demand: vec![0.0, 0.0], ..instance };
        assert_eq!(solve_max_min_ratio(&no_demand.problem()).unwrap_err().failure, Failure::Unusable);
        let nowhere = Instance { offset: Some(vec![0.5, 0.0]), capacity: vec![0.0, 1.0], ..no_demand };
        let nowhere = Instance { demand: vec![0.0, 1.0], ..nowhere };
        assert_eq!(solve_max_min_ratio(&nowhere.problem()).unwrap_err().failure, Failure::Unusable);
    }

    #[test]
    fn matches_the_simplex_optimum_on_random_programs() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for case in 0..300 {
            let jobs = if case % 10 == 9 { rng.random_range(100..400) } else { rng.random_range(1..40) };
            let types = rng.random_range(1..5);
            let instance = random_instance(&mut rng, jobs, types, case % 2 == 1);
            let problem = instance.problem();
            let (lp, t, _) = as_lp(&problem);
            let expected = solve(&lp, Backend::MicroLp).unwrap().value(t);
            let solved = solve_max_min_ratio(&problem).unwrap();
            let achieved = check_feasible(&problem, &solved.fractions, 1e-7);
            assert!(
                (solved.ratio - expected).abs() <= 1e-7 * expected.abs().max(1e-9),
                "case {case}: ratio {} against the simplex's {expected}",
                solved.ratio
            );
            if expected > 0.0 {
                assert!((achieved - expected).abs() <= 1e-6 * expected, "case {case}: {achieved} vs {expected}");
            }
        }
    }

    #[test]
    fn matches_the_simplex_optimum_on_random_programs_with_offsets() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut solved_here = 0;
        for case in 0..300 {
            let jobs = if case % 10 == 9 { rng.random_range(100..400) } else { rng.random_range(1..40) };
            let types = rng.random_range(1..5);
            let share = [0.0, 0.5, 0.9, 0.999][case % 4];
            let instance = random_instance(&mut rng, jobs, types, case % 2 == 1)
                .with_offsets_met_by_a_feasible_point(&mut rng, share);
            let problem = instance.problem();
            let (lp, t, _) = as_lp(&problem);
            let expected = solve(&lp, Backend::MicroLp).unwrap().value(t);
            let solved = match solve_max_min_ratio(&problem) {
                Ok(solved) => solved,
                // Only where t = 0 may be the optimum (no positive demand, or a job on one type
                // that needs all of its time).
                Err(error) if error.failure == Failure::Unusable => {
                    assert!(expected <= 1e-9, "case {case}: {error} where the optimum is {expected}");
                    continue;
                }
                Err(error) => panic!("case {case}: {error}"),
            };
            solved_here += 1;
            check_feasible(&problem, &solved.fractions, 1e-7);
            // The method's tolerances hold for rows scaled by each job's largest rate, so `t` is
            // accurate to them relative to `largest rate / demand`, and with offsets met with
            // little room to spare, the optimum can be far below that.
            let t_unit = (0..jobs)
                .filter(|&m| instance.demand[m] > 0.0)
                .map(|m| instance.rates[m].iter().copied().fold(0.0, f64::max) / instance.demand[m])
                .fold(f64::INFINITY, f64::min);
            assert!(
                (solved.ratio - expected).abs() <= 1e-6 * expected.abs().max(t_unit),
                "case {case}: ratio {} against the simplex's {expected}",
                solved.ratio
            );
            // Every job gets the rate the optimum requires, to the tolerance of its row (scaled
            // by the job's largest rate).
            for (m, row) in solved.fractions.iter().enumerate() {
                let rate: f64 = row.iter().zip(&instance.rates[m]).map(|(x, rate)| x * rate).sum();
                let required = problem.offset.unwrap()[m] + expected * problem.demand[m];
                let largest = instance.rates[m].iter().copied().fold(0.0, f64::max);
                assert!(rate >= required - 1e-6 * largest, "case {case}: job {m} has a rate of {rate} of {required}");
            }
        }
        assert!(solved_here >= 250, "only {solved_here} of 300 programs were solved here");
    }
}

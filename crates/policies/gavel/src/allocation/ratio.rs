//! The max-min ratio LP that max-min fairness, makespan and each step of finish-time fairness
//! share, with its three ways to solve it: per job and type by a general LP solver, per class by
//! the solver crate's structured interior point, and per job total for agnostic rates.

use schedlab_solver::max_min::{MaxMinRatio, solve_max_min_ratio};
use schedlab_solver::{Backend, Comparison, Failure, LinearProgram, Sense, SolveStats, SolverError, Var, solve};

use super::JobClasses;

/// `maximise t` subject to `sum_j T[m][j] X[m][j] >= offset[m] + t demand[m]` for every job
/// with a rate row ([`has_rate_row`]), `X >= 0`, `X[m][j] = 0` where `T[m][j] = 0`,
/// `sum_j X[m][j] <= 1` and `sum_m s_m X[m][j] <= N_j`. Max-min fairness, makespan and each step
/// of finish-time fairness are this LP with different demands; the offset is only there in the
/// scaled step of finish-time fairness ([`super::FtfIteration::Scaled`]). The solver crate's
/// [`MaxMinRatio`] is the same program per class of identical jobs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RatioProblem<'a> {
    /// The LP's name in statistics and errors.
    pub name: &'a str,
    /// `T[m][j]`.
    pub throughputs: &'a [Vec<f64>],
    /// `demand[m]`.
    pub demand: &'a [f64],
    /// `offset[m]`, when the rows have one.
    pub offset: Option<&'a [f64]>,
    /// `s_m`.
    pub scale_factors: &'a [u32],
    /// `N_j`.
    pub capacity: &'a [u32],
}

/// A solved [`RatioProblem`].
#[derive(Clone, Debug)]
pub(crate) struct RatioSolution {
    /// `X[m][j]`.
    pub fractions: Vec<Vec<f64>>,
    /// The optimal `t`.
    pub ratio: f64,
    /// Sizes and timings of the solve.
    pub stats: SolveStats,
}

/// Whether job `m` gets the row `rate_m >= offset[m] + t demand[m]` in a max-min ratio LP: when
/// either side asks for something (the structured interior point writes the same rows).
pub(crate) fn has_rate_row(demand: &[f64], offset: Option<&[f64]>, m: usize) -> bool {
    demand[m] > 0.0 || offset.is_some_and(|offset| offset[m] > 0.0)
}

/// GPU types up to which [`RatioProblem::solve_totals`] writes one capacity row per set of types.
pub(crate) const MAX_TYPES_FOR_TOTALS: usize = 6;

impl RatioProblem<'_> {
    /// Solves the program with `backend`, one row per class of identical jobs ([`JobClasses`]).
    pub(crate) fn solve(&self, backend: Backend) -> Result<RatioSolution, SolverError> {
        let classes = JobClasses::group(self.throughputs, self.scale_factors, self.demand, self.offset);
        if backend == Backend::MaxMinIpm {
            return self.solve_structured(&classes);
        }
        let (mut lp, objective) = ratio_program(self.name);
        let vars = classes.time_variables(&mut lp, self.throughputs);
        for (row, &m) in vars.iter().zip(&classes.representatives) {
            if has_rate_row(self.demand, self.offset, m) {
                // t demand[m] - sum_j T[m][j] X[m][j] <= -offset[m]
                let mut terms: Vec<_> = row.iter().zip(&self.throughputs[m]).map(|(&var, rate)| (var, -rate)).collect();
                terms.push((objective, self.demand[m]));
                lp.constraint(terms, Comparison::AtMost, self.offset.map_or(0.0, |offset| -offset[m]));
            }
        }
        bound_when_nothing_to_balance(&mut lp, objective, classes.representatives.iter().map(|&m| self.demand[m]));
        for (j, &gpus) in self.capacity.iter().enumerate() {
            lp.constraint(classes.capacity_terms(&vars, self.scale_factors, j), Comparison::AtMost, f64::from(gpus));
        }
        let solution = solve(&lp, backend)?;
        let fractions = classes.expand(&vars, &solution);
        Ok(RatioSolution { fractions, ratio: solution.value(objective), stats: solution.stats })
    }

    /// [`RatioProblem::solve`] by the solver crate's structured interior point, one row per
    /// class. When it stops short of its tolerances, or leaves the program to a general method
    /// (offsets without positive demand, or with a job that has demand but can run nowhere), the
    /// LP is solved again with microlp, at a vertex, and the statistics say so, as for Clarabel.
    fn solve_structured(&self, classes: &JobClasses) -> Result<RatioSolution, SolverError> {
        let rates: Vec<Vec<f64>> = classes.representatives.iter().map(|&m| self.throughputs[m].clone()).collect();
        let class_demand: Vec<f64> = classes.representatives.iter().map(|&m| self.demand[m]).collect();
        let class_offset: Option<Vec<f64>> =
            self.offset.map(|offset| classes.representatives.iter().map(|&m| offset[m]).collect());
        let gpu_use: Vec<f64> = classes
            .representatives
            .iter()
            .zip(&classes.sizes)
            .map(|(&m, &size)| f64::from(self.scale_factors[m]) * size as f64)
            .collect();
        let gpus: Vec<f64> = self.capacity.iter().map(|&gpus| f64::from(gpus)).collect();
        let problem = MaxMinRatio {
            name: self.name,
            rates: &rates,
            demand: &class_demand,
            offset: class_offset.as_deref(),
            gpu_use: &gpu_use,
            capacity: &gpus,
        };
        match solve_max_min_ratio(&problem) {
            Ok(solution) => {
                let fractions = classes.class_of.iter().map(|&class| solution.fractions[class].clone()).collect();
                Ok(RatioSolution { fractions, ratio: solution.ratio, stats: solution.stats })
            }
            Err(error) if matches!(error.failure, Failure::StoppedShort | Failure::Unusable) => {
                let mut solution = self.solve(Backend::MicroLp)?;
                solution.stats.fell_back = true;
                Ok(solution)
            }
            Err(error) => Err(error),
        }
    }

    /// The program for rates that are the same on every type a job can use (agnostic
    /// throughputs), deciding each job's total time `x_m = sum_j X[m][j]` only. Totals can be
    /// split over the types within their capacities exactly when, for every set `S` of types,
    /// the jobs that can only use types in `S` fit in them:
    /// `sum_{m: U_m in S} s_m x_m <= sum_{j in S} N_j` (`U_m` the job's usable types; Gale's
    /// supply-demand theorem). So this LP has the feasible totals of the per-type LP, with one
    /// variable per job and at most `2^types - 1` capacity rows. Returns each job's total on its
    /// first usable type, for [`super::spread::spread_over_types`] to spread.
    pub(crate) fn solve_totals(&self, backend: Backend) -> Result<RatioSolution, SolverError> {
        let types = self.capacity.len();
        let usable: Vec<usize> = self
            .throughputs
            .iter()
            .map(|row| row.iter().enumerate().filter(|(_, rate)| **rate > 0.0).fold(0, |set, (j, _)| set | 1 << j))
            .collect();
        let (mut lp, objective) = ratio_program(self.name);
        let totals: Vec<Var> = usable.iter().map(|&set| lp.variable(0.0, if set == 0 { 0.0 } else { 1.0 })).collect();
        for m in 0..self.throughputs.len() {
            if has_rate_row(self.demand, self.offset, m) {
                // t demand[m] - rate_m x_m <= -offset[m], with rate_m the job's rate on any usable type
                let rate = self.throughputs[m].iter().copied().fold(0.0, f64::max);
                lp.constraint(
                    vec![(totals[m], -rate), (objective, self.demand[m])],
                    Comparison::AtMost,
                    self.offset.map_or(0.0, |offset| -offset[m]),
                );
            }
        }
        bound_when_nothing_to_balance(&mut lp, objective, self.demand.iter().copied());
        for types_in in 1..(1usize << types) {
            let terms: Vec<(Var, f64)> = (0..totals.len())
                .filter(|&m| usable[m] != 0 && usable[m] & !types_in == 0)
                .map(|m| (totals[m], f64::from(self.scale_factors[m])))
                .collect();
            if !terms.is_empty() {
                let gpus: u32 = (0..types).filter(|j| types_in & (1 << j) != 0).map(|j| self.capacity[j]).sum();
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
        Ok(RatioSolution { fractions, ratio: solution.value(objective), stats: solution.stats })
    }
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

#[cfg(test)]
mod tests {
    use super::super::spread::{split_totals, spread_over_types};
    use super::super::tests::single_and_gang_on_two_gpus;
    use super::super::*;
    use super::*;

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
            let problem = RatioProblem {
                name: "t",
                throughputs: &throughputs,
                demand: &demand,
                offset,
                scale_factors: &scale_factors,
                capacity: &capacity,
            };
            let per_type = problem.solve(Backend::MicroLp).unwrap().ratio;
            let RatioSolution { mut fractions, ratio: t, .. } = problem.solve_totals(Backend::MicroLp).unwrap();
            assert!((t - per_type).abs() < 1e-6 * per_type.abs().max(1.0), "case {case}: {t} vs {per_type}");
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
}

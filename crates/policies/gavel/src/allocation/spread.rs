//! Spreading each job's time over the GPU types it can use when every type is worth the same to
//! it (the agnostic policies), and the split LP for when the spread does not settle.

use schedlab_solver::{Backend, Comparison, LinearProgram, Sense, SolveStats, SolverError, Var, solve};

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
pub(super) fn spread_over_types(
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
/// [`super::ratio::RatioProblem::solve_totals`], all of it is placed.
pub(super) fn split_totals(
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
mod tests {
    use super::super::tests::close;
    use super::super::*;

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
}

//! Total throughput, and throughput per dollar (Gavel's `ThroughputSumWithPerf` and
//! `ThroughputNormalizedByCostSum`).

use super::*;
use schedlab_solver::{Comparison, LinearProgram, Sense, solve};

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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::allocation::tests::{close, two_by_two};

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
}

//! Allocation LPs: the fraction of time `X[m][j]` each job `m` should spend on each GPU type `j`.

use schedlab_solver::{Backend, Comparison, LinearProgram, Sense, SolveStats, SolverError, solve};

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

impl AllocationInput {
    /// Each job's throughput under an equal share of the cluster: every unit of scale gets the
    /// same fraction `N_j / sum_m s_m` of each type, scaled down so the job's fractions sum to
    /// at most 1, restricted to the types the job can run on.
    pub fn equal_share_throughputs(&self) -> Vec<f64> {
        let total_scale: f64 = self.scale_factors.iter().map(|&scale| f64::from(scale)).sum();
        let shares: Vec<f64> = self.capacity.iter().map(|&gpus| f64::from(gpus) / total_scale.max(1.0)).collect();
        self.throughputs
            .iter()
            .map(|row| {
                let usable: f64 =
                    row.iter().zip(&shares).filter(|(rate, _)| **rate > 0.0).map(|(_, share)| share).sum();
                let scale_down = usable.max(1.0);
                row.iter().zip(&shares).map(|(rate, share)| rate * share / scale_down).sum()
            })
            .collect()
    }
}

/// Max-min fairness (Gavel's LAS): maximise `min_m (s_m / w_m) sum_j T[m][j] X[m][j] / prop_m`
/// subject to `X >= 0`, `sum_j X[m][j] <= 1`, `sum_m s_m X[m][j] <= N_j`, and `X[m][j] = 0` where
/// the job cannot run. `prop_m` is the job's throughput under an equal share
/// ([`AllocationInput::equal_share_throughputs`]). With `heterogeneity_aware` false, every
/// usable throughput is taken as 1 (Gavel's agnostic twin), so `prop_m` is the job's share, and
/// when every job can use every type each job's time is spread over the types in proportion to
/// their capacity (see `spread_over_types`).
pub fn max_min_fairness(
    input: &AllocationInput,
    heterogeneity_aware: bool,
    backend: Backend,
) -> Result<TimeFractions, SolverError> {
    let throughputs: Vec<Vec<f64>> = if heterogeneity_aware {
        input.throughputs.clone()
    } else {
        input
            .throughputs
            .iter()
            .map(|row| row.iter().map(|rate| if *rate > 0.0 { 1.0 } else { 0.0 }).collect())
            .collect()
    };
    let normalised = AllocationInput { throughputs: throughputs.clone(), ..input.clone() };
    let proportional = normalised.equal_share_throughputs();
    let name = if heterogeneity_aware { "max-min fairness" } else { "max-min fairness (agnostic)" };
    let mut lp = LinearProgram::new(name, Sense::Maximize);
    let objective = lp.variable(f64::NEG_INFINITY, f64::INFINITY);
    lp.objective(objective, 1.0);
    let vars: Vec<Vec<_>> = throughputs
        .iter()
        .map(|row| row.iter().map(|rate| lp.variable(0.0, if *rate > 0.0 { 1.0 } else { 0.0 })).collect())
        .collect();
    for (m, row) in vars.iter().enumerate() {
        lp.constraint(row.iter().map(|&var| (var, 1.0)).collect(), Comparison::AtMost, 1.0);
        // t <= (s_m / (w_m prop_m)) sum_j T[m][j] X[m][j]
        let factor = f64::from(input.scale_factors[m]) / (input.weights[m] * proportional[m].max(f64::MIN_POSITIVE));
        let mut terms: Vec<_> = row.iter().zip(&throughputs[m]).map(|(&var, rate)| (var, -factor * rate)).collect();
        terms.push((objective, 1.0));
        lp.constraint(terms, Comparison::AtMost, 0.0);
    }
    for (j, &gpus) in input.capacity.iter().enumerate() {
        let terms = vars.iter().zip(&input.scale_factors).map(|(row, &scale)| (row[j], f64::from(scale))).collect();
        lp.constraint(terms, Comparison::AtMost, f64::from(gpus));
    }
    let solution = solve(&lp, backend)?;
    let mut fractions: Vec<Vec<f64>> =
        vars.iter().map(|row| row.iter().map(|&var| solution.value(var).clamp(0.0, 1.0)).collect()).collect();
    if !heterogeneity_aware && throughputs.iter().all(|row| row.iter().all(|rate| *rate > 0.0)) {
        spread_over_types(&mut fractions, &input.capacity);
    }
    Ok(TimeFractions { fractions, objective: solution.value(objective), stats: solution.stats })
}

/// Rewrites each job's time across GPU types in proportion to the types' capacities, keeping
/// its total. In the agnostic LP every type is worth the same, so any split of a job's total is
/// optimal; a simplex solver returns an arbitrary vertex (one job all on V100, another all on
/// K80), while Gavel's interior-point solver (cvxpy with ECOS) returns the centre of the optimal
/// face, which spreads every job over the types like this. Capacities stay respected: type j
/// receives `N_j / sum N` of the total scaled time, which the LP bounds by `sum N`.
fn spread_over_types(fractions: &mut [Vec<f64>], capacity: &[u32]) {
    let total: f64 = capacity.iter().map(|&gpus| f64::from(gpus)).sum();
    if total <= 0.0 {
        return;
    }
    for row in fractions.iter_mut() {
        let time: f64 = row.iter().sum();
        for (fraction, &gpus) in row.iter_mut().zip(capacity) {
            *fraction = time * f64::from(gpus) / total;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn equal_share_splits_each_type_by_scale() {
        // Two single-GPU jobs, one GPU of each of two types: each gets half of each type.
        let input = AllocationInput {
            throughputs: vec![vec![3.0, 1.0], vec![1.0, 0.0]],
            scale_factors: vec![1, 1],
            weights: vec![1.0, 1.0],
            capacity: vec![1, 1],
        };
        // Job 0: 3 x 0.5 + 1 x 0.5 = 2. Job 1 runs on type 0 only: 1 x 0.5.
        assert_eq!(input.equal_share_throughputs(), vec![2.0, 0.5]);
    }

    #[test]
    fn two_jobs_one_gpu_share_by_normalised_throughput_and_weight() {
        // One GPU; job 0 runs at 2 steps/s, job 1 at 1. Equal share gives each half the GPU:
        // prop = (1, 0.5), so the normalised rates are 2 x0 and 2 x1; max-min gives
        // x0 = x1 = 1/2 with objective 1.
        let mut input = AllocationInput {
            throughputs: vec![vec![2.0], vec![1.0]],
            scale_factors: vec![1, 1],
            weights: vec![1.0, 1.0],
            capacity: vec![1],
        };
        let result = max_min_fairness(&input, true, Backend::MicroLp).unwrap();
        assert!(close(result.fractions[0][0], 0.5) && close(result.fractions[1][0], 0.5), "{result:?}");
        assert!(close(result.objective, 1.0));
        // Weight 2 on job 0 halves its normalised rate: x0 / 1 = 2 x1 with x0 + x1 = 1 gives
        // x0 = 2/3, x1 = 1/3, objective 2/3.
        input.weights = vec![2.0, 1.0];
        let result = max_min_fairness(&input, true, Backend::MicroLp).unwrap();
        assert!(close(result.fractions[0][0], 2.0 / 3.0) && close(result.objective, 2.0 / 3.0), "{result:?}");
    }

    /// The smallest normalised, weighted throughput of an allocation (the LP's objective).
    fn min_normalised_rate(input: &AllocationInput, fractions: &[Vec<f64>]) -> f64 {
        let proportional = input.equal_share_throughputs();
        (0..input.throughputs.len())
            .map(|m| {
                let rate: f64 = input.throughputs[m].iter().zip(&fractions[m]).map(|(t, x)| t * x).sum();
                f64::from(input.scale_factors[m]) * rate / (input.weights[m] * proportional[m])
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn heterogeneity_awareness_never_does_worse_than_the_agnostic_allocation() {
        // Three single-GPU jobs on one v100 and one k80: job 0 is 10x faster on the v100,
        // job 1 2x, job 2 not at all. The equal share gives every job a normalised rate of 1,
        // so the optimum is at least 1; the agnostic allocation, judged by the same measure,
        // cannot beat the aware one; both respect every constraint.
        let input = AllocationInput {
            throughputs: vec![vec![10.0, 1.0], vec![2.0, 1.0], vec![1.0, 1.0]],
            scale_factors: vec![1, 1, 1],
            weights: vec![1.0, 1.0, 1.0],
            capacity: vec![1, 1],
        };
        let aware = max_min_fairness(&input, true, Backend::MicroLp).unwrap();
        let agnostic = max_min_fairness(&input, false, Backend::MicroLp).unwrap();
        assert!(aware.objective >= 1.0 - 1e-9, "{aware:?}");
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
        // Agnostic: every job's share of time is 2/3 (two GPUs, three jobs), objective 1, and
        // it is spread evenly over the two equal types: 1/3 each.
        assert!(close(agnostic.objective, 1.0), "{agnostic:?}");
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
}

//! Space sharing with one row per class of identical jobs: max-min fairness and total
//! throughput when pairs of jobs may share a GPU.

use crate::allocation::*;
use schedlab_solver::{Comparison, LinearProgram, Sense, Var, solve};

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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::allocation::tests::{close, two_by_two};

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

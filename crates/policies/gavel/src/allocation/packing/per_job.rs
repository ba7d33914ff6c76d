//! Space-sharing LPs whose rows are single jobs: packed makespan, packed finish-time fairness
//! and packed total throughput with SLOs.
//!
//! These policies give each job its own constraint (remaining steps, deadline), so jobs rarely
//! merge into classes, and Gavel's formulation (a variable per pair of jobs and type) grows
//! with the square of the active jobs. Ours gives each job one variable per partner
//! *template* (model and scale factor) and type instead:
//!
//! - `Q[m][l][j]`: the time job m spends on type j sharing with some job of template l.
//! - Balance, for templates `k != l`: `sum_{m in k} Q[m][l][j] = sum_{n in l} Q[n][k][j]` (the
//!   time k's jobs spend with l's is the time l's jobs spend with k's).
//! - Within a template k: `Q[m][k][j] <= sum_{n in k, n != m} Q[n][k][j]` (a job cannot share with
//!   itself).
//! - GPUs: a pair is counted once: `s sum_{m in k} Q[m][l][j]` for `k < l` and half of
//!   `s sum_{m in k} Q[m][k][j]`.
//!
//! Every per-pair allocation gives such `Q` (sum its pairs by the partner's template), and every
//! such `Q` splits back into pairs with the same times, rates and GPU use ([`split_into_pairs`]):
//! between two templates by the north-west corner rule of the transportation problem, within one
//! template by laying the jobs' times end to end on a circle of length `S` and pairing each
//! point with the point `S / 2` further on (no job's time exceeds `S / 2`, so no job meets
//! itself). The two LPs therefore have the same optimum, and ours has
//! `jobs x templates x types` pair variables rather than `jobs^2 x types`, and the split gives
//! each job at most a few pairs.

use crate::allocation::{
    AllocationInput, Dinkelbach, FtfIteration, FtfReference, JobClasses, PackedFractions, PackingInput, PairRows,
    gavel_isolated_allocation, has_rate_row, job_rates, max_min_fairness,
};
use schedlab_solver::{Backend, Comparison, LinearProgram, Sense, SolveStats, SolverError, Var, solve};
use std::collections::BTreeMap;

/// What a per-job space-sharing LP optimises.
#[derive(Clone, Copy)]
pub(crate) enum Goal<'a> {
    /// Maximise `t` such that every job with `demand[m] > 0` has
    /// `rate_m >= offset[m] + t demand[m]` (`offset` 0 when `None`).
    MaxMinRatio { demand: &'a [f64], offset: Option<&'a [f64]> },
    /// Maximise the summed rates, each divided by its type's cost (1 without costs), with
    /// `rate_m >= required[m]` for every job with `required[m] > 0`.
    Throughput { costs: Option<&'a [f64]>, required: &'a [f64] },
}

/// A per-job space-sharing allocation and each job's rate under it.
pub(crate) struct Solved {
    /// Singles and pairs, as the round mechanism takes them.
    pub(crate) fractions: PackedFractions,
    /// Each job's rate (steps/s), alone and in pairs.
    pub(crate) rates: Vec<f64>,
}

/// One variable `Q[group][partner template][type]`.
struct Shared {
    group: usize,
    partner: usize,
    gpu_type: usize,
    var: Var,
}

/// Solves a per-job space-sharing LP (see the module docs). Jobs with the same template,
/// usable types and constraint share one row.
pub(crate) fn solve_per_job(
    input: &PackingInput,
    goal: Goal<'_>,
    name: &str,
    backend: Backend,
) -> Result<Solved, SolverError> {
    let base = &input.base;
    let (jobs, types) = (base.throughputs.len(), base.capacity.len());
    let bound = |m: usize| match goal {
        Goal::MaxMinRatio { demand, .. } => demand[m],
        Goal::Throughput { required, .. } => required[m],
    };
    let offset = |m: usize| match goal {
        Goal::MaxMinRatio { offset: Some(offset), .. } => offset[m],
        _ => 0.0,
    };
    let cost = |j: usize| match goal {
        Goal::Throughput { costs: Some(costs), .. } => costs[j],
        _ => 1.0,
    };
    let groups = JobClasses::by_key((0..jobs).map(|m| {
        let usable: Vec<bool> = base.throughputs[m].iter().map(|rate| *rate > 0.0).collect();
        (input.templates[m], bound(m).to_bits(), offset(m).to_bits(), usable)
    }));
    let templates = input.pair_rates.len();
    // Each template's rate alone per type (the same for every job of the template where usable),
    // its scale factor and how many active jobs it has.
    let mut alone = vec![vec![0.0_f64; types]; templates];
    let mut scale = vec![0_u32; templates];
    let mut count = vec![0_usize; templates];
    for m in 0..jobs {
        let template = input.templates[m];
        count[template] += 1;
        scale[template] = base.scale_factors[m];
        for (best, rate) in alone[template].iter_mut().zip(&base.throughputs[m]) {
            *best = best.max(*rate);
        }
    }
    let mut lp = LinearProgram::new(name, Sense::Maximize);
    let ratio = matches!(goal, Goal::MaxMinRatio { .. }).then(|| {
        let t = lp.variable(f64::NEG_INFINITY, f64::INFINITY);
        lp.objective(t, 1.0);
        t
    });
    let singles: Vec<Vec<Var>> = groups
        .representatives
        .iter()
        .map(|&m| {
            base.throughputs[m].iter().map(|rate| lp.variable(0.0, if *rate > 0.0 { 1.0 } else { 0.0 })).collect()
        })
        .collect();
    let mut shared: Vec<Shared> = Vec::new();
    // `shared[shared_of[group]]`: the group's variables (pushed group by group).
    let mut shared_of: Vec<std::ops::Range<usize>> = Vec::with_capacity(groups.representatives.len());
    for (group, &m) in groups.representatives.iter().enumerate() {
        let first = shared.len();
        let own = input.templates[m];
        for partner in 0..templates {
            let enough = if partner == own { count[own] >= 2 } else { count[partner] >= 1 };
            if !enough || scale[partner] != scale[own] {
                continue;
            }
            for (gpu_type, &alone_partner) in alone[partner].iter().enumerate() {
                let (rate_own, rate_partner) = input.pair_rates[own][partner][gpu_type];
                let alone_own = base.throughputs[m][gpu_type];
                // As in the class LP: a pair that does not beat slicing the GPU between its two
                // jobs gets no variable (this leaves the optimum as is).
                let gains = alone_own > 0.0
                    && alone_partner > 0.0
                    && rate_own > 0.0
                    && rate_partner > 0.0
                    && rate_own / alone_own + rate_partner / alone_partner > 1.0;
                if gains {
                    shared.push(Shared { group, partner, gpu_type, var: lp.variable(0.0, 1.0) });
                }
            }
        }
        shared_of.push(first..shared.len());
    }
    let size = |group: usize| groups.sizes[group] as f64;
    let template_of = |group: usize| input.templates[groups.representatives[group]];
    let own_rate = |entry: &Shared| input.pair_rates[template_of(entry.group)][entry.partner][entry.gpu_type].0;
    for (group, &m) in groups.representatives.iter().enumerate() {
        // (variable, this job's rate on it, GPU type)
        let mut rate: Vec<(Var, f64, usize)> =
            singles[group].iter().zip(&base.throughputs[m]).enumerate().map(|(j, (&var, t))| (var, *t, j)).collect();
        for entry in &shared[shared_of[group].clone()] {
            rate.push((entry.var, own_rate(entry), entry.gpu_type));
        }
        lp.constraint(rate.iter().map(|&(var, _, _)| (var, 1.0)).collect(), Comparison::AtMost, 1.0);
        match (goal, ratio) {
            (Goal::MaxMinRatio { demand, offset: offsets }, Some(t)) if has_rate_row(demand, offsets, m) => {
                // t demand[m] - rate_m <= -offset[m]
                let mut terms: Vec<_> = rate.iter().map(|&(var, speed, _)| (var, -speed)).collect();
                terms.push((t, demand[m]));
                lp.constraint(terms, Comparison::AtMost, -offset(m));
            }
            (Goal::Throughput { required, .. }, _) => {
                for &(var, speed, gpu_type) in &rate {
                    lp.objective(var, size(group) * speed / cost(gpu_type));
                }
                if required[m] > 0.0 {
                    let terms = rate.iter().map(|&(var, speed, _)| (var, speed)).collect();
                    lp.constraint(terms, Comparison::AtLeast, required[m]);
                }
            }
            _ => {}
        }
    }
    if let (Goal::MaxMinRatio { demand, .. }, Some(t)) = (goal, ratio)
        && demand.iter().all(|d| *d <= 0.0)
    {
        // Nothing to balance: bound t so that the program stays bounded.
        lp.constraint(vec![(t, 1.0)], Comparison::AtMost, 0.0);
    }
    // Balance between templates, and no job sharing with itself within one.
    let mut by_link: BTreeMap<(usize, usize, usize), Vec<&Shared>> = BTreeMap::new();
    for entry in &shared {
        by_link.entry((template_of(entry.group), entry.partner, entry.gpu_type)).or_default().push(entry);
    }
    for (&(own, partner, gpu_type), entries) in &by_link {
        if own < partner {
            let mut terms: Vec<(Var, f64)> = entries.iter().map(|entry| (entry.var, size(entry.group))).collect();
            if let Some(back) = by_link.get(&(partner, own, gpu_type)) {
                terms.extend(back.iter().map(|entry| (entry.var, -size(entry.group))));
            }
            lp.constraint(terms, Comparison::Equal, 0.0);
        } else if own > partner && !by_link.contains_key(&(partner, own, gpu_type)) {
            let terms = entries.iter().map(|entry| (entry.var, size(entry.group))).collect();
            lp.constraint(terms, Comparison::Equal, 0.0);
        } else if own == partner {
            for entry in entries.iter().filter(|entry| groups.sizes[entry.group] == 1) {
                // 2 Q[m] - sum_n Q[n] <= 0; a group of two or more satisfies it by itself.
                let mut terms: Vec<(Var, f64)> = entries
                    .iter()
                    .map(|other| {
                        (other.var, if other.var == entry.var { 2.0 - size(other.group) } else { -size(other.group) })
                    })
                    .collect();
                terms.retain(|(_, coefficient)| *coefficient != 0.0);
                lp.constraint(terms, Comparison::AtMost, 0.0);
            }
        }
    }
    for j in 0..types {
        let mut terms = groups.capacity_terms(&singles, &base.scale_factors, j);
        for entry in shared.iter().filter(|entry| entry.gpu_type == j) {
            let pair_share = if template_of(entry.group) == entry.partner {
                0.5
            } else if template_of(entry.group) < entry.partner {
                1.0
            } else {
                0.0
            };
            if pair_share > 0.0 {
                terms.push((entry.var, f64::from(scale[entry.partner]) * size(entry.group) * pair_share));
            }
        }
        lp.constraint(terms, Comparison::AtMost, f64::from(base.capacity[j]));
    }
    let solution = solve(&lp, backend)?;
    let value = |var: Var| (solution.value(var) * 1e9).round().clamp(0.0, 1e9) / 1e9;
    let single_fractions: Vec<Vec<f64>> =
        groups.class_of.iter().map(|&group| singles[group].iter().map(|&var| value(var)).collect()).collect();
    // Each job's time with each partner template, per type.
    let mut links: Links = BTreeMap::new();
    for (m, &group) in groups.class_of.iter().enumerate() {
        for entry in &shared[shared_of[group].clone()] {
            let time = value(entry.var);
            if time > 0.0 {
                links.entry((input.templates[m], entry.partner, entry.gpu_type)).or_default().push((m, time));
            }
        }
    }
    let pairs = split_into_pairs(&links, types);
    let mut rates: Vec<f64> =
        (0..jobs).map(|m| single_fractions[m].iter().zip(&base.throughputs[m]).map(|(x, t)| x * t).sum()).collect();
    for ((a, b), fractions) in &pairs {
        for (m, partner) in [(*a, *b), (*b, *a)] {
            let speeds = &input.pair_rates[input.templates[m]][input.templates[partner]];
            rates[m] += fractions.iter().zip(speeds).map(|(x, (speed, _))| x * speed).sum::<f64>();
        }
    }
    let objective = ratio.map_or(solution.objective, |t| solution.value(t));
    let fractions = PackedFractions { singles: single_fractions, pairs, objective, stats: solution.stats };
    Ok(Solved { fractions, rates })
}

/// Each job's time with a partner template on a type: `(own template, partner template, type)`
/// to `(job, time)` in job order.
pub(crate) type Links = BTreeMap<(usize, usize, usize), Vec<(usize, f64)>>;

/// Splits each job's time with each partner template back into pairs of jobs (see the module
/// docs). `links[(k, l, j)]` lists, in job order, the jobs of template k with their time on
/// type j shared with template l. Returns `((m, n), fractions per type)`, `m < n`, in order.
pub(crate) fn split_into_pairs(links: &Links, types: usize) -> PairRows {
    let mut pairs: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
    let mut add = |m: usize, n: usize, gpu_type: usize, time: f64| {
        if m != n && time > 0.0 {
            pairs.entry((m.min(n), m.max(n))).or_insert_with(|| vec![0.0; types])[gpu_type] += time;
        }
    };
    for (&(own, partner, gpu_type), jobs) in links {
        if own < partner {
            let others = links.get(&(partner, own, gpu_type)).map_or(&[][..], Vec::as_slice);
            for (m, n, time) in north_west_corner(jobs, others) {
                add(m, n, gpu_type, time);
            }
        } else if own == partner {
            for (m, n, time) in half_circle(jobs) {
                add(m, n, gpu_type, time);
            }
        }
    }
    pairs
        .into_iter()
        .map(|(pair, fractions)| (pair, fractions.into_iter().map(|f| (f * 1e9).round() / 1e9).collect()))
        .filter(|(_, fractions): &(_, Vec<f64>)| fractions.iter().any(|f| *f > 0.0))
        .collect()
}

/// The north-west corner rule: matches two lists of (job, time) with equal totals, in order.
fn north_west_corner(left: &[(usize, f64)], right: &[(usize, f64)]) -> Vec<(usize, usize, f64)> {
    let mut matched = Vec::new();
    let (mut i, mut k) = (0, 0);
    let (mut left_rest, mut right_rest) = (left.first().map_or(0.0, |e| e.1), right.first().map_or(0.0, |e| e.1));
    while i < left.len() && k < right.len() {
        let time = left_rest.min(right_rest);
        matched.push((left[i].0, right[k].0, time));
        left_rest -= time;
        right_rest -= time;
        if left_rest <= 1e-12 {
            i += 1;
            left_rest = left.get(i).map_or(0.0, |e| e.1);
        }
        if right_rest <= 1e-12 {
            k += 1;
            right_rest = right.get(k).map_or(0.0, |e| e.1);
        }
    }
    matched
}

/// Pairs jobs of one template: their times laid end to end on a circle of length `S`, each
/// point of the first half paired with the point `S / 2` further on, which is the north-west
/// corner rule between the two halves. When no job's time exceeds `S / 2` no job meets itself.
fn half_circle(jobs: &[(usize, f64)]) -> Vec<(usize, usize, f64)> {
    let half = jobs.iter().map(|e| e.1).sum::<f64>() / 2.0;
    let (mut first, mut second) = (Vec::new(), Vec::new());
    let mut position = 0.0;
    for &(job, time) in jobs {
        let in_first = (half - position).clamp(0.0, time);
        if in_first > 0.0 {
            first.push((job, in_first));
        }
        if time - in_first > 0.0 {
            second.push((job, time - in_first));
        }
        position += time;
    }
    north_west_corner(&first, &second)
}

/// Makespan with space sharing (Gavel's `MinTotalDurationPolicyWithPacking`): the smallest
/// horizon `H` such that every job's rate alone and in pairs reaches `remaining_m / H`, solved
/// as one LP in `z = 1 / H`. The objective returned is `H` in seconds.
pub fn makespan_packed(
    input: &PackingInput,
    remaining_steps: &[f64],
    backend: Backend,
) -> Result<PackedFractions, SolverError> {
    let goal = Goal::MaxMinRatio { demand: remaining_steps, offset: None };
    let mut solved = solve_per_job(input, goal, "makespan (packed)", backend)?.fractions;
    let z = solved.objective;
    solved.objective = if remaining_steps.iter().all(|steps| *steps <= 0.0) { 0.0 } else { 1.0 / z.max(0.0) };
    Ok(solved)
}

/// Total throughput with space sharing and SLOs (Gavel's
/// `ThroughputNormalizedByCostSumWithPackingSLOs`): as
/// [`max_throughput_packed`](crate::allocation::max_throughput_packed), with
/// `rate_m >= required_rates[m]` for every job with a positive required rate. Infeasible SLOs
/// are an error; the caller decides whether to retry without them, as Gavel does.
pub fn max_throughput_packed_slos(
    input: &PackingInput,
    costs: Option<&[f64]>,
    required_rates: &[f64],
    backend: Backend,
) -> Result<PackedFractions, SolverError> {
    let name =
        if costs.is_some() { "max throughput per cost (packed, SLOs)" } else { "max total throughput (packed, SLOs)" };
    let goal = Goal::Throughput { costs, required: required_rates };
    Ok(solve_per_job(input, goal, name, backend)?.fractions)
}

/// The result of [`finish_time_fairness_packed`].
#[derive(Clone, Debug, PartialEq)]
pub struct PackedFinishTimeFairness {
    /// Singles and pairs of the best allocation found.
    pub fractions: PackedFractions,
    /// Its largest finish-time fairness ratio.
    pub rho: f64,
    /// Every LP solved, in order (the isolated allocation first).
    pub solves: Vec<SolveStats>,
    /// Each job's isolated rate `iso_m` (see [`FtfReference`]).
    pub isolated_rates: Vec<f64>,
}

/// Finish-time fairness with space sharing (Gavel's `FinishTimeFairnessPolicyWithPacking`):
/// [`finish_time_fairness`](crate::allocation::finish_time_fairness)'s iteration with each
/// step's max-min LP replaced by the per-job space-sharing LP. The iteration starts from the
/// isolated allocation without sharing (as there); `reference` defines each job's finish time
/// in isolation, from the measured throughputs without sharing, as in Gavel.
#[allow(clippy::too_many_arguments)]
pub fn finish_time_fairness_packed(
    input: &PackingInput,
    remaining_steps: &[f64],
    elapsed: &[f64],
    reference: FtfReference<'_>,
    backend: Backend,
    iteration: FtfIteration,
    tolerance: f64,
    max_iterations: usize,
) -> Result<PackedFinishTimeFairness, SolverError> {
    let base: &AllocationInput = &input.base;
    let (singles, start_stats) = match reference {
        FtfReference::Gavel { .. } => {
            (gavel_isolated_allocation(&base.throughputs, &base.scale_factors, &base.capacity), None)
        }
        FtfReference::Arrival => {
            let isolated = max_min_fairness(base, false, backend)?;
            (isolated.fractions, Some(isolated.stats))
        }
    };
    let start_rates = job_rates(&base.throughputs, &singles);
    let isolated_time = reference.isolated_time(remaining_steps, elapsed, &start_rates);
    // The start's statistics: its LP's, or none solved.
    let stats = start_stats.clone().unwrap_or(SolveStats {
        backend,
        variables: 0,
        constraints: 0,
        build_time: std::time::Duration::ZERO,
        solve_time: std::time::Duration::ZERO,
        fell_back: false,
    });
    let start = PackedFractions { singles, pairs: Vec::new(), objective: 0.0, stats };
    let dinkelbach =
        Dinkelbach { remaining_steps, elapsed, isolated_time: &isolated_time, iteration, tolerance, max_iterations };
    let (best, rho, solves) =
        dinkelbach.run(start, &start_rates, start_stats, |offset: Option<&[f64]>, demand: &[f64]| {
            let goal = Goal::MaxMinRatio { demand, offset };
            let solved = solve_per_job(input, goal, "finish-time fairness (packed)", backend)?;
            let t = solved.fractions.objective;
            let stats = solved.fractions.stats.clone();
            Ok((solved.fractions, t, stats, solved.rates))
        })?;
    let fractions = PackedFractions { objective: rho, ..best };
    Ok(PackedFinishTimeFairness { fractions, rho, solves, isolated_rates: start_rates })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::allocation::packing::classes::tests::{identical_triple, one_gpu_pair};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn pairs_between_templates_follow_the_north_west_corner() {
        // Template 0: jobs 0 (0.5) and 1 (0.25); template 1: job 2 (0.75).
        let mut links = BTreeMap::new();
        links.insert((0, 1, 0), vec![(0, 0.5), (1, 0.25)]);
        links.insert((1, 0, 0), vec![(2, 0.75)]);
        let pairs = split_into_pairs(&links, 1);
        assert_eq!(pairs, vec![((0, 2), vec![0.5]), ((1, 2), vec![0.25])]);
    }

    #[test]
    fn pairs_within_a_template_never_pair_a_job_with_itself() {
        // Times 0.5, 0.3, 0.2 (total 1, half 0.5): job 0 covers [0, 0.5) and meets [0.5, 1.0),
        // which is job 1 for 0.3 and job 2 for 0.2.
        let mut links = BTreeMap::new();
        links.insert((0, 0, 0), vec![(0, 0.5), (1, 0.3), (2, 0.2)]);
        let pairs = split_into_pairs(&links, 1);
        assert_eq!(pairs, vec![((0, 1), vec![0.3]), ((0, 2), vec![0.2])]);
        // Four equal times 0.25: jobs 0 and 1 cover the first half and meet jobs 2 and 3.
        let mut links = BTreeMap::new();
        links.insert((0, 0, 0), vec![(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]);
        let pairs = split_into_pairs(&links, 1);
        assert_eq!(pairs, vec![((0, 2), vec![0.25]), ((1, 3), vec![0.25])]);
        // Every job's pairs add up to its time.
        let mut links = BTreeMap::new();
        let times = [0.1, 0.35, 0.2, 0.15, 0.3, 0.1];
        links.insert((0, 0, 0), times.iter().copied().enumerate().collect::<Vec<_>>());
        let pairs = split_into_pairs(&links, 1);
        for (m, time) in times.iter().enumerate() {
            let got: f64 = pairs.iter().filter(|((a, b), _)| *a == m || *b == m).map(|(_, f)| f[0]).sum();
            assert!(close(got, *time), "job {m}: {got} against {time} in {pairs:?}");
        }
    }

    #[test]
    fn packed_makespan_shares_the_gpu_when_the_pair_finishes_sooner() {
        // One GPU, 24 steps left each. A: 10 alone, 6 sharing; B: 4 alone, 3 sharing.
        // Alone only: 10 a = 4 b with a + b = 1 gives 40/14 steps/s each (H = 8.4 s).
        // With p shared: maximise t s.t. 10 a + 6 p >= t, 4 b + 3 p >= t, a + b + p <= 1.
        // The duals (1/7, 6/7, 24/7) certify a = 0, p = 4/7, b = 3/7 with t = 24/7: H = 7 s.
        let result = makespan_packed(&one_gpu_pair((6.0, 3.0)), &[24.0, 24.0], Backend::MicroLp).unwrap();
        assert!(close(result.objective, 7.0), "{result:?}");
        assert_eq!(result.pairs.len(), 1);
        assert_eq!(result.pairs[0].0, (0, 1));
        assert!(close(result.pairs[0].1[0], 4.0 / 7.0), "{result:?}");
        assert!(close(result.singles[0][0], 0.0) && close(result.singles[1][0], 3.0 / 7.0), "{result:?}");
    }

    #[test]
    fn three_jobs_of_one_template_pair_up_in_turn() {
        // One GPU, three identical jobs (10 alone, 8 each sharing), 16 steps left each. Alone,
        // each gets a third of the GPU (10/3 steps/s). Sharing, each job's pair time q and single
        // time x satisfy 3x + 3q/2 <= 1 (a pair uses the GPU once): x = 0, q = 2/3 gives
        // 16/3 steps/s, so H = 3 s; the three pairs each get 1/3.
        let result = makespan_packed(&identical_triple(1), &[16.0; 3], Backend::MicroLp).unwrap();
        assert!(close(result.objective, 3.0), "{result:?}");
        let pairs: Vec<_> = result.pairs.iter().map(|(pair, f)| (*pair, (f[0] * 1e6).round() / 1e6)).collect();
        let third = (1e6_f64 / 3.0).round() / 1e6;
        assert_eq!(pairs, vec![((0, 1), third), ((0, 2), third), ((1, 2), third)]);
    }

    #[test]
    fn packed_finish_time_fairness_at_the_start_is_packed_max_min_over_the_isolated_rates() {
        // One GPU, both jobs just arrived (t = 0) with 600 steps each. A: 10 alone, 6 sharing;
        // B: 4 alone, 3 sharing. Isolated (agnostic, half the GPU each): 5 and 2 steps/s.
        // With t = 0, rho_m = iso_m / rate_m, so minimising the largest rho maximises
        // min(rate_A / 5, rate_B / 2): (10 a + 6 p) / 5 = 3 p / 2 with b = 0, a = 1 - p gives
        // p = 20/23, a = 3/23 and min 30/23, so rho = 23/30 (half the GPU each gives 1).
        // Gavel's isolated policy also gives each job half the GPU, and no isolated time has
        // accumulated yet, so both references agree.
        let input = one_gpu_pair((6.0, 3.0));
        let gavel = FtfReference::Gavel { cumulative: &[0.0, 0.0], reference_type: None };
        for (iteration, reference) in [FtfIteration::Scaled, FtfIteration::Dinkelbach]
            .into_iter()
            .flat_map(|iteration| [(iteration, FtfReference::Arrival), (iteration, gavel)])
        {
            let result = finish_time_fairness_packed(
                &input,
                &[600.0, 600.0],
                &[0.0, 0.0],
                reference,
                Backend::MicroLp,
                iteration,
                1e-6,
                50,
            )
            .unwrap();
            assert!((result.rho - 23.0 / 30.0).abs() < 1e-4, "{iteration:?}: {result:?}");
            assert_eq!(result.fractions.pairs.len(), 1, "{iteration:?}: {result:?}");
            assert!((result.fractions.pairs[0].1[0] - 20.0 / 23.0).abs() < 1e-3, "{iteration:?}: {result:?}");
            assert!(result.solves.len() >= 2, "the isolated allocation, then at least one step");
            assert_eq!(result.isolated_rates, vec![5.0, 2.0]);
        }
    }

    #[test]
    fn an_slo_on_a_packed_allocation_mixes_sharing_and_time_alone() {
        // One GPU; A 10 alone, B 4 alone, sharing (6, 3): without SLOs A runs alone (10 > 9).
        // If B needs 3.5 steps/s: maximise 10 a + 4 b + 9 p with 4 b + 3 p >= 3.5 and
        // a + b + p <= 1; substituting a = 1 - b - p, minimise 6 b + p: b = p = 1/2, total 6.5.
        let input = one_gpu_pair((6.0, 3.0));
        let free = max_throughput_packed_slos(&input, None, &[0.0, 0.0], Backend::MicroLp).unwrap();
        assert!(close(free.objective, 10.0) && free.pairs.is_empty(), "{free:?}");
        let result = max_throughput_packed_slos(&input, None, &[0.0, 3.5], Backend::MicroLp).unwrap();
        assert!(close(result.objective, 6.5), "{result:?}");
        assert!(close(result.singles[1][0], 0.5) && close(result.pairs[0].1[0], 0.5), "{result:?}");
        let error = max_throughput_packed_slos(&input, None, &[0.0, 4.5], Backend::MicroLp).unwrap_err();
        assert_eq!(error.failure, schedlab_solver::Failure::Infeasible);
    }

    /// Gavel's formulation, for comparison: a variable per pair of jobs and type.
    #[allow(clippy::needless_range_loop)]
    fn per_pair_max_min(input: &PackingInput, demand: &[f64]) -> f64 {
        let base = &input.base;
        let (jobs, types) = (base.throughputs.len(), base.capacity.len());
        let mut lp = LinearProgram::new("per-pair reference", Sense::Maximize);
        let t = lp.variable(f64::NEG_INFINITY, f64::INFINITY);
        lp.objective(t, 1.0);
        let singles: Vec<Vec<Var>> = (0..jobs)
            .map(|m| {
                (0..types).map(|j| lp.variable(0.0, if base.throughputs[m][j] > 0.0 { 1.0 } else { 0.0 })).collect()
            })
            .collect();
        let mut time: Vec<Vec<(Var, f64)>> =
            singles.iter().map(|row| row.iter().map(|&v| (v, 1.0)).collect()).collect();
        let mut rate: Vec<Vec<(Var, f64)>> =
            (0..jobs).map(|m| singles[m].iter().zip(&base.throughputs[m]).map(|(&v, r)| (v, -r)).collect()).collect();
        let mut capacity: Vec<Vec<(Var, f64)>> = (0..types)
            .map(|j| (0..jobs).map(|m| (singles[m][j], f64::from(base.scale_factors[m]))).collect())
            .collect();
        for m in 0..jobs {
            for n in m + 1..jobs {
                for j in 0..types {
                    let (a, b) = input.pair_rates[input.templates[m]][input.templates[n]][j];
                    let (alone_m, alone_n) = (base.throughputs[m][j], base.throughputs[n][j]);
                    if a > 0.0 && b > 0.0 && alone_m > 0.0 && alone_n > 0.0 && a / alone_m + b / alone_n > 1.0 {
                        let var = lp.variable(0.0, 1.0);
                        time[m].push((var, 1.0));
                        time[n].push((var, 1.0));
                        rate[m].push((var, -a));
                        rate[n].push((var, -b));
                        capacity[j].push((var, f64::from(base.scale_factors[m])));
                    }
                }
            }
        }
        for m in 0..jobs {
            lp.constraint(time[m].clone(), Comparison::AtMost, 1.0);
            let mut terms = rate[m].clone();
            terms.push((t, demand[m]));
            lp.constraint(terms, Comparison::AtMost, 0.0);
        }
        for (j, terms) in capacity.into_iter().enumerate() {
            lp.constraint(terms, Comparison::AtMost, f64::from(base.capacity[j]));
        }
        solve(&lp, Backend::MicroLp).unwrap().objective
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn the_per_template_lp_reaches_the_per_pair_optimum_and_splits_into_feasible_pairs() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for case in 0..40 {
            let (templates, types) = (rng.random_range(1..4), rng.random_range(1..3));
            let jobs = rng.random_range(2..8);
            let alone: Vec<Vec<f64>> =
                (0..templates).map(|_| (0..types).map(|_| rng.random_range(1.0..10.0)).collect()).collect();
            let mut pair_rates = vec![vec![vec![(0.0, 0.0); types]; templates]; templates];
            for a in 0..templates {
                for b in a..templates {
                    for j in 0..types {
                        let share_a = alone[a][j] * rng.random_range(0.3..0.9);
                        let share_b = alone[b][j] * rng.random_range(0.3..0.9);
                        let (share_a, share_b) = if a == b { (share_a, share_a) } else { (share_a, share_b) };
                        pair_rates[a][b][j] = (share_a, share_b);
                        pair_rates[b][a][j] = (share_b, share_a);
                    }
                }
            }
            let job_templates: Vec<usize> = (0..jobs).map(|_| rng.random_range(0..templates)).collect();
            let input = PackingInput {
                base: AllocationInput {
                    throughputs: job_templates.iter().map(|&k| alone[k].clone()).collect(),
                    scale_factors: vec![1; jobs],
                    weights: vec![1.0; jobs],
                    capacity: (0..types).map(|_| rng.random_range(1..4)).collect(),
                },
                templates: job_templates.clone(),
                pair_rates: pair_rates.clone(),
            };
            // Equal demands for some jobs, so that groups of two or more form as well.
            let demand: Vec<f64> = (0..jobs).map(|_| f64::from(rng.random_range(1..4_u8))).collect();
            let expected = per_pair_max_min(&input, &demand);
            let solved =
                solve_per_job(&input, Goal::MaxMinRatio { demand: &demand, offset: None }, "test", Backend::MicroLp)
                    .unwrap();
            let got = solved.fractions.objective;
            assert!((got - expected).abs() < 1e-6 * expected.max(1.0), "case {case}: {got} against {expected}");
            // The split is feasible and gives every job the rate the LP promised.
            let fractions = &solved.fractions;
            for m in 0..jobs {
                let paired: f64 = fractions
                    .pairs
                    .iter()
                    .filter(|((a, b), _)| *a == m || *b == m)
                    .map(|(_, f)| f.iter().sum::<f64>())
                    .sum();
                let time = fractions.singles[m].iter().sum::<f64>() + paired;
                assert!(time <= 1.0 + 1e-6, "case {case}: job {m} has {time} of time");
                assert!(solved.rates[m] >= got * demand[m] - 1e-5, "case {case}: job {m}'s rate {}", solved.rates[m]);
            }
            for j in 0..types {
                let used: f64 = (0..jobs).map(|m| fractions.singles[m][j]).sum::<f64>()
                    + fractions.pairs.iter().map(|(_, f)| f[j]).sum::<f64>();
                assert!(used <= f64::from(input.base.capacity[j]) + 1e-6, "case {case}: type {j} uses {used}");
            }
        }
    }
}

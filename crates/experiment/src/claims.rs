//! Checking published claims against measured values: each value with a 95% interval over
//! independent units ([`Unit`]), a best case's error split over the pairs it selects from
//! ([`best_of`]), and one of five verdicts (see [`crate::interval`] and docs/claims.md).

use crate::interval::{Estimate, ProvenBound, Verdict, judge, with_bound};
use crate::metric::Metric;
use crate::plan::RunPlan;
use crate::resolve::{Claim, ClaimTarget, Experiment};
use crate::spec::{Best, Population};
use crate::store::RunOutcome;
use crate::values::outcome_metric;

/// One claim's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimResult {
    /// The claim.
    pub claim: Claim,
    /// The measured value (a mean over replicates, or a ratio of two), or `None` if no run
    /// matched.
    pub measured: Option<f64>,
    /// The measured value with its interval and number of units.
    pub estimate: Option<Estimate>,
    /// What the interval's independent units are.
    pub unit: Unit,
    /// The value of each seed (over the workloads a sample axis draws), in seed order.
    pub per_seed: Vec<(u64, f64)>,
    /// The heuristic reference policies' estimates (`best_known`), beside the verdict only.
    pub best_known: Vec<(String, Estimate)>,
    /// The proof-backed bound (`bound: relaxation`), when the claim asks for one.
    pub bound: Option<ProvenBound>,
    /// What the interval says of the published value.
    pub verdict: Verdict,
    /// Whether the verdict is [`Verdict::Holds`].
    pub holds: bool,
    /// For a best-case claim: the baseline and sweep point where the best case was measured.
    pub best_case: Option<String>,
    /// Every pair a best-case claim compares, with its units' values (so that a best case
    /// across experiments can split its error over all of them); one case for other claims.
    pub cases: Vec<Case>,
    /// The bound's cases, in the same order.
    pub bound_cases: Vec<Case>,
    /// The planned looks of adaptive seeds the claim's error is split over (1 with fixed seeds).
    pub looks: usize,
}

/// One compared pair of a claim: where it is, and its units' paired values.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// "vs BASELINE at AXIS=VALUE" (empty for a plain claim).
    pub place: String,
    /// Each unit's numerator (mean over its runs).
    pub numerators: Vec<f64>,
    /// Each unit's denominator (1 for a single policy).
    pub denominators: Vec<f64>,
    /// What the units are.
    pub unit: Unit,
}

/// One replicate's identity: its seed and sweep point (two policies' runs of the same replicate
/// share their workload).
type Replicate = (u64, Vec<(String, f64)>);

/// Whether a run at `point` is at the claim's sweep point and at `extra` (the axes a best-case
/// claim ranges over).
fn at_point(claim: &Claim, extra: &[(crate::axis::Axis, f64)], point: &[(String, f64)]) -> bool {
    claim.at.iter().chain(extra).all(|(axis, value)| {
        point.iter().find(|(name, _)| name == axis.name()).is_some_and(|(_, known)| known == value)
    })
}

/// The claim's metric for `policy` in each run at the claim's sweep point (and `point`, the
/// axes a best-case claim ranges over), by replicate, in the order of `outcomes`.
fn replicates(
    experiment: &Experiment,
    outcomes: &[RunOutcome],
    claim: &Claim,
    policy: &str,
    point: &[(crate::axis::Axis, f64)],
) -> Vec<(Replicate, f64)> {
    outcomes
        .iter()
        .filter(|outcome| outcome.policy == policy && at_point(claim, point, &outcome.point))
        .map(|outcome| {
            ((outcome.seed, outcome.point.clone()), outcome_metric(experiment, outcomes, outcome, claim.metric))
        })
        .collect()
}

/// What a claim's interval counts as independent, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Each seed: its own workload and run.
    Seed,
    /// Each seed's run of the one workload of a sample axis the claim names.
    OneWorkload,
    /// Each seed's run of the whole fixed set of workloads (`population: fixed`): the published
    /// value is a mean over exactly that set, so a replicate is a repeat run of all of it,
    /// paired workload by workload.
    FixedSet,
    /// Each workload a drawn sample axis gives (`trace_index`, `episode`), its seeds' runs
    /// averaged (seeds that share a workload are not independent draws of it).
    Workload,
}

impl Unit {
    /// The unit's name in the plural, as tables write it.
    pub fn plural(self) -> &'static str {
        match self {
            Unit::Seed | Unit::OneWorkload | Unit::FixedSet => "seeds",
            Unit::Workload => "workloads",
        }
    }

    /// Why the unit is what it is, in a few words.
    pub fn why(self) -> &'static str {
        match self {
            Unit::Seed => "each seed draws its workload and run",
            Unit::OneWorkload => "one workload, run under each seed",
            Unit::FixedSet => "each seed a run of the fixed set of workloads the paper averages, paired per workload",
            Unit::Workload => "workloads drawn from a trace, each with its seeds' runs averaged",
        }
    }
}

/// One paired run: its seed, the sample-axis values it was drawn at (empty without one), and
/// the two sides' values (the denominator 1 for a single policy).
type Pair = (u64, Vec<(String, f64)>, f64, f64);

/// Paired numerators and denominators: the replicates both sides ran, in the numerator's order;
/// `None` for the denominator gives a single policy's values over 1.
fn paired(numerator: &[(Replicate, f64)], denominator: Option<&[(Replicate, f64)]>) -> Vec<Pair> {
    numerator
        .iter()
        .filter_map(|(replicate, a)| {
            let b = match denominator {
                None => 1.0,
                Some(denominator) => denominator.iter().find(|(other, _)| other == replicate).map(|(_, b)| *b)?,
            };
            Some((replicate.0, sample_axes(&replicate.1), *a, b))
        })
        .collect()
}

/// The sample-axis values (`trace_index`, `episode`) of a sweep point.
fn sample_axes(point: &[(String, f64)]) -> Vec<(String, f64)> {
    point
        .iter()
        .filter(|(name, _)| name.parse::<crate::axis::Axis>().is_ok_and(crate::axis::Axis::is_sample))
        .cloned()
        .collect()
}

/// The mean of each replicate unit of one policy's runs, `values` in the order of `runs`
/// (what `ci95` table cells make their interval over).
pub(crate) fn unit_means(runs: &[&RunOutcome], values: &[f64], population: Population) -> Vec<f64> {
    let pairs: Vec<Pair> = runs
        .iter()
        .zip(values)
        .map(|(outcome, value)| (outcome.seed, sample_axes(&outcome.point), *value, 1.0))
        .collect();
    units_of(&pairs, population, String::new()).0.numerators
}

/// One unit's sums so far: its seed, sample-axis values, the two sides' sums and its runs.
type UnitSums<'a> = (u64, &'a [(String, f64)], f64, f64, usize);

/// The units of paired runs ([`Unit`]), and each seed's own ratio of means.
fn units_of(pairs: &[Pair], population: Population, place: String) -> (Case, Vec<(u64, f64)>) {
    let mut samples: Vec<&[(String, f64)]> = pairs.iter().map(|pair| pair.1.as_slice()).collect();
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    samples.dedup();
    let unit = match (samples.len(), samples.first().is_some_and(|sample| !sample.is_empty()), population) {
        (0 | 1, false, _) => Unit::Seed,
        (0 | 1, true, _) => Unit::OneWorkload,
        (_, _, Population::Fixed) => Unit::FixedSet,
        (_, _, Population::Drawn) => Unit::Workload,
    };
    // Units in the order they first appear, each the mean of its runs.
    let mut units: Vec<UnitSums> = Vec::new();
    for (seed, sample, a, b) in pairs {
        let same = |known: &UnitSums| match unit {
            Unit::Workload => known.1 == sample.as_slice(),
            Unit::Seed | Unit::OneWorkload | Unit::FixedSet => known.0 == *seed,
        };
        match units.iter_mut().find(|known| same(known)) {
            Some(known) => {
                known.2 += a;
                known.3 += b;
                known.4 += 1;
            }
            None => units.push((*seed, sample, *a, *b, 1)),
        }
    }
    let (numerators, denominators): (Vec<f64>, Vec<f64>) =
        units.iter().map(|&(_, _, a, b, n)| (a / n as f64, b / n as f64)).unzip();
    let mut seeds: Vec<u64> = pairs.iter().map(|pair| pair.0).collect();
    seeds.sort_unstable();
    seeds.dedup();
    let per_seed = seeds
        .into_iter()
        .filter_map(|seed| {
            let (a, b): (Vec<f64>, Vec<f64>) =
                pairs.iter().filter(|pair| pair.0 == seed).map(|&(_, _, a, b)| (a, b)).unzip();
            Estimate::ratio(&a, &b).map(|estimate| (seed, estimate.value))
        })
        .collect();
    (Case { place, numerators, denominators, unit }, per_seed)
}

/// The family-wise confidence every claim keeps: its 5% error is split over the pairs a best
/// case selects from.
pub const CONFIDENCE: f64 = 0.95;

/// The best of several cases, each estimated at `1 - 0.05 / k` for `k` cases in all
/// (Bonferroni), with the interval that covers the best case's true value whatever was
/// selected: for the smallest, from the smallest lower end to the smallest upper end (and the
/// mirror for the largest). `None` when a case has no estimate.
pub fn best_of(cases: &[Case], best: Best, split: usize) -> Option<(Estimate, usize)> {
    if cases.is_empty() {
        return None;
    }
    let confidence = 1.0 - (1.0 - CONFIDENCE) / split.max(1) as f64;
    let estimates: Vec<Estimate> = cases
        .iter()
        .map(|case| Estimate::ratio_at(&case.numerators, &case.denominators, confidence))
        .collect::<Option<Vec<Estimate>>>()?;
    let better = |a: f64, b: f64| match best {
        Best::Min => a < b,
        Best::Max => a > b,
    };
    let mut chosen = 0;
    for (index, estimate) in estimates.iter().enumerate() {
        if !estimate.value.is_nan()
            && (estimates[chosen].value.is_nan() || better(estimate.value, estimates[chosen].value))
        {
            chosen = index;
        }
    }
    let mut estimate = estimates[chosen];
    if estimates.len() > 1 {
        let ends: Option<Vec<(f64, f64)>> = estimates.iter().map(|estimate| estimate.interval).collect();
        estimate.interval = ends.map(|ends| {
            let pick = |values: Vec<f64>| match best {
                Best::Min => values.into_iter().fold(f64::INFINITY, f64::min),
                Best::Max => values.into_iter().fold(f64::NEG_INFINITY, f64::max),
            };
            (pick(ends.iter().map(|end| end.0).collect()), pick(ends.iter().map(|end| end.1).collect()))
        });
    }
    Some((estimate, chosen))
}

/// A claim's cases and each case's per-seed values.
struct Measured {
    cases: Vec<Case>,
    per_seed: Vec<Vec<(u64, f64)>>,
}

/// Where a claim's numerator values come from, given the numerator policy and the extra sweep
/// point: its measured runs, or (for a bound) the bound of each of those runs' workloads.
type Numerator<'a> = &'a dyn Fn(&str, &[(crate::axis::Axis, f64)]) -> Vec<(Replicate, f64)>;

/// Measures one claim's cases (without judging it), its numerator's replicates given by
/// `numerator`.
fn measure(experiment: &Experiment, outcomes: &[RunOutcome], claim: &Claim, numerator: Numerator<'_>) -> Measured {
    let of = |policy: &str, point: &[(crate::axis::Axis, f64)]| replicates(experiment, outcomes, claim, policy, point);
    let population = experiment.report.population;
    match &claim.target {
        ClaimTarget::Policy(policy) => {
            let (case, per_seed) = units_of(&paired(&numerator(policy, &[]), None), population, String::new());
            Measured { cases: vec![case], per_seed: vec![per_seed] }
        }
        ClaimTarget::Ratio(a, b) => {
            let (case, per_seed) = units_of(&paired(&numerator(a, &[]), Some(&of(b, &[]))), population, String::new());
            Measured { cases: vec![case], per_seed: vec![per_seed] }
        }
        ClaimTarget::BestRatio { policy, against, points, .. } => {
            let mut cases = Vec::new();
            let mut per_seed = Vec::new();
            for point in points {
                let top = numerator(policy, point);
                for baseline in against {
                    let at: Vec<String> = point.iter().map(|(axis, value)| format!("{axis}={value}")).collect();
                    let place = if at.is_empty() { String::new() } else { format!(" at {}", at.join(", ")) };
                    let (case, seeds) = units_of(
                        &paired(&top, Some(&of(baseline, point))),
                        population,
                        format!("vs {baseline}{place}"),
                    );
                    cases.push(case);
                    per_seed.push(seeds);
                }
            }
            Measured { cases, per_seed }
        }
    }
}

/// Whether the claim reads the run: one of its policies at its sweep point.
pub fn reads(claim: &Claim, plan: &RunPlan) -> bool {
    let policies: Vec<&String> = match &claim.target {
        ClaimTarget::Policy(policy) => vec![policy],
        ClaimTarget::Ratio(a, b) => vec![a, b],
        ClaimTarget::BestRatio { policy, against, .. } => std::iter::once(policy).chain(against).collect(),
    };
    policies.iter().any(|policy| **policy == plan.policy.to_string()) && at_point(claim, &[], &plan.point.0)
}

/// Whether the claim's value reads the run: [`reads`], or for an `ftf_rho` claim the run of the
/// policy finish-time fairness divides by (`fairness_reference`) at the claim's sweep points.
pub(crate) fn value_reads(experiment: &Experiment, claim: &Claim, plan: &RunPlan) -> bool {
    if reads(claim, plan) {
        return true;
    }
    let Some(reference) = experiment.report.fairness_reference.as_deref() else { return false };
    claim.metric == Metric::FtfRho && plan.policy.to_string() == reference && reads(&claim.with_policy(reference), plan)
}

/// Among the runs a claim's value reads ([`value_reads`] on `plans`), by run key: those not in
/// `outcomes` (missing), and those stored that ended at `sim.max_time` before every measured job
/// finished (censored).
fn missing_and_censored_runs(
    experiment: &Experiment,
    plans: &[RunPlan],
    outcomes: &[RunOutcome],
    claim: &Claim,
) -> (Vec<String>, Vec<String>) {
    let stored: std::collections::BTreeMap<&str, &RunOutcome> =
        outcomes.iter().map(|outcome| (outcome.key.as_str(), outcome)).collect();
    let (mut missing, mut censored) = (Vec::new(), Vec::new());
    for plan in plans.iter().filter(|plan| value_reads(experiment, claim, plan)) {
        match stored.get(plan.key.as_str()) {
            None => missing.push(plan.key.clone()),
            Some(outcome) if outcome.metrics.jobs_finished < outcome.metrics.jobs_measured => {
                censored.push(plan.key.clone())
            }
            Some(_) => {}
        }
    }
    (missing, censored)
}

pub use crate::relaxation::Relaxations;

/// A bound's value of the claim's metric, in the metric's units.
fn bound_value(bounds: &schedlab_bounds::Bounds, metric: Metric) -> f64 {
    match metric {
        Metric::AvgJctHours => bounds.avg_jct / 3600.0,
        Metric::AvgQueueingDelayHours => bounds.avg_queueing_delay / 3600.0,
        Metric::MakespanHours => bounds.makespan / 3600.0,
        Metric::Utilization => bounds.utilization,
        other => unreachable!("resolution refuses bound: relaxation for {other}"),
    }
}

/// The class of schedulers `bound: relaxation` holds for, for `metric`.
fn bound_class(metric: Metric) -> &'static str {
    match metric {
        Metric::AvgJctHours | Metric::MakespanHours => {
            "relaxation: any rigid-job schedule (preemptive or not), squashed-machine SRPT and per-job run times"
        }
        _ => "relaxation: any non-preemptive rigid-job schedule (RLTune's job orders among them)",
    }
}

/// Judges one claim from its cases: the best case over every compared pair (a single case for
/// a plain claim), the interval split over `split` pairs.
fn judge_cases(claim: &Claim, cases: &[Case], split: usize) -> Option<(Estimate, usize)> {
    let best = match &claim.target {
        ClaimTarget::BestRatio { best, .. } => *best,
        _ => Best::Min,
    };
    best_of(cases, best, split)
}

/// Evaluates every claim of the experiment on all its runs; `relaxations` holds the
/// proof-backed bounds of the workloads of claims that ask for one (`relaxation::relaxations`).
/// With adaptive seeds the verdicts are the sequential procedure's instead
/// (`adaptive::replay`, which the reports call).
pub fn evaluate(experiment: &Experiment, outcomes: &[RunOutcome], relaxations: &Relaxations) -> Vec<ClaimResult> {
    evaluate_plans(experiment, &experiment.runs(), outcomes, relaxations, 1)
}

/// Evaluates every claim on the runs `plans` (a claim whose runs among them are not all in
/// `outcomes` is incomplete), each interval's error split over `looks` planned looks too.
pub fn evaluate_plans(
    experiment: &Experiment,
    plans: &[RunPlan],
    outcomes: &[RunOutcome],
    relaxations: &Relaxations,
    looks: usize,
) -> Vec<ClaimResult> {
    experiment
        .report
        .claims
        .iter()
        .map(|claim| {
            let runs = |policy: &str, point: &[(crate::axis::Axis, f64)]| {
                replicates(experiment, outcomes, claim, policy, point)
            };
            let (missing, censored) = missing_and_censored_runs(experiment, plans, outcomes, claim);
            let Measured { cases, per_seed } = measure(experiment, outcomes, claim, &runs);
            let split = cases.len() * looks;
            let judged = if missing.is_empty() { judge_cases(claim, &cases, split) } else { None };
            let band = claim.band();
            let best_known: Vec<(String, Estimate)> = claim
                .best_known
                .iter()
                .filter_map(|reference| {
                    let reference_claim = claim.with_policy(reference);
                    let measured = measure(experiment, outcomes, &reference_claim, &runs);
                    judge_cases(&reference_claim, &measured.cases, measured.cases.len())
                        .map(|(estimate, _)| (reference.clone(), estimate))
                })
                .collect();
            let (bound, bound_cases) = if claim.bound && missing.is_empty() {
                let side = claim.metric.relaxation_side().expect("resolution checks the metric");
                let from_bound = |policy: &str, point: &[(crate::axis::Axis, f64)]| -> Vec<(Replicate, f64)> {
                    plans
                        .iter()
                        .filter(|plan| plan.policy.to_string() == policy && at_point(claim, point, &plan.point.0))
                        .filter_map(|plan| {
                            relaxations
                                .get(&plan.workload_key)
                                .map(|bounds| ((plan.seed, plan.point.0.clone()), bound_value(bounds, claim.metric)))
                        })
                        .collect()
                };
                let measured = measure(experiment, outcomes, claim, &from_bound);
                let bound = judge_cases(claim, &measured.cases, split).map(|(estimate, _)| ProvenBound {
                    side,
                    estimate,
                    class: bound_class(claim.metric).to_string(),
                });
                (bound, measured.cases)
            } else {
                (None, Vec::new())
            };
            let (estimate, chosen) = judged.map_or((None, None), |(estimate, chosen)| (Some(estimate), Some(chosen)));
            let verdict = match (&estimate, missing.is_empty()) {
                (_, false) => {
                    Verdict::Incomplete { count: missing.len(), missing: missing.into_iter().take(3).collect() }
                }
                _ if !censored.is_empty() => {
                    Verdict::Censored { count: censored.len(), runs: censored.into_iter().take(3).collect() }
                }
                (None, true) => Verdict::Inconclusive { replicates_needed: None },
                (Some(estimate), true) => with_bound(judge(estimate, &band), Some(estimate), bound.as_ref(), &band),
            };
            let best_case = match (&claim.target, chosen) {
                (ClaimTarget::BestRatio { .. }, Some(chosen)) => Some(cases[chosen].place.clone()),
                _ => None,
            };
            let unit =
                chosen.map_or_else(|| cases.first().map_or(Unit::Seed, |case| case.unit), |chosen| cases[chosen].unit);
            ClaimResult {
                claim: claim.clone(),
                measured: estimate.map(|estimate| estimate.value),
                estimate,
                unit,
                per_seed: per_seed.get(chosen.unwrap_or(0)).cloned().unwrap_or_default(),
                best_known,
                bound,
                holds: verdict == Verdict::Holds,
                verdict,
                best_case,
                cases,
                bound_cases,
                looks,
            }
        })
        .collect()
}

/// A number as claim tables show it.
fn show(value: f64) -> String {
    format!("{value:.3}")
}

/// An interval as claim tables show it.
fn show_interval(estimate: Option<&Estimate>) -> String {
    match estimate.and_then(|estimate| estimate.interval) {
        Some((lower, upper)) => format!("[{}, {}]", show(lower), show(upper)),
        None => "-".to_string(),
    }
}

/// How a claim's units show: "3 seeds (why)".
fn show_units(estimate: Option<&Estimate>, unit: Unit) -> String {
    format!("{} {} ({})", estimate.map_or(0, |estimate| estimate.n), unit.plural(), unit.why())
}

/// A verdict as claim tables show it: misses in capitals, with how many units (seeds or
/// workloads) would settle an inconclusive one (`units` measured so far), the bound that makes
/// a claim unreachable and the runs an incomplete one lacks.
pub fn verdict_text(verdict: &Verdict, unit: Unit, units: usize) -> String {
    match verdict {
        Verdict::Holds => "holds".to_string(),
        Verdict::Missed => "MISSED".to_string(),
        Verdict::Inconclusive { replicates_needed: Some(units) } => {
            format!("inconclusive (about {units} {} would settle it)", unit.plural())
        }
        Verdict::Inconclusive { replicates_needed: None } if units < 2 => {
            format!("inconclusive (one of the {} alone gives no interval)", unit.plural())
        }
        Verdict::Inconclusive { replicates_needed: None } => format!(
            "inconclusive (it lies at the band's edge: more than {} {} would be needed)",
            crate::interval::MAX_REPLICATES,
            unit.plural()
        ),
        Verdict::Unreachable { bound } => format!(
            "UNREACHABLE HERE (proved: {} bound {} {})",
            side_word(bound.side),
            show(bound.estimate.value),
            show_interval(Some(&bound.estimate))
        ),
        Verdict::Censored { runs, count } => format!(
            "inconclusive ({count} runs ended at sim.max_time before every measured job finished: {}{}; more {} \
             cannot settle it)",
            runs.join(", "),
            if *count > runs.len() { ", ..." } else { "" },
            unit.plural()
        ),
        Verdict::Incomplete { missing, count } => {
            format!(
                "incomplete ({count} runs missing: {}{})",
                missing.join(", "),
                if *count > missing.len() { ", ..." } else { "" }
            )
        }
    }
}

/// "lower" or "upper".
fn side_word(side: crate::interval::BoundSide) -> &'static str {
    match side {
        crate::interval::BoundSide::Lower => "lower",
        crate::interval::BoundSide::Upper => "upper",
    }
}

/// What stands beside a verdict: the proof-backed bound and the best known policy here.
fn beside(bound: Option<&ProvenBound>, best_known: &[(String, Estimate)], best: Best) -> String {
    let mut parts = Vec::new();
    if let Some(bound) = bound {
        parts.push(format!(
            "{} bound {} {}",
            side_word(bound.side),
            show(bound.estimate.value),
            show_interval(Some(&bound.estimate))
        ));
    }
    let better = |a: f64, b: f64| match best {
        Best::Min => a < b,
        Best::Max => a > b,
    };
    if let Some((policy, estimate)) = best_known.iter().fold(None::<&(String, Estimate)>, |found, entry| match found {
        Some(known) if !better(entry.1.value, known.1.value) => Some(known),
        _ => Some(entry),
    }) {
        parts.push(format!("best known here: {policy} {} {}", show(estimate.value), show_interval(Some(estimate))));
    }
    parts.join("; ")
}

/// Which end is better for a claim's value: where its band is open, else the smaller.
fn better_end(claim: &Claim) -> Best {
    match (&claim.target, claim.direction) {
        (ClaimTarget::BestRatio { best, .. }, _) => *best,
        (_, crate::spec::Direction::AtLeast) => Best::Max,
        _ => Best::Min,
    }
}

/// A claim's cells as reports show them: the claim (with what it measures), its source, the
/// paper's value, the band it accepts, the measured value (with the best case for best-of
/// claims), the lower and upper ends of its interval, the units it rests on (and why), the
/// number of seeds, the per-seed values (up to ten seeds), the verdict, and beside it the
/// proof-backed bound and the best known policy.
pub fn cells(result: &ClaimResult) -> [String; 12] {
    let claim = &result.claim;
    let what = match &claim.target {
        ClaimTarget::Policy(policy) => format!("{} of {policy}", claim.metric),
        ClaimTarget::Ratio(a, b) => format!("{} of {a} / {b}", claim.metric),
        ClaimTarget::BestRatio { policy, against, best, .. } => {
            let best = match best {
                Best::Min => "smallest",
                Best::Max => "largest",
            };
            format!("{best} {} of {policy} / any of {}", claim.metric, against.join(", "))
        }
    };
    let mut measured = result.measured.map_or("no matching run".to_string(), show);
    if let Some(place) = &result.best_case {
        measured.push_str(&format!(" ({place})"));
    }
    let per_seed = if result.per_seed.len() <= 10 {
        result.per_seed.iter().map(|(_, value)| show(*value)).collect::<Vec<_>>().join(", ")
    } else {
        format!("{} seeds (claims.csv)", result.per_seed.len())
    };
    let interval = result.estimate.and_then(|estimate| estimate.interval);
    let end = |side: fn((f64, f64)) -> f64| interval.map_or("-".to_string(), |interval| show(side(interval)));
    [
        format!("{} ({what})", claim.text),
        claim.source.clone(),
        claim.expected.to_string(),
        format!("{} ({:.0}%, {})", claim.band().text(), claim.tolerance * 100.0, claim.direction.name()),
        measured,
        end(|interval| interval.0),
        end(|interval| interval.1),
        show_units(result.estimate.as_ref(), result.unit),
        result.per_seed.len().to_string(),
        per_seed,
        verdict_text(&result.verdict, result.unit, result.estimate.map_or(0, |estimate| estimate.n)),
        beside(result.bound.as_ref(), &result.best_known, better_end(claim)),
    ]
}

/// The header of claim tables, matching [`cells`].
pub const COLUMNS: [&str; 12] = [
    "claim",
    "source",
    "paper",
    "band",
    "measured",
    "lower",
    "upper",
    "units",
    "n_seeds",
    "per seed",
    "verdict",
    "beside the verdict",
];

/// A Markdown table of verdicts; misses are shown, not hidden.
pub fn markdown(results: &[ClaimResult]) -> String {
    let mut text = format!("| {} |\n|{}\n", COLUMNS.join(" | "), "---|".repeat(COLUMNS.len()));
    for result in results {
        text.push_str(&format!("| {} |\n", cells(result).join(" | ")));
    }
    text.push_str(&format!("\n{}\n", INTERVAL_NOTE));
    if let Some(note) = adaptive_note(results.iter().map(|result| (result.looks, result.unit))) {
        text.push_str(&format!("\n{note}\n"));
    }
    text
}

/// What claim tables add when seeds (or episodes) were added in looks, from each claim's planned
/// looks and unit: `None` without looks.
pub fn adaptive_note(claims: impl Iterator<Item = (usize, Unit)> + Clone) -> Option<String> {
    let looks = claims.clone().map(|(looks, _)| looks).max().filter(|&looks| looks > 1)?;
    // Claims whose units are drawn workloads had episodes added, the others seeds.
    let episodes = claims.into_iter().any(|(looks, unit)| looks > 1 && unit == Unit::Workload);
    Some(if episodes {
        format!(
            "Adaptive episodes: episodes were added in {looks} planned looks to the runs of the claims still open, and \
             every look judged its intervals at 1 - 0.05/{looks} (times k for a best case): a claim keeps the verdict of \
             the first look that settled it, and its units are that look's episodes (docs/claims.md)."
        )
    } else {
        format!(
            "Adaptive seeds: seeds were added in {looks} planned looks to the runs of the claims still open, and every \
             look judged its intervals at 1 - 0.05/{looks} (times k for a best case): a claim keeps the verdict of the first \
             look that settled it, and its units and n_seeds are that look's (docs/claims.md)."
        )
    })
}

/// How claim tables say their intervals were made.
pub const INTERVAL_NOTE: &str = "Intervals: 95% intervals over independent units (each seed; each workload of a drawn \
sample axis, its seeds' runs averaged; or each seed's run of a fixed set of workloads the paper averages), a ratio's two \
policies paired unit by unit: a mean's Student-t interval on the log scale (values above 0) and a ratio's Fieller \
interval (unbounded, inf, when its denominators' mean is not clearly away from 0 at this n). A best case over k pairs \
splits its 5% over them (each pair at 1 - 0.05/k) and reports the interval that covers the best of the true values. \
The band is the published value with its tolerance on both sides (within) or on the losing side only (at_least, \
at_most). A verdict holds when the whole interval lies inside the band, is missed when it lies wholly outside, and is \
inconclusive when it straddles an edge; unreachable here only when a proof-backed bound (a relaxation no scheduler of \
its class can beat) lies wholly beyond the band on the side the claim needs and the claim is missed on that side; \
incomplete when runs it reads are missing. Best known here: the best heuristic reference policy, never a proof.";

/// A number as the CSV files write it: empty when absent.
fn number(value: Option<f64>) -> String {
    value.map_or(String::new(), |value| value.to_string())
}

/// The CSV fields every claims file starts with: claim, source, metric, direction, expected,
/// tolerance, measured, lower, upper, confidence, n_units, unit, unit_why.
fn claim_fields(claim: &Claim, estimate: Option<&Estimate>, unit: Unit) -> Vec<String> {
    let interval = estimate.and_then(|estimate| estimate.interval);
    vec![
        claim.text.clone(),
        claim.source.clone(),
        claim.metric.to_string(),
        claim.direction.name().to_string(),
        claim.expected.to_string(),
        claim.tolerance.to_string(),
        number(estimate.map(|estimate| estimate.value)),
        number(interval.map(|interval| interval.0)),
        number(interval.map(|interval| interval.1)),
        number(estimate.map(|estimate| estimate.confidence)),
        estimate.map_or(0, |estimate| estimate.n).to_string(),
        unit.plural().to_string(),
        unit.why().to_string(),
    ]
}

/// The header of [`claim_fields`].
const CLAIM_FIELDS: [&str; 13] = [
    "claim",
    "source",
    "metric",
    "direction",
    "expected",
    "tolerance",
    "measured",
    "lower",
    "upper",
    "confidence",
    "n_units",
    "unit",
    "unit_why",
];

/// What a verdict adds to its CSV row: the units that would settle an inconclusive one, and
/// the runs an incomplete one lacks or a censored one read (its `missing` column).
fn verdict_fields(verdict: &Verdict) -> (String, String) {
    match verdict {
        Verdict::Inconclusive { replicates_needed } => {
            (replicates_needed.map_or(String::new(), |n| n.to_string()), String::new())
        }
        Verdict::Incomplete { missing, count } => (String::new(), format!("{count}: {}", missing.join(" "))),
        Verdict::Censored { runs, count } => (String::new(), format!("{count}: {}", runs.join(" "))),
        _ => (String::new(), String::new()),
    }
}

/// The bound's CSV fields: class, side, value, lower, upper.
fn bound_fields(bound: Option<&ProvenBound>) -> [String; 5] {
    let interval = bound.and_then(|bound| bound.estimate.interval);
    [
        bound.map_or(String::new(), |bound| bound.class.clone()),
        bound.map_or(String::new(), |bound| side_word(bound.side).to_string()),
        number(bound.map(|bound| bound.estimate.value)),
        number(interval.map(|interval| interval.0)),
        number(interval.map(|interval| interval.1)),
    ]
}

/// The machine-readable form of the verdicts (`claims.csv`): one row a claim with its value,
/// interval, units, seeds, verdict, what would settle it or is missing, the bound, the best
/// known policy and every seed's value.
pub fn csv(results: &[ClaimResult]) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<&str> = CLAIM_FIELDS.to_vec();
    header.extend([
        "n_seeds",
        "verdict",
        "units_needed",
        "missing",
        "bound_class",
        "bound_side",
        "bound_value",
        "bound_lower",
        "bound_upper",
        "best_known",
        "best_case",
        "per_seed",
    ]);
    writer.write_record(&header).expect("in-memory CSV");
    for result in results {
        let (needed, missing) = verdict_fields(&result.verdict);
        let per_seed: Vec<String> = result.per_seed.iter().map(|(seed, value)| format!("{seed}:{value}")).collect();
        let mut record = claim_fields(&result.claim, result.estimate.as_ref(), result.unit);
        record.extend([result.per_seed.len().to_string(), result.verdict.name().to_string(), needed, missing]);
        record.extend(bound_fields(result.bound.as_ref()));
        record.extend([
            beside(None, &result.best_known, better_end(&result.claim)),
            result.best_case.clone().unwrap_or_default(),
            per_seed.join(";"),
        ]);
        writer.write_record(&record).expect("in-memory CSV");
    }
    writer.into_inner().expect("in-memory CSV")
}

/// The verdicts' names in the order [`counts`] counts them.
pub const VERDICTS: [&str; 5] = ["holds", "missed", "inconclusive", "unreachable here", "incomplete"];

/// How many claims have each verdict: holds, missed, inconclusive, unreachable here,
/// incomplete.
pub fn counts<'a>(verdicts: impl IntoIterator<Item = &'a Verdict>) -> [usize; 5] {
    let mut counts = [0; 5];
    for verdict in verdicts {
        let index = VERDICTS.iter().position(|name| *name == verdict.name()).expect("every verdict is named");
        counts[index] += 1;
    }
    counts
}

/// "3 hold, 1 missed, 1 inconclusive, 0 unreachable here, 0 incomplete".
pub fn counts_text(counts: [usize; 5]) -> String {
    format!(
        "{} hold, {} missed, {} inconclusive, {} unreachable here, {} incomplete",
        counts[0], counts[1], counts[2], counts[3], counts[4]
    )
}

/// A best-case claim ("up to ...") checked in several experiments (one per trace, say) and
/// judged on its best case across them.
#[derive(Clone, Debug, PartialEq)]
pub struct AcrossResult {
    /// The claim as the first experiment states it.
    pub claim: Claim,
    /// Each experiment's name, its own best case's estimate and place, and its unit.
    pub per_experiment: Vec<(String, Option<Estimate>, Option<String>, Unit)>,
    /// The best measured value across the experiments; `None` if any is missing (a claim never
    /// rests on part of its range).
    pub measured: Option<f64>,
    /// Its estimate, with the interval that covers the best case over every pair of every
    /// experiment (the 5% split over all of them).
    pub estimate: Option<Estimate>,
    /// The unit of the experiment where it was measured.
    pub unit: Unit,
    /// The experiment where it was measured.
    pub best_in: Option<String>,
    /// The proof-backed bound across the experiments, when every experiment has one.
    pub bound: Option<ProvenBound>,
    /// The best known policy of each experiment (`experiment: policy`).
    pub best_known: Vec<(String, Estimate)>,
    /// The best case's verdict.
    pub verdict: Verdict,
    /// Whether the verdict is [`Verdict::Holds`].
    pub holds: bool,
}

/// The best-case claims that at least two of `experiments` check with the same source, text,
/// metric, published value, tolerance, direction and best end, each judged on its best case
/// across them, in the order they first appear: every pair of every experiment is a case, and
/// the 5% error is split over all of them.
pub fn across(experiments: &[(String, Vec<ClaimResult>)]) -> Vec<AcrossResult> {
    let key = |claim: &Claim| match &claim.target {
        ClaimTarget::BestRatio { best, .. } => Some((
            claim.source.clone(),
            claim.text.clone(),
            claim.metric,
            claim.expected.to_bits(),
            claim.tolerance.to_bits(),
            claim.direction,
            *best,
        )),
        _ => None,
    };
    type Group<'a> = (AcrossResult, Vec<(&'a str, &'a ClaimResult)>);
    let mut groups: Vec<(_, Group)> = Vec::new();
    for (name, results) in experiments {
        for result in results {
            let Some(this) = key(&result.claim) else { continue };
            let entry = (name.clone(), result.estimate, result.best_case.clone(), result.unit);
            let best_known =
                result.best_known.iter().map(|(policy, estimate)| (format!("{name}: {policy}"), *estimate));
            match groups.iter_mut().find(|(known, _)| *known == this) {
                Some((_, (group, members))) => {
                    group.per_experiment.push(entry);
                    group.best_known.extend(best_known);
                    members.push((name.as_str(), result));
                }
                None => {
                    let group = AcrossResult {
                        claim: result.claim.clone(),
                        per_experiment: vec![entry],
                        measured: None,
                        estimate: None,
                        unit: Unit::Seed,
                        best_in: None,
                        bound: None,
                        best_known: best_known.collect(),
                        verdict: Verdict::Inconclusive { replicates_needed: None },
                        holds: false,
                    };
                    groups.push((this, (group, vec![(name.as_str(), result)])));
                }
            }
        }
    }
    groups
        .into_iter()
        .filter(|(_, (group, _))| group.per_experiment.len() >= 2)
        .map(|(key, (mut group, members))| {
            let best = key.6;
            // The members whose verdict `count_of` picks, each with its count of runs.
            let members_with = |count_of: fn(&Verdict) -> Option<usize>| -> Vec<String> {
                members
                    .iter()
                    .filter_map(|(name, result)| {
                        count_of(&result.verdict).map(|count| format!("{name} ({count} runs)"))
                    })
                    .collect()
            };
            let missing = members_with(|verdict| match verdict {
                Verdict::Incomplete { count, .. } => Some(*count),
                _ => None,
            });
            // Every pair of every member, and which member each came from.
            let cases: Vec<Case> = members.iter().flat_map(|(_, result)| result.cases.iter().cloned()).collect();
            let member_of: Vec<usize> =
                members.iter().enumerate().flat_map(|(index, (_, result))| vec![index; result.cases.len()]).collect();
            // Members with adaptive seeds judged their cases at each of their looks: split over those too.
            let looks = members.iter().map(|(_, result)| result.looks).max().unwrap_or(1);
            let split = cases.len() * looks;
            let judged = if missing.is_empty() { best_of(&cases, best, split) } else { None };
            if let Some((estimate, chosen)) = judged {
                group.measured = Some(estimate.value);
                group.estimate = Some(estimate);
                group.unit = cases[chosen].unit;
                group.best_in = Some(members[member_of[chosen]].0.to_string());
            }
            let bound_cases: Vec<Case> =
                members.iter().flat_map(|(_, result)| result.bound_cases.iter().cloned()).collect();
            let side = group.claim.metric.relaxation_side();
            if group.claim.bound
                && bound_cases.len() == cases.len()
                && let Some(side) = side
                && let Some((estimate, _)) = best_of(&bound_cases, best, split)
            {
                group.bound = Some(ProvenBound { side, estimate, class: bound_class(group.claim.metric).to_string() });
            }
            let censored = members_with(|verdict| match verdict {
                Verdict::Censored { count, .. } => Some(*count),
                _ => None,
            });
            let band = group.claim.band();
            group.verdict = if !missing.is_empty() {
                Verdict::Incomplete { count: missing.len(), missing }
            } else if !censored.is_empty() {
                Verdict::Censored { count: censored.len(), runs: censored }
            } else {
                match &group.estimate {
                    Some(estimate) => with_bound(judge(estimate, &band), Some(estimate), group.bound.as_ref(), &band),
                    None => Verdict::Inconclusive { replicates_needed: None },
                }
            };
            group.holds = group.verdict == Verdict::Holds;
            group
        })
        .collect()
}

/// A Markdown table of [`across`]'s verdicts: each experiment's own best case with its
/// interval, then the best of them.
pub fn across_markdown(results: &[AcrossResult]) -> String {
    let mut text = String::from(
        "| claim | source | paper | band | measured in each experiment | best | lower | upper | units | verdict | beside the verdict |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for result in results {
        let claim = &result.claim;
        let each: Vec<String> = result
            .per_experiment
            .iter()
            .map(|(name, estimate, place, _)| {
                let value = estimate.map_or("no matching run".to_string(), |estimate| {
                    format!("{} {}", show(estimate.value), show_interval(Some(&estimate)))
                });
                match place {
                    Some(place) => format!("{name}: {value} ({place})"),
                    None => format!("{name}: {value}"),
                }
            })
            .collect();
        let best = match (&result.measured, &result.best_in) {
            (Some(value), Some(name)) => format!("{} ({name})", show(*value)),
            _ => "-".to_string(),
        };
        let interval = result.estimate.and_then(|estimate| estimate.interval);
        let (lower, upper) =
            interval.map_or(("-".to_string(), "-".to_string()), |(lower, upper)| (show(lower), show(upper)));
        text.push_str(&format!(
            "| {} | {} | {} | {} ({:.0}%, {}) | {} | {best} | {lower} | {upper} | {} | {} | {} |\n",
            claim.text,
            claim.source,
            claim.expected,
            claim.band().text(),
            claim.tolerance * 100.0,
            claim.direction.name(),
            each.join("; "),
            show_units(result.estimate.as_ref(), result.unit),
            verdict_text(&result.verdict, result.unit, result.estimate.map_or(0, |estimate| estimate.n)),
            beside(result.bound.as_ref(), &result.best_known, better_end(claim)),
        ));
    }
    text.push_str(&format!(
        "\nEach experiment's own best case is shown with its own interval; the best across them has the interval that \
         splits the 5% over every pair of every experiment.\n\n{INTERVAL_NOTE}\n"
    ));
    text
}

/// The machine-readable form of [`across`]'s verdicts (`<family>-claims.csv`).
pub fn across_csv(results: &[AcrossResult]) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<&str> = CLAIM_FIELDS.to_vec();
    header.extend([
        "best_in",
        "verdict",
        "units_needed",
        "missing",
        "bound_class",
        "bound_side",
        "bound_value",
        "bound_lower",
        "bound_upper",
        "best_known",
    ]);
    writer.write_record(&header).expect("in-memory CSV");
    for result in results {
        let (needed, missing) = verdict_fields(&result.verdict);
        let mut record = claim_fields(&result.claim, result.estimate.as_ref(), result.unit);
        record.extend([result.best_in.clone().unwrap_or_default(), result.verdict.name().to_string(), needed, missing]);
        record.extend(bound_fields(result.bound.as_ref()));
        record.push(beside(None, &result.best_known, better_end(&result.claim)));
        writer.write_record(&record).expect("in-memory CSV");
    }
    writer.into_inner().expect("in-memory CSV")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(seed: u64, sample: Option<f64>, a: f64, b: f64) -> Pair {
        (seed, sample.map(|value| vec![("trace_index".to_string(), value)]).unwrap_or_default(), a, b)
    }

    #[test]
    fn the_unit_follows_the_sample_axis_and_the_population() {
        // Two seeds x two workloads: a drawn sample is replicated by workload (seeds averaged),
        // a fixed set by seed (workloads averaged, paired).
        let pairs = vec![
            pair(0, Some(1.0), 1.0, 1.0),
            pair(0, Some(2.0), 3.0, 1.0),
            pair(1, Some(1.0), 2.0, 1.0),
            pair(1, Some(2.0), 4.0, 1.0),
        ];
        let (drawn, _) = units_of(&pairs, Population::Drawn, String::new());
        assert_eq!((drawn.unit, drawn.numerators.clone()), (Unit::Workload, vec![1.5, 3.5]));
        let (fixed, per_seed) = units_of(&pairs, Population::Fixed, String::new());
        assert_eq!((fixed.unit, fixed.numerators.clone()), (Unit::FixedSet, vec![2.0, 3.0]));
        assert_eq!(per_seed, vec![(0, 2.0), (1, 3.0)]);
        // A claim that pins the sample axis to one workload keeps its seeds as units (it used
        // to be one workload: no interval, however many seeds).
        let pinned = vec![pair(0, Some(1.0), 1.0, 1.0), pair(1, Some(1.0), 2.0, 1.0), pair(2, Some(1.0), 3.0, 1.0)];
        let (one, _) = units_of(&pinned, Population::Drawn, String::new());
        assert_eq!((one.unit, one.numerators.len()), (Unit::OneWorkload, 3));
        assert!(Estimate::ratio(&one.numerators, &one.denominators).unwrap().interval.is_some());
        // Without a sample axis: seeds.
        let plain = vec![pair(0, None, 1.0, 2.0), pair(1, None, 2.0, 2.0)];
        assert_eq!(units_of(&plain, Population::Fixed, String::new()).0.unit, Unit::Seed);
    }

    fn case(values: &[f64]) -> Case {
        Case {
            place: String::new(),
            numerators: values.to_vec(),
            denominators: vec![1.0; values.len()],
            unit: Unit::Seed,
        }
    }

    #[test]
    fn a_best_case_splits_its_error_and_covers_the_best_true_value() {
        let cases = vec![case(&[1.0, 1.2, 1.1]), case(&[0.8, 1.0, 0.9]), case(&[0.85, 0.87, 0.86])];
        let (estimate, chosen) = best_of(&cases, Best::Min, 3).unwrap();
        assert_eq!(chosen, 2);
        assert!((estimate.value - 0.86).abs() < 1e-12);
        assert_eq!(estimate.confidence, 1.0 - 0.05 / 3.0);
        // Each pair at 98.33%; the interval runs from the smallest lower end to the smallest
        // upper end, so it reaches below the chosen pair's own lower end (case 1's).
        let each: Vec<(f64, f64)> = cases
            .iter()
            .map(|case| {
                Estimate::ratio_at(&case.numerators, &case.denominators, 1.0 - 0.05 / 3.0).unwrap().interval.unwrap()
            })
            .collect();
        let (lower, upper) = estimate.interval.unwrap();
        assert_eq!(lower, each.iter().map(|end| end.0).fold(f64::INFINITY, f64::min));
        assert_eq!(upper, each.iter().map(|end| end.1).fold(f64::INFINITY, f64::min));
        assert!(lower < each[2].0);
        // One case alone is judged as chosen in advance, at 95%.
        let (single, _) = best_of(&cases[..1], Best::Max, 1).unwrap();
        assert_eq!(single.interval, Estimate::ratio(&cases[0].numerators, &cases[0].denominators).unwrap().interval);
    }

    fn best_case_result(cases: Vec<Case>, verdict: Verdict) -> ClaimResult {
        let claim = Claim {
            source: "paper".into(),
            text: "JCT down by up to 70%".into(),
            metric: Metric::AvgJctHours,
            target: ClaimTarget::BestRatio {
                policy: "p".into(),
                against: vec!["b".into()],
                best: Best::Min,
                points: Vec::new(),
            },
            at: Vec::new(),
            expected: 0.3,
            tolerance: 0.5,
            direction: crate::spec::Direction::AtMost,
            best_known: Vec::new(),
            bound: false,
        };
        let (estimate, chosen) = best_of(&cases, Best::Min, cases.len()).unzip();
        ClaimResult {
            claim,
            measured: estimate.map(|estimate| estimate.value),
            estimate,
            unit: Unit::Workload,
            per_seed: Vec::new(),
            best_known: Vec::new(),
            bound: None,
            verdict,
            holds: false,
            best_case: chosen.map(|chosen| format!("case {chosen}")),
            cases,
            bound_cases: Vec::new(),
            looks: 1,
        }
    }

    #[test]
    fn a_best_case_across_experiments_splits_its_error_over_every_pair() {
        let philly = best_case_result(vec![case(&[0.9, 0.95, 1.0]), case(&[0.8, 0.85, 0.9])], Verdict::Missed);
        let helios = best_case_result(vec![case(&[0.40, 0.44, 0.48])], Verdict::Holds);
        let results = across(&[("philly".into(), vec![philly]), ("helios".into(), vec![helios.clone()])]);
        assert_eq!(results.len(), 1);
        let result = &results[0];
        assert_eq!((result.measured, result.best_in.as_deref()), (Some(0.44), Some("helios")));
        let estimate = result.estimate.unwrap();
        assert_eq!(estimate.confidence, 1.0 - 0.05 / 3.0);
        // Band <= 0.45: helios' own 95% interval would hold; split over three pairs it does not.
        let wider = Estimate::ratio_at(&[0.40, 0.44, 0.48], &[1.0; 3], 1.0 - 0.05 / 3.0).unwrap().interval.unwrap();
        assert_eq!(estimate.interval.unwrap().1, wider.1);
        assert!(matches!(result.verdict, Verdict::Inconclusive { .. }), "{:?}", result.verdict);
        // An experiment with missing runs leaves the claim incomplete, never missed.
        let gap =
            best_case_result(Vec::new(), Verdict::Incomplete { missing: vec!["policy=p;seed=0".into()], count: 1 });
        let results = across(&[("philly".into(), vec![gap]), ("helios".into(), vec![helios])]);
        assert_eq!(results[0].verdict.name(), "incomplete");
        assert!(across_markdown(&results).contains("incomplete (1 runs missing: philly (1 runs))"));
    }
}

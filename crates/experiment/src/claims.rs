//! Checking published claims against measured values: each value with a 95% interval over
//! independent units (seeds, or the workloads of a sample axis: [`Unit`]) and one of four
//! verdicts (see [`crate::interval`]).

use crate::axis::Parameter;
use crate::interval::{Estimate, Verdict, judge, with_bound};
use crate::resolve::{Claim, ClaimTarget, Experiment};
use crate::spec::Best;
use crate::store::RunOutcome;
use crate::values::{outcome_metric, parameter};

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
    /// The reference policies' estimates (the claim's `bounds` that were measured).
    pub bounds: Vec<(String, Estimate)>,
    /// What the interval says of the published value.
    pub verdict: Verdict,
    /// Whether the verdict is [`Verdict::Holds`].
    pub holds: bool,
    /// For a best-case claim: the baseline and sweep point where the best case was measured.
    pub best_case: Option<String>,
}

/// One replicate's identity: its seed and sweep point (two policies' runs of the same replicate
/// share their workload).
type Replicate = (u64, Vec<(String, f64)>);

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
        .filter(|outcome| {
            outcome.policy == policy
                && claim
                    .at
                    .iter()
                    .chain(point)
                    .all(|(axis, value)| parameter(outcome, Parameter::Axis(*axis)) == value.to_string())
        })
        .map(|outcome| {
            ((outcome.seed, outcome.point.clone()), outcome_metric(experiment, outcomes, outcome, claim.metric))
        })
        .collect()
}

/// What a claim's interval counts as independent: each seed, or, when the runs span a sample
/// axis (`trace_index`, `episode`), each workload it draws, with the runs of its seeds averaged
/// (seeds that share a workload are not independent draws of it: RLTune's baselines, say, run
/// each episode identically under every seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Each seed (its workload and its run).
    Seed,
    /// Each workload of a sample axis.
    Workload,
}

impl Unit {
    /// The unit's name in the plural, as tables write it.
    pub fn plural(self) -> &'static str {
        match self {
            Unit::Seed => "seeds",
            Unit::Workload => "workloads",
        }
    }
}

/// One paired run: its seed, the sample-axis values it was drawn at (empty without one), and
/// the two sides' values (the denominator 1 for a single policy).
type Pair = (u64, Vec<(String, f64)>, f64, f64);

/// Paired numerators and denominators: the replicates both sides ran (all of them, in an
/// experiment whose runs are complete), in the numerator's order; `None` for the denominator
/// gives a single policy's values over 1.
fn paired(numerator: &[(Replicate, f64)], denominator: Option<&[(Replicate, f64)]>) -> Vec<Pair> {
    let sample = |point: &[(String, f64)]| -> Vec<(String, f64)> {
        point
            .iter()
            .filter(|(name, _)| name.parse::<crate::axis::Axis>().is_ok_and(crate::axis::Axis::is_sample))
            .cloned()
            .collect()
    };
    numerator
        .iter()
        .filter_map(|(replicate, a)| {
            let b = match denominator {
                None => 1.0,
                Some(denominator) => denominator.iter().find(|(other, _)| other == replicate).map(|(_, b)| *b)?,
            };
            Some((replicate.0, sample(&replicate.1), *a, b))
        })
        .collect()
}

/// One unit's sums so far: its seed, sample-axis values, the two sides' sums and its runs.
type UnitSums<'a> = (u64, &'a [(String, f64)], f64, f64, usize);

/// The estimate over independent units ([`Unit`]), and each seed's own ratio of means.
fn estimate_of(pairs: &[Pair]) -> (Option<Estimate>, Unit, Vec<(u64, f64)>) {
    let unit = if pairs.iter().any(|pair| !pair.1.is_empty()) { Unit::Workload } else { Unit::Seed };
    // Units in the order they first appear, each the mean of its runs.
    let mut units: Vec<UnitSums> = Vec::new();
    for (seed, sample, a, b) in pairs {
        let same = |known: &UnitSums| match unit {
            Unit::Seed => known.0 == *seed,
            Unit::Workload => known.1 == sample.as_slice(),
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
    let (a, b): (Vec<f64>, Vec<f64>) = units.iter().map(|&(_, _, a, b, n)| (a / n as f64, b / n as f64)).unzip();
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
    (Estimate::ratio(&a, &b), unit, per_seed)
}

/// A claim's estimate, its unit, per-seed values and, for a best-case claim, where its best
/// case was.
type Measured = (Option<Estimate>, Unit, Vec<(u64, f64)>, Option<String>);

/// A best case found so far: its estimate, unit, per-seed values and where it was.
type BestCase = (Estimate, Unit, Vec<(u64, f64)>, String);

/// Measures one claim (without judging it).
fn measure(experiment: &Experiment, outcomes: &[RunOutcome], claim: &Claim) -> Measured {
    let of = |policy: &str, point: &[(crate::axis::Axis, f64)]| replicates(experiment, outcomes, claim, policy, point);
    match &claim.target {
        ClaimTarget::Policy(policy) => {
            let (estimate, unit, per_seed) = estimate_of(&paired(&of(policy, &[]), None));
            (estimate, unit, per_seed, None)
        }
        ClaimTarget::Ratio(a, b) => {
            let (estimate, unit, per_seed) = estimate_of(&paired(&of(a, &[]), Some(&of(b, &[]))));
            (estimate, unit, per_seed, None)
        }
        ClaimTarget::BestRatio { policy, against, best, points } => {
            let mut found: Option<BestCase> = None;
            for point in points {
                let numerator = of(policy, point);
                for baseline in against {
                    let (Some(estimate), unit, per_seed) = estimate_of(&paired(&numerator, Some(&of(baseline, point))))
                    else {
                        // A claim never rests on part of its range.
                        return (None, Unit::Seed, Vec::new(), None);
                    };
                    let better = match (&found, best) {
                        (None, _) => true,
                        (Some((current, ..)), Best::Min) => estimate.value < current.value,
                        (Some((current, ..)), Best::Max) => estimate.value > current.value,
                    };
                    if better && !estimate.value.is_nan() {
                        let at: Vec<String> = point.iter().map(|(axis, value)| format!("{axis}={value}")).collect();
                        let place = if at.is_empty() { String::new() } else { format!(" at {}", at.join(", ")) };
                        found = Some((estimate, unit, per_seed, format!("vs {baseline}{place}")));
                    }
                }
            }
            match found {
                Some((estimate, unit, per_seed, place)) => (Some(estimate), unit, per_seed, Some(place)),
                None => (None, Unit::Seed, Vec::new(), None),
            }
        }
    }
}

/// Judges a measured claim, with its reference policies' estimates (`bounds`).
fn verdict_of(claim: &Claim, estimate: Option<&Estimate>, bounds: &[(String, Estimate)]) -> Verdict {
    let own = match estimate {
        Some(estimate) => judge(estimate, claim.expected, claim.tolerance),
        // No matching run: nothing supports the claim.
        None => Verdict::Missed,
    };
    with_bound(own, bounds, claim.expected, claim.tolerance)
}

/// Evaluates every claim of the experiment.
pub fn evaluate(experiment: &Experiment, outcomes: &[RunOutcome]) -> Vec<ClaimResult> {
    experiment
        .report
        .claims
        .iter()
        .map(|claim| {
            let (estimate, unit, per_seed, best_case) = measure(experiment, outcomes, claim);
            let bounds: Vec<(String, Estimate)> = claim
                .bounds
                .iter()
                .filter_map(|bound| {
                    measure(experiment, outcomes, &claim.with_policy(bound)).0.map(|estimate| (bound.clone(), estimate))
                })
                .collect();
            let verdict = verdict_of(claim, estimate.as_ref(), &bounds);
            ClaimResult {
                claim: claim.clone(),
                measured: estimate.map(|estimate| estimate.value),
                estimate,
                unit,
                per_seed,
                holds: verdict == Verdict::Holds,
                bounds,
                verdict,
                best_case,
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

/// How a claim's units show: so many seeds, or so many workloads.
fn show_runs(result: &ClaimResult) -> String {
    format!("{} {}", result.estimate.map_or(0, |estimate| estimate.n), result.unit.plural())
}

/// A verdict as claim tables show it: misses in capitals, with how many units (seeds or
/// workloads) would settle an inconclusive one (`units` measured so far) and the bound that
/// makes a claim unreachable.
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
        Verdict::Unreachable { policy, bound } => {
            format!("UNREACHABLE HERE (closest bound: {policy} {} {})", show(bound.value), show_interval(Some(bound)))
        }
    }
}

/// A claim's cells as reports show them: the claim (with what it measures), its source, the
/// paper's value, the measured value (with the best case for best-of claims), the lower and
/// upper ends of its 95% interval, the units it rests on, the number of seeds, the per-seed
/// values (up to ten seeds), the tolerance and the verdict.
pub fn cells(result: &ClaimResult) -> [String; 11] {
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
    let bound = |side: fn((f64, f64)) -> f64| interval.map_or("-".to_string(), |interval| show(side(interval)));
    [
        format!("{} ({what})", claim.text),
        claim.source.clone(),
        claim.expected.to_string(),
        measured,
        bound(|interval| interval.0),
        bound(|interval| interval.1),
        show_runs(result),
        result.per_seed.len().to_string(),
        per_seed,
        format!("{:.0}%", claim.tolerance * 100.0),
        verdict_text(&result.verdict, result.unit, result.estimate.map_or(0, |estimate| estimate.n)),
    ]
}

/// A Markdown table of verdicts; misses are shown, not hidden.
pub fn markdown(results: &[ClaimResult]) -> String {
    let mut text = String::from(
        "| claim | source | paper | measured | lower | upper | units | n_seeds | per seed | tolerance | verdict |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for result in results {
        text.push_str(&format!("| {} |\n", cells(result).join(" | ")));
    }
    text.push_str(&format!("\n{}\n", INTERVAL_NOTE));
    text
}

/// How claim tables say their intervals were made.
pub const INTERVAL_NOTE: &str = "Intervals: 95% Student-t intervals over independent units, each seed or, where the runs \
span a sample axis, each workload it draws (its seeds' runs averaged), a ratio's two policies paired unit by unit (the \
linearised interval of a ratio of means). A verdict holds when the \
whole interval lies inside the tolerance band, is missed when it lies wholly outside, and is inconclusive when it straddles \
an edge; unreachable here when even the closest reference policy (`bounds`) misses the band wholly.";

/// A number as the CSV files write it: empty when absent.
fn number(value: Option<f64>) -> String {
    value.map_or(String::new(), |value| value.to_string())
}

/// The CSV fields every claims file starts with: claim, source, metric, expected, tolerance,
/// measured, lower, upper, n_units, unit.
fn claim_fields(claim: &Claim, estimate: Option<&Estimate>, unit: Unit) -> Vec<String> {
    let interval = estimate.and_then(|estimate| estimate.interval);
    vec![
        claim.text.clone(),
        claim.source.clone(),
        claim.metric.to_string(),
        claim.expected.to_string(),
        claim.tolerance.to_string(),
        number(estimate.map(|estimate| estimate.value)),
        number(interval.map(|interval| interval.0)),
        number(interval.map(|interval| interval.1)),
        estimate.map_or(0, |estimate| estimate.n).to_string(),
        unit.plural().to_string(),
    ]
}

/// What a verdict adds to its CSV row: the units that would settle an inconclusive one, and
/// the bound that makes a claim unreachable.
fn verdict_fields(verdict: &Verdict) -> (String, Option<(String, Estimate)>) {
    match verdict {
        Verdict::Inconclusive { replicates_needed } => {
            (replicates_needed.map_or(String::new(), |n| n.to_string()), None)
        }
        Verdict::Unreachable { policy, bound } => (String::new(), Some((policy.clone(), *bound))),
        _ => (String::new(), None),
    }
}

/// The machine-readable form of the verdicts (`claims.csv`): one row a claim with its value,
/// interval, runs, seeds, verdict, what would settle it, the closest bound and every run's
/// value by seed.
pub fn csv(results: &[ClaimResult]) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .write_record([
            "claim",
            "source",
            "metric",
            "expected",
            "tolerance",
            "measured",
            "lower",
            "upper",
            "n_units",
            "unit",
            "n_seeds",
            "verdict",
            "units_needed",
            "bound_policy",
            "bound_value",
            "bound_lower",
            "bound_upper",
            "best_case",
            "per_seed",
        ])
        .expect("in-memory CSV");
    for result in results {
        let (needed, bound) = verdict_fields(&result.verdict);
        let bound_interval = bound.as_ref().and_then(|(_, estimate)| estimate.interval);
        let per_seed: Vec<String> = result.per_seed.iter().map(|(seed, value)| format!("{seed}:{value}")).collect();
        let mut record = claim_fields(&result.claim, result.estimate.as_ref(), result.unit);
        record.extend([
            result.per_seed.len().to_string(),
            result.verdict.name().to_string(),
            needed,
            bound.as_ref().map(|(policy, _)| policy.clone()).unwrap_or_default(),
            number(bound.as_ref().map(|(_, estimate)| estimate.value)),
            number(bound_interval.map(|interval| interval.0)),
            number(bound_interval.map(|interval| interval.1)),
            result.best_case.clone().unwrap_or_default(),
            per_seed.join(";"),
        ]);
        writer.write_record(&record).expect("in-memory CSV");
    }
    writer.into_inner().expect("in-memory CSV")
}

/// How many claims have each verdict: holds, missed, inconclusive, unreachable here.
pub fn counts<'a>(verdicts: impl IntoIterator<Item = &'a Verdict>) -> [usize; 4] {
    let mut counts = [0; 4];
    for verdict in verdicts {
        let index = match verdict {
            Verdict::Holds => 0,
            Verdict::Missed => 1,
            Verdict::Inconclusive { .. } => 2,
            Verdict::Unreachable { .. } => 3,
        };
        counts[index] += 1;
    }
    counts
}

/// "3 hold, 1 missed, 1 inconclusive, 0 unreachable here".
pub fn counts_text(counts: [usize; 4]) -> String {
    format!("{} hold, {} missed, {} inconclusive, {} unreachable here", counts[0], counts[1], counts[2], counts[3])
}

/// A best-case claim ("up to ...") checked in several experiments (one per trace, say) and
/// judged on its best case across them.
#[derive(Clone, Debug, PartialEq)]
pub struct AcrossResult {
    /// The claim as the first experiment states it.
    pub claim: Claim,
    /// Each experiment's name, estimate, best case and unit.
    pub per_experiment: Vec<(String, Option<Estimate>, Option<String>, Unit)>,
    /// The best measured value across the experiments; `None` if any is missing (a claim never
    /// rests on part of its range).
    pub measured: Option<f64>,
    /// Its estimate, with the interval of the experiment where it was measured.
    pub estimate: Option<Estimate>,
    /// That experiment's unit.
    pub unit: Unit,
    /// The experiment where it was measured.
    pub best_in: Option<String>,
    /// The reference policies' estimates in every experiment (`experiment: policy`).
    pub bounds: Vec<(String, Estimate)>,
    /// The best case's verdict, with the closest bound of any experiment.
    pub verdict: Verdict,
    /// Whether the verdict is [`Verdict::Holds`].
    pub holds: bool,
}

/// The best-case claims that at least two of `experiments` check with the same source, text,
/// metric, published value, tolerance and direction, each judged on its best case across them,
/// in the order they first appear.
pub fn across(experiments: &[(String, Vec<ClaimResult>)]) -> Vec<AcrossResult> {
    let key = |claim: &Claim| match &claim.target {
        ClaimTarget::BestRatio { best, .. } => Some((
            claim.source.clone(),
            claim.text.clone(),
            claim.metric,
            claim.expected.to_bits(),
            claim.tolerance.to_bits(),
            *best,
        )),
        _ => None,
    };
    let mut groups: Vec<(_, AcrossResult)> = Vec::new();
    for (name, results) in experiments {
        for result in results {
            let Some(this) = key(&result.claim) else { continue };
            let entry = (name.clone(), result.estimate, result.best_case.clone(), result.unit);
            let bounds = result.bounds.iter().map(|(policy, estimate)| (format!("{name}: {policy}"), *estimate));
            match groups.iter_mut().find(|(known, _)| *known == this) {
                Some((_, group)) => {
                    group.per_experiment.push(entry);
                    group.bounds.extend(bounds);
                }
                None => {
                    let group = AcrossResult {
                        claim: result.claim.clone(),
                        per_experiment: vec![entry],
                        measured: None,
                        estimate: None,
                        unit: Unit::Seed,
                        best_in: None,
                        bounds: bounds.collect(),
                        verdict: Verdict::Missed,
                        holds: false,
                    };
                    groups.push((this, group));
                }
            }
        }
    }
    groups
        .into_iter()
        .filter(|(_, group)| group.per_experiment.len() >= 2)
        .map(|(key, mut group)| {
            let best = key.5;
            if group.per_experiment.iter().all(|(_, estimate, ..)| estimate.is_some()) {
                let better = |a: f64, b: f64| match best {
                    Best::Min => a < b,
                    Best::Max => a > b,
                };
                for (name, estimate, _, unit) in &group.per_experiment {
                    let estimate = estimate.expect("checked above");
                    if group.measured.is_none_or(|found| better(estimate.value, found)) {
                        group.measured = Some(estimate.value);
                        group.estimate = Some(estimate);
                        group.unit = *unit;
                        group.best_in = Some(name.clone());
                    }
                }
            }
            group.verdict = verdict_of(&group.claim, group.estimate.as_ref(), &group.bounds);
            group.holds = group.verdict == Verdict::Holds;
            group
        })
        .collect()
}

/// A Markdown table of [`across`]'s verdicts: each experiment's best case with its interval,
/// then the best of them.
pub fn across_markdown(results: &[AcrossResult]) -> String {
    let mut text = String::from(
        "| claim | source | paper | measured in each experiment | best | lower | upper | units | tolerance | verdict |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
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
            _ => "incomplete".to_string(),
        };
        let runs =
            result.estimate.map_or("-".to_string(), |estimate| format!("{} {}", estimate.n, result.unit.plural()));
        let interval = result.estimate.and_then(|estimate| estimate.interval);
        let (lower, upper) =
            interval.map_or(("-".to_string(), "-".to_string()), |(lower, upper)| (show(lower), show(upper)));
        text.push_str(&format!(
            "| {} | {} | {} | {} | {best} | {lower} | {upper} | {runs} | {:.0}% | {} |\n",
            claim.text,
            claim.source,
            claim.expected,
            each.join("; "),
            claim.tolerance * 100.0,
            verdict_text(&result.verdict, result.unit, result.estimate.map_or(0, |estimate| estimate.n))
        ));
    }
    text.push_str(&format!("\n{INTERVAL_NOTE}\n"));
    text
}

/// The machine-readable form of [`across`]'s verdicts (`<family>-claims.csv`).
pub fn across_csv(results: &[AcrossResult]) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .write_record([
            "claim",
            "source",
            "metric",
            "expected",
            "tolerance",
            "measured",
            "lower",
            "upper",
            "n_units",
            "unit",
            "best_in",
            "verdict",
            "units_needed",
            "bound_policy",
            "bound_value",
        ])
        .expect("in-memory CSV");
    for result in results {
        let (needed, bound) = verdict_fields(&result.verdict);
        let mut record = claim_fields(&result.claim, result.estimate.as_ref(), result.unit);
        record.extend([
            result.best_in.clone().unwrap_or_default(),
            result.verdict.name().to_string(),
            needed,
            bound.as_ref().map(|(policy, _)| policy.clone()).unwrap_or_default(),
            number(bound.map(|(_, estimate)| estimate.value)),
        ]);
        writer.write_record(&record).expect("in-memory CSV");
    }
    writer.into_inner().expect("in-memory CSV")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::Metric;

    fn estimate(value: f64, half: f64) -> Estimate {
        Estimate { value, interval: Some((value - half, value + half)), n: 3, spread: half * 3f64.sqrt() / 4.303 }
    }

    fn best_case(text: &str, best: Best, measured: Option<Estimate>, place: &str) -> ClaimResult {
        let claim = Claim {
            source: "paper".into(),
            text: text.into(),
            metric: Metric::AvgJctHours,
            target: ClaimTarget::BestRatio { policy: "p".into(), against: vec!["b".into()], best, points: Vec::new() },
            at: Vec::new(),
            expected: 0.3,
            tolerance: 0.5,
            bounds: vec!["oracle".into()],
        };
        ClaimResult {
            claim,
            measured: measured.map(|estimate| estimate.value),
            estimate: measured,
            unit: Unit::Seed,
            per_seed: Vec::new(),
            bounds: Vec::new(),
            verdict: Verdict::Missed,
            holds: false,
            best_case: Some(place.into()),
        }
    }

    #[test]
    fn a_claim_checked_in_several_experiments_is_judged_on_its_best_case() {
        let experiments = vec![
            (
                "philly".to_string(),
                vec![
                    best_case("JCT down by up to 70%", Best::Min, Some(estimate(0.93, 0.05)), "vs fcfs"),
                    best_case("only here", Best::Min, Some(estimate(0.3, 0.01)), "vs fcfs"),
                ],
            ),
            (
                "helios".to_string(),
                vec![
                    best_case("JCT down by up to 70%", Best::Min, Some(estimate(0.44, 0.005)), "vs sjf"),
                    best_case("utilisation up by up to 20%", Best::Max, Some(estimate(1.1, 0.01)), "vs uni"),
                ],
            ),
            ("alibaba".to_string(), vec![best_case("utilisation up by up to 20%", Best::Max, None, "-")]),
        ];
        let results = across(&experiments);
        // The claim of one experiment only is left out.
        assert_eq!(results.len(), 2);
        assert_eq!((results[0].measured, results[0].best_in.as_deref()), (Some(0.44), Some("helios")));
        assert_eq!(results[0].verdict, Verdict::Holds, "[0.435, 0.445] lies within 50% of 0.3");
        // A missing value leaves the best case undecided: not a verdict on part of the range.
        assert_eq!((results[1].measured, results[1].holds), (None, false));
        let table = across_markdown(&results);
        assert!(
            table.contains(
                "| philly: 0.930 [0.880, 0.980] (vs fcfs); helios: 0.440 [0.435, 0.445] (vs sjf) | 0.440 (helios) \
                 | 0.435 | 0.445 | 3 seeds | 50% | holds |"
            ),
            "{table}"
        );
        assert!(table.contains("alibaba: no matching run (-) | incomplete | - | - | - | 50% | MISSED |"), "{table}");
    }

    #[test]
    fn the_closest_bound_of_any_experiment_makes_a_missed_best_case_unreachable() {
        let mut philly = best_case("queueing down by up to 81%", Best::Min, Some(estimate(0.6, 0.05)), "vs fcfs");
        philly.bounds = vec![("oracle".into(), estimate(0.5, 0.02))];
        let mut helios = best_case("queueing down by up to 81%", Best::Min, Some(estimate(0.7, 0.05)), "vs fcfs");
        helios.bounds = vec![("oracle".into(), estimate(0.55, 0.02))];
        let results = across(&[("philly".into(), vec![philly]), ("helios".into(), vec![helios])]);
        // Band [0.15, 0.45]: the best case 0.6 misses, and so does the closest oracle, 0.5.
        assert_eq!(
            results[0].verdict,
            Verdict::Unreachable { policy: "philly: oracle".into(), bound: estimate(0.5, 0.02) }
        );
        assert!(
            across_markdown(&results).contains("UNREACHABLE HERE (closest bound: philly: oracle 0.500 [0.480, 0.520])")
        );
    }
}

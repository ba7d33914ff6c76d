//! Checking published claims against measured values.

use crate::axis::Parameter;
use crate::resolve::{Claim, ClaimTarget, Experiment};
use crate::spec::Best;
use crate::store::RunOutcome;
use crate::values::{outcome_metric, parameter};

/// One claim's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimResult {
    /// The claim.
    pub claim: Claim,
    /// The measured value (mean over seeds), or `None` if no run matched.
    pub measured: Option<f64>,
    /// Whether `|measured - expected| <= tolerance x |expected|`.
    pub holds: bool,
    /// For a best-case claim: the baseline and sweep point where the best case was measured.
    pub best_case: Option<String>,
}

/// Mean of the claim's metric for `policy` at the claim's sweep point (and `point`, the axes a
/// best-case claim ranges over).
fn value_at(
    experiment: &Experiment,
    outcomes: &[RunOutcome],
    claim: &Claim,
    policy: &str,
    point: &[(crate::axis::Axis, f64)],
) -> Option<f64> {
    let values: Vec<f64> = outcomes
        .iter()
        .filter(|outcome| {
            outcome.policy == policy
                && claim
                    .at
                    .iter()
                    .chain(point)
                    .all(|(axis, value)| parameter(outcome, Parameter::Axis(*axis)) == value.to_string())
        })
        .map(|outcome| outcome_metric(experiment, outcomes, outcome, claim.metric))
        .collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Whether `|value - expected| <= tolerance x |expected|`.
fn within_tolerance(claim: &Claim, value: f64) -> bool {
    (value - claim.expected).abs() <= claim.tolerance * claim.expected.abs()
}

/// Evaluates every claim of the experiment.
pub fn evaluate(experiment: &Experiment, outcomes: &[RunOutcome]) -> Vec<ClaimResult> {
    experiment
        .report
        .claims
        .iter()
        .map(|claim| {
            let (measured, best_case) = match &claim.target {
                ClaimTarget::Policy(policy) => (value_at(experiment, outcomes, claim, policy, &[]), None),
                ClaimTarget::Ratio(a, b) => (
                    value_at(experiment, outcomes, claim, a, &[])
                        .zip(value_at(experiment, outcomes, claim, b, &[]))
                        .map(|(a, b)| a / b),
                    None,
                ),
                ClaimTarget::BestRatio { policy, against, best, points } => {
                    best_ratio(experiment, outcomes, claim, policy, against, *best, points)
                }
            };
            let holds = measured.is_some_and(|value| within_tolerance(claim, value));
            ClaimResult { claim: claim.clone(), measured, holds, best_case }
        })
        .collect()
}

/// The best `policy / baseline` ratio over baselines and points (first found on ties), with where
/// it was measured; `None` if any compared value is missing (a claim never rests on part of its
/// range).
fn best_ratio(
    experiment: &Experiment,
    outcomes: &[RunOutcome],
    claim: &Claim,
    policy: &str,
    against: &[String],
    best: Best,
    points: &[Vec<(crate::axis::Axis, f64)>],
) -> (Option<f64>, Option<String>) {
    let mut found: Option<(f64, String)> = None;
    for point in points {
        let Some(numerator) = value_at(experiment, outcomes, claim, policy, point) else { return (None, None) };
        for baseline in against {
            let Some(denominator) = value_at(experiment, outcomes, claim, baseline, point) else {
                return (None, None);
            };
            let ratio = numerator / denominator;
            let better = match (&found, best) {
                (None, _) => true,
                (Some((current, _)), Best::Min) => ratio < *current,
                (Some((current, _)), Best::Max) => ratio > *current,
            };
            if better && !ratio.is_nan() {
                let at: Vec<String> = point.iter().map(|(axis, value)| format!("{axis}={value}")).collect();
                let place = if at.is_empty() { String::new() } else { format!(" at {}", at.join(", ")) };
                found = Some((ratio, format!("vs {baseline}{place}")));
            }
        }
    }
    match found {
        Some((ratio, place)) => (Some(ratio), Some(place)),
        None => (None, None),
    }
}

/// A claim's cells as reports show them: the claim (with what it measures), its source, the
/// paper's value, the measured value (with the best case for best-of claims) and the tolerance.
pub fn cells(result: &ClaimResult) -> [String; 5] {
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
    let mut measured = result.measured.map_or("no matching run".to_string(), |value| format!("{value:.3}"));
    if let Some(place) = &result.best_case {
        measured.push_str(&format!(" ({place})"));
    }
    [
        format!("{} ({what})", claim.text),
        claim.source.clone(),
        claim.expected.to_string(),
        measured,
        format!("{:.0}%", claim.tolerance * 100.0),
    ]
}

/// A Markdown table of verdicts; misses are shown, not hidden.
pub fn markdown(results: &[ClaimResult]) -> String {
    let mut text =
        String::from("| claim | source | paper | measured | tolerance | verdict |\n|---|---|---|---|---|---|\n");
    for result in results {
        let [claim, source, paper, measured, tolerance] = cells(result);
        let verdict = if result.holds { "holds" } else { "MISSED" };
        text.push_str(&format!("| {claim} | {source} | {paper} | {measured} | {tolerance} | {verdict} |\n"));
    }
    text
}

/// A best-case claim ("up to ...") checked in several experiments (one per trace, say) and
/// judged on its best case across them.
#[derive(Clone, Debug, PartialEq)]
pub struct AcrossResult {
    /// The claim as the first experiment states it.
    pub claim: Claim,
    /// Each experiment's name, measured value and best case.
    pub per_experiment: Vec<(String, Option<f64>, Option<String>)>,
    /// The best measured value across the experiments; `None` if any is missing (a claim never
    /// rests on part of its range).
    pub measured: Option<f64>,
    /// The experiment where it was measured.
    pub best_in: Option<String>,
    /// Whether `|measured - expected| <= tolerance x |expected|`.
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
            let entry = (name.clone(), result.measured, result.best_case.clone());
            match groups.iter_mut().find(|(known, _)| *known == this) {
                Some((_, group)) => group.per_experiment.push(entry),
                None => {
                    let group = AcrossResult {
                        claim: result.claim.clone(),
                        per_experiment: vec![entry],
                        measured: None,
                        best_in: None,
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
            if group.per_experiment.iter().all(|(_, measured, _)| measured.is_some()) {
                let better = |a: f64, b: f64| match best {
                    Best::Min => a < b,
                    Best::Max => a > b,
                };
                for (name, measured, _) in &group.per_experiment {
                    let value = measured.expect("checked above");
                    if group.measured.is_none_or(|found| better(value, found)) {
                        group.measured = Some(value);
                        group.best_in = Some(name.clone());
                    }
                }
            }
            group.holds = group.measured.is_some_and(|value| within_tolerance(&group.claim, value));
            group
        })
        .collect()
}

/// A Markdown table of [`across`]'s verdicts: each experiment's best case, then the best of them.
pub fn across_markdown(results: &[AcrossResult]) -> String {
    let mut text = String::from(
        "| claim | source | paper | measured in each experiment | best | tolerance | verdict |\n|---|---|---|---|---|---|---|\n",
    );
    for result in results {
        let claim = &result.claim;
        let each: Vec<String> = result
            .per_experiment
            .iter()
            .map(|(name, measured, place)| {
                let value = measured.map_or("no matching run".to_string(), |value| format!("{value:.3}"));
                match place {
                    Some(place) => format!("{name}: {value} ({place})"),
                    None => format!("{name}: {value}"),
                }
            })
            .collect();
        let best = match (&result.measured, &result.best_in) {
            (Some(value), Some(name)) => format!("{value:.3} ({name})"),
            _ => "incomplete".to_string(),
        };
        let verdict = if result.holds { "holds" } else { "MISSED" };
        text.push_str(&format!(
            "| {} | {} | {} | {} | {best} | {:.0}% | {verdict} |\n",
            claim.text,
            claim.source,
            claim.expected,
            each.join("; "),
            claim.tolerance * 100.0
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::Metric;

    fn best_case(text: &str, best: Best, measured: Option<f64>, place: &str) -> ClaimResult {
        let claim = Claim {
            source: "paper".into(),
            text: text.into(),
            metric: Metric::AvgJctHours,
            target: ClaimTarget::BestRatio { policy: "p".into(), against: vec!["b".into()], best, points: Vec::new() },
            at: Vec::new(),
            expected: 0.3,
            tolerance: 0.5,
        };
        ClaimResult { claim, measured, holds: false, best_case: Some(place.into()) }
    }

    #[test]
    fn a_claim_checked_in_several_experiments_is_judged_on_its_best_case() {
        let experiments = vec![
            (
                "philly".to_string(),
                vec![
                    best_case("JCT down by up to 70%", Best::Min, Some(0.93), "vs fcfs"),
                    best_case("only here", Best::Min, Some(0.3), "vs fcfs"),
                ],
            ),
            (
                "helios".to_string(),
                vec![
                    best_case("JCT down by up to 70%", Best::Min, Some(0.44), "vs sjf"),
                    best_case("utilisation up by up to 20%", Best::Max, Some(1.1), "vs uni"),
                ],
            ),
            ("alibaba".to_string(), vec![best_case("utilisation up by up to 20%", Best::Max, None, "-")]),
        ];
        let results = across(&experiments);
        // The claim of one experiment only is left out.
        assert_eq!(results.len(), 2);
        assert_eq!((results[0].measured, results[0].best_in.as_deref()), (Some(0.44), Some("helios")));
        assert!(results[0].holds, "0.44 is within 50% of 0.3");
        // A missing value leaves the best case undecided: not a verdict on part of the range.
        assert_eq!((results[1].measured, results[1].holds), (None, false));
        let table = across_markdown(&results);
        assert!(
            table.contains("| philly: 0.930 (vs fcfs); helios: 0.440 (vs sjf) | 0.440 (helios) | 50% | holds |"),
            "{table}"
        );
        assert!(table.contains("alibaba: no matching run (-) | incomplete | 50% | MISSED |"), "{table}");
    }
}

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
            let holds =
                measured.is_some_and(|value| (value - claim.expected).abs() <= claim.tolerance * claim.expected.abs());
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

//! Checking published claims against measured values.

use crate::axis::Parameter;
use crate::resolve::{Claim, ClaimTarget, Experiment};
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
}

/// Mean of the claim's metric for `policy` at the claim's sweep point.
fn value_at(experiment: &Experiment, outcomes: &[RunOutcome], claim: &Claim, policy: &str) -> Option<f64> {
    let values: Vec<f64> = outcomes
        .iter()
        .filter(|outcome| {
            outcome.policy == policy
                && claim.at.iter().all(|(axis, value)| parameter(outcome, Parameter::Axis(*axis)) == value.to_string())
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
            let measured = match &claim.target {
                ClaimTarget::Policy(policy) => value_at(experiment, outcomes, claim, policy),
                ClaimTarget::Ratio(a, b) => value_at(experiment, outcomes, claim, a)
                    .zip(value_at(experiment, outcomes, claim, b))
                    .map(|(a, b)| a / b),
            };
            let holds =
                measured.is_some_and(|value| (value - claim.expected).abs() <= claim.tolerance * claim.expected.abs());
            ClaimResult { claim: claim.clone(), measured, holds }
        })
        .collect()
}

/// A Markdown table of verdicts; misses are shown, not hidden.
pub fn markdown(results: &[ClaimResult]) -> String {
    let mut text =
        String::from("| claim | source | paper | measured | tolerance | verdict |\n|---|---|---|---|---|---|\n");
    for result in results {
        let claim = &result.claim;
        let what = match &claim.target {
            ClaimTarget::Policy(policy) => format!("{} of {policy}", claim.metric),
            ClaimTarget::Ratio(a, b) => format!("{} of {a} / {b}", claim.metric),
        };
        let measured = result.measured.map_or("no matching run".to_string(), |value| format!("{value:.3}"));
        let verdict = if result.holds { "holds" } else { "MISSED" };
        text.push_str(&format!(
            "| {} ({what}) | {} | {} | {measured} | {:.0}% | {verdict} |\n",
            claim.text,
            claim.source,
            claim.expected,
            claim.tolerance * 100.0
        ));
    }
    text
}

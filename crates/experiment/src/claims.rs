//! Checking published claims against measured values.

use crate::report::{outcome_metric, parameter};
use crate::spec::{ClaimSpec, ExperimentSpec};
use crate::store::RunOutcome;

/// One claim's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimResult {
    /// The claim.
    pub claim: ClaimSpec,
    /// The measured value (mean over seeds), or `None` if no run matched.
    pub measured: Option<f64>,
    /// Whether `|measured - expected| <= tolerance x |expected|`.
    pub holds: bool,
}

/// Mean of `metric` for `policy` at the claim's sweep point (first value of unnamed axes).
fn value_at(spec: &ExperimentSpec, outcomes: &[RunOutcome], claim: &ClaimSpec, policy: &str) -> Option<f64> {
    let point: Vec<(String, String)> = spec
        .axes()
        .into_iter()
        .map(|(axis, values)| {
            let value = claim.at.get(&axis).copied().unwrap_or(values[0]);
            (axis, value.to_string())
        })
        .collect();
    let values: Vec<f64> = outcomes
        .iter()
        .filter(|outcome| {
            outcome.policy == policy && point.iter().all(|(axis, value)| parameter(outcome, axis) == *value)
        })
        .map(|outcome| outcome_metric(spec, outcomes, outcome, &claim.metric))
        .collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Evaluates every claim of the spec.
pub fn evaluate(spec: &ExperimentSpec, outcomes: &[RunOutcome]) -> Vec<ClaimResult> {
    spec.claims
        .iter()
        .map(|claim| {
            let measured = match (&claim.policy, &claim.ratio) {
                (Some(policy), _) => value_at(spec, outcomes, claim, policy),
                (None, Some([a, b])) => {
                    value_at(spec, outcomes, claim, a).zip(value_at(spec, outcomes, claim, b)).map(|(a, b)| a / b)
                }
                (None, None) => None,
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
        let what = match (&claim.policy, &claim.ratio) {
            (Some(policy), _) => format!("{} of {policy}", claim.metric),
            (None, Some([a, b])) => format!("{} of {a} / {b}", claim.metric),
            _ => claim.metric.clone(),
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

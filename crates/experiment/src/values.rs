//! Reading values out of finished runs: a run's metric (including the two-run
//! [`Metric::FtfRho`]) and its parameters, for tables, plots and claims.

use crate::axis::Parameter;
use crate::metric::Metric;
use crate::resolve::Experiment;
use crate::store::RunOutcome;

/// Returns a run's value of a metric. [`Metric::FtfRho`] compares the run with its reference
/// run among `outcomes` (NaN when that run or common jobs are missing).
pub fn outcome_metric(experiment: &Experiment, outcomes: &[RunOutcome], outcome: &RunOutcome, metric: Metric) -> f64 {
    if let Some(value) = metric.of_run(&outcome.metrics) {
        return value;
    }
    let Some(reference) = experiment.report.fairness_reference.as_ref() else { return f64::NAN };
    let Some(base) = outcomes
        .iter()
        .find(|other| other.policy == *reference && other.seed == outcome.seed && other.point == outcome.point)
    else {
        return f64::NAN;
    };
    // Both lists are sorted by job id: walk them together.
    let (mut sum, mut count) = (0.0, 0usize);
    let mut reference_jobs = base.jct_by_job.iter().peekable();
    for &(job, jct) in &outcome.jct_by_job {
        while reference_jobs.next_if(|(other, _)| *other < job).is_some() {}
        if let Some(&&(other, reference_jct)) = reference_jobs.peek()
            && other == job
            && reference_jct > 0.0
        {
            sum += jct / reference_jct;
            count += 1;
        }
    }
    if count == 0 { f64::NAN } else { sum / count as f64 }
}

/// Returns a run's value of a parameter, as text.
pub fn parameter(outcome: &RunOutcome, parameter: Parameter) -> String {
    match parameter {
        Parameter::Policy => outcome.policy.clone(),
        Parameter::Seed => outcome.seed.to_string(),
        Parameter::Axis(axis) => outcome
            .point
            .iter()
            .find(|(known, _)| known == axis.name())
            .map_or_else(String::new, |(_, value)| value.to_string()),
    }
}

/// Returns a parameter's values in spec order, as text.
pub fn parameter_values(experiment: &Experiment, parameter: Parameter) -> Vec<String> {
    match parameter {
        Parameter::Policy => experiment.policies.iter().map(ToString::to_string).collect(),
        Parameter::Seed => experiment.seeds.iter().map(ToString::to_string).collect(),
        Parameter::Axis(axis) => experiment.axis_values(axis).iter().map(ToString::to_string).collect(),
    }
}

/// A number as the CSV files write it: empty when undefined (a JCT of a run in which no measured
/// job finished, say), never `NaN`.
pub(crate) fn csv_number(value: f64) -> String {
    if value.is_nan() { String::new() } else { value.to_string() }
}

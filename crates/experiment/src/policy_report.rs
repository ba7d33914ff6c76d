//! The table of what policies report of their runs ([`schedlab_core::PolicyReport`] values):
//! one row per policy and sweep point, one column per reported name, each cell the mean over
//! seeds with its 95% interval. Written as `policy_report.md` and `.csv` when any run reports.

use crate::interval::Estimate;
use crate::plan::sweep_points;
use crate::resolve::Experiment;
use crate::store::RunOutcome;
use crate::values::csv_number;

/// The file stem of the table.
pub const NAME: &str = "policy_report";

/// The table: row labels, column names, and per cell the values of its runs.
struct Cells {
    rows: Vec<String>,
    columns: Vec<String>,
    values: Vec<Vec<Vec<f64>>>,
}

fn cells(experiment: &Experiment, outcomes: &[RunOutcome]) -> Option<Cells> {
    let mut columns: Vec<String> = Vec::new();
    for report in outcomes.iter().filter_map(|outcome| outcome.policy_report.as_ref()) {
        for (name, _) in &report.values {
            if !columns.contains(name) {
                columns.push(name.clone());
            }
        }
    }
    if columns.is_empty() {
        return None;
    }
    let points = sweep_points(&experiment.axes);
    let mut rows = Vec::new();
    let mut values = Vec::new();
    for policy in &experiment.policies {
        let policy = policy.to_string();
        for point in &points {
            let runs: Vec<&RunOutcome> =
                outcomes.iter().filter(|outcome| outcome.policy == policy && outcome.point == point.0).collect();
            let Some(reports) = runs.iter().map(|run| run.policy_report.as_ref()).collect::<Option<Vec<_>>>() else {
                continue;
            };
            if reports.is_empty() {
                continue;
            }
            let label = if points.len() > 1 { format!("{policy} ({})", point.label()) } else { policy.clone() };
            rows.push(label);
            values.push(
                columns
                    .iter()
                    .map(|column| {
                        reports
                            .iter()
                            .filter_map(|report| report.values.iter().find(|(name, _)| name == column))
                            .map(|(_, value)| *value)
                            .collect()
                    })
                    .collect(),
            );
        }
    }
    Some(Cells { rows, columns, values })
}

fn number(value: f64) -> String {
    if value.is_nan() { "-".to_string() } else { format!("{value:.3}") }
}

/// A cell: the mean, with its 95% interval when two or more runs differ.
fn cell_text(values: &[f64]) -> (String, Option<f64>) {
    let Some(estimate) = Estimate::linear_mean(values) else { return ("-".to_string(), None) };
    let text = match estimate.interval {
        Some((low, high)) if low != high => {
            format!("{} [{} to {}]", number(estimate.value), number(low), number(high))
        }
        _ => number(estimate.value),
    };
    (text, Some(estimate.value))
}

const CAPTION: &str = "what the policies report of their runs (whole runs, not the measurement window); mean over seeds, [95% Student-t interval of the mean]";

/// The Markdown table, or `None` when no run reports values.
pub fn markdown(experiment: &Experiment, outcomes: &[RunOutcome]) -> Option<String> {
    let cells = cells(experiment, outcomes)?;
    let mut text = format!("{CAPTION}\n\n| policy | {} |\n", cells.columns.join(" | "));
    text.push_str(&format!("|---|{}\n", "---|".repeat(cells.columns.len())));
    for (row, row_values) in cells.rows.iter().zip(&cells.values) {
        let rendered: Vec<String> = row_values.iter().map(|values| cell_text(values).0).collect();
        text.push_str(&format!("| {row} | {} |\n", rendered.join(" | ")));
    }
    Some(text)
}

/// The CSV table: per column its mean and interval, or `None` when no run reports values.
pub fn csv(experiment: &Experiment, outcomes: &[RunOutcome]) -> Option<Vec<u8>> {
    let cells = cells(experiment, outcomes)?;
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["policy".to_string()];
    for column in &cells.columns {
        header.extend([format!("{column} mean"), format!("{column} ci95 low"), format!("{column} ci95 high")]);
    }
    writer.write_record(&header).expect("in-memory CSV");
    let text = |value: Option<f64>| value.map_or_else(String::new, csv_number);
    for (row, row_values) in cells.rows.iter().zip(&cells.values) {
        let mut record = vec![row.clone()];
        for values in row_values {
            let estimate = Estimate::linear_mean(values);
            let interval = estimate.and_then(|estimate| estimate.interval);
            record.extend([
                text(estimate.map(|estimate| estimate.value)),
                text(interval.map(|interval| interval.0)),
                text(interval.map(|interval| interval.1)),
            ]);
        }
        writer.write_record(&record).expect("in-memory CSV");
    }
    Some(writer.into_inner().expect("in-memory CSV"))
}

/// The table as the HTML page shows it, or `None` when no run reports values.
pub fn html(experiment: &Experiment, outcomes: &[RunOutcome]) -> Option<crate::html::HtmlTable> {
    let cells = cells(experiment, outcomes)?;
    let rows = cells
        .rows
        .into_iter()
        .zip(cells.values)
        .map(|(label, row_values)| (label, row_values.iter().map(|values| cell_text(values)).collect()))
        .collect();
    let caption = format!("{}{}.", CAPTION[..1].to_uppercase(), &CAPTION[1..]);
    Some(crate::html::HtmlTable {
        name: NAME.to_string(),
        caption,
        corner: "policy".to_string(),
        columns: cells.columns,
        rows,
    })
}

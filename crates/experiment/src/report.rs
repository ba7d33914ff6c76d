//! Writing results: `runs.csv`, tables, `claims.md`, plots, `README.md` and `manifest.json`.

use crate::ExperimentError;
use crate::claims::{ClaimResult, evaluate};
use crate::spec::{ExperimentSpec, TableSpec};
use crate::store::{RunOutcome, Store};
use schedlab_sim::RunMetrics;
use serde::Serialize;

/// Reads one metric from a run's metrics.
pub type MetricReader = fn(&RunMetrics) -> f64;

/// Every metric a table, plot or claim can name, with how to read it from [`RunMetrics`].
pub const METRICS: &[(&str, MetricReader)] = &[
    ("avg_jct_hours", |m| m.avg_jct / 3600.0),
    ("median_jct_hours", |m| m.median_jct / 3600.0),
    ("p95_jct_hours", |m| m.p95_jct / 3600.0),
    ("p99_jct_hours", |m| m.p99_jct / 3600.0),
    ("avg_queueing_delay_hours", |m| m.avg_queueing_delay / 3600.0),
    ("avg_waiting_time_hours", |m| m.avg_waiting_time / 3600.0),
    ("makespan_hours", |m| m.makespan / 3600.0),
    ("utilization", |m| m.utilization),
    ("jobs_measured", |m| m.jobs_measured as f64),
    ("jobs_finished", |m| m.jobs_finished as f64),
    ("restarts", |m| m.restarts as f64),
    ("events", |m| m.events as f64),
    ("decisions", |m| m.decisions as f64),
];

/// Finish-time fairness of a run: the mean over its finished measured jobs of the job's JCT
/// divided by its JCT under the spec's `fairness_reference` policy at the same seed and sweep
/// point (Themis' rho, with the reference as the "isolated" share; 1 for the reference itself).
pub const FTF_RHO: &str = "ftf_rho";

/// Checks a metric name, listing the known ones on error.
pub fn check_metric(name: &str) -> Result<(), String> {
    if METRICS.iter().any(|(known, _)| *known == name) || name == FTF_RHO {
        Ok(())
    } else {
        let known: Vec<&str> = METRICS.iter().map(|(known, _)| *known).chain([FTF_RHO]).collect();
        Err(format!("unknown metric '{name}'; expected one of {}", known.join(", ")))
    }
}

/// Returns a run's value of a metric, including [`FTF_RHO`], which compares the run with its
/// reference run among `outcomes` (NaN when that run or common jobs are missing).
pub fn outcome_metric(spec: &ExperimentSpec, outcomes: &[RunOutcome], outcome: &RunOutcome, name: &str) -> f64 {
    if name != FTF_RHO {
        return metric(&outcome.metrics, name);
    }
    let Some(reference) = spec.fairness_reference.as_ref().map(ToString::to_string) else { return f64::NAN };
    let Some(base) = outcomes
        .iter()
        .find(|other| other.policy == reference && other.seed == outcome.seed && other.point == outcome.point)
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

/// Returns a metric's value.
pub fn metric(metrics: &RunMetrics, name: &str) -> f64 {
    METRICS.iter().find(|(known, _)| *known == name).map_or(f64::NAN, |(_, read)| read(metrics))
}

/// Returns a run's value of a parameter (`policy`, `seed` or an axis), as text.
pub fn parameter(outcome: &RunOutcome, name: &str) -> String {
    match name {
        "policy" => outcome.policy.clone(),
        "seed" => outcome.seed.to_string(),
        axis => outcome
            .point
            .iter()
            .find(|(known, _)| known == axis)
            .map_or_else(String::new, |(_, value)| value.to_string()),
    }
}

/// Returns a parameter's values in spec order.
pub fn parameter_values(spec: &ExperimentSpec, name: &str) -> Vec<String> {
    match name {
        "policy" => spec.policies.iter().map(ToString::to_string).collect(),
        "seed" => spec.seeds.iter().map(ToString::to_string).collect(),
        axis => spec
            .axes()
            .into_iter()
            .find(|(known, _)| known == axis)
            .map(|(_, values)| values.iter().map(ToString::to_string).collect())
            .unwrap_or_default(),
    }
}

/// What the manifest records.
#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    /// Experiment name.
    pub experiment: String,
    /// SHA-256 of everything results depend on.
    pub spec_hash: String,
    /// schedlab's version.
    pub tool_version: String,
    /// Git revision of the checkout, if known.
    pub git_revision: Option<String>,
    /// GPU type names, the order of per-type metrics.
    pub gpu_types: Vec<String>,
    /// `(data file, sha256)`.
    pub data_files: Vec<(String, String)>,
    /// `(data file, sha256)` read by each policy that reads files (part of its runs' hashes).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub policy_files: std::collections::BTreeMap<String, Vec<(String, String)>>,
    /// How each workload built in this invocation was made (runs reused from the store built none).
    pub workload_report: Vec<(String, Vec<String>)>,
    /// Wall-clock seconds per run.
    pub wall_time_s: Vec<(String, f64)>,
    /// LP solver statistics per run, for runs whose policy has a solver.
    #[serde(default)]
    pub solver: Vec<(String, schedlab_core::SolverStats)>,
}

fn format_number(value: f64) -> String {
    if value.is_nan() {
        "-".to_string()
    } else if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        format!("{value:.3}")
    }
}

/// A table cell: mean, min, max and number of runs.
type Cell = Option<(f64, f64, f64, usize)>;

/// One table: row labels, column labels and cells, aggregated over the parameters not shown.
fn table_cells(
    spec: &ExperimentSpec,
    table: &TableSpec,
    outcomes: &[RunOutcome],
) -> (Vec<String>, Vec<String>, Vec<Vec<Cell>>) {
    let rows = parameter_values(spec, &table.rows);
    let metrics = table.metric_names();
    let by_metric = metrics.len() > 1 || table.metrics.is_some();
    let columns = if by_metric { metrics.clone() } else { parameter_values(spec, &table.columns) };
    let cells = rows
        .iter()
        .map(|row| {
            columns
                .iter()
                .map(|column| {
                    let (metric_name, column_filter) =
                        if by_metric { (column.as_str(), None) } else { (metrics[0].as_str(), Some(column)) };
                    let values: Vec<f64> = outcomes
                        .iter()
                        .filter(|outcome| parameter(outcome, &table.rows) == *row)
                        .filter(|outcome| {
                            column_filter.is_none_or(|column| parameter(outcome, &table.columns) == *column)
                        })
                        .map(|outcome| outcome_metric(spec, outcomes, outcome, metric_name))
                        .collect();
                    if values.is_empty() {
                        return None;
                    }
                    let mean = values.iter().sum::<f64>() / values.len() as f64;
                    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
                    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    Some((mean, min, max, values.len()))
                })
                .collect()
        })
        .collect();
    (rows, columns, cells)
}

fn table_markdown(spec: &ExperimentSpec, table: &TableSpec, outcomes: &[RunOutcome]) -> String {
    let (rows, columns, cells) = table_cells(spec, table, outcomes);
    let what = if table.metrics.is_some() { "metrics".to_string() } else { table.metric_names().join(", ") };
    let corner =
        if table.metrics.is_some() { table.rows.clone() } else { format!("{} \\ {}", table.rows, table.columns) };
    let mut text = format!(
        "{what} (table '{}'; mean over seeds and other sweep points, [min-max] when they differ)\n\n",
        table.name
    );
    text.push_str(&format!("| {corner} | {} |\n", columns.join(" | ")));
    text.push_str(&format!("|---|{}\n", "---|".repeat(columns.len())));
    for (row, row_cells) in rows.iter().zip(cells) {
        let rendered: Vec<String> = row_cells
            .into_iter()
            .map(|cell| match cell {
                None => "-".to_string(),
                Some((mean, min, max, _)) if min == max => format_number(mean),
                Some((mean, min, max, _)) => {
                    format!("{} [{}-{}]", format_number(mean), format_number(min), format_number(max))
                }
            })
            .collect();
        text.push_str(&format!("| {row} | {} |\n", rendered.join(" | ")));
    }
    text
}

fn table_csv(spec: &ExperimentSpec, table: &TableSpec, outcomes: &[RunOutcome]) -> Vec<u8> {
    let (rows, columns, cells) = table_cells(spec, table, outcomes);
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header = vec![table.rows.clone()];
    for column in &columns {
        header.extend([format!("{column} mean"), format!("{column} min"), format!("{column} max")]);
    }
    writer.write_record(&header).expect("in-memory CSV");
    for (row, row_cells) in rows.iter().zip(cells) {
        let mut record = vec![row.clone()];
        for cell in row_cells {
            match cell {
                Some((mean, min, max, _)) => record.extend([mean.to_string(), min.to_string(), max.to_string()]),
                None => record.extend([String::new(), String::new(), String::new()]),
            }
        }
        writer.write_record(&record).expect("in-memory CSV");
    }
    writer.into_inner().expect("in-memory CSV")
}

/// `runs.csv`: one row per run, every parameter and metric, sorted by key. Wall time is left
/// out so the file is identical whatever the thread count.
fn runs_csv(spec: &ExperimentSpec, outcomes: &[RunOutcome], gpu_types: &[String]) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let axes: Vec<String> = spec.axes().into_iter().map(|(name, _)| name).collect();
    let mut header = vec!["key".to_string(), "policy".to_string(), "seed".to_string()];
    header.extend(axes.iter().cloned());
    header.extend(METRICS.iter().map(|(name, _)| name.to_string()));
    header.extend(gpu_types.iter().map(|name| format!("utilization_{name}")));
    writer.write_record(&header).expect("in-memory CSV");
    for outcome in outcomes {
        let mut record = vec![outcome.key.clone(), outcome.policy.clone(), outcome.seed.to_string()];
        record.extend(axes.iter().map(|axis| parameter(outcome, axis)));
        record.extend(METRICS.iter().map(|(_, read)| read(&outcome.metrics).to_string()));
        record.extend(outcome.metrics.utilization_per_type.iter().map(ToString::to_string));
        writer.write_record(&record).expect("in-memory CSV");
    }
    writer.into_inner().expect("in-memory CSV")
}

/// Writes every report file; returns the claim verdicts and the files written.
pub fn write_all(
    store: &Store,
    spec: &ExperimentSpec,
    outcomes: &[RunOutcome],
    manifest: &Manifest,
) -> Result<(Vec<ClaimResult>, Vec<String>), ExperimentError> {
    let mut files = Vec::new();
    let write = |files: &mut Vec<String>, name: String, contents: &[u8]| -> Result<(), ExperimentError> {
        store.write(&name, contents)?;
        files.push(name);
        Ok(())
    };
    write(&mut files, "runs.csv".into(), &runs_csv(spec, outcomes, &manifest.gpu_types))?;
    let mut readme = format!("# {}\n\n{}\n\n", spec.name, spec.description.trim());
    for table in &spec.tables {
        let markdown = table_markdown(spec, table, outcomes);
        write(&mut files, format!("{}.csv", table.name), &table_csv(spec, table, outcomes))?;
        write(&mut files, format!("{}.md", table.name), markdown.as_bytes())?;
        readme.push_str(&format!("## {}\n\n{markdown}\n", table.name));
    }
    let claims = evaluate(spec, outcomes);
    if !spec.claims.is_empty() {
        let markdown = crate::claims::markdown(&claims);
        write(&mut files, "claims.md".into(), markdown.as_bytes())?;
        readme.push_str(&format!("## Claims\n\n{markdown}\n"));
    }
    for file in crate::plots::render(store, spec, outcomes)? {
        if let Some(name) = file.strip_suffix(".svg") {
            readme.push_str(&format!("## {name}\n\n![{name}]({file})\n\n"));
        }
        files.push(file);
    }
    write(&mut files, "README.md".into(), readme.as_bytes())?;
    write(
        &mut files,
        "manifest.json".into(),
        serde_json::to_string_pretty(manifest).expect("manifests serialise").as_bytes(),
    )?;
    Ok((claims, files))
}

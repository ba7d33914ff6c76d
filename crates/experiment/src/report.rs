//! Writing results: `runs.csv`, tables, `claims.md`, plots, `README.md`, `manifest.json` and
//! `index.html`.

use crate::ExperimentError;
use crate::axis::Parameter;
use crate::claims::{ClaimResult, evaluate};
use crate::html;
use crate::interval::Estimate;
pub use crate::manifest::Manifest;
use crate::metric::Metric;
use crate::resolve::{Experiment, Layout, Table};
use crate::spec::Spread;
use crate::store::{RunOutcome, Store};
use crate::values::{csv_number, outcome_metric, parameter, parameter_values};
use std::path::{Path, PathBuf};

/// How a table's cells aggregate runs, as the Markdown and HTML tables say it.
fn aggregation(spread: Spread) -> &'static str {
    match spread {
        Spread::Range => "mean over seeds and other sweep points, [min-max] when they differ",
        Spread::Ci95 => {
            "mean over seeds and sample workloads, [95% interval of the mean over replicate units, as claims count them]"
        }
    }
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

/// A table cell: mean, min, max, the mean's 95% interval (two runs or more) and number of runs.
type Cell = Option<(f64, f64, f64, Option<(f64, f64)>, usize)>;

/// A table column: its label, its metric and the parameter value it filters on (grids only).
type Column = (String, Metric, Option<(Parameter, String)>);

/// One table: row labels, column labels and cells, aggregated over the parameters not shown.
fn table_cells(
    experiment: &Experiment,
    table: &Table,
    outcomes: &[RunOutcome],
) -> (Vec<String>, Vec<String>, Vec<Vec<Cell>>) {
    let rows_by = table.layout.rows();
    let rows = parameter_values(experiment, rows_by);
    let columns: Vec<Column> = match table.layout {
        Layout::Metrics { .. } => table.metrics.iter().map(|metric| (metric.to_string(), *metric, None)).collect(),
        Layout::Grid { columns, .. } => parameter_values(experiment, columns)
            .into_iter()
            .map(|value| (value.clone(), table.metrics[0], Some((columns, value))))
            .collect(),
    };
    let cells = rows
        .iter()
        .map(|row| {
            columns
                .iter()
                .map(|(_, metric, column_filter)| {
                    let runs: Vec<&RunOutcome> = outcomes
                        .iter()
                        .filter(|outcome| parameter(outcome, rows_by) == *row)
                        .filter(|outcome| {
                            column_filter.as_ref().is_none_or(|(by, value)| parameter(outcome, *by) == *value)
                        })
                        .collect();
                    let values: Vec<f64> =
                        runs.iter().map(|outcome| outcome_metric(experiment, outcomes, outcome, *metric)).collect();
                    if values.is_empty() {
                        return None;
                    }
                    let mean = values.iter().sum::<f64>() / values.len() as f64;
                    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
                    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    let interval = match table.spread {
                        Spread::Range => None,
                        Spread::Ci95 => {
                            Estimate::mean(&crate::claims::unit_means(&runs, &values, experiment.report.population))
                                .and_then(|estimate| estimate.interval)
                        }
                    };
                    Some((mean, min, max, interval, values.len()))
                })
                .collect()
        })
        .collect();
    (rows, columns.into_iter().map(|(label, _, _)| label).collect(), cells)
}

/// A cell as the Markdown and HTML tables show it: the mean, with the range (or the interval)
/// when runs differ.
fn cell_text(cell: Cell) -> String {
    match cell {
        None => "-".to_string(),
        Some((mean, min, max, ..)) if min == max => format_number(mean),
        Some((mean, _, _, Some((low, high)), _)) => {
            format!("{} [{} to {}]", format_number(mean), format_number(low), format_number(high))
        }
        Some((mean, min, max, ..)) => {
            format!("{} [{}-{}]", format_number(mean), format_number(min), format_number(max))
        }
    }
}

fn table_markdown(experiment: &Experiment, table: &Table, outcomes: &[RunOutcome]) -> String {
    let (rows, columns, cells) = table_cells(experiment, table, outcomes);
    let (what, corner) = match table.layout {
        Layout::Metrics { rows } => ("metrics".to_string(), rows.to_string()),
        Layout::Grid { rows, columns } => (table.metrics[0].to_string(), format!("{rows} \\ {columns}")),
    };
    let mut text = format!("{what} (table '{}'; {})\n\n", table.name, aggregation(table.spread));
    text.push_str(&format!("| {corner} | {} |\n", columns.join(" | ")));
    text.push_str(&format!("|---|{}\n", "---|".repeat(columns.len())));
    for (row, row_cells) in rows.iter().zip(cells) {
        let rendered: Vec<String> = row_cells.into_iter().map(cell_text).collect();
        text.push_str(&format!("| {row} | {} |\n", rendered.join(" | ")));
    }
    text
}

fn table_html(experiment: &Experiment, table: &Table, outcomes: &[RunOutcome]) -> html::HtmlTable {
    let (rows, columns, cells) = table_cells(experiment, table, outcomes);
    let corner = match table.layout {
        Layout::Metrics { rows } => rows.to_string(),
        Layout::Grid { rows, columns } => format!("{rows} \\ {columns}"),
    };
    let aggregation = aggregation(table.spread);
    let caption = match table.layout {
        Layout::Metrics { .. } => format!("{}{}.", aggregation[..1].to_uppercase(), &aggregation[1..]),
        Layout::Grid { .. } => format!("{}: {aggregation}.", table.metrics[0]),
    };
    let rows = rows
        .into_iter()
        .zip(cells)
        .map(|(label, row_cells)| {
            let cells = row_cells.into_iter().map(|cell| (cell_text(cell), cell.map(|(mean, ..)| mean))).collect();
            (label, cells)
        })
        .collect();
    html::HtmlTable { name: table.name.clone(), caption, corner, columns, rows }
}

fn table_csv(experiment: &Experiment, table: &Table, outcomes: &[RunOutcome]) -> Vec<u8> {
    let (rows, columns, cells) = table_cells(experiment, table, outcomes);
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header = vec![table.layout.rows().to_string()];
    let ci95 = table.spread == Spread::Ci95;
    for column in &columns {
        header.extend([format!("{column} mean"), format!("{column} min"), format!("{column} max")]);
        if ci95 {
            header.extend([format!("{column} ci95 low"), format!("{column} ci95 high")]);
        }
    }
    writer.write_record(&header).expect("in-memory CSV");
    let empty = || String::new();
    for (row, row_cells) in rows.iter().zip(cells) {
        let mut record = vec![row.clone()];
        for cell in row_cells {
            match cell {
                Some((mean, min, max, interval, _)) => {
                    record.extend([csv_number(mean), csv_number(min), csv_number(max)]);
                    if ci95 {
                        let (low, high) =
                            interval.map_or((empty(), empty()), |(low, high)| (csv_number(low), csv_number(high)));
                        record.extend([low, high]);
                    }
                }
                None => record.extend(std::iter::repeat_with(empty).take(if ci95 { 5 } else { 3 })),
            }
        }
        writer.write_record(&record).expect("in-memory CSV");
    }
    writer.into_inner().expect("in-memory CSV")
}

/// `runs.csv`: one row per run, every parameter and metric, sorted by key. Wall time is left
/// out so the file is identical whatever the thread count.
fn runs_csv(experiment: &Experiment, outcomes: &[RunOutcome], gpu_types: &[String]) -> Vec<u8> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let axes: Vec<Parameter> = experiment.axes.iter().map(|(axis, _)| Parameter::Axis(*axis)).collect();
    let mut header = vec!["key".to_string(), "policy".to_string(), "seed".to_string()];
    header.extend(axes.iter().map(ToString::to_string));
    header.extend(Metric::runs_csv_columns().map(|metric| metric.to_string()));
    header.extend(gpu_types.iter().map(|name| format!("utilization_{name}")));
    writer.write_record(&header).expect("in-memory CSV");
    for outcome in outcomes {
        let mut record = vec![outcome.key.clone(), outcome.policy.clone(), outcome.seed.to_string()];
        record.extend(axes.iter().map(|axis| parameter(outcome, *axis)));
        record.extend(
            Metric::runs_csv_columns()
                .map(|metric| csv_number(metric.of_run(&outcome.metrics).expect("a per-run metric"))),
        );
        record.extend(outcome.metrics.utilization_per_type.iter().map(|&value| csv_number(value)));
        writer.write_record(&record).expect("in-memory CSV");
    }
    writer.into_inner().expect("in-memory CSV")
}

/// What [`write_all`] wrote.
#[derive(Clone, Debug, Default)]
pub struct Written {
    /// The claim verdicts.
    pub claims: Vec<ClaimResult>,
    /// Files written, relative to the experiment's folder.
    pub files: Vec<String>,
    /// Each table's name and Markdown, as written to `<name>.md`.
    pub tables: Vec<(String, String)>,
}

/// Writes every report file.
pub fn write_all(
    store: &Store,
    experiment: &Experiment,
    outcomes: &[RunOutcome],
    manifest: &Manifest,
) -> Result<Written, ExperimentError> {
    let report = &experiment.report;
    let mut tables = Vec::new();
    let mut files = Vec::new();
    let write = |files: &mut Vec<String>, name: String, contents: &[u8]| -> Result<(), ExperimentError> {
        store.write(&name, contents)?;
        files.push(name);
        Ok(())
    };
    write(&mut files, "runs.csv".into(), &runs_csv(experiment, outcomes, &manifest.gpu_types))?;
    let mut readme = format!("# {}\n\n{}\n\n", experiment.name(), report.description.trim());
    for table in &report.tables {
        let markdown = table_markdown(experiment, table, outcomes);
        write(&mut files, format!("{}.csv", table.name), &table_csv(experiment, table, outcomes))?;
        write(&mut files, format!("{}.md", table.name), markdown.as_bytes())?;
        readme.push_str(&format!("## {}\n\n{markdown}\n", table.name));
        tables.push((table.name.clone(), markdown));
    }
    if let (Some(markdown), Some(csv)) =
        (crate::policy_report::markdown(experiment, outcomes), crate::policy_report::csv(experiment, outcomes))
    {
        let name = crate::policy_report::NAME;
        write(&mut files, format!("{name}.csv"), &csv)?;
        write(&mut files, format!("{name}.md"), markdown.as_bytes())?;
        readme.push_str(&format!("## {name}\n\n{markdown}\n"));
    }
    let claims = match &experiment.adaptive {
        None => evaluate(experiment, outcomes, &crate::relaxation::relaxations(experiment)?),
        // The bounds of the workloads of the runs the looks read, not of every seed up to max.
        Some(_) => crate::adaptive::replay_stored(experiment, outcomes)?.claims,
    };
    if !report.claims.is_empty() {
        let markdown = crate::claims::markdown(&claims);
        write(&mut files, "claims.md".into(), markdown.as_bytes())?;
        write(&mut files, "claims.csv".into(), &crate::claims::csv(&claims))?;
        readme.push_str(&format!("## Claims\n\n{markdown}\n"));
    }
    let plots = crate::plots::render(store, experiment, outcomes)?;
    for (name, _) in &plots {
        readme.push_str(&format!("## {name}\n\n![{name}]({name}.svg)\n\n"));
        files.extend([format!("{name}.svg"), format!("{name}.png")]);
    }
    write(&mut files, "README.md".into(), readme.as_bytes())?;
    write(
        &mut files,
        "manifest.json".into(),
        serde_json::to_string_pretty(manifest).expect("manifests serialise").as_bytes(),
    )?;
    let page = html::Page {
        name: experiment.name(),
        description: &report.description,
        claims: claims
            .iter()
            .map(|result| html::HtmlClaim {
                cells: crate::claims::cells(result),
                verdict: result.verdict.clone(),
                looks: result.looks,
                unit: result.unit,
            })
            .collect(),
        tables: report
            .tables
            .iter()
            .map(|table| table_html(experiment, table, outcomes))
            .chain(crate::policy_report::html(experiment, outcomes))
            .collect(),
        plots,
        spec_text: &experiment.source.text,
        spec_origin: &experiment.source.origin,
        manifest,
    };
    write(&mut files, "index.html".into(), html::experiment_page(&page).as_bytes())?;
    Ok(Written { claims, files, tables })
}

/// Writes `claims.md` and `claims.csv` at the top of `results_dir`: every experiment's claims
/// (from the `claims.csv` of each experiment folder there), one row a claim with its interval
/// and verdict, and the count of each verdict. The README quotes the Markdown.
pub fn write_results_claims(results_dir: &Path) -> Result<(), ExperimentError> {
    /// The columns the summary reads, in this order.
    const COLUMNS: [&str; 16] = [
        "claim",
        "direction",
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
        "missing",
        "bound_side",
        "bound_value",
        "best_case",
    ];
    let io = |path: &Path, message: String| ExperimentError::Io { path: path.display().to_string(), message };
    let mut folders: Vec<PathBuf> = std::fs::read_dir(results_dir)
        .map_err(|error| io(results_dir, error.to_string()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.join("claims.csv").is_file())
        .collect();
    folders.sort();
    // Each claim's experiment, its summary fields (COLUMNS) and its whole record.
    let mut rows: Vec<(String, Vec<String>, csv::StringRecord)> = Vec::new();
    let mut header: Option<csv::StringRecord> = None;
    let mut older = Vec::new();
    for folder in &folders {
        let path = folder.join("claims.csv");
        let name = folder.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        let mut reader = csv::Reader::from_path(&path).map_err(|error| io(&path, error.to_string()))?;
        let own = reader.headers().map_err(|error| io(&path, error.to_string()))?.clone();
        let Some(positions) =
            COLUMNS.iter().map(|column| own.iter().position(|field| field == *column)).collect::<Option<Vec<usize>>>()
        else {
            // Written by an older schedlab: listed, not read; a rerun of the experiment rewrites it.
            older.push(name);
            continue;
        };
        if header.as_ref().is_some_and(|known| *known != own) {
            older.push(name);
            continue;
        }
        header.get_or_insert(own);
        for record in reader.records() {
            let record = record.map_err(|error| io(&path, error.to_string()))?;
            let fields = positions.iter().map(|&position| record[position].to_string()).collect();
            rows.push((name.clone(), fields, record));
        }
    }
    let Some(header) = header else { return Ok(()) };
    let short = |text: &str| text.parse::<f64>().map_or(String::new(), |value| format!("{value:.3}"));
    let mut counts = std::collections::BTreeMap::new();
    let mut markdown = String::from(
        "| experiment | claim | paper | measured | lower | upper | units | n_seeds | tolerance | verdict |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut combined = csv::Writer::from_writer(Vec::new());
    let mut combined_header = vec!["experiment".to_string()];
    combined_header.extend(header.iter().map(str::to_string));
    combined.write_record(&combined_header).expect("in-memory CSV");
    for (name, fields, record) in &rows {
        let [
            claim,
            direction,
            expected,
            tolerance,
            measured,
            lower,
            upper,
            units,
            unit,
            seeds,
            verdict,
            needed,
            missing,
            bound_side,
            bound_value,
            best_case,
        ] = std::array::from_fn(|index| fields[index].as_str());
        *counts.entry(verdict.to_string()).or_insert(0usize) += 1;
        let shown = match verdict {
            "holds" => "holds".to_string(),
            "missed" => "MISSED".to_string(),
            "inconclusive" if !missing.is_empty() => {
                format!("inconclusive (runs censored at sim.max_time: {missing}; more {unit} cannot settle it)")
            }
            "inconclusive" if !needed.is_empty() => format!("inconclusive (about {needed} {unit} would settle it)"),
            "inconclusive" if units.parse::<usize>().unwrap_or(0) < 2 => "inconclusive (no interval)".to_string(),
            "inconclusive" => "inconclusive (at the band's edge)".to_string(),
            "incomplete" => format!("incomplete (runs missing: {missing})"),
            _ => format!("UNREACHABLE HERE (proved {bound_side} bound {})", short(bound_value)),
        };
        let end = |value: &str| if value.is_empty() { "-".to_string() } else { short(value) };
        let place = if best_case.is_empty() { String::new() } else { format!(" ({best_case})") };
        let tolerance =
            tolerance.parse::<f64>().map_or(String::new(), |value| format!("{:.0}% ({direction})", value * 100.0));
        markdown.push_str(&format!(
            "| {name} | {claim} | {expected} | {}{place} | {} | {} | {units} {unit} | {seeds} | {tolerance} | {shown} |\n",
            short(measured),
            end(lower),
            end(upper),
        ));
        let mut line = vec![name.clone()];
        line.extend(record.iter().map(str::to_string));
        combined.write_record(&line).expect("in-memory CSV");
    }
    let count = |name: &str| counts.get(name).copied().unwrap_or(0);
    markdown.push_str(&format!(
        "\n{} claims: {}.\n",
        rows.len(),
        crate::claims::counts_text(crate::claims::VERDICTS.map(count))
    ));
    if !older.is_empty() {
        markdown.push_str(&format!(
            "\nNot listed: the claims.csv of {} was written by another version of schedlab; rerun to include it.\n",
            older.join(", ")
        ));
    }
    crate::store::write_atomically(&results_dir.join("claims.md"), markdown.as_bytes())?;
    crate::store::write_atomically(&results_dir.join("claims.csv"), &combined.into_inner().expect("in-memory CSV"))
}

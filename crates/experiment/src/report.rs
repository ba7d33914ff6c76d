//! Writing results: `runs.csv`, tables, `claims.md`, plots, `README.md`, `manifest.json` and
//! `index.html`.

use crate::ExperimentError;
use crate::axis::Parameter;
use crate::claims::{ClaimResult, evaluate};
use crate::html;
pub use crate::manifest::Manifest;
use crate::metric::Metric;
use crate::resolve::{Experiment, Layout, Table};
use crate::store::{RunOutcome, Store};
use crate::values::{outcome_metric, parameter, parameter_values};

/// How a table cell aggregates runs, as the Markdown and HTML tables say it.
const AGGREGATION: &str = "mean over seeds and other sweep points, [min-max] when they differ";

fn format_number(value: f64) -> String {
    if value.is_nan() {
        "-".to_string()
    } else if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{value:.0}")
    } else {
        format!("{value:.3}")
    }
}

/// A number as the CSV files write it: empty when undefined (a JCT of a run in which no measured
/// job finished, say), never `NaN`.
fn csv_number(value: f64) -> String {
    if value.is_nan() { String::new() } else { value.to_string() }
}

/// A table cell: mean, min, max and number of runs.
type Cell = Option<(f64, f64, f64, usize)>;

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
                    let values: Vec<f64> = outcomes
                        .iter()
                        .filter(|outcome| parameter(outcome, rows_by) == *row)
                        .filter(|outcome| {
                            column_filter.as_ref().is_none_or(|(by, value)| parameter(outcome, *by) == *value)
                        })
                        .map(|outcome| outcome_metric(experiment, outcomes, outcome, *metric))
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
    (rows, columns.into_iter().map(|(label, _, _)| label).collect(), cells)
}

/// A cell as the Markdown and HTML tables show it: the mean, with the range when runs differ.
fn cell_text(cell: Cell) -> String {
    match cell {
        None => "-".to_string(),
        Some((mean, min, max, _)) if min == max => format_number(mean),
        Some((mean, min, max, _)) => format!("{} [{}-{}]", format_number(mean), format_number(min), format_number(max)),
    }
}

fn table_markdown(experiment: &Experiment, table: &Table, outcomes: &[RunOutcome]) -> String {
    let (rows, columns, cells) = table_cells(experiment, table, outcomes);
    let (what, corner) = match table.layout {
        Layout::Metrics { rows } => ("metrics".to_string(), rows.to_string()),
        Layout::Grid { rows, columns } => (table.metrics[0].to_string(), format!("{rows} \\ {columns}")),
    };
    let mut text = format!("{what} (table '{}'; {AGGREGATION})\n\n", table.name);
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
    let caption = match table.layout {
        Layout::Metrics { .. } => format!("{}{}.", AGGREGATION[..1].to_uppercase(), &AGGREGATION[1..]),
        Layout::Grid { .. } => format!("{}: {AGGREGATION}.", table.metrics[0]),
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
    for column in &columns {
        header.extend([format!("{column} mean"), format!("{column} min"), format!("{column} max")]);
    }
    writer.write_record(&header).expect("in-memory CSV");
    for (row, row_cells) in rows.iter().zip(cells) {
        let mut record = vec![row.clone()];
        for cell in row_cells {
            match cell {
                Some((mean, min, max, _)) => record.extend([csv_number(mean), csv_number(min), csv_number(max)]),
                None => record.extend([String::new(), String::new(), String::new()]),
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
    header.extend(Metric::per_run().map(|metric| metric.to_string()));
    header.extend(gpu_types.iter().map(|name| format!("utilization_{name}")));
    writer.write_record(&header).expect("in-memory CSV");
    for outcome in outcomes {
        let mut record = vec![outcome.key.clone(), outcome.policy.clone(), outcome.seed.to_string()];
        record.extend(axes.iter().map(|axis| parameter(outcome, *axis)));
        record.extend(
            Metric::per_run().map(|metric| csv_number(metric.of_run(&outcome.metrics).expect("a per-run metric"))),
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
    let claims = evaluate(experiment, outcomes);
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
                class: html::verdict_class(&result.verdict),
            })
            .collect(),
        tables: report.tables.iter().map(|table| table_html(experiment, table, outcomes)).collect(),
        plots,
        spec_text: &experiment.source.text,
        spec_origin: &experiment.source.origin,
        manifest,
    };
    write(&mut files, "index.html".into(), html::experiment_page(&page).as_bytes())?;
    Ok(Written { claims, files, tables })
}

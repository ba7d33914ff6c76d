//! Plots as SVG and PNG with plotters, using an embedded font so no system font is needed.

use crate::ExperimentError;
use crate::axis::Parameter;
use crate::metric::Metric;
use crate::plan::sweep_points;
use crate::resolve::Experiment;
use crate::spec::{ExperimentPoint, PlotSpec};
use crate::store::{RunOutcome, Store};
use crate::values::{outcome_metric, parameter};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// DejaVu Sans (Bitstream Vera licence, see `assets/DejaVuSans-LICENSE.txt`).
const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
const SIZE: (u32, u32) = (900, 560);

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is compiled in and known to be valid; a failure here is a build defect.
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
            .map_err(|_| ())
            .expect("embedded font loads");
    });
}

/// One file: charts stacked top to bottom.
struct Figure {
    name: String,
    panels: Vec<Chart>,
}

impl Figure {
    fn single(name: String, chart: Chart) -> Figure {
        Figure { name, panels: vec![chart] }
    }

    fn size(&self) -> (u32, u32) {
        (SIZE.0, if self.panels.len() > 1 { SIZE.1 / 2 * self.panels.len() as u32 + 120 } else { SIZE.1 })
    }
}

/// One line; `color` indexes the palette, so a policy keeps its colour across panels.
struct Series {
    name: String,
    color: usize,
    points: Vec<(f64, f64)>,
}

/// What one chart shows.
struct Chart {
    title: String,
    x_label: String,
    y_label: String,
    /// Whether x values are log10 of the real values (labels show the real values).
    log_x: bool,
    /// Whether the legend goes in a band kept free above the lines (a trainer's noisy curves,
    /// which may be negative) rather than at the right edge over them.
    legend_above_lines: bool,
    series: Vec<Series>,
}

/// Lines in palette order, one per `(name, points)`.
fn numbered(lines: Vec<(String, Vec<(f64, f64)>)>) -> Vec<Series> {
    lines.into_iter().enumerate().map(|(color, (name, points))| Series { name, color, points }).collect()
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, figure: &Figure) -> Result<(), String> {
    root.fill(&WHITE).map_err(|error| error.to_string())?;
    for (area, chart) in root.split_evenly((figure.panels.len(), 1)).iter().zip(&figure.panels) {
        draw_chart(area, chart)?;
    }
    root.present().map_err(|error| error.to_string())
}

fn draw_chart<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> Result<(), String> {
    let points = chart.series.iter().flat_map(|series| series.points.iter());
    let (mut x_min, mut x_max, mut y_min, mut y_max) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64, f64::NEG_INFINITY);
    for &(x, y) in points {
        x_min = x_min.min(x);
        x_max = x_max.max(x);
        y_min = y_min.min(y);
        y_max = y_max.max(y);
    }
    if !x_min.is_finite() {
        (x_min, x_max, y_max) = (0.0, 1.0, 1.0);
    }
    if x_max <= x_min {
        x_max = x_min + 1.0;
    }
    if y_max <= y_min {
        y_max = y_min + 1.0;
    }
    // A band above the lines (8% of their range per line) holds the legend, and 3% below them
    // keeps the lowest point off the axis; otherwise 5% headroom.
    let (y_bottom, y_top) = if chart.legend_above_lines {
        let range = y_max - y_min;
        (y_min - 0.03 * range, y_max + 0.08 * range * chart.series.len() as f64)
    } else {
        (y_min, y_max * 1.05)
    };
    let mut builder = ChartBuilder::on(root)
        .caption(&chart.title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(x_min..x_max, y_bottom..y_top)
        .map_err(|error| error.to_string())?;
    let log_x = chart.log_x;
    let x_format = move |value: &f64| {
        let real = if log_x { 10f64.powf(*value) } else { *value };
        match real.abs() {
            magnitude if magnitude >= 10.0 => format!("{real:.0}"),
            magnitude if magnitude >= 1.0 => format!("{real:.1}"),
            _ => format!("{real:.2}"),
        }
    };
    builder
        .configure_mesh()
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .x_label_formatter(&x_format)
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|error| error.to_string())?;
    for series in &chart.series {
        let color = Palette99::pick(series.color).to_rgba();
        builder
            .draw_series(LineSeries::new(series.points.iter().copied(), color.stroke_width(2)))
            .map_err(|error| error.to_string())?
            .label(&series.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    let mut labels = builder.configure_series_labels();
    if chart.legend_above_lines {
        labels.position(SeriesLabelPosition::UpperRight);
    }
    labels
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(|error| error.to_string())
}

/// Outcomes at the first sweep point and first seed, in spec policy order.
fn first_point_runs<'a>(experiment: &Experiment, outcomes: &'a [RunOutcome]) -> Vec<&'a RunOutcome> {
    let point = sweep_points(&experiment.axes).remove(0);
    experiment
        .policies
        .iter()
        .filter_map(|policy| {
            outcomes.iter().find(|outcome| {
                outcome.policy == policy.to_string() && outcome.seed == experiment.seeds[0] && outcome.point == point.0
            })
        })
        .collect()
}

/// The mean of each policy's finite values (as `metric_vs_axis` skips a run without the
/// metric), in the order policies first appear.
fn means_by_policy(values: impl IntoIterator<Item = (String, f64)>) -> Vec<(String, f64)> {
    let mut sums: Vec<(String, f64, usize)> = Vec::new();
    for (policy, value) in values.into_iter().filter(|(_, value)| value.is_finite()) {
        match sums.iter_mut().find(|(known, _, _)| *known == policy) {
            Some((_, sum, count)) => {
                *sum += value;
                *count += 1;
            }
            None => sums.push((policy, value, 1)),
        }
    }
    sums.into_iter().map(|(policy, sum, count)| (policy, sum / count as f64)).collect()
}

/// The mean of `metric` over each policy's runs in another experiment's `runs.csv`, by policy.
fn means_from_csv(path: &Path, metric: Metric) -> Result<Vec<(String, f64)>, String> {
    let text = std::fs::read_to_string(path).map_err(|error| error.to_string())?;
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().map_err(|error| error.to_string())?.clone();
    let column =
        |name: &str| header.iter().position(|known| known == name).ok_or_else(|| format!("it has no column '{name}'"));
    let (policy_column, metric_column) = (column("policy")?, column(metric.name())?);
    let mut values = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(|error| error.to_string())?;
        let line = index + 2;
        let policy = record.get(policy_column).ok_or_else(|| format!("line {line}: no policy"))?;
        let value: f64 = record
            .get(metric_column)
            .and_then(|cell| cell.parse().ok())
            .ok_or_else(|| format!("line {line}: expected a number in column '{metric}'"))?;
        values.push((policy.to_string(), value));
    }
    Ok(means_by_policy(values))
}

/// [`PlotSpec::MetricVsExperiments`]: this experiment's means from its outcomes, the others'
/// from their `runs.csv` in `results_dir`; those missing are named in the title.
fn metric_vs_experiments(
    experiment: &Experiment,
    outcomes: &[RunOutcome],
    results_dir: &Path,
    (name, metric, x_label, points): (&str, Metric, &str, &[ExperimentPoint]),
) -> Figure {
    let mut missing = Vec::new();
    let mut columns: Vec<(f64, Vec<(String, f64)>)> = Vec::new();
    for point in points {
        let means = if point.experiment == experiment.name() {
            Ok(means_by_policy(
                outcomes
                    .iter()
                    .map(|outcome| (outcome.policy.clone(), outcome_metric(experiment, outcomes, outcome, metric))),
            ))
        } else {
            let path = results_dir.join(&point.experiment).join("runs.csv");
            means_from_csv(&path, metric).map_err(|error| format!("{} ({error})", path.display()))
        };
        match means {
            Ok(means) => columns.push((point.x, means)),
            Err(error) => missing.push(error),
        }
    }
    columns.sort_by(|a, b| a.0.total_cmp(&b.0));
    let series = experiment
        .policies
        .iter()
        .map(|policy| {
            let policy = policy.to_string();
            let line = columns
                .iter()
                .filter_map(|(x, means)| means.iter().find(|(known, _)| *known == policy).map(|(_, mean)| (*x, *mean)))
                .collect();
            (policy, line)
        })
        .collect();
    let mut title = format!("{}: {metric} across experiments", experiment.name());
    if !missing.is_empty() {
        title.push_str(&format!(" (not read: {})", missing.join("; ")));
    }
    Figure::single(
        name.to_string(),
        Chart {
            title,
            x_label: x_label.to_string(),
            y_label: metric.to_string(),
            log_x: false,
            legend_above_lines: false,
            series: numbered(series),
        },
    )
}

fn figures(experiment: &Experiment, outcomes: &[RunOutcome], results_dir: &Path) -> Vec<Figure> {
    let point_label = sweep_points(&experiment.axes).remove(0).label();
    let first_seed = experiment.seeds[0];
    let at =
        if point_label.is_empty() { format!("seed {first_seed}") } else { format!("{point_label}, seed {first_seed}") };
    let name = experiment.name();
    experiment
        .report
        .plots
        .iter()
        .map(|plot| match plot {
            PlotSpec::JctCdf => Figure::single(
                "jct_cdf".into(),
                Chart {
                    title: format!("{name}: JCT CDF ({at})"),
                    x_label: "job completion time (hours, log scale)".into(),
                    y_label: "fraction of jobs".into(),
                    log_x: true,
                    legend_above_lines: false,
                    series: numbered(
                        first_point_runs(experiment, outcomes)
                            .into_iter()
                            .map(|outcome| {
                                // At most ~1000 points per line: every job's rank for small runs, evenly
                                // spaced ranks (always including the last) for large ones.
                                let jcts = outcome.sorted_jcts();
                                let n = jcts.len();
                                let step = n.div_ceil(1000).max(1);
                                let points = (0..n)
                                    .filter(|index| index % step == 0 || index + 1 == n)
                                    .map(|index| {
                                        ((jcts[index] / 3600.0).max(1e-3).log10(), (index + 1) as f64 / n as f64)
                                    })
                                    .collect();
                                (outcome.policy.clone(), points)
                            })
                            .collect(),
                    ),
                },
            ),
            PlotSpec::BusyGpus => Figure::single(
                "busy_gpus".into(),
                Chart {
                    title: format!("{name}: busy GPUs ({at})"),
                    x_label: "time (hours)".into(),
                    y_label: "busy GPUs".into(),
                    log_x: false,
                    legend_above_lines: false,
                    series: numbered(
                        first_point_runs(experiment, outcomes)
                            .into_iter()
                            .map(|outcome| {
                                (
                                    outcome.policy.clone(),
                                    steps(outcome.busy.iter().map(|&(hours, gpus)| (hours, f64::from(gpus)))),
                                )
                            })
                            .collect(),
                    ),
                },
            ),
            PlotSpec::JobTimeline { job } => job_timeline(experiment, outcomes, *job, &at),
            PlotSpec::PolicySeries { series } => {
                let lines: Vec<(String, Vec<(f64, f64)>)> = first_point_runs(experiment, outcomes)
                    .into_iter()
                    .filter_map(|outcome| {
                        let report = outcome.policy_report.as_ref()?;
                        let (_, points) = report.series.iter().find(|(name, _)| name == series)?;
                        Some((outcome.policy.clone(), points.clone()))
                    })
                    .collect();
                let missing = if lines.is_empty() { " (no run reports it)" } else { "" };
                Figure::single(
                    format!("policy_series_{series}"),
                    Chart {
                        title: format!("{name}: {series} ({at}){missing}"),
                        x_label: "time (hours)".into(),
                        y_label: series.clone(),
                        log_x: false,
                        legend_above_lines: false,
                        series: numbered(lines),
                    },
                )
            }
            PlotSpec::MetricVsExperiments { name, metric, x_label, points } => {
                metric_vs_experiments(experiment, outcomes, results_dir, (name, *metric, x_label, points))
            }
            PlotSpec::MetricVsAxis { metric, axis } => {
                let values = experiment.axis_values(*axis);
                let others: Vec<(Parameter, String)> = experiment
                    .axes
                    .iter()
                    .filter(|(known, _)| known != axis)
                    .map(|(known, values)| (Parameter::Axis(*known), values[0].to_string()))
                    .collect();
                let series = experiment
                    .policies
                    .iter()
                    .map(|policy| {
                        let points = values
                            .iter()
                            .filter_map(|value| {
                                let matching: Vec<f64> = outcomes
                                    .iter()
                                    .filter(|outcome| {
                                        outcome.policy == policy.to_string()
                                            && parameter(outcome, Parameter::Axis(*axis)) == value.to_string()
                                            && others.iter().all(|(other, fixed)| parameter(outcome, *other) == *fixed)
                                    })
                                    .map(|outcome| outcome_metric(experiment, outcomes, outcome, *metric))
                                    .filter(|value| value.is_finite())
                                    .collect();
                                (!matching.is_empty())
                                    .then(|| (*value, matching.iter().sum::<f64>() / matching.len() as f64))
                            })
                            .collect();
                        (policy.to_string(), points)
                    })
                    .collect();
                Figure::single(
                    format!("{metric}_vs_{axis}"),
                    Chart {
                        title: format!("{name}: {metric} vs {axis}"),
                        x_label: axis.to_string(),
                        y_label: metric.to_string(),
                        log_x: false,
                        legend_above_lines: false,
                        series: numbered(series),
                    },
                )
            }
        })
        .collect()
}

/// A step function's points `(x, y)` (each `y` holding from its `x` to the next) as a line:
/// a horizontal segment to each next `x`, then a vertical one. Drawn this way a 2-pixel line
/// turns only at right angles, so it cannot overshoot the values as thick lines do at sharp
/// turns (busy GPUs above the cluster's size).
fn steps(points: impl IntoIterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    let mut line: Vec<(f64, f64)> = Vec::new();
    for (x, y) in points {
        if let Some(&(_, previous)) = line.last() {
            line.push((x, previous));
        }
        line.push((x, y));
    }
    line
}

/// `job`'s GPUs (top) and global batch size (bottom) over time under each policy, as steps.
/// A policy that never chooses a batch size has no line in the lower panel. When any policy
/// gives the job parameter servers, the lower panel shows those instead.
fn job_timeline(experiment: &Experiment, outcomes: &[RunOutcome], job: u32, at: &str) -> Figure {
    use schedlab_sim::AllocationSample;
    // Each policy's samples of `job` (none if its run did not record it), found once.
    let runs: Vec<(&RunOutcome, &[AllocationSample])> = first_point_runs(experiment, outcomes)
        .into_iter()
        .map(|outcome| {
            let samples = outcome.allocations.iter().find(|timeline| timeline.job == job);
            (outcome, samples.map_or(&[][..], |timeline| timeline.samples.as_slice()))
        })
        .collect();
    let steps = |samples: &[AllocationSample], value: &dyn Fn(&AllocationSample) -> f64| {
        steps(samples.iter().map(|sample| (sample.time / 3600.0, value(sample))))
    };
    let gpus: Vec<Series> = runs
        .iter()
        .enumerate()
        .map(|(color, (outcome, samples))| Series {
            name: outcome.policy.clone(),
            color,
            points: steps(samples, &|sample| f64::from(sample.gpus)),
        })
        .collect();
    let batch: Vec<Series> = runs
        .iter()
        .enumerate()
        .filter(|(_, (_, samples))| samples.iter().any(|sample| sample.batch.is_some()))
        .map(|(color, (outcome, samples))| Series {
            name: outcome.policy.clone(),
            color,
            points: steps(samples, &|sample| f64::from(sample.batch.unwrap_or(0))),
        })
        .collect();
    let name = experiment.name();
    // Policies with parameter servers (DL2's) get a panel of servers in place of the batch's.
    let with_ps = runs.iter().any(|(_, samples)| samples.iter().any(|sample| sample.ps > 0));
    let second = if with_ps {
        Chart {
            title: format!("{name}: job {job}, parameter servers"),
            x_label: "time (hours)".into(),
            y_label: "parameter servers".into(),
            log_x: false,
            legend_above_lines: false,
            series: runs
                .iter()
                .enumerate()
                .map(|(color, (outcome, samples))| Series {
                    name: outcome.policy.clone(),
                    color,
                    points: steps(samples, &|sample| f64::from(sample.ps)),
                })
                .collect(),
        }
    } else {
        Chart {
            title: format!("{name}: job {job}, global batch size (0: no GPUs)"),
            x_label: "time (hours)".into(),
            y_label: "batch size".into(),
            log_x: false,
            legend_above_lines: false,
            series: batch,
        }
    };
    Figure {
        name: format!("job_{job}_timeline"),
        panels: vec![
            Chart {
                title: format!("{name}: job {job}, GPUs ({at})"),
                x_label: "time (hours)".into(),
                y_label: if with_ps { "GPUs (workers)".into() } else { "GPUs".into() },
                log_x: false,
                legend_above_lines: false,
                series: gpus,
            },
            second,
        ],
    }
}

/// Renders every plot of the spec into the store as `<name>.svg` and `<name>.png`; returns each
/// plot's name and SVG text.
pub fn render(
    store: &Store,
    experiment: &Experiment,
    outcomes: &[RunOutcome],
) -> Result<Vec<(String, String)>, ExperimentError> {
    register_font();
    let mut plots = Vec::new();
    // Other experiments' folders are beside this one's.
    let results_dir = store.dir().parent().unwrap_or(store.dir());
    for figure in figures(experiment, outcomes, results_dir) {
        let plot_error = |message: String| ExperimentError::Io { path: format!("{}.svg/.png", figure.name), message };
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, figure.size()).into_drawing_area();
            draw(&root, &figure).map_err(plot_error)?;
        }
        store.write(&format!("{}.svg", figure.name), svg.as_bytes())?;
        let final_path = store.dir().join(format!("{}.png", figure.name));
        let temporary = store.dir().join(format!(".{}.{}.tmp.png", figure.name, std::process::id()));
        {
            let root = BitMapBackend::new(&temporary, figure.size()).into_drawing_area();
            draw(&root, &figure).map_err(plot_error)?;
        }
        std::fs::rename(&temporary, &final_path).map_err(|error| ExperimentError::Io {
            path: final_path.display().to_string(),
            message: error.to_string(),
        })?;
        plots.push((figure.name.clone(), svg));
    }
    Ok(plots)
}

/// Draws one line chart, `(name, points)` per line, to a PNG file (for tools outside
/// experiments, such as a trainer's learning curve).
pub fn line_chart_png(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    lines: Vec<(String, Vec<(f64, f64)>)>,
) -> Result<(), String> {
    register_font();
    let chart = Chart {
        title: title.to_string(),
        x_label: x_label.to_string(),
        y_label: y_label.to_string(),
        log_x: false,
        legend_above_lines: true,
        series: numbered(lines),
    };
    let figure = Figure::single(String::new(), chart);
    let root = BitMapBackend::new(path, figure.size()).into_drawing_area();
    draw(&root, &figure).map_err(|error| format!("{}: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_experiments_means_come_from_its_runs_csv() {
        let dir = std::env::temp_dir().join(format!("schedlab-plots-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("runs.csv");
        let header = "key,policy,seed,avg_jct_hours";
        std::fs::write(&path, format!("{header}\na,fifo,0,1.0\nb,las,0,4.0\nc,fifo,1,2.0\nd,las,1,NaN\n")).unwrap();
        assert_eq!(
            means_from_csv(&path, Metric::AvgJctHours).unwrap(),
            vec![("fifo".to_string(), 1.5), ("las".to_string(), 4.0)]
        );
        let error = means_from_csv(&path, Metric::Utilization).unwrap_err();
        assert_eq!(error, "it has no column 'utilization'");
        std::fs::write(&path, format!("{header}\na,fifo,0,1.0\nb,las,0,fast\n")).unwrap();
        let error = means_from_csv(&path, Metric::AvgJctHours).unwrap_err();
        assert_eq!(error, "line 3: expected a number in column 'avg_jct_hours'");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_step_function_is_drawn_with_right_angles_only_and_never_beyond_its_values() {
        let line = steps([(0.0, 0.0), (1.0, 16.0), (1.5, 0.0), (2.0, 16.0)]);
        assert_eq!(line, vec![(0.0, 0.0), (1.0, 0.0), (1.0, 16.0), (1.5, 16.0), (1.5, 0.0), (2.0, 0.0), (2.0, 16.0)]);
        for pair in line.windows(2) {
            assert!(pair[0].0 == pair[1].0 || pair[0].1 == pair[1].1, "a diagonal segment: {pair:?}");
        }
        assert!(steps([]).is_empty());
    }
}

//! Resolution: a parsed spec, checked as a whole and turned into an [`Experiment`] that owns
//! typed report plans and built sources. `check` is "resolve and print"; `run` runs what
//! resolution produced, so it cannot meet a spec mistake `check` let through.

use crate::ExperimentError;
use crate::axis::{Applies, Axis, Parameter, parse_parameter};
use crate::metric::Metric;
use crate::plan::{RunPlan, expand};
use crate::prepare::{Setup, SpecSource};
use crate::spec::{
    AxisValues, ClaimSpec, ClusterSection, ExperimentSpec, PerfSection, PlotSpec, PolicyName, Seeds, SimSection,
};
use schedlab_core::DataDir;
use schedlab_sim::MeasurementWindow;
use schedlab_trace::Transform;
use schedlab_trace::spec::GeneratorSpec;
use schedlab_trace::spec::WorkloadSpec;
use schedlab_trace::workload::Model;
use serde::Serialize;

/// Everything a run's result depends on besides its own key (policy, sweep point, seed) and the
/// data files: the run hash is computed from this and nothing else, so what only shapes reports
/// (description, tables, plots, claims, which other policies or seeds are compared) can change
/// without rerunning anything.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunInputs {
    /// The experiment's name: where results go, never what they are (left out of the hash).
    #[serde(skip)]
    pub name: String,
    /// Where jobs come from.
    pub workload: WorkloadSpec,
    /// The cluster.
    pub cluster: ClusterSection,
    /// The ground-truth performance model.
    pub perf: PerfSection,
    /// Engine settings.
    pub sim: SimSection,
    /// Jobs whose allocations over time the runs record, for `job_timeline` plots (left out of
    /// the hash when empty, so runs without such plots keep their identity).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub traced_jobs: Vec<u32>,
}

impl RunInputs {
    /// What defines a run's jobs, as text for seed derivation: the workload, cluster and perf
    /// sections (not the name, not the engine settings).
    pub fn defines_workload(&self) -> String {
        let sections = [
            serde_json::to_string(&self.workload),
            serde_json::to_string(&self.cluster),
            serde_json::to_string(&self.perf),
        ];
        sections.map(|text| text.expect("specs serialise")).join("\n")
    }
}

/// How a table is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One metric; rows and columns by two parameters.
    Grid {
        /// Rows.
        rows: Parameter,
        /// Columns.
        columns: Parameter,
    },
    /// Several metrics as columns; rows by one parameter.
    Metrics {
        /// Rows.
        rows: Parameter,
    },
}

impl Layout {
    /// The parameter rows are labelled by.
    pub fn rows(self) -> Parameter {
        match self {
            Layout::Grid { rows, .. } | Layout::Metrics { rows } => rows,
        }
    }
}

/// A result table, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// File name stem (a safe single path component).
    pub name: String,
    /// The metrics shown (one for [`Layout::Grid`]).
    pub metrics: Vec<Metric>,
    /// Rows and columns.
    pub layout: Layout,
    /// What a cell shows beside its mean.
    pub spread: crate::spec::Spread,
}

/// What a claim's value is.
#[derive(Clone, Debug, PartialEq)]
pub enum ClaimTarget {
    /// The metric of one policy.
    Policy(String),
    /// The metric of the first policy divided by that of the second.
    Ratio(String, String),
    /// The best `metric(policy) / metric(b)` over the baselines `against` and the sweep `points`.
    BestRatio {
        /// The numerator.
        policy: String,
        /// The denominators.
        against: Vec<String>,
        /// Smallest or largest.
        best: crate::spec::Best,
        /// Every sweep point compared (each the axes the claim's `at` leaves open, with a value).
        points: Vec<Vec<(Axis, f64)>>,
    },
}

/// A published claim, checked against the spec.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// Where the claim is published.
    pub source: String,
    /// The claim in words.
    pub text: String,
    /// The metric.
    pub metric: Metric,
    /// Which policy's (or policies') value it is.
    pub target: ClaimTarget,
    /// The sweep point: every axis of the spec with its value (the first value where the claim
    /// names none).
    pub at: Vec<(Axis, f64)>,
    /// The published value.
    pub expected: f64,
    /// Allowed relative deviation (0.15 = 15%).
    pub tolerance: f64,
    /// Which way the claim goes (the band's open side, if any).
    pub direction: crate::spec::Direction,
    /// Heuristic reference policies shown beside the verdict (never deciding it).
    pub best_known: Vec<String>,
    /// Whether the claim is also judged against a proof-backed bound (`bound: relaxation`).
    pub bound: bool,
}

impl Claim {
    /// The same claim about `policy` in place of the policy under test (a ratio's numerator).
    pub fn with_policy(&self, policy: &str) -> Claim {
        let target = match &self.target {
            ClaimTarget::Policy(_) => ClaimTarget::Policy(policy.to_string()),
            ClaimTarget::Ratio(_, b) => ClaimTarget::Ratio(policy.to_string(), b.clone()),
            ClaimTarget::BestRatio { against, best, points, .. } => ClaimTarget::BestRatio {
                policy: policy.to_string(),
                against: against.clone(),
                best: *best,
                points: points.clone(),
            },
        };
        Claim { target, best_known: Vec::new(), bound: false, ..self.clone() }
    }

    /// The band of values the claim accepts.
    pub fn band(&self) -> crate::interval::Band {
        crate::interval::Band::new(self.expected, self.tolerance, self.direction)
    }
}

/// What to report, checked: tables, plots and claims.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReportPlan {
    /// What the experiment shows.
    pub description: String,
    /// Tables.
    pub tables: Vec<Table>,
    /// Plots.
    pub plots: Vec<PlotSpec>,
    /// Claims.
    pub claims: Vec<Claim>,
    /// The policy whose JCTs [`Metric::FtfRho`] divides by.
    pub fairness_reference: Option<String>,
    /// What a sample axis's workloads are to claims and `ci95` tables.
    pub population: crate::spec::Population,
}

/// A resolved experiment: every check done, sources built, ready to run.
pub struct Experiment {
    /// What results depend on.
    pub inputs: RunInputs,
    /// Policies, as written in the spec.
    pub policies: Vec<PolicyName>,
    /// Seeds (with adaptive seeds: every seed a run may get, `0..max`).
    pub seeds: Vec<u64>,
    /// The planned looks of adaptive seeds (`None`: the seeds are fixed).
    pub adaptive: Option<crate::spec::Looks>,
    /// Sweep axes with their values, in [`Axis`] order.
    pub axes: Vec<(Axis, Vec<f64>)>,
    /// What to report.
    pub report: ReportPlan,
    /// Cluster, perf model, templates, data files and the policy environment.
    pub setup: Setup,
    /// The spec's text, to point errors at lines.
    pub source: SpecSource,
}

/// Checks that `name` can be a file or folder name inside the results folder: one path
/// component of letters, digits, `-`, `_` and `.`, not starting with `.`.
pub fn check_safe_name(what: &str, name: &str) -> Result<(), String> {
    let safe = !name.is_empty()
        && !name.starts_with('.')
        && name.len() <= 100
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if safe {
        Ok(())
    } else {
        Err(format!(
            "{what} '{name}': expected a file name of letters, digits, '-', '_' and '.' (not starting with '.', at most 100 characters)"
        ))
    }
}

impl std::fmt::Debug for Experiment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Experiment")
            .field("inputs", &self.inputs)
            .field("policies", &self.policies)
            .field("seeds", &self.seeds)
            .field("axes", &self.axes)
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

impl Experiment {
    /// Parses and resolves spec text; `origin` names it in errors.
    pub fn from_text(text: &str, origin: &str, data: &DataDir) -> Result<Experiment, ExperimentError> {
        let spec = ExperimentSpec::parse(text, origin)?;
        Experiment::resolve(spec, data, SpecSource { origin: origin.to_string(), text: text.to_string() })
    }

    /// Checks the spec as a whole (what serde cannot: names, references between sections, sweep
    /// values, data files, policy files) and builds the cluster and perf model.
    pub fn resolve(spec: ExperimentSpec, data: &DataDir, source: SpecSource) -> Result<Experiment, ExperimentError> {
        let fail = |needle: &str, message: String| ExperimentError::Spec { path: source.locate(needle), message };
        check_safe_name("name", &spec.name).map_err(|message| fail("name:", message))?;
        if spec.policies.is_empty() {
            return Err(fail("policies", "policies: give at least one policy".into()));
        }
        let (seeds, adaptive) = match &spec.seeds {
            Seeds::List(seeds) => (seeds.clone(), None),
            Seeds::Adaptive(adaptive) => {
                if adaptive.min < 2 || adaptive.max < adaptive.min {
                    return Err(fail(
                        "seeds",
                        format!(
                            "seeds: min {} and max {}: expected 2 <= min <= max (an interval needs two seeds)",
                            adaptive.min, adaptive.max
                        ),
                    ));
                }
                if adaptive.max > crate::spec::MAX_SEEDS {
                    return Err(fail(
                        "seeds",
                        format!("seeds: max {}: at most {} seeds", adaptive.max, crate::spec::MAX_SEEDS),
                    ));
                }
                let Some(end) = adaptive.from.checked_add(adaptive.max) else {
                    return Err(fail("seeds", format!("seeds: from {}: too large", adaptive.from)));
                };
                let over = crate::spec::LookUnit::Seeds { from: adaptive.from };
                ((adaptive.from..end).collect(), Some(crate::spec::Looks::planned(adaptive.min, adaptive.max, over)))
            }
        };
        if seeds.is_empty() {
            return Err(fail("seeds", "seeds: give at least one seed".into()));
        }
        let mut seen = std::collections::BTreeSet::new();
        for policy in &spec.policies {
            if !seen.insert(policy.to_string()) {
                return Err(fail(&policy.to_string(), format!("policies: '{policy}' is listed twice")));
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        if let Some(seed) = seeds.iter().find(|seed| !seen.insert(**seed)) {
            return Err(fail("seeds", format!("seeds: {seed} is listed twice")));
        }
        let mut adaptive = adaptive;
        for (axis, values) in &spec.sweep {
            let AxisValues::Adaptive(episodes) = values else { continue };
            let fail =
                |message: String| ExperimentError::Spec { path: source.locate_after("sweep", axis.name()), message };
            if *axis != Axis::Episode {
                return Err(fail(format!(
                    "sweep: '{axis}' takes a list of values; only `episode` may be added until claims settle"
                )));
            }
            if adaptive.is_some() {
                return Err(fail(
                    "sweep: adaptive episodes with adaptive seeds: choose one (seeds: a list, or episode: a list)"
                        .into(),
                ));
            }
            if spec.population == crate::spec::Population::Fixed {
                return Err(fail(
                    "sweep: adaptive episodes with `population: fixed`: a fixed set of workloads is replayed whole, so \
                     its claims' units are seeds; add seeds instead"
                        .into(),
                ));
            }
            if episodes.min < 2 || episodes.max < episodes.min {
                return Err(fail(format!(
                    "sweep: episode: min {} and max {}: expected 2 <= min <= max (an interval needs two episodes)",
                    episodes.min, episodes.max
                )));
            }
            if episodes.max > crate::spec::MAX_SEEDS {
                return Err(fail(format!(
                    "sweep: episode: max {}: at most {} episodes",
                    episodes.max,
                    crate::spec::MAX_SEEDS
                )));
            }
            let over = crate::spec::LookUnit::Episodes { from: episodes.from };
            adaptive = Some(crate::spec::Looks::planned(episodes.min, episodes.max, over));
        }
        let axes: Vec<(Axis, Vec<f64>)> = spec.sweep.iter().map(|(axis, values)| (*axis, values.values())).collect();
        let generator = spec.workload.generator.is_some();
        // A sweep axis's errors point at its line under `sweep`, not at the same word elsewhere.
        let fail_axis = |needle: &str, message: String| ExperimentError::Spec {
            path: source.locate_after("sweep", needle),
            message,
        };
        for (axis, values) in &axes {
            if values.is_empty() {
                return Err(fail_axis(axis.name(), format!("sweep: '{axis}' has no values")));
            }
            for (index, value) in values.iter().enumerate() {
                axis.check(*value).map_err(|message| fail_axis(axis.name(), message))?;
                if values[..index].contains(value) {
                    return Err(fail_axis(axis.name(), format!("sweep: '{axis}' lists {value} twice")));
                }
            }
            match axis.applies_to() {
                Applies::Generator if !generator => {
                    return Err(fail_axis(axis.name(), format!("sweep: '{axis}' applies to a generator workload")));
                }
                Applies::Trace if generator => {
                    return Err(fail_axis(axis.name(), format!("sweep: '{axis}' applies to a trace workload")));
                }
                _ => {}
            }
        }
        check_sim(&spec.sim).map_err(|message| fail("sim", message))?;
        check_workload(&spec).map_err(|message| fail("workload", message))?;
        let report = resolve_report(&spec, &axes, &source)?;
        let setup = Setup::new(&spec, data, &source)?;
        if let PerfSection::TraceDuration { speedups, .. } = &spec.perf {
            let types = setup.cluster.gpu_types();
            if let Some(name) = speedups.keys().find(|name| !types.contains(name)) {
                return Err(fail(
                    "speedups",
                    format!(
                        "perf: speed factor for '{name}', which is not a GPU type of the cluster ({})",
                        types.join(", ")
                    ),
                ));
            }
        }
        let mut traced_jobs: Vec<u32> = report
            .plots
            .iter()
            .filter_map(|plot| match plot {
                PlotSpec::JobTimeline { job } => Some(*job),
                _ => None,
            })
            .collect();
        traced_jobs.sort_unstable();
        traced_jobs.dedup();
        Ok(Experiment {
            inputs: RunInputs {
                name: spec.name,
                workload: spec.workload,
                cluster: spec.cluster,
                perf: spec.perf,
                sim: spec.sim,
                traced_jobs,
            },
            policies: spec.policies,
            seeds,
            adaptive,
            axes,
            report,
            setup,
            source,
        })
    }

    /// The experiment's name; results go to `<results>/<name>/`.
    pub fn name(&self) -> &str {
        &self.inputs.name
    }

    /// Every run, sorted by key.
    pub fn runs(&self) -> Vec<RunPlan> {
        expand(&self.inputs.defines_workload(), &self.axes, &self.seeds, &self.policies)
    }

    /// The values of the axis, or none if it is not swept.
    pub fn axis_values(&self, axis: Axis) -> &[f64] {
        self.axes.iter().find(|(known, _)| *known == axis).map_or(&[], |(_, values)| values)
    }
}

/// Engine settings a run could not use: non-finite or negative times, an empty window.
fn check_sim(sim: &SimSection) -> Result<(), String> {
    if sim.stop_after_window && !matches!(sim.window, MeasurementWindow::Jobs { .. }) {
        return Err("sim: stop_after_window needs a window of jobs (window: {jobs: {first: F, last: L}})".to_string());
    }
    if !(sim.restart_overhead.is_finite() && sim.restart_overhead >= 0.0) {
        return Err(format!(
            "sim: restart_overhead must be a non-negative number of seconds, got {}",
            sim.restart_overhead
        ));
    }
    // Longer than any job schedlab accepts: every preemption (and a first start that pays it)
    // stalls the run, so no run could pay it.
    let longest = schedlab_trace::formats::MAX_DURATION_SECONDS;
    if sim.restart_overhead > longest {
        return Err(format!(
            "sim: restart_overhead of {:e} s is beyond the {longest:e} s (about 31 years) that schedlab accepts as a duration; \
             no run could pay it. Expected seconds, at most {longest:e}",
            sim.restart_overhead
        ));
    }
    if let Some(max_time) = sim.max_time
        && !(max_time.is_finite() && max_time > 0.0)
    {
        return Err(format!("sim: max_time must be a positive number of seconds, got {max_time}"));
    }
    if !(0.0..1.0).contains(&sim.fork_overhead) {
        return Err(format!("sim: fork_overhead must be a fraction in [0, 1), got {}", sim.fork_overhead));
    }
    match sim.window {
        MeasurementWindow::Jobs { first, last } if first >= last => {
            Err(format!("sim: window jobs {first}..{last} is empty; expected first < last"))
        }
        MeasurementWindow::Arrivals { from, to } if !(from.is_finite() && to.is_finite() && from < to) => {
            Err(format!("sim: window arrivals {from}..{to}; expected finite times with from < to"))
        }
        _ => Ok(()),
    }
}

/// The workload's shape: one source, transforms only on traces, generator values a run can use.
fn check_workload(spec: &ExperimentSpec) -> Result<(), String> {
    let workload = &spec.workload;
    let generator = match (&workload.trace, &workload.generator) {
        (Some(_), None) => None,
        (None, Some(generator)) => Some(generator),
        _ => return Err("workload: give exactly one of 'trace' and 'generator'".into()),
    };
    if generator.is_some() && !workload.transforms.is_empty() {
        return Err("workload: transforms apply to traces, not generators".into());
    }
    if let Some(trace) = &workload.trace {
        let templated = trace.path.display().to_string().contains(crate::axis::TRACE_INDEX);
        match (templated, spec.sweep.contains_key(&Axis::TraceIndex)) {
            (true, false) => {
                return Err("workload: the trace path contains {trace_index}; sweep trace_index over the files".into());
            }
            (false, true) => {
                return Err("sweep: trace_index replaces {trace_index} in the trace path, which has none".into());
            }
            _ => {}
        }
    }
    let episodes = workload.transforms.iter().filter(|transform| matches!(transform, Transform::Episode(_))).count();
    match (episodes, spec.sweep.contains_key(&Axis::Episode)) {
        (0, true) => {
            return Err("sweep: episode selects blocks of jobs through an `episode: {jobs: N}` transform, and the workload has none".into());
        }
        (2.., _) => return Err("workload: give at most one episode transform".into()),
        _ => {}
    }
    if matches!(workload.model, Model::Applications) && !matches!(spec.perf, PerfSection::Pollux { .. }) {
        return Err(
            "workload: model applications takes each job's work from the perf model's applications; set perf: pollux"
                .into(),
        );
    }
    if generator.is_some() && workload.required_gpu_type {
        return Err("workload: required_gpu_type applies to traces that record a GPU type, not generators".into());
    }
    let (jobs, rate) = match generator {
        Some(GeneratorSpec::GavelContinuous { jobs, rate_per_hour, .. })
        | Some(GeneratorSpec::PhillySampled { jobs, rate_per_hour, .. }) => (*jobs, Some(*rate_per_hour)),
        Some(GeneratorSpec::GavelStatic { jobs, .. }) => (*jobs, None),
        Some(GeneratorSpec::Dl2 { jobs, .. }) => {
            if !matches!(spec.perf, PerfSection::Dl2 { .. }) {
                return Err(
                    "workload: generator dl2 makes jobs of DL2's models with work in epochs; set perf: dl2".into()
                );
            }
            (*jobs, None)
        }
        None => return Ok(()),
    };
    // Sweep values replace these, and are checked as axes.
    if jobs == 0 && !spec.sweep.contains_key(&Axis::Jobs) {
        return Err("workload: a generator needs at least one job".into());
    }
    if jobs > schedlab_trace::synthetic::MAX_JOBS {
        return Err(format!(
            "workload: a generator of {jobs} jobs is more than the {} schedlab generates (about 1 KB each in memory)",
            schedlab_trace::synthetic::MAX_JOBS
        ));
    }
    if let Some(rate) = rate
        && !(rate.is_finite() && rate > 0.0)
        && !spec.sweep.contains_key(&Axis::RatePerHour)
    {
        return Err(format!("workload: rate_per_hour must be a positive number, got {rate}"));
    }
    Ok(())
}

/// The parameters a table can be laid out by: `policy`, `seed` and the sweep axes.
fn parameters(axes: &[(Axis, Vec<f64>)]) -> Vec<Parameter> {
    [Parameter::Policy, Parameter::Seed]
        .into_iter()
        .chain(axes.iter().map(|(axis, _)| Parameter::Axis(*axis)))
        .collect()
}

fn resolve_report(
    spec: &ExperimentSpec,
    axes: &[(Axis, Vec<f64>)],
    source: &SpecSource,
) -> Result<ReportPlan, ExperimentError> {
    let fail = |needle: &str, message: String| ExperimentError::Spec { path: source.locate(needle), message };
    let known = parameters(axes);
    let swept = |axis: &Axis| axes.iter().any(|(known, _)| known == axis);
    let mut tables = Vec::new();
    for table in &spec.tables {
        let at = format!("name: {}", table.name);
        check_safe_name("table", &table.name).map_err(|message| fail(&at, message))?;
        if tables.iter().any(|known: &Table| known.name == table.name) {
            return Err(fail(&at, format!("table '{}': two tables have this name", table.name)));
        }
        let parse = |text: &str| {
            parse_parameter(text, &known).map_err(|message| fail(&at, format!("table '{}': {message}", table.name)))
        };
        let (metrics, layout) = match (&table.metric, &table.metrics) {
            (Some(metric), None) => {
                let (rows, columns) = (parse(&table.rows)?, parse(&table.columns)?);
                if rows == columns {
                    // A grid with the same parameter both ways has values on its diagonal only.
                    return Err(fail(
                        &at,
                        format!(
                            "table '{}': rows and columns are both '{}' (columns default to policy); for one column of {metric} write `metrics: [{metric}]`, or name other `columns:` (seed or a sweep axis)",
                            table.name, table.rows
                        ),
                    ));
                }
                (vec![*metric], Layout::Grid { rows, columns })
            }
            (None, Some(metrics)) if !metrics.is_empty() => {
                parse(&table.columns)?;
                (metrics.clone(), Layout::Metrics { rows: parse(&table.rows)? })
            }
            _ => return Err(fail(&at, format!("table '{}': give exactly one of metric and metrics", table.name))),
        };
        if table.spread == crate::spec::Spread::Ci95 {
            // An interval over replicate units needs the other axes fixed: pooling two loads, say,
            // would mix their spread into the interval.
            let shown = |axis: &Axis| match layout {
                Layout::Grid { rows, columns } => rows == Parameter::Axis(*axis) || columns == Parameter::Axis(*axis),
                Layout::Metrics { rows } => rows == Parameter::Axis(*axis),
            };
            if let Some((axis, _)) =
                axes.iter().find(|(axis, values)| !axis.is_sample() && values.len() > 1 && !shown(axis))
            {
                return Err(fail(
                    &at,
                    format!(
                        "table '{}': spread: ci95 would pool the runs of every {axis} value into one interval; show {axis} as rows or columns, or use spread: range",
                        table.name
                    ),
                ));
            }
        }
        tables.push(Table { name: table.name.clone(), metrics, layout, spread: table.spread });
    }
    for plot in &spec.plots {
        match plot {
            PlotSpec::MetricVsAxis { axis, .. } if !swept(axis) => {
                return Err(fail("metric_vs_axis", format!("plot: '{axis}' is not a sweep axis of this spec")));
            }
            PlotSpec::MetricVsExperiments { name, metric, points, .. } => {
                let fail = |message: String| fail("metric_vs_experiments", format!("plot '{name}': {message}"));
                check_safe_name("plot", name).map_err(&fail)?;
                if !Metric::runs_csv_columns().any(|known| known == *metric) {
                    return Err(fail(format!(
                        "{metric} is not a column of runs.csv, where the other experiments' values are read"
                    )));
                }
                if points.is_empty() {
                    return Err(fail("points: expected at least one experiment".into()));
                }
                for (index, point) in points.iter().enumerate() {
                    check_safe_name("experiment", &point.experiment).map_err(&fail)?;
                    if !point.x.is_finite() {
                        return Err(fail(format!("experiment '{}': x must be a finite number", point.experiment)));
                    }
                    if points[..index].iter().any(|other| other.experiment == point.experiment) {
                        return Err(fail(format!("experiment '{}' is listed twice", point.experiment)));
                    }
                }
            }
            PlotSpec::PolicySeries { series } => {
                check_safe_name("series", series)
                    .map_err(|message| fail("policy_series", format!("plot: {message}")))?;
            }
            _ => {}
        }
    }
    let in_policies = |name: &str| spec.policies.iter().any(|policy| policy.to_string() == name);
    let mut claims = Vec::new();
    for claim in &spec.claims {
        let resolved = resolve_claim(claim, axes, &in_policies).map_err(|message| fail(&claim.text, message))?;
        if resolved.bound {
            check_bound(spec, &resolved).map_err(|message| fail(&claim.text, message))?;
        }
        claims.push(resolved);
    }
    let fairness_reference = spec.fairness_reference.as_ref().map(ToString::to_string);
    if let Some(reference) = &fairness_reference
        && !in_policies(reference)
    {
        return Err(fail("fairness_reference", format!("fairness_reference: '{reference}' is not in policies")));
    }
    let uses_rho = tables.iter().any(|table| table.metrics.contains(&Metric::FtfRho))
        || spec.plots.iter().any(|plot| matches!(plot, PlotSpec::MetricVsAxis { metric: Metric::FtfRho, .. }))
        || claims.iter().any(|claim| claim.metric == Metric::FtfRho);
    if uses_rho && fairness_reference.is_none() {
        return Err(fail("ftf_rho", "ftf_rho needs fairness_reference: the policy whose JCTs it divides by".into()));
    }
    Ok(ReportPlan {
        description: spec.description.clone(),
        tables,
        plots: spec.plots.clone(),
        claims,
        fairness_reference,
        population: spec.population,
    })
}

/// Checks that a claim's `bound: relaxation` applies: rigid jobs with trace durations, every
/// job measured, and a metric the relaxations bound.
fn check_bound(spec: &ExperimentSpec, claim: &Claim) -> Result<(), String> {
    let what = format!("claim '{}': bound: relaxation", claim.text);
    if !matches!(spec.perf, PerfSection::Rigid | PerfSection::TraceDuration { .. }) {
        return Err(format!(
            "{what} needs rigid jobs with trace durations (perf: rigid or trace_duration), whose run time on each GPU type is known before the run"
        ));
    }
    if spec.sim.window != schedlab_sim::MeasurementWindow::All {
        return Err(format!("{what} needs every job measured (no sim.window)"));
    }
    if claim.metric.relaxation_side().is_none() {
        return Err(format!(
            "{what}: no relaxation bounds {}; it bounds {}",
            claim.metric,
            crate::metric::RELAXATION_METRICS.map(|metric| metric.to_string()).join(", ")
        ));
    }
    Ok(())
}

fn resolve_claim(
    claim: &ClaimSpec,
    axes: &[(Axis, Vec<f64>)],
    in_policies: &dyn Fn(&str) -> bool,
) -> Result<Claim, String> {
    let what = format!("claim '{}'", claim.text);
    // Axes a best-case claim ranges over: those its `at` does not name (trace files excepted,
    // whose values are averaged as for every claim).
    let open_axes: Vec<&(Axis, Vec<f64>)> =
        axes.iter().filter(|(axis, _)| !axis.is_sample() && !claim.at.contains_key(axis)).collect();
    let target = match (&claim.policy, &claim.ratio, &claim.best_ratio) {
        (Some(policy), None, None) => ClaimTarget::Policy(policy.clone()),
        (None, Some([a, b]), None) => ClaimTarget::Ratio(a.clone(), b.clone()),
        (None, None, Some(best)) => {
            if best.against.is_empty() {
                return Err(format!("{what}: best_ratio.against lists no policy"));
            }
            let mut points: Vec<Vec<(Axis, f64)>> = vec![Vec::new()];
            for (axis, values) in &open_axes {
                points = points
                    .into_iter()
                    .flat_map(|point| {
                        values.iter().map(move |value| {
                            let mut point = point.clone();
                            point.push((*axis, *value));
                            point
                        })
                    })
                    .collect();
            }
            ClaimTarget::BestRatio {
                policy: best.policy.clone(),
                against: best.against.clone(),
                best: best.best,
                points,
            }
        }
        _ => return Err(format!("{what}: give exactly one of policy, ratio and best_ratio")),
    };
    let named: Vec<&String> = match &target {
        ClaimTarget::Policy(policy) => vec![policy],
        ClaimTarget::Ratio(a, b) => vec![a, b],
        ClaimTarget::BestRatio { policy, against, .. } => std::iter::once(policy).chain(against).collect(),
    };
    if claim.bounds.is_some() {
        return Err(format!(
            "{what}: `bounds` is now `best_known`: heuristic reference policies are shown beside the verdict and never make a claim unreachable; a proof does (`bound: relaxation`)"
        ));
    }
    let named: Vec<&String> = named.into_iter().chain(&claim.best_known).collect();
    if let Some(name) = named.into_iter().find(|name| !in_policies(name)) {
        return Err(format!("{what}: policy '{name}' is not in policies"));
    }
    if let Some(axis) = claim.at.keys().find(|axis| !axes.iter().any(|(known, _)| known == *axis)) {
        return Err(format!("{what}: 'at' names '{axis}', which is not a sweep axis"));
    }
    if !(claim.expected.is_finite() && claim.tolerance.is_finite() && claim.tolerance >= 0.0) {
        return Err(format!("{what}: expected and tolerance must be finite, tolerance non-negative"));
    }
    // An axis the claim does not name is fixed at its first value, except sample axes (trace
    // files, episodes): a claim about a set of workloads (Pollux's eight per load) is their mean.
    let ranges = matches!(target, ClaimTarget::BestRatio { .. });
    let at = axes
        .iter()
        .filter(|(axis, _)| !axis.is_sample() || claim.at.contains_key(axis))
        .filter(|(axis, _)| !ranges || claim.at.contains_key(axis))
        .map(|(axis, values)| (*axis, claim.at.get(axis).copied().unwrap_or(values[0])))
        .collect();
    Ok(Claim {
        source: claim.source.clone(),
        text: claim.text.clone(),
        metric: claim.metric,
        target,
        at,
        expected: claim.expected,
        tolerance: claim.tolerance,
        direction: claim.direction,
        best_known: claim.best_known.clone(),
        bound: claim.bound.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_could_leave_the_results_folder_are_refused() {
        for name in ["..", ".", "", "/tmp/x", "../../x", "a/b", ".hidden", "a\\b", "x y"] {
            assert!(check_safe_name("name", name).is_err(), "{name:?}");
        }
        for name in ["philly", "ci-gavel-all", "avg_jct", "v1.2"] {
            assert!(check_safe_name("name", name).is_ok(), "{name:?}");
        }
    }
}

//! The YAML experiment spec: what to run and what to report.

use crate::ExperimentError;
use schedlab_cluster::{MixedTypes, NodeEntry};
use schedlab_core::PolicyParams;
use schedlab_sim::MeasurementWindow;
use schedlab_trace::spec::WorkloadSpec;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A whole experiment, as read from `experiments/NAME.yaml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentSpec {
    /// Name; results go to `results/<name>/`.
    pub name: String,
    /// What the experiment shows, for the report.
    #[serde(default)]
    pub description: String,
    /// Where jobs come from.
    pub workload: WorkloadSpec,
    /// The cluster.
    pub cluster: ClusterSection,
    /// The ground-truth performance model.
    #[serde(default)]
    pub perf: PerfSection,
    /// Policies to compare, as `name[key=value,...]`.
    pub policies: Vec<PolicyName>,
    /// Seeds; each run's RNG seed derives from the spec, the run's parameters and this seed.
    #[serde(default = "default_seeds")]
    pub seeds: Vec<u64>,
    /// Sweep axes: each key lists values; runs cover their cartesian product.
    #[serde(default)]
    pub sweep: Sweep,
    /// Engine settings.
    #[serde(default)]
    pub sim: SimSection,
    /// Result tables.
    #[serde(default)]
    pub tables: Vec<TableSpec>,
    /// Plots.
    #[serde(default)]
    pub plots: Vec<PlotSpec>,
    /// Published claims to check.
    #[serde(default)]
    pub claims: Vec<ClaimSpec>,
    /// The policy whose JCTs the `ftf_rho` metric divides by (one of `policies`).
    #[serde(default)]
    pub fairness_reference: Option<PolicyName>,
}

fn default_seeds() -> Vec<u64> {
    vec![0]
}

/// A policy name checked against the zoo while the spec is parsed (reading its parameters, not
/// building it: no file is read), so that an unknown policy or parameter is reported at its line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PolicyName(pub PolicyParams);

impl TryFrom<String> for PolicyName {
    type Error = String;
    fn try_from(text: String) -> Result<PolicyName, String> {
        let params: PolicyParams = text.parse().map_err(|error: schedlab_core::ParamError| error.to_string())?;
        schedlab_zoo::describe(&params).map_err(|error| error.to_string())?;
        Ok(PolicyName(params))
    }
}

impl From<PolicyName> for String {
    fn from(name: PolicyName) -> String {
        name.0.to_string()
    }
}

impl std::fmt::Display for PolicyName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Sweep axes. Only these keys take lists: the rest of the spec stays strictly typed, so a list
/// where a number belongs is an error at its line rather than a silent axis.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Sweep {
    /// Arrival rates (jobs per hour) for a generator workload.
    pub rate_per_hour: Option<Vec<f64>>,
    /// Numbers of jobs for a generator workload.
    pub jobs: Option<Vec<usize>>,
    /// Factors applied to a trace's arrival rate (a `scale_rate` transform after the others).
    pub scale_rate: Option<Vec<f64>>,
    /// Restart overheads in seconds.
    pub restart_overhead: Option<Vec<f64>>,
}

/// The cluster: exactly one of the forms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ClusterSection {
    /// `{gpus: {v100: 36, k80: 36}, gpus_per_node: 4}`.
    Compact {
        /// GPUs per type; types get ids in alphabetical order of their names (a YAML map has no
        /// order that serde keeps).
        gpus: BTreeMap<String, u32>,
        /// GPUs per node.
        gpus_per_node: u32,
        /// CPUs per node, if modelled.
        #[serde(default)]
        cpus_per_node: Option<f64>,
    },
    /// An explicit node list.
    Nodes(Vec<NodeEntry>),
    /// Philly's VCs (`philly/philly_vc.csv`), 8 GPUs per node.
    PhillyVc {
        /// The VC table, relative to the data directory.
        #[serde(default = "default_philly_vc")]
        path: PathBuf,
        /// Name given to Philly's GPUs (the trace does not record models).
        #[serde(default = "default_philly_gpu")]
        gpu_type: String,
        /// `per_vc` runs each VC's jobs on its own nodes (as the Helios study does); `pooled`
        /// puts every job on the whole cluster.
        #[serde(default)]
        partition: Partition,
    },
    /// Alibaba PAI 2020 machines (`alibaba/pai-v2020/pai_machine_spec.csv`).
    Pai {
        /// The machine table, relative to the data directory.
        path: PathBuf,
    },
    /// Alibaba 2023 OpenB nodes (`alibaba/openb-v2023/openb_node_list_gpu_node.csv`).
    Openb {
        /// The node list, relative to the data directory.
        path: PathBuf,
    },
}

fn default_philly_vc() -> PathBuf {
    PathBuf::from("philly/philly_vc.csv")
}

fn default_philly_gpu() -> String {
    "gpu".to_string()
}

/// How a cluster with groups (Philly VCs) is shared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Partition {
    /// Each VC's jobs run on that VC's nodes only.
    #[default]
    PerVc,
    /// One pool.
    Pooled,
}

/// The ground-truth performance model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PerfSection {
    /// Rigid jobs at the trace's speed on every GPU type.
    #[default]
    Rigid,
    /// Rigid jobs timed on `reference`, with speed factors for other types.
    TraceDuration {
        /// The type durations were measured on.
        reference: String,
        /// Speed relative to the reference, per type.
        #[serde(default)]
        speedups: BTreeMap<String, f64>,
    },
    /// Gavel's measured throughputs.
    Throughputs {
        /// The JSON file, relative to the data directory.
        path: PathBuf,
        /// The type whose throughput converts durations into steps.
        #[serde(default = "default_reference")]
        reference: String,
        /// How a job spread over several GPU types progresses: `bottleneck` (default) or `sum`.
        #[serde(default)]
        mixed_types: MixedTypes,
    },
}

fn default_reference() -> String {
    "v100".to_string()
}

/// Engine settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SimSection {
    /// Seconds without progress after a restart or migration.
    pub restart_overhead: f64,
    /// Whether first starts also pay the overhead.
    pub overhead_on_first_start: bool,
    /// Which jobs the metrics cover.
    pub window: MeasurementWindow,
    /// Stop at this many seconds.
    pub max_time: Option<f64>,
    /// Fraction of a forked job's combined copy progress lost to aggregation (HadarE).
    pub fork_overhead: f64,
}

impl Default for SimSection {
    fn default() -> SimSection {
        SimSection {
            restart_overhead: 0.0,
            overhead_on_first_start: false,
            window: MeasurementWindow::default(),
            max_time: None,
            fork_overhead: schedlab_sim::DEFAULT_FORK_OVERHEAD,
        }
    }
}

/// A result table, mean over the parameters not shown. Either one `metric` with rows and
/// columns by two parameters, or several `metrics` as columns with rows by one parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// File name stem.
    pub name: String,
    /// One metric (see [`crate::report::METRICS`]).
    #[serde(default)]
    pub metric: Option<String>,
    /// Several metrics, one column each (then `columns` is not used).
    #[serde(default)]
    pub metrics: Option<Vec<String>>,
    /// Parameter for rows: `policy`, `seed` or a sweep axis.
    #[serde(default = "default_rows")]
    pub rows: String,
    /// Parameter for columns.
    #[serde(default = "default_columns")]
    pub columns: String,
}

impl TableSpec {
    /// Returns the metrics the table shows.
    pub fn metric_names(&self) -> Vec<String> {
        match (&self.metric, &self.metrics) {
            (Some(metric), _) => vec![metric.clone()],
            (None, Some(metrics)) => metrics.clone(),
            (None, None) => Vec::new(),
        }
    }
}

fn default_rows() -> String {
    "policy".to_string()
}

fn default_columns() -> String {
    "policy".to_string()
}

/// A plot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PlotSpec {
    /// CDF of job completion times, one line per policy (first seed, first sweep point).
    JctCdf,
    /// A metric against a sweep axis, one line per policy.
    MetricVsAxis {
        /// The metric.
        metric: String,
        /// The sweep axis on the x axis.
        axis: String,
    },
    /// Busy GPUs over time, one line per policy (first seed, first sweep point).
    BusyGpus,
}

/// A published claim, checked against the measured value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimSpec {
    /// Where the claim is published.
    pub source: String,
    /// The claim in words.
    pub text: String,
    /// The metric.
    pub metric: String,
    /// The policy whose value is the claim (exclusive with `ratio`).
    #[serde(default)]
    pub policy: Option<String>,
    /// `[a, b]`: the claim is metric(a) / metric(b).
    #[serde(default)]
    pub ratio: Option<[String; 2]>,
    /// Sweep point, e.g. `{rate_per_hour: 5.2}`; empty for the first point.
    #[serde(default)]
    pub at: BTreeMap<String, f64>,
    /// The published value.
    pub expected: f64,
    /// Allowed relative deviation (0.15 = 15%).
    pub tolerance: f64,
}

impl ExperimentSpec {
    /// Parses a spec from YAML text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<ExperimentSpec, ExperimentError> {
        let spec: ExperimentSpec = serde_saphyr::from_str(text)
            .map_err(|error| ExperimentError::Spec { path: origin.to_string(), message: error.to_string() })?;
        spec.check(origin)?;
        Ok(spec)
    }

    /// Reads and parses a spec file.
    pub fn load(path: &Path) -> Result<ExperimentSpec, ExperimentError> {
        let text = std::fs::read_to_string(path).map_err(|error| ExperimentError::Spec {
            path: path.display().to_string(),
            message: format!("cannot read the spec: {error}"),
        })?;
        ExperimentSpec::parse(&text, &path.display().to_string())
    }

    /// Checks what serde cannot: policy names, metric and axis names, claim shapes.
    fn check(&self, origin: &str) -> Result<(), ExperimentError> {
        let fail = |message: String| Err(ExperimentError::Spec { path: origin.to_string(), message });
        if self.policies.is_empty() {
            return fail("policies: give at least one policy".into());
        }
        if self.seeds.is_empty() {
            return fail("seeds: give at least one seed".into());
        }
        let parameters = self.parameters();
        for table in &self.tables {
            if table.metric.is_some() == table.metrics.is_some() {
                return fail(format!("table '{}': give exactly one of metric and metrics", table.name));
            }
            for metric in table.metric_names() {
                crate::report::check_metric(&metric)
                    .or_else(|message| fail(format!("table '{}': {message}", table.name)))?;
            }
            for axis in [&table.rows, &table.columns] {
                if !parameters.contains(&axis.as_str()) {
                    return fail(format!(
                        "table '{}': unknown parameter '{axis}'; expected one of {}",
                        table.name,
                        parameters.join(", ")
                    ));
                }
            }
        }
        for plot in &self.plots {
            if let PlotSpec::MetricVsAxis { metric, axis } = plot {
                crate::report::check_metric(metric).or_else(|message| fail(format!("plot: {message}")))?;
                if !self.axes().iter().any(|(name, _)| name == axis) {
                    return fail(format!("plot: '{axis}' is not a sweep axis of this spec"));
                }
            }
        }
        for claim in &self.claims {
            crate::report::check_metric(&claim.metric)
                .or_else(|message| fail(format!("claim '{}': {message}", claim.text)))?;
            let named: Vec<&String> = match (&claim.policy, &claim.ratio) {
                (Some(policy), None) => vec![policy],
                (None, Some([a, b])) => vec![a, b],
                _ => return fail(format!("claim '{}': give exactly one of policy and ratio", claim.text)),
            };
            for name in named {
                if !self.policies.iter().any(|policy| policy.to_string() == *name) {
                    return fail(format!("claim '{}': policy '{name}' is not in policies", claim.text));
                }
            }
            for key in claim.at.keys() {
                if !self.axes().iter().any(|(name, _)| name == key) {
                    return fail(format!("claim '{}': 'at' names '{key}', which is not a sweep axis", claim.text));
                }
            }
        }
        if let Some(reference) = &self.fairness_reference
            && !self.policies.contains(reference)
        {
            return fail(format!("fairness_reference: '{reference}' is not in policies"));
        }
        let uses_rho =
            self.tables.iter().any(|table| table.metric_names().iter().any(|name| name == crate::report::FTF_RHO))
                || self.plots.iter().any(
                    |plot| matches!(plot, PlotSpec::MetricVsAxis { metric, .. } if metric == crate::report::FTF_RHO),
                )
                || self.claims.iter().any(|claim| claim.metric == crate::report::FTF_RHO);
        if uses_rho && self.fairness_reference.is_none() {
            return fail("ftf_rho needs fairness_reference: the policy whose JCTs it divides by".into());
        }
        let generator = self.workload.generator.is_some();
        for (axis, needs_generator) in [("rate_per_hour", true), ("jobs", true), ("scale_rate", false)] {
            let given = self.axes().iter().any(|(name, _)| name == axis);
            if given && needs_generator != generator {
                let what = if needs_generator { "a generator workload" } else { "a trace workload" };
                return fail(format!("sweep: '{axis}' applies to {what}"));
            }
        }
        Ok(())
    }

    /// Returns the sweep axes with their values as text, in a fixed order.
    pub fn axes(&self) -> Vec<(String, Vec<f64>)> {
        let mut axes = Vec::new();
        if let Some(values) = &self.sweep.rate_per_hour {
            axes.push(("rate_per_hour".to_string(), values.clone()));
        }
        if let Some(values) = &self.sweep.jobs {
            axes.push(("jobs".to_string(), values.iter().map(|value| *value as f64).collect()));
        }
        if let Some(values) = &self.sweep.scale_rate {
            axes.push(("scale_rate".to_string(), values.clone()));
        }
        if let Some(values) = &self.sweep.restart_overhead {
            axes.push(("restart_overhead".to_string(), values.clone()));
        }
        axes
    }

    /// Returns every parameter a table can use: `policy`, `seed` and the sweep axes.
    pub fn parameters(&self) -> Vec<&str> {
        let mut names = vec!["policy", "seed"];
        if self.sweep.rate_per_hour.is_some() {
            names.push("rate_per_hour");
        }
        if self.sweep.jobs.is_some() {
            names.push("jobs");
        }
        if self.sweep.scale_rate.is_some() {
            names.push("scale_rate");
        }
        if self.sweep.restart_overhead.is_some() {
            names.push("restart_overhead");
        }
        names
    }
}

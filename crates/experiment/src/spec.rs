//! The YAML experiment spec as written: what to run and what to report. This is the raw form
//! serde reads (with line numbers in its errors); resolution (`Experiment::resolve`) checks it
//! as a whole and turns it into an `Experiment`.

use crate::ExperimentError;
use crate::axis::Axis;
use crate::metric::Metric;
use schedlab_cluster::{MixedTypes, NodeEntry};
use schedlab_core::PolicyParams;
use schedlab_sim::MeasurementWindow;
use schedlab_trace::spec::WorkloadSpec;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

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
    /// A list, or `{min: N, max: M, settle: claims}`: seeds 0, 1, ... added until every claim is
    /// settled (see the `adaptive` module).
    #[serde(default)]
    pub seeds: Seeds,
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
    /// What the workloads of a sample axis (`trace_index`, `episode`) are to claims: `drawn`
    /// (the default), a sample of the workloads a published value speaks of, so each is a
    /// replicate; or `fixed`, the whole set a published value averages, replayed exactly, so a
    /// replicate is a seed (a repeat run of the whole set, paired workload by workload).
    #[serde(default, skip_serializing_if = "Population::is_drawn")]
    pub population: Population,
    /// Other names `schedlab reproduce` runs this spec under, besides its own file name's
    /// prefix (`philly-rltune.yaml` is in `reproduce philly` by name and in `reproduce rltune`
    /// with `also_in: [rltune]`). Not part of any run's identity.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_in: Vec<String>,
}

/// The spec's seeds: a list, or seeds added until the claims are settled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Seeds {
    /// These seeds.
    List(Vec<u64>),
    /// Seeds `from..from + min`, then more in planned looks up to `from..from + max`, each look
    /// adding seeds only to the runs the claims still unsettled read.
    Adaptive(AdaptiveSeeds),
}

impl Default for Seeds {
    fn default() -> Seeds {
        Seeds::List(vec![0])
    }
}

/// `seeds: {min: 3, max: 40, settle: claims}`, or `{from: 40, ...}` for seeds from 40 on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdaptiveSeeds {
    /// The first seed (0 unless given): a study judged afresh on seeds no earlier look read.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub from: u64,
    /// Seeds of the first look (every run of the spec has them).
    pub min: u64,
    /// Most seeds any run gets.
    pub max: u64,
    /// What decides when to stop: the claims.
    pub settle: Settle,
}

/// Whether a `from` is the default, 0 (left out when a spec is written back, so that specs
/// without it keep their identity).
fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// Most seeds adaptive seeds may reach.
pub const MAX_SEEDS: u64 = 1000;

/// The planned looks of adaptive seeds or episodes: how many units (seeds or episodes) each
/// look has (see the `adaptive` module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Looks {
    /// Units at each look, increasing; the first is `min`, the last `max`.
    pub counts: Vec<u64>,
    /// What the looks add.
    pub over: LookUnit,
}

/// What adaptive looks add to the runs of the claims still open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookUnit {
    /// Seeds `from, from + 1, ...` (`seeds: {from, min, max, settle}`).
    Seeds {
        /// The first seed.
        from: u64,
    },
    /// Episodes `from, from + 1, ...` (`sweep: {episode: {from, min, max, settle}}`).
    Episodes {
        /// The first episode's index.
        from: u64,
    },
}

impl Looks {
    /// `min`, then twice as many units each time, the last look at `max`.
    pub fn planned(min: u64, max: u64, over: LookUnit) -> Looks {
        let mut counts = vec![min];
        while let Some(&last) = counts.last()
            && last < max
        {
            counts.push((2 * last).min(max));
        }
        Looks { counts, over }
    }

    /// What the looks add, plural: "seeds" or "episodes".
    pub fn unit_name(&self) -> &'static str {
        match self.over {
            LookUnit::Seeds { .. } => "seeds",
            LookUnit::Episodes { .. } => "episodes",
        }
    }

    /// How many looks are planned (the `K` the error is split over).
    pub fn count(&self) -> usize {
        self.counts.len()
    }
}

/// What adaptive seeds settle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Settle {
    /// Every claim of the spec has a verdict other than inconclusive.
    Claims,
}

impl<'de> Deserialize<'de> for Seeds {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Seeds, D::Error> {
        struct SeedsVisitor;
        impl<'de> serde::de::Visitor<'de> for SeedsVisitor {
            type Value = Seeds;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter
                    .write_str("a list of seeds, as in seeds: [0, 1, 2], or seeds: {min: 3, max: 40, settle: claims}")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, sequence: A) -> Result<Seeds, A::Error> {
                seeds(serde::de::value::SeqAccessDeserializer::new(sequence)).map(Seeds::List)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Seeds, A::Error> {
                AdaptiveSeeds::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Seeds::Adaptive)
            }
        }
        deserializer.deserialize_any(SeedsVisitor)
    }
}

/// A list of seeds, each a non-negative integer; anything else (a nested list, a quoted number)
/// is an error that says what a seed is.
fn seeds<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<u64>, D::Error> {
    struct Seed(u64);
    struct SeedVisitor;
    impl serde::de::Visitor<'_> for SeedVisitor {
        type Value = u64;
        fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            formatter.write_str("a seed: a non-negative integer, as in seeds: [0, 1, 2]")
        }
        fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<u64, E> {
            Ok(value)
        }
        fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<u64, E> {
            u64::try_from(value).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(value), &self))
        }
    }
    impl<'de> Deserialize<'de> for Seed {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Seed, D::Error> {
            deserializer.deserialize_any(SeedVisitor).map(Seed)
        }
    }
    Ok(Vec::<Seed>::deserialize(deserializer)?.into_iter().map(|Seed(seed)| seed).collect())
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

/// Sweep axes ([`Axis`]) with their values. Only these keys take lists: the rest of the spec
/// stays strictly typed, so a list where a number belongs is an error at its line rather than
/// a silent axis.
pub type Sweep = BTreeMap<Axis, AxisValues>;

/// One sweep axis's values: a list, or (for `episode` only) episodes added until the claims
/// are settled.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AxisValues {
    /// These values.
    List(Vec<f64>),
    /// Episodes `from, from + 1, ...`: `min` of them at the first look, then more in planned
    /// looks up to `max`, each look adding episodes only to the runs the claims still open read
    /// (see the `adaptive` module).
    Adaptive(AdaptiveEpisodes),
}

impl AxisValues {
    /// Every value the axis may take (with adaptive episodes: up to `max` of them).
    pub fn values(&self) -> Vec<f64> {
        match self {
            AxisValues::List(values) => values.clone(),
            AxisValues::Adaptive(adaptive) => (0..adaptive.max).map(|index| (adaptive.from + index) as f64).collect(),
        }
    }
}

impl From<Vec<f64>> for AxisValues {
    fn from(values: Vec<f64>) -> AxisValues {
        AxisValues::List(values)
    }
}

/// `episode: {from: 0, min: 10, max: 80, settle: claims}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdaptiveEpisodes {
    /// The first episode's index.
    #[serde(default)]
    pub from: u64,
    /// Episodes of the first look (every run of the spec has them).
    pub min: u64,
    /// Most episodes any run gets.
    pub max: u64,
    /// What decides when to stop: the claims.
    pub settle: Settle,
}

impl<'de> Deserialize<'de> for AxisValues {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<AxisValues, D::Error> {
        struct ValuesVisitor;
        impl<'de> serde::de::Visitor<'de> for ValuesVisitor {
            type Value = AxisValues;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str(
                    "a list of values, as in scale_rate: [1, 2, 4], or episode: {from: 0, min: 10, max: 80, settle: claims}",
                )
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, sequence: A) -> Result<AxisValues, A::Error> {
                Vec::<f64>::deserialize(serde::de::value::SeqAccessDeserializer::new(sequence)).map(AxisValues::List)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<AxisValues, A::Error> {
                AdaptiveEpisodes::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(AxisValues::Adaptive)
            }
        }
        deserializer.deserialize_any(ValuesVisitor)
    }
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
    /// An explicit node list in which every node names its group (VC), shared as `partition`
    /// says (as for `philly_vc`); jobs' VCs name the groups.
    Groups {
        /// The nodes, each with a `group`.
        nodes: Vec<NodeEntry>,
        /// How the groups share the cluster.
        #[serde(default)]
        partition: Partition,
    },
    /// Philly's VCs (`philly/philly_vc.csv`), 8 GPUs per node.
    PhillyVc {
        /// The VC table, relative to the data directory.
        #[serde(default = "default_philly_vc")]
        path: PathBuf,
        /// Name given to Philly's GPUs (the trace does not record models).
        #[serde(default = "default_philly_gpu")]
        gpu_type: String,
        /// `per_vc` runs each VC's jobs on its own nodes with a policy per VC (as the Helios
        /// study does); `vc_pools` runs one policy over the whole cluster but keeps each job on
        /// its VC's nodes (RLTune's single agent); `pooled` puts every job on the whole cluster.
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
    /// Each VC's jobs run on that VC's nodes only, one policy instance (and engine run) per VC.
    #[default]
    PerVc,
    /// One policy instance over the whole cluster; each job may use only its VC's nodes
    /// (`JobSpec::pool`).
    VcPools,
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
    /// Pollux's applications (the OSDI 2021 artifact's profiles): goodput from measured step
    /// times and gradient noise, changing at every epoch; pair with `model: applications`.
    Pollux {
        /// The profiles folder, relative to the data directory.
        #[serde(default = "default_pollux_profiles")]
        path: PathBuf,
    },
    /// DL2's measured MXNet speeds, interpolated per model over (parameter servers, workers)
    /// as DL2's simulator does; work in epochs. Pair with `generator: {dl2: {}}`.
    Dl2 {
        /// `config_speed.txt`, relative to the data directory.
        #[serde(default = "default_dl2_speeds")]
        path: PathBuf,
    },
}

fn default_dl2_speeds() -> PathBuf {
    PathBuf::from("dl2/config_speed.txt")
}

fn default_pollux_profiles() -> PathBuf {
    PathBuf::from("pollux/profiles")
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
    /// End each run once every job of the `jobs` window has finished, as Gavel's simulator
    /// does (`jobs_to_complete`); the workload must still be arriving then. Left out of the
    /// run identity when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stop_after_window: bool,
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
            stop_after_window: false,
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
    /// One metric.
    #[serde(default)]
    pub metric: Option<Metric>,
    /// Several metrics, one column each (then `columns` is not used).
    #[serde(default)]
    pub metrics: Option<Vec<Metric>>,
    /// Parameter for rows: `policy`, `seed` or a sweep axis.
    #[serde(default = "default_rows")]
    pub rows: String,
    /// Parameter for columns.
    #[serde(default = "default_columns")]
    pub columns: String,
    /// What a cell shows beside the mean: the runs' `range` (the default) or the mean's 95%
    /// interval over the claims' replicate units (`ci95`: each seed, or each workload a drawn
    /// sample axis gives; only where no other sweep axis is pooled).
    #[serde(default, skip_serializing_if = "Spread::is_range")]
    pub spread: Spread,
}

/// What a table cell shows beside its mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spread {
    /// The smallest and largest value of the runs, `[min-max]`.
    #[default]
    Range,
    /// The mean's 95% interval over replicate units, as claims make it.
    Ci95,
}

impl Spread {
    /// Whether this is the default, [`Spread::Range`] (not written back into specs).
    pub fn is_range(&self) -> bool {
        *self == Spread::Range
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
        metric: Metric,
        /// The sweep axis on the x axis.
        axis: Axis,
    },
    /// Busy GPUs over time, one line per policy (first seed, first sweep point).
    BusyGpus,
    /// One job's GPUs and batch size over time, one line per policy (first seed, first sweep
    /// point). Its runs record that job's allocations, so adding this plot reruns them.
    JobTimeline {
        /// The job's id (its index in the workload, as in `runs/*.json`).
        job: u32,
    },
    /// A per-run metric across experiments run separately (Pollux's four job loads are four
    /// experiments), one point per experiment (the mean over its runs), one line per policy of
    /// this spec. Another experiment's values come from its `runs.csv` in the results folder
    /// beside this one's; one without results yet is named in the plot's title.
    MetricVsExperiments {
        /// File name stem of the plot.
        name: String,
        /// The metric (a per-run one: a column of `runs.csv`).
        metric: Metric,
        /// Label of the x axis.
        x_label: String,
        /// The experiments (this one by its own name) and their x values.
        points: Vec<ExperimentPoint>,
    },
    /// A series a policy reports of its runs over time (Hadar's `log10_u_over_l`, say), one
    /// line per policy that reports it (first seed, first sweep point); the file is
    /// `policy_series_<series>`.
    PolicySeries {
        /// The series' name, as the policy reports it.
        series: String,
    },
}

/// One experiment's place on a [`PlotSpec::MetricVsExperiments`] plot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentPoint {
    /// The experiment's name (its folder in the results folder).
    pub experiment: String,
    /// Its x value.
    pub x: f64,
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
    pub metric: Metric,
    /// The policy whose value is the claim (exclusive with `ratio`).
    #[serde(default)]
    pub policy: Option<String>,
    /// `[a, b]`: the claim is metric(a) / metric(b).
    #[serde(default)]
    pub ratio: Option<[String; 2]>,
    /// A best case ("up to"): the smallest or largest metric(policy) / metric(b) over the listed
    /// policies b and over every value of each sweep axis `at` does not name.
    #[serde(default)]
    pub best_ratio: Option<BestRatioSpec>,
    /// Sweep point, e.g. `{rate_per_hour: 5.2}`; empty for the first point.
    #[serde(default)]
    pub at: BTreeMap<Axis, f64>,
    /// The published value.
    pub expected: f64,
    /// Allowed relative deviation (0.15 = 15%).
    pub tolerance: f64,
    /// Which way the claim goes: `within` the tolerance on both sides (the default), or
    /// one-sided, `at_least` or `at_most` the value with the tolerance on the losing side only.
    #[serde(default)]
    pub direction: Direction,
    /// Heuristic reference policies (oracle orders, say), each put in place of the policy under
    /// test and shown beside the verdict as the best known here; they never decide it.
    #[serde(default)]
    pub best_known: Vec<String>,
    /// A proof-backed bound on what any scheduler of a class can reach on the claim's
    /// workloads (`relaxation`); a missed claim whose bound is beyond its band on the same side
    /// is "unreachable here".
    #[serde(default)]
    pub bound: Option<BoundKind>,
    /// The old name of `best_known`, refused with a message that says what changed.
    #[serde(default, skip_serializing)]
    pub bounds: Option<Vec<String>>,
}

/// Which way a claim goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Reproduce the value: within `tolerance x |expected|` on either side.
    #[default]
    Within,
    /// At least the value ("at least 1.5x", "up to 20% more"): any value above it holds, the
    /// tolerance applies below it only.
    AtLeast,
    /// At most the value ("cuts JCT by up to 70%"): any value below it holds, the tolerance
    /// applies above it only.
    AtMost,
}

impl Direction {
    /// The direction as specs write it.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Within => "within",
            Direction::AtLeast => "at_least",
            Direction::AtMost => "at_most",
        }
    }
}

/// A proof-backed bound a claim may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundKind {
    /// The relaxations of `schedlab_bounds`: for average JCT the larger of the jobs' mean
    /// isolated run time and SRPT on the squashed single machine, and for queueing delay,
    /// makespan and utilisation their consequences (docs/claims.md has the proofs).
    Relaxation,
}

/// What a sample axis's workloads are to claims (see [`ExperimentSpec::population`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Population {
    /// A sample: each workload is a replicate.
    #[default]
    Drawn,
    /// The whole set a published value averages: each seed is a replicate.
    Fixed,
}

impl Population {
    /// Whether this is the default, [`Population::Drawn`] (not written back into specs).
    pub fn is_drawn(&self) -> bool {
        *self == Population::Drawn
    }
}

/// A claim's best case over several baselines and sweep points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BestRatioSpec {
    /// The policy the claim is about (the numerator).
    pub policy: String,
    /// The baselines (each a denominator).
    pub against: Vec<String>,
    /// Whether the best case is the smallest ratio (`min`: a cut in JCT) or the largest (`max`).
    pub best: Best,
}

/// Which end of a range is the best case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Best {
    /// The smallest value.
    Min,
    /// The largest value.
    Max,
}

impl ExperimentSpec {
    /// Parses a spec from YAML text; `origin` names it in errors. Only what serde checks is
    /// checked here (keys, types, policy names and parameters, metric and axis names, each at
    /// its line); resolution (`Experiment::resolve`) does the rest.
    pub fn parse(text: &str, origin: &str) -> Result<ExperimentSpec, ExperimentError> {
        let spec_error = |message: String| ExperimentError::Spec { path: origin.to_string(), message };
        let spec = parse_yaml(text).map_err(|(message, _)| spec_error(message))?;
        // A quoted number or boolean is text: where a number or boolean is expected it is refused,
        // as the README says of wrong types (serde-saphyr would read "8" as 8). The spec is read
        // again with each quoted look-alike tagged `!!str`, which typed fields refuse and text
        // fields take as before; a failure there names the quoted value.
        let look_alikes = quoted_look_alikes(text);
        if look_alikes.is_empty() {
            return Ok(spec);
        }
        let mut tagged = String::with_capacity(text.len() + 6 * look_alikes.len());
        let mut copied = 0;
        for quoted in &look_alikes {
            tagged.push_str(&text[copied..quoted.offset]);
            tagged.push_str(STR_TAG);
            copied = quoted.offset;
        }
        tagged.push_str(&text[copied..]);
        match parse_yaml(&tagged) {
            Ok(_) => Ok(spec),
            Err((message, line)) => Err(spec_error(quoted_value_message(&look_alikes, &message, line))),
        }
    }
}

/// The tag that marks a quoted look-alike as text in the second reading.
const STR_TAG: &str = "!!str ";

/// Reads a spec; an error comes with its message and its 1-based line, when it has one.
fn parse_yaml(text: &str) -> Result<ExperimentSpec, (String, Option<usize>)> {
    // YAML 1.2 booleans only: `yes`, `on` and the like are refused where a boolean is expected.
    let options = serde_saphyr::options! { strict_booleans: true };
    serde_saphyr::from_str_with_options(text, options).map_err(|error| {
        // The library's message starts with its own "error: "; the binary adds one already.
        let message = error.to_string();
        let line = error.location().and_then(|location| usize::try_from(location.line()).ok());
        (with_suggestion(message.strip_prefix("error: ").unwrap_or(&message)), line)
    })
}

/// Adds "did you mean" to serde's "unknown field `x`, expected one of ..." and "unknown
/// variant `x`, expected one of ..." when a known name is close to `x`.
fn with_suggestion(message: &str) -> String {
    for kind in ["unknown field `", "unknown variant `"] {
        let Some(start) = message.find(kind).map(|at| at + kind.len()) else { continue };
        let Some(length) = message[start..].find('`') else { continue };
        let given = &message[start..start + length];
        let rest = &message[start + length + 1..];
        let Some(list) = rest.strip_prefix(", expected one of ").or_else(|| rest.strip_prefix(", expected ")) else {
            continue;
        };
        let list = list.lines().next().unwrap_or("");
        let known = list.split(", ").map(|name| name.trim().trim_matches('`'));
        let hint = schedlab_core::suggest::did_you_mean(given, known);
        if hint.is_empty() {
            break;
        }
        let at = start + length + 1;
        return format!("{}{hint}{}", &message[..at], &message[at..]);
    }
    message.to_string()
}

/// A quoted scalar whose text reads as a number or a boolean.
#[derive(Debug)]
struct QuotedLookAlike {
    /// Byte offset of its opening quote.
    offset: usize,
    /// 1-based line and column of the opening quote.
    line: usize,
    column: usize,
    /// The text between the quotes.
    value: String,
}

/// Every untagged quoted scalar of `text` whose value parses as a number or is `true`/`false`.
fn quoted_look_alikes(text: &str) -> Vec<QuotedLookAlike> {
    use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle};
    let mut found = Vec::new();
    for event in Parser::new_from_str(text) {
        // Syntax errors were reported by the first reading.
        let Ok((Event::Scalar(value, style, _, tag), span)) = event else { continue };
        let quoted = matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted);
        let looks_typed = value.trim().parse::<f64>().is_ok() || ["true", "false"].contains(&value.trim());
        if let (true, true, None, Some(offset)) = (quoted, looks_typed, tag, span.start.byte_offset()) {
            let (line, column) = (span.start.line(), span.start.col() + 1);
            found.push(QuotedLookAlike { offset, line, column, value: value.to_string() });
        }
    }
    found.sort_by_key(|quoted| quoted.offset);
    found
}

/// The error for a quoted look-alike where a number or boolean is expected: the one on the
/// error's line, or, when that is not one alone, every one on the line (or in the spec).
fn quoted_value_message(look_alikes: &[QuotedLookAlike], message: &str, line: Option<usize>) -> String {
    let on_line: Vec<&QuotedLookAlike> = look_alikes.iter().filter(|quoted| Some(quoted.line) == line).collect();
    let quoted = match on_line.as_slice() {
        [one] => *one,
        _ => {
            let candidates: Vec<&QuotedLookAlike> =
                if on_line.is_empty() { look_alikes.iter().collect() } else { on_line };
            let values: Vec<String> =
                candidates.iter().map(|quoted| format!("line {}: \"{}\"", quoted.line, quoted.value)).collect();
            return format!(
                "a quoted number or boolean is text, but a number or boolean is expected ({}); write it \
                 without quotes ({message})",
                values.join(", ")
            );
        }
    };
    let what = if ["true", "false"].contains(&quoted.value.trim()) { "boolean" } else { "number" };
    format!(
        "line {} column {}: \"{}\" is quoted, so it is text, but a {what} is expected here: write {} without quotes",
        quoted.line,
        quoted.column,
        quoted.value,
        quoted.value.trim()
    )
}

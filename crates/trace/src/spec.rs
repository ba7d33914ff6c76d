//! The `workload:` block of an experiment spec: a trace or a generator, transforms, a model.

use crate::dl2::{CpuOnlyModels, Dl2Workload};
use crate::formats::TraceFormat;
use crate::formats::philly::PhillyRawOptions;
use crate::gavel_stream::GavelStream;
use crate::synthetic::{Arrivals, GavelStyle, PhillySampled};
use crate::transform::{Transform, apply_all};
use crate::workload::{BuildSummary, FractionalGpus, JobTypes, Model, Origin, build};
use crate::{Trace, TraceError};
use schedlab_core::{DataDir, JobSpec};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// A trace file to load; `path` is relative to the data directory unless absolute.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSource {
    /// The format's name, e.g. `philly-pollux`.
    pub format: TraceFormat,
    /// The file (for `alibaba-pai`, the job table; the task table is read from beside it).
    pub path: PathBuf,
    /// Choices for `philly-raw`.
    #[serde(default)]
    pub philly_raw: Option<PhillyRawOptions>,
}

impl TraceSource {
    /// Loads the trace, resolving a relative path against the data directory.
    pub fn load(&self, data: &DataDir) -> Result<Trace, TraceError> {
        let path = data.file(&self.path).map_err(|error| TraceError::io(&self.path, error))?;
        match (self.format, self.philly_raw) {
            (TraceFormat::PhillyRaw, Some(options)) => {
                let trace = crate::formats::philly::load_raw(&path, options)?;
                crate::formats::check_magnitudes(&trace)?;
                Ok(trace)
            }
            (_, Some(_)) => Err(TraceError::Config(format!("philly_raw options given for format {}", self.format))),
            (format, None) => format.load(&path),
        }
    }
}

/// A synthetic workload generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum GeneratorSpec {
    /// Gavel's continuous generator: Poisson arrivals.
    GavelContinuous {
        /// Number of jobs.
        jobs: usize,
        /// Mean arrivals per hour.
        rate_per_hour: f64,
        /// 1/2/4/8 GPUs (70/10/15/5%) instead of 1.
        #[serde(default)]
        multi_gpu: bool,
        /// 20% of jobs with priority weight 5.
        #[serde(default)]
        multi_priority: bool,
        /// Seed.
        #[serde(default)]
        seed: u64,
        /// Whose random streams: schedlab's (default) or `python`, Gavel's own draws.
        #[serde(default, skip_serializing_if = "GeneratorRng::is_schedlab")]
        rng: GeneratorRng,
    },
    /// Gavel's static generator: every job at t = 0.
    GavelStatic {
        /// Number of jobs.
        jobs: usize,
        /// 1/2/4/8 GPUs instead of 1.
        #[serde(default)]
        multi_gpu: bool,
        /// 20% of jobs with priority weight 5.
        #[serde(default)]
        multi_priority: bool,
        /// Seed.
        #[serde(default)]
        seed: u64,
        /// Whose random streams: schedlab's (default) or `python`, Gavel's own draws.
        #[serde(default, skip_serializing_if = "GeneratorRng::is_schedlab")]
        rng: GeneratorRng,
    },
    /// `(duration, GPUs)` pairs drawn from a distribution file, Poisson arrivals.
    PhillySampled {
        /// Number of jobs.
        jobs: usize,
        /// Mean arrivals per hour.
        rate_per_hour: f64,
        /// Seed.
        #[serde(default)]
        seed: u64,
        /// The distribution (default `philly/philly-gavel-distribution.csv`).
        #[serde(default = "default_distribution")]
        distribution: PathBuf,
    },
    /// DL2's workload (`trace.py`): Google-trace arrivals at slot boundaries, each job one of
    /// DL2's eight models drawn uniformly, with that model's epochs (pair with `perf: dl2`).
    Dl2 {
        /// Number of jobs (DL2: 200).
        #[serde(default = "default_dl2_jobs")]
        jobs: usize,
        /// The per-slot cap, which picks the Google pattern (DL2: 10).
        #[serde(default = "default_dl2_arrivals")]
        max_arrivals_per_slot: u32,
        /// Slot length in seconds (DL2: 1,200).
        #[serde(default = "default_dl2_slot")]
        slot: f64,
        /// DL2's `MAX_NUM_EPOCHS` (30,000); each model's epochs are a fixed fraction of it.
        #[serde(default = "default_dl2_max_epochs")]
        max_epochs: f64,
        /// CPUs of each worker and each parameter server (DL2: 2).
        #[serde(default = "default_dl2_task_cpus")]
        task_cpus: f64,
        /// The two models with CPU-only workers: `one-gpu` (default) or `leave-out`.
        #[serde(default)]
        cpu_only: CpuOnlyModels,
        /// Seed.
        #[serde(default)]
        seed: u64,
    },
}

/// Which random streams a Gavel generator draws from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GeneratorRng {
    /// schedlab's own (ChaCha8, one stream, seed derived per run).
    #[default]
    Schedlab,
    /// Gavel's own (CPython's `random.Random`, seeds `seed + 2` for jobs and `seed + 3` for
    /// arrivals, Gavel's job table): the jobs Gavel's simulator makes for the same `--seed`.
    /// Experiments pass the spec's seed itself, not a derived one.
    Python,
}

impl GeneratorRng {
    fn is_schedlab(&self) -> bool {
        *self == GeneratorRng::Schedlab
    }
}

/// The parameters the two Gavel generators share; `rate_per_hour` is `None` for the static one.
struct GavelParams {
    jobs: usize,
    rate_per_hour: Option<f64>,
    multi_gpu: bool,
    multi_priority: bool,
    seed: u64,
    rng: GeneratorRng,
}

impl GeneratorSpec {
    /// The parameters of `gavel-continuous` and `gavel-static`; `None` for other generators.
    fn gavel(&self) -> Option<GavelParams> {
        match *self {
            GeneratorSpec::GavelContinuous { jobs, rate_per_hour, multi_gpu, multi_priority, seed, rng } => {
                Some(GavelParams { jobs, rate_per_hour: Some(rate_per_hour), multi_gpu, multi_priority, seed, rng })
            }
            GeneratorSpec::GavelStatic { jobs, multi_gpu, multi_priority, seed, rng } => {
                Some(GavelParams { jobs, rate_per_hour: None, multi_gpu, multi_priority, seed, rng })
            }
            _ => None,
        }
    }

    /// A one-line description for reports: the `Debug` form, which leaves `rng` out when it is
    /// schedlab's (so reports written before the option existed read the same).
    pub fn describe(&self) -> String {
        let Some(gavel) = self.gavel() else { return format!("{self:?}") };
        let name = if gavel.rate_per_hour.is_some() { "GavelContinuous" } else { "GavelStatic" };
        let rate = gavel.rate_per_hour.map(|rate| format!(" rate_per_hour: {rate:?},")).unwrap_or_default();
        let rng = if gavel.rng.is_schedlab() { String::new() } else { format!(", rng: {:?}", gavel.rng) };
        format!(
            "{name} {{ jobs: {:?},{rate} multi_gpu: {:?}, multi_priority: {:?}, seed: {:?}{rng} }}",
            gavel.jobs, gavel.multi_gpu, gavel.multi_priority, gavel.seed
        )
    }
}

fn default_dl2_jobs() -> usize {
    200
}

fn default_dl2_arrivals() -> u32 {
    10
}

fn default_dl2_slot() -> f64 {
    1200.0
}

fn default_dl2_max_epochs() -> f64 {
    30000.0
}

fn default_dl2_task_cpus() -> f64 {
    2.0
}

fn default_distribution() -> PathBuf {
    PathBuf::from("philly/philly-gavel-distribution.csv")
}

/// Where jobs come from, how they are transformed, and how they get types and work.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkloadSpec {
    /// A trace to load (exclusive with `generator`).
    #[serde(default)]
    pub trace: Option<TraceSource>,
    /// A generator (exclusive with `trace`).
    #[serde(default)]
    pub generator: Option<GeneratorSpec>,
    /// Transforms applied to a loaded trace, in order.
    #[serde(default)]
    pub transforms: Vec<Transform>,
    /// How jobs get a type and work.
    #[serde(default)]
    pub model: Model,
    /// What to do with fractional GPU requests.
    #[serde(default)]
    pub fractional_gpus: FractionalGpus,
    /// Users declare each job's work at submission, with an estimation error; realistic
    /// policies see the declaration (`JobView::declared_work`). Absent: nothing is declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_work: Option<DeclaredWork>,
    /// Each job must run on the GPU type its trace records (Alibaba PAI's `gpu_type`); a job
    /// whose row names none may run anywhere. Off: the recorded type is ignored.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub required_gpu_type: bool,
    /// Where time 0 is: the first arrival (default), or the trace's own start (`trace_start`,
    /// for traces whose times count from an experiment's start, as Pollux's do).
    #[serde(default, skip_serializing_if = "is_first_arrival")]
    pub origin: Origin,
}

fn is_first_arrival(origin: &Origin) -> bool {
    *origin == Origin::FirstArrival
}

/// How users declare their jobs' work: `declared = work x (1 + e)`, `e` drawn uniformly from
/// `[-error, error]` per job with a seeded generator (experiments derive the seed per sweep
/// point and seed, as for the workload).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeclaredWork {
    /// The largest relative error, in `[0, 1)`; 0 declares the exact work.
    #[serde(default)]
    pub error: f64,
    /// Seed of the draws.
    #[serde(default)]
    pub seed: u64,
}

impl DeclaredWork {
    /// Sets every job's declared work.
    pub fn apply(&self, jobs: &mut [JobSpec]) -> Result<(), TraceError> {
        use rand::{Rng, SeedableRng};
        if !(self.error.is_finite() && (0.0..1.0).contains(&self.error)) {
            return Err(TraceError::Config(format!(
                "declared_work: error must be a fraction in [0, 1), got {}",
                self.error
            )));
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(self.seed);
        for job in jobs {
            let factor = if self.error > 0.0 { 1.0 + rng.random_range(-self.error..=self.error) } else { 1.0 };
            job.declared_work = Some(job.work * factor);
        }
        Ok(())
    }
}

/// A built workload and how it was made.
#[derive(Clone, Debug)]
pub struct Workload {
    /// Jobs sorted by arrival, ids `0..n`.
    pub jobs: Vec<JobSpec>,
    /// Human-readable lines: rows read, kept, dropped and why, each transform, model assignment.
    pub report: Vec<String>,
}

/// Loaded traces after their leading transforms, shared by the workloads of one experiment.
///
/// The workloads of a sweep usually read one trace and apply the same leading transforms
/// (`dedup`, `sort`, a `window`) before the ones a sweep point sets (`episode`, `scale_rate`).
/// Loading and deduplicating Philly's 82,247 rows again for each of `philly-rltune`'s 60
/// workloads took three quarters of that experiment's time. The cache keeps, per source and
/// leading transforms, the trace and its report lines; a workload then clones it and applies
/// the rest. Transforms are pure, so the workload is the one built without the cache. Errors
/// are not kept: the next workload tries again (and fails alike).
#[derive(Debug, Default)]
pub struct TraceCache {
    /// By a key naming the data folder, the source and the leading transforms. Each entry has
    /// its own lock, so one workload prepares it while the others that need it wait.
    entries: Mutex<HashMap<String, Arc<PreparedSlot>>>,
}

/// One cache entry: empty until a workload has prepared it.
type PreparedSlot = Mutex<Option<Arc<PreparedTrace>>>;

/// A trace after its leading transforms, with the report lines of loading and transforming it.
#[derive(Debug)]
struct PreparedTrace {
    trace: Trace,
    report: Vec<String>,
}

impl TraceCache {
    /// How many leading transforms are shared: those before the first that sweep points set.
    fn shared_prefix(transforms: &[Transform]) -> usize {
        transforms
            .iter()
            .position(|transform| matches!(transform, Transform::Episode(_) | Transform::ScaleRate(_)))
            .unwrap_or(transforms.len())
    }

    /// The trace of `source` after `transforms`, loaded and transformed once.
    fn prepared(
        &self,
        data: &DataDir,
        source: &TraceSource,
        transforms: &[Transform],
    ) -> Result<Arc<PreparedTrace>, TraceError> {
        let key = format!("{data:?} {source:?} {transforms:?}");
        let entry = {
            let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(entries.entry(key).or_default())
        };
        let mut slot = entry.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(prepared) = slot.as_ref() {
            return Ok(Arc::clone(prepared));
        }
        let mut trace = source.load(data)?;
        let mut report = vec![summary_line(&trace, &source.path)];
        for step in apply_all(&mut trace, transforms)? {
            report.push(format!("{}: {} -> {} jobs", step.transform, step.before, step.after));
        }
        let prepared = Arc::new(PreparedTrace { trace, report });
        *slot = Some(Arc::clone(&prepared));
        Ok(prepared)
    }
}

impl WorkloadSpec {
    /// Builds the workload. `types` come from the perf model (templates of its throughput table
    /// for `gavel-zoo`, work per application for `applications`); relative paths resolve
    /// against the data directory.
    pub fn build(&self, data: &DataDir, types: &JobTypes) -> Result<Workload, TraceError> {
        self.build_cached(data, types, &TraceCache::default())
    }

    /// As [`WorkloadSpec::build`], reusing a trace that `cache` holds after the same leading
    /// transforms (see [`TraceCache`]). The workload is the same as without the cache.
    pub fn build_cached(&self, data: &DataDir, types: &JobTypes, cache: &TraceCache) -> Result<Workload, TraceError> {
        let mut workload = self.build_jobs(data, types, cache)?;
        if workload.jobs.is_empty() {
            // Every metric of an empty run is undefined: say where the jobs went instead.
            return Err(TraceError::Config(format!(
                "the workload has no jobs to run ({})",
                workload.report.join("; ")
            )));
        }
        if self.required_gpu_type {
            let required = workload.jobs.iter().filter(|job| job.gpu_type.is_some()).count();
            workload
                .report
                .push(format!("required GPU type: {required} jobs must run on the type their trace records"));
        } else {
            workload.jobs.iter_mut().for_each(|job| job.gpu_type = None);
        }
        if let Some(declared) = &self.declared_work {
            declared.apply(&mut workload.jobs)?;
            workload.report.push(format!(
                "declared work: the true work x (1 + e), e uniform in [-{0}, {0}], seed {1}",
                declared.error, declared.seed
            ));
        }
        Ok(workload)
    }

    /// The jobs from the trace or generator, with types and work assigned.
    fn build_jobs(&self, data: &DataDir, types: &JobTypes, cache: &TraceCache) -> Result<Workload, TraceError> {
        let templates = &types.templates;
        let uses_templates = matches!(self.model, Model::GavelZoo { .. });
        if uses_templates && templates.is_empty() {
            return Err(TraceError::Config("model gavel-zoo needs job templates from a throughput table".into()));
        }
        let generator_templates = if uses_templates { templates.to_vec() } else { Vec::new() };
        match (&self.trace, &self.generator) {
            (Some(source), None) => {
                let shared = TraceCache::shared_prefix(&self.transforms);
                let prepared = cache.prepared(data, source, &self.transforms[..shared])?;
                let mut trace = prepared.trace.clone();
                let mut report = prepared.report.clone();
                for step in apply_all(&mut trace, &self.transforms[shared..])? {
                    report.push(format!("{}: {} -> {} jobs", step.transform, step.before, step.after));
                }
                let (jobs, summary) = build(&trace, &self.model, self.fractional_gpus, types, self.origin)?;
                report.push(build_line(&self.model, &summary));
                Ok(Workload { jobs, report })
            }
            (None, Some(generator)) => {
                if !self.transforms.is_empty() {
                    return Err(TraceError::Config("transforms apply to traces, not generators".into()));
                }
                if matches!(self.model, Model::PolluxBuckets { .. } | Model::FromTrace | Model::Applications) {
                    return Err(TraceError::Config("generators take model rigid or gavel-zoo".into()));
                }
                if matches!(generator, GeneratorSpec::Dl2 { .. }) && self.model != Model::Rigid {
                    return Err(TraceError::Config(
                        "generator dl2 gives each job its model and epochs; leave 'model' out".into(),
                    ));
                }
                let asked = match generator {
                    GeneratorSpec::GavelContinuous { jobs, .. }
                    | GeneratorSpec::GavelStatic { jobs, .. }
                    | GeneratorSpec::PhillySampled { jobs, .. }
                    | GeneratorSpec::Dl2 { jobs, .. } => *jobs,
                };
                if asked > crate::synthetic::MAX_JOBS {
                    return Err(TraceError::Config(format!(
                        "a generator of {asked} jobs is more than the {} schedlab generates (about 1 KB each in memory)",
                        crate::synthetic::MAX_JOBS
                    )));
                }
                let jobs = match generator {
                    GeneratorSpec::GavelContinuous { .. } | GeneratorSpec::GavelStatic { .. } => {
                        let gavel = generator.gavel().expect("a Gavel generator");
                        match gavel.rng {
                            GeneratorRng::Python => GavelStream {
                                jobs: gavel.jobs,
                                rate_per_hour: gavel.rate_per_hour,
                                multi_gpu: gavel.multi_gpu,
                                multi_priority: gavel.multi_priority,
                                seed: gavel.seed,
                                templates: generator_templates,
                            }
                            .generate(),
                            GeneratorRng::Schedlab => GavelStyle {
                                jobs: gavel.jobs,
                                arrivals: gavel
                                    .rate_per_hour
                                    .map_or(Arrivals::AllAtZero, |rate_per_hour| Arrivals::Poisson { rate_per_hour }),
                                multi_gpu: gavel.multi_gpu,
                                multi_priority: gavel.multi_priority,
                                seed: gavel.seed,
                                templates: generator_templates,
                            }
                            .generate(),
                        }
                        .map_err(|error| error.to_string())
                    }
                    GeneratorSpec::PhillySampled { jobs, rate_per_hour, seed, distribution } => {
                        let source = TraceSource {
                            format: TraceFormat::PhillyGavelDist,
                            path: distribution.clone(),
                            philly_raw: None,
                        };
                        let pairs = source
                            .load(data)?
                            .jobs
                            .iter()
                            .map(|job| (job.duration.unwrap_or(0.0), job.gpus as u32))
                            .collect();
                        PhillySampled {
                            jobs: *jobs,
                            rate_per_hour: *rate_per_hour,
                            seed: *seed,
                            distribution: pairs,
                            templates: generator_templates,
                        }
                        .generate()
                        .map_err(|error| error.to_string())
                    }
                    GeneratorSpec::Dl2 { jobs, max_arrivals_per_slot, slot, max_epochs, task_cpus, cpu_only, seed } => {
                        Dl2Workload {
                            jobs: *jobs,
                            max_arrivals_per_slot: *max_arrivals_per_slot,
                            slot: *slot,
                            max_epochs: *max_epochs,
                            task_cpus: *task_cpus,
                            cpu_only: *cpu_only,
                            seed: *seed,
                        }
                        .generate()
                    }
                }
                .map_err(TraceError::Config)?;
                // As for trace rows (formats::check_magnitudes): a very low rate, say, puts
                // arrivals beyond any time the engine can step to.
                let limit = crate::formats::MAX_SUBMIT_SECONDS;
                if let Some(job) = jobs.iter().find(|job| !(0.0..=limit).contains(&job.arrival.secs())) {
                    return Err(TraceError::Config(format!(
                        "generator: job {} would arrive at {:.3e} s, beyond the {limit:e} s (about 3,000 years) that \
                         schedlab simulates; give a higher rate_per_hour or fewer jobs",
                        job.id.0,
                        job.arrival.secs()
                    )));
                }
                let report = vec![format!("generated {} jobs ({})", jobs.len(), generator.describe())];
                Ok(Workload { jobs, report })
            }
            _ => Err(TraceError::Config("workload: give exactly one of 'trace' and 'generator'".into())),
        }
    }
}

/// One line describing a load summary, naming the file as `shown` (the spec's path, relative
/// to the data directory, so that reports do not depend on where the data was found).
pub fn summary_line(trace: &Trace, shown: &Path) -> String {
    let mut line =
        format!("{} {}: {} rows read, {} kept", trace.format, shown.display(), trace.summary.rows, trace.summary.kept);
    for (reason, count) in &trace.summary.dropped {
        line.push_str(&format!(", {count} left out: {reason}"));
    }
    for (correction, count) in &trace.summary.adjusted {
        line.push_str(&format!(", {count} kept where {correction}"));
    }
    line
}

fn build_line(model: &Model, summary: &BuildSummary) -> String {
    let mut line = format!("model {model:?}: {} jobs", summary.jobs);
    for (reason, count) in &summary.dropped {
        line.push_str(&format!(", {count} left out: {reason}"));
    }
    if summary.rounded_up > 0 {
        line.push_str(&format!(", {} fractional GPU requests rounded up", summary.rounded_up));
    }
    line
}

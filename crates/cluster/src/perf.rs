//! Ground-truth performance models: how fast a job progresses on an allocation.
//!
//! Only the engine calls these. Policies see throughputs only through what their paper says
//! they know (observed progress, or a table they are given separately).

use crate::ClusterFileError;
use rustc_hash::FxHashMap;
use schedlab_core::{BatchConfig, JobSpec};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Occurs when a perf model has no rate for a job on an allocation.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PerfError {
    /// Occurs when the model has no entry for this job type, GPU type and GPU count.
    #[error("{model}: no throughput for job type '{job_type}' on {gpus} x {gpu_type}{hint}")]
    Missing {
        /// The model's description.
        model: String,
        /// The job type.
        job_type: String,
        /// The GPU type.
        gpu_type: String,
        /// The GPU count.
        gpus: u32,
        /// Extra help, e.g. the scale factors the table does have.
        hint: String,
    },
    /// Occurs when the cluster has a GPU type the model knows nothing about.
    #[error("{model} has no GPU type '{gpu_type}', which the cluster has; its GPU types are {known}")]
    UnknownGpuType {
        /// The model's description.
        model: String,
        /// The cluster's GPU type.
        gpu_type: String,
        /// The model's GPU types, comma-separated.
        known: String,
    },
    /// Occurs when the measured throughput is zero: the job cannot run there (e.g. out of memory).
    #[error("{model}: job type '{job_type}' cannot run on {gpus} x {gpu_type} (measured throughput is 0)")]
    Unsupported {
        /// The model's description.
        model: String,
        /// The job type.
        job_type: String,
        /// The GPU type.
        gpu_type: String,
        /// The GPU count.
        gpus: u32,
    },
    /// Occurs when two jobs share GPUs but the model has no co-located rate for them.
    #[error("{model}: no co-located throughput for '{job_type}' sharing {gpus} x {gpu_type} with '{partner}'{hint}")]
    NoColocation {
        /// The model's description.
        model: String,
        /// The job type.
        job_type: String,
        /// The partner's job type.
        partner: String,
        /// The GPU type.
        gpu_type: String,
        /// The GPU count.
        gpus: u32,
        /// Why: not measured, measured as unable to share, or a model without pair rates.
        hint: String,
    },
    /// Occurs when a rigid job is given a different number of GPUs than it requested.
    #[error("{model}: job type '{job_type}' is rigid ({requested} GPUs) and cannot run on {allocated} GPUs")]
    Rigid {
        /// The model's description.
        model: String,
        /// The job type.
        job_type: String,
        /// GPUs requested.
        requested: u32,
        /// GPUs allocated.
        allocated: u32,
    },
}

/// A job's rate on an allocation from some progress on: constant until the job's progress
/// reaches `until` (steps), when the engine asks again; `None` means until the job finishes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateSegment {
    /// Steps per second; 0 means the job holds its GPUs without progressing.
    pub rate: f64,
    /// The progress (steps, more than the progress asked about) at which the rate may change.
    pub until: Option<f64>,
}

/// An allocation as a perf model sees it: GPU types instead of nodes, the batch configuration
/// and the number of parameter servers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement<'a> {
    /// `(GPU type, GPUs)` for each node of the allocation, in node order.
    pub parts: &'a [(&'a str, u32)],
    /// The batch configuration chosen by the policy; `None`: the job's own.
    pub batch: Option<BatchConfig>,
    /// Parameter servers, in total over nodes (0 for jobs without them).
    pub ps: u32,
}

impl<'a> Placement<'a> {
    /// Returns the placement of GPUs only: the job's own batch, no parameter servers.
    pub fn gpus(parts: &'a [(&'a str, u32)]) -> Placement<'a> {
        Placement { parts, batch: None, ps: 0 }
    }
}

/// The engine's ground truth: steps per second of a job on an allocation.
pub trait PerfModel: Send + Sync {
    /// Returns a short description for error messages, e.g. `throughput table 'x.json'`.
    fn describe(&self) -> String;

    /// Checks that the model can rate jobs on every GPU type of a cluster (`gpu_types`), before
    /// a run starts. The default accepts any type.
    fn check_cluster(&self, gpu_types: &[String]) -> Result<(), PerfError> {
        let _ = gpu_types;
        Ok(())
    }

    /// Returns steps per second of `job` on `gpus` GPUs all of type `gpu_type`.
    fn rate(&self, job: &JobSpec, gpu_type: &str, gpus: u32) -> Result<f64, PerfError>;

    /// Returns steps per second on an allocation given as `(gpu type, gpus)` parts.
    ///
    /// The default is the rate of the slowest part's type at the allocation's total size:
    /// synchronous data-parallel training waits for its slowest worker.
    fn allocation_rate(&self, job: &JobSpec, parts: &[(&str, u32)]) -> Result<f64, PerfError> {
        let total: u32 = parts.iter().map(|part| part.1).sum();
        let mut slowest = f64::INFINITY;
        for (index, (gpu_type, _)) in parts.iter().enumerate() {
            if parts[..index].iter().any(|(seen, _)| seen == gpu_type) {
                continue;
            }
            slowest = slowest.min(self.rate(job, gpu_type, total)?);
        }
        Ok(slowest)
    }

    /// Returns the rate of `job` on `placement` (GPUs by type, batch configuration, parameter
    /// servers) once it has made `progress` steps, and the progress at which that rate may
    /// change (piecewise-constant rates: statistical efficiency that changes with training,
    /// say). The default ignores the batch, the servers and the progress:
    /// [`PerfModel::allocation_rate`] of the parts, valid until the job finishes.
    fn segment(&self, job: &JobSpec, placement: &Placement<'_>, progress: f64) -> Result<RateSegment, PerfError> {
        let _ = progress;
        Ok(RateSegment { rate: self.allocation_rate(job, placement.parts)?, until: None })
    }

    /// Returns steps per second of `job` while it shares `gpus` GPUs of `gpu_type` with
    /// `partner` (space sharing). The default refuses: only models with measured pair rates
    /// (Gavel's throughput table) support it.
    fn colocated_rate(&self, job: &JobSpec, partner: &JobSpec, gpu_type: &str, gpus: u32) -> Result<f64, PerfError> {
        Err(PerfError::NoColocation {
            model: self.describe(),
            job_type: job.job_type.clone(),
            partner: partner.job_type.clone(),
            gpu_type: gpu_type.to_string(),
            gpus,
            hint: "; this model has no pair rates".to_string(),
        })
    }

    /// Lines naming where this model departs from "a perf model never invents a rate" (DL2's
    /// speeds extrapolated beyond the measured worker counts, say); experiments copy them into
    /// `manifest.json`. Default: none.
    fn exceptions(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Rigid trace jobs: work is the trace's duration in seconds on a reference GPU type, and a
/// job progresses at that type's speed factor (1.0 on the reference) on its requested GPUs.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceDuration {
    reference: String,
    speedups: BTreeMap<String, f64>,
    uniform: bool,
}

impl TraceDuration {
    /// Every GPU type runs jobs at the speed recorded in the trace.
    pub fn uniform() -> TraceDuration {
        TraceDuration { reference: "any".to_string(), speedups: BTreeMap::new(), uniform: true }
    }

    /// Durations are measured on `reference`; other types need [`TraceDuration::with_speedup`].
    pub fn with_reference(reference: impl Into<String>) -> TraceDuration {
        let reference = reference.into();
        let speedups = BTreeMap::from([(reference.clone(), 1.0)]);
        TraceDuration { reference, speedups, uniform: false }
    }

    /// Declares that `gpu_type` runs jobs `factor` times as fast as the reference.
    ///
    /// # Panics
    /// Panics unless `factor` is positive and finite.
    pub fn with_speedup(mut self, gpu_type: impl Into<String>, factor: f64) -> TraceDuration {
        assert!(factor.is_finite() && factor > 0.0, "speed factor must be positive, got {factor}");
        self.speedups.insert(gpu_type.into(), factor);
        self
    }
}

impl PerfModel for TraceDuration {
    fn describe(&self) -> String {
        if self.uniform {
            "trace durations (uniform speed)".to_string()
        } else {
            format!("trace durations (reference {})", self.reference)
        }
    }

    /// Every GPU type of the cluster needs a speed factor (the reference has 1), so that a
    /// cluster without the reference type and without factors for its own is refused before
    /// a run, not at its first start.
    fn check_cluster(&self, gpu_types: &[String]) -> Result<(), PerfError> {
        if self.uniform {
            return Ok(());
        }
        match gpu_types.iter().find(|gpu_type| !self.speedups.contains_key(*gpu_type)) {
            Some(gpu_type) => Err(PerfError::UnknownGpuType {
                model: self.describe(),
                gpu_type: gpu_type.clone(),
                known: format!(
                    "{} (give the others a speed factor relative to the reference: speedups: {{{gpu_type}: FACTOR}})",
                    self.speedups.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            }),
            None => Ok(()),
        }
    }

    fn rate(&self, job: &JobSpec, gpu_type: &str, gpus: u32) -> Result<f64, PerfError> {
        if gpus != job.gpus {
            return Err(PerfError::Rigid {
                model: self.describe(),
                job_type: job.job_type.clone(),
                requested: job.gpus,
                allocated: gpus,
            });
        }
        if self.uniform {
            return Ok(1.0);
        }
        self.speedups.get(gpu_type).copied().ok_or_else(|| PerfError::Missing {
            model: self.describe(),
            job_type: job.job_type.clone(),
            gpu_type: gpu_type.to_string(),
            gpus,
            hint: format!(
                "; speed factors are given for {}",
                self.speedups.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        })
    }
}

/// What [`ThroughputTable::load`] read and left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThroughputSummary {
    /// GPU (worker) types kept.
    pub worker_types: Vec<String>,
    /// Worker types present but left out (Gavel's `*_unconsolidated`, which Gavel ignores).
    pub skipped_worker_types: Vec<String>,
    /// `(job type, scale factor)` templates.
    pub templates: usize,
    /// Isolated rates that are zero: the template cannot run on that type.
    pub zero_isolated: usize,
    /// Co-located pair entries read.
    pub pairs: usize,
}

/// Gavel's measured throughputs (`simulation_throughputs.json`): steps per second of each
/// `(job type, scale factor)` template on each GPU type, alone and co-located with another.
/// The default is the empty table, which knows no template.
#[derive(Clone, Debug, Default)]
pub struct ThroughputTable {
    source: String,
    worker_types: Vec<String>,
    templates: Vec<(String, u32)>,
    /// Job type -> `(scale factor, template index)`; looked up with a borrowed `&str`, so the
    /// engine's rate lookups at every start allocate nothing. Only looked up, never iterated,
    /// so FxHash (about 10% of a saturated Gavel round went to SipHash here) changes no result.
    template_index: FxHashMap<String, Vec<(u32, usize)>>,
    /// `isolated[template][worker]`; 0.0 means measured as unable to run.
    isolated: Vec<Vec<f64>>,
    /// `(worker, template, other template) -> (own rate, other's rate)` when co-located.
    pairs: FxHashMap<(usize, usize, usize), (f64, f64)>,
    /// How a job whose workers sit on several GPU types progresses.
    mixed: MixedTypes,
}

/// How a job whose workers sit on GPUs of several types progresses (task-level heterogeneity,
/// as Hadar schedules it). The table measures a whole gang on one type only, so either rule is
/// a modelling choice; experiments pick one with `perf.throughputs.mixed_types`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MixedTypes {
    /// Synchronous SGD: every step waits for the slowest worker, so the gang runs at the
    /// slowest type's rate for its total size (W x the slowest per-worker rate).
    #[default]
    Bottleneck,
    /// Each worker contributes its own type's per-worker rate: a gang of W workers with `n_k`
    /// on type k runs at `sum_k (n_k / W) x rate(k, W)` (asynchronous or decoupled updates,
    /// Hadar's optimistic reading).
    Sum,
}

/// Parses Gavel's stringified Python tuple key `('ResNet-50 (batch size 64)', 2)`.
pub fn parse_template_key(key: &str) -> Option<(String, u32)> {
    let inner = key.trim().strip_prefix("('")?.strip_suffix(')')?;
    let split = inner.rfind("', ")?;
    let scale = inner[split + 3..].trim().parse().ok()?;
    Some((inner[..split].to_string(), scale))
}

impl ThroughputTable {
    /// Loads a Gavel throughput file. Zero isolated rates are kept as "cannot run there" and
    /// reported by [`PerfModel::rate`] as [`PerfError::Unsupported`]; negative, non-finite or
    /// malformed entries are errors naming the worker type and key.
    pub fn load(path: &Path) -> Result<(ThroughputTable, ThroughputSummary), ClusterFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| ClusterFileError::io(path, source))?;
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|source| ClusterFileError::Json {
            path: path.to_path_buf(),
            line: source.line(),
            message: source.to_string(),
        })?;
        Self::from_json(&json, &path.display().to_string())
    }

    /// Builds the table from parsed JSON; `source` names it in errors.
    pub fn from_json(
        json: &serde_json::Value,
        source: &str,
    ) -> Result<(ThroughputTable, ThroughputSummary), ClusterFileError> {
        let bad = |message: String| ClusterFileError::Format { path: source.into(), message };
        let top = json.as_object().ok_or_else(|| bad("expected a JSON object keyed by GPU type".into()))?;
        let mut summary = ThroughputSummary::default();
        let mut worker_types = Vec::new();
        for worker in top.keys() {
            if worker.ends_with("_unconsolidated") {
                summary.skipped_worker_types.push(worker.clone());
            } else {
                worker_types.push(worker.clone());
            }
        }
        let mut table = ThroughputTable {
            source: source.to_string(),
            worker_types: worker_types.clone(),
            templates: Vec::new(),
            template_index: FxHashMap::default(),
            isolated: Vec::new(),
            pairs: FxHashMap::default(),
            mixed: MixedTypes::Bottleneck,
        };
        // First pass: templates and isolated rates.
        for (worker_index, worker) in worker_types.iter().enumerate() {
            let entries =
                top[worker].as_object().ok_or_else(|| bad(format!("'{worker}': expected an object of templates")))?;
            for (key, value) in entries {
                let template = parse_template_key(key)
                    .ok_or_else(|| bad(format!("'{worker}': key {key:?} is not of the form \"('name', scale)\"")))?;
                let rate = value
                    .get("null")
                    .and_then(serde_json::Value::as_f64)
                    .ok_or_else(|| bad(format!("'{worker}' {key}: missing isolated rate (key \"null\")")))?;
                if !rate.is_finite() || rate < 0.0 {
                    return Err(bad(format!("'{worker}' {key}: isolated rate {rate} is not a non-negative number")));
                }
                if rate == 0.0 {
                    summary.zero_isolated += 1;
                }
                let index = table.intern(template, worker_types.len());
                table.isolated[index][worker_index] = rate;
            }
        }
        // Every template must be measured on every worker type: missing is not zero.
        for (index, template) in table.templates.iter().enumerate() {
            for (worker_index, worker) in worker_types.iter().enumerate() {
                if table.isolated[index][worker_index].is_nan() {
                    return Err(bad(format!(
                        "template ('{}', {}) has no entry for GPU type '{worker}'",
                        template.0, template.1
                    )));
                }
            }
        }
        // Second pass: co-located pairs.
        for (worker_index, worker) in worker_types.iter().enumerate() {
            for (key, value) in top[worker].as_object().expect("checked above") {
                let (name, scale) = parse_template_key(key).expect("checked above");
                let own = table.find(&name, scale).expect("interned above");
                for (other_key, rates) in value.as_object().into_iter().flatten() {
                    if other_key == "null" {
                        continue;
                    }
                    let other = parse_template_key(other_key)
                        .and_then(|(name, scale)| table.find(&name, scale))
                        .ok_or_else(|| bad(format!("'{worker}' {key}: unknown co-located template {other_key:?}")))?;
                    let pair = rates
                        .as_array()
                        .filter(|pair| pair.len() == 2)
                        .and_then(|pair| Some((pair[0].as_f64()?, pair[1].as_f64()?)))
                        .filter(|(a, b)| a.is_finite() && b.is_finite() && *a >= 0.0 && *b >= 0.0)
                        .ok_or_else(|| {
                            bad(format!("'{worker}' {key} with {other_key}: expected [own rate, other rate] >= 0"))
                        })?;
                    table.pairs.insert((worker_index, own, other), pair);
                    summary.pairs += 1;
                }
            }
        }
        summary.worker_types = worker_types;
        summary.templates = table.templates.len();
        Ok((table, summary))
    }

    fn intern(&mut self, template: (String, u32), n_workers: usize) -> usize {
        if let Some(index) = self.find(&template.0, template.1) {
            return index;
        }
        let index = self.templates.len();
        self.template_index.entry(template.0.clone()).or_default().push((template.1, index));
        self.templates.push(template);
        self.isolated.push(vec![f64::NAN; n_workers]);
        index
    }

    /// Returns the index of a template.
    fn find(&self, job_type: &str, scale: u32) -> Option<usize> {
        self.template_index.get(job_type)?.iter().find(|(known, _)| *known == scale).map(|(_, index)| *index)
    }

    /// Returns the GPU types in the table.
    pub fn worker_types(&self) -> &[String] {
        &self.worker_types
    }

    /// Returns every `(job type, scale factor)` template.
    pub fn templates(&self) -> &[(String, u32)] {
        &self.templates
    }

    /// Returns the table at `path` (relative to the data directory unless absolute), loaded
    /// once per environment and path: every run of a sweep and every policy shares it. Policies
    /// use this for their `throughputs=` parameter; an error names `policy`, the parameter and
    /// the file.
    pub fn shared(
        env: &schedlab_core::PolicyEnv,
        path: &str,
        policy: &str,
    ) -> Result<Arc<ThroughputTable>, schedlab_core::ParamError> {
        env.shared(path, |path| ThroughputTable::load(path).map(|(table, _)| table).map_err(|error| error.to_string()))
            .map_err(|message| schedlab_core::ParamError {
                policy: policy.to_string(),
                message: format!("parameter 'throughputs': {message}"),
            })
    }

    /// Returns the table with another rule for jobs spread over several GPU types.
    pub fn with_mixed_types(mut self, mixed: MixedTypes) -> ThroughputTable {
        self.mixed = mixed;
        self
    }

    /// Returns the rule for jobs spread over several GPU types.
    pub fn mixed_types(&self) -> MixedTypes {
        self.mixed
    }

    /// Returns the isolated rate of a template on a GPU type: `None` if absent, `Some(0.0)`
    /// if measured as unable to run.
    pub fn isolated(&self, job_type: &str, scale: u32, gpu_type: &str) -> Option<f64> {
        let template = self.find(job_type, scale)?;
        let worker = self.worker_types.iter().position(|known| known == gpu_type)?;
        Some(self.isolated[template][worker])
    }

    /// Returns a gang's isolated rate on each of `gpu_types` (0 where the table has no rate,
    /// measured it as unable to run, or `usable(index)` is false), or `None` when that leaves
    /// no type at all. Policies that plan from the table (Gavel, Hadar) build their rows here.
    pub fn isolated_row(
        &self,
        job_type: &str,
        gpus: u32,
        gpu_types: &[String],
        usable: impl Fn(usize) -> bool,
    ) -> Option<Vec<f64>> {
        let row: Vec<f64> = gpu_types
            .iter()
            .enumerate()
            .map(|(index, name)| if usable(index) { self.isolated(job_type, gpus, name).unwrap_or(0.0) } else { 0.0 })
            .collect();
        row.iter().any(|rate| *rate > 0.0).then_some(row)
    }

    /// Returns the rates `(own, other)` of two templates sharing a GPU of `gpu_type`; `None`
    /// if not measured, `Some((0.0, 0.0))` if they cannot share.
    pub fn colocated(&self, a: (&str, u32), b: (&str, u32), gpu_type: &str) -> Option<(f64, f64)> {
        let worker = self.worker_types.iter().position(|known| known == gpu_type)?;
        let a = self.find(a.0, a.1)?;
        let b = self.find(b.0, b.1)?;
        self.pairs.get(&(worker, a, b)).copied()
    }
}

impl PerfModel for ThroughputTable {
    fn describe(&self) -> String {
        format!("throughput table '{}'", self.source)
    }

    fn check_cluster(&self, gpu_types: &[String]) -> Result<(), PerfError> {
        match gpu_types.iter().find(|gpu_type| !self.worker_types.contains(gpu_type)) {
            Some(gpu_type) => Err(PerfError::UnknownGpuType {
                model: self.describe(),
                gpu_type: gpu_type.clone(),
                known: self.worker_types.join(", "),
            }),
            None => Ok(()),
        }
    }

    fn rate(&self, job: &JobSpec, gpu_type: &str, gpus: u32) -> Result<f64, PerfError> {
        match self.isolated(&job.job_type, gpus, gpu_type) {
            Some(rate) if rate > 0.0 => Ok(rate),
            Some(_) => Err(PerfError::Unsupported {
                model: self.describe(),
                job_type: job.job_type.clone(),
                gpu_type: gpu_type.to_string(),
                gpus,
            }),
            None => {
                let scales: Vec<String> = self
                    .templates
                    .iter()
                    .filter(|(name, _)| *name == job.job_type)
                    .map(|(_, scale)| scale.to_string())
                    .collect();
                let hint = if !self.worker_types.iter().any(|known| known == gpu_type) {
                    format!("; the table's GPU types are {}", self.worker_types.join(", "))
                } else if scales.is_empty() {
                    "; the table has no such job type".to_string()
                } else {
                    format!("; the table has scale factors {} for it", scales.join(", "))
                };
                Err(PerfError::Missing {
                    model: self.describe(),
                    job_type: job.job_type.clone(),
                    gpu_type: gpu_type.to_string(),
                    gpus,
                    hint,
                })
            }
        }
    }

    fn allocation_rate(&self, job: &JobSpec, parts: &[(&str, u32)]) -> Result<f64, PerfError> {
        let total: u32 = parts.iter().map(|part| part.1).sum();
        match self.mixed {
            MixedTypes::Bottleneck => {
                let mut slowest = f64::INFINITY;
                for &(gpu_type, _) in parts {
                    slowest = slowest.min(self.rate(job, gpu_type, total)?);
                }
                Ok(slowest)
            }
            MixedTypes::Sum => {
                let mut rate = 0.0;
                for &(gpu_type, gpus) in parts {
                    rate += f64::from(gpus) / f64::from(total) * self.rate(job, gpu_type, total)?;
                }
                Ok(rate)
            }
        }
    }

    fn colocated_rate(&self, job: &JobSpec, partner: &JobSpec, gpu_type: &str, gpus: u32) -> Result<f64, PerfError> {
        let missing = |hint: &str| PerfError::NoColocation {
            model: self.describe(),
            job_type: job.job_type.clone(),
            partner: partner.job_type.clone(),
            gpu_type: gpu_type.to_string(),
            gpus,
            hint: hint.to_string(),
        };
        match self.colocated((&job.job_type, gpus), (&partner.job_type, partner.gpus), gpu_type) {
            Some((own, _)) if own > 0.0 => Ok(own),
            Some(_) => Err(missing(" (measured as unable to share)")),
            None => Err(missing(" (not measured)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_core::{JobId, Time};

    fn table() -> ThroughputTable {
        let json = serde_json::json!({
            "v100": {
                "('A', 1)": {"null": 10.0, "('A', 1)": [6.0, 6.0], "('B', 2)": [0.0, 0.0]},
                "('B', 2)": {"null": 4.0}
            },
            "k80": {
                "('A', 1)": {"null": 2.0},
                "('B', 2)": {"null": 0.0}
            },
            "k80_unconsolidated": {"('A', 1)": {"null": 1.0}}
        });
        let (table, summary) = ThroughputTable::from_json(&json, "inline").unwrap();
        assert_eq!(summary.skipped_worker_types, vec!["k80_unconsolidated"]);
        assert_eq!(summary.zero_isolated, 1);
        assert_eq!(summary.pairs, 2);
        table
    }

    #[test]
    fn parses_gavel_keys() {
        assert_eq!(
            parse_template_key("('ResNet-50 (batch size 64)', 2)"),
            Some(("ResNet-50 (batch size 64)".into(), 2))
        );
        assert_eq!(parse_template_key("null"), None);
    }

    #[test]
    fn rates_come_from_the_table_and_mixed_allocations_run_at_the_slowest() {
        let table = table();
        let job = JobSpec::new(JobId(0), Time::ZERO, 1, "A", 100.0);
        assert_eq!(table.rate(&job, "v100", 1), Ok(10.0));
        assert_eq!(table.allocation_rate(&job, &[("v100", 1)]), Ok(10.0));
        let job_b = JobSpec::new(JobId(1), Time::ZERO, 2, "B", 100.0);
        let err = table.allocation_rate(&job_b, &[("v100", 1), ("k80", 1)]).unwrap_err();
        assert!(matches!(err, PerfError::Unsupported { .. }), "{err}");
        assert_eq!(table.colocated(("A", 1), ("A", 1), "v100"), Some((6.0, 6.0)));
        let job_a2 = JobSpec::new(JobId(2), Time::ZERO, 2, "A", 100.0);
        let err = table.rate(&job_a2, "v100", 2).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("no throughput for job type 'A' on 2 x v100; the table has scale factors 1 for it"),
            "{err}"
        );
    }

    #[test]
    fn mixed_types_run_at_the_bottleneck_or_at_the_sum_of_worker_rates() {
        // Type B at scale 2: 4 steps/s on 2 x v100; give k80 a rate by a second table.
        let json = serde_json::json!({
            "v100": {"('B', 2)": {"null": 4.0}},
            "k80": {"('B', 2)": {"null": 1.0}}
        });
        let (table, _) = ThroughputTable::from_json(&json, "inline").unwrap();
        let job = JobSpec::new(JobId(0), Time::ZERO, 2, "B", 100.0);
        let split = [("v100", 1), ("k80", 1)];
        // Bottleneck: the k80 worker paces the gang, 1 step/s.
        assert_eq!(table.allocation_rate(&job, &split), Ok(1.0));
        // Sum: each worker brings half its type's gang rate, 4/2 + 1/2 = 2.5 steps/s.
        let table = table.with_mixed_types(MixedTypes::Sum);
        assert_eq!(table.mixed_types(), MixedTypes::Sum);
        assert_eq!(table.allocation_rate(&job, &split), Ok(2.5));
        // One type: both rules give the measured gang rate.
        assert_eq!(table.allocation_rate(&job, &[("v100", 1), ("v100", 1)]), Ok(4.0));
    }

    #[test]
    fn missing_worker_entries_are_errors() {
        let json = serde_json::json!({"v100": {"('A', 1)": {"null": 1.0}}, "k80": {}});
        let err = ThroughputTable::from_json(&json, "inline").unwrap_err();
        assert!(err.to_string().contains("template ('A', 1) has no entry for GPU type 'k80'"), "{err}");
    }

    #[test]
    fn trace_duration_is_rigid_and_needs_speed_factors() {
        let model = TraceDuration::with_reference("v100").with_speedup("k80", 0.5);
        let job = JobSpec::new(JobId(0), Time::ZERO, 2, "rigid", 100.0);
        assert_eq!(model.rate(&job, "k80", 2), Ok(0.5));
        assert!(matches!(model.rate(&job, "k80", 1), Err(PerfError::Rigid { .. })));
        assert!(matches!(model.rate(&job, "p100", 2), Err(PerfError::Missing { .. })));
        assert_eq!(TraceDuration::uniform().rate(&job, "p100", 2), Ok(1.0));
        // A cluster type without a factor is refused before a run: a reference type the
        // cluster lacks (k80 here) with no factor for the cluster's own type (v100).
        let types = |names: &[&str]| names.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(model.check_cluster(&types(&["v100", "k80"])), Ok(()));
        let error = TraceDuration::with_reference("k80").check_cluster(&types(&["v100"])).unwrap_err().to_string();
        assert!(error.contains("has no GPU type 'v100'") && error.contains("speedups: {v100: FACTOR}"), "{error}");
        assert_eq!(TraceDuration::uniform().check_cluster(&types(&["v100"])), Ok(()));
    }
}

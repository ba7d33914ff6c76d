//! The engine's ground truth for Pollux's applications: a job's goodput on an allocation, as
//! the artifact's simulator computes it (`simulator/simulator.py`, `Job.step`), constant within
//! an epoch and changing at epoch boundaries.

use crate::application::{APPLICATIONS, Application, ProfileError};
use schedlab_cluster::{PerfError, PerfModel, Placement, RateSegment};
use schedlab_core::{BatchConfig, DataDir, JobSpec};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A job's per-GPU batch and accumulation, in the artifact's terms: `atomic_bsz` examples per
/// micro-batch and `accum_steps` extra micro-batches per update (0: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Examples per GPU per micro-batch.
    pub atomic_bsz: u32,
    /// Micro-batches accumulated before each update, beyond the first.
    pub accum_steps: u32,
}

impl Config {
    /// Returns the engine's [`BatchConfig`] (which counts every micro-batch).
    pub fn to_batch(self) -> BatchConfig {
        BatchConfig { local_batch: self.atomic_bsz, accumulation_steps: self.accum_steps + 1 }
    }

    /// Returns the configuration of an engine [`BatchConfig`].
    pub fn from_batch(batch: BatchConfig) -> Config {
        Config { atomic_bsz: batch.local_batch, accum_steps: batch.accumulation_steps.saturating_sub(1) }
    }

    /// Returns the total batch size on `replicas` GPUs.
    pub fn batch_size(self, replicas: u32) -> f64 {
        f64::from(replicas) * f64::from(self.atomic_bsz) * f64::from(self.accum_steps + 1)
    }
}

/// The configuration of a job that trains with total batch `batch_size` on `replicas` GPUs
/// (`Job.update_local_bsz` with a target batch size): the local batch split into as few
/// micro-batches as the per-GPU cap allows, at least two on one GPU above the initial batch
/// size, and capped so the total stays within the largest batch size.
pub fn config_for_batch(app: &Application, batch_size: u32, replicas: u32) -> Config {
    let eps = 1e-8;
    let local_bsz = (f64::from(batch_size) / f64::from(replicas) - eps).ceil();
    let mut accum_steps = ((local_bsz / f64::from(app.max_local_bsz) - eps).ceil() - 1.0).max(0.0) as u32;
    if replicas == 1 && batch_size > app.init_batch_size {
        accum_steps = accum_steps.max(1);
    }
    let atomic_bsz = (local_bsz / f64::from(accum_steps + 1) - eps).ceil() as u32;
    let count = replicas * (accum_steps + 1);
    let cap = (f64::from(app.max_batch_size) / f64::from(count)) as u32;
    Config { atomic_bsz: atomic_bsz.min(cap), accum_steps }
}

/// The configuration of a job that sets no batch size and has no fitted model yet: the initial
/// batch size, or the smallest local batch on every GPU if that is larger.
pub fn default_config(app: &Application, replicas: u32) -> Config {
    let batch_size = app.init_batch_size.max(app.min_local_bsz * replicas);
    config_for_batch(app, batch_size, replicas)
}

/// Returns the true goodput (progress per second) and step time of `app` during `epoch` on
/// `placement` (GPUs per node) with `config`: throughput from the measured step and sync times,
/// statistical efficiency from the measured gradient noise at that batch size and epoch.
pub fn true_goodput(
    app: &Application,
    placement: &[u32],
    config: Config,
    epoch: usize,
) -> Result<f64, crate::InterpError> {
    let replicas: u32 = placement.iter().sum();
    let batch_size = config.batch_size(replicas);
    let scale = batch_size / f64::from(app.init_batch_size);
    let [step_time, sync_time] = app.step_times(placement, f64::from(config.atomic_bsz))?;
    let accum_time = step_time - sync_time;
    let (grad_sqr, grad_var) = app.grad_stats(batch_size, epoch)?;
    let gain = (grad_var + grad_sqr) / (grad_var / scale + grad_sqr);
    let total_time = step_time + accum_time * f64::from(config.accum_steps);
    Ok(gain / total_time)
}

/// Pollux's applications as a [`PerfModel`]. A job's type names its application; its work is
/// the application's total progress ([`Application::total_progress`]); its rate on an
/// allocation is [`true_goodput`] with the policy's batch configuration, or the one its own
/// batch size implies ([`config_for_batch`]; [`default_config`] without one), and it changes
/// at every epoch boundary.
#[derive(Clone, Debug)]
pub struct PolluxPerf {
    dir: PathBuf,
    apps: BTreeMap<String, Arc<Application>>,
}

impl PolluxPerf {
    /// Loads every application of the artifact from `dir` (relative to the data directory).
    pub fn load(data: &DataDir, dir: &Path) -> Result<PolluxPerf, ProfileError> {
        let mut apps = BTreeMap::new();
        for settings in &APPLICATIONS {
            apps.insert(settings.name.to_string(), Arc::new(Application::load(data, dir, settings)?));
        }
        Ok(PolluxPerf { dir: dir.to_path_buf(), apps })
    }

    /// Returns an application by name.
    pub fn app(&self, name: &str) -> Option<&Arc<Application>> {
        self.apps.get(name)
    }

    /// Returns every application, by name.
    pub fn apps(&self) -> &BTreeMap<String, Arc<Application>> {
        &self.apps
    }

    fn unknown_app(&self, job: &JobSpec, gpus: u32) -> PerfError {
        PerfError::Missing {
            model: self.describe(),
            job_type: job.job_type.clone(),
            gpu_type: "any".into(),
            gpus,
            hint: format!("; the applications are {}", self.apps.keys().cloned().collect::<Vec<_>>().join(", ")),
        }
    }

    fn missing(&self, job: &JobSpec, gpus: u32, why: impl std::fmt::Display) -> PerfError {
        PerfError::Missing {
            model: self.describe(),
            job_type: job.job_type.clone(),
            gpu_type: "any".into(),
            gpus,
            hint: format!(": {why}"),
        }
    }

    /// The configuration a job runs with: the policy's, or its own batch size's.
    fn config(app: &Application, job: &JobSpec, batch: Option<BatchConfig>, replicas: u32) -> Config {
        match (batch, job.batch_size) {
            (Some(batch), _) => Config::from_batch(batch),
            (None, Some(batch_size)) => config_for_batch(app, batch_size, replicas),
            (None, None) => default_config(app, replicas),
        }
    }
}

/// Lays `gpus` GPUs out on 4-GPU nodes, as the artifact does for fixed-size estimates
/// (`placement = (4, 4, ..., rest)`).
pub fn packed(gpus: u32) -> Vec<u32> {
    let mut placement = Vec::new();
    let mut left = gpus;
    while left > 0 {
        placement.push(left.min(4));
        left -= left.min(4);
    }
    placement
}

impl PerfModel for PolluxPerf {
    fn describe(&self) -> String {
        format!("Pollux applications '{}'", self.dir.display())
    }

    /// The rate at the start of training on `gpus` GPUs packed onto 4-GPU nodes.
    fn rate(&self, job: &JobSpec, _: &str, gpus: u32) -> Result<f64, PerfError> {
        let app = self.apps.get(&job.job_type).ok_or_else(|| self.unknown_app(job, gpus))?;
        let placement = packed(gpus);
        let config = PolluxPerf::config(app, job, None, gpus);
        true_goodput(app, &placement, config, 0).map_err(|error| self.missing(job, gpus, error))
    }

    fn segment(&self, job: &JobSpec, placement: &Placement<'_>, progress: f64) -> Result<RateSegment, PerfError> {
        let gpus: Vec<u32> = placement.parts.iter().map(|part| part.1).collect();
        let replicas: u32 = gpus.iter().sum();
        let app = self.apps.get(&job.job_type).ok_or_else(|| self.unknown_app(job, replicas))?;
        let epoch = app.epoch_of(progress).min(app.max_epochs - 1);
        let config = PolluxPerf::config(app, job, placement.batch, replicas);
        if config.atomic_bsz == 0 {
            return Err(self.missing(job, replicas, "a local batch of 0"));
        }
        let rate = true_goodput(app, &gpus, config, epoch).map_err(|error| self.missing(job, replicas, error))?;
        let next = app.progress_at(epoch + 1);
        Ok(RateSegment { rate, until: (next < job.work).then_some(next) })
    }
}

//! Optimus with oracle knowledge, as the Pollux artifact runs it (`simulator/optimus.py`).

use crate::apps;
use crate::grid::Grid;
use crate::placement::{free_gpus, most_free};
use schedlab_core::{
    Allocation, Context, Decision, JobId, JobView, Knowledge, ParamError, ParamReader, Policy, PolicyEnv, PolicyError,
};
use schedlab_goodput::{Application, PolluxPerf, packed};
use std::sync::Arc;

/// What [`OptimusOracle::read`] reads.
#[derive(Clone, Debug)]
pub struct OptimusConfig {
    name: String,
    interval: f64,
    profiles: String,
}

/// Optimus+Oracle: every job gets one GPU while GPUs last (in arrival order), then GPUs go one
/// at a time to the job whose predicted time to completion drops most, `(T(r) - T(r + 1)) x
/// remaining iterations`, with true step times (`T`, from the applications' measurements on
/// packed 4-GPU nodes) and true remaining iterations: both oracle knowledge. A job is capped at
/// `batch size / smallest local batch` GPUs (ncf at 1); jobs keep their GPUs when their count
/// is unchanged, others are placed on the nodes with the most free GPUs. Each job trains with
/// its own batch size.
pub struct OptimusOracle {
    config: OptimusConfig,
    grid: Grid,
    apps: Arc<PolluxPerf>,
}

impl OptimusOracle {
    /// Reads `interval` (seconds between decisions, 60) and `profiles` (the applications'
    /// folder).
    pub fn read(reader: &mut ParamReader<'_>) -> Result<OptimusConfig, ParamError> {
        let interval = reader.positive_f64("interval", 60.0)?;
        let profiles = reader.folder("profiles", apps::PROFILES)?;
        Ok(OptimusConfig { name: reader.name(), interval, profiles })
    }

    /// Builds the policy, loading the applications through `env`.
    pub fn new(config: OptimusConfig, env: &PolicyEnv) -> Result<OptimusOracle, ParamError> {
        let apps = apps::shared(env, &config.profiles, &config.name)?;
        Ok(OptimusOracle { grid: Grid::new(config.interval), config, apps })
    }

    fn app(&self, job: &JobView) -> Result<&Application, PolicyError> {
        apps::of(&self.apps, job).map(Arc::as_ref)
    }

    fn target_batch(job: &JobView) -> Result<u32, PolicyError> {
        job.batch_size.ok_or_else(|| {
            PolicyError::Unsupported(format!("{} has no batch size; Optimus trains with the job's own", job.id))
        })
    }

    /// Seconds per step on `replicas` GPUs packed onto 4-GPU nodes (`predict_step_time`).
    fn step_time(app: &Application, target: u32, replicas: u32) -> Result<f64, PolicyError> {
        let eps = 1e-8;
        let placement = packed(replicas);
        let local = (f64::from(target) / f64::from(replicas) - eps).ceil();
        let mut accum = ((local / f64::from(app.max_local_bsz) - eps).ceil() - 1.0).max(0.0);
        if replicas == 1 {
            accum = accum.max(1.0);
        }
        let atomic = (local / (accum + 1.0) - eps).ceil();
        let count = f64::from(replicas) * (accum + 1.0);
        let atomic = atomic.min((f64::from(app.max_batch_size) / count).floor());
        let [step, sync] = app
            .step_times(&placement, atomic)
            .map_err(|error| PolicyError::Unsupported(format!("{} on {replicas} GPUs: {error}", app.name)))?;
        Ok(step + (step - sync) * accum)
    }
}

impl Policy for OptimusOracle {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn knowledge(&self) -> Knowledge {
        Knowledge::Oracle
    }

    fn is_elastic(&self) -> bool {
        true
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let next_tick = self.grid.next_tick(context);
        if !self.grid.decides(context) {
            return Ok(Decision { next_tick, ..Decision::none() });
        }
        let jobs: Vec<&JobView> = context.jobs.active().collect();
        let mut remaining = Vec::with_capacity(jobs.len());
        let mut max_replicas = Vec::with_capacity(jobs.len());
        for job in &jobs {
            let app = self.app(job)?;
            let target = Self::target_batch(job)?;
            let completion_epoch = app.max_epochs - 1;
            let epoch = app.epoch_of(job.progress(context.now));
            let left = if completion_epoch <= epoch {
                1.0
            } else {
                let at = |epoch| {
                    app.iteration(f64::from(target), epoch)
                        .map_err(|error| PolicyError::Unsupported(format!("{}: {error}", job.id)))
                };
                at(completion_epoch)? - at(epoch)?
            };
            remaining.push(left);
            max_replicas.push(if app.name == "ncf" { 1 } else { target / app.min_local_bsz });
        }
        let gain = |index: usize, replicas: u32, gpus_left: u32| -> Result<f64, PolicyError> {
            if replicas + 1 > max_replicas[index] || gpus_left < 1 {
                return Ok(0.0);
            }
            let job = jobs[index];
            let (app, target) = (self.app(job)?, Self::target_batch(job)?);
            Ok((Self::step_time(app, target, replicas)? - Self::step_time(app, target, replicas + 1)?)
                * remaining[index])
        };
        let mut gpus_left = context.cluster.spec().total_gpus();
        let mut replicas = vec![0u32; jobs.len()];
        let mut gains = vec![0.0f64; jobs.len()];
        for index in 0..jobs.len() {
            if gpus_left < 1 {
                continue;
            }
            replicas[index] = 1;
            gpus_left -= 1;
            gains[index] = gain(index, 1, gpus_left)?;
        }
        while gpus_left > 0 && gains.iter().any(|&gain| gain > 0.0) {
            // Python's max over a dict: the first of equal maxima.
            let best = (0..jobs.len()).fold(0, |best, index| if gains[index] > gains[best] { index } else { best });
            replicas[best] += 1;
            // As the artifact: the gain is recomputed before the GPU is counted off.
            gains[best] = gain(best, replicas[best], gpus_left)?;
            gpus_left -= 1;
        }
        // Keep allocations whose size is unchanged; place the rest, smallest first.
        let mut desired: Vec<(JobId, Allocation)> = Vec::new();
        let mut free = free_gpus(context.cluster);
        for (index, job) in jobs.iter().enumerate() {
            match &job.allocation {
                Some(allocation) if allocation.gpus() == replicas[index] => desired.push((job.id, allocation.clone())),
                Some(allocation) => allocation.parts.iter().for_each(|&(node, gpus)| free[node.index()] += gpus),
                None => {}
            }
        }
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by_key(|&index| replicas[index]);
        for index in order {
            let job = jobs[index];
            if replicas[index] == 0
                || job.allocation.as_ref().is_some_and(|allocation| allocation.gpus() == replicas[index])
            {
                continue;
            }
            let allocation = most_free(&mut free, replicas[index]).ok_or_else(|| {
                PolicyError::Infeasible(format!("{} got {} GPUs that are not free", job.id, replicas[index]))
            })?;
            desired.push((job.id, allocation));
        }
        Ok(Decision::reconcile(context.jobs.running_allocations(), desired, next_tick))
    }
}

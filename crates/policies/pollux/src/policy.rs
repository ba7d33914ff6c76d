//! Pollux (`simulator/pollux.py` with the job agents of `simulator/simulator.py`): each job's
//! agent fits a throughput model to what the job measured and picks its batch size at every
//! epoch boundary and step; every step the scheduler reallocates GPUs with a genetic algorithm
//! that maximises a fair power mean of speedups.

use crate::apps;
use crate::ga::{self, GaJob, GaSettings, Problem, Speedup};
use crate::grid::Grid;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schedlab_core::{
    Allocation, BatchConfig, Context, Decision, JobId, JobView, NodeId, ParamError, ParamReader, Policy, PolicyEnv,
    PolicyError, RunStart,
};
use schedlab_goodput::perf::{Config, config_for_batch, default_config};
use schedlab_goodput::{
    Application, GoodputFunction, GradParams, Measurement, PerfParams, PolluxPerf, SpeedupFunction, fit_perf_params,
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What [`Pollux::read`] reads.
#[derive(Clone, Debug)]
pub struct PolluxConfig {
    name: String,
    interval: f64,
    profiles: String,
    settings: GaSettings,
}

/// A job's agent: what it measured, the model fitted to it, and its batch configuration.
#[derive(Clone, Debug, Default)]
struct Agent {
    /// Measured configurations, in the order first seen.
    profile: Vec<Probe>,
    perf: Option<PerfParams>,
    grad: Option<GradParams>,
    config: Option<Config>,
    /// The speedup function of the last decision, kept with its memo while its inputs stay
    /// the same (results are identical either way; this saves recomputing them).
    speedup: Option<SpeedupFunction>,
}

/// One measured configuration: (nodes, replicas, micro-batch), step and sync times.
#[derive(Clone, Copy, Debug)]
struct Probe {
    key: (u32, u32, u32),
    step: f64,
    sync: f64,
}

/// Pollux, as its artifact simulates it.
pub struct Pollux {
    config: PolluxConfig,
    grid: Grid,
    apps: Arc<PolluxPerf>,
    agents: BTreeMap<JobId, Agent>,
    /// The previous decision's first front (jobs x nodes), with its jobs.
    previous: Option<(Vec<JobId>, Vec<Vec<u8>>)>,
    rng: ChaCha8Rng,
}

/// ncf's batch size is fixed in the artifact (`simulator.py`, `Cluster.__init__`).
const NCF_BATCH: u32 = 32768;

impl Pollux {
    /// Reads `interval` (seconds between decisions, 60), `profiles` (the applications' folder),
    /// and the search's `population` (100), `generations` (100), `restart_delay` (30 s in the
    /// restart penalty) and `power` (-1, the power mean's exponent).
    pub fn read(reader: &mut ParamReader<'_>) -> Result<PolluxConfig, ParamError> {
        let interval = reader.positive_f64("interval", 60.0)?;
        let profiles = reader.folder("profiles", apps::PROFILES)?;
        let population = reader.positive_f64("population", 100.0)? as usize;
        let generations = reader.positive_f64("generations", 100.0)? as usize;
        let restart_delay = reader.f64("restart_delay", 30.0)?;
        let power = -reader.positive_f64("fairness", 1.0)?;
        let settings =
            GaSettings { population: population.max(2), generations: generations.max(1), restart_delay, power };
        Ok(PolluxConfig { name: reader.name(), interval, profiles, settings })
    }

    /// Builds the policy, loading the applications through `env`.
    pub fn new(config: PolluxConfig, env: &PolicyEnv) -> Result<Pollux, ParamError> {
        let apps = apps::shared(env, &config.profiles, &config.name)?;
        Ok(Pollux {
            grid: Grid::new(config.interval),
            config,
            apps,
            agents: BTreeMap::new(),
            previous: None,
            rng: ChaCha8Rng::seed_from_u64(0),
        })
    }

    fn app(&self, job: &JobView) -> Result<Arc<Application>, PolicyError> {
        apps::of(&self.apps, job).cloned()
    }

    /// GPUs per node of an allocation, in node order.
    fn placement(allocation: &Allocation) -> Vec<u32> {
        allocation.parts.iter().map(|part| part.1).collect()
    }

    /// The agent's choice on `placement` (`Job.update_local_bsz`): ncf's fixed batch; the
    /// initial batch (or the smallest local batch on every GPU) before any fit; otherwise the
    /// fitted goodput's best, capped at the largest batch.
    fn choose(app: &Application, agent: &Agent, placement: &[u32]) -> Config {
        let replicas: u32 = placement.iter().sum();
        let nodes = placement.iter().filter(|&&gpus| gpus > 0).count() as u32;
        if app.name == "ncf" {
            config_for_batch(app, NCF_BATCH, replicas)
        } else if let (Some(perf), Some(grad)) = (agent.perf, agent.grad) {
            let model = GoodputFunction { perf, grad, init_batch_size: f64::from(app.init_batch_size) };
            let best = model.optimize(
                nodes,
                replicas,
                f64::from(app.max_batch_size),
                (f64::from(app.min_local_bsz), f64::from(app.max_local_bsz)),
                true,
            );
            // The artifact caps the micro-batch so the total stays within the largest batch
            // (config_for_batch caps its own).
            let count = replicas * (best.accum_steps + 1);
            Config { atomic_bsz: best.atomic_bsz.min(app.max_batch_size / count), accum_steps: best.accum_steps }
        } else {
            default_config(app, replicas)
        }
    }

    /// What the job's agent measures running `config` on `placement` in `epoch`
    /// (`Job.update_params`): its step and sync times, and the gradient statistics; a new
    /// configuration refits the throughput model.
    fn measure(
        app: &Application,
        agent: &mut Agent,
        placement: &[u32],
        config: Config,
        epoch: usize,
    ) -> Result<(), PolicyError> {
        let replicas: u32 = placement.iter().sum();
        let nodes = placement.iter().filter(|&&gpus| gpus > 0).count() as u32;
        let failed = |error: schedlab_goodput::InterpError| PolicyError::Unsupported(format!("{}: {error}", app.name));
        let batch_size = config.batch_size(replicas);
        let (sqr, var) = app.grad_stats(batch_size, epoch.min(app.max_epochs - 1)).map_err(failed)?;
        agent.grad = Some(GradParams { sqr, var });
        let key = (nodes, replicas, config.atomic_bsz);
        if agent.profile.iter().any(|probe| probe.key == key) {
            return Ok(());
        }
        let [step, sync] = app.step_times(placement, f64::from(config.atomic_bsz)).map_err(failed)?;
        agent.profile.push(Probe { key, step, sync });
        let data: Vec<Measurement> = agent
            .profile
            .iter()
            .map(|probe| Measurement {
                nodes: probe.key.0,
                replicas: probe.key.1,
                atomic_bsz: probe.key.2,
                accum_time: probe.step - probe.sync,
                step_time: probe.step,
            })
            .collect();
        agent.perf = Some(fit_perf_params(&data).map_err(|error| PolicyError::Solver(error.to_string()))?);
        Ok(())
    }

    /// The job's configuration as the engine runs it.
    fn batch(config: Config) -> Option<BatchConfig> {
        Some(config.to_batch())
    }
}

impl Policy for Pollux {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn is_elastic(&self) -> bool {
        true
    }

    fn begin_run(&mut self, run: &RunStart<'_>) -> Result<(), PolicyError> {
        self.rng = ChaCha8Rng::seed_from_u64(run.seed);
        self.agents.clear();
        self.previous = None;
        Ok(())
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let now = context.now;
        let next_tick = self.grid.next_tick(context);
        self.agents.retain(|id, _| context.jobs.get(*id).is_some());
        let mut reconfigure = Vec::new();
        // Epoch boundaries: the agent picks a batch with what it knows, then measures it.
        for &id in context.rate_changed {
            let Some(job) = context.jobs.get(id) else { continue };
            let Some(allocation) = &job.allocation else { continue };
            let app = self.app(job)?;
            let placement = Self::placement(allocation);
            let agent = self.agents.entry(id).or_default();
            let config = Self::choose(&app, agent, &placement);
            let epoch = app.epoch_of(job.progress(now));
            Self::measure(&app, agent, &placement, config, epoch)?;
            if agent.config != Some(config) {
                agent.config = Some(config);
                reconfigure.push((id, Self::batch(config)));
            }
        }
        if !self.grid.decides(context) || context.jobs.n_running() + context.jobs.n_queued() == 0 {
            return Ok(Decision { reconfigure, next_tick, ..Decision::none() });
        }
        // A step's end: running jobs' agents measure, then pick their batch again (the batch
        // changes above are subsumed: the decision below carries every job's configuration).
        for job in context.jobs.running() {
            let allocation = job.allocation.as_ref().expect("running");
            let app = self.app(job)?;
            let placement = Self::placement(allocation);
            let agent = self.agents.entry(job.id).or_default();
            let current = agent.config.unwrap_or_else(|| Self::choose(&app, agent, &placement));
            if job.productive_from() < now {
                Self::measure(&app, agent, &placement, current, app.epoch_of(job.progress(now)))?;
            }
            agent.config = Some(Self::choose(&app, agent, &placement));
        }
        // The optimisation: jobs by attained service, then arrival.
        let mut jobs: Vec<&JobView> = context.jobs.active().collect();
        jobs.sort_by(|a, b| {
            a.attained_service(now).total_cmp(&b.attained_service(now)).then(a.arrival.cmp(&b.arrival))
        });
        let spec = context.cluster.spec();
        let node_gpus: Vec<u32> = spec.nodes().iter().map(|node| node.gpus).collect();
        if let Some(node) = node_gpus.iter().position(|&gpus| gpus > u32::from(u8::MAX)) {
            return Err(PolicyError::Unsupported(format!(
                "pollux: node {node} has {} GPUs; the search holds each job's GPUs on a node in a byte (at most 255)",
                node_gpus[node]
            )));
        }
        let n_nodes = node_gpus.len();
        let total: u32 = node_gpus.iter().sum();
        let fair_replicas = (f64::from(total) / jobs.len() as f64).ceil();
        let fair_nodes = (n_nodes as f64 / f64::from(total)).ceil().max(1.0) as u32;
        let mut infos = Vec::with_capacity(jobs.len());
        let mut base = vec![0u8; jobs.len() * n_nodes];
        for (j, job) in jobs.iter().enumerate() {
            let app = self.app(job)?;
            let agent = self.agents.entry(job.id).or_default();
            let speedup = match (agent.perf, agent.grad) {
                (Some(perf), Some(grad)) => {
                    let model = GoodputFunction { perf, grad, init_batch_size: f64::from(app.init_batch_size) };
                    let max_batch_size = f64::from(app.max_batch_size);
                    let range = (f64::from(app.min_local_bsz), f64::from(app.max_local_bsz));
                    let fair = (fair_nodes, fair_replicas as u32);
                    let function = match agent.speedup.take() {
                        Some(known) if known.is_over(&model, max_batch_size, range, true, fair) => known,
                        _ => SpeedupFunction::over(model, max_batch_size, range, true, fair),
                    };
                    Speedup::Model(Box::new(function))
                }
                _ => Speedup::Linear { fair_replicas },
            };
            let profiled = agent.profile.iter().map(|probe| probe.key.1).max().unwrap_or(0);
            let max_replicas = if app.name == "ncf" {
                1
            } else {
                (2 * profiled).clamp(1, 64).min(app.max_batch_size / app.min_local_bsz)
            };
            infos.push(GaJob { speedup, max_replicas, age: now - job.arrival, restarts: job.restarts });
            if let Some(allocation) = &job.allocation {
                for &(node, gpus) in &allocation.parts {
                    base[j * n_nodes + node.index()] = gpus as u8;
                }
            }
        }
        // Start from the previous front, adapted to the current jobs.
        let ids: Vec<JobId> = jobs.iter().map(|job| job.id).collect();
        let initial: Vec<Vec<u8>> = match &self.previous {
            None => vec![base.clone()],
            Some((previous_ids, states)) => states
                .iter()
                .map(|state| {
                    let mut adapted = vec![0u8; ids.len() * n_nodes];
                    for (j, id) in ids.iter().enumerate() {
                        if let Some(k) = previous_ids.iter().position(|known| known == id) {
                            adapted[j * n_nodes..(j + 1) * n_nodes]
                                .copy_from_slice(&state[k * n_nodes..(k + 1) * n_nodes]);
                        }
                    }
                    adapted
                })
                .collect(),
        };
        let mut problem = Problem::new(infos, node_gpus, base, &self.config.settings);
        let front = ga::optimize(&mut problem, initial, &self.config.settings, &mut self.rng);
        for (job, info) in jobs.iter().zip(problem.into_jobs()) {
            if let Speedup::Model(function) = info.speedup {
                self.agents.entry(job.id).or_default().speedup = Some(*function);
            }
        }
        let best = front
            .iter()
            .enumerate()
            .fold(None, |best: Option<usize>, (index, (_, f))| match best {
                Some(known) if front[known].1[0] <= f[0] => Some(known),
                _ => Some(index),
            })
            .ok_or_else(|| PolicyError::Solver("the search returned no allocation".into()))?;
        let chosen = front[best].0.clone();
        self.previous = Some((ids.clone(), front.into_iter().map(|(state, _)| state).collect()));
        // The allocations, each with the batch its agent picks for it.
        let mut desired = Vec::new();
        for (j, job) in jobs.iter().enumerate() {
            let row = &chosen[j * n_nodes..(j + 1) * n_nodes];
            let parts: Vec<(NodeId, u32)> = row
                .iter()
                .enumerate()
                .filter(|(_, gpus)| **gpus > 0)
                .map(|(n, gpus)| (NodeId(n as u32), u32::from(*gpus)))
                .collect();
            if parts.is_empty() {
                continue;
            }
            let allocation = Allocation::new(parts);
            let app = self.app(job)?;
            let agent = self.agents.entry(job.id).or_default();
            let same_gpus = job.allocation.as_ref().is_some_and(|current| current.parts == allocation.parts);
            let config = if same_gpus {
                agent.config.expect("a running job has a configuration")
            } else {
                let config = Self::choose(&app, agent, &Self::placement(&allocation));
                agent.config = Some(config);
                config
            };
            desired.push((job.id, allocation.with_batch(Self::batch(config))));
        }
        // Jobs that keep their GPUs but change batch (at an epoch boundary or a step's end) are
        // reconfigured by reconcile, the others restarted.
        Ok(Decision::reconcile(context.jobs.running_allocations(), desired, next_tick))
    }
}

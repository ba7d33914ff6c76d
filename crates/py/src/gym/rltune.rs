//! RLTune's job-ordering environment (`schedlab.gym.RLTuneEnv`): an episode is a window of
//! consecutive jobs of a spec's workload run by RLTune's scheduling loop, whose choices come from
//! the caller.

use super::{EpisodeThread, error, float_bytes, mask_bytes};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use schedlab_cluster::PerfModel;
use schedlab_core::{ClusterSpec, JobSpec, PolicyError};
use schedlab_policies_rltune::network::QUEUE_SLOTS;
use schedlab_policies_rltune::observation::{Observation, PoolRules};
use schedlab_policies_rltune::{Chooser, Moment, Order, SlotChooser, rules_of};
use schedlab_rltune_env::{Environment, Objective, relative_reward};
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Arc, Mutex};

/// What the episode thread tells the environment.
#[derive(Debug)]
enum Message {
    /// The engine waits for a choice.
    Observe(Observation, Moment),
    /// The episode ended: its score on the objective, or why it failed.
    Done(Result<f64, String>),
}

/// The chooser the episode's RLTune loop asks: it hands the observation over and waits.
#[derive(Debug)]
struct ChannelChooser {
    observations: SyncSender<Message>,
    actions: Mutex<Receiver<Option<usize>>>,
}

impl SlotChooser for ChannelChooser {
    fn choose(&self, observation: &Observation, moment: Moment) -> Result<Option<usize>, PolicyError> {
        let closed = || PolicyError::Unsupported("the environment closed the episode".to_string());
        self.observations.send(Message::Observe(observation.clone(), moment)).map_err(|_| closed())?;
        self.actions.lock().map_err(|_| closed())?.recv().map_err(|_| closed())
    }
}

/// A [`Moment`] as Python gets it: clock (s), jobs queued, jobs running, free GPUs.
type MomentTuple = (f64, usize, usize, u32);

fn moment_tuple(moment: Moment) -> MomentTuple {
    (moment.clock_s, moment.queued, moment.running, moment.free_gpus)
}

/// What to do with an action that names an empty slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InvalidAction {
    /// Start the earliest waiting job (slot 0), FCFS's choice.
    Fcfs,
    /// Start nothing more at this instant (the authors' `skip_schedule`).
    Skip,
    /// Raise `ValueError`.
    Error,
}

/// The episode under way.
struct Running {
    thread: EpisodeThread<Message>,
    /// FCFS's score on the same window.
    base: f64,
    mask: Vec<bool>,
    start: usize,
}

/// Episodes of RLTune's environment on a spec's workload.
#[pyclass(module = "schedlab", name = "RlTuneEpisodes", unsendable)]
pub struct RlTuneEpisodes {
    cluster: Arc<ClusterSpec>,
    jobs: Arc<Vec<JobSpec>>,
    perf: Arc<dyn PerfModel>,
    rules: PoolRules,
    objective: Objective,
    window: usize,
    /// Episodes start at a job index in `0..=last_start`.
    last_start: usize,
    invalid: InvalidAction,
    relative: bool,
    running: Option<Running>,
    /// The last episode ended and no other was started.
    ended: bool,
}

#[pymethods]
impl RlTuneEpisodes {
    /// Reads the spec (its first run's workload, cluster and perf model). `env` names the
    /// authors' environment whose rules apply (`philly`, `helios`, `alibaba`) unless the spec's
    /// first policy is `rltune-fcfs[...]`, whose parameters give them.
    #[new]
    #[pyo3(signature = (text, path, objective = "bsld", window = 256, max_start = None, invalid_action = "fcfs", relative = true, env = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        text: Option<String>,
        path: Option<String>,
        objective: &str,
        window: usize,
        max_start: Option<usize>,
        invalid_action: &str,
        relative: bool,
        env: Option<String>,
    ) -> PyResult<RlTuneEpisodes> {
        let objective =
            Objective::parse(objective).map_err(|message| PyValueError::new_err(format!("objective: {message}")))?;
        let invalid = match invalid_action {
            "fcfs" => InvalidAction::Fcfs,
            "skip" => InvalidAction::Skip,
            "error" => InvalidAction::Error,
            other => {
                return Err(PyValueError::new_err(format!(
                    "invalid_action '{other}': expected 'fcfs', 'skip' or 'error'"
                )));
            }
        };
        if window == 0 {
            return Err(PyValueError::new_err("window: expected at least one job"));
        }
        py.detach(move || {
            let experiment = crate::load(text, path).map_err(error)?;
            let plan = experiment.runs().into_iter().next().ok_or_else(|| error("the spec has no runs"))?;
            let rules = match env.as_deref() {
                Some(name @ ("philly" | "helios" | "alibaba")) => PoolRules::for_env(name),
                Some(other) => {
                    return Err(PyValueError::new_err(format!(
                        "env '{other}': expected 'philly', 'helios' or 'alibaba'"
                    )));
                }
                None if plan.policy.0.name == "rltune-fcfs" => rules_of(&plan.policy.0).map_err(error)?,
                None => PoolRules::for_env("philly"),
            };
            let workload = experiment.setup.workload(&experiment.inputs.workload, &plan).map_err(error)?;
            let jobs = workload.jobs;
            if jobs.len() < window {
                return Err(error(format!(
                    "window: episodes of {window} jobs need at least that many; the spec's workload has {}",
                    jobs.len()
                )));
            }
            let latest = jobs.len() - window;
            let last_start = match max_start {
                Some(start) if start > latest => {
                    return Err(PyValueError::new_err(format!(
                        "max_start {start}: an episode of {window} jobs starts at job {latest} at the latest"
                    )));
                }
                Some(start) => start,
                // As the trainer: whole windows below its slice; the held-out part only when
                // asked for.
                None => latest.min(schedlab_rltune_env::TRAINING_JOBS.saturating_sub(window)),
            };
            Ok(RlTuneEpisodes {
                cluster: experiment.setup.cluster.clone(),
                jobs: Arc::new(jobs),
                perf: experiment.setup.perf.clone(),
                rules,
                objective,
                window,
                last_start,
                invalid,
                relative,
                running: None,
                ended: false,
            })
        })
    }

    /// The last job index an episode may start at.
    #[getter]
    fn last_start(&self) -> usize {
        self.last_start
    }

    /// Jobs in the spec's workload.
    #[getter]
    fn jobs(&self) -> usize {
        self.jobs.len()
    }

    /// Starts an episode at job `start` with `seed` (the run's seed): runs FCFS on the window for
    /// the reward's baseline, then RLTune's loop up to its first choice. Returns the observation
    /// (little-endian float32 bytes, 128 x 7), the mask (one byte per slot), FCFS's score and
    /// the moment (clock in seconds, jobs queued, jobs running, free GPUs).
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        start: usize,
        seed: u64,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, f64, MomentTuple)> {
        if start > self.last_start {
            return Err(PyValueError::new_err(format!(
                "start {start}: episodes start at job {} at the latest",
                self.last_start
            )));
        }
        self.running = None;
        self.ended = false;
        let (cluster, jobs, perf, rules, objective, window) =
            (self.cluster.clone(), self.jobs.clone(), self.perf.clone(), self.rules, self.objective, self.window);
        let base = py.detach(|| {
            let environment = Environment { cluster: cluster.clone(), jobs: &jobs, perf: perf.as_ref() };
            environment.run(Chooser::Order(Order::Fcfs), rules, objective, (start, window), seed).map_err(error)
        })?;
        let mut thread = EpisodeThread::spawn(format!("schedlab-rltune-{start}"), move |messages, actions| {
            let chooser = ChannelChooser { observations: messages.clone(), actions: Mutex::new(actions) };
            let environment = Environment { cluster, jobs: &jobs, perf: perf.as_ref() };
            let result = environment.run(Chooser::External(Arc::new(chooser)), rules, objective, (start, window), seed);
            // Nobody listens any more when the episode was abandoned.
            let _ = messages.send(Message::Done(result.map(|(score, _)| score)));
        })?;
        let first = thread.receive(py)?;
        let mut running = Running { thread, base: base.0, mask: Vec::new(), start };
        match first {
            Message::Observe(observation, moment) => {
                let bytes = (
                    float_bytes(py, &observation.features),
                    mask_bytes(py, &observation.mask),
                    running.base,
                    moment_tuple(moment),
                );
                running.mask = observation.mask;
                self.running = Some(running);
                Ok(bytes)
            }
            Message::Done(Ok(_)) => Err(error(format!(
                "the window of jobs {start}..{} asks for no choice (every job started as it arrived); \
                 choose another start",
                start + self.window
            ))),
            Message::Done(Err(message)) => Err(error(message)),
        }
    }

    /// Takes `action` (a slot) and runs the engine to the next choice or the episode's end.
    /// Returns the observation and mask (None at the end), the reward (0 until the end), whether
    /// the episode ended, the episode's score then (None before), and the moment of the next
    /// choice (None at the end).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<(Option<Bound<'py, PyBytes>>, Option<Bound<'py, PyBytes>>, f64, bool, Option<f64>, Option<MomentTuple>)>
    {
        let (invalid, relative) = (self.invalid, self.relative);
        let ended = self.ended;
        let running = self.running.as_mut().ok_or_else(|| super::no_episode(ended))?;
        let occupied = usize::try_from(action).ok().filter(|&slot| slot < QUEUE_SLOTS && running.mask[slot]);
        let choice = match (occupied, invalid) {
            (Some(slot), _) => Some(slot),
            (None, InvalidAction::Fcfs) => Some(0),
            (None, InvalidAction::Skip) => None,
            (None, InvalidAction::Error) => {
                return Err(PyValueError::new_err(format!(
                    "action {action}: slot {action} holds no job (occupied slots: 0 to {})",
                    running.mask.iter().filter(|&&occupied| occupied).count().saturating_sub(1)
                )));
            }
        };
        match running.thread.act(py, choice)? {
            Message::Observe(observation, moment) => {
                let features = float_bytes(py, &observation.features);
                let mask = mask_bytes(py, &observation.mask);
                running.mask = observation.mask;
                Ok((Some(features), Some(mask), 0.0, false, None, Some(moment_tuple(moment))))
            }
            Message::Done(result) => {
                let base = running.base;
                let start = running.start;
                self.running = None;
                self.ended = true;
                let score = result.map_err(|message| error(format!("episode at job {start}: {message}")))?;
                let reward = if relative { relative_reward(base, score) } else { -score };
                Ok((None, None, reward, true, Some(score), None))
            }
        }
    }
}

//! DL2's slot-wise allocation environment (`schedlab.gym.DL2Env`): an episode is a run of a
//! spec's workload, drawn anew per episode, through DL2's slot loop (`crates/policies/dl2`).
//! At every slot boundary each job first gets one bundle (a worker and a server); then, until
//! the caller skips or a task does not fit, each action adds a worker, a server or a bundle to
//! one of the first 40 jobs that may grow.

use super::{EpisodeThread, error, float_bytes, mask_bytes};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use schedlab_experiment::Experiment;
use schedlab_experiment::plan::RunPlan;
use schedlab_policies_dl2::observation::{ACTIONS, Observation, SKIP};
use schedlab_policies_dl2::slot::Slot;
use schedlab_policies_dl2::{Chooser, Dl2, Learner, SlotConfig};
use schedlab_sim::SimConfig;
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Arc, Mutex};

/// What the episode thread tells the environment.
enum Message {
    /// A choice is due: the state, the allowed actions, and the slot rewards that ended since the
    /// last choice.
    Observe { state: Vec<f32>, mask: Vec<bool>, reward: f64, moment: SlotMoment },
    /// The run ended: its average JCT in hours and the rewards not yet handed over, or why it
    /// failed.
    Done(Result<(f64, f64), String>),
}

/// Where the run stands at a choice, for `info`: the slot's index, the clock at its start (s), the
/// uncompleted jobs, and the workers and parameter servers placed so far in the slot.
type SlotMoment = (u64, f64, usize, usize, usize);

fn slot_moment(slot: &Slot) -> SlotMoment {
    let workers = slot.jobs.iter().map(|job| job.worker_nodes.len()).sum();
    let servers = slot.jobs.iter().map(|job| job.ps_nodes.len()).sum();
    let clock = slot.index as f64 * SlotConfig::default().slot_seconds;
    (slot.index, clock, slot.jobs.len(), workers, servers)
}

/// DL2's learner side of a slot, answered by the environment's caller.
struct ChannelLearner {
    messages: SyncSender<Message>,
    actions: Receiver<Option<usize>>,
    /// Slot rewards since the last observation (shared with the episode's thread, which hands
    /// over the last ones when the run ends).
    pending: Arc<Mutex<f64>>,
    /// The environment went away: skip every slot from now on, so the run ends on its own.
    closed: bool,
}

impl Learner for ChannelLearner {
    fn choose(&mut self, slot: &Slot, observation: &Observation, mask: &[bool; ACTIONS]) -> Option<usize> {
        if self.closed {
            return None;
        }
        let reward = std::mem::take(&mut *self.pending.lock().expect("no panic holds it"));
        let moment = slot_moment(slot);
        let message = Message::Observe { state: observation.state.clone(), mask: mask.to_vec(), reward, moment };
        match self.messages.send(message).ok().and_then(|()| self.actions.recv().ok()) {
            Some(action) => action,
            None => {
                self.closed = true;
                None
            }
        }
    }

    fn placed(&mut self, _slot: &Slot, _placed: bool) {}

    fn slot_ended(&mut self, reward: f64, _progress: &[(schedlab_core::JobId, f64)]) {
        *self.pending.lock().expect("no panic holds it") += reward;
    }
}

/// Episodes of DL2's environment on a spec's workload.
#[pyclass(module = "schedlab", name = "Dl2Episodes", unsendable)]
pub struct Dl2Episodes {
    experiment: Experiment,
    plan: RunPlan,
    skip_invalid: bool,
    running: Option<(EpisodeThread<Message>, Vec<bool>)>,
    /// The last episode ended and no other was started.
    ended: bool,
}

#[pymethods]
impl Dl2Episodes {
    /// Reads the spec: its first run's workload (a generator draws a new one per episode),
    /// cluster, perf model and engine settings. `invalid_action` is `skip` (an action that is
    /// not allowed ends the slot) or `error`.
    #[new]
    #[pyo3(signature = (text, path, invalid_action = "skip"))]
    fn new(text: Option<String>, path: Option<String>, invalid_action: &str) -> PyResult<Dl2Episodes> {
        let skip_invalid = match invalid_action {
            "skip" => true,
            "error" => false,
            other => {
                return Err(PyValueError::new_err(format!("invalid_action '{other}': expected 'skip' or 'error'")));
            }
        };
        let experiment = crate::load(text, path).map_err(error)?;
        let plan = experiment.runs().into_iter().next().ok_or_else(|| error("the spec has no runs"))?;
        Ok(Dl2Episodes { experiment, plan, skip_invalid, running: None, ended: false })
    }

    /// Starts an episode: draws the workload with `workload_seed` and runs DL2's slot loop up to
    /// its first choice with `seed`. Returns the state (little-endian float32 bytes, 6 x 40 rows
    /// by feature), the mask of allowed actions (121 bytes) and the moment (slot, clock in
    /// seconds, uncompleted jobs, workers and servers placed in the slot so far).
    #[allow(clippy::type_complexity)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        workload_seed: u64,
        seed: u64,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, SlotMoment)> {
        self.running = None;
        self.ended = false;
        let plan = RunPlan { workload_seed, ..self.plan.clone() };
        let workload = self.experiment.setup.workload(&self.experiment.inputs.workload, &plan).map_err(error)?;
        let jobs = workload.jobs;
        let cluster = self.experiment.setup.cluster.clone();
        let perf = self.experiment.setup.perf.clone();
        let sim = &self.experiment.inputs.sim;
        let config = SimConfig {
            seed,
            restart_overhead: sim.restart_overhead,
            overhead_on_first_start: sim.overhead_on_first_start,
            ..SimConfig::default()
        };
        let mut thread = EpisodeThread::spawn(format!("schedlab-dl2-{workload_seed}"), move |messages, actions| {
            let pending = Arc::new(Mutex::new(0.0));
            let learner =
                ChannelLearner { messages: messages.clone(), actions, pending: Arc::clone(&pending), closed: false };
            let mut policy = Dl2::new("gym".to_string(), Chooser::Learner(Box::new(learner)), SlotConfig::default());
            let result = schedlab_sim::run(cluster, &jobs, perf.as_ref(), &mut policy, &config)
                .map(|result| result.metrics.avg_jct / 3600.0)
                .map_err(|error| error.to_string());
            let left = *pending.lock().expect("no panic holds it");
            let _ = messages.send(Message::Done(result.map(|jct| (jct, left))));
        })?;
        match thread.receive(py)? {
            Message::Observe { state, mask, moment, .. } => {
                let answer = (float_bytes(py, &state), mask_bytes(py, &mask), moment);
                self.running = Some((thread, mask));
                Ok(answer)
            }
            Message::Done(Ok(_)) => {
                Err(error("the episode asked for no choice (no job could grow beyond its first bundle)"))
            }
            Message::Done(Err(message)) => Err(error(message)),
        }
    }

    /// Takes `action` (a worker, server or bundle for a window column, or skip: 120) and runs to
    /// the next choice or the end. Returns the state and mask (None at the end), the reward (DL2's
    /// slot rewards that ended since the last choice), whether the run ended, its average JCT
    /// in hours then (None before), and the moment of the next choice (None at the end).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<(Option<Bound<'py, PyBytes>>, Option<Bound<'py, PyBytes>>, f64, bool, Option<f64>, Option<SlotMoment>)>
    {
        let skip_invalid = self.skip_invalid;
        let ended = self.ended;
        let (thread, mask) = self.running.as_mut().ok_or_else(|| super::no_episode(ended))?;
        let allowed = usize::try_from(action).ok().filter(|&action| action < ACTIONS && mask[action]);
        let choice = match (allowed, skip_invalid) {
            (Some(action), _) => action,
            (None, true) => SKIP,
            (None, false) => {
                return Err(PyValueError::new_err(format!(
                    "action {action}: not allowed now (allowed: {:?})",
                    mask.iter()
                        .enumerate()
                        .filter(|(_, allowed)| **allowed)
                        .map(|(action, _)| action)
                        .collect::<Vec<_>>()
                )));
            }
        };
        match thread.act(py, Some(choice))? {
            Message::Observe { state, mask: next, reward, moment } => {
                let answer =
                    (Some(float_bytes(py, &state)), Some(mask_bytes(py, &next)), reward, false, None, Some(moment));
                *mask = next;
                Ok(answer)
            }
            Message::Done(result) => {
                self.running = None;
                self.ended = true;
                let (jct, reward) = result.map_err(error)?;
                Ok((None, None, reward, true, Some(jct), None))
            }
        }
    }
}

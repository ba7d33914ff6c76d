//! [`Dl2`]: DL2's slot loop as a schedlab policy, shared by the learned policy and the
//! heuristics. At every slot boundary (`slot` seconds; DL2's `TS_DURATION`) every allocation
//! is rebuilt from an empty cluster; between boundaries nothing changes (a job that finishes
//! mid-slot leaves its resources idle until the next one, as in DL2's simulator).

use crate::heuristics::{Heuristic, Recorder};
use crate::network::PolicyNetwork;
use crate::observation::{ACTIONS, Observation, SKIP, decode};
use crate::slot::{Slot, SlotCluster, SlotJob};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_core::{
    Allocation, Context, Decision, JobId, JobView, Knowledge, NodeId, Policy, PolicyError, RunStart, Time,
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The learned policy's side of a slot during training: it picks each action and hears how it
/// went (`rl_env.py`'s `step` in training mode, with the trainer's exploration).
pub trait Learner: Send {
    /// Picks an action for `observation` among those `mask` allows; `None` ends the slot (DL2:
    /// every action has probability 0).
    /// `slot` is the slot the observation was taken of.
    fn choose(&mut self, slot: &Slot, observation: &Observation, mask: &[bool; ACTIONS]) -> Option<usize>;
    /// Whether the last chosen task fitted on the least-loaded node (if not, the slot ends and
    /// DL2 does not keep the sample); `slot` is the slot after it.
    fn placed(&mut self, slot: &Slot, placed: bool);
    /// The slot ended; `reward` is the sum over jobs that ran of the epochs they made in it
    /// over their declared epochs (DL2's slot reward), `progress` each such job's term of that
    /// sum (DL2's `job_prog_in_ts`).
    fn slot_ended(&mut self, reward: f64, progress: &[(JobId, f64)]);
}

/// What the slots of a run looked like (for training diagnostics).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SlotStats {
    /// Slots decided.
    pub slots: u64,
    /// Tasks (workers plus servers) allocated, summed over slots.
    pub tasks: u64,
    /// Decisions the policy network made (not heuristics).
    pub decisions: u64,
    /// The network's probability of skip at those decisions (masked, renormalised), summed.
    pub skip_probability: f64,
    /// Decisions that were skip.
    pub skips: u64,
}

impl SlotStats {
    /// Mean tasks per slot.
    pub fn tasks_per_slot(&self) -> f64 {
        self.tasks as f64 / self.slots.max(1) as f64
    }

    /// Mean probability of skip per decision (NaN without decisions).
    pub fn mean_skip_probability(&self) -> f64 {
        if self.decisions == 0 { f64::NAN } else { self.skip_probability / self.decisions as f64 }
    }

    /// Adds another run's.
    pub fn add(&mut self, other: &SlotStats) {
        self.slots += other.slots;
        self.tasks += other.tasks;
        self.decisions += other.decisions;
        self.skip_probability += other.skip_probability;
        self.skips += other.skips;
    }
}

/// Who decides within a slot.
pub enum Chooser {
    /// A heuristic, with an optional recorder of its increments.
    Heuristic {
        /// The heuristic.
        heuristic: Heuristic,
        /// Sees every increment (supervised learning).
        recorder: Option<Box<dyn Recorder>>,
    },
    /// The policy network, after one bundle per job: sampling from the masked output (DL2's
    /// validation, `SELECT_ACTION_MAX_PROB = False`) or taking its largest entry.
    Network {
        /// The weights.
        network: Arc<PolicyNetwork>,
        /// Sample (true) or take the most probable action.
        sample: bool,
    },
    /// A trainer, after one bundle per job.
    Learner(Box<dyn Learner>),
}

/// DL2's slot parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlotConfig {
    /// Slot length in seconds (`TS_DURATION`, 1,200).
    pub slot_seconds: f64,
    /// How many CPUs a GPU counts as in a node's load (4: DL2's GPU is 4 of 8 slots).
    pub gpu_weight: f64,
    /// Most workers of a job (`MAX_NUM_WORKERS`, 16).
    pub max_workers: u32,
    /// Most parameter servers of a job (also `MAX_NUM_WORKERS`).
    pub max_ps: u32,
}

impl Default for SlotConfig {
    fn default() -> Self {
        SlotConfig { slot_seconds: 1200.0, gpu_weight: 4.0, max_workers: 16, max_ps: 16 }
    }
}

/// A job that ran in the last slot: its progress when the slot began and its declared epochs.
#[derive(Clone, Copy, Debug)]
struct Ran {
    id: JobId,
    start_progress: f64,
    epochs: f64,
}

/// DL2's slot loop with one of its choosers.
pub struct Dl2 {
    name: String,
    chooser: Chooser,
    config: SlotConfig,
    knowledge: Knowledge,
    rng: ChaCha8Rng,
    cluster: Option<SlotCluster>,
    acted: Option<u64>,
    ran: Vec<Ran>,
    rewards: Vec<f64>,
    stats: SlotStats,
}

impl Dl2 {
    /// A policy named `name` (its canonical name with parameters).
    pub fn new(name: String, chooser: Chooser, config: SlotConfig) -> Dl2 {
        let knowledge = match &chooser {
            Chooser::Heuristic { heuristic: Heuristic::Optimus(_) | Heuristic::SlotReward(_), .. } => Knowledge::Oracle,
            _ => Knowledge::Realistic,
        };
        Dl2 {
            name,
            chooser,
            config,
            knowledge,
            rng: ChaCha8Rng::seed_from_u64(0),
            cluster: None,
            acted: None,
            ran: Vec::new(),
            rewards: Vec::new(),
            stats: SlotStats::default(),
        }
    }

    /// What the slots of the last run looked like.
    pub fn stats(&self) -> SlotStats {
        self.stats
    }

    /// The reward of every slot so far.
    pub fn rewards(&self) -> &[f64] {
        &self.rewards
    }

    /// Ends the last slot: its reward from the progress its jobs made.
    fn close_slot(&mut self, context: &Context<'_>) {
        if self.ran.is_empty() {
            return;
        }
        let mut reward = 0.0;
        let mut terms = Vec::with_capacity(self.ran.len());
        for ran in self.ran.drain(..) {
            // A job that finished has made its declared epochs (DL2 declares them exactly).
            let progress = context.jobs.get(ran.id).map_or(ran.epochs, |view| view.progress(context.now));
            let term = (progress - ran.start_progress).max(0.0) / ran.epochs;
            reward += term;
            terms.push((ran.id, term));
        }
        self.rewards.push(reward);
        match &mut self.chooser {
            Chooser::Learner(learner) => learner.slot_ended(reward, &terms),
            Chooser::Heuristic { recorder: Some(recorder), .. } => recorder.slot_ended(reward),
            _ => {}
        }
    }

    fn slot_job(&self, view: &JobView, now: Time, index: u64) -> Result<SlotJob, PolicyError> {
        let epochs = view.declared_work.filter(|epochs| *epochs > 0.0).ok_or_else(|| {
            PolicyError::Unsupported(format!(
                "{}: job {} declares no epochs; DL2's state and heuristics need each job's declared work (generator dl2, or workload declared_work)",
                self.name, view.id
            ))
        })?;
        let demand = view.cpu_demand();
        let worker_cpus = demand.per_gpu.ok_or_else(|| {
            PolicyError::Unsupported(format!(
                "{}: job {} requests no CPUs; DL2 places each worker with its CPUs (generator dl2 gives 2)",
                self.name, view.id
            ))
        })?;
        let arrival_slot = (view.arrival.secs() / self.config.slot_seconds).ceil() as u64;
        Ok(SlotJob {
            id: view.id,
            model: Arc::clone(&view.job_type),
            type_number: schedlab_dl2_speed::model_info(&view.job_type).map_or(0, |model| model.type_number),
            arrival_slot: arrival_slot.min(index),
            epochs,
            progress: view.progress(now),
            worker_cpus,
            ps_cpus: demand.per_ps,
            worker_nodes: Vec::new(),
            ps_nodes: Vec::new(),
            dom_share: 0.0,
        })
    }

    /// Decides one slot: fills `slot` (which must be empty) by the chooser's rules.
    pub fn fill(&mut self, slot: &mut Slot) -> Result<(), PolicyError> {
        match &mut self.chooser {
            Chooser::Heuristic { heuristic, recorder } => {
                heuristic.fill(slot, self.config.slot_seconds, recorder);
                Ok(())
            }
            _ => self.fill_by_actions(slot),
        }
    }

    /// Fills a slot with the network or a learner, after one bundle per job.
    fn fill_by_actions(&mut self, slot: &mut Slot) -> Result<(), PolicyError> {
        slot.assign_bundles();
        loop {
            let observation = Observation::of(slot);
            if observation.is_empty() {
                return Ok(());
            }
            let mask = observation.mask(slot);
            let action = match &mut self.chooser {
                Chooser::Network { network, sample } => {
                    if let Some(job) = slot.jobs.iter().find(|job| job.type_number == 0) {
                        return Err(PolicyError::Unsupported(format!(
                            "{}: job {} is of model '{}', not one of DL2's eight; the network's first input is the model",
                            self.name, job.id, job.model
                        )));
                    }
                    let probabilities = network.probabilities(&observation.state);
                    let allowed: f64 =
                        probabilities.iter().zip(&mask).filter(|(_, a)| **a).map(|(p, _)| *p as f64).sum();
                    if allowed > 0.0 {
                        self.stats.decisions += 1;
                        self.stats.skip_probability += probabilities[SKIP] as f64 / allowed;
                    }
                    let action = pick(&probabilities, &mask, *sample, &mut self.rng);
                    self.stats.skips += u64::from(action == Some(SKIP));
                    action
                }
                Chooser::Learner(learner) => learner.choose(slot, &observation, &mask),
                Chooser::Heuristic { .. } => unreachable!("heuristics fill slots themselves"),
            };
            let Some(action) = action else { return Ok(()) };
            if action == SKIP {
                return Ok(());
            }
            let (column, task) = decode(action);
            let Some(job) = observation.window[column].filter(|_| mask[action]) else {
                return Err(PolicyError::Unsupported(format!("{}: chose masked action {action}", self.name)));
            };
            let placed = slot.place(job, task);
            if let Chooser::Learner(learner) = &mut self.chooser {
                learner.placed(slot, placed);
            }
            if !placed {
                return Ok(());
            }
        }
    }
}

/// Picks from `probabilities` restricted to `mask` and renormalised: sampling as DL2 does
/// (`u = randint(1, 100000) / 100000`, the first action whose cumulative probability exceeds
/// `u`), or the most probable action. `None` when every allowed action has probability 0.
pub fn pick(probabilities: &[f32], mask: &[bool; ACTIONS], sample: bool, rng: &mut impl Rng) -> Option<usize> {
    let masked: Vec<f64> =
        probabilities.iter().zip(mask).map(|(p, allowed)| if *allowed { *p as f64 } else { 0.0 }).collect();
    let total: f64 = masked.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return None;
    }
    if !sample {
        let best = masked.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        return masked.iter().position(|p| *p == best);
    }
    let u = rng.random_range(1..100_000u32) as f64 / 100_000.0;
    let mut cumulative = 0.0;
    for (action, p) in masked.iter().enumerate() {
        cumulative += p / total;
        if cumulative > u {
            return Some(action);
        }
    }
    // Round-off left the sum just below u: the last allowed action.
    masked.iter().rposition(|p| *p > 0.0)
}

impl Policy for Dl2 {
    fn name(&self) -> &str {
        &self.name
    }

    fn knowledge(&self) -> Knowledge {
        self.knowledge
    }

    fn is_elastic(&self) -> bool {
        true
    }

    fn begin_run(&mut self, run: &RunStart<'_>) -> Result<(), PolicyError> {
        self.rng = ChaCha8Rng::seed_from_u64(run.seed);
        let cluster = SlotCluster::new(run.cluster, self.config.gpu_weight)
            .map_err(|message| PolicyError::Unsupported(format!("{}: {message}", self.name)))?;
        self.cluster = Some(cluster);
        self.acted = None;
        self.ran.clear();
        self.rewards.clear();
        self.stats = SlotStats::default();
        Ok(())
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let slot_seconds = self.config.slot_seconds;
        let now = context.now.secs();
        let index = (now / slot_seconds).floor() as u64;
        if context.jobs.n_active() == 0 {
            self.close_slot(context);
            return Ok(Decision::none());
        }
        let next = Some(Time::from_secs((index + 1) as f64 * slot_seconds));
        let at_boundary = index as f64 * slot_seconds == now;
        if !at_boundary || self.acted == Some(index) {
            return Ok(Decision { next_tick: next, ..Decision::none() });
        }
        self.close_slot(context);
        self.acted = Some(index);
        let mut cluster = self
            .cluster
            .take()
            .ok_or_else(|| PolicyError::Unsupported(format!("{}: schedule called before begin_run", self.name)))?;
        cluster.clear();
        let mut views: Vec<&JobView> = context.jobs.active().collect();
        views.sort_unstable_by_key(|view| view.id);
        let mut jobs = Vec::with_capacity(views.len());
        for view in &views {
            jobs.push(self.slot_job(view, context.now, index)?);
        }
        let mut slot = Slot { index, jobs, cluster, max_workers: self.config.max_workers, max_ps: self.config.max_ps };
        let filled = self.fill(&mut slot);
        let Slot { jobs, cluster, .. } = slot;
        self.cluster = Some(cluster);
        filled?;
        let mut decision = Decision { next_tick: next, ..Decision::none() };
        self.stats.slots += 1;
        self.stats.tasks += jobs.iter().map(|job| u64::from(job.workers() + job.ps())).sum::<u64>();
        for (job, view) in jobs.iter().zip(&views) {
            let target = allocation_of(job);
            if target.is_some() && job.ps() > 0 {
                self.ran.push(Ran { id: job.id, start_progress: job.progress, epochs: job.epochs });
            }
            if view.allocation == target {
                continue;
            }
            if view.is_running() {
                decision.preempt.push(job.id);
            }
            if let Some(allocation) = target {
                decision.start.push((job.id, allocation));
            }
        }
        Ok(decision)
    }
}

/// The engine's allocation of a slot job: its workers' GPUs and its servers by node. A job
/// without a worker holds nothing in the engine (its servers, if any, hold CPUs only in this
/// slot's accounting, as in DL2, where such a job makes no progress either).
fn allocation_of(job: &SlotJob) -> Option<Allocation> {
    if job.worker_nodes.is_empty() {
        return None;
    }
    let count = |nodes: &[NodeId]| {
        let mut counts: BTreeMap<NodeId, u32> = BTreeMap::new();
        for node in nodes {
            *counts.entry(*node).or_default() += 1;
        }
        counts.into_iter().collect::<Vec<_>>()
    };
    Some(Allocation::new(count(&job.worker_nodes)).with_ps(count(&job.ps_nodes)))
}

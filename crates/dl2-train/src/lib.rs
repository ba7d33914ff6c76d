//! Trains DL2's policy network as the authors' `train.py` does, with one agent
//! (`NUM_AGENTS = 1`): first supervised on the increments DRF makes (cross-entropy, Adam 0.005,
//! a uniform memory of 8,192 samples, batches of 256, one update per slot once the memory is
//! full, the window's columns shuffled), then actor-critic (advantage `r - V(s)`, Adam 1e-4 for
//! both networks, entropy weight 0.1, the slot's reward copied to each of its decisions, a
//! memory of 8,192 prioritised by reward, one batch of 256 per slot) with the authors'
//! exploration rules (`rl_env.py`, `INJECT_SAMPLES`). Episodes run in schedlab's engine through
//! [`Dl2`]; validation runs the network as DL2 validates it (sampling, no exploration rules).
//!
//! Those are the defaults of [`TrainConfig`]. Its other settings are the fixes that let the
//! network learn to end slots (input normalisation, skip left out of the supervised loss or its
//! bias reset after it, the authors' per-job reward and a marginal reward of ours, the entropy
//! summed per sample, a critic warm-up, more updates per slot, the slot greedy as teacher); the
//! crate README of `schedlab-policies-dl2` measures each. Every curve point carries diagnostics:
//! the network on the validation traces sampling and by its most probable action (JCT, ratio
//! to DRF, skip's probability, tasks per slot), supervised accuracy, and the reinforcement
//! updates' entropy, critic loss and KL.
//!
//! Everything random comes from one seed, and the networks train on one thread, so a seed
//! gives the same weights byte for byte; validation runs in parallel with results kept in
//! trace order.

mod held_out;
pub mod imitator;
pub mod nets;
pub mod replay;
mod rl;
mod sl;

pub use sl::set_skip_prior;

use rayon::prelude::*;
use schedlab_core::{ClusterSpec, JobSpec};
use schedlab_dl2_speed::Dl2Speed;
use schedlab_policies_dl2::heuristics::Heuristic;
use schedlab_policies_dl2::network::PolicyNetwork;
use schedlab_policies_dl2::{Chooser, Dl2, SlotConfig, SlotStats};
use schedlab_sim::SimConfig;
use schedlab_trace::dl2::{CpuOnlyModels, Dl2Workload};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Training settings; defaults are the authors' (`parameters.py`), except the budgets, which
/// are the built-in weights' (`crates/policies/dl2/weights/dl2.manifest.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// Seed of everything random: traces, initial weights, shuffles, draws, replay sampling.
    pub seed: u64,
    /// Supervised updates (DL2: `TOT_NUM_STEPS = 100000` in SL mode).
    pub sl_steps: usize,
    /// Reinforcement-learning updates (DL2: 1,000,000).
    pub rl_steps: usize,
    /// Training traces, cycled (`TRAIN_EPOCH_SIZE`, 100).
    pub train_traces: usize,
    /// Validation traces (`VAL_DATASET`, 10).
    pub validation_traces: usize,
    /// Updates between validations (DL2: `VAL_INTERVAL` 50 in SL, 200 in RL).
    pub validation_interval: usize,
    /// Jobs per trace (`TOT_NUM_JOBS`, 200).
    pub jobs: usize,
    /// Arrivals per slot at most (`MAX_ARRVS_PER_TS`, 10).
    pub max_arrivals_per_slot: u32,
    /// Nodes of 8 CPUs and 2 GPUs (`CLUSTER_NUM_NODES`, 500).
    pub nodes: usize,
    /// Supervised learning rate (0.005).
    pub sl_learning_rate: f64,
    /// Actor and critic learning rate (1e-4).
    pub rl_learning_rate: f64,
    /// Entropy weight (`ENTROPY_WEIGHT`, 0.1).
    pub entropy_weight: f64,
    /// Memory size (`REPLAY_MEMORY_SIZE`, 8192).
    pub memory: usize,
    /// Batch size (`MINI_BATCH_SIZE`, 256).
    pub batch: usize,
    /// The authors' exploration rules during training (`INJECT_SAMPLES`, on).
    pub inject: bool,
    /// The authors' optional epsilon-greedy exploration (`EPSILON_GREEDY`, off): with
    /// probability `epsilon = 2 / (1 + exp(updates / T))` a decision takes a uniformly drawn
    /// action among those with probability above 1e-20 (`rl_env.py`, `step`), before the
    /// exploration rules; this is `T` (`ANNEALING_TEMPERATURE`, 500, for agent 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epsilon_temperature: Option<f64>,
    /// Scale the inputs (see [`nets::input_scale`]; DL2: `INPUT_RESCALE = False`). The shipped
    /// weights have the scale folded into their first layer, so the policy reads raw states.
    #[serde(default)]
    pub normalise_inputs: bool,
    /// Whose increments the supervised phase learns (DL2: DRF).
    #[serde(default)]
    pub teacher: Teacher,
    /// Leave skip out of the supervised loss's softmax (DL2: in it).
    #[serde(default)]
    pub sl_mask_skip: bool,
    /// After the supervised phase, shift skip's output bias so that its mean probability on the
    /// newest 1,024 states of the supervised memory is this (DL2: no reset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_prior: Option<f64>,
    /// Whose states [`TrainConfig::skip_prior`] is set on (not DL2's, as the prior is not):
    /// the supervised memory's (the teacher's), or those the network meets itself.
    #[serde(default, skip_serializing_if = "is_teacher_states")]
    pub skip_prior_states: SkipPriorStates,
    /// What each decision learns from (DL2: the slot's reward).
    #[serde(default)]
    pub reward: Reward,
    /// How the entropy term is averaged (DL2: over actions too).
    #[serde(default)]
    pub entropy: nets::Entropy,
    /// Updates of the critic alone, the policy held, before the policy's first (DL2:
    /// `STEP_TRAIN_CRITIC_NET = 0`, "not functional").
    #[serde(default)]
    pub critic_warmup: usize,
    /// Updates per slot once the memory is full (DL2: `NUM_TS_PER_UPDATE = 1`, one).
    #[serde(default = "one")]
    pub updates_per_slot: usize,
    /// Shuffle the window's columns in the supervised samples (DL2: `JOB_ORDER_SHUFFLE`, set
    /// in its supervised mode only; its policy and reinforcement learning see the window in
    /// arrival order). Off, the supervised samples show the window as the policy sees it.
    #[serde(default = "yes")]
    pub sl_shuffle: bool,
    /// The supervised phase's memory size when it differs from the reinforcement phase's
    /// ([`TrainConfig::memory`]; DL2 has one, `REPLAY_MEMORY_SIZE = 8192  # or 65536`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sl_memory: Option<usize>,
    /// Not DL2's: the weight of a penalty on moving away from the network the supervised phase
    /// ended with, `KL(pi_sl || pi)` on each batch's states (its gradient into the logits is
    /// `pi - pi_sl`), added to the policy loss in reinforcement learning (0: none, as DL2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub anchor_weight: f64,
    /// Not DL2's: which divergence the anchor's penalty weighs (forward, `KL(pi_sl || pi)`, by
    /// default; reverse, `KL(pi || pi_sl)`).
    #[serde(default, skip_serializing_if = "is_forward")]
    pub anchor_divergence: nets::AnchorDivergence,
    /// Not DL2's: divide the supervised network's output logits by this before reinforcement
    /// learning (and before the skip prior is set): the same ranking of actions, spread over
    /// more of them, so that a network that imitates its teacher closely still explores (1:
    /// unchanged, as DL2).
    #[serde(default = "unit", skip_serializing_if = "is_unit")]
    pub sl_temperature: f64,
    /// Not DL2's (`FIX_LEARNING_RATE = True`): the supervised rate falls geometrically from
    /// [`TrainConfig::sl_learning_rate`] at the first update to this at the last (`None`: fixed,
    /// as DL2), so that the network settles where a fixed rate keeps it moving.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sl_learning_rate_end: Option<f64>,
    /// How a teacher's bundle (a worker and a server on one node) is labelled: as two actions,
    /// the worker and then the server (DL2: `drf_env.py` has the bundle-action branch but
    /// switches it off, `if pm.PS_WORKER and pm.BUNDLE_ACTION and False`), or as one bundle
    /// action, which places both on one node as the teacher did.
    #[serde(default, skip_serializing_if = "is_task_labels")]
    pub sl_labels: SlLabels,
}

fn is_task_labels(value: &SlLabels) -> bool {
    *value == SlLabels::Tasks
}

/// How the supervised phase labels a teacher's bundles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SlLabels {
    /// A worker, then the server (DL2's labels). Acting on them, each task goes to the
    /// least-loaded node on its own, so even a network that agrees with every label packs the
    /// nodes unlike its teacher.
    #[default]
    Tasks,
    /// Not DL2's setting, though in its code: one bundle action per bundle.
    Bundles,
}

fn unit() -> f64 {
    1.0
}

fn is_unit(value: &f64) -> bool {
    *value == 1.0
}

fn is_forward(value: &nets::AnchorDivergence) -> bool {
    *value == nets::AnchorDivergence::Forward
}

fn is_teacher_states(value: &SkipPriorStates) -> bool {
    *value == SkipPriorStates::Teacher
}

/// The states skip's prior is set on after the supervised phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkipPriorStates {
    /// The newest 1,024 states of the supervised memory: the teacher's, mostly mid-slot.
    #[default]
    Teacher,
    /// The states the network meets when it schedules the first [`OWN_STATE_TRACES`] training
    /// traces itself, sampling its actions: the bias is moved until skip's mean probability
    /// over them is the prior (the states move with it, so each round runs them again).
    Own,
}

/// Training traces the network schedules to set skip's prior on its own states.
pub const OWN_STATE_TRACES: usize = 10;

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

fn one() -> usize {
    1
}

fn yes() -> bool {
    true
}

/// The supervised phase's teacher.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Teacher {
    /// DRF, as DL2 (`HEURISTIC = "DRF"`); it never skips.
    #[default]
    Drf,
    /// Not DL2's: the slot-reward greedy (`dl2-slot-greedy`, an ORACLE on the true speeds), whose
    /// slots end by skip when no task gains. A network warmed up on it is a labelled variant.
    SlotGreedy,
}

/// What reward each decision of a slot is given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reward {
    /// The slot's reward, to every decision of the slot (DL2's default, `train.py:613`).
    #[default]
    Slot,
    /// DL2's `TS_REWARD_PLUS_JOB_REWARD`: a decision gets its job's term of the slot reward, a
    /// skip the slot reward over the jobs that ran (`rl_env.py`, `get_job_reward`).
    Job,
    /// Not DL2's: the change this decision's task made to its job's term of the slot reward,
    /// by the true speed function (a skip gets 0): each decision a bandit of its own, as the
    /// slot greedy scores tasks. Over a slot the changes add up to the slot reward less the
    /// bundles'.
    Marginal,
    /// Not DL2's: the change in the slot reward from this decision to the slot's end (the sum
    /// of [`Reward::Marginal`] over it and the slot's later decisions).
    MarginalToGo,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            seed: 0,
            sl_steps: 10_000,
            rl_steps: 6_000,
            train_traces: 100,
            validation_traces: 10,
            validation_interval: 2_000,
            jobs: 200,
            max_arrivals_per_slot: 10,
            nodes: 500,
            sl_learning_rate: 0.005,
            rl_learning_rate: 1e-4,
            entropy_weight: 0.1,
            memory: 8192,
            batch: 256,
            inject: true,
            sl_shuffle: true,
            sl_memory: None,
            epsilon_temperature: None,
            normalise_inputs: false,
            teacher: Teacher::Drf,
            sl_mask_skip: false,
            skip_prior: None,
            skip_prior_states: SkipPriorStates::Teacher,
            reward: Reward::Slot,
            entropy: nets::Entropy::MeanOverActions,
            critic_warmup: 0,
            updates_per_slot: 1,
            anchor_weight: 0.0,
            anchor_divergence: nets::AnchorDivergence::Forward,
            sl_temperature: 1.0,
            sl_learning_rate_end: None,
            sl_labels: SlLabels::Tasks,
        }
    }
}

impl TrainConfig {
    /// The settings of the built-in weights (`crates/policies/dl2/weights/dl2.json`): DL2's,
    /// with the changes that let the network learn to end its slots (the crate README of
    /// `schedlab-policies-dl2` measures each): inputs normalised, skip left out of the
    /// supervised loss and its prior set to 0.05 after it, the marginal reward, the authors'
    /// exploration rules off, entropy weight 0.001; 2,000 supervised and
    /// [`BUILTIN_RL_STEPS`] reinforcement-learning updates.
    pub fn builtin() -> TrainConfig {
        TrainConfig {
            sl_steps: 2_000,
            rl_steps: BUILTIN_RL_STEPS,
            normalise_inputs: true,
            sl_mask_skip: true,
            skip_prior: Some(0.05),
            reward: Reward::Marginal,
            inject: false,
            entropy_weight: 0.001,
            ..TrainConfig::default()
        }
    }
}

/// Reinforcement-learning updates of the built-in weights (the run's last point was also its
/// lowest sampled validation JCT).
pub const BUILTIN_RL_STEPS: usize = 20_000;

/// One point of the learning curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// `sl` or `rl`.
    pub phase: String,
    /// Updates of that phase so far.
    pub step: usize,
    /// Mean JCT over the validation traces, in slots (DL2's unit).
    pub validation_jct_slots: f64,
    /// Mean training loss over the updates since the last point (cross-entropy in SL, policy
    /// loss in RL).
    pub loss: f64,
    /// Mean slot reward of the training episodes since the last point.
    pub reward: f64,
    /// What the decisions of the training episodes since the last point were (reinforcement
    /// learning only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<ActionCounts>,
    /// What the network did on the validation traces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<ValidationStats>,
    /// Means over the updates since the last point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updates: Option<UpdateStats>,
}

/// The network on the validation traces, sampling (as DL2 validates) and taking the most
/// probable action.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValidationStats {
    /// Mean JCT taking the most probable action, in slots.
    pub jct_greedy_slots: f64,
    /// Mean JCT sampling over DRF's on the same traces.
    pub ratio_to_drf: f64,
    /// Mean JCT taking the most probable action over DRF's.
    pub ratio_to_drf_greedy: f64,
    /// Mean probability of skip at the network's decisions, sampling.
    pub skip_probability: f64,
    /// Mean tasks (workers plus servers) per slot, sampling.
    pub tasks_per_slot: f64,
    /// Mean tasks per slot taking the most probable action.
    pub tasks_per_slot_greedy: f64,
    /// The share of DRF's increments on the validation traces (up to 1,024 states per trace,
    /// never trained on, the window as the policy sees it) where the network's most probable
    /// allowed action is DRF's: agreement with DRF on held-out states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drf_agreement: Option<f64>,
}

/// Means over a stretch of updates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UpdateStats {
    /// Supervised: the share of labelled samples whose most probable action is the label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f64>,
    /// Supervised: the share of samples with a label (the rest show the teacher's job beyond
    /// the window: an all-zero label, no loss).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labelled: Option<f64>,
    /// Reinforcement: the entropy of the sampled distributions (nats, per decision).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entropy: Option<f64>,
    /// Reinforcement: the critic's mean squared error before its update.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critic_loss: Option<f64>,
    /// Reinforcement: KL divergence from the policy before an update to after it, on the batch
    /// (nats, per decision, unmasked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kl: Option<f64>,
}

/// Counts of the network's decisions in training episodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionCounts {
    /// Decisions the network was asked for.
    pub decisions: u64,
    /// Decisions whose sampled action the exploration rules replaced.
    pub replaced: u64,
    /// Decisions whose sampled action (the network's draw, or epsilon-greedy's) was skip (end
    /// the slot).
    pub sampled_skips: u64,
    /// Decisions that ended the slot by skip, after the rules.
    pub skips: u64,
}

/// What a training run produced.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Trained {
    /// The final policy network.
    pub network: PolicyNetwork,
    /// The settings.
    pub config: TrainConfig,
    /// Validation JCT (slots) of each baseline on the validation traces.
    pub baselines: Vec<(String, f64)>,
    /// Mean tasks per slot of each baseline on the validation traces.
    pub baseline_tasks_per_slot: Vec<(String, f64)>,
    /// Wall time of the run, seconds.
    pub wall_seconds: f64,
    /// The learning curve.
    pub curve: Vec<CurvePoint>,
    /// Training episodes run per phase.
    pub episodes: (usize, usize),
    /// With skip's prior set on the network's own states: skip's mean probability on them in
    /// each round, before that round's shift (empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skip_prior_means: Vec<f64>,
}

/// The mean of `values` (NaN when empty), which are then cleared: a curve point's loss and
/// reward since the previous one.
pub(crate) fn mean_and_clear(values: &mut Vec<f64>) -> f64 {
    let mean = if values.is_empty() { f64::NAN } else { values.iter().sum::<f64>() / values.len() as f64 };
    values.clear();
    mean
}

/// DL2's large-scale cluster: `nodes` nodes of 8 CPUs and 2 GPUs.
pub fn cluster(nodes: usize) -> Arc<ClusterSpec> {
    Arc::new(schedlab_policies_dl2::slot::dl2_cluster(nodes))
}

/// A seed derived from `seed` for stream `stream` and index `index` (splitmix64).
pub fn derive(seed: u64, stream: u64, index: u64) -> u64 {
    let mut z = seed ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The traces a run trains and validates on.
pub struct Traces {
    /// Training traces.
    pub train: Vec<Vec<JobSpec>>,
    /// Validation traces.
    pub validation: Vec<Vec<JobSpec>>,
}

impl Traces {
    /// DL2's workloads for `config`.
    pub fn new(config: &TrainConfig) -> Result<Traces, String> {
        let trace = |stream: u64, index: usize| {
            Dl2Workload {
                jobs: config.jobs,
                max_arrivals_per_slot: config.max_arrivals_per_slot,
                slot: 1200.0,
                max_epochs: 30000.0,
                task_cpus: 2.0,
                cpu_only: CpuOnlyModels::OneGpu,
                seed: derive(config.seed, stream, index as u64),
            }
            .generate()
        };
        Ok(Traces {
            train: (0..config.train_traces).map(|index| trace(1, index)).collect::<Result<_, _>>()?,
            validation: (0..config.validation_traces).map(|index| trace(2, index)).collect::<Result<_, _>>()?,
        })
    }
}

/// Runs one episode of `jobs` with `policy`; returns the mean JCT in slots.
pub fn run_episode(
    cluster: &Arc<ClusterSpec>,
    jobs: &[JobSpec],
    speeds: &Dl2Speed,
    policy: &mut Dl2,
    seed: u64,
) -> Result<f64, String> {
    let config = SimConfig { seed, restart_overhead: 0.0, ..SimConfig::default() };
    let result = schedlab_sim::run(Arc::clone(cluster), jobs, speeds, policy, &config).map_err(|e| e.to_string())?;
    let total: f64 = result
        .jobs
        .iter()
        .map(|job| {
            job.finish.map(|finish| finish - job.arrival).ok_or_else(|| format!("job {} did not finish", job.id))
        })
        .sum::<Result<f64, String>>()?;
    Ok(total / result.jobs.len() as f64 / 1200.0)
}

/// Each of `traces` scheduled by `network` (sampling its actions or taking the most probable),
/// episode `i` with seed `derive(seed, stream, i)`: each episode's mean JCT (slots) and stats.
fn schedule_with(
    network: &Arc<PolicyNetwork>,
    traces: &[Vec<JobSpec>],
    sample: bool,
    cluster: &Arc<ClusterSpec>,
    speeds: &Dl2Speed,
    seed: u64,
    stream: u64,
) -> Result<Vec<(f64, SlotStats)>, String> {
    traces
        .par_iter()
        .enumerate()
        .map(|(index, jobs)| {
            let chooser = Chooser::Network { network: Arc::clone(network), sample };
            let mut policy = Dl2::new("dl2".into(), chooser, SlotConfig::default());
            let jct = run_episode(cluster, jobs, speeds, &mut policy, derive(seed, stream, index as u64))?;
            Ok((jct, policy.stats()))
        })
        .collect()
}

/// The network on the validation traces: mean JCT sampling as DL2 validates, and the
/// diagnostics of [`ValidationStats`] (`drf_jct`: DRF's mean JCT on them).
pub fn validate(
    network: &Arc<PolicyNetwork>,
    traces: &Traces,
    cluster: &Arc<ClusterSpec>,
    speeds: &Dl2Speed,
    seed: u64,
    drf_jct: f64,
) -> Result<(f64, ValidationStats), String> {
    let schedule = |sample| schedule_with(network, &traces.validation, sample, cluster, speeds, seed, 3);
    let (jct, sampled) = summarize(&schedule(true)?);
    let (jct_greedy, greedy) = summarize(&schedule(false)?);
    Ok((
        jct,
        ValidationStats {
            jct_greedy_slots: jct_greedy,
            ratio_to_drf: jct / drf_jct,
            ratio_to_drf_greedy: jct_greedy / drf_jct,
            skip_probability: sampled.mean_skip_probability(),
            tasks_per_slot: sampled.tasks_per_slot(),
            tasks_per_slot_greedy: greedy.tasks_per_slot(),
            drf_agreement: None,
        },
    ))
}

/// Shifts skip's output bias so that its mean probability over the decisions the network
/// takes itself, sampling, on `traces` is `prior`. Each of 8 rounds schedules the traces with
/// the current bias (seeds fixed, so the rounds differ only by the bias) and moves the bias by
/// the log-odds between the prior and the mean measured, as [`set_skip_prior`] does on fixed
/// states. Returns the network and the mean measured in each round.
pub fn set_skip_prior_on_own_states(
    mut network: PolicyNetwork,
    traces: &[Vec<JobSpec>],
    cluster: &Arc<ClusterSpec>,
    speeds: &Dl2Speed,
    seed: u64,
    prior: f64,
) -> Result<(PolicyNetwork, Vec<f64>), String> {
    let logit = |p: f64| (p / (1.0 - p)).ln();
    let mut means = Vec::new();
    for _ in 0..8 {
        let runs = schedule_with(&Arc::new(network.clone()), traces, true, cluster, speeds, seed, 9)?;
        let mean = summarize(&runs).1.mean_skip_probability();
        if !mean.is_finite() {
            return Err("setting skip's prior on the network's own states: the traces gave no decision".into());
        }
        means.push(mean);
        let mean = mean.clamp(1e-12, 1.0 - 1e-12);
        network.output.bias[schedlab_policies_dl2::observation::SKIP] += (logit(prior) - logit(mean)) as f32;
    }
    Ok((network, means))
}

/// Mean validation JCT (slots) of a heuristic and its mean tasks per slot.
pub fn validate_heuristic(
    heuristic: &Heuristic,
    traces: &Traces,
    cluster: &Arc<ClusterSpec>,
    speeds: &Dl2Speed,
) -> Result<(f64, f64), String> {
    let runs: Vec<(f64, SlotStats)> = traces
        .validation
        .par_iter()
        .map(|jobs| {
            let chooser = Chooser::Heuristic { heuristic: heuristic.clone(), recorder: None };
            let mut policy = Dl2::new("baseline".into(), chooser, SlotConfig::default());
            let jct = run_episode(cluster, jobs, speeds, &mut policy, 0)?;
            Ok((jct, policy.stats()))
        })
        .collect::<Result<_, String>>()?;
    let (jct, stats) = summarize(&runs);
    Ok((jct, stats.tasks_per_slot()))
}

/// The mean JCT of episodes and their slot statistics added up.
fn summarize(runs: &[(f64, SlotStats)]) -> (f64, SlotStats) {
    let mut stats = SlotStats::default();
    runs.iter().for_each(|(_, run)| stats.add(run));
    (runs.iter().map(|(jct, _)| jct).sum::<f64>() / runs.len() as f64, stats)
}

/// What a phase needs to validate a network.
pub(crate) struct Validator<'a> {
    pub traces: &'a Traces,
    pub cluster: &'a Arc<ClusterSpec>,
    pub speeds: &'a Dl2Speed,
    pub seed: u64,
    pub drf_jct: f64,
    pub held_out: &'a held_out::HeldOut,
}

impl Validator<'_> {
    /// Validates `network`: the curve point's JCT and diagnostics, with its agreement with
    /// DRF on held-out states.
    pub fn run(&self, network: &Arc<PolicyNetwork>) -> Result<(f64, ValidationStats), String> {
        let (jct, mut stats) = validate(network, self.traces, self.cluster, self.speeds, self.seed, self.drf_jct)?;
        stats.drf_agreement = Some(self.held_out.agreement(network));
        Ok((jct, stats))
    }
}

/// Trains: supervised warm-up, then reinforcement learning. `progress` hears each curve point
/// with the network validated there (the weights after exactly that many updates of the phase).
pub fn train(
    config: &TrainConfig,
    speeds: Arc<Dl2Speed>,
    progress: &dyn Fn(&CurvePoint, &PolicyNetwork),
) -> Result<Trained, String> {
    let sl_memory = config.sl_memory.unwrap_or(config.memory);
    if config.validation_interval == 0
        || config.batch == 0
        || config.batch > config.memory
        || config.batch > sl_memory
        || config.nodes == 0
    {
        return Err(format!(
            "validation_interval ({}), batch ({}) and nodes ({}) must be positive and batch at most memory ({}) and sl_memory ({sl_memory})",
            config.validation_interval, config.batch, config.nodes, config.memory
        ));
    }
    if config.train_traces == 0 || config.validation_traces == 0 {
        return Err("train_traces and validation_traces must be positive".into());
    }
    if config.updates_per_slot == 0 {
        return Err("updates_per_slot must be positive".into());
    }
    if !(config.sl_temperature.is_finite() && config.sl_temperature > 0.0) {
        return Err(format!("sl_temperature ({}) must be more than 0", config.sl_temperature));
    }
    if let Some(end) = config.sl_learning_rate_end
        && !(end.is_finite() && end > 0.0)
    {
        return Err(format!("sl_learning_rate_end ({end}) must be more than 0"));
    }
    if !(config.anchor_weight.is_finite() && config.anchor_weight >= 0.0) {
        return Err(format!("anchor_weight ({}) must be 0 or more", config.anchor_weight));
    }
    if let Some(prior) = config.skip_prior
        && !(prior > 0.0 && prior < 1.0)
    {
        return Err(format!("skip_prior must be strictly between 0 and 1, got {prior}"));
    }
    let started = std::time::Instant::now();
    let traces = Traces::new(config)?;
    let cluster = cluster(config.nodes);
    let mut baselines = Vec::new();
    let mut baseline_tasks_per_slot = Vec::new();
    for (name, heuristic) in [
        ("dl2-drf", Heuristic::Drf),
        ("dl2-fifo", Heuristic::Fifo),
        ("dl2-srtf", Heuristic::Srtf),
        ("dl2-tetris", Heuristic::Tetris),
        ("dl2-optimus", Heuristic::Optimus(Arc::clone(&speeds))),
        ("dl2-slot-greedy", Heuristic::SlotReward(Arc::clone(&speeds))),
    ] {
        let (jct, tasks) = validate_heuristic(&heuristic, &traces, &cluster, &speeds)?;
        baselines.push((name.to_string(), jct));
        baseline_tasks_per_slot.push((name.to_string(), tasks));
    }
    let held_out = held_out::HeldOut::record(&traces, &cluster, &speeds, config.seed, config.sl_labels)?;
    let validator = Validator {
        traces: &traces,
        cluster: &cluster,
        speeds: &speeds,
        seed: config.seed,
        drf_jct: baselines[0].1,
        held_out: &held_out,
    };
    let mut curve = Vec::new();
    let (network, sl_episodes) = sl::train(config, &validator, &speeds, &mut |point, network| {
        progress(&point, network);
        curve.push(point);
    })?;
    let (network, skip_prior_means) = match (config.skip_prior, config.skip_prior_states) {
        (Some(prior), SkipPriorStates::Own) => {
            let own = &traces.train[..OWN_STATE_TRACES.min(traces.train.len())];
            set_skip_prior_on_own_states(network, own, &cluster, &speeds, config.seed, prior)?
        }
        _ => (network, Vec::new()),
    };
    let (network, rl_episodes) = rl::train(config, network, &validator, &speeds, &mut |point, network| {
        progress(&point, network);
        curve.push(point);
    })?;
    Ok(Trained {
        network,
        config: config.clone(),
        baselines,
        baseline_tasks_per_slot,
        wall_seconds: started.elapsed().as_secs_f64(),
        curve,
        episodes: (sl_episodes, rl_episodes),
        skip_prior_means,
    })
}

/// The network with its output logits divided by `temperature` ([`TrainConfig::sl_temperature`]);
/// at 1 the same network, bit for bit.
pub fn soften(mut network: PolicyNetwork, temperature: f64) -> PolicyNetwork {
    if temperature != 1.0 {
        let scale = (1.0 / temperature) as f32;
        network.output.weight.iter_mut().flatten().for_each(|weight| *weight *= scale);
        network.output.bias.iter_mut().for_each(|bias| *bias *= scale);
    }
    network
}

/// Draws the learning curve to a PNG: validation JCT against updates (supervised updates first,
/// then reinforcement-learning updates after them), with DRF's and Optimus's JCT on the same
/// traces as levels, and the slot-reward greedy's (what DL2's reward asks for).
pub fn plot_learning_curve(trained: &Trained, path: &std::path::Path) -> Result<(), String> {
    let x = updates_axis(trained);
    let phase = |name: &str| -> Vec<(f64, f64)> {
        trained
            .curve
            .iter()
            .filter(|point| point.phase == name)
            .map(|point| (x(point), point.validation_jct_slots))
            .collect()
    };
    let end = trained.curve.iter().map(&x).fold(0.0, f64::max);
    let greedy = |name: &str| -> Vec<(f64, f64)> {
        trained
            .curve
            .iter()
            .filter(|point| point.phase == name)
            .filter_map(|point| point.validation.map(|v| (x(point), v.jct_greedy_slots)))
            .collect()
    };
    let teacher = match trained.config.teacher {
        Teacher::Drf => "DRF's",
        Teacher::SlotGreedy => "the slot greedy's",
    };
    let mut lines = vec![
        (format!("supervised ({teacher} increments), sampling"), phase("sl")),
        ("reinforcement learning, sampling".to_string(), phase("rl")),
        ("supervised, most probable action".to_string(), greedy("sl")),
        ("reinforcement learning, most probable action".to_string(), greedy("rl")),
    ];
    lines.retain(|(_, points)| !points.is_empty());
    for (name, jct) in &trained.baselines {
        if name == "dl2-drf" || name == "dl2-optimus" || name == "dl2-slot-greedy" {
            lines.push((format!("{name} (same traces)"), vec![(0.0, *jct), (end, *jct)]));
        }
    }
    schedlab_experiment::plots::line_chart_png(
        path,
        "DL2 training: mean JCT on the validation traces",
        "updates (supervised, then reinforcement learning)",
        "mean JCT (slots of 20 min)",
        lines,
    )
}

/// A curve point's place on the plots' x axis: supervised updates, then reinforcement-learning
/// updates after them.
fn updates_axis(trained: &Trained) -> impl Fn(&CurvePoint) -> f64 {
    let sl_steps = trained.curve.iter().filter(|point| point.phase == "sl").map(|point| point.step).max().unwrap_or(0);
    move |point: &CurvePoint| if point.phase == "sl" { point.step } else { sl_steps + point.step } as f64
}

/// Draws what the network does on the validation traces against updates: tasks per slot
/// (sampling and most probable action, beside DRF's and the slot greedy's) and skip's mean
/// probability x 100,000 (about 1 in 300 decisions shows as 300).
pub fn plot_diagnostics(trained: &Trained, path: &std::path::Path) -> Result<(), String> {
    let x = updates_axis(trained);
    let series = |value: &dyn Fn(&ValidationStats) -> f64| -> Vec<(f64, f64)> {
        trained.curve.iter().filter_map(|point| point.validation.map(|v| (x(point), value(&v)))).collect()
    };
    let end = trained.curve.iter().map(&x).fold(0.0, f64::max);
    let mut lines = vec![
        ("tasks per slot, sampling".to_string(), series(&|v| v.tasks_per_slot)),
        ("tasks per slot, most probable action".to_string(), series(&|v| v.tasks_per_slot_greedy)),
        ("skip probability x 100,000, sampling".to_string(), series(&|v| 1e5 * v.skip_probability)),
    ];
    for (name, tasks) in &trained.baseline_tasks_per_slot {
        if name == "dl2-drf" || name == "dl2-slot-greedy" {
            lines.push((format!("{name} tasks per slot"), vec![(0.0, *tasks), (end, *tasks)]));
        }
    }
    schedlab_experiment::plots::line_chart_png(
        path,
        "DL2 training: what the network does on the validation traces",
        "updates (supervised, then reinforcement learning)",
        "tasks per slot; skip probability x 100,000",
        lines,
    )
}

/// Trains and writes the weights to `out` (a `.json` file), the manifest beside it
/// (`.manifest.json`: data, seed, settings, budget, wall time, baselines, learning curve), the
/// curve's plot (`.learning-curve.png`), the diagnostics' (`.diagnostics.png`), and the weights at every validation point in `<out stem>.checkpoints/`.
/// Progress lines go to `log`.
pub fn train_to_file(
    config: &TrainConfig,
    out: &std::path::Path,
    data: &schedlab_core::DataDir,
    log: &dyn Fn(String),
) -> Result<Trained, String> {
    if out.extension().and_then(|extension| extension.to_str()) != Some("json") {
        return Err(format!("{}: the weights file must end in .json", out.display()));
    }
    let path = data.file("dl2/config_speed.txt").map_err(|error| error.to_string())?;
    let speeds = Arc::new(Dl2Speed::load(&path).map_err(|error| error.to_string())?);
    let checkpoints = out.with_extension("checkpoints");
    std::fs::create_dir_all(&checkpoints).map_err(|error| format!("{}: {error}", checkpoints.display()))?;
    let started = std::time::Instant::now();
    log(format!(
        "training DL2: {} supervised then {} reinforcement-learning updates, seed {}, validation every {}",
        config.sl_steps, config.rl_steps, config.seed, config.validation_interval
    ));
    log(format!("settings: {}", serde_json::to_string(config).expect("serialises")));
    let trained = train(config, speeds, &|point, network| {
        let file = checkpoints.join(format!("{}-{}.json", point.phase, point.step));
        if let Err(error) = std::fs::write(&file, serde_json::to_string(network).expect("weights serialise")) {
            log(format!("warning: {}: {error}", file.display()));
        }
        let actions = point.actions.map_or(String::new(), |counts| {
            let share = |count: u64| 100.0 * count as f64 / counts.decisions.max(1) as f64;
            format!(
                "; of {} decisions {:.1}% replaced by the exploration rules, {} sampled skip ({:.4}%), {} skipped",
                counts.decisions,
                share(counts.replaced),
                counts.sampled_skips,
                share(counts.sampled_skips),
                counts.skips
            )
        });
        let validation = point.validation.map_or(String::new(), |v| {
            let agreement = v.drf_agreement.map_or(String::new(), |a| format!(", agrees with DRF on {a:.3} of held-out states"));
            format!(
                " ({:.3} of DRF; greedy {:.3} slots, {:.3} of DRF); skip probability {:.2e}, tasks per slot {:.1} (greedy {:.1}){agreement}",
                v.ratio_to_drf,
                v.jct_greedy_slots,
                v.ratio_to_drf_greedy,
                v.skip_probability,
                v.tasks_per_slot,
                v.tasks_per_slot_greedy
            )
        });
        let updates = point.updates.map_or(String::new(), |u| {
            let mut text = String::new();
            if let (Some(accuracy), Some(labelled)) = (u.accuracy, u.labelled) {
                text += &format!("; accuracy {accuracy:.3} on the {:.1}% labelled", 100.0 * labelled);
            }
            if let (Some(entropy), Some(critic), Some(kl)) = (u.entropy, u.critic_loss, u.kl) {
                text += &format!("; entropy {entropy:.3}, critic loss {critic:.3e}, KL {kl:.2e}");
            }
            text
        });
        log(format!(
            "[{:>7.1}s] {} step {:>6}: validation JCT {:.3} slots{validation}, loss {:.4}, reward {:.4}{updates}{actions}",
            started.elapsed().as_secs_f64(),
            point.phase,
            point.step,
            point.validation_jct_slots,
            point.loss,
            point.reward
        ));
    })?;
    let write = |path: std::path::PathBuf, bytes: &[u8]| {
        std::fs::write(&path, bytes).map_err(|error| format!("{}: {error}", path.display()))
    };
    write(out.to_path_buf(), serde_json::to_string(&trained.network).expect("weights serialise").as_bytes())?;
    let mut manifest = serde_json::json!({
        "what": "DL2's policy network (schedlab-dl2-train)",
        "data": {
            "speeds": "dl2/config_speed.txt",
            "workload": format!("DL2's generator (trace.py: Google-trace arrivals at most {} per slot, {} jobs, Normal lengths), {} training and {} validation traces from the seed", config.max_arrivals_per_slot, config.jobs, config.train_traces, config.validation_traces),
            "cluster": format!("{} nodes of 8 CPUs and 2 GPUs", config.nodes),
        },
        "config": trained.config,
        "episodes": {"supervised": trained.episodes.0, "reinforcement": trained.episodes.1},
        "validation_baselines_jct_slots": trained.baselines,
        "validation_baselines_tasks_per_slot": trained.baseline_tasks_per_slot,
        "wall_seconds": trained.wall_seconds,
        "threads": rayon::current_num_threads(),
        "curve": trained.curve,
        "tool_version": env!("CARGO_PKG_VERSION"),
    });
    if !trained.skip_prior_means.is_empty() {
        manifest["skip_prior_means_on_own_states"] = serde_json::json!(trained.skip_prior_means);
    }
    write(
        out.with_extension("manifest.json"),
        serde_json::to_string_pretty(&manifest).expect("serialises").as_bytes(),
    )?;
    plot_learning_curve(&trained, &out.with_extension("learning-curve.png"))?;
    plot_diagnostics(&trained, &out.with_extension("diagnostics.png"))?;
    for ((name, jct), (_, tasks)) in trained.baselines.iter().zip(&trained.baseline_tasks_per_slot) {
        log(format!("{name} on the validation traces: JCT {jct:.3} slots, {tasks:.1} tasks per slot"));
    }
    log(format!("wrote {} in {:.0} s", out.display(), started.elapsed().as_secs_f64()));
    Ok(trained)
}

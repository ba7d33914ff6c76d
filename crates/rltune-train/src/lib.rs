//! Trains RLTune's agent with PPO as the authors' `philly_train_v2.py` does: episodes are windows
//! of 256 consecutive jobs starting at a random index below `batch_job_slice`; the agent acts
//! in schedlab's engine through [`RlTune`]; the only reward comes at the episode's end,
//! `(base - rl) / max(base, rl, 1)` on the episode's score of the trained [`Objective`] (the
//! authors' `--score_type`) against the FCFS run of the same window; advantages are
//! GAE(gamma, lambda) normalised over the epoch; the policy takes up to 80 Adam steps (stopping
//! early once the approximate KL exceeds 1.5 x 0.01) and the value network 80.
//!
//! Rollouts run in parallel (each episode's window and seed are drawn first, results are kept in
//! episode order); the update runs on one thread. So a seed gives the same weights, byte for
//! byte, on any number of threads.

mod ppo;

pub use ppo::{Batch, Learner, ppo_update};
pub use schedlab_rltune_env::{Environment, Episode, Objective, window};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use schedlab_policies_rltune::network::{Agent, Mlp};
use schedlab_policies_rltune::observation::PoolRules;
use schedlab_policies_rltune::{Chooser, Order};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// The authors' trajectory filter (`build_sjf`, helios_env_base_v2.py 880-928 and 1118-1127):
/// a drawn window is kept only if SJF's mean bounded slowdown of it lies strictly between `low`
/// and `high` (the authors: 10 and 150); otherwise another start is drawn. The authors score
/// the window on the trained objective, with bounds written for bounded slowdown (their scripts
/// leave the filter off); we score it on bounded slowdown whatever the objective, so that the
/// bounds keep their meaning (windows where the order matters, but not hopelessly overloaded).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowFilter {
    /// Exclusive lower bound of SJF's mean bounded slowdown.
    pub low: f64,
    /// Exclusive upper bound.
    pub high: f64,
}

impl WindowFilter {
    /// Parses `LOW..HIGH` (two numbers, LOW below HIGH).
    pub fn parse(text: &str) -> Result<WindowFilter, String> {
        let (low, high) = text.split_once("..").ok_or_else(|| format!("expected LOW..HIGH, got '{text}'"))?;
        let number = |part: &str| {
            part.trim()
                .parse::<f64>()
                .ok()
                .filter(|value| value.is_finite())
                .ok_or_else(|| format!("expected LOW..HIGH with two finite numbers, got '{text}'"))
        };
        let (low, high) = (number(low)?, number(high)?);
        if low >= high {
            return Err(format!("expected LOW below HIGH, got '{text}'"));
        }
        Ok(WindowFilter { low, high })
    }
}

/// Parses a positive finite number (a learning rate).
pub fn positive(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|value| value.is_finite() && *value > 0.0)
        .ok_or_else(|| format!("expected a positive number, got '{text}'"))
}

/// Draws of a window start that the filter may reject before training stops with an error.
const FILTER_ATTEMPTS: usize = 10_000;

/// Training settings; defaults are the authors' (`philly_train_v2.py` and its argument parser).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// Seed of everything random: weight initialisation, windows, action draws.
    pub seed: u64,
    /// PPO epochs (the paper: 100).
    pub epochs: usize,
    /// Episodes per epoch (`--trajs`, 100).
    pub trajectories: usize,
    /// Jobs per episode (`JOB_SEQUENCE_SIZE`, 256).
    pub window: usize,
    /// Episodes start below this job index (`--batch_job_slice`, 10000); the rest of the
    /// workload is held out for evaluation.
    pub batch_job_slice: usize,
    /// Discount (`--gamma`, 1).
    pub gamma: f64,
    /// GAE lambda (0.97).
    pub lambda: f64,
    /// PPO clip ratio (0.2).
    pub clip_ratio: f64,
    /// Policy learning rate (3e-4).
    pub pi_lr: f64,
    /// Value learning rate (1e-3).
    pub vf_lr: f64,
    /// Policy steps per epoch at most (80).
    pub pi_iters: usize,
    /// Value steps per epoch (80).
    pub v_iters: usize,
    /// Target KL; the policy stops once the KL exceeds 1.5 times this (0.01).
    pub target_kl: f64,
    /// Independent trainings, with seeds `seed`, `seed + 1`, ...; the one kept has the highest
    /// mean training reward over its last `selection_epochs` epochs (1: the authors' procedure,
    /// one run and its last weights).
    #[serde(default = "one")]
    pub candidates: usize,
    /// Epochs at the end of each candidate's learning curve that the selection averages (5).
    #[serde(default = "five")]
    pub selection_epochs: usize,
    /// What the agent lowers (the authors' `--score_type`; default bounded slowdown).
    #[serde(default)]
    pub objective: Objective,
    /// The authors' trajectory filter (`build_sjf`; off in their training scripts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<WindowFilter>,
    /// Normalise advantages with the mean and deviation of the decisions that had more than one
    /// job to choose from only. A single-choice decision's log-probability is 0 whatever the
    /// weights, so it adds nothing to the policy's gradient, but the authors' `PPOBuffer.get`
    /// counts it in the normalisation (false, their default).
    #[serde(default, skip_serializing_if = "is_false")]
    pub normalise_multi_choice: bool,
    /// Pool rules of the environment (see [`PoolRules`]).
    #[serde(skip)]
    pub rules: PoolRules,
}

fn is_false(value: &bool) -> bool {
    !*value
}

fn one() -> usize {
    1
}

fn five() -> usize {
    5
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            seed: 0,
            epochs: 100,
            trajectories: 100,
            window: 256,
            batch_job_slice: schedlab_rltune_env::TRAINING_JOBS,
            gamma: 1.0,
            lambda: 0.97,
            clip_ratio: 0.2,
            pi_lr: 3e-4,
            vf_lr: 1e-3,
            pi_iters: 80,
            v_iters: 80,
            target_kl: 0.01,
            candidates: 1,
            selection_epochs: 5,
            objective: Objective::Bsld,
            filter: None,
            normalise_multi_choice: false,
            rules: PoolRules::default(),
        }
    }
}

/// What one epoch did (the learning curve).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochLog {
    /// Epoch number, from 0.
    pub epoch: usize,
    /// Mean episode reward.
    pub mean_reward: f64,
    /// Mean score of the agent's episodes on the trained objective (its name keeps the first
    /// objective's, bounded slowdown, so that earlier manifests read the same).
    pub mean_rl_bsld: f64,
    /// Mean score of FCFS on the same windows.
    pub mean_base_bsld: f64,
    /// Decisions collected.
    pub steps: usize,
    /// Policy steps taken before the KL stop.
    pub pi_steps: usize,
    /// Approximate KL after the update.
    pub kl: f64,
    /// Value loss before the update.
    pub loss_v: f64,
}

/// Whether the window starting at `start` passes `filter` (SJF's bounded slowdown strictly inside
/// its bounds); `cache` keeps the scores already computed (SJF does not sample, so the seed is 0).
fn passes(
    env: &Environment<'_>,
    filter: &WindowFilter,
    config: &TrainConfig,
    start: usize,
    cache: &mut HashMap<usize, f64>,
) -> Result<bool, String> {
    let score = match cache.get(&start) {
        Some(&score) => score,
        None => {
            let (score, _) =
                env.run(Chooser::Order(Order::Sjf), config.rules, Objective::Bsld, (start, config.window), 0)?;
            cache.insert(start, score);
            score
        }
    };
    Ok(score > filter.low && score < filter.high)
}

/// Glorot-uniform weights and zero biases (TensorFlow 1's `tf.layers.dense` defaults).
pub fn glorot(widths: &[usize], rng: &mut ChaCha8Rng) -> Mlp {
    let mut mlp = Mlp::zeros(widths);
    for layer in &mut mlp.layers {
        let limit = (6.0 / (layer.inputs + layer.outputs) as f64).sqrt();
        for w in &mut layer.w {
            *w = ((rng.random::<f64>() * 2.0 - 1.0) * limit) as f32;
        }
    }
    mlp
}

/// Where an epoch's time went (for progress lines; not in the manifest, which stays a function
/// of the seed).
#[derive(Clone, Debug)]
pub struct EpochTiming {
    /// Seconds spent running the episodes and building the batch.
    pub rollouts: f64,
    /// Seconds spent in the PPO update.
    pub update: f64,
    /// Occupied queue slots per decision, on average.
    pub occupied_slots: f64,
}

/// Trains an agent; `progress` hears of every epoch. Returns the agent and its learning curve.
pub fn train(
    env: &Environment<'_>,
    config: &TrainConfig,
    mut progress: impl FnMut(&EpochLog, &EpochTiming),
) -> Result<(Agent, Vec<EpochLog>), String> {
    let slice = config.batch_job_slice.min(env.jobs.len());
    // The authors draw starts with np_random.randint(window, slice - window - 1).
    if slice < 2 * config.window + 2 {
        return Err(format!(
            "training needs at least {} jobs below batch_job_slice (2 windows of {} plus 2); the workload has {} and the slice is {}",
            2 * config.window + 2,
            config.window,
            env.jobs.len(),
            config.batch_job_slice
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let init = Agent {
        actor: glorot(&schedlab_policies_rltune::network::ACTOR_LAYERS, &mut rng),
        critic: glorot(&schedlab_policies_rltune::network::CRITIC_LAYERS, &mut rng),
    };
    let mut learner = Learner::new(&init);
    let mut agent = Arc::new(init);
    let mut curve = Vec::with_capacity(config.epochs);
    let mut filter_cache = HashMap::new();
    for epoch in 0..config.epochs {
        let rollouts_started = std::time::Instant::now();
        let mut draws: Vec<(usize, u64)> = Vec::with_capacity(config.trajectories);
        for _ in 0..config.trajectories {
            let mut start = rng.random_range(config.window..slice - config.window - 1);
            if let Some(filter) = &config.filter {
                let mut attempts = 1;
                while !passes(env, filter, config, start, &mut filter_cache)? {
                    if attempts == FILTER_ATTEMPTS {
                        return Err(format!(
                            "filter: none of {FILTER_ATTEMPTS} windows drawn had an SJF bounded slowdown strictly between {} and {}",
                            filter.low, filter.high
                        ));
                    }
                    start = rng.random_range(config.window..slice - config.window - 1);
                    attempts += 1;
                }
            }
            draws.push((start, rng.random::<u64>()));
        }
        let episodes: Vec<Episode> = draws
            .par_iter()
            .map(|&(start, seed)| env.episode(&agent, config.rules, config.objective, (start, config.window), seed))
            .collect::<Result<_, _>>()?;
        let batch = Batch::from_episodes(&episodes, &agent, config);
        let update_started = std::time::Instant::now();
        let stats = ppo_update(&mut learner, &batch, config);
        let timing = EpochTiming {
            rollouts: update_started.duration_since(rollouts_started).as_secs_f64(),
            update: update_started.elapsed().as_secs_f64(),
            occupied_slots: batch.occupied_slots() as f64 / batch.len().max(1) as f64,
        };
        agent = Arc::new(learner.export());
        let n = episodes.len() as f64;
        let log = EpochLog {
            epoch,
            mean_reward: episodes.iter().map(|e| e.reward).sum::<f64>() / n,
            mean_rl_bsld: episodes.iter().map(|e| e.rl_score).sum::<f64>() / n,
            mean_base_bsld: episodes.iter().map(|e| e.base_score).sum::<f64>() / n,
            steps: batch.len(),
            pi_steps: stats.pi_steps,
            kl: stats.kl,
            loss_v: stats.loss_v,
        };
        progress(&log, &timing);
        curve.push(log);
    }
    Ok((Arc::try_unwrap(agent).unwrap_or_else(|shared| (*shared).clone()), curve))
}

/// One of several independent trainings (see [`TrainConfig::candidates`]).
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Its seed.
    pub seed: u64,
    /// Its last epoch's weights.
    pub agent: Agent,
    /// Its learning curve.
    pub curve: Vec<EpochLog>,
}

impl Candidate {
    /// Mean training reward over the last `epochs` epochs (all of them when there are fewer).
    pub fn final_reward(&self, epochs: usize) -> f64 {
        let tail = &self.curve[self.curve.len().saturating_sub(epochs.max(1))..];
        tail.iter().map(|epoch| epoch.mean_reward).sum::<f64>() / tail.len().max(1) as f64
    }
}

/// Trains `config.candidates` agents with seeds `config.seed`, `config.seed + 1`, ... side by
/// side (each as [`train`] with its own seed, so each is the same on any number of threads) and
/// returns them all with the index of the one to keep: the highest mean training reward over the
/// last `config.selection_epochs` epochs, the lowest seed on a tie. Only training rewards enter
/// the choice; nothing held out does. `progress` hears of every epoch with the candidate's seed.
pub fn train_candidates(
    env: &Environment<'_>,
    config: &TrainConfig,
    progress: &(dyn Fn(u64, &EpochLog, &EpochTiming) + Sync),
) -> Result<(Vec<Candidate>, usize), String> {
    if config.candidates == 0 {
        return Err("candidates: expected at least 1 training, got 0".to_string());
    }
    let candidates: Vec<Candidate> = (0..config.candidates as u64)
        .into_par_iter()
        .map(|offset| {
            let seed = config.seed + offset;
            let config = TrainConfig { seed, ..config.clone() };
            let (agent, curve) = train(env, &config, |epoch, timing| progress(seed, epoch, timing))?;
            Ok(Candidate { seed, agent, curve })
        })
        .collect::<Result<_, String>>()?;
    let mut kept = 0;
    for (index, candidate) in candidates.iter().enumerate() {
        if candidate.final_reward(config.selection_epochs) > candidates[kept].final_reward(config.selection_epochs) {
            kept = index;
        }
    }
    Ok((candidates, kept))
}

/// Draws the learning curve to a PNG: each epoch's mean reward and its trailing mean over 5
/// epochs (a converged run levels off), and the trailing means of the other candidates of a
/// multi-seed training, if any, given as (seed, curve).
pub fn plot_learning_curve(
    curve: &[EpochLog],
    others: &[(u64, Vec<EpochLog>)],
    objective: Objective,
    path: &std::path::Path,
) -> Result<(), String> {
    let rewards: Vec<(f64, f64)> = curve.iter().map(|epoch| (epoch.epoch as f64, epoch.mean_reward)).collect();
    let trailing = |curve: &[EpochLog]| -> Vec<(f64, f64)> {
        (0..curve.len())
            .map(|index| {
                let window = &curve[index.saturating_sub(4)..=index];
                (
                    curve[index].epoch as f64,
                    window.iter().map(|epoch| epoch.mean_reward).sum::<f64>() / window.len() as f64,
                )
            })
            .collect()
    };
    let kept = if others.is_empty() { "" } else { "kept run: " };
    let mut lines =
        vec![(format!("{kept}per epoch"), rewards), (format!("{kept}mean of the last 5 epochs"), trailing(curve))];
    for (seed, other) in others {
        lines.push((format!("seed {seed} (not kept), mean of the last 5"), trailing(other)));
    }
    schedlab_experiment::plots::line_chart_png(
        path,
        &format!("RLTune training ({0}): reward (FCFS {0} - agent {0}) / max", objective.name()),
        "epoch",
        "mean episode reward",
        lines,
    )
}

/// Trains on the workload, cluster and perf model of an experiment spec (its first run) and
/// writes the weights to `out`, a manifest (spec, workload report, config, version, learning
/// curve; with several candidates, every candidate's curve and the one kept) beside it with
/// `.manifest.json` in place of `.json`, and the learning curve's plot (`.learning-curve.png`).
/// Progress lines go to `log`.
pub fn train_on_spec(
    spec_path: &std::path::Path,
    out: &std::path::Path,
    config: &TrainConfig,
    data: &schedlab_core::DataDir,
    log: &(dyn Fn(String) + Sync),
) -> Result<(), String> {
    if out.extension().and_then(|extension| extension.to_str()) != Some("json") {
        return Err(format!("{}: the weights file must end in .json", out.display()));
    }
    let text = std::fs::read_to_string(spec_path).map_err(|e| format!("{}: {e}", spec_path.display()))?;
    let experiment = schedlab_experiment::Experiment::from_text(&text, &spec_path.display().to_string(), data)
        .map_err(|e| e.to_string())?;
    let plan = experiment.runs().into_iter().next().ok_or("the spec has no runs")?;
    // The environment's rules come from the spec's policy, the FCFS baseline (`rltune-fcfs[...]`).
    let mut config = config.clone();
    config.rules = schedlab_policies_rltune::rules_of(&plan.policy.0)
        .map_err(|error| format!("{}: key 'policies': {error}", spec_path.display()))?;
    let config = &config;
    let workload = experiment.setup.workload(&experiment.inputs.workload, &plan).map_err(|e| e.to_string())?;
    let env = Environment {
        cluster: experiment.setup.cluster.clone(),
        jobs: &workload.jobs,
        perf: experiment.setup.perf.as_ref(),
    };
    let started = std::time::Instant::now();
    let seeds = if config.candidates > 1 {
        format!(
            "seeds {}..={} (keeping the best final training reward)",
            config.seed,
            config.seed + config.candidates as u64 - 1
        )
    } else {
        format!("seed {}", config.seed)
    };
    log(format!(
        "training on {} jobs of {} (episodes start below job {}) to lower {}: {} epochs x {} trajectories, {seeds}",
        workload.jobs.len(),
        spec_path.display(),
        config.batch_job_slice,
        config.objective.name(),
        config.epochs,
        config.trajectories,
    ));
    let several = config.candidates > 1;
    let (candidates, kept) = train_candidates(&env, config, &|seed, epoch, timing| {
        log(format!(
            "{}epoch {:>3}: reward {:+.4}  {} rl {:.3} fcfs {:.3}  steps {} ({:.1} jobs in view)  pi steps {}  kl {:.4}  (episodes {:.1} s, update {:.1} s; {:.0} s in all)",
            if several { format!("seed {seed} ") } else { String::new() },
            epoch.epoch,
            epoch.mean_reward,
            config.objective.name(),
            epoch.mean_rl_bsld,
            epoch.mean_base_bsld,
            epoch.steps,
            timing.occupied_slots,
            epoch.pi_steps,
            epoch.kl,
            timing.rollouts,
            timing.update,
            started.elapsed().as_secs_f64()
        ))
    })?;
    let chosen = &candidates[kept];
    std::fs::write(out, chosen.agent.to_json()).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut manifest = serde_json::json!({
        "spec": spec_path.display().to_string(),
        "workload": workload.report,
        "jobs": workload.jobs.len(),
        "config": config,
        "baseline": plan.policy.to_string(),
        "tool_version": env!("CARGO_PKG_VERSION"),
        "nn_library": "burn 0.22.1, Flex backend (one thread)",
        "learning_curve": chosen.curve,
    });
    if several {
        manifest["selection"] = serde_json::json!({
            "rule": format!(
                "the candidate with the highest mean training reward over its last {} epochs (ties: the lowest seed)",
                config.selection_epochs
            ),
            "kept_seed": chosen.seed,
            "candidates": candidates.iter().map(|candidate| serde_json::json!({
                "seed": candidate.seed,
                "final_mean_reward": candidate.final_reward(config.selection_epochs),
                "weights_sha256": schedlab_experiment::runner::sha256_hex(candidate.agent.to_json().as_bytes()),
                "learning_curve": candidate.curve,
            })).collect::<Vec<_>>(),
        });
        for candidate in &candidates {
            log(format!(
                "seed {}: mean reward of the last {} epochs {:+.4}{}",
                candidate.seed,
                config.selection_epochs,
                candidate.final_reward(config.selection_epochs),
                if candidate.seed == chosen.seed { " (kept)" } else { "" }
            ));
        }
    }
    let manifest_path = out.with_extension("manifest.json");
    std::fs::write(&manifest_path, serde_json::to_string_pretty(&manifest).expect("json") + "\n")
        .map_err(|e| format!("{}: {e}", manifest_path.display()))?;
    let png = out.with_extension("learning-curve.png");
    let others: Vec<(u64, Vec<EpochLog>)> = candidates
        .iter()
        .filter(|candidate| candidate.seed != chosen.seed)
        .map(|candidate| (candidate.seed, candidate.curve.clone()))
        .collect();
    plot_learning_curve(&chosen.curve, &others, config.objective, &png)?;
    log(format!(
        "wrote {}, {} and {} in {:.0} s",
        out.display(),
        manifest_path.display(),
        png.display(),
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

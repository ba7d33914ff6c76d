//! Trains DL2's policy network as the authors' `train.py` does, with one agent
//! (`NUM_AGENTS = 1`): first supervised on the increments DRF makes (cross-entropy, Adam 0.005,
//! a uniform memory of 8,192 samples, batches of 256, one update per slot once the memory is
//! full, the window's columns shuffled), then actor-critic (advantage `r - V(s)`, Adam 1e-4 for
//! both networks, entropy weight 0.1, the slot's reward copied to each of its decisions, a
//! memory of 8,192 prioritised by reward, one batch of 256 per slot) with the authors'
//! exploration rules (`rl_env.py`, `INJECT_SAMPLES`). Episodes run in schedlab's engine through
//! [`Dl2`]; validation runs the network as DL2 validates it (sampling, no exploration rules).
//!
//! Everything random comes from one seed, and the networks train on one thread, so a seed
//! gives the same weights byte for byte; validation runs in parallel with results kept in
//! trace order.

pub mod nets;
pub mod replay;
mod rl;
mod sl;

use rayon::prelude::*;
use schedlab_core::{ClusterSpec, GpuTypeId, JobSpec, Node};
use schedlab_dl2_speed::Dl2Speed;
use schedlab_policies_dl2::heuristics::Heuristic;
use schedlab_policies_dl2::network::PolicyNetwork;
use schedlab_policies_dl2::{Chooser, Dl2, SlotConfig};
use schedlab_sim::SimConfig;
use schedlab_trace::dl2::{CpuOnlyModels, Dl2Workload};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Training settings; defaults are the authors' (`parameters.py`), except the budgets.
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
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            seed: 0,
            sl_steps: 2_000,
            rl_steps: 10_000,
            train_traces: 100,
            validation_traces: 10,
            validation_interval: 500,
            jobs: 200,
            max_arrivals_per_slot: 10,
            nodes: 500,
            sl_learning_rate: 0.005,
            rl_learning_rate: 1e-4,
            entropy_weight: 0.1,
            memory: 8192,
            batch: 256,
            inject: true,
        }
    }
}

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
    /// The learning curve.
    pub curve: Vec<CurvePoint>,
    /// Training episodes run per phase.
    pub episodes: (usize, usize),
}

/// DL2's large-scale cluster: `nodes` nodes of 8 CPUs and 2 GPUs.
pub fn cluster(nodes: usize) -> Arc<ClusterSpec> {
    let nodes = (0..nodes)
        .map(|index| Node {
            name: format!("n{index}"),
            gpu_type: GpuTypeId(0),
            gpus: 2,
            cpus: Some(8.0),
            mem_gib: None,
            group: None,
        })
        .collect();
    Arc::new(ClusterSpec::new(vec!["gpu".into()], nodes).expect("a valid cluster"))
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

/// Mean validation JCT (slots) of the network, sampling as DL2 validates.
pub fn validate(
    network: &Arc<PolicyNetwork>,
    traces: &Traces,
    cluster: &Arc<ClusterSpec>,
    speeds: &Dl2Speed,
    seed: u64,
) -> Result<f64, String> {
    let jcts: Vec<f64> = traces
        .validation
        .par_iter()
        .enumerate()
        .map(|(index, jobs)| {
            let chooser = Chooser::Network { network: Arc::clone(network), sample: true };
            let mut policy = Dl2::new("dl2".into(), chooser, SlotConfig::default());
            run_episode(cluster, jobs, speeds, &mut policy, derive(seed, 3, index as u64))
        })
        .collect::<Result<_, _>>()?;
    Ok(jcts.iter().sum::<f64>() / jcts.len() as f64)
}

/// Mean validation JCT (slots) of a heuristic.
pub fn validate_heuristic(
    heuristic: &Heuristic,
    traces: &Traces,
    cluster: &Arc<ClusterSpec>,
    speeds: &Dl2Speed,
) -> Result<f64, String> {
    let jcts: Vec<f64> = traces
        .validation
        .par_iter()
        .map(|jobs| {
            let chooser = Chooser::Heuristic { heuristic: heuristic.clone(), recorder: None };
            let mut policy = Dl2::new("baseline".into(), chooser, SlotConfig::default());
            run_episode(cluster, jobs, speeds, &mut policy, 0)
        })
        .collect::<Result<_, _>>()?;
    Ok(jcts.iter().sum::<f64>() / jcts.len() as f64)
}

/// Trains: supervised warm-up, then reinforcement learning. `progress` hears each curve point
/// with the network validated there (the weights after exactly that many updates of the phase).
pub fn train(
    config: &TrainConfig,
    speeds: Arc<Dl2Speed>,
    progress: &dyn Fn(&CurvePoint, &PolicyNetwork),
) -> Result<Trained, String> {
    let traces = Traces::new(config)?;
    let cluster = cluster(config.nodes);
    let mut baselines = Vec::new();
    for (name, heuristic) in [
        ("dl2-drf", Heuristic::Drf),
        ("dl2-fifo", Heuristic::Fifo),
        ("dl2-srtf", Heuristic::Srtf),
        ("dl2-tetris", Heuristic::Tetris),
        ("dl2-optimus", Heuristic::Optimus(Arc::clone(&speeds))),
    ] {
        baselines.push((name.to_string(), validate_heuristic(&heuristic, &traces, &cluster, &speeds)?));
    }
    let mut curve = Vec::new();
    let (network, sl_episodes) = sl::train(config, &traces, &cluster, &speeds, &mut |point, network| {
        progress(&point, network);
        curve.push(point);
    })?;
    let (network, rl_episodes) = rl::train(config, network, &traces, &cluster, &speeds, &mut |point, network| {
        progress(&point, network);
        curve.push(point);
    })?;
    Ok(Trained { network, config: config.clone(), baselines, curve, episodes: (sl_episodes, rl_episodes) })
}

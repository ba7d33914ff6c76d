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
use schedlab_core::{ClusterSpec, JobSpec};
use schedlab_dl2_speed::Dl2Speed;
use schedlab_policies_dl2::heuristics::Heuristic;
use schedlab_policies_dl2::network::PolicyNetwork;
use schedlab_policies_dl2::{Chooser, Dl2, SlotConfig};
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
            epsilon_temperature: None,
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
    /// What the decisions of the training episodes since the last point were (reinforcement
    /// learning only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<ActionCounts>,
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
    /// The learning curve.
    pub curve: Vec<CurvePoint>,
    /// Training episodes run per phase.
    pub episodes: (usize, usize),
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
    if config.validation_interval == 0 || config.batch == 0 || config.batch > config.memory || config.nodes == 0 {
        return Err(format!(
            "validation_interval ({}), batch ({}) and nodes ({}) must be positive and batch at most memory ({})",
            config.validation_interval, config.batch, config.nodes, config.memory
        ));
    }
    if config.train_traces == 0 || config.validation_traces == 0 {
        return Err("train_traces and validation_traces must be positive".into());
    }
    let traces = Traces::new(config)?;
    let cluster = cluster(config.nodes);
    let mut baselines = Vec::new();
    for (name, heuristic) in [
        ("dl2-drf", Heuristic::Drf),
        ("dl2-fifo", Heuristic::Fifo),
        ("dl2-srtf", Heuristic::Srtf),
        ("dl2-tetris", Heuristic::Tetris),
        ("dl2-optimus", Heuristic::Optimus(Arc::clone(&speeds))),
        ("dl2-slot-greedy", Heuristic::SlotReward(Arc::clone(&speeds))),
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

/// Draws the learning curve to a PNG: validation JCT against updates (supervised updates first,
/// then reinforcement-learning updates after them), with DRF's and Optimus's JCT on the same
/// traces as levels, and the slot-reward greedy's (what DL2's reward asks for).
pub fn plot_learning_curve(trained: &Trained, path: &std::path::Path) -> Result<(), String> {
    let sl_steps = trained.curve.iter().filter(|point| point.phase == "sl").map(|point| point.step).max().unwrap_or(0);
    let x = |point: &CurvePoint| if point.phase == "sl" { point.step } else { sl_steps + point.step } as f64;
    let phase = |name: &str| -> Vec<(f64, f64)> {
        trained
            .curve
            .iter()
            .filter(|point| point.phase == name)
            .map(|point| (x(point), point.validation_jct_slots))
            .collect()
    };
    let end = trained.curve.iter().map(x).fold(0.0, f64::max);
    let mut lines = vec![
        ("supervised (DRF's increments)".to_string(), phase("sl")),
        ("reinforcement learning".to_string(), phase("rl")),
    ];
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

/// Trains and writes the weights to `out` (a `.json` file), the manifest beside it
/// (`.manifest.json`: data, seed, settings, budget, baselines, learning curve), the curve's plot
/// (`.learning-curve.png`), and the weights at every validation point in `<out stem>.checkpoints/`.
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
        log(format!(
            "[{:>7.1}s] {} step {:>6}: validation JCT {:.3} slots, loss {:.4}, reward {:.4}{actions}",
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
    let manifest = serde_json::json!({
        "what": "DL2's policy network (schedlab-dl2-train)",
        "data": {
            "speeds": "dl2/config_speed.txt",
            "workload": format!("DL2's generator (trace.py: Google-trace arrivals at most {} per slot, {} jobs, Normal lengths), {} training and {} validation traces from the seed", config.max_arrivals_per_slot, config.jobs, config.train_traces, config.validation_traces),
            "cluster": format!("{} nodes of 8 CPUs and 2 GPUs", config.nodes),
        },
        "config": trained.config,
        "episodes": {"supervised": trained.episodes.0, "reinforcement": trained.episodes.1},
        "validation_baselines_jct_slots": trained.baselines,
        "curve": trained.curve,
        "tool_version": env!("CARGO_PKG_VERSION"),
    });
    write(
        out.with_extension("manifest.json"),
        serde_json::to_string_pretty(&manifest).expect("serialises").as_bytes(),
    )?;
    plot_learning_curve(&trained, &out.with_extension("learning-curve.png"))?;
    log(format!("wrote {} in {:.0} s", out.display(), started.elapsed().as_secs_f64()));
    Ok(trained)
}

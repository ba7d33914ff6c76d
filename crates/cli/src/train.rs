//! `schedlab train rltune` and `schedlab train dl2`: the trainers of `schedlab-rltune-train` and
//! `schedlab-dl2-train`, behind the `train` feature
//! (it builds burn, about 5 minutes from cold, which the default build leaves out).

use crate::flags::{TrainDl2Args, TrainRltuneArgs};
use anyhow::Result;
use std::path::PathBuf;

/// A built-in RLTune training setting: what `--trace NAME` trains on and with what defaults.
struct Setting {
    /// The training spec.
    spec: PathBuf,
    /// Episodes start below this job index (its evaluation spec holds out the jobs after it).
    slice: usize,
    /// PPO epochs.
    epochs: usize,
    /// Independent trainings, the best final training reward kept.
    candidates: usize,
}

/// The built-in settings: Philly at the paper's budget, one run; Helios at 20 epochs, three seeds
/// (one Helios run of the authors' procedure can drift below FCFS: crates/policies/rltune/README.md).
fn builtin_setting(trace: &str) -> Result<Setting> {
    let spec = |name: &str| PathBuf::from(format!("crates/policies/rltune/weights/{name}-train.yaml"));
    match trace {
        "philly" => Ok(Setting { spec: spec("philly"), slice: 10_000, epochs: 100, candidates: 1 }),
        "helios" => Ok(Setting { spec: spec("helios"), slice: 4_864, epochs: 20, candidates: 3 }),
        other => anyhow::bail!(
            "--trace: no built-in RLTune training setting '{other}'; known: philly, helios (or give --spec FILE)"
        ),
    }
}

/// `schedlab train rltune`.
#[cfg(feature = "train")]
pub fn rltune(args: &TrainRltuneArgs) -> Result<()> {
    let defaults = schedlab_rltune_train::TrainConfig::default();
    let setting = match (&args.spec, &args.trace) {
        (Some(spec), _) => Setting {
            spec: spec.clone(),
            slice: defaults.batch_job_slice,
            epochs: defaults.epochs,
            candidates: defaults.candidates,
        },
        (None, Some(trace)) => builtin_setting(trace)?,
        (None, None) => anyhow::bail!("give --trace NAME or --spec FILE"),
    };
    let pi_lr = match &args.pi_lr {
        Some(text) => schedlab_rltune_train::positive(text).map_err(|e| anyhow::anyhow!("--pi-lr: {e}"))?,
        None => defaults.pi_lr,
    };
    let filter = args
        .filter
        .as_deref()
        .map(schedlab_rltune_train::WindowFilter::parse)
        .transpose()
        .map_err(|e| anyhow::anyhow!("--filter: {e}"))?;
    let lambda = match args.lambda {
        Some(lambda) if !(0.0..=1.0).contains(&lambda) => anyhow::bail!("--lambda {lambda}: expected 0 to 1"),
        Some(lambda) => lambda,
        None => defaults.lambda,
    };
    let config = schedlab_rltune_train::TrainConfig {
        seed: args.seed,
        lambda,
        epochs: args.epochs.unwrap_or(setting.epochs),
        trajectories: args.trajectories,
        batch_job_slice: args.slice.unwrap_or(setting.slice),
        candidates: args.candidates.unwrap_or(setting.candidates),
        objective: schedlab_rltune_train::Objective::parse(&args.objective).map_err(anyhow::Error::msg)?,
        pi_lr,
        filter,
        normalise_multi_choice: args.normalise_multi_choice,
        ..defaults
    };
    schedlab_rltune_train::train_on_spec(
        &setting.spec,
        &args.out,
        &config,
        &schedlab_core::DataDir::locate(),
        &|line| eprintln!("{line}"),
    )
    .map_err(anyhow::Error::msg)
}

/// `schedlab train rltune` in a build without the trainer: says how to get one.
#[cfg(not(feature = "train"))]
pub fn rltune(args: &TrainRltuneArgs) -> Result<()> {
    let would = match &args.trace {
        Some(trace) => {
            let setting = builtin_setting(trace)?;
            format!(
                " (it would train on {} with episodes below job {}: {} epochs, {} candidate run(s))",
                setting.spec.display(),
                setting.slice,
                args.epochs.unwrap_or(setting.epochs),
                args.candidates.unwrap_or(setting.candidates)
            )
        }
        None => String::new(),
    };
    anyhow::bail!(
        "this build has no trainer{would}; rebuild with it: `cargo run --release -p schedlab-cli --features train -- train rltune ...` (or use `just train-rltune`)"
    )
}

/// `schedlab train dl2`.
#[cfg(feature = "train")]
pub fn dl2(args: &TrainDl2Args) -> Result<()> {
    let config = if args.builtin {
        schedlab_dl2_train::TrainConfig { seed: args.seed, ..schedlab_dl2_train::TrainConfig::builtin() }
    } else {
        dl2_config(args)?
    };
    schedlab_dl2_train::train_to_file(&config, &args.out, &schedlab_core::DataDir::locate(), &|line| {
        eprintln!("{line}")
    })
    .map(|_| ())
    .map_err(anyhow::Error::msg)
}

/// The training settings the flags ask for.
#[cfg(feature = "train")]
fn dl2_config(args: &TrainDl2Args) -> Result<schedlab_dl2_train::TrainConfig> {
    Ok(schedlab_dl2_train::TrainConfig {
        seed: args.seed,
        sl_steps: args.sl_steps,
        rl_steps: args.rl_steps,
        validation_interval: args.validation_interval.max(1),
        inject: !args.no_inject,
        sl_shuffle: !args.no_sl_shuffle,
        epsilon_temperature: args.epsilon_temperature,
        normalise_inputs: args.normalise_inputs,
        teacher: kebab(&args.teacher)?,
        sl_mask_skip: args.sl_mask_skip,
        skip_prior: args.skip_prior,
        skip_prior_states: kebab(&args.skip_prior_states)?,
        reward: kebab(&args.reward)?,
        entropy: kebab(&args.entropy)?,
        critic_warmup: args.critic_warmup,
        updates_per_slot: args.updates_per_slot,
        sl_learning_rate: args.sl_learning_rate,
        rl_learning_rate: args.rl_learning_rate,
        entropy_weight: args.entropy_weight,
        train_traces: args.train_traces,
        validation_traces: args.validation_traces,
        jobs: args.jobs,
        nodes: args.nodes,
        memory: args.memory,
        sl_memory: args.sl_memory,
        sl_temperature: args.sl_temperature,
        sl_learning_rate_end: args.sl_learning_rate_end,
        sl_labels: kebab(&args.sl_labels)?,
        batch: args.batch,
        anchor_weight: args.anchor_weight,
        anchor_divergence: kebab(&args.anchor_divergence)?,
        ..Default::default()
    })
}

/// A kebab-case flag value as the trainer's enum (clap has checked it is one of them).
#[cfg(feature = "train")]
fn kebab<T: serde::de::DeserializeOwned>(value: &str) -> Result<T> {
    serde_json::from_value(serde_json::Value::String(value.to_string()))
        .map_err(|error| anyhow::anyhow!("'{value}': {error}"))
}

/// `schedlab train dl2` in a build without the trainer: says how to get one.
#[cfg(not(feature = "train"))]
pub fn dl2(_args: &TrainDl2Args) -> Result<()> {
    anyhow::bail!(
        "this build has no trainer; rebuild with it: `cargo run --release -p schedlab-cli --features train -- train dl2 --out FILE.json`"
    )
}

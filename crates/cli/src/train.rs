//! `schedlab train rltune` and `schedlab train dl2`: the trainers of `schedlab-rltune-train` and
//! `schedlab-dl2-train`, behind the `train` feature
//! (it builds burn, about 5 minutes from cold, which the default build leaves out).

use crate::flags::{TrainDl2Args, TrainRltuneArgs};
use anyhow::Result;
use std::path::PathBuf;

/// The training spec of a built-in setting (`--trace NAME`) and the job index below which its
/// episodes start (its evaluation spec holds out the jobs after it).
fn builtin_spec(trace: &str) -> Result<(PathBuf, usize)> {
    match trace {
        "philly" => Ok((PathBuf::from("crates/policies/rltune/weights/philly-train.yaml"), 10_000)),
        "helios" => Ok((PathBuf::from("crates/policies/rltune/weights/helios-train.yaml"), 4_864)),
        other => anyhow::bail!(
            "--trace: no built-in RLTune training setting '{other}'; known: philly, helios (or give --spec FILE)"
        ),
    }
}

/// `schedlab train rltune`.
#[cfg(feature = "train")]
pub fn rltune(args: &TrainRltuneArgs) -> Result<()> {
    let (spec, slice) = match (&args.spec, &args.trace) {
        (Some(spec), _) => (spec.clone(), schedlab_rltune_train::TrainConfig::default().batch_job_slice),
        (None, Some(trace)) => builtin_spec(trace)?,
        (None, None) => anyhow::bail!("give --trace NAME or --spec FILE"),
    };
    let config = schedlab_rltune_train::TrainConfig {
        seed: args.seed,
        epochs: args.epochs,
        trajectories: args.trajectories,
        batch_job_slice: args.slice.unwrap_or(slice),
        ..Default::default()
    };
    schedlab_rltune_train::train_on_spec(&spec, &args.out, &config, &schedlab_core::DataDir::locate(), &mut |line| {
        eprintln!("{line}")
    })
    .map_err(anyhow::Error::msg)
}

/// `schedlab train rltune` in a build without the trainer: says how to get one.
#[cfg(not(feature = "train"))]
pub fn rltune(args: &TrainRltuneArgs) -> Result<()> {
    if let Some(trace) = &args.trace {
        builtin_spec(trace)?;
    }
    anyhow::bail!(
        "this build has no trainer; rebuild with it: `cargo run --release -p schedlab-cli --features train -- train rltune ...` (or use `just train-rltune`)"
    )
}

/// `schedlab train dl2`.
#[cfg(feature = "train")]
pub fn dl2(args: &TrainDl2Args) -> Result<()> {
    let config = schedlab_dl2_train::TrainConfig {
        seed: args.seed,
        sl_steps: args.sl_steps,
        rl_steps: args.rl_steps,
        validation_interval: args.validation_interval.max(1),
        inject: !args.no_inject,
        epsilon_temperature: args.epsilon_temperature,
        ..Default::default()
    };
    schedlab_dl2_train::train_to_file(&config, &args.out, &schedlab_core::DataDir::locate(), &|line| {
        eprintln!("{line}")
    })
    .map(|_| ())
    .map_err(anyhow::Error::msg)
}

/// `schedlab train dl2` in a build without the trainer: says how to get one.
#[cfg(not(feature = "train"))]
pub fn dl2(_args: &TrainDl2Args) -> Result<()> {
    anyhow::bail!(
        "this build has no trainer; rebuild with it: `cargo run --release -p schedlab-cli --features train -- train dl2 --out FILE.json`"
    )
}

//! `dl2-train`: trains DL2's policy network (what `schedlab train dl2` runs).
//!
//! Usage: `dl2-train OUT.json [--builtin] [--seed N] [--sl-steps N] [--rl-steps N] [--validation-interval N] [--no-inject] [--epsilon-temperature T]`
//! (`--builtin`: the built-in weights' settings, `TrainConfig::builtin`; flags after it change
//! them; `schedlab train dl2` has every setting as a flag).

use schedlab_dl2_train::{TrainConfig, train_to_file};
use std::path::PathBuf;

fn main() {
    if let Err(message) = run() {
        eprintln!("error: {message}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let usage = "usage: dl2-train OUT.json [--builtin] [--seed N] [--sl-steps N] [--rl-steps N] [--validation-interval N] [--no-inject] [--epsilon-temperature T]";
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().ok_or(usage)?);
    let mut config = TrainConfig::default();
    while let Some(flag) = args.next() {
        if flag == "--no-inject" {
            config.inject = false;
            continue;
        }
        if flag == "--builtin" {
            config = TrainConfig { seed: config.seed, ..TrainConfig::builtin() };
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value; {usage}"))?;
        let number =
            |value: &str| value.parse::<usize>().map_err(|_| format!("{flag}: expected a whole number, got '{value}'"));
        match flag.as_str() {
            "--seed" => config.seed = number(&value)? as u64,
            "--sl-steps" => config.sl_steps = number(&value)?,
            "--rl-steps" => config.rl_steps = number(&value)?,
            "--validation-interval" => config.validation_interval = number(&value)?.max(1),
            "--epsilon-temperature" => {
                config.epsilon_temperature = Some(
                    value
                        .parse::<f64>()
                        .ok()
                        .filter(|t| t.is_finite() && *t > 0.0)
                        .ok_or_else(|| format!("{flag}: expected a positive number, got '{value}'"))?,
                )
            }
            _ => return Err(format!("unknown option {flag}; {usage}")),
        }
    }
    train_to_file(&config, &out, &schedlab_core::DataDir::locate(), &|line| eprintln!("{line}")).map(|_| ())
}

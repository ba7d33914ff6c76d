//! `rltune-train SPEC OUT [--seed N] [--epochs N] [--trajectories N] [--slice N] [--candidates N]
//! [--objective bsld|wait|turnaround|utilization] [--pi-lr X] [--filter LOW..HIGH]
//! [--normalise-multi-choice true|false]`:
//! trains RLTune's agent (with `--candidates N`, N seeds from `--seed` on, keeping the best final
//! training reward) on the workload, cluster and perf model of an experiment spec (its first run) and
//! writes the weights to `OUT` and a manifest (trace, seed, budget, version, learning curve) to
//! `OUT` with `.manifest.json` in place of `.json`, and the learning curve's plot beside them
//! (`.learning-curve.png`). `rltune-train --plot MANIFEST OUT.png` redraws a manifest's curve.

use schedlab_core::DataDir;
use schedlab_rltune_train::{EpochLog, Objective, TrainConfig, WindowFilter, plot_learning_curve, train_on_spec};
use std::path::PathBuf;

/// A candidate's curve in a multi-seed manifest.
#[derive(serde::Deserialize)]
struct CandidateCurve {
    seed: u64,
    learning_curve: Vec<EpochLog>,
}

fn main() {
    if let Err(error) = run() {
        eprintln!("rltune-train: {error}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: rltune-train SPEC OUT.json [--seed N] [--epochs N] [--trajectories N] [--slice N] [--candidates N] [--objective bsld|wait|turnaround|utilization] [--pi-lr X] [--filter LOW..HIGH] [--normalise-multi-choice true|false]\n       rltune-train --plot MANIFEST.json OUT.png";
    let first = args.next().ok_or(usage)?;
    if first == "--plot" {
        let manifest = PathBuf::from(args.next().ok_or(usage)?);
        let png = PathBuf::from(args.next().ok_or(usage)?);
        let text = std::fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", manifest.display()))?;
        let curve: Vec<EpochLog> = serde_json::from_value(value["learning_curve"].clone())
            .map_err(|e| format!("{}: key 'learning_curve': {e}", manifest.display()))?;
        let others: Vec<(u64, Vec<EpochLog>)> = match value.pointer("/selection/candidates") {
            Some(candidates) => serde_json::from_value::<Vec<CandidateCurve>>(candidates.clone())
                .map_err(|e| format!("{}: key 'selection.candidates': {e}", manifest.display()))?
                .into_iter()
                .filter(|candidate| {
                    Some(candidate.seed) != value.pointer("/selection/kept_seed").and_then(|seed| seed.as_u64())
                })
                .map(|candidate| (candidate.seed, candidate.learning_curve))
                .collect(),
            None => Vec::new(),
        };
        let objective = match value.pointer("/config/objective").and_then(|objective| objective.as_str()) {
            Some(name) => {
                Objective::parse(name).map_err(|e| format!("{}: key 'config.objective': {e}", manifest.display()))?
            }
            None => Objective::Bsld,
        };
        return plot_learning_curve(&curve, &others, objective, &png);
    }
    let spec_path = PathBuf::from(first);
    let out = PathBuf::from(args.next().ok_or(usage)?);
    let mut config = TrainConfig::default();
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value; {usage}"))?;
        let number =
            |what: &str| value.parse::<u64>().map_err(|_| format!("{what}: expected a whole number, got '{value}'"));
        match flag.as_str() {
            "--seed" => config.seed = number("--seed")?,
            "--epochs" => config.epochs = number("--epochs")? as usize,
            "--trajectories" => config.trajectories = number("--trajectories")? as usize,
            "--slice" => config.batch_job_slice = number("--slice")? as usize,
            "--candidates" => config.candidates = number("--candidates")? as usize,
            "--objective" => config.objective = Objective::parse(&value).map_err(|e| format!("--objective: {e}"))?,
            "--pi-lr" => config.pi_lr = schedlab_rltune_train::positive(&value).map_err(|e| format!("--pi-lr: {e}"))?,
            "--filter" => config.filter = Some(WindowFilter::parse(&value).map_err(|e| format!("--filter: {e}"))?),
            "--normalise-multi-choice" => {
                config.normalise_multi_choice = value
                    .parse()
                    .map_err(|_| format!("--normalise-multi-choice: expected true or false, got '{value}'"))?
            }
            _ => return Err(format!("unknown flag {flag}; {usage}")),
        }
    }
    train_on_spec(&spec_path, &out, &config, &DataDir::locate(), &|line| eprintln!("{line}"))
}

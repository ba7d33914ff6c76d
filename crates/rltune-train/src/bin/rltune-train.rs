//! `rltune-train SPEC OUT [--seed N] [--epochs N] [--trajectories N] [--slice N]`: trains RLTune's
//! agent on the workload, cluster and perf model of an experiment spec (its first run) and
//! writes the weights to `OUT` and a manifest (trace, seed, budget, version, learning curve) to
//! `OUT` with `.manifest.json` in place of `.json`, and the learning curve's plot beside them
//! (`.learning-curve.png`). `rltune-train --plot MANIFEST OUT.png` redraws a manifest's curve.

use schedlab_core::DataDir;
use schedlab_experiment::Experiment;
use schedlab_rltune_train::{Environment, EpochLog, TrainConfig, plot_learning_curve, train};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    if let Err(error) = run() {
        eprintln!("rltune-train: {error}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: rltune-train SPEC OUT.json [--seed N] [--epochs N] [--trajectories N] [--slice N]\n       rltune-train --plot MANIFEST.json OUT.png";
    let first = args.next().ok_or(usage)?;
    if first == "--plot" {
        let manifest = PathBuf::from(args.next().ok_or(usage)?);
        let png = PathBuf::from(args.next().ok_or(usage)?);
        let text = std::fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", manifest.display()))?;
        let curve: Vec<EpochLog> = serde_json::from_value(value["learning_curve"].clone())
            .map_err(|e| format!("{}: key 'learning_curve': {e}", manifest.display()))?;
        return plot_learning_curve(&curve, &png);
    }
    let spec_path = PathBuf::from(first);
    let out = PathBuf::from(args.next().ok_or(usage)?);
    if out.extension().and_then(|e| e.to_str()) != Some("json") {
        return Err(format!("{}: the weights file must end in .json", out.display()));
    }
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
            _ => return Err(format!("unknown flag {flag}; {usage}")),
        }
    }
    let text = std::fs::read_to_string(&spec_path).map_err(|e| format!("{}: {e}", spec_path.display()))?;
    let data = DataDir::locate();
    let experiment =
        Experiment::from_text(&text, &spec_path.display().to_string(), &data).map_err(|e| e.to_string())?;
    let plan = experiment.runs().into_iter().next().ok_or("the spec has no runs")?;
    let workload = experiment.setup.workload(&experiment.inputs.workload, &plan).map_err(|e| e.to_string())?;
    let env = Environment {
        cluster: experiment.setup.cluster.clone(),
        jobs: &workload.jobs,
        perf: experiment.setup.perf.as_ref(),
    };
    let started = Instant::now();
    eprintln!(
        "training on {} jobs of {} (episodes start below job {}): {} epochs x {} trajectories, seed {}",
        workload.jobs.len(),
        spec_path.display(),
        config.batch_job_slice,
        config.epochs,
        config.trajectories,
        config.seed
    );
    let (agent, curve) = train(&env, &config, |epoch| {
        eprintln!(
            "epoch {:>3}: reward {:+.4}  bsld rl {:.3} fcfs {:.3}  steps {}  pi steps {}  kl {:.4}  ({:.0} s)",
            epoch.epoch,
            epoch.mean_reward,
            epoch.mean_rl_bsld,
            epoch.mean_base_bsld,
            epoch.steps,
            epoch.pi_steps,
            epoch.kl,
            started.elapsed().as_secs_f64()
        );
    })?;
    let weights = agent.to_json();
    std::fs::write(&out, &weights).map_err(|e| format!("{}: {e}", out.display()))?;
    let manifest = serde_json::json!({
        "spec": spec_path.display().to_string(),
        "workload": workload.report,
        "jobs": workload.jobs.len(),
        "config": config,
        "tool_version": env!("CARGO_PKG_VERSION"),
        "nn_library": "burn 0.22.1, Flex backend (one thread)",
        "learning_curve": curve,
    });
    let manifest_path = out.with_extension("manifest.json");
    std::fs::write(&manifest_path, serde_json::to_string_pretty(&manifest).expect("json") + "\n")
        .map_err(|e| format!("{}: {e}", manifest_path.display()))?;
    let png = out.with_extension("learning-curve.png");
    plot_learning_curve(&curve, &png)?;
    eprintln!(
        "wrote {}, {} and {} in {:.0} s",
        out.display(),
        manifest_path.display(),
        png.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

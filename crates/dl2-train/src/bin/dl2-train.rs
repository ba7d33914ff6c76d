//! `dl2-train`: trains DL2's policy network and writes weights, a manifest and the learning curve.
//!
//! Usage: `dl2-train OUT_DIR [--seed N] [--sl-steps N] [--rl-steps N] [--validation-interval N]`

use schedlab_dl2_train::{TrainConfig, train};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    if let Err(message) = run() {
        eprintln!("error: {message}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(
        args.next()
            .ok_or("usage: dl2-train OUT_DIR [--seed N] [--sl-steps N] [--rl-steps N] [--validation-interval N]")?,
    );
    let mut config = TrainConfig::default();
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number =
            |value: &str| value.parse::<usize>().map_err(|_| format!("{flag}: expected a whole number, got '{value}'"));
        match flag.as_str() {
            "--seed" => config.seed = number(&value)? as u64,
            "--sl-steps" => config.sl_steps = number(&value)?,
            "--rl-steps" => config.rl_steps = number(&value)?,
            "--validation-interval" => config.validation_interval = number(&value)?.max(1),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let data = schedlab_core::DataDir::locate();
    let path = data.file("dl2/config_speed.txt").map_err(|error| error.to_string())?;
    let speeds = Arc::new(schedlab_dl2_speed::Dl2Speed::load(&path).map_err(|error| error.to_string())?);
    let started = Instant::now();
    let checkpoints = out.join("checkpoints");
    std::fs::create_dir_all(&checkpoints).map_err(|error| format!("{}: {error}", checkpoints.display()))?;
    let trained = train(&config, speeds, &|point, network| {
        let file = checkpoints.join(format!("{}-{}.json", point.phase, point.step));
        if let Err(error) = std::fs::write(&file, serde_json::to_string(network).expect("weights serialise")) {
            eprintln!("warning: {}: {error}", file.display());
        }
        eprintln!(
            "[{:>7.1}s] {} step {:>6}: validation JCT {:.3} slots, loss {:.4}, reward {:.4}",
            started.elapsed().as_secs_f64(),
            point.phase,
            point.step,
            point.validation_jct_slots,
            point.loss,
            point.reward
        );
    })?;
    let weights = serde_json::to_string(&trained.network).expect("weights serialise");
    std::fs::write(out.join("dl2.json"), weights).map_err(|error| error.to_string())?;
    let manifest = serde_json::json!({
        "what": "DL2 policy network (schedlab-dl2-train)",
        "data": "DL2 generator (trace.py: Google-trace arrivals, 10 per slot at most, 200 jobs, Normal lengths), dl2/config_speed.txt",
        "config": trained.config,
        "episodes": {"supervised": trained.episodes.0, "reinforcement": trained.episodes.1},
        "validation_baselines_jct_slots": trained.baselines,
        "curve": trained.curve,
        "wall_time_s": started.elapsed().as_secs_f64(),
    });
    std::fs::write(out.join("dl2.manifest.json"), serde_json::to_string_pretty(&manifest).expect("serialises"))
        .map_err(|error| error.to_string())?;
    eprintln!("wrote {}", out.join("dl2.json").display());
    Ok(())
}

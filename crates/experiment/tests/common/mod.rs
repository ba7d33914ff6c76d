//! Helpers shared by the tests.

use schedlab_core::DataDir;
use schedlab_experiment::runner::ExperimentResult;
use schedlab_experiment::{Experiment, ExperimentError, RunOptions, no_progress, run_experiment};
use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh, empty temporary folder for one test.
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("schedlab-experiment-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The stored run files of experiment `name` under `results`, sorted (not the store's lock files).
pub fn stored_runs(results: &Path, name: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(results.join(name).join("runs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .collect();
    files.sort();
    files
}

/// Parses and resolves a spec from text, with the data directory if there is one.
pub fn parse(text: &str) -> Result<Experiment, ExperimentError> {
    Experiment::from_text(text, "spec.yaml", &DataDir::locate_from(&root()))
}

/// Runs a spec into `results`, quietly, with the data directory if there is one.
pub fn run(text: &str, results: &Path, threads: usize) -> Result<ExperimentResult, ExperimentError> {
    let experiment = parse(text)?;
    let options = RunOptions { threads, results_dir: results.to_path_buf(), ..RunOptions::default() };
    run_experiment(&experiment, &options, &no_progress)
}

/// A small spec with two policies, two seeds and a two-point sweep.
pub const SMALL: &str = "name: small
workload:
  generator:
    gavel-continuous: {jobs: 60, rate_per_hour: 0.5, multi_gpu: true}
cluster:
  compact: {gpus: {v100: 8, k80: 8}, gpus_per_node: 4}
policies: [fifo, las, srtf]
seeds: [0, 1]
sweep:
  rate_per_hour: [0.5, 1.0]
tables:
  - {name: avg_jct, metric: avg_jct_hours, rows: policy, columns: rate_per_hour}
plots:
  - jct_cdf
  - {metric_vs_axis: {metric: avg_jct_hours, axis: rate_per_hour}}
";

//! Helpers shared by the tests.

use schedlab_experiment::prepare::SpecSource;
use schedlab_experiment::runner::ExperimentResult;
use schedlab_experiment::{ExperimentError, ExperimentSpec, RunOptions, run_experiment};
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

/// Parses a spec from text.
pub fn parse(text: &str) -> Result<ExperimentSpec, ExperimentError> {
    ExperimentSpec::parse(text, "spec.yaml")
}

/// Runs a spec into `results`, quietly, with the data directory if there is one.
pub fn run(text: &str, results: &Path, threads: usize) -> Result<ExperimentResult, ExperimentError> {
    let spec = parse(text)?;
    let options = RunOptions {
        threads,
        quiet: true,
        results_dir: results.to_path_buf(),
        data_dir: schedlab_core::DataDir::locate_from(&root()),
        source: SpecSource { origin: "spec.yaml".into(), text: text.into() },
        ..RunOptions::default()
    };
    run_experiment(&spec, &options)
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

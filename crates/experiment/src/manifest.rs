//! `manifest.json`: what an experiment's results were made from and how long they took.

use serde::Serialize;

/// The git revision of the working directory's checkout (`git rev-parse HEAD`), if there is one
/// and git runs.
pub fn git_revision() -> Option<String> {
    let output = std::process::Command::new("git").args(["rev-parse", "HEAD"]).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// What the manifest records.
#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    /// Experiment name.
    pub experiment: String,
    /// SHA-256 of everything results depend on.
    pub spec_hash: String,
    /// schedlab's version.
    pub tool_version: String,
    /// Git revision of the checkout, if known.
    pub git_revision: Option<String>,
    /// GPU type names, the order of per-type metrics.
    pub gpu_types: Vec<String>,
    /// `(data file, sha256)`.
    pub data_files: Vec<(String, String)>,
    /// Data files whose SHA-256 differs from the recorded one (`traces/sources.json`), each
    /// with both checksums.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub data_modified: Vec<String>,
    /// `(data file, sha256)` read by each policy that reads files (part of its runs' hashes).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub policy_files: std::collections::BTreeMap<String, Vec<(String, String)>>,
    /// The full name of each policy whose name as given leaves out a pinned value, such as the
    /// digest of built-in weights (`rltune` runs as `rltune[weights=philly@a31aa087]`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub pinned_names: std::collections::BTreeMap<String, String>,
    /// Where the ground-truth perf model extrapolates rather than reports a measurement
    /// (`PerfModel::exceptions`: DL2's speeds beyond the measured worker counts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub perf_exceptions: Vec<String>,
    /// How each workload was made: those built in this invocation, and for reused runs, whose
    /// workloads are not built again, as the last manifest of the same inputs recorded them.
    pub workload_report: Vec<(String, Vec<String>)>,
    /// Wall-clock seconds per run.
    pub wall_time_s: Vec<(String, f64)>,
    /// LP solver statistics per run, for runs whose policy has a solver.
    #[serde(default)]
    pub solver: Vec<(String, schedlab_core::SolverStats)>,
}

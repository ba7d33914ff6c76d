//! The result store: one JSON file per finished run, written atomically, so a crash or Ctrl-C
//! loses nothing already computed and the next invocation resumes.

use crate::ExperimentError;
use schedlab_sim::RunMetrics;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The layout of stored runs; runs stored with another layout are run again.
pub const STORE_FORMAT: u32 = 4;

/// What is kept of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunOutcome {
    /// The store layout this outcome was written with ([`STORE_FORMAT`]; absent means 1).
    #[serde(default = "first_format")]
    pub format: u32,
    /// The run key.
    pub key: String,
    /// The policy's canonical name.
    pub policy: String,
    /// The spec seed.
    pub seed: u64,
    /// Sweep axis values.
    pub point: Vec<(String, f64)>,
    /// Hash of everything the result depends on; a stored run with another hash is rerun.
    pub content_hash: String,
    /// Metrics over the measurement window.
    pub metrics: RunMetrics,
    /// `(job id, JCT in seconds)` of the finished measured jobs, by id.
    pub jct_by_job: Vec<(u32, f64)>,
    /// Busy GPUs (all types) over time as `(hours, GPUs)`, at most ~1000 points.
    pub busy: Vec<(f64, u32)>,
    /// Wall-clock seconds the run took (reported in the manifest only).
    pub wall_time_s: f64,
    /// What the policy's LP solver did (manifest only: timings are not deterministic).
    #[serde(default)]
    pub solver: Option<schedlab_core::SolverStats>,
    /// What the policy reported of the run ([`schedlab_core::Policy::report`]; absent when
    /// nothing): reports and plots only, never a metric.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy_report: Option<schedlab_core::PolicyReport>,
    /// Allocations over time of the jobs `job_timeline` plots show (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allocations: Vec<schedlab_sim::JobTimeline>,
}

fn first_format() -> u32 {
    1
}

impl RunOutcome {
    /// The JCTs (seconds) of the finished measured jobs, ascending.
    pub fn sorted_jcts(&self) -> Vec<f64> {
        let mut jcts: Vec<f64> = self.jct_by_job.iter().map(|(_, jct)| *jct).collect();
        jcts.sort_by(f64::total_cmp);
        jcts
    }
}

/// Most characters of a run key kept in its file name.
const MAX_READABLE: usize = 160;

/// The folder `results/<experiment>/`.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

fn io_error(path: &Path, error: impl std::fmt::Display) -> ExperimentError {
    ExperimentError::Io { path: path.display().to_string(), message: error.to_string() }
}

impl Store {
    /// Opens (and creates) the store at `dir`.
    pub fn open(dir: &Path) -> Result<Store, ExperimentError> {
        std::fs::create_dir_all(dir.join("runs")).map_err(|error| io_error(dir, error))?;
        Ok(Store { dir: dir.to_path_buf() })
    }

    /// Returns the folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn run_path(&self, key: &str) -> PathBuf {
        // The key, made safe and cut to fit a file name (255 bytes): the hash tells runs apart.
        let readable: String = key
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || "=.-_".contains(c) { c } else { '_' })
            .take(MAX_READABLE)
            .collect();
        let hash = crate::plan::stable_hash(&[key]);
        self.dir.join("runs").join(format!("{readable}-{:08x}.json", hash as u32))
    }

    /// Returns the stored outcome of `key` if it exists and has `content_hash`.
    pub fn load(&self, key: &str, content_hash: &str) -> Option<RunOutcome> {
        self.stored(key).filter(|outcome| outcome.content_hash == content_hash && outcome.format == STORE_FORMAT)
    }

    /// Returns whatever outcome is stored for `key`, of any inputs (its wall time still says
    /// roughly how long the run takes).
    pub fn stored(&self, key: &str) -> Option<RunOutcome> {
        let text = std::fs::read_to_string(self.run_path(key)).ok()?;
        let outcome: RunOutcome = serde_json::from_str(&text).ok()?;
        (outcome.key == key).then_some(outcome)
    }

    /// The stores of the other experiments in the same results folder (every sibling folder
    /// with a `runs/` folder), in name order.
    pub fn siblings(&self) -> Vec<Store> {
        let Some(parent) = self.dir.parent() else { return Vec::new() };
        let Ok(entries) = std::fs::read_dir(parent) else { return Vec::new() };
        let own = self.dir.file_name();
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.file_name() != own && path.join("runs").is_dir())
            .collect();
        dirs.sort();
        dirs.into_iter().map(|dir| Store { dir }).collect()
    }

    /// Stores an outcome atomically.
    pub fn save(&self, outcome: &RunOutcome) -> Result<(), ExperimentError> {
        let text = serde_json::to_string(outcome).expect("outcomes serialise");
        self.write_atomic(&self.run_path(&outcome.key), text.as_bytes())
    }

    /// Writes `name` inside the store atomically (temporary file, then rename).
    pub fn write(&self, name: &str, contents: &[u8]) -> Result<(), ExperimentError> {
        self.write_atomic(&self.dir.join(name), contents)
    }

    fn write_atomic(&self, path: &Path, contents: &[u8]) -> Result<(), ExperimentError> {
        write_atomically(path, contents)
    }
}

/// Writes a file atomically: a temporary file beside it, then a rename. A failed write or
/// rename (a full disk, say) leaves no temporary file behind.
pub(crate) fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), ExperimentError> {
    let file_name = path.file_name().and_then(|name| name.to_str()).unwrap_or("file");
    let temporary = path.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    let result = std::fs::write(&temporary, contents)
        .map_err(|error| io_error(&temporary, error))
        .and_then(|()| std::fs::rename(&temporary, path).map_err(|error| io_error(path, error)));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_with_a_very_long_key_is_stored_and_found() {
        let dir = std::env::temp_dir().join(format!("schedlab-store-{}", std::process::id()));
        let store = Store::open(&dir).unwrap();
        // A sweep value of 1e300 written out in full makes a key far longer than a file name.
        let key = format!("policy=fifo;rate_per_hour={};seed=0", "1".repeat(400));
        let outcome = RunOutcome {
            format: STORE_FORMAT,
            key: key.clone(),
            policy: "fifo".into(),
            seed: 0,
            point: Vec::new(),
            content_hash: "h".into(),
            metrics: RunMetrics::default(),
            jct_by_job: Vec::new(),
            busy: Vec::new(),
            wall_time_s: 0.0,
            solver: None,
            policy_report: None,
            allocations: Vec::new(),
        };
        store.save(&outcome).unwrap();
        assert_eq!(store.load(&key, "h"), Some(outcome));
        // Keys alike in their first characters are different files.
        assert_eq!(store.load(&format!("{key}x"), "h"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("schedlab-store-failed-{}", std::process::id()));
        let store = Store::open(&dir).unwrap();
        // Renaming over a non-empty folder fails after the temporary file was written.
        std::fs::create_dir_all(dir.join("table.csv/inside")).unwrap();
        let error = store.write("table.csv", b"a,b\n").unwrap_err().to_string();
        assert!(error.contains("table.csv"), "{error}");
        let left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! A run's identity: the hash of everything its result depends on (the run inputs, the data
//! files' SHA-256s, the tool version, the run's key, the files its policy reads and the digest
//! of built-in weights), so a stored run is reused exactly when it would come out the same.

use crate::plan::RunPlan;
use crate::prepare::Setup;
use crate::resolve::Experiment;
use crate::store::RunOutcome;
use crate::{ExperimentError, report};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Returns the SHA-256 of the file at `path`, reading it once per experiment.
fn file_sha256(known: &mut BTreeMap<PathBuf, String>, path: &Path) -> Result<String, ExperimentError> {
    if let Some(hash) = known.get(path) {
        return Ok(hash.clone());
    }
    let bytes = std::fs::read(path).map_err(|error| ExperimentError::Data(format!("{}: {error}", path.display())))?;
    let hash = sha256_hex(&bytes);
    known.insert(path.to_path_buf(), hash.clone());
    Ok(hash)
}

/// The SHA-256 of each data file the experiment reads, as `(path in the data directory, hex)`.
pub fn data_file_hashes(setup: &Setup) -> Result<Vec<(String, String)>, ExperimentError> {
    let mut known = BTreeMap::new();
    setup.data_files.iter().map(|(name, path)| Ok((name.clone(), file_sha256(&mut known, path)?))).collect()
}

/// The files of `hashes` whose SHA-256 differs from the one `known` records, each as
/// `PATH: SHA-256 FOUND, recorded KNOWN` (files `known` does not list are not compared).
pub fn modified_data_files(hashes: &[(String, String)], known: &BTreeMap<String, String>) -> Vec<String> {
    hashes
        .iter()
        .filter_map(|(path, sha)| {
            let recorded = known.get(path)?;
            (recorded != sha).then(|| format!("{path}: SHA-256 {sha}, recorded {recorded}"))
        })
        .collect()
}

/// What every run's identity is computed from, and what the manifest records of the inputs.
pub(crate) struct Identity {
    /// SHA-256 of the run inputs, the data and the tool version.
    pub(crate) spec_hash: String,
    /// `(data file, sha256)`.
    data_hashes: Vec<(String, String)>,
    /// Data files whose checksum differs from the recorded one.
    data_modified: Vec<String>,
    /// The files each policy reads, with their SHA-256s.
    policy_hashes: BTreeMap<String, Vec<(String, String)>>,
}

impl Identity {
    /// Hashes the data and policy files (refusing modified data when strict, else warning).
    /// `known` holds the recorded SHA-256s; a data file that differs fails when `strict`, else
    /// is passed to `warn`.
    pub(crate) fn new(
        experiment: &Experiment,
        known: &BTreeMap<String, String>,
        strict: bool,
        warn: &dyn Fn(&str),
    ) -> Result<Identity, ExperimentError> {
        let setup = &experiment.setup;
        let mut file_hashes: BTreeMap<PathBuf, String> = BTreeMap::new();
        let mut hash_files = |files: &[(String, PathBuf)]| -> Result<Vec<(String, String)>, ExperimentError> {
            files.iter().map(|(name, path)| Ok((name.clone(), file_sha256(&mut file_hashes, path)?))).collect()
        };
        let data_hashes = hash_files(&setup.data_files)?;
        let data_modified = modified_data_files(&data_hashes, known);
        if strict && !data_modified.is_empty() {
            return Err(ExperimentError::Data(format!(
                "data files differ from their recorded checksums (strict): {}; `schedlab data fetch` restores them",
                data_modified.join("; ")
            )));
        }
        for line in &data_modified {
            warn(&format!("data file differs from its recorded checksum: {line}"));
        }
        // The files a policy reads (its `throughputs=` table, say) are part of its runs' identity.
        let policy_hashes: BTreeMap<String, Vec<(String, String)>> = setup
            .policy_files
            .iter()
            .map(|(policy, files)| Ok((policy.clone(), hash_files(files)?)))
            .collect::<Result<_, ExperimentError>>()?;
        // Results depend on the run inputs (workload, cluster, perf model, engine settings), the
        // data, the tool version, the run's own key (policy, sweep point, seed) and the files its
        // policy reads; not on which other policies or seeds are compared, nor on anything that
        // only shapes reports. So adding a policy to a spec runs only that policy's runs.
        let essence = format!(
            "{}\n{}\n{}",
            env!("CARGO_PKG_VERSION"),
            serde_json::to_string(&experiment.inputs).expect("specs serialise"),
            serde_json::to_string(&data_hashes).expect("strings serialise")
        );
        Ok(Identity { spec_hash: sha256_hex(essence.as_bytes()), data_hashes, data_modified, policy_hashes })
    }

    /// The content hash of one run: a stored run with another hash is run again.
    pub(crate) fn run_hash(&self, setup: &Setup, plan: &RunPlan) -> String {
        let policy = plan.policy.to_string();
        let files = &self.policy_hashes[&policy];
        let mut text = format!("{}\n{}", self.spec_hash, plan.key);
        if !files.is_empty() {
            text.push_str(&format!("\n{}", serde_json::to_string(files).expect("strings serialise")));
        }
        // Built-in weights are pinned by digest in the full name: new weights, new identity.
        if let Some(pinned) = setup.pinned_names.get(&policy) {
            text.push_str(&format!("\npinned {pinned}"));
        }
        sha256_hex(text.as_bytes())
    }

    /// The manifest of a finished experiment.
    pub(crate) fn manifest(
        self,
        experiment: &Experiment,
        git_revision: Option<String>,
        outcomes: &[RunOutcome],
        workload_reports: BTreeMap<String, Vec<String>>,
    ) -> report::Manifest {
        let setup = &experiment.setup;
        report::Manifest {
            experiment: experiment.name().to_string(),
            spec_hash: self.spec_hash,
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
            git_revision,
            gpu_types: setup.cluster.gpu_types().to_vec(),
            data_files: self.data_hashes,
            data_modified: self.data_modified,
            policy_files: self.policy_hashes.into_iter().filter(|(_, files)| !files.is_empty()).collect(),
            pinned_names: setup.pinned_names.clone(),
            perf_exceptions: setup.perf.exceptions(),
            workload_report: workload_reports.into_iter().collect(),
            wall_time_s: outcomes.iter().map(|outcome| (outcome.key.clone(), outcome.wall_time_s)).collect(),
            solver: outcomes
                .iter()
                .filter_map(|outcome| Some((outcome.key.clone(), outcome.solver.clone()?)))
                .collect(),
        }
    }
}

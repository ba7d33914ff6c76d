//! Finding and loading specs, for every command that reads one: `experiments/` and its
//! families (what `reproduce NAME` runs), and a spec resolved with its data files fetched
//! when they are missing (or a message saying how to get them).

use anyhow::{Context as _, Result, bail};
use schedlab_core::DataDir;
use schedlab_data::Fetched;
use schedlab_experiment::Experiment;
use std::path::{Path, PathBuf};

/// Reads and resolves a spec file: every check `run` makes, without simulating.
pub fn load(path: &Path, data: &DataDir) -> Result<Experiment> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read spec {}", path.display()))?;
    Ok(Experiment::from_text(&text, &path.display().to_string(), data)?)
}

/// The SHA-256 recorded for each data file in traces/sources.json, by path.
pub(crate) fn known_checksums() -> std::collections::BTreeMap<String, String> {
    schedlab_data::Sources::builtin().checksums()
}

/// Names of the specs in `experiments/`.
pub fn experiments() -> Vec<String> {
    experiments_in(Path::new("experiments"))
}

/// Names of the specs in `dir`, sorted.
pub(crate) fn experiments_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| entry.file_name().to_str().and_then(|name| name.strip_suffix(".yaml")).map(str::to_string))
        .collect();
    names.sort();
    names
}

/// Returns whether `dir/<experiment>.yaml` lists `name` in `also_in`. A spec that does not parse
/// is in no other family (running it by its own name reports why).
fn declares_family(dir: &Path, experiment: &str, name: &str) -> bool {
    also_in(dir, experiment).iter().any(|family| family == name)
}

/// The families `dir/<experiment>.yaml` joins with `also_in` (none when it does not parse).
pub(crate) fn also_in(dir: &Path, experiment: &str) -> Vec<String> {
    let path = dir.join(format!("{experiment}.yaml"));
    std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| schedlab_experiment::ExperimentSpec::parse(&text, &path.display().to_string()).ok())
        .map(|spec| spec.also_in)
        .unwrap_or_default()
}

/// The specs `reproduce NAME` runs, in name order: `NAME.yaml`, every `NAME-*.yaml`, and every
/// spec that lists NAME in `also_in`.
pub(crate) fn family(dir: &Path, name: &str) -> Vec<String> {
    experiments_in(dir)
        .into_iter()
        .filter(|experiment| {
            *experiment == name || experiment.starts_with(&format!("{name}-")) || declares_family(dir, experiment, name)
        })
        .collect()
}

/// What to do when a spec needs a data file that is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// Download it (or build it from its original) into the data directory, or `./data`.
    Fetch,
    /// Fail, saying which command downloads it.
    Explain,
}

/// Resolves a spec, fetching the data files it needs that are missing (one at a time, as
/// resolution meets them), or failing with what to do about them.
pub fn load_spec(path: &Path, missing: Missing) -> Result<schedlab_experiment::Experiment> {
    let mut data = DataDir::locate();
    let mut fetched = std::collections::BTreeSet::new();
    loop {
        let error = match load(path, &data) {
            Ok(experiment) => return Ok(experiment),
            Err(error) => error,
        };
        let (file, message) = match error.downcast_ref::<schedlab_experiment::ExperimentError>() {
            Some(schedlab_experiment::ExperimentError::MissingData { path, message }) => {
                (path.clone(), message.clone())
            }
            _ => return Err(error),
        };
        let sources = crate::data::sources(None)?;
        let listed: Vec<&schedlab_data::SourceFile> = sources
            .files
            .iter()
            .filter(
                |entry| if file.ends_with('/') { entry.path.starts_with(file.as_str()) } else { entry.path == file },
            )
            .collect();
        if listed.is_empty() {
            bail!(
                "{message}\n  it is not among the public data files schedlab can download (traces/sources.json): put it there by hand"
            );
        }
        if let Some(by_hand) = listed.iter().find(|entry| entry.url.is_none() && entry.derive.is_none()) {
            bail!(
                "{message}\n  it cannot be downloaded: {} ({}). Obtain it as that says and put it at {}; `schedlab data verify` checks it",
                by_hand.path,
                by_hand.source,
                data.root().unwrap_or(Path::new("data")).join(&by_hand.path).display()
            );
        }
        if missing == Missing::Explain {
            bail!(
                "{message}\n  `schedlab data fetch --only {file}` downloads it (run and reproduce do so themselves unless --offline)"
            );
        }
        if !fetched.insert(file.clone()) {
            return Err(error.context(format!("{file} was fetched but is still not found")));
        }
        let dest = data.root().map_or_else(|| PathBuf::from("data"), Path::to_path_buf);
        eprintln!(
            "{file} is not in the data directory: downloading it into {} (SHA-256 checked; --offline turns this off)",
            dest.display()
        );
        for (name, outcome) in crate::data::fetch_into(&sources, &dest, &file)? {
            match outcome {
                Fetched::Downloaded => eprintln!("  {name}: downloaded and verified"),
                Fetched::Converted => eprintln!("  {name}: built from its public original and verified"),
                Fetched::AlreadyPresent | Fetched::NoUrl(_) => {}
            }
        }
        if data.root().is_none() {
            data = DataDir::at(dest);
        }
    }
}

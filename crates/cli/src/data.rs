//! `schedlab data fetch|verify`, and the downloads `run` and `reproduce` make for a spec's
//! missing data files.

use anyhow::{Context as _, Result, bail};
use schedlab_core::DataDir;
use schedlab_data::{Fetched, Sources};
use std::path::{Path, PathBuf};

/// The environment variable naming a sources list to use instead of the shipped one (a mirror,
/// or a test server).
pub const SOURCES_ENV: &str = "SCHEDLAB_SOURCES";

/// The sources list: `path` if given, else `$SCHEDLAB_SOURCES`, else the shipped
/// traces/sources.json.
pub fn sources(path: Option<PathBuf>) -> Result<Sources> {
    match path.or_else(|| std::env::var_os(SOURCES_ENV).map(PathBuf::from)) {
        Some(path) => {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read sources list {}", path.display()))?;
            Sources::parse(&text).with_context(|| format!("sources list {}", path.display()))
        }
        None => Ok(Sources::builtin()),
    }
}

/// Downloads (or builds from their originals) the listed files under `only` that are missing or
/// changed in `dest`, with a progress bar, each verified by SHA-256; returns what was done.
pub fn fetch_into(sources: &Sources, dest: &Path, only: &str) -> Result<Vec<(String, Fetched)>> {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg:40} {bar:30} {bytes}/{total_bytes} {bytes_per_sec}")
            .expect("valid template"),
    );
    let mut current = String::new();
    let report = schedlab_data::fetch(sources, dest, only, &mut |path, done, total| {
        if path != current {
            current = path.to_string();
            bar.set_message(current.clone());
            bar.set_length(total);
        }
        bar.set_position(done);
    });
    bar.finish_and_clear();
    Ok(report?)
}

/// `schedlab data fetch`: downloads missing or changed files into the data directory.
pub fn fetch(only: &str, dest: Option<PathBuf>, sources_path: Option<PathBuf>) -> Result<()> {
    let sources = sources(sources_path)?;
    let dest = dest
        .or_else(|| std::env::var_os(schedlab_core::datadir::DATA_ENV).map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("data"));
    let report = fetch_into(&sources, &dest, only)?;
    let mut counts = (0, 0, 0);
    for (path, outcome) in &report {
        match outcome {
            Fetched::Downloaded | Fetched::Converted => counts.0 += 1,
            Fetched::AlreadyPresent => counts.1 += 1,
            Fetched::NoUrl(how) => {
                counts.2 += 1;
                println!("{path}: not downloadable: {how}");
            }
        }
    }
    println!(
        "{}: {} downloaded (or built from their originals) and verified, {} already present, {} to obtain by hand",
        dest.display(),
        counts.0,
        counts.1,
        counts.2
    );
    Ok(())
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
        let error = match crate::run::load(path, &data) {
            Ok(experiment) => return Ok(experiment),
            Err(error) => error,
        };
        let (file, message) = match error.downcast_ref::<schedlab_experiment::ExperimentError>() {
            Some(schedlab_experiment::ExperimentError::MissingData { path, message }) => {
                (path.clone(), message.clone())
            }
            _ => return Err(error),
        };
        let sources = sources(None)?;
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
        for (name, outcome) in fetch_into(&sources, &dest, &file)? {
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

/// Checks a data directory's files against their recorded SHA-256s.
pub fn verify(dir: Option<PathBuf>) -> Result<()> {
    let Some(dir) = dir.or_else(|| DataDir::locate().root().map(PathBuf::from)) else {
        bail!("no data directory found (looked in {})", schedlab_core::datadir::data_dir_candidates());
    };
    if !dir.is_dir() {
        bail!("{}: no such folder; give the data directory (the one holding philly/, helios/, ...)", dir.display());
    }
    let results = schedlab_data::verify(&Sources::builtin(), &dir)?;
    let mut bad = 0;
    for (file, state) in &results {
        match state {
            schedlab_data::FileState::Ok => {}
            schedlab_data::FileState::Missing => {
                bad += 1;
                println!("missing   {} ({})", file.path, file.source);
            }
            schedlab_data::FileState::Modified(found) => {
                bad += 1;
                println!("modified  {} (sha256 {found}, expected {})", file.path, file.sha256);
            }
        }
    }
    println!("{}: {} of {} files match their recorded SHA-256", dir.display(), results.len() - bad, results.len());
    if bad > 0 {
        bail!("{bad} data files are missing or modified; `schedlab data fetch` downloads them");
    }
    Ok(())
}

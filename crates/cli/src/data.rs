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

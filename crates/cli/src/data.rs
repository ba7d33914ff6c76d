//! `schedlab data fetch|verify`: the public data files.

use anyhow::{Context as _, Result, bail};
use schedlab_core::DataDir;
use std::path::PathBuf;

/// Downloads missing or changed files into the data directory, with a progress bar.
pub fn fetch(only: &str, dest: Option<PathBuf>, sources: Option<PathBuf>) -> Result<()> {
    let sources = match sources {
        Some(path) => schedlab_data::Sources::parse(
            &std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?,
        )?,
        None => schedlab_data::Sources::builtin(),
    };
    let dest = dest
        .or_else(|| std::env::var_os(schedlab_core::datadir::DATA_ENV).map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("data"));
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg:40} {bar:30} {bytes}/{total_bytes} {bytes_per_sec}")
            .expect("valid template"),
    );
    let mut current = String::new();
    let report = schedlab_data::fetch(&sources, &dest, only, &mut |path, done, total| {
        if path != current {
            current = path.to_string();
            bar.set_message(current.clone());
            bar.set_length(total);
        }
        bar.set_position(done);
    })?;
    bar.finish_and_clear();
    let mut counts = (0, 0, 0);
    for (path, outcome) in &report {
        match outcome {
            schedlab_data::Fetched::Downloaded => counts.0 += 1,
            schedlab_data::Fetched::AlreadyPresent => counts.1 += 1,
            schedlab_data::Fetched::NoUrl(how) => {
                counts.2 += 1;
                println!("{path}: not downloadable: {how}");
            }
        }
    }
    println!(
        "{}: {} downloaded and verified, {} already present, {} to obtain by hand",
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
    let results = schedlab_data::verify(&schedlab_data::Sources::builtin(), &dir)?;
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

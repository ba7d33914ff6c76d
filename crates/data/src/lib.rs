//! The public data files schedlab reads: their sources ([`Sources`], from
//! `traces/sources.json`), downloading them ([`fetch`]) and checking them ([`verify`]).
//!
//! Every file has a recorded SHA-256. A download goes to a temporary file in the data
//! directory, is verified, and only then renamed into place, so a failed or tampered download
//! never replaces a good file.

#![deny(missing_docs)]

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The sources shipped with schedlab.
pub const BUILTIN_SOURCES: &str = include_str!("../../../traces/sources.json");

/// One data file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceFile {
    /// Path inside the data directory.
    pub path: String,
    /// Hex SHA-256 of the file's bytes.
    pub sha256: String,
    /// Size in bytes.
    pub bytes: u64,
    /// Where to download it, if it can be downloaded as is.
    pub url: Option<String>,
    /// Repository and commit, or how the file was derived.
    pub source: String,
    /// Licence.
    pub licence: String,
}

/// The list of data files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sources {
    /// Provenance note.
    pub note: String,
    /// The files.
    pub files: Vec<SourceFile>,
}

/// Occurs when the sources list is malformed or a file cannot be fetched or verified.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// Occurs when the sources JSON does not parse.
    #[error("sources list: {0}")]
    Sources(String),
    /// Occurs when a download fails.
    #[error("{path}: download from {url} failed: {message}")]
    Download {
        /// The file.
        path: String,
        /// The URL.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// Occurs when a file's checksum does not match.
    #[error("{path}: SHA-256 is {found}, expected {expected}{hint}")]
    Checksum {
        /// The file.
        path: String,
        /// The recorded checksum.
        expected: String,
        /// The checksum found.
        found: String,
        /// What happened to the file.
        hint: String,
    },
    /// Occurs on a local I/O error.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        message: String,
    },
}

impl Sources {
    /// Parses a sources list.
    pub fn parse(text: &str) -> Result<Sources, DataError> {
        serde_json::from_str(text).map_err(|error| DataError::Sources(error.to_string()))
    }

    /// The list shipped with schedlab.
    pub fn builtin() -> Sources {
        Sources::parse(BUILTIN_SOURCES).expect("the shipped sources list parses")
    }

    /// Returns the entry for a path inside the data directory, if listed.
    pub fn find(&self, path: &str) -> Option<&SourceFile> {
        self.files.iter().find(|file| file.path == path)
    }
}

/// Hex SHA-256 of a file.
pub fn sha256_file(path: &Path) -> Result<String, DataError> {
    let io = |error: std::io::Error| DataError::Io { path: path.display().to_string(), message: error.to_string() };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = file.read(&mut buffer).map_err(io)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hasher.finalize().iter().map(|byte| format!("{byte:02x}")).collect())
}

/// The state of one file in a data directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileState {
    /// Present with the recorded checksum.
    Ok,
    /// Not present.
    Missing,
    /// Present with another checksum (found).
    Modified(String),
}

/// Checks every listed file in `dir`.
pub fn verify(sources: &Sources, dir: &Path) -> Result<Vec<(SourceFile, FileState)>, DataError> {
    sources
        .files
        .iter()
        .map(|file| {
            let path = dir.join(&file.path);
            if !path.is_file() {
                return Ok((file.clone(), FileState::Missing));
            }
            let found = sha256_file(&path)?;
            let state = if found == file.sha256 { FileState::Ok } else { FileState::Modified(found) };
            Ok((file.clone(), state))
        })
        .collect()
}

/// What [`fetch`] did with one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fetched {
    /// Already present with the right checksum.
    AlreadyPresent,
    /// Downloaded and verified.
    Downloaded,
    /// Not downloadable (no URL); the reason says how to get it.
    NoUrl(String),
}

/// Downloads every listed file whose path starts with `only` (all if empty) into `dir`,
/// skipping files already present and valid. `progress(path, bytes_done, bytes_total)` is
/// called as bytes arrive. A file is written to a temporary name, verified, then renamed.
pub fn fetch(
    sources: &Sources,
    dir: &Path,
    only: &str,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<Vec<(String, Fetched)>, DataError> {
    let mut report = Vec::new();
    for file in sources.files.iter().filter(|file| file.path.starts_with(only)) {
        let path = dir.join(&file.path);
        if path.is_file() && sha256_file(&path)? == file.sha256 {
            report.push((file.path.clone(), Fetched::AlreadyPresent));
            continue;
        }
        let Some(url) = &file.url else {
            report.push((file.path.clone(), Fetched::NoUrl(file.source.clone())));
            continue;
        };
        download(file, url, &path, progress)?;
        report.push((file.path.clone(), Fetched::Downloaded));
    }
    Ok(report)
}

fn download(
    file: &SourceFile,
    url: &str,
    path: &Path,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<(), DataError> {
    let fail = |message: String| DataError::Download { path: file.path.clone(), url: url.to_string(), message };
    let io = |target: &Path, error: std::io::Error| DataError::Io {
        path: target.display().to_string(),
        message: error.to_string(),
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|error| io(parent, error))?;
    }
    let temporary: PathBuf = path.with_file_name(format!(
        ".{}.{}.part",
        path.file_name().and_then(|name| name.to_str()).unwrap_or("download"),
        std::process::id()
    ));
    let response = ureq::get(url).call().map_err(|error| fail(error.to_string()))?;
    let mut reader = response.into_body().into_reader();
    let mut output = std::fs::File::create(&temporary).map_err(|error| io(&temporary, error))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut done = 0u64;
    loop {
        let read = reader.read(&mut buffer).map_err(|error| fail(error.to_string()))?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        output.write_all(&buffer[..read]).map_err(|error| io(&temporary, error))?;
        done += read as u64;
        progress(&file.path, done, file.bytes);
    }
    output.flush().map_err(|error| io(&temporary, error))?;
    drop(output);
    let found: String = hasher.finalize().iter().map(|byte| format!("{byte:02x}")).collect();
    if found != file.sha256 {
        let _ = std::fs::remove_file(&temporary);
        return Err(DataError::Checksum {
            path: file.path.clone(),
            expected: file.sha256.clone(),
            found,
            hint: "; the download was discarded and no file was changed".into(),
        });
    }
    std::fs::rename(&temporary, path).map_err(|error| io(path, error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_list_parses_and_names_the_main_files() {
        let sources = Sources::builtin();
        for path in ["philly/philly-pollux.csv", "gavel/simulation_throughputs.json", "philly/philly_vc.csv"] {
            let file = sources.find(path).unwrap_or_else(|| panic!("{path} is listed"));
            assert_eq!(file.sha256.len(), 64);
        }
    }
}

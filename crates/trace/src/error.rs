//! Errors of loaders, transforms and workload building.

use std::path::PathBuf;

/// Occurs when a trace cannot be read or a row is malformed. Messages name the file, the
/// line and the column, and say what was expected.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TraceError {
    /// Occurs when the file cannot be opened or read.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        message: String,
    },
    /// Occurs when a row has a bad or missing value.
    #[error("{path}:{line}: {message}")]
    Row {
        /// The file.
        path: PathBuf,
        /// The 1-based line of the row (for JSON, the job's 1-based index).
        line: u64,
        /// The column and what was wrong and expected.
        message: String,
    },
    /// Occurs when a CSV header is not the one the format has.
    #[error("{path}:1: expected header '{expected}', found '{found}'")]
    Header {
        /// The file.
        path: PathBuf,
        /// The expected header.
        expected: String,
        /// The header found.
        found: String,
    },
    /// Occurs when a transform, generator or model assignment is misconfigured.
    #[error("{0}")]
    Config(String),
}

impl TraceError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: impl std::fmt::Display) -> TraceError {
        TraceError::Io { path: path.into(), message: source.to_string() }
    }

    /// A bad value on `line` of `path`.
    pub fn row(path: impl Into<PathBuf>, line: u64, message: impl Into<String>) -> TraceError {
        TraceError::Row { path: path.into(), line, message: message.into() }
    }
}

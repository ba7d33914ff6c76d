//! Cluster shapes, placement helpers and the engine's ground-truth performance models.
//!
//! - [`build`]: make a [`schedlab_core::ClusterSpec`] from a compact form
//!   ([`CompactCluster`]), an explicit node list, or real files (Philly VCs, Alibaba PAI 2020
//!   machines, Alibaba 2023 OpenB nodes).
//! - [`placement`]: [`Placer`] picks nodes for a job (consolidated or spread, one GPU type or
//!   mixed); every baseline policy shares it.
//! - [`perf`]: [`PerfModel`] is the engine's truth about speed; [`ThroughputTable`] reads
//!   Gavel's measurements and [`TraceDuration`] replays rigid trace jobs.
//!
//! This crate reads files but simulates nothing.

#![deny(missing_docs)]

pub mod build;
pub mod perf;
pub mod placement;

pub use build::{BuildError, CompactCluster, LoadSummary, NodeEntry};
pub use perf::{
    MixedTypes, PerfError, PerfModel, Placement, RateSegment, ThroughputSummary, ThroughputTable, TraceDuration,
};
pub use placement::{PlacementStrategy, Placer, TypeRule};

use std::path::{Path, PathBuf};

/// Occurs when a cluster or perf-model file cannot be read or is malformed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClusterFileError {
    /// Occurs when the file cannot be opened or read, or a CSV row is unreadable.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        message: String,
    },
    /// Occurs when a CSV row has a bad value; `line` is 1-based.
    #[error("{path}:{line}: {message}")]
    Row {
        /// The file.
        path: PathBuf,
        /// The line of the row.
        line: u64,
        /// What was wrong and what was expected.
        message: String,
    },
    /// Occurs when a CSV header is not the expected one.
    #[error("{path}: expected header '{expected}', found '{found}'")]
    Header {
        /// The file.
        path: PathBuf,
        /// The header expected.
        expected: String,
        /// The header found.
        found: String,
    },
    /// Occurs when a JSON file does not parse.
    #[error("{path}:{line}: invalid JSON: {message}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The line of the error.
        line: usize,
        /// The parser's message.
        message: String,
    },
    /// Occurs when a file parses but its content is not what was expected.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What was wrong and what was expected.
        message: String,
    },
}

impl ClusterFileError {
    fn io(path: &Path, source: impl std::fmt::Display) -> ClusterFileError {
        ClusterFileError::Io { path: path.to_path_buf(), message: source.to_string() }
    }

    fn row(path: &Path, record: &csv::StringRecord, message: String) -> ClusterFileError {
        let line = record.position().map_or(0, csv::Position::line);
        ClusterFileError::Row { path: path.to_path_buf(), line, message }
    }

    fn invalid(path: &Path, source: schedlab_core::ClusterError) -> ClusterFileError {
        ClusterFileError::Format { path: path.to_path_buf(), message: source.to_string() }
    }
}

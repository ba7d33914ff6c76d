//! The error every part of an experiment returns.

/// Occurs when an experiment cannot be set up or run; messages name the spec, key or file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExperimentError {
    /// Occurs when the spec is malformed (with the parser's line and column when it has them).
    #[error("{path}: {message}")]
    Spec {
        /// The spec file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// Occurs when a data file is unreadable or malformed.
    #[error("{0}")]
    Data(String),
    /// Occurs when a data file (or folder, ending in `/`) the spec needs is not in the data
    /// directory: the binary can download it (`path` is relative to the data directory).
    #[error("{message}")]
    MissingData {
        /// The file or folder, relative to the data directory.
        path: String,
        /// Where it was looked for, the spec line that needs it and its public source.
        message: String,
    },
    /// Occurs when a run fails; earlier finished runs stay stored.
    #[error("run '{key}': {message}")]
    Run {
        /// The run's key.
        key: String,
        /// What failed.
        message: String,
    },
    /// Occurs when the runs stop before they all finished (Ctrl-C, a save that failed, no
    /// worker threads): says how many runs are kept and that a rerun resumes from them.
    #[error("{0}")]
    Stopped(String),
    /// Occurs when a report is asked of a store that lacks runs (naming the shards they belong to).
    #[error("{0}")]
    Incomplete(String),
    /// Occurs when another process holds the result store (see [`crate::lock`]).
    #[error("{0}")]
    Busy(String),
    /// Occurs when results cannot be written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        message: String,
    },
}

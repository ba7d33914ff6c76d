//! Experiments: a YAML spec in, a folder of tables, plots and a verdict on published claims out.
//!
//! [`spec::ExperimentSpec`] is the spec. [`plan::expand`] turns it into runs (sweep points x
//! policies x seeds, each with a stable key and a derived seed). [`runner::run_experiment`]
//! prepares each workload once, runs the simulations in parallel with rayon, stores each
//! finished run atomically in `results/<name>/runs/` (so an interrupted sweep resumes), and
//! [`report`] writes `runs.csv`, tables, plots, `claims.md` and `manifest.json`, sorted by run
//! key so that the output does not depend on the number of threads.

#![deny(missing_docs)]

pub mod claims;
pub mod plan;
pub mod plots;
pub mod prepare;
pub mod report;
pub mod runner;
pub mod spec;
pub mod store;

pub use runner::{RunOptions, run_experiment};
pub use spec::ExperimentSpec;

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
    /// Occurs when a data file is missing or unreadable.
    #[error("{0}")]
    Data(String),
    /// Occurs when a run fails; earlier finished runs stay stored.
    #[error("run '{key}': {message}")]
    Run {
        /// The run's key.
        key: String,
        /// What failed.
        message: String,
    },
    /// Occurs when results cannot be written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        message: String,
    },
}

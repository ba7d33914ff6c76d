//! Workloads: turns real traces and generators into [`schedlab_core::JobSpec`] lists,
//! reproducibly. No simulation code lives here.
//!
//! The pipeline is: a loader in [`formats`] reads a file into a [`Trace`] of normalised
//! [`TraceJob`]s (with a [`LoadSummary`] of rows read, kept and left out); [`transform`]s
//! filter, window, sample, scale, rebase, de-duplicate and sort it; [`workload::build`]
//! assigns each job a type and an amount of work ([`workload::Model`]) and returns jobs sorted
//! by arrival with ids `0..n`. [`synthetic`] generates workloads instead. [`spec::WorkloadSpec`]
//! is the serde form of all of it, for experiment specs. Every malformed row is an error with
//! file, line and column; nothing is dropped without being counted.

#![deny(missing_docs)]

mod csvfile;
pub mod datetime;
pub mod dl2;
mod error;
pub mod formats;
pub mod gavel_stream;
mod job;
pub mod spec;
pub mod stats;
pub mod synthetic;
mod text;
pub mod transform;
pub mod workload;

pub use error::TraceError;
pub use formats::TraceFormat;
pub use job::{Clock, LoadSummary, Sym, Symbols, Trace, TraceJob};
pub use transform::{Episode, Transform};

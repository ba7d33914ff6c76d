//! The schedlab engine: a discrete-event simulation of a GPU cluster under one policy.
//!
//! [`run`] takes a cluster, a workload of [`schedlab_core::JobSpec`]s, a ground-truth
//! [`schedlab_cluster::PerfModel`] and a [`schedlab_core::Policy`], and returns a
//! [`RunResult`]: a [`JobRecord`] per job, [`RunMetrics`] over a [`MeasurementWindow`], and a
//! [`BusyTimeline`].
//!
//! Events (arrivals, completions, policy ticks) sit in a heap keyed by (time, sequence), so
//! ties break the same way on every run. A job's rate is constant between decision points,
//! so completion times are exact: a job finishes at `start + overhead + remaining / rate`.
//! All events at one instant are processed before the policy is called once. Every decision
//! is validated and an invalid one ends the run with a [`SimError`] naming policy, job and
//! node; the engine never repairs a decision.
//!
//! The engine knows no concrete policy and does no I/O.

#![deny(missing_docs)]

mod config;
mod engine;
mod error;
pub mod metrics;

pub use config::{DEFAULT_FORK_OVERHEAD, MeasurementWindow, SimConfig};
pub use engine::{RunResult, run, validate};
pub use error::SimError;
pub use metrics::{AllocationSample, BusyTimeline, JobRecord, JobTimeline, RunMetrics};

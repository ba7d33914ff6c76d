//! The vocabulary every schedlab crate shares.
//!
//! A workload is a list of [`JobSpec`]s (ground truth: arrival, GPUs, type, work). A cluster
//! is a [`ClusterSpec`] (nodes with a GPU type). At each decision point the engine shows a
//! [`Policy`] a [`Context`]: a [`ClusterView`] of free resources and a [`JobsView`] of the
//! active jobs as [`JobView`]s, which hold only what a real scheduler could know. The policy
//! answers with a [`Decision`] of [`Allocation`]s to start and jobs to preempt.
//!
//! Time is [`Time`], seconds as `f64` with a total order. A policy crate registers its
//! policies as [`PolicyEntry`]s; constructors get a [`PolicyEnv`] (data directory, shared
//! tables, run seed). This crate does no simulation and no I/O beyond locating the data
//! directory ([`datadir`]) and loading the files a policy asks its [`PolicyEnv`] for.

#![deny(missing_docs)]

mod allocation;
mod cluster;
pub mod datadir;
mod ids;
mod job;
mod params;
mod policy;
mod registry;
mod rounds;
pub mod suggest;
mod time;
mod view;
pub mod weights;

pub use allocation::{Allocation, BatchConfig, Decision};
pub use cluster::{CapacityError, ClusterError, ClusterSpec, ClusterView, CpuDemand, Node};
pub use datadir::{DataDir, DataError};
pub use ids::{GpuTypeId, GpuTypeSet, JobId, NodeId};
pub use job::{DEFAULT_PS_CPUS, JobSpec, TraceStatus};
pub use params::{ParamDoc, ParamError, ParamReader, ParamSummary, PolicyParams};
pub use policy::{Context, Knowledge, Policy, PolicyError, PolicyReport, RunStart, SolverStats};
pub use registry::{Made, Make, PolicyEntry, PolicyEnv, build_with, ready, recipe};
pub use rounds::{Phase, RoundClock};
pub use time::{Time, TotalF64};
pub use view::{JobState, JobView, JobsView, OracleInfo};

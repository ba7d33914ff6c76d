//! Gavel's heterogeneity-aware allocation policies (Narayanan et al., OSDI'20).
//!
//! [`allocation`] has the allocation LPs, each in a heterogeneity-aware and an agnostic form:
//! max-min fairness (LAS), finish-time fairness, makespan, and total throughput (optionally per
//! dollar, with SLOs), and max-min fairness and total throughput with space sharing over classes
//! of identical jobs. [`per_job_packing`] has the space-sharing LPs whose rows are single jobs
//! (makespan, finish-time fairness, throughput with SLOs). [`Gavel`] turns an allocation into
//! placements with Gavel's round mechanism, and also runs Gavel's FIFO and Gandiva. The crate
//! README has the math, the parameters and the deviations.

#![deny(missing_docs)]

pub mod allocation;
mod fifo;
mod gandiva;
pub mod per_job_packing;
mod policy;

pub use policy::{Gavel, GavelKind};

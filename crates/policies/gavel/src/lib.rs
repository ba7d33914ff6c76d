//! Gavel's heterogeneity-aware allocation policies (Narayanan et al., OSDI'20).
//!
//! [`allocation`] has the allocation LPs, each in a heterogeneity-aware and an agnostic form:
//! max-min fairness (LAS), finish-time fairness, makespan, and total throughput (optionally per
//! dollar). [`Gavel`] turns an allocation into placements with Gavel's round mechanism, and also
//! runs Gavel's FIFO. Space sharing and Gavel's Gandiva are not implemented yet; see README.md.

#![deny(missing_docs)]

pub mod allocation;
mod fifo;
mod gandiva;
pub mod per_job_packing;
mod policy;

pub use policy::{Gavel, GavelKind};

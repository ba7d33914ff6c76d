//! Gavel's heterogeneity-aware allocation policies (Narayanan et al., OSDI'20).
//!
//! Work in progress: this crate has the max-min fairness (LAS) allocation LP in its
//! heterogeneity-aware and agnostic forms ([`allocation::max_min_fairness`]) and the round
//! mechanism that turns it into placements ([`GavelLas`]). The other objectives and space
//! sharing follow; see README.md.

#![deny(missing_docs)]

pub mod allocation;
mod policy;

pub use policy::GavelLas;

//! Gavel's heterogeneity-aware allocation policies (Narayanan et al., OSDI'20).
//!
//! Work in progress: this crate has the max-min fairness (LAS) allocation LP in its
//! heterogeneity-aware and agnostic forms ([`allocation::max_min_fairness`]). The round
//! mechanism that turns an allocation into placements, the other objectives and the `Policy`
//! implementations follow; see README.md.

#![deny(missing_docs)]

pub mod allocation;

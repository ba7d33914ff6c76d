//! Workloads: turns traces and generators into [`schedlab_core::JobSpec`] lists.
//!
//! So far this crate holds the synthetic generator [`synthetic::GavelStyle`]; trace loaders
//! and transforms follow. It contains no simulation code.

#![deny(missing_docs)]

pub mod synthetic;

//! Baseline scheduling policies, each a [`schedlab_core::Policy`].
//!
//! | policy | type | knows |
//! |---|---|---|
//! | [`Fifo`] | non-preemptive, arrival order, optional backfill | realistic |
//! | [`Sjf`] | non-preemptive, shortest total duration first | ORACLE |
//! | [`Srtf`] | preemptive, shortest remaining time first | ORACLE |
//! | [`Las`] | preemptive, least attained GPU-time first, re-evaluated every quantum | realistic |
//! | [`Tiresias`] | preemptive, discretised 2D-LAS with queue thresholds and starvation promotion | realistic |
//! | [`Drf`] | non-preemptive, dominant resource fairness across users over GPUs and CPUs | realistic |
//! | [`Gandiva`] | preemptive round-robin time slicing every quantum | realistic |
//!
//! Ordering is each policy's own; placement is shared: every policy takes
//! `placement=consolidated|spread` and `same_type=true|false` and places through
//! [`schedlab_cluster::Placer`]. Preemptive policies pick their running set with
//! [`common::run_top_of_order`], non-preemptive ones with [`common::start_in_order`].

#![deny(missing_docs)]

pub mod common;
mod drf;
mod fifo;
mod gandiva;
mod las;
mod shortest;
mod yarn;

pub use drf::Drf;
pub use fifo::Fifo;
pub use gandiva::Gandiva;
pub use las::{Las, Tiresias};
pub use shortest::{Sjf, Srtf};
pub use yarn::YarnCapacity;

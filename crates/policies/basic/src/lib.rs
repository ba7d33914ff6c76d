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

use schedlab_core::{PolicyEntry, ready, recipe};

/// The baselines, as the zoo lists them.
pub const POLICIES: &[PolicyEntry] = &[
    PolicyEntry {
        name: "fifo",
        description: "first come, first served; non-preemptive; optional backfill",
        oracle: false,
        make: |params, env| recipe(params, env, Fifo::read, ready),
    },
    PolicyEntry {
        name: "sjf",
        description: "shortest job first by true duration; non-preemptive (ORACLE)",
        oracle: true,
        make: |params, env| recipe(params, env, Sjf::read, ready),
    },
    PolicyEntry {
        name: "srtf",
        description: "shortest remaining time first by true remaining work; preemptive (ORACLE)",
        oracle: true,
        make: |params, env| recipe(params, env, Srtf::read, ready),
    },
    PolicyEntry {
        name: "las",
        description: "least attained service first; preemptive, re-evaluated every quantum",
        oracle: false,
        make: |params, env| recipe(params, env, Las::read, ready),
    },
    PolicyEntry {
        name: "tiresias",
        description: "Tiresias discretised 2D-LAS: priority queues by attained GPU-time, starvation promotion",
        oracle: false,
        make: |params, env| recipe(params, env, Tiresias::read, ready),
    },
    PolicyEntry {
        name: "drf",
        description: "dominant resource fairness across users over GPUs and CPUs; non-preemptive",
        oracle: false,
        make: |params, env| recipe(params, env, Drf::read, ready),
    },
    PolicyEntry {
        name: "gandiva",
        description: "Gandiva-style round-robin time slicing when jobs outnumber GPUs",
        oracle: false,
        make: |params, env| recipe(params, env, Gandiva::read, ready),
    },
    PolicyEntry {
        name: "yarn-cs",
        description: "YARN capacity scheduler: FIFO queues (by VC, else user) with equal guaranteed shares, elastic up to max_share; non-preemptive",
        oracle: false,
        make: |params, env| recipe(params, env, YarnCapacity::read, ready),
    },
];

//! Hadar (Sultana et al., IPDPS 2024) and HadarE (Sultana et al., arXiv 2503.10918, 2025):
//! task-level heterogeneity-aware scheduling by online primal-dual pricing, and job forking.
//!
//! Every round (360 s by default), [`Hadar`] prices each node's GPUs with an exponential
//! [`PriceFunction`] of the node's utilisation this round, asks each job's dual subroutine
//! ([`best_schedule`]) for its most valuable schedule (its W GPUs on any mix of nodes and GPU
//! types, by throughput per unit price), and runs jobs greedily by payoff (utility of the
//! resulting completion time minus the price of the GPU-rounds it needs) while the payoff is
//! positive. HadarE ([`Hadar::from_params`] with `forking`) then fills GPUs Hadar left idle with
//! copies of jobs, at most one copy of a job per node; the engine runs a forked job at the sum
//! of its copies' rates less an aggregation overhead (`Allocation::forked`).
//!
//! The crate README has the algorithm in math, every parameter with its source, and the
//! choices we made where the papers are silent.

mod market;
mod policy;
mod pricing;
mod report;
mod subroutine;

pub use policy::{Hadar, HadarConfig};

use schedlab_core::{PolicyEntry, recipe};

/// Hadar and HadarE, as the zoo lists them.
pub const POLICIES: &[PolicyEntry] = &[
    PolicyEntry {
        name: "hadar",
        description: "Hadar: task-level heterogeneity-aware rounds; jobs bought greedily at exponential per-node GPU prices (online primal-dual)",
        oracle: true,
        make: |params, env| recipe(params, env, |reader| Hadar::read(reader, false), Hadar::new),
    },
    PolicyEntry {
        name: "hadare",
        description: "HadarE: Hadar, then idle GPUs get copies of jobs (one per node), progress summed less aggregation",
        oracle: true,
        make: |params, env| recipe(params, env, |reader| Hadar::read(reader, true), Hadar::new),
    },
];
pub use market::{GangPrice, Market, PriceScope};
pub use pricing::PriceFunction;
pub use subroutine::{JobInput, Progress, Schedule, Utility, best_schedule, rounds};

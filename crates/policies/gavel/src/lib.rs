//! Gavel's heterogeneity-aware allocation policies (Narayanan et al., OSDI'20).
//!
//! [`allocation`] has the allocation LPs, each in a heterogeneity-aware and an agnostic form:
//! max-min fairness (LAS), finish-time fairness, makespan, and total throughput (optionally per
//! dollar, with SLOs), and max-min fairness and total throughput with space sharing over classes
//! of identical jobs; [`allocation::packing::per_job`] has the space-sharing LPs whose rows are single jobs
//! (makespan, finish-time fairness, throughput with SLOs). [`Gavel`] turns an allocation into
//! placements with Gavel's round mechanism, and also runs Gavel's FIFO and Gandiva. The crate
//! README has the math, the parameters and the deviations.

#![deny(missing_docs)]

pub mod allocation;
mod fifo;
mod gandiva;
mod objectives;
mod policy;

pub use objectives::GavelKind;
pub use policy::{Gavel, GavelConfig};

use schedlab_core::{PolicyEntry, recipe};

/// One registry entry: `$kind` read heterogeneity-aware (`$aware` true) or agnostic.
macro_rules! gavel {
    ($name:literal, $description:literal, oracle: $oracle:literal, $kind:ident, aware: $aware:literal) => {
        PolicyEntry {
            name: $name,
            description: $description,
            oracle: $oracle,
            make: |params, env| recipe(params, env, |reader| Gavel::read(reader, GavelKind::$kind, $aware), Gavel::new),
        }
    };
}

/// Gavel's policies and their agnostic twins, as the zoo lists them.
pub const POLICIES: &[PolicyEntry] = &[
    gavel!("gavel-las", "Gavel max-min fairness (LAS): heterogeneity-aware LP, 360 s rounds", oracle: false, MaxMinFairness, aware: true),
    gavel!("gavel-las-agnostic", "Gavel max-min fairness, heterogeneity-agnostic twin (every usable throughput taken as 1)", oracle: false, MaxMinFairness, aware: false),
    gavel!("gavel-las-packed", "Gavel max-min fairness with space sharing: pairs of jobs share GPUs at measured co-located rates", oracle: false, MaxMinFairnessPacked, aware: true),
    gavel!("gavel-fifo", "Gavel FIFO, heterogeneity-aware: jobs in arrival order, each on its fastest type with room", oracle: false, Fifo, aware: true),
    gavel!("gavel-fifo-packed", "Gavel FIFO with space sharing: waiting jobs join a running job when the pair gains enough", oracle: false, FifoPacked, aware: true),
    gavel!("gavel-fifo-agnostic", "Gavel FIFO, heterogeneity-agnostic: a random type with room, kept until the job ends", oracle: false, Fifo, aware: false),
    gavel!("gavel-gandiva", "Gandiva as Gavel simulates it: equal shares, random pairing of jobs when the cluster is full", oracle: false, Gandiva, aware: true),
    gavel!("gavel-ftf", "Gavel finish-time fairness (Themis): minimise the largest finish-time ratio (iterated LPs)", oracle: true, FinishTimeFairness, aware: true),
    gavel!("gavel-ftf-agnostic", "Gavel finish-time fairness, heterogeneity-agnostic twin", oracle: true, FinishTimeFairness, aware: false),
    gavel!("gavel-ftf-packed", "Gavel finish-time fairness with space sharing: pairs of jobs share GPUs at measured co-located rates", oracle: true, FinishTimeFairnessPacked, aware: true),
    gavel!("gavel-makespan", "Gavel makespan: the shortest horizon in which every active job can finish (one LP)", oracle: true, Makespan, aware: true),
    gavel!("gavel-makespan-agnostic", "Gavel makespan, heterogeneity-agnostic twin", oracle: true, Makespan, aware: false),
    gavel!("gavel-makespan-packed", "Gavel makespan with space sharing: pairs of jobs share GPUs when that shortens the horizon", oracle: true, MakespanPacked, aware: true),
    gavel!("gavel-max-throughput", "Gavel total throughput: maximise the sum of job throughputs (steps/s)", oracle: false, MaxThroughput, aware: true),
    gavel!("gavel-max-throughput-packed", "Gavel total throughput with space sharing: pairs of jobs share GPUs when that does more work (optional SLOs)", oracle: false, MaxThroughputPacked, aware: true),
    gavel!("gavel-cost", "Gavel throughput per dollar: maximise the sum of throughput / GPU price", oracle: false, MinCost, aware: true),
    gavel!("gavel-cost-packed", "Gavel throughput per dollar with space sharing (and optional SLOs)", oracle: false, MinCostPacked, aware: true),
];

//! Integration tests of the experiment crate. One binary, one module per topic.

mod common;
// Spec mistakes give one clear error pointing at the line.
mod spec_errors;
// Output does not depend on the number of threads; interrupted sweeps resume.
mod determinism;
// A sweep split into shards, then one report from the store.
mod shards;
// Published claims are checked and misses reported.
mod claims;
// Intervals cover at their level and verdicts err at most 5%, by seeded simulation.
mod coverage;
// Regression gate: result tables of experiments/ci/*.yaml are insta snapshots.
mod snapshots;
// Per-VC partitions and VC pools on Philly's cluster.
mod partitions;
// Pollux's applications as ground truth for its traces.
mod pollux;
// The HTML report of each experiment and the index of the results folder.
mod html;
// Reports that span experiments.
mod reports;
// Random small workloads run by every policy of the zoo: no panic, no hang, no broken invariant.
mod properties;

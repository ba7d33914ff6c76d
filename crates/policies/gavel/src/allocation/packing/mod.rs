//! The space-sharing LPs: jobs in pairs on one GPU, with rows per class of identical jobs
//! ([`classes`]) or per job ([`per_job`]).

pub mod classes;
pub mod per_job;

pub use classes::{PackedFractions, PackingInput, PairRows, max_min_fairness_packed, max_throughput_packed};

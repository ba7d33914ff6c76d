//! Pollux (Qiao et al., OSDI 2021) and the baselines its artifact compares it with, at the
//! artifact's settings: Optimus+Oracle and Tiresias. All decide on the artifact's 60-second
//! grid. The applications and their ground truth are in `schedlab-goodput`.

mod apps;
pub mod ga;
mod grid;
mod optimus;
mod placement;
mod policy;
mod tiresias;

pub use grid::Grid;
pub use optimus::{OptimusConfig, OptimusOracle};
pub use placement::most_free;
pub use policy::{Pollux, PolluxConfig};
pub use tiresias::PolluxTiresias;

use schedlab_core::{PolicyEntry, ready, recipe};

/// The policies of this crate.
pub const POLICIES: &[PolicyEntry] = &[
    PolicyEntry {
        name: "pollux",
        description: "Pollux: per-job agents fit throughput and pick batch sizes; every 60 s a genetic algorithm reallocates GPUs for a fair mean of goodput speedups",
        oracle: false,
        make: |params, env| recipe(params, env, Pollux::read, Pollux::new),
    },
    PolicyEntry {
        name: "optimus-oracle",
        description: "Optimus+Oracle as Pollux's artifact runs it: GPUs to the largest predicted drop in time to completion, with true step times and remaining iterations (ORACLE)",
        oracle: true,
        make: |params, env| recipe(params, env, OptimusOracle::read, OptimusOracle::new),
    },
    PolicyEntry {
        name: "pollux-tiresias",
        description: "Tiresias as Pollux's artifact runs it: two queues split at 57,600 GPU-seconds, jobs at their requested size, most-free placement, 60 s steps",
        oracle: false,
        make: |params, env| recipe(params, env, PolluxTiresias::read, ready),
    },
];

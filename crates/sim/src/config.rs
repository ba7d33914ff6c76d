//! Run parameters of the engine.

use schedlab_core::Time;
use serde::{Deserialize, Serialize};

/// Which jobs the run metrics summarise, so that warm-up and drain can be excluded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum MeasurementWindow {
    /// Every job.
    #[default]
    All,
    /// Jobs whose index is in `first..last` (Gavel measures jobs 4000..5000).
    Jobs {
        /// First job index included.
        first: u32,
        /// First job index excluded.
        last: u32,
    },
    /// Jobs arriving in `from..to` seconds.
    Arrivals {
        /// Earliest arrival included.
        from: Time,
        /// Earliest arrival excluded.
        to: Time,
    },
}

impl MeasurementWindow {
    /// Returns true if and only if the job with this index and arrival is measured.
    pub fn contains(&self, index: u32, arrival: Time) -> bool {
        match *self {
            MeasurementWindow::All => true,
            MeasurementWindow::Jobs { first, last } => (first..last).contains(&index),
            MeasurementWindow::Arrivals { from, to } => from <= arrival && arrival < to,
        }
    }
}

/// The default [`SimConfig::fork_overhead`].
pub const DEFAULT_FORK_OVERHEAD: f64 = 0.05;

/// Engine parameters. The defaults model no restart cost and check invariants in debug builds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SimConfig {
    /// Seconds without progress after a job is started again or moved (checkpoint restore,
    /// process start). Pollux uses 30 s; Gavel none.
    pub restart_overhead: f64,
    /// Whether a job's first start also pays `restart_overhead`.
    pub overhead_on_first_start: bool,
    /// Which jobs the run metrics cover.
    pub window: MeasurementWindow,
    /// Stop at this time; jobs not finished by then are reported as unfinished.
    pub max_time: Option<Time>,
    /// End the run as soon as every job of a [`MeasurementWindow::Jobs`] window has finished,
    /// as Gavel's simulator does with `jobs_to_complete`: its job stream never ends, so jobs keep
    /// arriving for as long as the window runs. Jobs not finished then are reported as
    /// unfinished. The workload must still have arrivals to come at that point; a run whose
    /// arrivals ran out first is an error, since its window saw a lighter load than an endless
    /// stream would give.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stop_after_window: bool,
    /// Check every invariant at every decision point (slow; on in debug builds).
    pub check_invariants: bool,
    /// Job forking (HadarE, [`schedlab_core::Allocation::forked`]): the fraction of its
    /// copies' combined progress that a forked job loses to aggregating their parameters,
    /// in `[0, 1)`. The papers give no figure; 0.05 is our assumption.
    pub fork_overhead: f64,
    /// The run's seed, handed to the policy in [`schedlab_core::RunStart`]: a policy's
    /// randomness comes from it, so a run is a function of its inputs and this seed.
    #[serde(default)]
    pub seed: u64,
    /// Jobs (by id) whose allocation over time the run records in
    /// [`crate::RunResult::allocations`]: GPUs, nodes and batch size after every decision that
    /// changes them. Empty (the default) records nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trace_jobs: Vec<u32>,
}

impl Default for SimConfig {
    fn default() -> SimConfig {
        SimConfig {
            restart_overhead: 0.0,
            overhead_on_first_start: false,
            window: MeasurementWindow::All,
            max_time: None,
            stop_after_window: false,
            check_invariants: cfg!(debug_assertions),
            fork_overhead: DEFAULT_FORK_OVERHEAD,
            seed: 0,
            trace_jobs: Vec::new(),
        }
    }
}

//! The [`Policy`] trait: the one thing a new scheduler must implement.

use crate::{ClusterSpec, ClusterView, Decision, JobId, JobsView, Time};

/// What a policy is allowed to know beyond what a real scheduler observes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knowledge {
    /// Only observable facts: requests, history, progress and throughput so far.
    Realistic,
    /// Also each job's true total work and duration ([`crate::OracleInfo`]). Such policies
    /// (SJF, SRTF) are upper bounds, not deployable schedulers, and are labelled "oracle".
    Oracle,
}

/// Everything a policy sees at one decision point.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The current time.
    pub now: Time,
    /// The cluster with its free resources.
    pub cluster: &'a ClusterView,
    /// Every active job.
    pub jobs: &'a JobsView,
    /// Jobs that arrived at `now`, in id order.
    pub arrived: &'a [JobId],
    /// Jobs that finished at `now`, in id order (no longer in `jobs`).
    pub finished: &'a [JobId],
    /// Running jobs whose rate changed at `now` without a restart (a segment of a
    /// piecewise-constant perf model ended, or a space-sharing partner left), in id order.
    pub rate_changed: &'a [JobId],
    /// True if and only if a tick the policy asked for is due at `now`.
    pub tick: bool,
}

/// What a policy is told when a run begins ([`Policy::begin_run`]).
#[derive(Clone, Copy, Debug)]
pub struct RunStart<'a> {
    /// The cluster of this run (one virtual cluster's when a run is partitioned).
    pub cluster: &'a ClusterSpec,
    /// The run's seed, derived from the experiment, the sweep point and the spec's seed (the
    /// same for every policy there, different across seeds): all of a policy's randomness
    /// should come from it.
    pub seed: u64,
}

/// Occurs when a policy cannot produce a decision.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PolicyError {
    /// Occurs when the policy's optimisation problem has no solution.
    #[error("infeasible: {0}")]
    Infeasible(String),
    /// Occurs when a solver fails or reports a status other than optimal.
    #[error("solver failed: {0}")]
    Solver(String),
    /// Occurs when the policy meets a situation it does not support.
    #[error("{0}")]
    Unsupported(String),
}

/// What an optimisation-based policy's solver did over a run: how many problems it solved,
/// their largest size, and the wall-clock time spent building and solving them. Timings are
/// not deterministic, so they go to the run's manifest, never into result tables.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SolverStats {
    /// The backend's name (e.g. `microlp`).
    pub backend: String,
    /// Problems solved.
    pub solves: u64,
    /// Largest number of variables in one problem.
    pub max_variables: usize,
    /// Largest number of constraints in one problem.
    pub max_constraints: usize,
    /// Seconds spent handing problems to the backend.
    pub build_seconds: f64,
    /// Seconds the backend spent solving.
    pub solve_seconds: f64,
    /// Problems whose optional constraints (deadlines) were infeasible and were solved again
    /// without them, as the policy's paper prescribes.
    #[serde(default)]
    pub relaxed: u64,
    /// Problems the chosen backend stopped short on (Clarabel's `AlmostSolved`) and that were
    /// solved again with microlp.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fell_back: u64,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
}

impl SolverStats {
    /// Adds one solve.
    pub fn record(&mut self, backend: &str, variables: usize, constraints: usize, build: f64, solve: f64) {
        if self.backend.is_empty() {
            self.backend = backend.to_string();
        }
        self.solves += 1;
        self.max_variables = self.max_variables.max(variables);
        self.max_constraints = self.max_constraints.max(constraints);
        self.build_seconds += build;
        self.solve_seconds += solve;
    }

    /// Adds another policy instance's statistics (runs split per virtual cluster).
    pub fn merge(&mut self, other: &SolverStats) {
        if self.backend.is_empty() {
            self.backend = other.backend.clone();
        }
        self.solves += other.solves;
        self.max_variables = self.max_variables.max(other.max_variables);
        self.max_constraints = self.max_constraints.max(other.max_constraints);
        self.build_seconds += other.build_seconds;
        self.solve_seconds += other.solve_seconds;
        self.relaxed += other.relaxed;
        self.fell_back += other.fell_back;
    }
}

/// What a policy says about a run beyond its decisions: named numbers (a share per job size,
/// say) and named series over time, for reports. Deterministic, as the run is; never part of a
/// run's metrics.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PolicyReport {
    /// Named values, in the order the policy gives them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<(String, f64)>,
    /// Named series of `(hours since the start of the run, value)` points, at most a few
    /// hundred points each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<(String, Vec<(f64, f64)>)>,
}

impl PolicyReport {
    /// Whether the report says nothing.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.series.is_empty()
    }

    /// Adds another policy instance's report (runs split per virtual cluster), its names
    /// prefixed with `part/`.
    pub fn merge(&mut self, part: &str, other: &PolicyReport) {
        self.values.extend(other.values.iter().map(|(name, value)| (format!("{part}/{name}"), *value)));
        self.series.extend(other.series.iter().map(|(name, points)| (format!("{part}/{name}"), points.clone())));
    }
}

/// A cluster scheduling policy.
///
/// The engine calls [`Policy::schedule`] once per decision point (after all arrivals,
/// completions and ticks at the same instant) and carries out the returned [`Decision`],
/// refusing invalid ones. Policies see only the [`Context`]; they never see future arrivals or
/// the engine's ground-truth performance model.
pub trait Policy: Send {
    /// Returns the policy's canonical name with its parameters, e.g. `las[quantum=360]`.
    fn name(&self) -> &str;

    /// Returns what the policy may know; the engine fills [`crate::OracleInfo`] only for
    /// [`Knowledge::Oracle`].
    fn knowledge(&self) -> Knowledge {
        Knowledge::Realistic
    }

    /// Returns true if and only if the policy may give a job a different number of GPUs than it
    /// requested (Pollux, Optimus).
    fn is_elastic(&self) -> bool {
        false
    }

    /// Returns the time slice in seconds when the policy takes a running job's GPUs for a
    /// waiting job once the job has run that long (Gandiva's quantum); `None` (the default) for
    /// policies that do not slice time. A restart overhead at least this long would let no job
    /// progress while jobs wait, so runs refuse it before simulating.
    fn time_slice(&self) -> Option<f64> {
        None
    }

    /// Called once before the first decision of a run. Default: nothing.
    fn begin_run(&mut self, run: &RunStart<'_>) -> Result<(), PolicyError> {
        let _ = run;
        Ok(())
    }

    /// Decides what changes at this decision point.
    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError>;

    /// Called once after the last decision of a run (also when it stops at `max_time`).
    /// Default: nothing.
    fn end_run(&mut self) {}

    /// Returns what the policy's solver did so far (`None` for policies without one).
    fn solver_stats(&self) -> Option<SolverStats> {
        None
    }

    /// Returns what the policy reports of the run, asked once after [`Policy::end_run`]
    /// (`None`, the default, for policies with nothing to say).
    fn report(&self) -> Option<PolicyReport> {
        None
    }
}

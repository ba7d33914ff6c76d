//! The [`Policy`] trait: the one thing a new scheduler must implement.

use crate::{ClusterView, Decision, JobId, JobsView, Time};

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
    /// True if and only if a tick the policy asked for is due at `now`.
    pub tick: bool,
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

    /// Decides what changes at this decision point.
    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError>;
}

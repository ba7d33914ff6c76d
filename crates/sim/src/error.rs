//! Errors of a simulation run.

use schedlab_cluster::PerfError;
use schedlab_core::{JobId, NodeId, PolicyError, Time};

/// Occurs when a run cannot continue; every variant names the policy, time and job involved.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    /// Occurs when the workload is malformed (ids, order, sizes) before anything runs.
    #[error("invalid workload: {job}: {message}")]
    Workload {
        /// The offending job.
        job: JobId,
        /// What was wrong and what was expected.
        message: String,
    },
    /// Occurs when an engine setting is out of range.
    #[error("invalid engine setting: {message}")]
    Config {
        /// Which setting, its value and the expected range.
        message: String,
    },
    /// Occurs when the perf model has no rate for a job where it was (or would be) placed.
    #[error("policy '{policy}' at {time}: {job}: {cause}")]
    Perf {
        /// The policy's name.
        policy: String,
        /// Simulated time.
        time: Time,
        /// The job.
        job: JobId,
        /// The model's error (boxed: it is large and rare). Not an error `source`: the message
        /// already includes it, and a chain printer would repeat it.
        cause: Box<PerfError>,
    },
    /// Occurs when the policy itself fails.
    #[error("policy '{policy}' failed at {time}: {cause}")]
    Policy {
        /// The policy's name.
        policy: String,
        /// Simulated time.
        time: Time,
        /// The policy's error (in the message; not a chained `source`).
        cause: PolicyError,
    },
    /// Occurs when a decision breaks a rule; the engine never repairs a decision.
    #[error(
        "policy '{policy}' at {time}: invalid decision{}{}: {reason}",
        job.map(|job| format!(" for {job}")).unwrap_or_default(),
        node.map(|node| format!(" on {node}")).unwrap_or_default()
    )]
    InvalidDecision {
        /// The policy's name.
        policy: String,
        /// Simulated time.
        time: Time,
        /// The job the faulty entry is about, if it is about one.
        job: Option<JobId>,
        /// The node involved, if any.
        node: Option<NodeId>,
        /// Which rule was broken.
        reason: String,
    },
    /// Occurs when jobs wait on an idle cluster and nothing can ever change that.
    #[error("policy '{policy}' stalled at {time}: {message}")]
    Stalled {
        /// The policy's name.
        policy: String,
        /// Simulated time.
        time: Time,
        /// What is stuck and the likely reason.
        message: String,
    },
    /// Occurs when an engine invariant breaks: a bug in schedlab, please report it.
    #[error("engine invariant violated at {time}: {message}")]
    Invariant {
        /// Simulated time.
        time: Time,
        /// Which invariant.
        message: String,
    },
}

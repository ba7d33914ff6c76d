//! The immutable description of a job, as the workload gives it.

use crate::{JobId, Time};
use serde::{Deserialize, Serialize};

/// How a job ended in the original trace, normalised across trace formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceStatus {
    /// Finished successfully (Philly `Pass`, Helios `COMPLETED`, PAI `Terminated`).
    Completed,
    /// Ended by its user or by an operator (Philly `Killed`, Helios `CANCELLED`).
    Canceled,
    /// Ended with an error (Philly and Helios `Failed`, PAI `Failed`).
    Failed,
    /// Hit its time limit (Helios `TIMEOUT`).
    Timeout,
    /// Ended because its node failed (Helios `NODE_FAIL`).
    NodeFail,
    /// The trace records no status or one outside this list.
    Unknown,
}

/// CPU cores a parameter server uses when its job does not say ([`JobSpec::ps_cpus`]): one,
/// our assumption (DL2's jobs declare theirs per model).
pub const DEFAULT_PS_CPUS: f64 = 1.0;

/// A training job as the workload describes it: what the engine simulates.
///
/// Only some fields are visible to policies (see [`crate::JobView`]): the amount of work and
/// the trace's duration and status are ground truth that a real scheduler does not know.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobSpec {
    /// Index of the job in the workload; workloads are sorted by arrival.
    pub id: JobId,
    /// The job's id in its source trace, if it had one.
    pub name: Option<String>,
    /// Submission time.
    pub arrival: Time,
    /// Number of GPUs the job requests (its gang size or scale factor).
    pub gpus: u32,
    /// Model or template name; the perf model keys on it (e.g. `ResNet-50 (batch size 64)`).
    pub job_type: String,
    /// Total work in steps (iterations); for rigid trace jobs, seconds on the reference GPU.
    pub work: f64,
    /// The work its user declared at submission (epochs or steps converted to steps), which a
    /// realistic policy may see; may differ from `work` by an estimation error. `None`: not
    /// declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_work: Option<f64>,
    /// Seconds without progress after this job is started again or moved (its checkpoint's
    /// restore time); `None` uses the run's `restart_overhead`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_overhead: Option<f64>,
    /// Priority weight (1.0 unless the trace or generator says otherwise).
    pub weight: f64,
    /// The submitting user, if known.
    pub user: Option<String>,
    /// The virtual cluster or queue, if known.
    pub vc: Option<String>,
    /// Batch size, if known.
    pub batch_size: Option<u32>,
    /// CPU cores requested, if known.
    pub cpus: Option<f64>,
    /// CPU cores each of its parameter servers uses (DL2's per-model demand); `None`:
    /// [`DEFAULT_PS_CPUS`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ps_cpus: Option<f64>,
    /// Memory requested in GiB, if known.
    pub mem_gib: Option<f64>,
    /// The GPU type the job must run on, as its trace records it (Alibaba's `gpu_type`); `None`:
    /// any type its perf model supports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_type: Option<String>,
    /// The node group (virtual cluster) the job must stay in when one cluster is shared by
    /// several VCs; `None`: any node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<String>,
    /// Run time recorded by the trace, in seconds (ground truth, not visible to policies).
    pub trace_duration: Option<f64>,
    /// Final status recorded by the trace (ground truth, not visible to policies).
    pub trace_status: Option<TraceStatus>,
}

impl JobSpec {
    /// Returns a job with the given essentials, weight 1 and every optional field empty.
    pub fn new(id: JobId, arrival: Time, gpus: u32, job_type: impl Into<String>, work: f64) -> JobSpec {
        JobSpec {
            id,
            name: None,
            arrival,
            gpus,
            job_type: job_type.into(),
            work,
            declared_work: None,
            restart_overhead: None,
            weight: 1.0,
            user: None,
            vc: None,
            batch_size: None,
            cpus: None,
            ps_cpus: None,
            mem_gib: None,
            gpu_type: None,
            pool: None,
            trace_duration: None,
            trace_status: None,
        }
    }

    /// Returns the job with its user set.
    pub fn with_user(mut self, user: impl Into<String>) -> JobSpec {
        self.user = Some(user.into());
        self
    }

    /// Returns the job with its CPU request set.
    pub fn with_cpus(mut self, cpus: f64) -> JobSpec {
        self.cpus = Some(cpus);
        self
    }
}

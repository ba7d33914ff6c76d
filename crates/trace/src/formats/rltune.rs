//! RLTune's SWF-like GPU trace.

use crate::csvfile::CsvFile;
use crate::{Clock, Trace, TraceError, TraceJob};
use schedlab_core::TraceStatus;
use std::path::Path;

/// Column names of the 19-column layout (Standard Workload Format order).
const COLUMNS: &[&str] = &[
    "job_id",
    "submit_time",
    "wait_time",
    "run_time",
    "num_gpus",
    "avg_cpu_time",
    "used_memory",
    "requested_procs",
    "requested_time",
    "requested_memory",
    "status",
    "user_id",
    "group_id",
    "executable",
    "queue",
    "partition",
    "preceding_job",
    "think_time",
    "gpu_type",
];

/// Maps SWF's "unknown" (`-1`) to the empty string.
fn known(text: &str) -> &str {
    if text == "-1" { "" } else { text }
}

/// Loads `rltune-swf`: headerless, 19 comma-separated SWF columns with `-1` for unknown
/// (`job_id, submit_time, wait_time, run_time, num_gpus, ..., status (10), user (11), group (12),
/// ..., vc (17), gpu type code (18)`). Status follows SWF: 1 and 3 completed, 0 and 4 failed,
/// 5 cancelled; other codes (RLTune writes 2, "partial execution") are unknown.
pub fn load(path: &Path) -> Result<Trace, TraceError> {
    let mut csv = CsvFile::open(path, false, COLUMNS)?;
    let mut trace = Trace::new("rltune-swf", path, Clock::Relative);
    while csv.next()? {
        trace.summary.rows += 1;
        let submit = csv.number(1, "a submit time in seconds")?;
        let run_time = csv.number(3, "a run time in seconds")?;
        let gpus = csv.number(4, "a number of GPUs")?;
        if submit < 0.0 || run_time < 0.0 || gpus < 0.0 {
            return Err(csv.error("submit_time, run_time and num_gpus must be known (not -1) and >= 0".into()));
        }
        let status = match csv.text(10)? {
            "1" | "3" => TraceStatus::Completed,
            "0" | "4" => TraceStatus::Failed,
            "5" => TraceStatus::Canceled,
            _ => TraceStatus::Unknown,
        };
        let mut job = TraceJob::new(submit, gpus, csv.line() as u32);
        job.duration = Some(run_time);
        job.status = status;
        job.name = trace.symbols.intern(csv.text(0)?);
        job.user = trace.symbols.intern(known(csv.text(11)?));
        job.vc = trace.symbols.intern(known(csv.text(17)?));
        job.gpu_type = trace.symbols.intern(known(csv.text(18)?));
        trace.push(job);
    }
    Ok(trace)
}

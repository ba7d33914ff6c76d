//! Helios (SenseTime): the per-cluster `cluster_log.csv` and the DIR-LAB 15k sample.

use crate::csvfile::CsvFile;
use crate::datetime::parse_naive;
use crate::{Clock, Trace, TraceError, TraceJob};
use schedlab_core::TraceStatus;
use std::path::Path;

/// Loads `helios`: `cluster_log.csv` with header
/// `job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue`.
/// `gpu_num` 0 marks a CPU job (kept, with 0 GPUs); times are naive date-times.
pub fn load(path: &Path) -> Result<Trace, TraceError> {
    const COLUMNS: &[&str] = &[
        "job_id",
        "user",
        "vc",
        "gpu_num",
        "cpu_num",
        "node_num",
        "state",
        "submit_time",
        "start_time",
        "end_time",
        "duration",
        "queue",
    ];
    let mut csv = CsvFile::open(path, true, COLUMNS)?;
    let mut trace = Trace::new("helios", path, Clock::WallClock);
    while csv.next()? {
        trace.summary.rows += 1;
        let submit = parse_naive(csv.text(7)?).ok_or_else(|| csv.invalid(7, "a date-time YYYY-MM-DD HH:MM:SS"))?;
        let status = match csv.text(6)? {
            "COMPLETED" => TraceStatus::Completed,
            "CANCELLED" => TraceStatus::Canceled,
            "FAILED" => TraceStatus::Failed,
            "TIMEOUT" => TraceStatus::Timeout,
            "NODE_FAIL" => TraceStatus::NodeFail,
            _ => return Err(csv.invalid(6, "one of COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL")),
        };
        let gpus = csv.whole(3, "a whole number of GPUs")?;
        let cpus = csv.whole(4, "a whole number of CPUs")?;
        let duration = csv.number(10, "a duration in seconds")?;
        if duration < 0.0 {
            return Err(csv.invalid(10, "a duration >= 0"));
        }
        let mut job = TraceJob::new(submit as f64, f64::from(gpus), csv.line() as u32);
        job.duration = Some(duration);
        job.cpus = Some(cpus as f32);
        job.status = status;
        job.name = trace.symbols.intern(csv.text(0)?);
        job.user = trace.symbols.intern(csv.text(1)?);
        job.vc = trace.symbols.intern(csv.text(2)?);
        trace.push(job);
    }
    Ok(trace)
}

/// Loads `helios-dirlab`: `u_id,user,gpu_num,cpu_num,node_num,interval,run_time,wall_time,new_status`,
/// where `interval` is seconds since the previous submission (so submit times are its running
/// sum) and `new_status` is Pass, Failed or Killed. `wall_time` is not used.
pub fn load_dirlab(path: &Path) -> Result<Trace, TraceError> {
    const COLUMNS: &[&str] =
        &["u_id", "user", "gpu_num", "cpu_num", "node_num", "interval", "run_time", "wall_time", "new_status"];
    let mut csv = CsvFile::open(path, true, COLUMNS)?;
    let mut trace = Trace::new("helios-dirlab", path, Clock::Relative);
    let mut submit = 0.0;
    while csv.next()? {
        trace.summary.rows += 1;
        let interval = csv.number(5, "seconds since the previous submission")?;
        if interval < 0.0 {
            return Err(csv.invalid(5, "an interval >= 0"));
        }
        submit += interval;
        let status = match csv.text(8)? {
            "Pass" => TraceStatus::Completed,
            "Failed" => TraceStatus::Failed,
            "Killed" => TraceStatus::Canceled,
            _ => return Err(csv.invalid(8, "Pass, Failed or Killed")),
        };
        let duration = csv.number(6, "a run time in seconds")?;
        if duration < 0.0 {
            return Err(csv.invalid(6, "a run time >= 0"));
        }
        let mut job = TraceJob::new(submit, f64::from(csv.whole(2, "a whole number of GPUs")?), csv.line() as u32);
        job.cpus = Some(csv.whole(3, "a whole number of CPUs")? as f32);
        job.duration = Some(duration);
        job.status = status;
        job.name = trace.symbols.intern(csv.text(0)?);
        job.user = trace.symbols.intern(csv.text(1)?);
        trace.push(job);
    }
    Ok(trace)
}

//! Pollux's evaluation workloads.

use crate::csvfile::CsvFile;
use crate::{Clock, Trace, TraceError, TraceJob};
use std::path::Path;

/// Loads `pollux`: `workload-N.csv` with header `name,time,application,num_replicas,batch_size`;
/// `time` is seconds since the start, `application` the job type, `num_replicas` the initial GPUs.
/// Durations are not recorded: Pollux's own model decides when a job is done.
pub fn load(path: &Path) -> Result<Trace, TraceError> {
    const COLUMNS: &[&str] = &["name", "time", "application", "num_replicas", "batch_size"];
    let mut csv = CsvFile::open(path, true, COLUMNS)?;
    let mut trace = Trace::new("pollux", path, Clock::Relative);
    while csv.next()? {
        trace.summary.rows += 1;
        let time = csv.number(1, "seconds since the start")?;
        if time < 0.0 {
            return Err(csv.invalid(1, "seconds >= 0"));
        }
        let replicas = csv.whole(3, "a whole number of replicas")?;
        let mut job = TraceJob::new(time, f64::from(replicas), csv.line() as u32);
        job.batch_size = Some(csv.whole(4, "a whole batch size")?);
        job.name = trace.symbols.intern(csv.text(0)?);
        job.job_type = trace.symbols.intern(csv.text(2)?);
        trace.push(job);
    }
    Ok(trace)
}

//! Philly: the Pollux/Sia CSV, Gavel's (duration, GPUs) distribution, and the raw job log.

use crate::csvfile::CsvFile;
use crate::datetime::{PacificReading, pacific_reading, parse_naive};
use crate::{Clock, Trace, TraceError, TraceJob};
use schedlab_core::TraceStatus;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Loads `philly-pollux`: `timestamp,duration,num_gpus,gpu_time,cluster` with naive date-times,
/// durations in seconds and the VC in `cluster`. Rows stay in file order (the file is
/// unsorted) and duplicates are kept; use the `sort` and `dedup` transforms.
pub fn load_pollux(path: &Path) -> Result<Trace, TraceError> {
    const COLUMNS: &[&str] = &["timestamp", "duration", "num_gpus", "gpu_time", "cluster"];
    let mut csv = CsvFile::open(path, true, COLUMNS)?;
    let mut trace = Trace::new("philly-pollux", path, Clock::WallClock);
    while csv.next()? {
        trace.summary.rows += 1;
        let submit = parse_naive(csv.text(0)?).ok_or_else(|| csv.invalid(0, "a date-time YYYY-MM-DD HH:MM:SS"))?;
        let duration = csv.number(1, "a duration in seconds")?;
        if duration < 0.0 {
            return Err(csv.invalid(1, "a duration >= 0"));
        }
        let gpus = csv.whole(2, "a whole number of GPUs")?;
        csv.number(3, "GPU-seconds")?;
        let mut job = TraceJob::new(submit as f64, f64::from(gpus), csv.line() as u32);
        job.duration = Some(duration);
        job.vc = trace.symbols.intern(csv.text(4)?);
        trace.push(job);
    }
    Ok(trace)
}

/// Loads `philly-gavel-dist`: `duration_s,num_gpus` pairs that Gavel samples jobs from. Every
/// job is submitted at 0; the file is a distribution, not a trace.
pub fn load_gavel_distribution(path: &Path) -> Result<Trace, TraceError> {
    const COLUMNS: &[&str] = &["duration_s", "num_gpus"];
    let mut csv = CsvFile::open(path, true, COLUMNS)?;
    let mut trace = Trace::new("philly-gavel-dist", path, Clock::Relative);
    while csv.next()? {
        trace.summary.rows += 1;
        let duration = csv.number(0, "a duration in seconds")?;
        if duration < 0.0 {
            return Err(csv.invalid(0, "a duration >= 0"));
        }
        let gpus = csv.whole(1, "a whole number of GPUs")?;
        let mut job = TraceJob::new(0.0, f64::from(gpus), csv.line() as u32);
        job.duration = Some(duration);
        trace.push(job);
    }
    Ok(trace)
}

/// Which attempt's GPUs a raw Philly job gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttemptGpus {
    /// The last attempt: the one whose outcome is the job's status.
    #[default]
    Last,
    /// The first attempt: what the user first asked for.
    First,
    /// The largest attempt.
    Max,
}

/// How a raw Philly job's duration is computed from its attempts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttemptDuration {
    /// The sum of each attempt's end minus start: time actually holding GPUs.
    #[default]
    Sum,
    /// The last attempt's end minus the first attempt's start, gaps between retries included.
    Span,
}

/// The clock of the raw log's times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhillyClock {
    /// US-Pacific wall clock, converted to UTC with US daylight-saving rules (the log's clock).
    #[default]
    Pacific,
    /// Take the times as they are.
    Naive,
}

/// Choices for the raw Philly job log, each a documented default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PhillyRawOptions {
    /// Which attempt's GPUs count.
    pub attempt_gpus: AttemptGpus,
    /// How duration is computed.
    pub duration: AttemptDuration,
    /// The clock of the times.
    pub clock: PhillyClock,
}

/// The load summary's note for attempts read across the end of daylight time.
pub const FALL_BACK_READING: &str =
    "an attempt spans the end of daylight time (its start read as daylight time, its end as standard time)";

/// A JSON value as an error shows what was found: shortened, or "nothing" when absent.
fn found(value: Option<&serde_json::Value>) -> String {
    value.map_or("nothing".to_string(), |value| crate::text::shown(&value.to_string()))
}

fn time_field(value: Option<&serde_json::Value>) -> Result<Option<&str>, String> {
    match value {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(text)) if text.is_empty() || text == "None" => Ok(None),
        Some(serde_json::Value::String(text)) => Ok(Some(text)),
        Some(other) => Err(format!("expected a date-time string, \"None\", \"\" or null, got {other}")),
    }
}

/// Loads `philly-raw`: the Philly `cluster_job_log` JSON array of
/// `{status, vc, jobid, submitted_time, user, attempts: [{start_time, end_time, detail: [{ip, gpus}]}]}`.
///
/// Jobs with no attempts (never started) and jobs with an attempt missing its start or end
/// time are left out and counted. Lines in errors are the job's 1-based index in the array.
pub fn load_raw(path: &Path, options: PhillyRawOptions) -> Result<Trace, TraceError> {
    let value: serde_json::Value = serde_json::from_reader(std::io::BufReader::new(crate::text::open(path)?))
        .map_err(|source| TraceError::row(path, source.line() as u64, format!("invalid JSON: {source}")))?;
    let jobs = value.as_array().ok_or_else(|| TraceError::row(path, 1, "expected a JSON array of jobs"))?;
    let mut trace = Trace::new("philly-raw", path, Clock::WallClock);
    let convert = |seconds: i64| match options.clock {
        PhillyClock::Pacific => pacific_reading(seconds),
        PhillyClock::Naive => Some(PacificReading::Unambiguous(seconds)),
    };
    for (index, job) in jobs.iter().enumerate() {
        trace.summary.rows += 1;
        let line = index as u64 + 1;
        if !job.is_object() {
            return Err(TraceError::row(
                path,
                line,
                format!(
                    "job {line} of the array: expected a JSON object with status, vc, jobid, submitted_time, user and \
                     attempts, found {}",
                    found(Some(job))
                ),
            ));
        }
        let id = job.get("jobid").and_then(serde_json::Value::as_str).unwrap_or("?");
        let fail =
            |message: String| TraceError::row(path, line, format!("job '{}': {message}", crate::text::shown(id)));
        let parse_time = |field: &str,
                          value: Option<&serde_json::Value>|
         -> Result<Option<PacificReading>, TraceError> {
            match time_field(value).map_err(|message| fail(format!("field '{field}': {message}")))? {
                None => Ok(None),
                Some(text) => parse_naive(text).and_then(convert).map(Some).ok_or_else(|| {
                    fail(format!("field '{field}': expected '%Y-%m-%d %H:%M:%S', got '{}'", crate::text::shown(text)))
                }),
            }
        };
        let Some(submit) = parse_time("submitted_time", job.get("submitted_time"))?.map(PacificReading::usual) else {
            trace.summary.drop_row("no submitted_time");
            continue;
        };
        let status = match job.get("status").and_then(serde_json::Value::as_str) {
            Some("Pass") => TraceStatus::Completed,
            Some("Killed") => TraceStatus::Canceled,
            Some("Failed") => TraceStatus::Failed,
            Some(_) => TraceStatus::Unknown,
            None => return Err(fail("field 'status': expected \"Pass\", \"Killed\" or \"Failed\"".into())),
        };
        let attempts = match job.get("attempts") {
            Some(serde_json::Value::Array(attempts)) => attempts.as_slice(),
            None | Some(serde_json::Value::Null) => &[],
            Some(other) => return Err(fail(format!("field 'attempts': expected an array, got {other}"))),
        };
        if attempts.is_empty() {
            trace.summary.drop_row("no attempts (never started)");
            continue;
        }
        let mut spans = Vec::with_capacity(attempts.len());
        let mut gpu_counts = Vec::with_capacity(attempts.len());
        for (number, attempt) in attempts.iter().enumerate() {
            let start = parse_time(&format!("attempts[{number}].start_time"), attempt.get("start_time"))?;
            let end = parse_time(&format!("attempts[{number}].end_time"), attempt.get("end_time"))?;
            let details = match attempt.get("detail") {
                Some(serde_json::Value::Array(details)) => details,
                other => {
                    return Err(fail(format!(
                        "field 'attempts[{number}].detail': expected an array of {{\"ip\", \"gpus\": [...]}}, got {}",
                        found(other)
                    )));
                }
            };
            let mut gpus = 0;
            for (machine, detail) in details.iter().enumerate() {
                match detail.get("gpus") {
                    Some(serde_json::Value::Array(list)) => gpus += list.len(),
                    other => {
                        return Err(fail(format!(
                            "field 'attempts[{number}].detail[{machine}].gpus': expected an array of GPU names, got {}",
                            found(other)
                        )));
                    }
                }
            }
            spans.push(start.zip(end));
            gpu_counts.push(gpus);
        }
        if spans.iter().any(Option::is_none) {
            trace.summary.drop_row("attempt without start or end time");
            continue;
        }
        let mut across_fall_back = false;
        let mut seconds = Vec::with_capacity(spans.len());
        for (number, (start, end)) in spans.into_iter().flatten().enumerate() {
            let (first, last) = (start.usual(), end.usual());
            if last >= first {
                seconds.push((first, last));
            } else if end.latest() >= first {
                // Only an end in the hour repeated when daylight time ends reads later as standard
                // time: an end before its start there means the start was daylight time and the
                // end standard time.
                across_fall_back = true;
                seconds.push((first, end.latest()));
            } else {
                return Err(fail(format!(
                    "attempts[{number}] ends before it starts, in every reading of the wall clock{}",
                    if options.clock == PhillyClock::Naive { " (clock: naive)" } else { " (US-Pacific)" }
                )));
            }
        }
        if across_fall_back {
            trace.summary.adjust_row(FALL_BACK_READING);
        }
        let spans = seconds;
        let duration = match options.duration {
            AttemptDuration::Sum => spans.iter().map(|(start, end)| end - start).sum::<i64>(),
            AttemptDuration::Span => spans.last().expect("non-empty").1 - spans[0].0,
        };
        let gpus = match options.attempt_gpus {
            AttemptGpus::Last => *gpu_counts.last().expect("non-empty"),
            AttemptGpus::First => gpu_counts[0],
            AttemptGpus::Max => *gpu_counts.iter().max().expect("non-empty"),
        };
        let mut record = TraceJob::new(submit as f64, gpus as f64, line as u32);
        record.duration = Some(duration as f64);
        record.status = status;
        record.name = trace.symbols.intern(id);
        record.vc = trace.symbols.intern(job.get("vc").and_then(serde_json::Value::as_str).unwrap_or(""));
        record.user = trace.symbols.intern(job.get("user").and_then(serde_json::Value::as_str).unwrap_or(""));
        trace.push(record);
    }
    Ok(trace)
}

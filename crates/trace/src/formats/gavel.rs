//! Gavel's `.trace` TSV files, both layouts, and a writer for the 10-column one.

use crate::{Clock, Trace, TraceError, TraceJob};
use schedlab_core::JobSpec;
use std::io::BufRead;
use std::path::Path;

const TEN: &str = "job_type, command, working_dir, num_steps_arg, needs_data_dir, total_steps, scale_factor, priority_weight, SLO, arrival_time";
const SEVEN: &str = "job_type, command, num_steps_arg, needs_data_dir, total_steps, arrival_time, scale_factor";

/// Loads `gavel`: tab-separated, one job per line, either the 10-column layout
/// (`job_type, command, working_dir, num_steps_arg, needs_data_dir, total_steps, scale_factor,
/// priority_weight, SLO, arrival_time`) or the legacy 7-column one (`job_type, command,
/// num_steps_arg, needs_data_dir, total_steps, arrival_time, scale_factor`), decided per line.
/// Work is `total_steps`, GPUs the scale factor; the job type and scale factor key into a
/// throughput table. Durations are not recorded.
pub fn load(path: &Path) -> Result<Trace, TraceError> {
    let text = crate::text::open(path)?;
    let mut trace = Trace::new("gavel", path, Clock::Relative);
    for (index, line) in std::io::BufReader::new(text).lines().enumerate() {
        let line_number = index as u64 + 1;
        let line = line.map_err(|source| TraceError::io(path, source))?;
        let line = line.trim_end_matches(['\r', '\n']);
        if line.trim().is_empty() {
            continue;
        }
        trace.summary.rows += 1;
        let fields: Vec<&str> = line.split('\t').collect();
        let (job_type, steps, scale, weight, arrival, names) = match fields.len() {
            10 => (0, 5, 6, Some(7), 9, TEN),
            7 => (0, 4, 6, None, 5, SEVEN),
            n => {
                return Err(TraceError::row(
                    path,
                    line_number,
                    format!("expected 10 tab-separated columns ({TEN}) or 7 ({SEVEN}), found {n}"),
                ));
            }
        };
        let column = |index: usize| names.split(", ").nth(index).unwrap_or("?");
        let number = |index: usize, expected: &str| -> Result<f64, TraceError> {
            let text = fields[index].trim();
            text.parse::<f64>().ok().filter(|value| value.is_finite() && *value >= 0.0).ok_or_else(|| {
                TraceError::row(
                    path,
                    line_number,
                    format!(
                        "column {} ('{}'): expected {expected}, got '{}'",
                        index + 1,
                        column(index),
                        crate::text::shown(text)
                    ),
                )
            })
        };
        let work = number(steps, "a number of steps >= 0")?;
        let arrival = number(arrival, "an arrival time in seconds >= 0")?;
        let scale_text = fields[scale].trim();
        let scale_factor: u32 = scale_text.parse().ok().filter(|value| *value >= 1).ok_or_else(|| {
            TraceError::row(
                path,
                line_number,
                format!(
                    "column {} ('scale_factor'): expected a whole number >= 1, got '{}'",
                    scale + 1,
                    crate::text::shown(scale_text)
                ),
            )
        })?;
        let mut job = TraceJob::new(arrival, f64::from(scale_factor), line_number as u32);
        job.work = Some(work);
        if let Some(weight) = weight {
            job.weight = number(weight, "a priority weight >= 0")? as f32;
        }
        job.job_type = trace.symbols.intern(fields[job_type].trim());
        trace.push(job);
    }
    Ok(trace)
}

/// Writes jobs in Gavel's 10-column layout; numbers use Rust's shortest exact representation,
/// so [`load`] reads back the same values (whole numbers print without a decimal point, as
/// Gavel's own parser expects for steps). Command columns hold placeholders.
pub fn write(jobs: &[JobSpec]) -> String {
    let mut out = String::new();
    for job in jobs {
        out.push_str(&format!(
            "{}\tschedlab\t-\t-\t0\t{}\t{}\t{}\t-1\t{}\n",
            job.job_type,
            job.work,
            job.gpus,
            job.weight,
            job.arrival.secs()
        ));
    }
    out
}

/// Writes jobs as Gavel's driver does (`--output_trace_file_name`): `str(job)` then the arrival,
/// with Python's formatting: steps, scale factor and priority as `%d` (truncated), SLO `-1` as
/// `%f`, the arrival as `%f`. Jobs of Gavel's job table get its command, working directory,
/// steps flag and data-directory flag; other job types get placeholders (`schedlab`, `-`, `-`, 0).
pub fn write_as_gavel(jobs: &[JobSpec]) -> String {
    let table = crate::gavel_stream::gavel_job_table();
    let mut out = String::new();
    for job in jobs {
        let (command, working_directory, num_steps_arg, needs_data_dir) =
            match table.iter().find(|row| row.model == job.job_type) {
                Some(row) => (row.command.as_str(), row.working_directory, row.num_steps_arg, row.needs_data_dir),
                None => ("schedlab", "-", "-", false),
            };
        out.push_str(&format!(
            "{}\t{command}\t{working_directory}\t{num_steps_arg}\t{}\t{}\t{}\t{}\t{:.6}\t{:.6}\n",
            job.job_type,
            u8::from(needs_data_dir),
            job.work.trunc(),
            job.gpus,
            job.weight.trunc(),
            -1.0,
            job.arrival.secs()
        ));
    }
    out
}

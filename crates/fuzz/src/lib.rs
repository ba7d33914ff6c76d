//! Fuzz targets: each takes arbitrary bytes and must return without panicking, hanging or
//! accepting what it should refuse. The AFL++ harness (`fuzz/`, outside the workspace) and the
//! bounded smoke test (`tests/smoke.rs`, run by `cargo test`) call the same functions.
//!
//! A target returns `Err` with a message when it finds a property broken without a panic (a
//! loader that kept a job with a non-finite time, say); the harness turns that into a crash.

#![deny(missing_docs)]

use schedlab_core::{DataDir, PolicyParams};
use schedlab_trace::TraceFormat;
use std::path::PathBuf;

/// A fuzz target: `Err` names a property broken without a panic.
pub type Target = fn(&[u8]) -> Result<(), String>;

/// The targets, by the name the harness and the corpus folders use.
pub const TARGETS: &[(&str, Target)] = &[("trace", trace_file), ("spec", spec), ("policy", policy_params)];

/// The formats [`trace_file`] picks from by its input's first byte: every format, in
/// `TraceFormat::ALL`'s order (`fuzz/seeds.py` and the regression inputs rely on it, so a new
/// format goes at the end).
pub const FORMATS: &[TraceFormat] = &TraceFormat::ALL;

/// The folder where [`trace_file`] writes its files: `$SCHEDLAB_FUZZ_SCRATCH` (the AFL++
/// harness's, which forks a process per batch of inputs), else one per process in the
/// temporary folder.
pub fn scratch_dir() -> PathBuf {
    match std::env::var_os("SCHEDLAB_FUZZ_SCRATCH") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::temp_dir().join(format!("schedlab-fuzz-{}", std::process::id())),
    }
}

/// The scratch folder, made if needed.
fn scratch() -> PathBuf {
    let dir = scratch_dir();
    std::fs::create_dir_all(&dir).expect("a writable temporary folder");
    dir
}

/// The input of [`trace_file`] for `format`: its selector byte, then the file.
pub fn trace_input(format: TraceFormat, file: &[u8]) -> Vec<u8> {
    let selector = FORMATS.iter().position(|&known| known == format).expect("a listed format") as u8;
    let mut input = vec![selector];
    input.extend_from_slice(file);
    input
}

/// Loads the input's bytes after the first as a trace file of the format the first byte picks.
/// Alibaba PAI reads two tables: the bytes are split at the first form feed (`\x0c`) into the
/// job table and the task table. A load that succeeds must keep only jobs whose times, GPUs
/// and work are finite and non-negative.
pub fn trace_file(data: &[u8]) -> Result<(), String> {
    let Some((&selector, file)) = data.split_first() else { return Ok(()) };
    let format = FORMATS[usize::from(selector) % FORMATS.len()];
    let dir = scratch();
    let path = match format {
        TraceFormat::AlibabaPai => {
            let (jobs, tasks) = match file.iter().position(|&byte| byte == 0x0c) {
                Some(at) => (&file[..at], &file[at + 1..]),
                None => (file, &b""[..]),
            };
            std::fs::write(dir.join("pai_task_table.csv"), tasks).map_err(|error| error.to_string())?;
            let path = dir.join("pai_job_table.csv");
            std::fs::write(&path, jobs).map_err(|error| error.to_string())?;
            path
        }
        _ => {
            let path = dir.join(format!("input.{}", format.name()));
            std::fs::write(&path, file).map_err(|error| error.to_string())?;
            path
        }
    };
    let Ok(trace) = format.load(&path) else { return Ok(()) };
    for job in &trace.jobs {
        let finite = |value: f64| value.is_finite() && value >= 0.0;
        let fields = [Some(job.submit), job.duration, Some(job.gpus), job.work];
        if !fields.into_iter().flatten().all(finite) {
            return Err(format!("{}: kept a job with a negative or non-finite value: {job:?}", format.name()));
        }
    }
    Ok(())
}

/// Parses and resolves the input (as UTF-8, lossily) as an experiment spec, with no data
/// directory; a spec that resolves must expand into runs.
pub fn spec(data: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    let resolved = schedlab_experiment::Experiment::from_text(&text, "fuzz.yaml", &DataDir::none());
    if resolved.is_ok_and(|experiment| experiment.runs().is_empty()) {
        return Err("a resolved spec with no runs".to_string());
    }
    Ok(())
}

/// Parses the input as a policy name with parameters and, when that parses, describes it
/// through the zoo (reading every parameter, opening no file); a description must name the
/// policy it was asked for.
pub fn policy_params(data: &[u8]) -> Result<(), String> {
    let Ok(text) = std::str::from_utf8(data) else { return Ok(()) };
    let Ok(params) = text.parse::<PolicyParams>() else { return Ok(()) };
    match schedlab_zoo::describe(&params) {
        Ok(summary) if !summary.name.starts_with(&params.name) => {
            Err(format!("'{text}' described as '{}'", summary.name))
        }
        _ => Ok(()),
    }
}

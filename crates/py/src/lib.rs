//! `schedlab._native`: the Python module's Rust half. It adds no logic of its own: runs go
//! through the experiment crate as `schedlab run` does, one run through `run_single` as
//! `schedlab simulate` does, and the zoo (with `py:` policies, see [`provider`]) builds every
//! policy. Results come back as JSON and result files; the Python half (`python/schedlab`) turns
//! them into DataFrames through Arrow.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use schedlab_core::DataDir;
use schedlab_experiment::metric::Metric;
use schedlab_experiment::{Experiment, Progress, RunOptions, WorkerWrapper, run_experiment, run_single_with_jobs};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

mod gym;
mod provider;
mod view;

create_exception!(
    schedlab,
    SchedlabError,
    PyException,
    "A spec, data file, policy or run schedlab cannot go on with; the message names the file, line or key, as the command line's does."
);

/// The experiment of a spec given as text (a dict, as JSON) or as a path.
fn load(text: Option<String>, path: Option<String>) -> Result<Experiment, String> {
    let (text, origin) = spec_text(text, path)?;
    Experiment::from_text(&text, &origin, &DataDir::locate()).map_err(|error| error.to_string())
}

/// A spec's text and where it came from (`path` for a file, `<dict>` for a dict).
fn spec_text(text: Option<String>, path: Option<String>) -> Result<(String, String), String> {
    match (text, path) {
        (Some(text), _) => Ok((text, "<dict>".to_string())),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(&path).map_err(|error| format!("cannot read spec {path}: {error}"))?;
            Ok((text, path))
        }
        (None, None) => Err("a spec needs its text or its path".to_string()),
    }
}

/// Runs every run of a spec not already in `results` and writes its reports, as `schedlab run`
/// does. Returns a JSON object: the result folder, the runs computed and reused, the files
/// written and the tables' names. Ctrl-C stops it: runs under way finish and are stored, the
/// rest are not started, and `KeyboardInterrupt` follows (a rerun resumes).
#[pyfunction]
#[pyo3(signature = (text, path, results, threads = 0, force = false, progress = true))]
fn run(
    py: Python<'_>,
    text: Option<String>,
    path: Option<String>,
    results: PathBuf,
    threads: usize,
    force: bool,
    progress: bool,
) -> PyResult<String> {
    let experiment = py.detach(move || load(text, path)).map_err(SchedlabError::new_err)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let options = RunOptions {
        threads,
        force,
        results_dir: results,
        git_revision: schedlab_experiment::manifest::git_revision(),
        known_checksums: schedlab_data::Sources::builtin().checksums(),
        strict_data: false,
        shard: None,
        budget: None,
        cancel: Some(Arc::clone(&cancel)),
        worker: Some(WorkerWrapper(Arc::new(|body: &mut (dyn FnMut() + Send)| {
            // The thread keeps one Python thread state for its whole life: each call of a
            // Python policy then attaches to it instead of creating and freeing one.
            Python::attach(|py| py.detach(body))
        }))),
    };
    let name = experiment.name().to_string();
    let total = AtomicUsize::new(0);
    let started = std::time::Instant::now();
    // A line when the runs start, then one per tenth of them done (and the last).
    let report = move |event: Progress<'_>| match event {
        Progress::Started { to_run, reused, .. } if progress => {
            total.store(to_run, Ordering::SeqCst);
            eprintln!("schedlab: {name}: {to_run} runs to compute, {reused} reused");
        }
        Progress::Finished { done, key, .. } if progress => {
            let total = total.load(Ordering::SeqCst).max(1);
            if done == total || done * 10 / total > (done - 1) * 10 / total {
                let elapsed = started.elapsed().as_secs_f64();
                eprintln!("schedlab: {name}: {done}/{total} runs done in {elapsed:.1} s (last: {key})");
            }
        }
        Progress::Warning(line) => eprintln!("schedlab: warning: {line}"),
        _ => {}
    };
    // The runs go on a thread of their own, so that this one can watch for Ctrl-C.
    let (done_in, mut done) = mpsc::channel();
    let (result, interrupted) = std::thread::scope(|scope| {
        let (experiment, options, report) = (&experiment, &options, &report);
        scope.spawn(move || {
            let _ = done_in.send(run_experiment(experiment, options, report));
        });
        let mut interrupted = None;
        loop {
            let (received, receiver) = py.detach(move || (done.recv_timeout(Duration::from_millis(100)), done));
            done = receiver;
            match received {
                Ok(result) => return (result, interrupted),
                Err(RecvTimeoutError::Timeout) => {
                    if interrupted.is_none()
                        && let Err(signal) = py.check_signals()
                    {
                        cancel.store(true, Ordering::SeqCst);
                        interrupted = Some(signal);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return (
                        Err(schedlab_experiment::ExperimentError::Stopped(
                            "the runs' thread ended without a result".into(),
                        )),
                        interrupted,
                    );
                }
            }
        }
    });
    if let Some(signal) = interrupted {
        if let Err(error) = &result {
            eprintln!("schedlab: {error}");
        }
        return Err(signal);
    }
    let result = result.map_err(|error| SchedlabError::new_err(error.to_string()))?;
    let tables: Vec<&str> = result.tables.iter().map(|(name, _)| name.as_str()).collect();
    Ok(serde_json::json!({
        "dir": result.dir,
        "ran": result.ran,
        "reused": result.reused,
        "files": result.files,
        "tables": tables,
    })
    .to_string())
}

/// Runs one run of a spec in memory (no store, no reports), as `schedlab simulate` does: the
/// run whose policy, seed and sweep point match (each optional, but together they must leave
/// exactly one). A policy, seed or sweep value the spec does not list is run as if it did
/// (the same workload and run seeds as the spec's own runs of that point and seed). Returns
/// the run's outcome as JSON, with every job's record under `jobs` (each marked `measured`
/// when the spec's window counts it).
#[pyfunction]
#[pyo3(signature = (text, path, policy = None, seed = None, point = None, check = false))]
fn simulate(
    py: Python<'_>,
    text: Option<String>,
    path: Option<String>,
    policy: Option<String>,
    seed: Option<u64>,
    point: Option<Vec<(String, f64)>>,
    check: bool,
) -> PyResult<String> {
    py.detach(move || {
        let asked = asked_run(policy.as_deref(), seed, point.as_deref());
        let (text, origin) = spec_text(text, path)?;
        let mut spec = schedlab_experiment::ExperimentSpec::parse(&text, &origin).map_err(|error| error.to_string())?;
        // Only the asked run is needed: the spec's reports and claims would name other policies.
        spec.tables.clear();
        spec.plots.clear();
        spec.claims.clear();
        if let Some(policy) = &policy {
            let name = schedlab_experiment::spec::PolicyName::try_from(policy.clone())
                .map_err(|error| format!("simulate({asked}): {error}"))?;
            if spec.fairness_reference.as_ref().is_some_and(|reference| reference.to_string() != name.to_string()) {
                spec.fairness_reference = None;
            }
            spec.policies = vec![name];
        }
        if let Some(seed) = seed {
            spec.seeds = schedlab_experiment::spec::Seeds::List(vec![seed]);
        }
        for (axis, value) in point.iter().flatten() {
            let parsed: schedlab_experiment::axis::Axis =
                axis.parse().map_err(|error: String| format!("simulate({asked}): point: {error}"))?;
            spec.sweep.insert(parsed, vec![*value].into());
        }
        let source = schedlab_experiment::prepare::SpecSource { origin, text };
        let experiment = Experiment::resolve(spec, &DataDir::locate(), source).map_err(|error| error.to_string())?;
        let runs = experiment.runs();
        let plan = match runs.as_slice() {
            [plan] => plan,
            several => {
                let shown: Vec<&str> = several.iter().take(5).map(|plan| plan.key.as_str()).collect();
                return Err(format!(
                    "simulate({asked}): {} runs of '{}' match; choose one with policy=, seed= and point= (e.g. {}{})",
                    several.len(),
                    experiment.name(),
                    shown.join(", "),
                    if several.len() > shown.len() { ", ..." } else { "" }
                ));
            }
        };
        let (outcome, records) = run_single_with_jobs(&experiment, plan, check).map_err(|error| error.to_string())?;
        // Every per-run metric under its runs.csv name and unit, as `Run.metrics` gives them.
        let metrics: serde_json::Map<String, serde_json::Value> = Metric::per_run()
            .filter_map(|metric| metric.of_run(&outcome.metrics).map(|value| (metric.to_string(), value.into())))
            .collect();
        let gpu_types = experiment.setup.cluster.gpu_types();
        let window = &experiment.inputs.sim.window;
        let jobs: Vec<serde_json::Value> = records
            .iter()
            .map(|record| {
                // The type it held the most GPU-seconds on (none if it never ran).
                let most = record
                    .gpu_seconds
                    .iter()
                    .enumerate()
                    .filter(|(_, seconds)| **seconds > 0.0)
                    .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
                    .map(|(index, _)| gpu_types[index].clone());
                serde_json::json!({
                    "job": record.id,
                    "name": record.name,
                    "job_type": record.job_type,
                    "gpus": record.gpus,
                    "gpu_type": most,
                    "arrival_s": record.arrival,
                    "first_start_s": record.first_start,
                    "finish_s": record.finish,
                    "jct_s": record.jct,
                    "queueing_delay_s": record.queueing_delay,
                    "waiting_time_s": record.waiting_time,
                    "run_time_s": record.run_time,
                    "restarts": record.restarts,
                    "reconfigurations": record.reconfigurations,
                    "measured": window.contains(record.id, schedlab_core::Time::from_secs(record.arrival)),
                })
            })
            .collect();
        let mut answer = serde_json::to_value(&outcome).map_err(|error| error.to_string())?;
        answer["metrics"] = serde_json::Value::Object(metrics);
        answer["jobs"] = serde_json::Value::Array(jobs);
        Ok(answer.to_string())
    })
    .map_err(|message: String| SchedlabError::new_err(message))
}

/// How `simulate` was called, in Python's words: `policy='fifo', seed=3, point={'jobs': 60.0}`.
fn asked_run(policy: Option<&str>, seed: Option<u64>, point: Option<&[(String, f64)]>) -> String {
    let mut parts = Vec::new();
    if let Some(policy) = policy {
        parts.push(format!("policy={policy:?}").replace('"', "'"));
    }
    if let Some(seed) = seed {
        parts.push(format!("seed={seed}"));
    }
    if let Some(point) = point {
        let values: Vec<String> = point.iter().map(|(axis, value)| format!("'{axis}': {value:?}")).collect();
        parts.push(format!("point={{{}}}", values.join(", ")));
    }
    parts.join(", ")
}

/// Every registered policy: name, whether it is an oracle, its parameters with defaults, and
/// what it does, as JSON.
#[pyfunction]
fn policies() -> String {
    let entries: Vec<serde_json::Value> = schedlab_zoo::entries()
        .map(|entry| {
            serde_json::json!({
                "name": entry.name,
                "oracle": entry.oracle,
                "params": entry.params_text(),
                "description": entry.description,
            })
        })
        .collect();
    serde_json::Value::Array(entries).to_string()
}

/// The data directory schedlab reads (`SCHEDLAB_DATA`, `./data`, `../shared/data`), if found.
#[pyfunction]
fn data_dir() -> Option<PathBuf> {
    DataDir::locate().root().map(Path::to_path_buf)
}

/// The Python module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    schedlab_zoo::install_provider("py", Arc::new(provider::PythonPolicies));
    module.add("SchedlabError", module.py().get_type::<SchedlabError>())?;
    // The package's version (pyproject.toml and Cargo.toml give the same).
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_function(wrap_pyfunction!(run, module)?)?;
    module.add_function(wrap_pyfunction!(simulate, module)?)?;
    module.add_function(wrap_pyfunction!(policies, module)?)?;
    module.add_function(wrap_pyfunction!(data_dir, module)?)?;
    module.add_class::<view::Context>()?;
    module.add_class::<view::Cluster>()?;
    module.add_class::<view::Job>()?;
    module.add_class::<view::Jobs>()?;
    module.add_class::<view::Allocation>()?;
    module.add_class::<view::Decision>()?;
    module.add_class::<view::RunInfo>()?;
    module.add_class::<gym::rltune::RlTuneEpisodes>()?;
    module.add_class::<gym::dl2::Dl2Episodes>()?;
    Ok(())
}

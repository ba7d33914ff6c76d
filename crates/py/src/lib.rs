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
use schedlab_experiment::{Experiment, Progress, RunOptions, WorkerWrapper, run_experiment, run_single};
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

/// A spec's text and where it came from (`path` for a file, `<dict>` for a dict).
fn load(text: Option<String>, path: Option<String>) -> Result<Experiment, String> {
    let (text, origin) = match (text, path) {
        (Some(text), _) => (text, "<dict>".to_string()),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(&path).map_err(|error| format!("cannot read spec {path}: {error}"))?;
            (text, path)
        }
        (None, None) => return Err("a spec needs its text or its path".to_string()),
    };
    Experiment::from_text(&text, &origin, &DataDir::locate()).map_err(|error| error.to_string())
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
/// exactly one). Returns the run's outcome as JSON.
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
        let experiment = load(text, path)?;
        let runs = experiment.runs();
        let matching: Vec<_> = runs
            .iter()
            .filter(|plan| policy.as_ref().is_none_or(|policy| plan.policy.to_string() == *policy))
            .filter(|plan| seed.is_none_or(|seed| plan.seed == seed))
            .filter(|plan| {
                point.as_ref().is_none_or(|point| {
                    point.iter().all(|(axis, value)| {
                        plan.point
                            .0
                            .iter()
                            .any(|(name, at)| name == axis && (at - value).abs() <= 1e-9 * value.abs().max(1.0))
                    })
                })
            })
            .collect();
        let plan = match matching.as_slice() {
            [plan] => *plan,
            [] => {
                return Err(format!(
                    "no run of '{}' matches policy={policy:?}, seed={seed:?}, point={point:?}; its runs: {}",
                    experiment.name(),
                    runs.iter().map(|plan| plan.key.as_str()).collect::<Vec<_>>().join(", ")
                ));
            }
            several => {
                return Err(format!(
                    "{} runs of '{}' match; choose one with policy=, seed= and point= (matching: {})",
                    several.len(),
                    experiment.name(),
                    several.iter().map(|plan| plan.key.as_str()).collect::<Vec<_>>().join(", ")
                ));
            }
        };
        let outcome = run_single(&experiment, plan, check).map_err(|error| error.to_string())?;
        // Every per-run metric under its runs.csv name and unit, as `Run.metrics` gives them.
        let metrics: serde_json::Map<String, serde_json::Value> = Metric::per_run()
            .filter_map(|metric| metric.of_run(&outcome.metrics).map(|value| (metric.to_string(), value.into())))
            .collect();
        let mut answer = serde_json::to_value(&outcome).map_err(|error| error.to_string())?;
        answer["metrics"] = serde_json::Value::Object(metrics);
        Ok(answer.to_string())
    })
    .map_err(|message: String| SchedlabError::new_err(message))
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

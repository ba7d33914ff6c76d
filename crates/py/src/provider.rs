//! Policies written in Python: `py:package.module:Class[key=value,...]` in a spec names a class,
//! which the zoo builds through [`PythonPolicies`] like any registered policy. The engine calls
//! the instance's `schedule(context)` at every decision point and checks what it returns exactly
//! as it checks a Rust policy's decision.

use crate::view::{Active, Context, Decision, Mirror, RunInfo};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use schedlab_core::{
    JobId, Knowledge, ParamError, ParamSummary, Policy, PolicyEnv, PolicyError, PolicyParams, RunStart,
};
use schedlab_zoo::{PolicyProvider, ZooError};
use std::sync::Arc;

/// The provider of `py:` policies, installed when the Python module is imported.
pub struct PythonPolicies;

/// `package.module` and `Class` of a `py:package.module:Class` name.
fn split_name(params: &PolicyParams) -> Result<(&str, &str), ZooError> {
    let path = params.name.strip_prefix("py:").unwrap_or(&params.name);
    match path.rsplit_once(':') {
        Some((module, class)) if !module.is_empty() && !class.is_empty() && !class.contains('.') => Ok((module, class)),
        _ => Err(param_error(
            params,
            "expected py:package.module:Class, e.g. py:schedlab.examples.fifo:Fifo".to_string(),
        )),
    }
}

fn param_error(params: &PolicyParams, message: String) -> ZooError {
    ZooError::Param(ParamError { policy: params.to_string(), message })
}

/// A Python exception as text: its traceback when it has one.
pub(crate) fn describe_exception(py: Python<'_>, error: &PyErr) -> String {
    let formatted = py.import("traceback").and_then(|traceback| {
        let lines =
            traceback.call_method1("format_exception", (error.get_type(py), error.value(py), error.traceback(py)))?;
        let lines: Vec<String> = lines.extract()?;
        Ok(lines.concat())
    });
    formatted.map(|text| text.trim_end().to_string()).unwrap_or_else(|_| error.to_string())
}

/// The class a name points to, and the source files of the module named, of the module that
/// defines the class and of the user modules that define its bases (each once; a module without
/// a file has none; the standard library and installed packages are left out).
fn find_class<'py>(py: Python<'py>, params: &PolicyParams) -> Result<(Bound<'py, PyAny>, Vec<String>), ZooError> {
    let (module_name, class_name) = split_name(params)?;
    let module = py.import(module_name).map_err(|error| {
        // A module that is nowhere on Python's path: say where Python looks.
        let hint = if error.is_instance_of::<pyo3::exceptions::PyModuleNotFoundError>(py) {
            "; Python looks for it on sys.path (the script's folder and PYTHONPATH): add the folder \
             that holds it to PYTHONPATH, or install it"
        } else {
            ""
        };
        param_error(params, format!("cannot import module '{module_name}': {}{hint}", describe_exception(py, &error)))
    })?;
    let class = module
        .getattr(class_name)
        .map_err(|_| param_error(params, format!("module '{module_name}' has no class '{class_name}'")))?;
    if !class.hasattr("schedule").unwrap_or(false) {
        return Err(param_error(
            params,
            format!("'{module_name}:{class_name}' has no method schedule(self, context); a policy class needs one"),
        ));
    }
    let file_of = |module: &Bound<'py, PyAny>| -> Option<String> {
        module.getattr("__file__").ok().and_then(|file| file.extract::<String>().ok())
    };
    let mut files: Vec<String> = file_of(module.as_any()).into_iter().collect();
    let defining = class.getattr("__module__").ok().and_then(|name| name.extract::<String>().ok());
    let defining_file =
        defining.and_then(|name| py.import(name.as_str()).ok()).and_then(|module| file_of(module.as_any()));
    if let Some(file) = defining_file.filter(|file| !files.contains(file)) {
        files.push(file);
    }
    // Then the user's modules of its base classes (not the standard library's or installed
    // packages'): editing a base class reruns the runs too.
    let bases: Vec<String> = py
        .import("schedlab._identity")
        .and_then(|identity| identity.call_method1("mro_files", (&class,)))
        .and_then(|bases| bases.extract())
        .map_err(|error| param_error(params, describe_exception(py, &error)))?;
    for file in bases {
        if !files.contains(&file) {
            files.push(file);
        }
    }
    files.retain(|file| std::path::Path::new(file).is_file());
    Ok((class, files))
}

/// A parameter's value as Python reads it: `true`/`false` as bool, then int, then float, else
/// the text.
fn python_value<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    Ok(match text {
        "true" => true.into_pyobject(py)?.to_owned().into_any(),
        "false" => false.into_pyobject(py)?.to_owned().into_any(),
        _ => match (text.parse::<i64>(), text.parse::<f64>()) {
            (Ok(int), _) => int.into_pyobject(py)?.into_any(),
            (_, Ok(float)) => float.into_pyobject(py)?.into_any(),
            _ => text.into_pyobject(py)?.into_any(),
        },
    })
}

impl PolicyProvider for PythonPolicies {
    fn describe(&self, params: &PolicyParams) -> Result<ParamSummary, ZooError> {
        Python::attach(|py| {
            let (class, files) = find_class(py, params)?;
            if !files.is_empty() {
                // The source files are hashed into the identity like data files.
                return Ok(ParamSummary { name: params.to_string(), params: Vec::new(), files });
            }
            // No file (a notebook's class): its source's digest pins the name, which the
            // identity records as it records pinned weights.
            let digest = py
                .import("schedlab._identity")
                .and_then(|module| module.call_method1("class_source_digest", (class,)))
                .and_then(|digest| digest.extract::<Option<String>>())
                .map_err(|error| param_error(params, describe_exception(py, &error)))?
                .ok_or_else(|| {
                    param_error(
                        params,
                        "its module has no source file and Python keeps no source of the class, so a change to it \
                         could not rerun its runs; define it in a module file"
                            .to_string(),
                    )
                })?;
            let mut pinned = params.clone();
            pinned.args.push(("source".to_string(), digest));
            Ok(ParamSummary { name: pinned.to_string(), params: Vec::new(), files: Vec::new() })
        })
    }

    fn build(&self, params: &PolicyParams, _env: &PolicyEnv) -> Result<Box<dyn Policy>, ZooError> {
        Python::attach(|py| {
            let (class, _) = find_class(py, params)?;
            let kwargs = PyDict::new(py);
            for (key, value) in &params.args {
                let value = python_value(py, value).map_err(|error| param_error(params, error.to_string()))?;
                kwargs.set_item(key, value).map_err(|error| param_error(params, error.to_string()))?;
            }
            let instance = class.call((), Some(&kwargs)).map_err(|error| {
                param_error(params, format!("the class's constructor failed: {}", describe_exception(py, &error)))
            })?;
            let knowledge = match instance.getattr("knowledge").ok().map(|value| value.extract::<String>()) {
                None => Knowledge::Realistic,
                Some(Ok(text)) if text == "realistic" => Knowledge::Realistic,
                Some(Ok(text)) if text == "oracle" => Knowledge::Oracle,
                Some(_) => {
                    return Err(param_error(params, "knowledge: expected \"realistic\" or \"oracle\"".to_string()));
                }
            };
            let has = |method: &str| instance.hasattr(method).unwrap_or(false);
            Ok(Box::new(PyPolicy {
                name: params.to_string(),
                knowledge,
                has_begin: has("begin_run"),
                has_end: has("end_run"),
                instance: instance.unbind(),
                mirror: Mirror::default(),
                active: Active::default(),
                touched: Vec::new(),
                verify: std::env::var_os("SCHEDLAB_PY_VERIFY").is_some_and(|value| value == "1"),
            }) as Box<dyn Policy>)
        })
    }
}

/// A Python policy instance behind the engine's [`Policy`] trait.
struct PyPolicy {
    name: String,
    knowledge: Knowledge,
    has_begin: bool,
    has_end: bool,
    instance: Py<PyAny>,
    /// The job views the policy's contexts read.
    mirror: Mirror,
    /// The waiting and running jobs' ids.
    active: Active,
    /// Jobs the last decision started or preempted: their views changed since.
    touched: Vec<JobId>,
    /// `SCHEDLAB_PY_VERIFY=1`: check the mirror against the engine's views at every decision.
    verify: bool,
}

impl PyPolicy {
    /// Brings the mirror up to date with `context`. Between two decision points the engine
    /// changes a job's view only when it arrives, finishes, changes rate without a restart
    /// (each listed in the context), or starts or stops by the policy's own decision.
    fn refresh(&mut self, context: &schedlab_core::Context<'_>) -> Result<(), PolicyError> {
        let mirror = Arc::make_mut(&mut self.mirror);
        let changed = context.arrived.iter().chain(context.finished).chain(context.rate_changed).chain(&self.touched);
        for &id in changed {
            if id.index() >= mirror.len() {
                mirror.resize(id.index() + 1, None);
            }
            let view = context.jobs.get(id);
            self.active.update(id, view.map(|view| view.state));
            mirror[id.index()] = view.cloned().map(Arc::new);
        }
        self.touched.clear();
        if self.verify {
            let queued: Vec<JobId> = context.jobs.queued().map(|job| job.id).collect();
            let running: Vec<JobId> = context.jobs.running().map(|job| job.id).collect();
            if *self.active.queued != queued || *self.active.running != running {
                return Err(PolicyError::Unsupported(format!(
                    "SCHEDLAB_PY_VERIFY: the Python policy's waiting or running jobs differ from the engine's at {} s",
                    context.now.secs()
                )));
            }
            let active = context.jobs.active().count();
            let mirrored = mirror.iter().flatten().count();
            for job in context.jobs.active() {
                let copy = mirror.get(job.id.index()).and_then(Option::as_ref);
                if copy.map(|copy| format!("{copy:?}")) != Some(format!("{job:?}")) {
                    return Err(PolicyError::Unsupported(format!(
                        "SCHEDLAB_PY_VERIFY: the Python policy's copy of {} differs from the engine's at {} s",
                        job.id,
                        context.now.secs()
                    )));
                }
            }
            if mirrored != active {
                return Err(PolicyError::Unsupported(format!(
                    "SCHEDLAB_PY_VERIFY: the Python policy holds {mirrored} jobs, the engine {active} active"
                )));
            }
        }
        Ok(())
    }

    fn failure(&self, py: Python<'_>, method: &str, error: &PyErr) -> PolicyError {
        PolicyError::Unsupported(format!("{}.{method} raised:\n{}", self.name, describe_exception(py, error)))
    }
}

impl Policy for PyPolicy {
    fn name(&self) -> &str {
        &self.name
    }

    fn knowledge(&self) -> Knowledge {
        self.knowledge
    }

    fn begin_run(&mut self, run: &RunStart<'_>) -> Result<(), PolicyError> {
        // A partitioned run calls the same policy once per virtual cluster, with its own ids.
        self.mirror = Mirror::default();
        self.active = Active::default();
        self.touched.clear();
        if !self.has_begin {
            return Ok(());
        }
        Python::attach(|py| {
            let info = Py::new(py, RunInfo::new(run)).map_err(|error| self.failure(py, "begin_run", &error))?;
            self.instance
                .call_method1(py, "begin_run", (info,))
                .map_err(|error| self.failure(py, "begin_run", &error))?;
            Ok(())
        })
    }

    fn schedule(&mut self, context: &schedlab_core::Context<'_>) -> Result<schedlab_core::Decision, PolicyError> {
        self.refresh(context)?;
        Python::attach(|py| {
            let snapshot = Context::snapshot(py, context, &self.mirror, &self.active)
                .map_err(|error| self.failure(py, "schedule", &error))?;
            let returned = self
                .instance
                .call_method1(py, "schedule", (snapshot,))
                .map_err(|error| self.failure(py, "schedule", &error))?;
            let returned = returned.bind(py);
            if returned.is_none() {
                return Ok(schedlab_core::Decision::none());
            }
            if let Ok(list) = returned.cast::<PyList>()
                && list.is_empty()
            {
                return Ok(schedlab_core::Decision::none());
            }
            let decision = returned.cast::<Decision>().map_err(|_| {
                PolicyError::Unsupported(format!(
                    "{}.schedule returned {}; expected a schedlab.Decision or None",
                    self.name,
                    returned.get_type().name().map(|name| name.to_string()).unwrap_or_else(|_| "?".to_string())
                ))
            })?;
            let decision = decision.get().to_core().map_err(|error| self.failure(py, "schedule", &error))?;
            self.touched.extend(decision.start.iter().map(|(job, _)| *job).chain(decision.preempt.iter().copied()));
            Ok(decision)
        })
    }

    fn end_run(&mut self) {
        if self.has_end {
            // A failure here cannot change the run, which has ended: the exception is printed.
            Python::attach(|py| {
                if let Err(error) = self.instance.call_method0(py, "end_run") {
                    error.print(py);
                }
            });
        }
    }
}

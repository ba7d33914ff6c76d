//! What a Python policy sees and returns: read-only snapshots of one decision point (the
//! cluster's free resources and the active jobs), allocations found by schedlab's own placer,
//! and the decision the engine checks as it checks a Rust policy's.

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PySlice;
use schedlab_cluster::{PlacementStrategy, Placer, TypeRule};
use schedlab_core::{ClusterView, JobId, JobState, JobView, NodeId, Time};
use std::sync::Arc;

/// Every job a policy has seen active, by id: the Python policy's copy of the engine's job
/// views, refreshed at each decision point for the jobs that changed (see
/// `provider::PyPolicy::refresh`), so that a decision point copies ids, not jobs.
pub(crate) type Mirror = Arc<Vec<Option<Arc<JobView>>>>;

/// The ids of the waiting and the running jobs, each sorted (arrival order), kept up to date
/// with the [`Mirror`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Active {
    pub(crate) queued: Arc<Vec<JobId>>,
    pub(crate) running: Arc<Vec<JobId>>,
}

impl Active {
    /// Files `id` under its new state (`None`: no longer active).
    pub(crate) fn update(&mut self, id: JobId, state: Option<JobState>) {
        for (list, kind) in [(&mut self.queued, JobState::Queued), (&mut self.running, JobState::Running)] {
            let found = list.binary_search(&id);
            match (found, state == Some(kind)) {
                (Ok(at), false) => {
                    Arc::make_mut(list).remove(at);
                }
                (Err(at), true) => Arc::make_mut(list).insert(at, id),
                _ => {}
            }
        }
    }
}

/// One active job at the decision point (a copy: changing nothing in the run).
#[pyclass(module = "schedlab", name = "Job", frozen)]
#[derive(Clone)]
pub struct Job {
    pub(crate) view: Arc<JobView>,
    now: Time,
}

#[pymethods]
impl Job {
    /// The job's id (its index in the workload).
    #[getter]
    fn id(&self) -> u32 {
        self.view.id.0
    }

    /// Arrival time in seconds.
    #[getter]
    fn arrival(&self) -> f64 {
        self.view.arrival.secs()
    }

    /// GPUs requested.
    #[getter]
    fn gpus(&self) -> u32 {
        self.view.gpus
    }

    /// The job's model or type name.
    #[getter]
    fn job_type(&self) -> &str {
        &self.view.job_type
    }

    /// Priority weight.
    #[getter]
    fn weight(&self) -> f64 {
        self.view.weight
    }

    /// The submitting user, if the trace records one.
    #[getter]
    fn user(&self) -> Option<&str> {
        self.view.user.as_deref()
    }

    /// The virtual cluster, if the trace records one.
    #[getter]
    fn vc(&self) -> Option<&str> {
        self.view.vc.as_deref()
    }

    /// The node group the job must run in, if any.
    #[getter]
    fn pool(&self) -> Option<&str> {
        self.view.pool.as_deref()
    }

    /// `"queued"` or `"running"`.
    #[getter]
    fn state(&self) -> &'static str {
        match self.view.state {
            JobState::Queued => "queued",
            JobState::Running => "running",
        }
    }

    /// Whether the job holds GPUs.
    #[getter]
    fn is_running(&self) -> bool {
        self.view.is_running()
    }

    /// The job's allocation while it runs.
    #[getter]
    fn allocation(&self) -> Option<Allocation> {
        self.view.allocation.clone().map(|inner| Allocation { inner })
    }

    /// Restarts so far.
    #[getter]
    fn restarts(&self) -> u32 {
        self.view.restarts
    }

    /// Seconds the job has held GPUs so far.
    #[getter]
    fn run_seconds(&self) -> f64 {
        self.view.run_seconds(self.now)
    }

    /// GPU-seconds of service so far.
    #[getter]
    fn attained_service(&self) -> f64 {
        self.view.attained_service(self.now)
    }

    /// Work the job declared at submission (steps), if it declares any.
    #[getter]
    fn declared_work(&self) -> Option<f64> {
        self.view.declared_work
    }

    /// Seconds the job still needs on its fastest type: only for policies whose class says
    /// `knowledge = "oracle"` (None otherwise).
    #[getter]
    fn remaining_time(&self) -> Option<f64> {
        self.view.oracle_remaining_time(self.now)
    }

    fn __repr__(&self) -> String {
        format!("Job(id={}, gpus={}, state={}, arrival={})", self.id(), self.gpus(), self.state(), self.arrival())
    }

    /// The same job seen at the same decision point (across decision points, compare `id`s).
    fn __eq__(&self, other: PyRef<'_, Job>) -> bool {
        self.view.id == other.view.id && self.now == other.now
    }

    fn __hash__(&self) -> u64 {
        u64::from(self.view.id.0) ^ self.now.secs().to_bits().rotate_left(32)
    }
}

/// The active jobs of one kind at a decision point, in arrival order: a sequence that makes a
/// [`Job`] only for the entries a policy reads.
#[pyclass(module = "schedlab", name = "Jobs", frozen, sequence)]
pub struct Jobs {
    ids: Arc<Vec<JobId>>,
    mirror: Mirror,
    now: Time,
}

impl Jobs {
    fn job(&self, at: usize) -> Job {
        let view = self.mirror[self.ids[at].index()].clone().expect("an active job is in the mirror");
        Job { view, now: self.now }
    }
}

#[pymethods]
impl Jobs {
    fn __len__(&self) -> usize {
        self.ids.len()
    }

    /// A job by index (negative from the end), or the jobs of a slice as a `Jobs`.
    fn __getitem__<'py>(&self, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = index.py();
        if let Ok(slice) = index.cast::<PySlice>() {
            let range = slice.indices(self.ids.len() as isize)?;
            let ids: Vec<JobId> = (0..range.slicelength)
                .map(|taken| self.ids[(range.start + taken as isize * range.step) as usize])
                .collect();
            let jobs = Jobs { ids: Arc::new(ids), mirror: self.mirror.clone(), now: self.now };
            return Ok(Bound::new(py, jobs)?.into_any());
        }
        let index: isize = index.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "job indices must be integers or slices, not {}",
                index.get_type().name().map_or_else(|_| "?".to_string(), |name| name.to_string())
            ))
        })?;
        let len = self.ids.len() as isize;
        let at = if index < 0 { index + len } else { index };
        if !(0..len).contains(&at) {
            return Err(PyIndexError::new_err(format!("job index {index} out of range for {len} jobs")));
        }
        Ok(Bound::new(py, self.job(at as usize))?.into_any())
    }

    fn __iter__(slf: PyRef<'_, Self>) -> JobsIter {
        JobsIter { jobs: Jobs { ids: slf.ids.clone(), mirror: slf.mirror.clone(), now: slf.now }, next: 0 }
    }

    fn __repr__(&self) -> String {
        format!("Jobs({} jobs)", self.ids.len())
    }
}

/// Iterates over [`Jobs`].
#[pyclass(module = "schedlab", name = "JobsIterator")]
pub struct JobsIter {
    jobs: Jobs,
    next: usize,
}

#[pymethods]
impl JobsIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<Job> {
        (self.next < self.jobs.ids.len()).then(|| {
            self.next += 1;
            self.jobs.job(self.next - 1)
        })
    }
}

/// GPUs per node for one job: `Allocation([(node, gpus), ...])`, or what [`Cluster::place`]
/// finds.
#[pyclass(module = "schedlab", name = "Allocation", frozen, from_py_object)]
#[derive(Clone)]
pub struct Allocation {
    pub(crate) inner: schedlab_core::Allocation,
}

#[pymethods]
impl Allocation {
    #[new]
    fn new(parts: Vec<(u32, u32)>) -> Allocation {
        Allocation { inner: schedlab_core::Allocation::new(parts.into_iter().map(|(n, g)| (NodeId(n), g)).collect()) }
    }

    /// `(node, gpus)` pairs, by node.
    #[getter]
    fn parts(&self) -> Vec<(u32, u32)> {
        self.inner.parts.iter().map(|&(node, gpus)| (node.0, gpus)).collect()
    }

    /// GPUs in all.
    #[getter]
    fn gpus(&self) -> u32 {
        self.inner.gpus()
    }

    fn __repr__(&self) -> String {
        format!("Allocation({:?})", self.parts())
    }
}

/// The cluster's free resources at a decision point: a copy the policy may plan on with
/// [`Cluster::take`] (the run's own state changes only through the decision).
#[pyclass(module = "schedlab", name = "Cluster")]
#[derive(Clone)]
pub struct Cluster {
    pub(crate) view: ClusterView,
}

#[pymethods]
impl Cluster {
    /// Free GPUs in all.
    #[getter]
    fn total_free(&self) -> u32 {
        self.view.total_free()
    }

    /// GPUs in all.
    #[getter]
    fn total_gpus(&self) -> u32 {
        self.view.spec().total_gpus()
    }

    /// Number of nodes (ids `0..nodes`).
    #[getter]
    fn nodes(&self) -> usize {
        self.view.spec().nodes().len()
    }

    /// The GPU type names.
    #[getter]
    fn gpu_types(&self) -> Vec<String> {
        self.view.spec().gpu_types().to_vec()
    }

    /// Free GPUs on `node`.
    fn free(&self, node: u32) -> PyResult<u32> {
        self.check_node(node)?;
        Ok(self.view.free_gpus(NodeId(node)))
    }

    /// The GPU type name of `node`.
    fn node_type(&self, node: u32) -> PyResult<String> {
        self.check_node(node)?;
        let spec = self.view.spec();
        Ok(spec.gpu_type_name(spec.node(NodeId(node)).gpu_type).to_string())
    }

    /// Finds free GPUs for `job` at its requested size with schedlab's placer (the one the
    /// built-in policies use): `placement` is `"consolidated"` (fewest nodes) or `"spread"`,
    /// `same_type` keeps all of a job's GPUs on one type. Returns None when nothing fits.
    #[pyo3(signature = (job, placement = "consolidated", same_type = true))]
    fn place(&self, job: &Job, placement: &str, same_type: bool) -> PyResult<Option<Allocation>> {
        let strategy = match placement {
            "consolidated" => PlacementStrategy::Consolidated,
            "spread" => PlacementStrategy::Spread,
            other => {
                return Err(PyValueError::new_err(format!("placement '{other}': expected 'consolidated' or 'spread'")));
            }
        };
        let types = if same_type { TypeRule::SameTypeOnly } else { TypeRule::PreferSameType };
        let placer = Placer { strategy, types };
        if job.view.gpus > self.view.total_free() {
            return Ok(None);
        }
        Ok(placer.place_job(&self.view, &job.view).map(|inner| Allocation { inner }))
    }

    /// Marks `allocation`'s GPUs (and `job`'s CPUs) as taken in this copy, to plan the next job.
    fn take(&mut self, allocation: &Allocation, job: &Job) -> PyResult<()> {
        self.view
            .take(&allocation.inner, job.view.cpu_demand())
            .map_err(|error| PyValueError::new_err(format!("cannot take {:?}: {error}", allocation.parts())))
    }

    /// A copy to plan on.
    fn copy(&self) -> Cluster {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!("Cluster({} of {} GPUs free)", self.total_free(), self.total_gpus())
    }
}

impl Cluster {
    fn check_node(&self, node: u32) -> PyResult<()> {
        let nodes = self.view.spec().nodes().len();
        if node as usize >= nodes {
            return Err(PyIndexError::new_err(format!("node {node}: the cluster has nodes 0 to {}", nodes - 1)));
        }
        Ok(())
    }
}

/// One decision point, as the engine gives it to a policy.
#[pyclass(module = "schedlab", name = "Context", frozen)]
pub struct Context {
    /// The current time in seconds.
    #[pyo3(get)]
    now: f64,
    /// Whether a tick the policy asked for (`Decision(next_tick=...)`) is due now.
    #[pyo3(get)]
    tick: bool,
    /// Jobs that arrived now, by id.
    #[pyo3(get)]
    arrived: Vec<u32>,
    /// Jobs that finished now, by id (no longer active).
    #[pyo3(get)]
    finished: Vec<u32>,
    /// Running jobs whose rate changed now without a restart, by id.
    #[pyo3(get)]
    rate_changed: Vec<u32>,
    /// The cluster's free resources (a copy to plan on).
    #[pyo3(get)]
    cluster: Py<Cluster>,
    /// Waiting jobs, in arrival order.
    #[pyo3(get)]
    queued: Py<Jobs>,
    /// Running jobs, in arrival order.
    #[pyo3(get)]
    running: Py<Jobs>,
}

impl Context {
    /// What a policy may read at `context`: its active jobs, whose views `mirror` holds.
    pub(crate) fn snapshot(
        py: Python<'_>,
        context: &schedlab_core::Context<'_>,
        mirror: &Mirror,
        active: &Active,
    ) -> PyResult<Context> {
        let ids = |jobs: &[JobId]| jobs.iter().map(|job| job.0).collect();
        let now = context.now;
        let jobs = |ids: &Arc<Vec<JobId>>| Jobs { ids: ids.clone(), mirror: mirror.clone(), now };
        let queued = jobs(&active.queued);
        let running = jobs(&active.running);
        Ok(Context {
            now: now.secs(),
            tick: context.tick,
            arrived: ids(context.arrived),
            finished: ids(context.finished),
            rate_changed: ids(context.rate_changed),
            cluster: Py::new(py, Cluster { view: context.cluster.clone() })?,
            queued: Py::new(py, queued)?,
            running: Py::new(py, running)?,
        })
    }
}

#[pymethods]
impl Context {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Context(now={}, queued={}, running={}, free={})",
            self.now,
            self.queued.borrow(py).ids.len(),
            self.running.borrow(py).ids.len(),
            self.cluster.borrow(py).view.total_free()
        )
    }
}

/// What changes at a decision point: jobs to start (each with its allocation), running jobs to
/// preempt, and when to be called again without an event (`next_tick`, seconds from the start
/// of the run). The engine checks it as it checks a Rust policy's decision, all or nothing.
#[pyclass(module = "schedlab", name = "Decision", frozen)]
pub struct Decision {
    /// `(job id, Allocation)` pairs.
    #[pyo3(get)]
    start: Vec<(u32, Allocation)>,
    /// Job ids.
    #[pyo3(get)]
    preempt: Vec<u32>,
    /// A time in seconds, or None.
    #[pyo3(get)]
    next_tick: Option<f64>,
}

#[pymethods]
impl Decision {
    #[new]
    #[pyo3(signature = (start = Vec::new(), preempt = Vec::new(), next_tick = None))]
    fn new(start: Vec<(u32, Allocation)>, preempt: Vec<u32>, next_tick: Option<f64>) -> Decision {
        Decision { start, preempt, next_tick }
    }

    fn __repr__(&self) -> String {
        let start: Vec<String> =
            self.start.iter().map(|(job, allocation)| format!("({job}, {:?})", allocation.parts())).collect();
        format!("Decision(start=[{}], preempt={:?}, next_tick={:?})", start.join(", "), self.preempt, self.next_tick)
    }
}

impl Decision {
    /// The engine's decision.
    pub(crate) fn to_core(&self) -> PyResult<schedlab_core::Decision> {
        let next_tick = match self.next_tick {
            Some(at) if !at.is_finite() => {
                return Err(PyValueError::new_err(format!("next_tick is {at}; expected a finite time in seconds")));
            }
            at => at.map(Time::from_secs),
        };
        Ok(schedlab_core::Decision {
            start: self.start.iter().map(|(job, allocation)| (JobId(*job), allocation.inner.clone())).collect(),
            preempt: self.preempt.iter().map(|&job| JobId(job)).collect(),
            next_tick,
            ..schedlab_core::Decision::none()
        })
    }
}

/// What a policy is told when a run begins.
#[pyclass(module = "schedlab", name = "RunInfo", frozen)]
pub struct RunInfo {
    /// The run's seed: all of a policy's randomness should come from it.
    #[pyo3(get)]
    seed: u64,
    /// The GPU type names.
    #[pyo3(get)]
    gpu_types: Vec<String>,
    /// GPUs in all.
    #[pyo3(get)]
    total_gpus: u32,
    /// Number of nodes.
    #[pyo3(get)]
    nodes: usize,
}

impl RunInfo {
    pub(crate) fn new(run: &schedlab_core::RunStart<'_>) -> RunInfo {
        RunInfo {
            seed: run.seed,
            gpu_types: run.cluster.gpu_types().to_vec(),
            total_gpus: run.cluster.total_gpus(),
            nodes: run.cluster.nodes().len(),
        }
    }
}

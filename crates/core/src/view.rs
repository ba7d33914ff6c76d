//! What a policy may know about jobs: [`JobView`] and the set of active jobs, [`JobsView`].

use crate::{Allocation, BatchConfig, CpuDemand, GpuTypeSet, JobId, JobSpec, Node, Time};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Whether an active job holds GPUs right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobState {
    /// Arrived and waiting (never started, or preempted).
    Queued,
    /// Holding an allocation (possibly still paying its restart overhead).
    Running,
}

/// Ground truth that only oracle policies (SJF, SRTF) receive; labelled as such everywhere.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OracleInfo {
    /// Total work of the job in steps.
    pub work: f64,
    /// Seconds the whole job takes on its requested GPUs of its fastest feasible type,
    /// excluding restart overheads.
    pub isolated_duration: f64,
}

/// An active (arrived, unfinished) job as a scheduler sees it.
///
/// Holds the request (GPUs, type, user) and observable history (when it started, how much
/// service it attained, how many steps it made), but not the job's total work unless the
/// policy asked for oracle knowledge (see [`crate::Knowledge`]).
#[derive(Clone, Debug)]
pub struct JobView {
    /// The job's id.
    pub id: JobId,
    /// Submission time.
    pub arrival: Time,
    /// GPUs requested.
    pub gpus: u32,
    /// Model or template name.
    pub job_type: Arc<str>,
    /// Priority weight.
    pub weight: f64,
    /// Submitting user, if known.
    pub user: Option<Arc<str>>,
    /// Virtual cluster, if known.
    pub vc: Option<Arc<str>>,
    /// Batch size, if known.
    pub batch_size: Option<u32>,
    /// CPU cores requested, if known.
    pub cpus: Option<f64>,
    /// CPU cores each of its parameter servers uses.
    pub ps_cpus: f64,
    /// The node group it must stay in, if its cluster is shared by pools (see
    /// [`JobView::may_use`]).
    pub pool: Option<Arc<str>>,
    /// The work its user declared at submission, in steps, if declared (possibly wrong: it is
    /// what the user said, not the truth, which only [`OracleInfo`] has).
    pub declared_work: Option<f64>,
    /// GPU types the job can run on at its requested size (e.g. not where it runs out of memory,
    /// or only the type its trace requires).
    pub feasible_types: GpuTypeSet,
    /// Queued or running.
    pub state: JobState,
    /// Current allocation while running.
    pub allocation: Option<Allocation>,
    /// When the job first started, if it has.
    pub first_start: Option<Time>,
    /// When the job last started (while running) or last stopped (while queued), if ever.
    pub last_change: Option<Time>,
    /// How many times the job was started again after its first start.
    pub restarts: u32,
    /// How many times its batch configuration changed while it ran (no restart).
    pub reconfigurations: u32,
    /// Oracle knowledge, present only for policies that declare [`crate::Knowledge::Oracle`].
    pub oracle: Option<OracleInfo>,
    run_seconds_base: f64,
    service_base: f64,
    progress_base: f64,
    productive_from: Time,
    rate: f64,
}

impl JobView {
    /// Returns the view of a job that has just arrived. Used by the engine.
    pub fn arrived(spec: &JobSpec, feasible_types: GpuTypeSet, oracle: Option<OracleInfo>) -> JobView {
        JobView {
            id: spec.id,
            arrival: spec.arrival,
            gpus: spec.gpus,
            job_type: Arc::from(spec.job_type.as_str()),
            weight: spec.weight,
            user: spec.user.as_deref().map(Arc::from),
            vc: spec.vc.as_deref().map(Arc::from),
            batch_size: spec.batch_size,
            cpus: spec.cpus,
            ps_cpus: spec.ps_cpus.unwrap_or(crate::DEFAULT_PS_CPUS),
            pool: spec.pool.as_deref().map(Arc::from),
            declared_work: spec.declared_work,
            feasible_types,
            state: JobState::Queued,
            allocation: None,
            first_start: None,
            last_change: None,
            restarts: 0,
            reconfigurations: 0,
            oracle,
            run_seconds_base: 0.0,
            service_base: 0.0,
            progress_base: 0.0,
            productive_from: Time::ZERO,
            rate: 0.0,
        }
    }

    /// Returns the CPUs its allocation uses: its CPU request spread over its requested GPUs (if it
    /// made one), and [`JobView::ps_cpus`] per parameter server.
    pub fn cpu_demand(&self) -> CpuDemand {
        CpuDemand { per_gpu: self.cpus.map(|cpus| cpus / f64::from(self.gpus)), per_ps: self.ps_cpus }
    }

    /// Returns true if and only if `node` is in the job's pool: any node when the job has no
    /// pool, else a node of its group ([`Node::in_group`]). Its parameter servers may go on any
    /// node of its pool.
    pub fn in_pool(&self, node: &Node) -> bool {
        self.pool.as_deref().is_none_or(|pool| node.in_group(pool))
    }

    /// Returns true if and only if the job may hold GPUs on `node`: the node is in its pool and
    /// of a feasible type.
    pub fn may_use(&self, node: &Node) -> bool {
        self.in_pool(node) && self.feasible_types.contains(node.gpu_type)
    }

    /// Returns true if and only if the job holds GPUs now.
    pub fn is_running(&self) -> bool {
        self.state == JobState::Running
    }

    /// Returns the wall-clock seconds the job has held GPUs, up to `now`.
    pub fn run_seconds(&self, now: Time) -> f64 {
        match (self.state, self.last_change) {
            (JobState::Running, Some(since)) => self.run_seconds_base + (now - since),
            _ => self.run_seconds_base,
        }
    }

    /// Returns the attained service in GPU-seconds (GPUs held x time held), up to `now`.
    pub fn attained_service(&self, now: Time) -> f64 {
        match (&self.allocation, self.last_change) {
            (Some(allocation), Some(since)) => self.service_base + f64::from(allocation.gpus()) * (now - since),
            _ => self.service_base,
        }
    }

    /// Returns the steps completed up to `now`, as the job's own logs would report them.
    pub fn progress(&self, now: Time) -> f64 {
        if self.is_running() && now > self.productive_from {
            self.progress_base + self.rate * (now - self.productive_from)
        } else {
            self.progress_base
        }
    }

    /// Returns the job's throughput in steps per second on its current allocation once it is
    /// productive (also during a restart overhead), or 0 while it waits.
    pub fn observed_rate(&self) -> f64 {
        if self.is_running() { self.rate } else { 0.0 }
    }

    /// Returns the time at which the job starts making progress on its current allocation.
    pub fn productive_from(&self) -> Time {
        self.productive_from
    }

    /// Returns the work left at `now` by the user's declaration, in steps (never below 0), if
    /// the job declared its work. Realistic policies may use this; it is as wrong as the
    /// declaration.
    pub fn declared_remaining_work(&self, now: Time) -> Option<f64> {
        self.declared_work.map(|declared| (declared - self.progress(now)).max(0.0))
    }

    /// Oracle only: returns the work left at `now`, in steps.
    pub fn oracle_remaining_work(&self, now: Time) -> Option<f64> {
        self.oracle.map(|oracle| (oracle.work - self.progress(now)).max(0.0))
    }

    /// Oracle only: returns the seconds left at `now` on the job's best GPU type.
    pub fn oracle_remaining_time(&self, now: Time) -> Option<f64> {
        self.oracle.map(|oracle| oracle.isolated_duration * ((oracle.work - self.progress(now)) / oracle.work).max(0.0))
    }

    /// Records that the job starts at `now` on `allocation`, progressing at `rate` steps per
    /// second from `productive_from` on (later than `now` when it pays a restart overhead).
    /// Used by the engine.
    pub fn record_start(&mut self, now: Time, allocation: Allocation, rate: f64, productive_from: Time) {
        debug_assert_eq!(self.state, JobState::Queued);
        if self.first_start.is_some() {
            self.restarts += 1;
        } else {
            self.first_start = Some(now);
        }
        self.state = JobState::Running;
        self.allocation = Some(allocation);
        self.last_change = Some(now);
        self.rate = rate;
        self.productive_from = productive_from;
    }

    /// Records that the job's rate changes at `now` without a restart: its space-sharing
    /// partner stopped, so it keeps its GPUs alone (`colocated_with` is cleared). Progress made
    /// so far is kept; a restart overhead still running is not cut short. Used by the engine.
    pub fn record_rate_change(&mut self, now: Time, rate: f64) {
        self.record_segment(now, self.progress(now), rate);
        if let Some(allocation) = self.allocation.as_mut() {
            allocation.colocated_with = None;
        }
    }

    /// Records that the job, with `progress` steps done at `now`, runs on at `rate` on the same
    /// allocation, without a restart (a rate segment of its perf model ended). A restart overhead
    /// still running is not cut short. Used by the engine.
    pub fn record_segment(&mut self, now: Time, progress: f64, rate: f64) {
        debug_assert_eq!(self.state, JobState::Running);
        self.progress_base = progress;
        self.productive_from = self.productive_from.max(now);
        self.rate = rate;
    }

    /// Records that the job keeps its GPUs but trains with `batch` from `now` on, at `rate`: its
    /// progress is kept, with no restart and no overhead (a restart overhead still running is
    /// not cut short). Used by the engine.
    pub fn record_reconfiguration(&mut self, now: Time, batch: Option<BatchConfig>, rate: f64) {
        self.record_segment(now, self.progress(now), rate);
        self.reconfigurations += 1;
        if let Some(allocation) = self.allocation.as_mut() {
            allocation.batch = batch;
        }
    }

    /// Records that the job stops at `now` and returns its allocation. Used by the engine.
    pub fn record_stop(&mut self, now: Time) -> Allocation {
        debug_assert_eq!(self.state, JobState::Running);
        self.progress_base = self.progress(now);
        self.service_base = self.attained_service(now);
        self.run_seconds_base = self.run_seconds(now);
        self.state = JobState::Queued;
        self.last_change = Some(now);
        self.rate = 0.0;
        self.allocation.take().expect("a running job has an allocation")
    }
}

/// The active jobs at a decision point, in arrival order, with O(log n) lookups by id.
///
/// Holds no future arrivals and no finished jobs, so a policy cannot see either.
#[derive(Clone, Debug, Default)]
pub struct JobsView {
    views: Vec<Option<JobView>>,
    queued: BTreeSet<JobId>,
    running: BTreeSet<JobId>,
    queued_gpus: u64,
}

impl JobsView {
    /// Returns an empty set with room for jobs `0..capacity`. Used by the engine.
    pub fn with_capacity(capacity: usize) -> JobsView {
        JobsView { views: vec![None; capacity], queued: BTreeSet::new(), running: BTreeSet::new(), queued_gpus: 0 }
    }

    /// Returns the active job with this id, if it is active.
    pub fn get(&self, id: JobId) -> Option<&JobView> {
        self.views.get(id.index()).and_then(Option::as_ref)
    }

    /// Returns the waiting jobs in arrival order.
    pub fn queued(&self) -> impl DoubleEndedIterator<Item = &JobView> + '_ {
        self.queued.iter().map(|id| self.views[id.index()].as_ref().expect("queued job is active"))
    }

    /// Returns the running jobs in arrival order.
    pub fn running(&self) -> impl DoubleEndedIterator<Item = &JobView> + '_ {
        self.running.iter().map(|id| self.views[id.index()].as_ref().expect("running job is active"))
    }

    /// Returns every active job in arrival order.
    pub fn active(&self) -> impl Iterator<Item = &JobView> + '_ {
        self.queued.union(&self.running).map(|id| self.views[id.index()].as_ref().expect("job is active"))
    }

    /// Returns the running jobs with their allocations, for [`crate::Decision::reconcile`].
    pub fn running_allocations(&self) -> impl Iterator<Item = (JobId, &Allocation)> + '_ {
        self.running().map(|view| (view.id, view.allocation.as_ref().expect("running job has an allocation")))
    }

    /// Returns the number of waiting jobs.
    pub fn n_queued(&self) -> usize {
        self.queued.len()
    }

    /// Returns the GPUs the waiting jobs request, summed.
    pub fn queued_gpus(&self) -> u64 {
        self.queued_gpus
    }

    /// Returns the number of running jobs.
    pub fn n_running(&self) -> usize {
        self.running.len()
    }

    /// Returns the number of active jobs.
    pub fn n_active(&self) -> usize {
        self.queued.len() + self.running.len()
    }

    /// Adds a job that just arrived. Used by the engine.
    pub fn insert(&mut self, view: JobView) {
        let id = view.id;
        if id.index() >= self.views.len() {
            self.views.resize(id.index() + 1, None);
        }
        debug_assert_eq!(view.state, JobState::Queued);
        self.queued_gpus += u64::from(view.gpus);
        self.views[id.index()] = Some(view);
        self.queued.insert(id);
    }

    /// Gives the engine mutable access to an active job.
    pub fn get_mut(&mut self, id: JobId) -> Option<&mut JobView> {
        self.views.get_mut(id.index()).and_then(Option::as_mut)
    }

    /// Updates the queued/running index after the engine changed a job's state.
    pub fn sync_state(&mut self, id: JobId) {
        let Some(view) = self.get(id) else { return };
        let (running, gpus) = (view.is_running(), u64::from(view.gpus));
        if running {
            if self.queued.remove(&id) {
                self.queued_gpus -= gpus;
            }
            self.running.insert(id);
        } else {
            self.running.remove(&id);
            if self.queued.insert(id) {
                self.queued_gpus += gpus;
            }
        }
    }

    /// Removes a job (it finished) and returns its last view. Used by the engine.
    pub fn remove(&mut self, id: JobId) -> Option<JobView> {
        let view = self.views.get_mut(id.index()).and_then(Option::take)?;
        if self.queued.remove(&id) {
            self.queued_gpus -= u64::from(view.gpus);
        }
        self.running.remove(&id);
        Some(view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NodeId;

    #[test]
    fn service_and_progress_accumulate_across_preemption() {
        let spec = JobSpec::new(JobId(0), Time::ZERO, 2, "t", 100.0);
        let mut view = JobView::arrived(&spec, GpuTypeSet::ALL, None);
        let allocation = Allocation::on_node(NodeId(0), 2);
        // Start at t=10 with a 5 s restart overhead, at 2 steps/s.
        view.record_start(Time::from_secs(10.0), allocation.clone(), 2.0, Time::from_secs(15.0));
        assert_eq!(view.progress(Time::from_secs(12.0)), 0.0);
        assert_eq!(view.progress(Time::from_secs(20.0)), 10.0);
        assert_eq!(view.attained_service(Time::from_secs(20.0)), 20.0);
        view.record_stop(Time::from_secs(20.0));
        assert_eq!(view.progress(Time::from_secs(50.0)), 10.0);
        assert_eq!(view.run_seconds(Time::from_secs(50.0)), 10.0);
        view.record_start(Time::from_secs(50.0), allocation, 1.0, Time::from_secs(50.0));
        assert_eq!(view.restarts, 1);
        assert_eq!(view.first_start, Some(Time::from_secs(10.0)));
        assert_eq!(view.progress(Time::from_secs(60.0)), 20.0);
        assert_eq!(view.attained_service(Time::from_secs(60.0)), 40.0);
    }

    #[test]
    fn jobs_view_keeps_arrival_order_and_hides_removed_jobs() {
        let mut jobs = JobsView::with_capacity(3);
        for index in [2u32, 0, 1] {
            let spec = JobSpec::new(JobId(index), Time::ZERO, 1, "t", 1.0);
            jobs.insert(JobView::arrived(&spec, GpuTypeSet::ALL, None));
        }
        let view = jobs.get_mut(JobId(1)).unwrap();
        view.record_start(Time::ZERO, Allocation::on_node(NodeId(0), 1), 1.0, Time::ZERO);
        jobs.sync_state(JobId(1));
        let queued: Vec<u32> = jobs.queued().map(|view| view.id.0).collect();
        let active: Vec<u32> = jobs.active().map(|view| view.id.0).collect();
        assert_eq!(queued, vec![0, 2]);
        assert_eq!(active, vec![0, 1, 2]);
        assert!(jobs.remove(JobId(0)).is_some());
        assert!(jobs.get(JobId(0)).is_none());
        assert_eq!(jobs.n_active(), 2);
    }
}

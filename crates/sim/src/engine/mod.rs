//! The discrete-event loop.

use crate::metrics::{AllocationSample, BusyTimeline, JobRecord, JobTimeline, RunMetrics, summarize};
use crate::{MeasurementWindow, SimConfig, SimError};
use queue::EventQueue;
use watchdog::ProgressWatchdog;

mod guard;
mod invariants;
mod progress;
mod queue;
mod validate;
mod watchdog;

pub use validate::validate;

use schedlab_cluster::{PerfError, PerfModel, Placement, RateSegment};
use schedlab_core::{
    Allocation, BatchConfig, ClusterSpec, ClusterView, Context, CpuDemand, Decision, GpuTypeSet, JobId, JobSpec,
    JobView, JobsView, Knowledge, OracleInfo, Policy, PolicyReport, RunStart, SolverStats, Time,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Everything a run produces.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// The policy's canonical name.
    pub policy: String,
    /// GPU type names, the order of every per-type vector.
    pub gpu_types: Vec<String>,
    /// One record per job of the workload, in id order.
    pub jobs: Vec<JobRecord>,
    /// Summary over the measurement window.
    pub metrics: RunMetrics,
    /// Busy GPUs per type over time.
    pub timeline: BusyTimeline,
    /// Wall-clock time of the run (not part of the deterministic output).
    pub wall_time: Duration,
    /// What the policy's solver did, if it has one (timings are not deterministic).
    pub solver: Option<SolverStats>,
    /// What the policy reported of the run ([`Policy::report`]), if anything.
    pub policy_report: Option<PolicyReport>,
    /// The allocations over time of the jobs in [`SimConfig::trace_jobs`], in that order.
    pub allocations: Vec<JobTimeline>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum EventKind {
    Completion {
        job: JobId,
        epoch: u32,
    },
    /// The job's progress reaches the end of its perf model's current rate segment.
    RateChange {
        job: JobId,
        epoch: u32,
    },
    Tick {
        epoch: u64,
    },
}

/// Whether an event still stands: stopping a job or replacing the tick supersedes the events
/// made before (the epochs only grow, so a stale event never turns live again).
fn is_live(states: &[JobState], tick_epoch: u64, kind: &EventKind) -> bool {
    match *kind {
        EventKind::Completion { job, epoch } | EventKind::RateChange { job, epoch } => {
            states[job.index()].epoch == epoch
        }
        EventKind::Tick { epoch } => tick_epoch == epoch,
    }
}

/// Engine-private bookkeeping of one job.
#[derive(Clone, Debug, Default)]
struct JobState {
    /// Incremented on every stop; completion events carry the epoch they were made in.
    epoch: u32,
    cpus: CpuDemand,
    gpu_seconds: Vec<f64>,
    finish: Option<Time>,
    view_at_finish: Option<JobView>,
    /// Progress of the job's copies summed over copies before aggregation, banked up to
    /// `segment_from` (an unforked job is one copy with no aggregation).
    copies_progress: f64,
    /// Progress lost to aggregating forked copies, banked like `copies_progress`.
    aggregation_cost: f64,
    /// Each copy's rate on the current allocation (empty while waiting).
    copy_rates: Vec<f64>,
    /// The fraction of the copies' progress lost to aggregation on the current allocation.
    copy_overhead: f64,
    /// When the current `copy_rates` started to accrue.
    segment_from: Time,
    /// The progress at which the perf model's current rate segment ends (`None`: it lasts
    /// until the job finishes).
    segment_until: Option<f64>,
    /// The progress at which the job's work limit ([`Decision::work_limits`]) pauses it.
    limit: Option<f64>,
}

/// Why a running job's rate is recomputed without a restart.
#[derive(Clone, Copy, Debug)]
enum Rerate {
    /// Its space-sharing partner stopped; it runs alone.
    PartnerLeft,
    /// Its progress reached the end of its perf model's rate segment.
    SegmentEnded,
    /// The policy changed its batch configuration.
    Reconfigured(Option<BatchConfig>),
    /// The policy gave it a new work limit.
    Limited,
}

/// This many preemptions in a row, each of a job whose restart overhead had not yet passed (so
/// it made no progress), with no job finishing in between, is a livelock: a time slice no
/// longer than the restart overhead.
const MAX_WASTED_STOPS: u32 = 100_000;

struct Engine<'a> {
    cluster: ClusterView,
    workload: &'a [JobSpec],
    perf: &'a dyn PerfModel,
    policy: &'a mut dyn Policy,
    policy_name: String,
    oracle: bool,
    elastic: bool,
    config: &'a SimConfig,
    now: Time,
    jobs: JobsView,
    states: Vec<JobState>,
    /// Ordered by time, then by insertion sequence, so ties break identically on every run.
    queue: EventQueue<EventKind>,
    next_arrival: usize,
    tick_epoch: u64,
    pending_tick: Option<Time>,
    events: u64,
    decisions: u64,
    idle_decisions: u32,
    /// Preemptions in a row of jobs that had made no progress since they started (see
    /// [`MAX_WASTED_STOPS`]).
    wasted_stops: u32,
    /// The progress watchdog (`watchdog.rs`).
    watchdog: ProgressWatchdog,
    timeline: BusyTimeline,
    arrived: Vec<JobId>,
    finished: Vec<JobId>,
    rate_changed: Vec<JobId>,
    /// The jobs of [`SimConfig::trace_jobs`] and their allocation samples so far.
    traced: Vec<JobTimeline>,
    /// With `stop_after_window`: the window's jobs not finished yet.
    window_left: Option<usize>,
}

/// Runs `policy` on `workload` over `cluster` with `perf` as ground truth.
///
/// The workload must be sorted by arrival with `workload[i].id == JobId(i)`. The result holds
/// a record for every job; jobs still unfinished at `config.max_time` have no finish time.
pub fn run(
    cluster: Arc<ClusterSpec>,
    workload: &[JobSpec],
    perf: &dyn PerfModel,
    policy: &mut dyn Policy,
    config: &SimConfig,
) -> Result<RunResult, SimError> {
    let started = Instant::now();
    let mut engine = Engine::new(cluster, workload, perf, policy, config)?;
    let run = RunStart { cluster: engine.cluster.spec(), seed: config.seed };
    engine.policy.begin_run(&run).map_err(|cause| SimError::Policy {
        policy: engine.policy_name.clone(),
        time: Time::ZERO,
        cause,
    })?;
    let outcome = engine.run_loop();
    engine.policy.end_run();
    outcome?;
    let result = engine.finish(started);
    Ok(result)
}

impl<'a> Engine<'a> {
    /// An engine at time 0 with nothing arrived, after checking the inputs ([`validate`]).
    fn new(
        cluster: Arc<ClusterSpec>,
        workload: &'a [JobSpec],
        perf: &'a dyn PerfModel,
        policy: &'a mut dyn Policy,
        config: &'a SimConfig,
    ) -> Result<Engine<'a>, SimError> {
        let window_jobs = validate(&cluster, workload, perf, config)?;
        let n_types = cluster.gpu_types().len();
        let policy_name = policy.name().to_string();
        let mut engine = Engine {
            timeline: BusyTimeline { gpu_types: cluster.gpu_types().to_vec(), ..BusyTimeline::default() },
            cluster: ClusterView::new(cluster),
            workload,
            perf,
            oracle: policy.knowledge() == Knowledge::Oracle,
            elastic: policy.is_elastic(),
            policy,
            policy_name,
            config,
            now: Time::ZERO,
            jobs: JobsView::with_capacity(workload.len()),
            states: vec![JobState { gpu_seconds: vec![0.0; n_types], ..JobState::default() }; workload.len()],
            queue: EventQueue::new(),
            next_arrival: 0,
            tick_epoch: 0,
            pending_tick: None,
            events: 0,
            decisions: 0,
            idle_decisions: 0,
            wasted_stops: 0,
            watchdog: ProgressWatchdog::default(),
            arrived: Vec::new(),
            finished: Vec::new(),
            rate_changed: Vec::new(),
            traced: config.trace_jobs.iter().map(|&job| JobTimeline { job, samples: Vec::new() }).collect(),
            window_left: window_jobs,
        };
        engine.timeline.record(0.0, &vec![0; n_types]);
        Ok(engine)
    }
}

impl Engine<'_> {
    fn push(&mut self, time: Time, kind: EventKind) {
        let (states, tick_epoch) = (&self.states, self.tick_epoch);
        self.queue.push(time, kind, |kind| is_live(states, tick_epoch, kind));
    }

    fn run_loop(&mut self) -> Result<(), SimError> {
        loop {
            let next_arrival = self.workload.get(self.next_arrival).map(|job| job.arrival);
            let (states, tick_epoch) = (&self.states, self.tick_epoch);
            let next_event = self.queue.next_live_time(|kind| is_live(states, tick_epoch, kind));
            let now = match (next_arrival, next_event) {
                (None, None) => return self.check_all_done(),
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
            };
            if self.config.max_time.is_some_and(|max_time| now > max_time) {
                self.now = self.config.max_time.expect("checked");
                return Ok(());
            }
            self.now = now;
            self.arrived.clear();
            self.finished.clear();
            self.rate_changed.clear();
            // The policy is called at every instant with an event, unless the only events were
            // work limits' pauses, which change no allocation (a job at its limit just holds its
            // GPUs until the policy's next call).
            let (mut pauses, mut others) = (false, false);
            while let Some(job) = self.workload.get(self.next_arrival).filter(|job| job.arrival == now) {
                self.admit(job)?;
                self.next_arrival += 1;
                others = true;
            }
            let mut tick = false;
            while let Some(event) = self.queue.pop_at(now) {
                if !is_live(&self.states, self.tick_epoch, &event.kind) {
                    others = true;
                    continue;
                }
                self.events += 1;
                match event.kind {
                    EventKind::Completion { job, .. } => {
                        self.complete(job)?;
                        others = true;
                    }
                    EventKind::RateChange { job, .. } => {
                        let state = &self.states[job.index()];
                        let pause = state.limit.is_some() && state.segment_until == state.limit;
                        self.next_segment(job)?;
                        pauses |= pause;
                        others |= !pause;
                    }
                    EventKind::Tick { .. } => {
                        tick = true;
                        self.pending_tick = None;
                        others = true;
                    }
                }
            }
            if self.window_left == Some(0) {
                return self.end_with_window();
            }
            // A stale event at this instant counts, even one the queue took out of its heap.
            if !others && pauses && self.queue.stale_taken_out_at(now) {
                others = true;
            }
            if others || !pauses {
                self.decide(tick)?;
            }
        }
    }

    /// `stop_after_window`: the window's last job has finished. Gavel's stream would still be
    /// arriving; a workload whose arrivals ran out earlier gave the window a lighter load.
    fn end_with_window(&self) -> Result<(), SimError> {
        match self.workload.get(self.next_arrival) {
            Some(_) => Ok(()),
            None => Err(SimError::Config {
                message: format!(
                    "stop_after_window: the window's last job finished at {}, after the workload's last arrival \
                     (job {} at {}); an endless stream, as Gavel's simulator generates, would have kept arriving: \
                     generate more jobs",
                    self.now,
                    self.workload.len() - 1,
                    self.workload.last().map_or(Time::ZERO, |job| job.arrival)
                ),
            }),
        }
    }

    fn admit(&mut self, spec: &JobSpec) -> Result<(), SimError> {
        self.events += 1;
        let mut feasible = GpuTypeSet::EMPTY;
        let mut fastest: f64 = 0.0;
        let mut first_error = None;
        for (index, gpu_type) in self.cluster.spec().gpu_types().iter().enumerate() {
            if spec.gpu_type.as_ref().is_some_and(|required| required != gpu_type) {
                continue;
            }
            match self.perf.rate(spec, gpu_type, spec.gpus) {
                Ok(rate) => {
                    feasible = feasible.with(schedlab_core::GpuTypeId(index as u16));
                    fastest = fastest.max(rate);
                }
                Err(PerfError::Unsupported { .. }) => {}
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        if let Some(source) = first_error {
            return Err(self.perf_failure(spec.id, source));
        }
        if feasible == GpuTypeSet::EMPTY {
            return Err(SimError::Workload {
                job: spec.id,
                message: format!(
                    "cannot run on any GPU type of the cluster ({}) at {} GPUs according to {}",
                    self.cluster.spec().gpu_types().join(", "),
                    spec.gpus,
                    self.perf.describe()
                ),
            });
        }
        let oracle = self.oracle.then(|| OracleInfo { work: spec.work, isolated_duration: spec.work / fastest });
        let view = JobView::arrived(spec, feasible, oracle);
        self.states[spec.id.index()].cpus = view.cpu_demand();
        self.jobs.insert(view);
        self.arrived.push(spec.id);
        Ok(())
    }

    /// Stops a running job at `now` and books its GPU-seconds. Its GPUs go back to the cluster, unless it
    /// shared them with a partner that keeps running: then the partner keeps them and, with
    /// `rebalance`, continues alone at its isolated rate.
    fn stop(&mut self, job: JobId, rebalance: bool) -> Result<Allocation, SimError> {
        let now = self.now;
        self.bank_copies(job, None);
        let view = self.jobs.get_mut(job).expect("stopping an active job");
        let since = view.last_change.expect("a running job has a start time");
        if now <= view.productive_from() {
            self.wasted_stops += 1;
            if self.wasted_stops > MAX_WASTED_STOPS {
                return Err(SimError::Stalled {
                    policy: self.policy_name.clone(),
                    time: now,
                    message: format!(
                        "{MAX_WASTED_STOPS} preemptions in a row stopped jobs before their restart overhead had passed \
                         (job {job} started at {since}, productive from {}), and no job finished: nothing progresses; \
                         a time-slicing policy needs a slice longer than the restart overhead",
                        view.productive_from()
                    ),
                });
            }
        } else {
            self.wasted_stops = 0;
        }
        let allocation = view.record_stop(now);
        self.jobs.sync_state(job);
        let state = &mut self.states[job.index()];
        state.epoch += 1;
        state.limit = None;
        for &(node, gpus) in &allocation.parts {
            let gpu_type = self.cluster.spec().node(node).gpu_type;
            state.gpu_seconds[gpu_type.index()] += f64::from(gpus) * (now - since);
        }
        let partner_keeps = allocation.colocated_with.filter(|&partner| {
            self.jobs
                .get(partner)
                .is_some_and(|view| view.allocation.as_ref().is_some_and(|shared| shared.colocated_with == Some(job)))
        });
        match partner_keeps {
            Some(partner) => {
                if rebalance {
                    self.run_alone(partner)?;
                }
            }
            None => self.cluster.release(&allocation, state.cpus),
        }
        Ok(allocation)
    }

    /// The run ran out of events: every job must have finished (a job at rate 0 with nothing
    /// left to happen never would).
    fn check_all_done(&self) -> Result<(), SimError> {
        match self.jobs.running().next() {
            None => Ok(()),
            Some(first) => Err(SimError::Stalled {
                policy: self.policy_name.clone(),
                time: self.now,
                message: format!(
                    "{} jobs hold GPUs at rate 0 with no arrivals, completions or ticks left; the first is {}",
                    self.jobs.n_running(),
                    first.id
                ),
            }),
        }
    }

    fn complete(&mut self, job: JobId) -> Result<(), SimError> {
        // A finishing job progressed: the livelock count starts again.
        self.wasted_stops = 0;
        self.stop(job, true)?;
        self.wasted_stops = 0;
        let mut view = self.jobs.remove(job).expect("completing an active job");
        if let (Some(left), MeasurementWindow::Jobs { first, last }) = (self.window_left.as_mut(), self.config.window)
            && (first..last).contains(&job.0)
        {
            *left -= 1;
        }
        if self.config.check_invariants {
            self.check_copies_progress(&view)?;
        }
        let work = self.workload[job.index()].work;
        let progress = view.progress(self.now);
        if (progress - work).abs() > 1e-6 * work.max(1.0) {
            return Err(SimError::Invariant {
                time: self.now,
                message: format!("{job} completed with progress {progress} but its work is {work}"),
            });
        }
        view.oracle = None;
        let state = &mut self.states[job.index()];
        state.finish = Some(self.now);
        state.view_at_finish = Some(view);
        self.finished.push(job);
        Ok(())
    }

    fn decide(&mut self, tick: bool) -> Result<(), SimError> {
        self.decisions += 1;
        let context = Context {
            now: self.now,
            cluster: &self.cluster,
            jobs: &self.jobs,
            arrived: &self.arrived,
            finished: &self.finished,
            rate_changed: &self.rate_changed,
            tick,
        };
        let decision = self.policy.schedule(&context).map_err(|source| SimError::Policy {
            policy: self.policy_name.clone(),
            time: self.now,
            cause: source,
        })?;
        let changed = !decision.preempt.is_empty() || !decision.start.is_empty() || !decision.reconfigure.is_empty();
        self.apply(decision)?;
        if !self.traced.is_empty() {
            self.record_traced();
        }
        if changed || !self.finished.is_empty() {
            let busy = self.cluster.busy_per_type();
            self.timeline.record(self.now.secs(), &busy);
        }
        self.record_idle_wanted(self.now.secs());
        if self.config.check_invariants {
            self.check_invariants()?;
        }
        self.check_stall(changed)?;
        self.check_progress(changed)
    }

    /// Appends a sample for each traced job whose GPUs, nodes, GPU types or batch changed at
    /// this instant (replacing a sample taken earlier at the same instant).
    fn record_traced(&mut self) {
        let now = self.now.secs();
        let spec = self.cluster.spec();
        for timeline in &mut self.traced {
            let job = JobId(timeline.job);
            let idle = AllocationSample { time: now, gpus: 0, nodes: 0, batch: None, ps: 0, type_mask: 0 };
            let sample = match self.jobs.get(job) {
                Some(view) => match view.allocation.as_ref() {
                    Some(allocation) => {
                        let gpus = allocation.gpus();
                        let batch = allocation.batch.map(|batch| batch.local_batch * batch.accumulation_steps * gpus);
                        let type_mask = allocation
                            .parts
                            .iter()
                            .fold(0u64, |mask, &(node, _)| mask | 1u64 << spec.node(node).gpu_type.index().min(63));
                        let nodes = allocation.parts.len() as u32;
                        AllocationSample { gpus, nodes, batch, ps: allocation.ps_count(), type_mask, ..idle }
                    }
                    None => idle,
                },
                None if self.states[job.index()].finish.is_some() => idle,
                None => continue, // not arrived yet
            };
            let unchanged = |last: &AllocationSample| AllocationSample { time: now, ..*last } == sample;
            if timeline.samples.last().is_some_and(unchanged) {
                continue;
            }
            if timeline.samples.last().is_some_and(|last| last.time == now) {
                timeline.samples.pop();
            }
            if !timeline.samples.last().is_some_and(unchanged) {
                timeline.samples.push(sample);
            }
        }
    }

    /// The error for a perf model that has no rate for `job` now.
    fn perf_failure(&self, job: JobId, cause: PerfError) -> SimError {
        SimError::Perf { policy: self.policy_name.clone(), time: self.now, job, cause: Box::new(cause) }
    }

    fn invalid(&self, job: JobId, node: Option<schedlab_core::NodeId>, reason: String) -> SimError {
        SimError::InvalidDecision { policy: self.policy_name.clone(), time: self.now, job: Some(job), node, reason }
    }

    fn apply(&mut self, decision: Decision) -> Result<(), SimError> {
        // Every check first: a refused decision changes nothing (guard.rs). What follows applies
        // a decision the guard accepted, in the order the guard checked it. The guard also says
        // which restarts are on identical allocations: they change nothing.
        let unchanged = self.guard(&decision)?;
        let Decision { preempt, start, next_tick, reconfigure, work_limits } = decision;
        for (job, batch) in reconfigure {
            self.reconfigure(job, batch)?;
        }
        // Lookups by job go through sorted lists (a round of Gavel's restarts and limits a
        // hundred jobs at once); every list is still applied in the decision's order.
        for &job in &preempt {
            if unchanged.binary_search(&job).is_err() {
                self.stop(job, true)?;
            }
        }
        // The guard refused a job given two limits.
        let mut limits = work_limits.clone();
        limits.sort_unstable_by_key(|entry| entry.0);
        let limit_of =
            |job: JobId| limits.binary_search_by_key(&job, |entry| entry.0).ok().map(|index| limits[index].1);
        let mut started_with_limit: Vec<JobId> = Vec::new();
        for (job, allocation) in start {
            if unchanged.binary_search(&job).is_ok() {
                continue;
            }
            if let Some(steps) = limit_of(job) {
                let progress = self.jobs.get(job).map_or(0.0, |view| view.progress(self.now));
                self.states[job.index()].limit = Some(progress + steps);
                started_with_limit.push(job);
            }
            self.start(job, allocation)?;
        }
        started_with_limit.sort_unstable();
        for &(job, steps) in &work_limits {
            if started_with_limit.binary_search(&job).is_ok() {
                continue;
            }
            let progress = self.jobs.get(job).expect("checked: a limited job runs").progress(self.now);
            self.states[job.index()].limit = Some(progress + steps);
            self.rerate(job, Rerate::Limited)?;
        }
        match next_tick {
            Some(time) => {
                if self.pending_tick != Some(time) {
                    self.tick_epoch += 1;
                    self.pending_tick = Some(time);
                    let epoch = self.tick_epoch;
                    self.push(time, EventKind::Tick { epoch });
                }
            }
            None => {
                if self.pending_tick.take().is_some() {
                    self.tick_epoch += 1;
                }
            }
        }
        Ok(())
    }

    fn start(&mut self, job: JobId, allocation: Allocation) -> Result<(), SimError> {
        // The guard checked the start against the state it now meets (guard.rs); debug builds
        // check it again here.
        debug_assert!({
            let running = self.jobs.get(job).is_some_and(JobView::is_running);
            let jobs = &self.jobs;
            self.check_start(job, &allocation, running, &|partner| {
                jobs.get(partner).map(|view| view.allocation.as_ref())
            })
            .is_ok()
        });
        // Space sharing: the second job of a pair joins GPUs its partner already holds.
        let joins_partner = allocation
            .colocated_with
            .and_then(|partner| self.jobs.get(partner))
            .is_some_and(|partner| partner.allocation.is_some());
        let view = self.jobs.get(job).expect("checked: the job is active");
        let gpus = allocation.gpus();
        let spec = self.cluster.spec_arc().clone();
        let typed: Vec<(&str, u32)> =
            allocation.parts.iter().map(|&(node, gpus)| (spec.gpu_type_name(spec.node(node).gpu_type), gpus)).collect();
        let cpus = self.states[job.index()].cpus;
        if joins_partner {
            // The pair holds the GPUs once; the partner took them.
        } else if let Err(error) = self.cluster.take(&allocation, cpus) {
            return Err(self.invalid(job, Some(error.node()), error.to_string()));
        }
        let spec_job = &self.workload[job.index()];
        // Reuse the job's copy-rate buffer: starts are the engine's hot path.
        let mut copy_rates = std::mem::take(&mut self.states[job.index()].copy_rates);
        copy_rates.clear();
        let mut copy_overhead = 0.0;
        let progress = view.progress(self.now);
        let mut segment_until = None;
        let rate = if allocation.forked {
            for &(gpu_type, copy) in &typed {
                copy_rates
                    .push(self.perf.rate(spec_job, gpu_type, copy).map_err(|source| self.perf_failure(job, source))?);
            }
            copy_overhead = self.config.fork_overhead;
            copy_rates.iter().sum::<f64>() * (1.0 - copy_overhead)
        } else {
            let rate = match allocation.colocated_with {
                Some(partner) => self
                    .perf
                    .colocated_rate(spec_job, &self.workload[partner.index()], typed[0].0, gpus)
                    .map_err(|source| self.perf_failure(job, source))?,
                None => {
                    let placement = Placement { parts: &typed, batch: allocation.batch, ps: allocation.ps_count() };
                    let segment = self.segment(job, &placement, progress)?;
                    segment_until = segment.until;
                    segment.rate
                }
            };
            copy_rates.push(rate);
            rate
        };
        // Forked and co-located rates come from `rate`, which must be positive; a plain
        // allocation's segment may have rate 0 (checked in `segment`).
        let positive_required = allocation.forked || allocation.colocated_with.is_some();
        if !(rate.is_finite() && (rate > 0.0 || !positive_required && rate == 0.0)) {
            return Err(SimError::Invariant {
                time: self.now,
                message: format!("{} gave {job} a rate of {rate} steps/s", self.perf.describe()),
            });
        }
        // A work limit (never on a forked allocation) cuts the one copy's segment.
        let rate = if allocation.forked {
            rate
        } else {
            let limited = self.limited(job, progress, RateSegment { rate, until: segment_until });
            segment_until = limited.until;
            copy_rates[0] = limited.rate;
            limited.rate
        };
        let pays_overhead = view.first_start.is_some() || self.config.overhead_on_first_start;
        let overhead = spec_job.restart_overhead.unwrap_or(self.config.restart_overhead);
        let productive_from = if pays_overhead { self.now + overhead } else { self.now };
        let state = &mut self.states[job.index()];
        state.copy_rates = copy_rates;
        state.copy_overhead = copy_overhead;
        state.segment_from = productive_from;
        state.segment_until = segment_until;
        let view = self.jobs.get_mut(job).expect("checked above");
        view.record_start(self.now, allocation, rate, productive_from);
        self.jobs.sync_state(job);
        self.schedule_progress_event(job);
        Ok(())
    }

    /// Records the GPUs idle while waiting jobs ask for them, by count.
    fn record_idle_wanted(&mut self, time: f64) {
        let waiting = u32::try_from(self.jobs.queued_gpus()).unwrap_or(u32::MAX);
        self.timeline.record_idle_wanted(time, waiting.min(self.cluster.total_free()));
    }

    fn finish(mut self, started: Instant) -> RunResult {
        // Book the GPU time of jobs still running when the run stopped.
        let still_running: Vec<JobId> = self.jobs.running().map(|view| view.id).collect();
        for job in still_running {
            self.stop(job, false).expect("stopping without rebalancing cannot fail");
        }
        let end_time = self.now.secs();
        let busy = self.cluster.busy_per_type();
        self.timeline.record(end_time, &busy);
        self.record_idle_wanted(end_time);
        let jobs: Vec<JobRecord> = self
            .workload
            .iter()
            .zip(&self.states)
            .map(|(spec, state)| {
                let view = state.view_at_finish.as_ref().or_else(|| self.jobs.get(spec.id));
                let first_start = view.and_then(|view| view.first_start).map(Time::secs);
                let finish = state.finish.map(Time::secs);
                let arrival = spec.arrival.secs();
                let run_time = view.map_or(0.0, |view| view.run_seconds(self.now));
                let arrived = spec.arrival <= self.now;
                let waiting_time = if arrived { finish.unwrap_or(end_time) - arrival - run_time } else { 0.0 };
                JobRecord {
                    id: spec.id.0,
                    name: spec.name.clone(),
                    arrival,
                    gpus: spec.gpus,
                    job_type: spec.job_type.clone(),
                    first_start,
                    finish,
                    jct: finish.map(|finish| finish - arrival),
                    queueing_delay: first_start.map(|start| start - arrival),
                    waiting_time,
                    run_time,
                    restarts: view.map_or(0, |view| view.restarts),
                    reconfigurations: view.map_or(0, |view| view.reconfigurations),
                    gpu_seconds: state.gpu_seconds.clone(),
                }
            })
            .collect();
        let gpus_per_type = self.cluster.spec().gpus_per_type();
        let mut metrics = summarize(&jobs, &self.config.window, &self.timeline, &gpus_per_type, end_time);
        metrics.events = self.events;
        metrics.decisions = self.decisions;
        RunResult {
            policy: self.policy_name,
            gpu_types: self.cluster.spec().gpu_types().to_vec(),
            jobs,
            metrics,
            timeline: self.timeline,
            wall_time: started.elapsed(),
            solver: self.policy.solver_stats(),
            policy_report: self.policy.report().filter(|report| !report.is_empty()),
            allocations: self.traced,
        }
    }
}

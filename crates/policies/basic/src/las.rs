//! Least attained service, continuous and Tiresias' discretised two-dimensional variant.

use crate::common::{KeptOrder, all_waiting_fit, run_top_of_order, start_in_order};
use schedlab_cluster::Placer;
use schedlab_core::{
    Context, Decision, JobId, JobView, ParamError, ParamReader, Policy, PolicyError, RunStart, Time, TotalF64,
};

/// How service is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Service {
    /// GPUs held times seconds held (Tiresias' 2D attained service).
    GpuTime,
    /// Seconds held.
    Time,
}

fn read_service(reader: &mut schedlab_core::ParamReader<'_>) -> Result<Service, ParamError> {
    Ok(match reader.choice("service", "gpu_time", &["gpu_time", "time"])? {
        "time" => Service::Time,
        _ => Service::GpuTime,
    })
}

fn service(job: &JobView, now: Time, kind: Service) -> f64 {
    match kind {
        Service::GpuTime => job.attained_service(now),
        Service::Time => job.run_seconds(now),
    }
}

/// Least attained service: the jobs that have received the least service run, preempting
/// others. Priorities are re-evaluated at arrivals, completions and every `quantum` seconds
/// while jobs wait.
#[derive(Clone, Debug)]
pub struct Las {
    name: String,
    placer: Placer,
    quantum: f64,
    service: Service,
    /// The active jobs by attained service, kept across decisions.
    order: KeptOrder<TotalF64>,
}

impl Las {
    /// Reads the policy from its parameters, `las[quantum=360,service=gpu_time,placement=...,same_type=...]`.
    pub fn read(reader: &mut ParamReader<'_>) -> Result<Las, ParamError> {
        let quantum = reader.positive_f64("quantum", 360.0)?;
        let service = read_service(reader)?;
        let placer = Placer::from_params(reader)?;
        Ok(Las { name: reader.name(), placer, quantum, service, order: KeptOrder::default() })
    }
}

impl Policy for Las {
    fn name(&self) -> &str {
        &self.name
    }

    fn begin_run(&mut self, _run: &RunStart<'_>) -> Result<(), PolicyError> {
        self.order = KeptOrder::default();
        Ok(())
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        if context.jobs.n_queued() == 0 {
            return Ok(Decision::none());
        }
        let now = context.now;
        let kind = self.service;
        if all_waiting_fit(context) {
            // Every job is selected: nothing to preempt, only the waiting jobs to place.
            let mut order: Vec<(f64, &JobView)> =
                context.jobs.queued().map(|job| (service(job, now, kind), job)).collect();
            // Stable: equal service keeps arrival order.
            order.sort_by(|a, b| a.0.total_cmp(&b.0));
            let start = start_in_order(context, &self.placer, order.iter().map(|(_, job)| *job), true);
            let next_tick = (start.len() < order.len()).then(|| now + self.quantum);
            return Ok(Decision { start, next_tick, ..Decision::none() });
        }
        // Least service first; equal service keeps arrival order (ids are in arrival order).
        let order: Vec<&JobView> = self
            .order
            .update(context, |job| TotalF64(service(job, now, kind)))
            .iter()
            .map(|&(_, id)| context.jobs.get(id).expect("an active job"))
            .collect();
        Ok(run_top_of_order(context, &self.placer, &order, Some(now + self.quantum)))
    }
}

/// Position in Tiresias' queues: (queue, entered now, waiting, entry time, id); smaller first. The id
/// makes every key unique, so the sorted order does not depend on the order the jobs came in.
type QueueKey = (usize, bool, bool, Time, JobId);

/// Tiresias' per-job bookkeeping.
#[derive(Clone, Copy, Debug)]
struct TiresiasJob {
    /// Queue the job is in.
    queue: usize,
    /// When it entered that queue (arrival, demotion or promotion).
    entered: Time,
    /// Run seconds at the last promotion (Tiresias resets `executed_time` to 0 on promotion).
    run_offset: f64,
    /// When it first ran after its last promotion (or arrival).
    first_run: Option<Time>,
}

/// Tiresias' discretised two-dimensional LAS (Gu et al., NSDI'19), as in its simulator's
/// `dlas-gpu` mode: jobs move down priority queues as their attained GPU-time crosses
/// `thresholds`; queues are served in order; within a queue, jobs already in it come first
/// (running before waiting, each in order of entry) and jobs entering it now (arrivals,
/// demotions, promotions) are appended behind them. With `starvation` S > 0, a
/// waiting job in a lower queue whose time waiting since it last ran reaches S times its
/// executed time is promoted to the top queue with its executed time reset.
#[derive(Clone, Debug)]
pub struct Tiresias {
    name: String,
    placer: Placer,
    thresholds: Vec<f64>,
    starvation: f64,
    service: Service,
    jobs: Vec<Option<TiresiasJob>>,
    /// The active jobs in the order of the last full ranking: nearly sorted for the next one.
    previous: Vec<JobId>,
}

impl Tiresias {
    /// Reads the policy from its parameters, `tiresias[thresholds=3250:7200,starvation=0,service=gpu_time,...]`.
    pub fn read(reader: &mut ParamReader<'_>) -> Result<Tiresias, ParamError> {
        let thresholds = reader.f64_list("thresholds", &[3250.0, 7200.0])?;
        let starvation = reader.f64("starvation", 0.0)?;
        let service = read_service(reader)?;
        let placer = Placer::from_params(reader)?;
        let name = reader.name();
        if thresholds.windows(2).any(|pair| pair[0] >= pair[1]) {
            return Err(ParamError {
                policy: name,
                message: "parameter 'thresholds': expected increasing values".into(),
            });
        }
        Ok(Tiresias { name, placer, thresholds, starvation, service, jobs: Vec::new(), previous: Vec::new() })
    }

    fn executed(&self, job: &JobView, state: &TiresiasJob, now: Time) -> f64 {
        let seconds = job.run_seconds(now) - state.run_offset;
        match self.service {
            Service::GpuTime => seconds * f64::from(job.gpus),
            Service::Time => seconds,
        }
    }

    fn queue_of(&self, executed: f64) -> usize {
        // A tolerance keeps a job that reaches a threshold exactly at a tick from staying up.
        self.thresholds.iter().take_while(|threshold| executed >= **threshold - 1e-6).count()
    }

    /// Seconds the job has waited since it first ran after its last promotion.
    fn waited(job: &JobView, state: &TiresiasJob, now: Time) -> f64 {
        match state.first_run {
            Some(first_run) => (now - first_run) - (job.run_seconds(now) - state.run_offset),
            None => 0.0,
        }
    }
}

impl Policy for Tiresias {
    fn name(&self) -> &str {
        &self.name
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        for id in context.finished {
            if let Some(slot) = self.jobs.get_mut(id.index()) {
                *slot = None;
            }
        }
        // Tiresias keeps each queue as a list: members that stayed in the queue come first,
        // running before waiting; jobs that entered it now (arrived, demoted, promoted) are
        // appended behind them. Ranked in the previous decision's order, the keys arrive nearly
        // sorted, and the (stable) sort only merges the few that moved.
        let mut keyed = self.rank(context, self.previous_order(context));
        keyed.sort_by_key(|entry| entry.0);
        if keyed.windows(2).any(|pair| pair[0].0 == pair[1].0) {
            // A job listed twice (so another may be missing): rank the active jobs afresh. Ranking
            // a job twice in one decision changes nothing the first time did not.
            keyed = self.rank(context, context.jobs.active().collect());
            keyed.sort_by_key(|entry| entry.0);
        }
        self.previous.clear();
        self.previous.extend(keyed.iter().map(|(_, job)| job.id));
        let mut decision = if context.jobs.n_queued() == 0 {
            Decision::none()
        } else if all_waiting_fit(context) {
            keyed.retain(|(_, job)| !job.is_running());
            let start = start_in_order(context, &self.placer, keyed.iter().map(|(_, job)| *job), true);
            Decision { start, ..Decision::none() }
        } else {
            let order: Vec<&JobView> = keyed.iter().map(|(_, job)| *job).collect();
            run_top_of_order(context, &self.placer, &order, None)
        };
        decision.next_tick = self.next_event(context, &decision);
        Ok(decision)
    }
}

impl Tiresias {
    /// The active jobs in the order of the last decision's ranking, then the arrivals; every
    /// active job in arrival order when those lists do not add up to them.
    fn previous_order<'a>(&self, context: &Context<'a>) -> Vec<&'a JobView> {
        let mut jobs: Vec<&JobView> = Vec::with_capacity(context.jobs.n_active());
        jobs.extend(self.previous.iter().filter_map(|&id| context.jobs.get(id)));
        jobs.extend(context.arrived.iter().filter_map(|&id| context.jobs.get(id)));
        if jobs.len() != context.jobs.n_active() {
            jobs.clear();
            jobs.extend(context.jobs.active());
        }
        jobs
    }

    /// Brings each job's queue up to date (demotions, starvation promotions) and returns its
    /// queue key, in the order of `jobs`.
    fn rank<'a>(&mut self, context: &Context<'a>, jobs: Vec<&'a JobView>) -> Vec<(QueueKey, &'a JobView)> {
        let now = context.now;
        let mut keyed: Vec<(QueueKey, &JobView)> = Vec::with_capacity(context.jobs.n_active());
        for job in jobs {
            if job.id.index() >= self.jobs.len() {
                self.jobs.resize(job.id.index() + 1, None);
            }
            let mut state = self.jobs[job.id.index()].unwrap_or(TiresiasJob {
                queue: 0,
                entered: job.arrival,
                run_offset: 0.0,
                first_run: None,
            });
            if state.first_run.is_none() && job.is_running() {
                state.first_run = job.last_change;
            }
            let executed = self.executed(job, &state, now);
            if self.starvation > 0.0
                && state.queue > 0
                && !job.is_running()
                && executed > 0.0
                && Self::waited(job, &state, now) >= self.starvation * executed - 1e-6
            {
                state = TiresiasJob { queue: 0, entered: now, run_offset: job.run_seconds(now), first_run: None };
            }
            let queue = self.queue_of(self.executed(job, &state, now));
            if queue != state.queue {
                state.queue = queue;
                state.entered = now;
            }
            self.jobs[job.id.index()] = Some(state);
            keyed.push(((state.queue, state.entered == now, !job.is_running(), state.entered, job.id), job));
        }
        keyed
    }

    /// Returns the earliest future demotion of a job that runs after `decision`, or promotion
    /// of a job that waits after it.
    fn next_event(&mut self, context: &Context<'_>, decision: &Decision) -> Option<Time> {
        let now = context.now;
        // Sets, not vectors: this runs over every active job at every decision.
        let started: std::collections::BTreeSet<JobId> = decision.start.iter().map(|entry| entry.0).collect();
        let preempted: std::collections::BTreeSet<JobId> = decision.preempt.iter().copied().collect();
        let mut next: Option<Time> = None;
        for job in context.jobs.active() {
            let state = self.jobs[job.id.index()].as_mut().expect("recorded above");
            let runs = (job.is_running() && !preempted.contains(&job.id)) || started.contains(&job.id);
            if runs && state.first_run.is_none() {
                state.first_run = Some(now);
            }
            let state = *state;
            let per_second = match self.service {
                Service::GpuTime => f64::from(job.gpus),
                Service::Time => 1.0,
            };
            let executed = self.executed(job, &state, now);
            let candidate = if runs {
                self.thresholds.get(state.queue).map(|threshold| now + (threshold - executed) / per_second)
            } else if self.starvation > 0.0 && state.queue > 0 && executed > 0.0 {
                Some(now + (self.starvation * executed - Self::waited(job, &state, now)))
            } else {
                None
            };
            if let Some(time) = candidate.filter(|time| *time > now) {
                next = Some(next.map_or(time, |known| known.min(time)));
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::tests::context_at;
    use schedlab_core::{Allocation, ClusterSpec, ClusterView, GpuTypeId, GpuTypeSet, JobSpec, JobsView, Node, NodeId};
    use std::sync::Arc;

    fn tiresias() -> Tiresias {
        Tiresias {
            name: "tiresias".into(),
            placer: Placer::default(),
            thresholds: vec![3250.0, 7200.0],
            starvation: 0.0,
            service: Service::GpuTime,
            jobs: Vec::new(),
            previous: Vec::new(),
        }
    }

    /// The ranking starts from the previous decision's order; a list of arrivals that repeats a
    /// ranked job (and so misses another) falls back to ranking every active job, in the order a
    /// correct list gives.
    #[test]
    fn tiresias_ranks_every_active_job_even_when_told_a_wrong_arrival() {
        let node = Node { name: "n".into(), gpu_type: GpuTypeId(0), gpus: 8, cpus: None, mem_gib: None, group: None };
        let cluster = ClusterView::new(Arc::new(ClusterSpec::new(vec!["gpu".into()], vec![node]).unwrap()));
        let mut jobs = JobsView::with_capacity(0);
        let arrive = |jobs: &mut JobsView, id: u32, at: f64| {
            let spec = JobSpec::new(JobId(id), Time::from_secs(at), 8, "t", 1e5);
            jobs.insert(JobView::arrived(&spec, GpuTypeSet::ALL, None));
        };
        let (mut told_wrong, mut told_right) = (tiresias(), tiresias());
        arrive(&mut jobs, 0, 1.0);
        arrive(&mut jobs, 1, 1.0);
        let (now, arrived) = (Time::from_secs(1.0), [JobId(0), JobId(1)]);
        let first = context_at(now, &cluster, &jobs, &arrived);
        let decision = told_wrong.schedule(&first).unwrap();
        assert_eq!(decision, told_right.schedule(&first).unwrap());
        assert_eq!(decision.start.iter().map(|entry| entry.0).collect::<Vec<_>>(), vec![JobId(0)]);
        jobs.get_mut(JobId(0)).unwrap().record_start(now, Allocation::on_node(NodeId(0), 8), 1.0, now);
        jobs.sync_state(JobId(0));
        arrive(&mut jobs, 2, 2.0);
        let now = Time::from_secs(2.0);
        let wrong = [JobId(0)];
        let right = [JobId(2)];
        assert_eq!(
            told_wrong.schedule(&context_at(now, &cluster, &jobs, &wrong)).unwrap(),
            told_right.schedule(&context_at(now, &cluster, &jobs, &right)).unwrap()
        );
        assert_eq!(told_wrong.previous, told_right.previous);
        assert_eq!(told_right.previous, vec![JobId(0), JobId(1), JobId(2)]);
    }
}

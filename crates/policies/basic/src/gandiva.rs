//! Gandiva-style equal time slicing.

use crate::common::{KeptOrder, all_waiting_fit, run_top_of_order, start_in_order};
use schedlab_cluster::Placer;
use schedlab_core::{Context, Decision, JobId, JobView, ParamError, ParamReader, Policy, PolicyError, RunStart, Time};

/// Gandiva-style time slicing (Xiao et al., OSDI'18): when jobs outnumber GPUs, every
/// `quantum` seconds the jobs whose quantum ended go to the back of the queue and the jobs that
/// have waited longest since they last ran take their GPUs (round robin). When everything fits,
/// everything runs. Gandiva's packing, migration and grow-shrink are not modelled here.
#[derive(Clone, Debug)]
pub struct Gandiva {
    name: String,
    placer: Placer,
    quantum: f64,
    /// The active jobs in slicing order, kept across decisions (a full sort at every slice
    /// made this policy the slowest of the Philly suite).
    order: KeptOrder<(Time, bool)>,
    /// The jobs whose place in `order` may have moved since it was last brought up to date:
    /// those that arrived, finished, started or stopped (a job's key changes only then).
    touched: Vec<JobId>,
}

impl Gandiva {
    /// Reads the policy from its parameters, `gandiva[quantum=60,placement=...,same_type=...]`.
    pub fn read(reader: &mut ParamReader<'_>) -> Result<Gandiva, ParamError> {
        let quantum = reader.positive_f64("quantum", 60.0)?;
        let placer = Placer::from_params(reader)?;
        Ok(Gandiva { name: reader.name(), placer, quantum, order: KeptOrder::default(), touched: Vec::new() })
    }
}

impl Policy for Gandiva {
    fn name(&self) -> &str {
        &self.name
    }

    fn time_slice(&self) -> Option<f64> {
        Some(self.quantum)
    }

    fn begin_run(&mut self, _run: &RunStart<'_>) -> Result<(), PolicyError> {
        self.order = KeptOrder::default();
        self.touched.clear();
        Ok(())
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        self.touched.extend_from_slice(context.arrived);
        self.touched.extend_from_slice(context.finished);
        let decision = self.decide(context);
        self.touched.extend(decision.start.iter().map(|entry| entry.0));
        self.touched.extend_from_slice(&decision.preempt);
        Ok(decision)
    }
}

impl Gandiva {
    /// The decision at `context` (see the type's documentation).
    fn decide(&mut self, context: &Context<'_>) -> Decision {
        if context.jobs.n_queued() == 0 {
            return Decision::none();
        }
        let now = context.now;
        if all_waiting_fit(context) {
            // No oversubscription: everything runs, no slicing.
            let start = start_in_order(context, &self.placer, context.jobs.queued(), true);
            let next_tick = (start.len() < context.jobs.n_queued()).then(|| now + self.quantum);
            return Decision { start, next_tick, ..Decision::none() };
        }
        // A running job's key is when it started; a waiting job's key is when it stopped (or
        // arrived). Earlier keys go first, and on equal keys waiting jobs go before running ones.
        let order = self.order.update_touched(context, slice_key, &mut self.touched);
        // Round robin, in one pass over the slicing order: the running jobs within their quantum
        // first (a job keeps its GPUs until the tick that ends its quantum; a running job's key
        // holds its start), then every waiting job, then the running jobs whose quantum has
        // ended, which go to the back of the queue (by when they started, so they take their
        // next turns in the same order).
        let quantum = self.quantum;
        let mut ranked: Vec<&JobView> = Vec::with_capacity(order.len());
        let mut waiting: Vec<&JobView> = Vec::new();
        let mut ended: Vec<&JobView> = Vec::new();
        // Wake up when the earliest quantum of a running job ends.
        let mut next_tick: Option<Time> = None;
        for &((since, running), id) in order {
            let job = context.jobs.get(id).expect("an active job");
            if !running {
                waiting.push(job);
            } else if now - since < quantum - 1e-9 {
                ranked.push(job);
                let end = since + quantum;
                if end > now && next_tick.is_none_or(|tick| end < tick) {
                    next_tick = Some(end);
                }
            } else {
                ended.push(job);
            }
        }
        ranked.extend(waiting);
        ranked.extend(ended);
        let next_tick = next_tick.unwrap_or(now + quantum);
        run_top_of_order(context, &self.placer, &ranked, Some(next_tick))
    }
}

/// A job's place in the slicing order: when its current state began, then waiting before
/// running; [`KeptOrder`] breaks ties by id.
fn slice_key(job: &JobView) -> (Time, bool) {
    (job.last_change.unwrap_or(job.arrival), job.is_running())
}

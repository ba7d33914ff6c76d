//! Gandiva-style equal time slicing.

use crate::common::{KeptOrder, all_waiting_fit, run_top_of_order, start_in_order};
use schedlab_cluster::Placer;
use schedlab_core::{Context, Decision, JobId, JobView, ParamError, ParamReader, Policy, PolicyError, RunStart, Time};

/// Gandiva-style time slicing (Xiao et al., OSDI'18): when jobs outnumber GPUs, every
/// `quantum` seconds the jobs that have waited longest since they last ran replace the jobs
/// that have run longest since they last started (round robin). When everything fits,
/// everything runs. Gandiva's packing, migration and grow-shrink are not modelled here.
#[derive(Clone, Debug)]
pub struct Gandiva {
    name: String,
    placer: Placer,
    quantum: f64,
    /// The active jobs in slicing order, kept across decisions (a full sort at every slice
    /// made this policy the slowest of the Philly suite).
    order: KeptOrder<(Time, bool)>,
}

impl Gandiva {
    /// Reads the policy from its parameters, `gandiva[quantum=60,placement=...,same_type=...]`.
    pub fn read(reader: &mut ParamReader<'_>) -> Result<Gandiva, ParamError> {
        let quantum = reader.positive_f64("quantum", 60.0)?;
        let placer = Placer::from_params(reader)?;
        Ok(Gandiva { name: reader.name(), placer, quantum, order: KeptOrder::default() })
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
        Ok(())
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        if context.jobs.n_queued() == 0 {
            return Ok(Decision::none());
        }
        let now = context.now;
        if all_waiting_fit(context) {
            // No oversubscription: everything runs, no slicing.
            let start = start_in_order(context, &self.placer, context.jobs.queued(), true);
            let next_tick = (start.len() < context.jobs.n_queued()).then(|| now + self.quantum);
            return Ok(Decision { start, next_tick, ..Decision::none() });
        }
        // A running job's key is when it started; a waiting job's key is when it stopped (or
        // arrived). Earlier keys go first, and on equal keys waiting jobs go before running ones.
        let order = self.order.update(context, slice_key);
        // Do not slice within a quantum: a job that started less than a quantum ago keeps its
        // GPUs unless this is the tick that ends its quantum. A running job's key holds its start.
        let quantum = self.quantum;
        let started_recently = |&((since, running), _): &((Time, bool), JobId)| running && now - since < quantum - 1e-9;
        // Wake up when the earliest running job's quantum ends.
        let next_tick = order
            .iter()
            .filter(|entry| started_recently(entry))
            .map(|&((start, _), _)| start + quantum)
            .filter(|end| *end > now)
            .min()
            .unwrap_or(now + quantum);
        let job = |&(_, id): &((Time, bool), JobId)| context.jobs.get(id).expect("an active job");
        // The jobs within their quantum first, then the slicing order.
        let mut ranked: Vec<&JobView> = Vec::with_capacity(order.len());
        ranked.extend(order.iter().filter(|entry| started_recently(entry)).map(job));
        ranked.extend(order.iter().filter(|entry| !started_recently(entry)).map(job));
        Ok(run_top_of_order(context, &self.placer, &ranked, Some(next_tick)))
    }
}

/// A job's place in the slicing order: when its current state began, then waiting before
/// running; [`KeptOrder`] breaks ties by id.
fn slice_key(job: &JobView) -> (Time, bool) {
    (job.last_change.unwrap_or(job.arrival), job.is_running())
}

//! First in, first out.

use crate::common::start_in_order;
use schedlab_cluster::Placer;
use schedlab_core::{Context, Decision, ParamError, ParamReader, Policy, PolicyError};

/// First-come first-served, non-preemptive. Jobs start in arrival order; with `backfill` a
/// later job may start when an earlier one does not fit.
#[derive(Clone, Debug)]
pub struct Fifo {
    name: String,
    placer: Placer,
    backfill: bool,
}

impl Fifo {
    /// Reads the policy from its parameters, `fifo[backfill=false,placement=consolidated,same_type=true]`.
    pub fn read(reader: &mut ParamReader<'_>) -> Result<Fifo, ParamError> {
        let backfill = reader.bool("backfill", false)?;
        let placer = Placer::from_params(reader)?;
        Ok(Fifo { name: reader.name(), placer, backfill })
    }
}

impl Policy for Fifo {
    fn name(&self) -> &str {
        &self.name
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        if context.cluster.total_free() == 0 || context.jobs.n_queued() == 0 {
            return Ok(Decision::none());
        }
        let start = start_in_order(context, &self.placer, context.jobs.queued(), self.backfill);
        Ok(Decision { start, ..Decision::none() })
    }
}

//! Shortest job first and shortest remaining time first: oracle policies.

use crate::common::{all_waiting_fit, run_top_of_order, start_in_order};
use schedlab_cluster::Placer;
use schedlab_core::{
    Context, Decision, JobId, JobView, Knowledge, ParamError, ParamReader, Policy, PolicyError, Time, TotalF64,
};

/// What "short" means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Size {
    /// Seconds on the job's best GPU type.
    Time,
    /// Seconds times GPUs requested.
    GpuTime,
}

fn read_size(reader: &mut schedlab_core::ParamReader<'_>) -> Result<Size, ParamError> {
    Ok(match reader.choice("by", "time", &["time", "gpu_time"])? {
        "gpu_time" => Size::GpuTime,
        _ => Size::Time,
    })
}

fn remaining(job: &JobView, now: Time, size: Size) -> f64 {
    let seconds = job.oracle_remaining_time(now).expect("oracle policies receive OracleInfo");
    match size {
        Size::Time => seconds,
        Size::GpuTime => seconds * f64::from(job.gpus),
    }
}

/// `jobs` sorted by remaining size, ties by id (each job's size computed once).
fn by_remaining<'a>(jobs: impl Iterator<Item = &'a JobView>, now: Time, size: Size) -> Vec<&'a JobView> {
    let mut keyed: Vec<(TotalF64, JobId, &JobView)> =
        jobs.map(|job| (TotalF64(remaining(job, now, size)), job.id, job)).collect();
    keyed.sort_unstable_by_key(|&(remaining, id, _)| (remaining, id));
    keyed.into_iter().map(|(_, _, job)| job).collect()
}

/// Shortest job first (ORACLE: knows each job's true duration). Non-preemptive: waiting jobs
/// start in order of their total duration; `backfill` as for FIFO.
#[derive(Clone, Debug)]
pub struct Sjf {
    name: String,
    placer: Placer,
    backfill: bool,
    size: Size,
}

impl Sjf {
    /// Reads the policy from its parameters, `sjf[backfill=false,by=time,placement=...,same_type=...]`.
    pub fn read(reader: &mut ParamReader<'_>) -> Result<Sjf, ParamError> {
        let backfill = reader.bool("backfill", false)?;
        let size = read_size(reader)?;
        let placer = Placer::from_params(reader)?;
        Ok(Sjf { name: reader.name(), placer, backfill, size })
    }
}

impl Policy for Sjf {
    fn name(&self) -> &str {
        &self.name
    }

    fn knowledge(&self) -> Knowledge {
        Knowledge::Oracle
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        if context.cluster.total_free() == 0 || context.jobs.n_queued() == 0 {
            return Ok(Decision::none());
        }
        // Waiting jobs have made no progress since they last stopped, so their remaining time
        // does not depend on `now`; ties go to the earlier arrival.
        let order = by_remaining(context.jobs.queued(), context.now, self.size);
        let start = start_in_order(context, &self.placer, order, self.backfill);
        Ok(Decision { start, ..Decision::none() })
    }
}

/// Shortest remaining time first (ORACLE). Preemptive: at every arrival and completion the
/// jobs with the least remaining time run, preempting others.
#[derive(Clone, Debug)]
pub struct Srtf {
    name: String,
    placer: Placer,
    size: Size,
}

impl Srtf {
    /// Reads the policy from its parameters, `srtf[by=time,placement=...,same_type=...]`.
    pub fn read(reader: &mut ParamReader<'_>) -> Result<Srtf, ParamError> {
        let size = read_size(reader)?;
        let placer = Placer::from_params(reader)?;
        Ok(Srtf { name: reader.name(), placer, size })
    }
}

impl Policy for Srtf {
    fn name(&self) -> &str {
        &self.name
    }

    fn knowledge(&self) -> Knowledge {
        Knowledge::Oracle
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        if context.jobs.n_queued() == 0 {
            return Ok(Decision::none());
        }
        let now = context.now;
        let fast = all_waiting_fit(context);
        let order = if fast {
            by_remaining(context.jobs.queued(), now, self.size)
        } else {
            by_remaining(context.jobs.active(), now, self.size)
        };
        if fast {
            // Every job is selected: nothing to preempt, only the waiting jobs to place.
            let start = start_in_order(context, &self.placer, order, true);
            return Ok(Decision { start, ..Decision::none() });
        }
        Ok(run_top_of_order(context, &self.placer, &order, None))
    }
}

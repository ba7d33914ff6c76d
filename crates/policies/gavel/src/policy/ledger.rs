//! The round mechanism's ledger: what each combination was allocated, what it received and
//! what it is owed (Gavel's deficits), and Gavel's lease of a round in whole steps.

use super::*;

/// Per-combination bookkeeping of the round mechanism.
#[derive(Clone, Debug, Default)]
pub(super) struct JobAccount {
    /// Time fraction per GPU type from the last allocation.
    pub(super) allocation: PerType<f64>,
    /// Types the combination can run on (a single job's measured throughput is positive).
    pub(super) usable: PerType<bool>,
    /// Seconds run on each type since the allocation was last computed (plus the reset credit).
    pub(super) received: PerType<f64>,
    /// Gavel's deficit per type: time the combination should have run by its allocations minus
    /// the time it ran, summed over past allocations (`_reset_time_run_so_far`).
    pub(super) deficit: PerType<f64>,
    /// Arrived since the allocation was computed, with `new_jobs_wait`: ranked and given GPUs
    /// in rounds like any job, but not started until the next recomputation.
    pub(super) held: bool,
    /// GPUs the combination needs at once: its job's, or the larger of a pair's two.
    pub(super) gang: u32,
}

/// One value per GPU type, inline for up to four types: a round ranks every account's types,
/// and a recomputation builds every account afresh.
pub(super) type PerType<T> = smallvec::SmallVec<[T; 4]>;

impl Gavel {
    /// Books the time running jobs ran since the last call, per type: a sharing pair runs once,
    /// as the pair; a gang's time counts once, whatever its size (Gavel's `_job_time_so_far`).
    /// With `whole_steps`, a combination idle on its GPUs after its round's steps is credited
    /// only until it ran out of them, as Gavel credits each job its execution time
    /// (`finish_time - current_round_start_time` in `simulate`).
    pub(super) fn account(&mut self, context: &Context<'_>) {
        let types = context.cluster.spec().gpu_types().len();
        if self.given.len() != types {
            self.given = vec![0.0; types];
        }
        if let Some(last) = self.last_call {
            let elapsed = context.now - last;
            for job in context.jobs.running() {
                let allocation = job.allocation.as_ref().expect("running jobs have allocations");
                if allocation.colocated_with.is_some_and(|partner| partner < job.id) {
                    continue;
                }
                let combo = Combo::of(job.id, allocation.colocated_with);
                let gpu_type = context.cluster.spec().node(allocation.parts[0].0).gpu_type.index();
                let ran = match self.busy_until.get(&combo) {
                    Some(&end) if end < context.now => (end - last).max(0.0),
                    _ => elapsed,
                };
                self.given[gpu_type] += ran;
                if let Some(account) = self.accounts.get_mut(&combo) {
                    account.received[gpu_type] += ran;
                }
            }
        }
        self.last_call = Some(context.now);
    }

    /// Gavel's lease of a round (`_get_num_steps`): `floor(rate x round)` steps for each job of
    /// `desired` at its rate there, alone or co-located. Also notes when each combination runs
    /// out of them (`busy_until`): the latest of its jobs' `now + steps / rate`, as Gavel's
    /// `_get_job_steps_and_finish_times`.
    pub(super) fn lease_whole_steps(
        &mut self,
        context: &Context<'_>,
        desired: &[(JobId, Allocation)],
    ) -> Vec<(JobId, f64)> {
        let round = self.clock.length();
        let spec = context.cluster.spec();
        self.busy_until.clear();
        let mut limits = Vec::with_capacity(desired.len());
        for (job, allocation) in desired {
            let gpu_type = spec.node(allocation.parts[0].0).gpu_type.index();
            let combo = Combo::of(*job, allocation.colocated_with);
            let Some(rate) = self
                .combo_rates(context, combo, gpu_type)
                .and_then(|rates| rates.iter().find(|(id, _)| id == job).map(|&(_, rate)| rate))
            else {
                continue;
            };
            let steps = (rate * round).floor();
            limits.push((*job, steps));
            if rate > 0.0 {
                let end = context.now + steps / rate;
                let latest = self.busy_until.entry(combo).or_insert(end);
                if end > *latest {
                    *latest = end;
                }
            }
        }
        limits
    }
}

//! Tiresias as the Pollux artifact runs it (`simulator/tiresias.py`): two priority queues by
//! attained GPU time, non-elastic jobs at their requested size, most-free placement, decisions
//! every step.

use crate::grid::Grid;
use crate::placement::{free_gpus, most_free};
use schedlab_core::{Context, Decision, JobId, ParamError, ParamReader, Policy, PolicyError};
use std::collections::BTreeMap;

/// A job's bookkeeping, in whole seconds as the artifact keeps it.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    running: bool,
    last_check: i64,
    executed: i64,
}

/// Tiresias with the artifact's settings: a job enters queue 0 and moves to queue 1 once its
/// executed time x GPUs reaches the threshold (57,600 GPU-seconds); queue 0 runs before queue 1,
/// each first come, first served; a job runs when its whole request fits in the GPUs left
/// (counted, not placed), and keeps its GPUs while it does; new runners are placed on the nodes
/// with the most free GPUs. Starvation promotion is off, as in the artifact (`_solve_starvation
/// = 0`).
#[derive(Clone, Debug)]
pub struct PolluxTiresias {
    name: String,
    grid: Grid,
    threshold: i64,
    queue_0: Vec<JobId>,
    queue_1: Vec<JobId>,
    entries: BTreeMap<JobId, Entry>,
}

impl PolluxTiresias {
    /// Reads `interval` (seconds between decisions, 60) and `threshold` (GPU-seconds before a
    /// job moves to the second queue, 57,600).
    pub fn read(reader: &mut ParamReader<'_>) -> Result<PolluxTiresias, ParamError> {
        let interval = reader.positive_f64("interval", 60.0)?;
        let threshold = reader.f64("threshold", 57_600.0)?;
        Ok(PolluxTiresias {
            name: reader.name(),
            grid: Grid::new(interval),
            threshold: threshold as i64,
            queue_0: Vec::new(),
            queue_1: Vec::new(),
            entries: BTreeMap::new(),
        })
    }
}

impl Policy for PolluxTiresias {
    fn name(&self) -> &str {
        &self.name
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let next_tick = self.grid.next_tick(context);
        if !self.grid.decides(context) {
            return Ok(Decision { next_tick, ..Decision::none() });
        }
        let now = context.now.secs() as i64;
        let jobs = context.jobs;
        self.queue_0.retain(|id| jobs.get(*id).is_some());
        self.queue_1.retain(|id| jobs.get(*id).is_some());
        self.entries.retain(|id, _| jobs.get(*id).is_some());
        for job in jobs.active() {
            if let std::collections::btree_map::Entry::Vacant(vacant) = self.entries.entry(job.id) {
                vacant.insert(Entry::default());
                self.queue_0.push(job.id);
            }
        }
        // Charge the time since the last decision to running jobs; demote past the threshold.
        for job in jobs.active() {
            let entry = self.entries.get_mut(&job.id).expect("added above");
            let elapsed = now - entry.last_check;
            entry.last_check = now;
            if entry.running {
                entry.executed += elapsed;
                let gpu_time = entry.executed * i64::from(job.gpus);
                if gpu_time >= self.threshold
                    && let Some(index) = self.queue_0.iter().position(|id| *id == job.id)
                {
                    self.queue_0.remove(index);
                    self.queue_1.push(job.id);
                }
            }
        }
        // Who runs: queue order, each job if its request fits in what is left.
        let mut left = context.cluster.spec().total_gpus();
        let mut desired = Vec::new();
        let mut starting = Vec::new();
        for id in self.queue_0.iter().chain(&self.queue_1) {
            let job = jobs.get(*id).expect("queued ids are active");
            let entry = self.entries.get_mut(id).expect("every queued job has an entry");
            if job.gpus <= left {
                entry.running = true;
                left -= job.gpus;
                match &job.allocation {
                    Some(allocation) => desired.push((job.id, allocation.clone())),
                    None => starting.push(job.id),
                }
            } else {
                entry.running = false;
            }
        }
        // Place the new runners on the GPUs the kept ones leave free.
        let mut free = free_gpus(context.cluster);
        for job in jobs.running() {
            if !desired.iter().any(|(id, _)| *id == job.id) {
                for &(node, gpus) in &job.allocation.as_ref().expect("running").parts {
                    free[node.index()] += gpus;
                }
            }
        }
        for id in starting {
            let job = jobs.get(id).expect("active");
            let allocation = most_free(&mut free, job.gpus)
                .ok_or_else(|| PolicyError::Infeasible(format!("{id} was counted in but its GPUs are not free")))?;
            desired.push((id, allocation));
        }
        Ok(Decision::reconcile(jobs.running_allocations(), desired, next_tick))
    }
}

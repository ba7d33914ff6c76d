//! A perfect imitator of DRF acting where the network acts: after one bundle per job, one
//! action at a time, each task on the least-loaded node. It takes the action DRF's labels name
//! (the job the window shows below both caps with the smallest dominant share, ties to the
//! earliest arrival), as DL2's supervised labels give it (a worker, then that job's server,
//! each placed on its own) or as one bundle action (worker and server on one node, as DRF
//! places them). What it reaches is the ceiling of imitation under each labelling.

use crate::{SlLabels, Traces, derive, run_episode, summarize};
use rayon::prelude::*;
use schedlab_core::{ClusterSpec, JobId};
use schedlab_dl2_speed::Dl2Speed;
use schedlab_policies_dl2::observation::{ACTIONS, Observation, encode};
use schedlab_policies_dl2::slot::{Slot, Task};
use schedlab_policies_dl2::{Chooser, Dl2, Learner, SlotConfig, SlotStats};
use std::sync::Arc;

/// DRF's next label as an action.
pub struct DrfImitator {
    labels: SlLabels,
    /// The job whose worker was just placed and whose server comes next.
    pending_server: Option<usize>,
}

impl DrfImitator {
    /// An imitator of DRF's labels as `labels` gives them.
    pub fn new(labels: SlLabels) -> DrfImitator {
        DrfImitator { labels, pending_server: None }
    }
}

impl Learner for DrfImitator {
    fn choose(&mut self, slot: &Slot, observation: &Observation, mask: &[bool; ACTIONS]) -> Option<usize> {
        if let Some(job) = self.pending_server.take()
            && let Some(column) = observation.column_of(job)
        {
            let action = encode(column, Task::Ps);
            if mask[action] {
                return Some(action);
            }
        }
        let (column, job) = observation
            .window
            .iter()
            .enumerate()
            .filter_map(|(column, shown)| shown.map(|job| (column, job)))
            .filter(|&(_, job)| slot.allows(job, Task::Bundle))
            .min_by(|&(_, a), &(_, b)| {
                let (a_job, b_job) = (&slot.jobs[a], &slot.jobs[b]);
                a_job
                    .dom_share
                    .total_cmp(&b_job.dom_share)
                    .then(a_job.arrival_slot.cmp(&b_job.arrival_slot))
                    .then(a.cmp(&b))
            })?;
        match self.labels {
            SlLabels::Bundles => Some(encode(column, Task::Bundle)),
            SlLabels::Tasks => {
                self.pending_server = Some(job);
                Some(encode(column, Task::Worker))
            }
        }
    }

    fn placed(&mut self, _slot: &Slot, placed: bool) {
        if !placed {
            self.pending_server = None;
        }
    }

    fn slot_ended(&mut self, _reward: f64, _progress: &[(JobId, f64)]) {
        self.pending_server = None;
    }
}

/// The imitator under `labels` on the validation traces (episode `i` seeded as validation
/// seeds it): mean JCT in slots and tasks per slot.
pub fn imitate_drf(
    labels: SlLabels,
    traces: &Traces,
    cluster: &Arc<ClusterSpec>,
    speeds: &Dl2Speed,
    seed: u64,
) -> Result<(f64, f64), String> {
    let runs: Vec<(f64, SlotStats)> = traces
        .validation
        .par_iter()
        .enumerate()
        .map(|(index, jobs)| {
            let chooser = Chooser::Learner(Box::new(DrfImitator::new(labels)));
            let mut policy = Dl2::new("drf-imitator".into(), chooser, SlotConfig::default());
            let jct = run_episode(cluster, jobs, speeds, &mut policy, derive(seed, 3, index as u64))?;
            Ok((jct, policy.stats()))
        })
        .collect::<Result<_, String>>()?;
    let (jct, stats) = summarize(&runs);
    Ok((jct, stats.tasks_per_slot()))
}

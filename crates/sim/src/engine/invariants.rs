//! The invariants the engine checks after every decision when `SimConfig::check_invariants` is
//! on: GPUs and CPUs on each node add up, shared GPUs are shared both ways, forked copies are
//! whole gangs, and a job's progress is its copies' less what aggregating them cost.

use super::Engine;
use crate::SimError;
use schedlab_core::JobView;

impl Engine<'_> {
    /// Checks that a job's progress is the sum of its copies' progress minus what aggregating
    /// them cost (for an unforked job: its one copy's progress).
    pub(super) fn check_copies_progress(&self, view: &JobView) -> Result<(), SimError> {
        let state = &self.states[view.id.index()];
        let from = state.segment_from.max(view.productive_from());
        let running = if view.is_running() && self.now > from {
            state.copy_rates.iter().sum::<f64>() * (self.now - from)
        } else {
            0.0
        };
        let copies = state.copies_progress + running;
        let cost = state.aggregation_cost + state.copy_overhead * running;
        let progress = view.progress(self.now);
        if (progress - (copies - cost)).abs() > 1e-6 * progress.max(1.0) {
            return Err(SimError::Invariant {
                time: self.now,
                message: format!(
                    "{} has progress {progress}, but its copies made {copies} and aggregation cost {cost}",
                    view.id
                ),
            });
        }
        Ok(())
    }

    /// Checks every invariant of the state after a decision (see the module's doc).
    pub(super) fn check_invariants(&self) -> Result<(), SimError> {
        let queued_gpus: u64 = self.jobs.queued().map(|view| u64::from(view.gpus)).sum();
        if queued_gpus != self.jobs.queued_gpus() {
            return Err(SimError::Invariant {
                time: self.now,
                message: format!(
                    "waiting jobs request {queued_gpus} GPUs, but {} are counted",
                    self.jobs.queued_gpus()
                ),
            });
        }
        let spec = self.cluster.spec();
        let mut used = vec![0u32; spec.nodes().len()];
        // CPUs are checked on nodes without space sharing (a pair takes its CPUs once).
        let mut cpus_used = vec![0.0; spec.nodes().len()];
        let mut shared = vec![false; spec.nodes().len()];
        for view in self.jobs.running() {
            let allocation = view.allocation.as_ref().expect("running");
            self.states[view.id.index()].cpus.each_node(allocation, |node, cpus| cpus_used[node.index()] += cpus);
            if allocation.colocated_with.is_some() {
                allocation.parts.iter().for_each(|part| shared[part.0.index()] = true);
            }
            if let Some(partner) = allocation.colocated_with {
                let back = self.jobs.get(partner).and_then(|other| other.allocation.as_ref());
                if !back.is_some_and(|other| other.colocated_with == Some(view.id) && other.parts == allocation.parts) {
                    return Err(SimError::Invariant {
                        time: self.now,
                        message: format!("{} shares GPUs with {partner}, which does not share them back", view.id),
                    });
                }
                if partner < view.id {
                    continue; // the pair's GPUs are counted once, with the lower id
                }
            }
            for &(node, gpus) in &allocation.parts {
                used[node.index()] += gpus;
            }
            if allocation.forked
                && (allocation.parts.windows(2).any(|pair| pair[0].0 >= pair[1].0)
                    || allocation.parts.iter().any(|part| part.1 != view.gpus))
            {
                return Err(SimError::Invariant {
                    time: self.now,
                    message: format!(
                        "{} is forked onto {:?}; each copy needs its own node and the job's {} GPUs",
                        view.id, allocation.parts, view.gpus
                    ),
                });
            }
            self.check_copies_progress(view)?;
            let work = self.workload[view.id.index()].work;
            if view.progress(self.now) > work * (1.0 + 1e-9) + 1e-9 {
                return Err(SimError::Invariant {
                    time: self.now,
                    message: format!("{} has progress {} beyond its work {work}", view.id, view.progress(self.now)),
                });
            }
        }
        for (index, node) in spec.nodes().iter().enumerate() {
            let free = self.cluster.free_gpus(schedlab_core::NodeId(index as u32));
            if used[index] > node.gpus || used[index] + free != node.gpus {
                return Err(SimError::Invariant {
                    time: self.now,
                    message: format!(
                        "node {index} has {} GPUs, {} used by running jobs and {free} marked free",
                        node.gpus, used[index]
                    ),
                });
            }
            if let Some(cpus) = node.cpus
                && !shared[index]
            {
                let free = self.cluster.free_cpus(schedlab_core::NodeId(index as u32));
                if cpus_used[index] > cpus + 1e-6 || (cpus_used[index] + free - cpus).abs() > 1e-6 * cpus.max(1.0) {
                    return Err(SimError::Invariant {
                        time: self.now,
                        message: format!(
                            "node {index} has {cpus} CPUs, {} used by running jobs and {free} marked free",
                            cpus_used[index]
                        ),
                    });
                }
            }
        }
        Ok(())
    }
}

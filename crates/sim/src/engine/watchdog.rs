//! The watchdogs: a run that can no longer progress ends with an error that says why, rather
//! than looping (jobs waiting on an idle cluster with nothing to come, or decisions that move no
//! job's progress).

use super::Engine;
use crate::SimError;
use schedlab_core::Time;

/// A policy calling for ticks with nothing running and nothing left to arrive this many times
/// in a row is stalled.
const MAX_IDLE_DECISIONS: u32 = 10_000;

/// Once no arrivals are left, this many decisions in a row in which no job progresses (those
/// running are all at rate 0, or still paying restart overheads) and none finishes is a stall,
/// whatever the policy repeats.
const MAX_STAGNANT_DECISIONS: u32 = 100_000;

/// The progress watchdog compares the running jobs' progress every this many decisions (its
/// cost stays far below the decisions' own).
const PROGRESS_CHECK_EVERY: u32 = 1_024;

/// What the progress watchdog has seen since jobs last progressed.
#[derive(Default)]
pub(super) struct ProgressWatchdog {
    /// Decisions since the running jobs' progress last moved (or since the count started).
    decisions: u32,
    /// How many of them changed an allocation.
    changes: u32,
    /// When the count started.
    since: Time,
    /// The active jobs' progress at the last check, if there was one.
    progress: Option<Vec<f64>>,
}

impl Engine<'_> {
    /// Fails when jobs wait on an idle cluster with no arrivals left and no tick pending, or
    /// after [`MAX_IDLE_DECISIONS`] decisions in a row that changed nothing there.
    pub(super) fn check_stall(&mut self, changed: bool) -> Result<(), SimError> {
        let nothing_left = self.next_arrival == self.workload.len();
        if self.jobs.n_running() > 0 || self.jobs.n_queued() == 0 || !nothing_left {
            self.idle_decisions = 0;
            return Ok(());
        }
        if changed {
            self.idle_decisions = 0;
        } else {
            self.idle_decisions += 1;
        }
        if self.pending_tick.is_none() || self.idle_decisions > MAX_IDLE_DECISIONS {
            let first = self.jobs.queued().next().expect("queue is not empty");
            return Err(SimError::Stalled {
                policy: self.policy_name.clone(),
                time: self.now,
                message: format!(
                    "{} jobs wait on an idle cluster ({} free GPUs) with no arrivals left and no tick pending; \
                     the first is {} needing {} GPUs",
                    self.jobs.n_queued(),
                    self.cluster.total_free(),
                    first.id,
                    first.gpus
                ),
            });
        }
        Ok(())
    }

    /// Fails when, with no arrivals left, [`MAX_STAGNANT_DECISIONS`] decisions in a row saw no job
    /// finish and no job's progress move.
    pub(super) fn check_progress(&mut self, changed: bool) -> Result<(), SimError> {
        let watchdog = &mut self.watchdog;
        if self.next_arrival < self.workload.len() || !self.finished.is_empty() {
            *watchdog = ProgressWatchdog::default();
            return Ok(());
        }
        if watchdog.decisions == 0 {
            watchdog.since = self.now;
        }
        watchdog.decisions += 1;
        watchdog.changes += u32::from(changed);
        if !watchdog.decisions.is_multiple_of(PROGRESS_CHECK_EVERY) {
            return Ok(());
        }
        let now = self.now;
        // With no arrivals and no finishes since the count started, the active jobs are the same.
        let progress: Vec<f64> = self.jobs.active().map(|view| view.progress(now)).collect();
        let moved = watchdog
            .progress
            .as_ref()
            .is_some_and(|before| progress.iter().zip(before).any(|(current, before)| current > before));
        if moved {
            *watchdog = ProgressWatchdog { since: now, progress: Some(progress), ..ProgressWatchdog::default() };
            return Ok(());
        }
        watchdog.progress = Some(progress);
        if watchdog.decisions < MAX_STAGNANT_DECISIONS {
            return Ok(());
        }
        let repeated = format!(
            "no job progressed over {} decisions in a row (from {} on, no arrivals left, no job finished); {} of them \
             started, preempted or reconfigured jobs, the others changed nothing",
            watchdog.decisions, watchdog.since, watchdog.changes
        );
        let message = match self.jobs.running().next().or_else(|| self.jobs.queued().next()) {
            None => format!("{repeated}; every job has finished, but the policy keeps asking for ticks"),
            Some(first) => format!(
                "{repeated}; {} jobs run and {} wait (the first is {}, {} on {} GPUs, at {} of its {} steps, \
                 productive from {})",
                self.jobs.n_running(),
                self.jobs.n_queued(),
                first.id,
                if first.allocation.is_some() { "running" } else { "waiting" },
                first.allocation.as_ref().map_or(0, |allocation| allocation.gpus()),
                first.progress(now),
                self.workload[first.id.index()].work,
                first.productive_from(),
            ),
        };
        Err(SimError::Stalled { policy: self.policy_name.clone(), time: now, message })
    }
}

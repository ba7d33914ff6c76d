//! The artifact's clock: the simulator advances in fixed steps from time 0 and calls the policy
//! after each (`simulator.py`, `Cluster.step`), so decisions happen at `k x interval`, `k >= 1`,
//! and a job is first considered at the first step after it arrives.

use schedlab_core::{Context, Time};

/// Decision points every `interval` seconds from 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    interval: f64,
}

impl Grid {
    /// Steps of `interval` seconds (the artifact's `--interval`, 60 by default).
    pub fn new(interval: f64) -> Grid {
        Grid { interval }
    }

    /// The step length in seconds.
    pub fn interval(&self) -> f64 {
        self.interval
    }

    /// True if and only if `now` is a step boundary (a multiple of the interval after 0).
    pub fn is_step(&self, now: Time) -> bool {
        let steps = now.secs() / self.interval;
        now.secs() > 0.0 && steps == steps.floor()
    }

    /// The first step boundary after `now`.
    pub fn next_after(&self, now: Time) -> Time {
        Time::from_secs(((now.secs() / self.interval).floor() + 1.0) * self.interval)
    }

    /// True if and only if the policy decides at this call: at a step boundary (the tick it
    /// asked for, or an arrival or completion that falls on one).
    pub fn decides(&self, context: &Context<'_>) -> bool {
        self.is_step(context.now)
    }

    /// The tick to ask for: the next step while any job is active, none otherwise.
    pub fn next_tick(&self, context: &Context<'_>) -> Option<Time> {
        (context.jobs.n_running() + context.jobs.n_queued() > 0).then(|| self.next_after(context.now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_multiples_of_the_interval_after_zero() {
        let grid = Grid::new(60.0);
        assert!(!grid.is_step(Time::ZERO));
        assert!(grid.is_step(Time::from_secs(120.0)));
        assert!(!grid.is_step(Time::from_secs(107.0)));
        assert_eq!(grid.next_after(Time::from_secs(107.0)), Time::from_secs(120.0));
        assert_eq!(grid.next_after(Time::from_secs(120.0)), Time::from_secs(180.0));
        assert_eq!(grid.next_after(Time::ZERO), Time::from_secs(60.0));
    }
}

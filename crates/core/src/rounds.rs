//! A round clock for round-based policies (Gavel, Hadar): rounds of fixed length while jobs are
//! active, and what to do between them.

use crate::Time;

/// What a round-based policy does at a decision point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A round starts now: decide every running job afresh.
    Round,
    /// Between rounds, with jobs allowed to start on free GPUs.
    Fill,
    /// Between rounds, starting nothing (`idle_until_round`).
    Wait,
}

/// Rounds of `length` seconds. The first decision with active jobs starts a round; a round
/// starts whenever the previous one has run its length; with no active job the clock stops, so
/// the next arrival starts a round at once.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundClock {
    length: f64,
    idle_until_round: bool,
    next: Option<Time>,
}

impl RoundClock {
    /// Rounds of `length` seconds; with `idle_until_round`, nothing starts between rounds.
    pub fn new(length: f64, idle_until_round: bool) -> RoundClock {
        RoundClock { length, idle_until_round, next: None }
    }

    /// The round length in seconds.
    pub fn length(&self) -> f64 {
        self.length
    }

    /// Stops the clock: call when no job is active.
    pub fn stop(&mut self) {
        self.next = None;
    }

    /// Returns the phase at `now`, starting a round when one is due.
    pub fn phase(&mut self, now: Time) -> Phase {
        if self.next.is_none_or(|next| now >= next) {
            self.next = Some(now + self.length);
            Phase::Round
        } else if self.idle_until_round {
            Phase::Wait
        } else {
            Phase::Fill
        }
    }

    /// Ends the current round at `at` instead of after its full length (never later than
    /// that): the next decision at or after `at` starts a round.
    pub fn end_round_at(&mut self, at: Time) {
        self.next = Some(self.next.map_or(at, |next| if at < next { at } else { next }));
    }

    /// When the next round starts: ask to be called then (`Decision::next_tick`).
    pub fn next(&self) -> Option<Time> {
        self.next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_start_on_time_and_restart_after_a_stop() {
        let mut clock = RoundClock::new(360.0, false);
        assert_eq!(clock.phase(Time::from_secs(10.0)), Phase::Round);
        assert_eq!(clock.next(), Some(Time::from_secs(370.0)));
        assert_eq!(clock.phase(Time::from_secs(100.0)), Phase::Fill);
        assert_eq!(clock.phase(Time::from_secs(370.0)), Phase::Round);
        assert_eq!(clock.next(), Some(Time::from_secs(730.0)));
        clock.end_round_at(Time::from_secs(1000.0));
        assert_eq!(clock.next(), Some(Time::from_secs(730.0)), "never later than the full length");
        clock.end_round_at(Time::from_secs(500.0));
        assert_eq!(clock.phase(Time::from_secs(500.0)), Phase::Round);
        assert_eq!(clock.next(), Some(Time::from_secs(860.0)));
        clock.stop();
        assert_eq!(clock.phase(Time::from_secs(400.0)), Phase::Round);
        let mut idle = RoundClock::new(60.0, true);
        idle.phase(Time::from_secs(0.0));
        assert_eq!(idle.phase(Time::from_secs(30.0)), Phase::Wait);
    }
}

//! Simulated time in seconds with a total order.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Sub};

/// A point in simulated time, in seconds since the start of the workload.
///
/// Wraps an `f64` and orders it with [`f64::total_cmp`], so it can key a heap or a sort.
/// Constructors reject NaN, so the order agrees with the usual numeric order.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Time(f64);

impl Time {
    /// Time zero: the start of the simulation.
    pub const ZERO: Time = Time(0.0);
    /// A time later than every finite time; used for "never".
    pub const INFINITY: Time = Time(f64::INFINITY);

    /// Returns the time `secs` seconds after the start.
    ///
    /// # Panics
    /// Panics if `secs` is NaN: a NaN time is always a bug in the caller.
    pub fn from_secs(secs: f64) -> Time {
        assert!(!secs.is_nan(), "time must not be NaN");
        Time(secs)
    }

    /// Returns the time in seconds.
    pub fn secs(self) -> f64 {
        self.0
    }

    /// Returns true if and only if the time is finite.
    pub fn is_finite(self) -> bool {
        self.0.is_finite()
    }
}

impl PartialEq for Time {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Time {}

impl PartialOrd for Time {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Time {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Add<f64> for Time {
    type Output = Time;
    fn add(self, seconds: f64) -> Time {
        Time::from_secs(self.0 + seconds)
    }
}

impl Sub for Time {
    type Output = f64;
    fn sub(self, other: Time) -> f64 {
        self.0 - other.0
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.3}s", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_like_numbers_and_treats_signed_zero_consistently() {
        let mut times = [Time::from_secs(3.0), Time::ZERO, Time::INFINITY, Time::from_secs(1.5)];
        times.sort();
        let secs: Vec<f64> = times.iter().map(|t| t.secs()).collect();
        assert_eq!(secs, vec![0.0, 1.5, 3.0, f64::INFINITY]);
        assert_eq!(Time::from_secs(2.0) - Time::from_secs(0.5), 1.5);
        assert_eq!(Time::from_secs(1.0) + 2.0, Time::from_secs(3.0));
    }

    #[test]
    #[allow(clippy::float_cmp)]
    fn display_has_units() {
        assert_eq!(Time::from_secs(1.25).to_string(), "1.250s");
    }
}

/// An `f64` ordered (and compared) by [`f64::total_cmp`], for sort keys that are not times,
/// such as attained service.
#[derive(Clone, Copy, Debug)]
pub struct TotalF64(pub f64);

impl PartialEq for TotalF64 {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for TotalF64 {}

impl PartialOrd for TotalF64 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TotalF64 {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

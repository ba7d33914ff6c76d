//! Sweep axes and the parameters a table is laid out by, as typed lists.

use serde::{Deserialize, Serialize};

/// A sweep axis: a key of the spec's `sweep:` block. The one list of axes; a new axis is a
/// variant here and a case in `prepare::apply_point` (or the engine settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Axis {
    /// Arrival rates (jobs per hour) of a generator workload.
    RatePerHour,
    /// Numbers of jobs of a generator workload.
    Jobs,
    /// Factors applied to a trace's arrival rate (a `scale_rate` transform after the others).
    ScaleRate,
    /// Restart overheads in seconds.
    RestartOverhead,
    /// Trace files: each value replaces `{trace_index}` in the trace's path (Pollux's eight
    /// `workload-N.csv` per load).
    TraceIndex,
    /// Evaluation episodes: each value selects a block of consecutive jobs through the
    /// workload's `episode` transform (RLTune evaluates on windows of 256 jobs).
    Episode,
}

/// The placeholder a trace path carries for [`Axis::TraceIndex`].
pub const TRACE_INDEX: &str = "{trace_index}";

/// What an axis applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    /// Only a generator workload.
    Generator,
    /// Only a trace workload.
    Trace,
    /// Any run.
    Any,
}

impl Axis {
    /// Every axis, in the order runs, keys and tables list them.
    pub const ALL: [Axis; 6] =
        [Axis::RatePerHour, Axis::Jobs, Axis::ScaleRate, Axis::RestartOverhead, Axis::TraceIndex, Axis::Episode];

    /// The key in specs, run keys and files.
    pub fn name(self) -> &'static str {
        match self {
            Axis::RatePerHour => "rate_per_hour",
            Axis::Jobs => "jobs",
            Axis::ScaleRate => "scale_rate",
            Axis::RestartOverhead => "restart_overhead",
            Axis::TraceIndex => "trace_index",
            Axis::Episode => "episode",
        }
    }

    /// What the axis applies to.
    pub fn applies_to(self) -> Applies {
        match self {
            Axis::RatePerHour | Axis::Jobs => Applies::Generator,
            Axis::ScaleRate | Axis::TraceIndex | Axis::Episode => Applies::Trace,
            Axis::RestartOverhead => Applies::Any,
        }
    }

    /// Returns true for axes whose values are samples of one setting (trace files, episodes): a
    /// claim that does not name the axis takes the mean over its values.
    pub fn is_sample(self) -> bool {
        matches!(self, Axis::TraceIndex | Axis::Episode)
    }

    /// Checks one value of the axis.
    pub fn check(self, value: f64) -> Result<(), String> {
        let ok = match self {
            Axis::Jobs => value >= 1.0 && value.fract() == 0.0 && value <= schedlab_trace::synthetic::MAX_JOBS as f64,
            Axis::TraceIndex | Axis::Episode => value >= 0.0 && value.fract() == 0.0 && value <= u32::MAX as f64,
            Axis::RatePerHour | Axis::ScaleRate => value.is_finite() && value > 0.0,
            Axis::RestartOverhead => (0.0..=schedlab_trace::formats::MAX_DURATION_SECONDS).contains(&value),
        };
        let expected = match self {
            Axis::Jobs => format!("a positive whole number of at most {}", schedlab_trace::synthetic::MAX_JOBS),
            Axis::TraceIndex | Axis::Episode => "a whole number".to_string(),
            Axis::RatePerHour | Axis::ScaleRate => "a positive number".to_string(),
            Axis::RestartOverhead => format!(
                "a non-negative number of seconds, at most {:e} (the longest job schedlab accepts: no run could pay more)",
                schedlab_trace::formats::MAX_DURATION_SECONDS
            ),
        };
        if ok { Ok(()) } else { Err(format!("sweep: {}: expected {expected}, got {value}", self.name())) }
    }
}

impl std::fmt::Display for Axis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Axis {
    type Err = String;
    fn from_str(text: &str) -> Result<Axis, String> {
        Axis::ALL.into_iter().find(|axis| axis.name() == text).ok_or_else(|| {
            let known: Vec<&str> = Axis::ALL.iter().map(|axis| axis.name()).collect();
            format!("unknown sweep axis '{text}'; expected one of {}", known.join(", "))
        })
    }
}

impl TryFrom<String> for Axis {
    type Error = String;
    fn try_from(text: String) -> Result<Axis, String> {
        text.parse()
    }
}

impl From<Axis> for String {
    fn from(axis: Axis) -> String {
        axis.name().to_string()
    }
}

/// What a table's rows or columns are: policies, seeds or the values of a sweep axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parameter {
    /// One row or column per policy.
    Policy,
    /// One per seed.
    Seed,
    /// One per value of the axis.
    Axis(Axis),
}

impl Parameter {
    /// The name specs and files use.
    pub fn name(self) -> &'static str {
        match self {
            Parameter::Policy => "policy",
            Parameter::Seed => "seed",
            Parameter::Axis(axis) => axis.name(),
        }
    }
}

impl std::fmt::Display for Parameter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Parses `policy`, `seed` or an axis name; the error lists `known`, the parameters the spec
/// at hand has.
pub fn parse_parameter(text: &str, known: &[Parameter]) -> Result<Parameter, String> {
    known.iter().copied().find(|parameter| parameter.name() == text).ok_or_else(|| {
        let names: Vec<&str> = known.iter().map(|parameter| parameter.name()).collect();
        format!("unknown parameter '{text}'; expected one of {}", names.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_round_trip_and_check_values() {
        for axis in Axis::ALL {
            assert_eq!(axis.name().parse::<Axis>(), Ok(axis));
        }
        assert!("load".parse::<Axis>().unwrap_err().contains("expected one of rate_per_hour, jobs"));
        assert!(Axis::Jobs.check(1.5).is_err() && Axis::Jobs.check(0.0).is_err() && Axis::Jobs.check(3.0).is_ok());
        assert!(Axis::RestartOverhead.check(f64::NAN).is_err() && Axis::ScaleRate.check(0.0).is_err());
        assert!(Axis::RestartOverhead.check(1e12).is_err() && Axis::RestartOverhead.check(1e9).is_ok());
        let known = [Parameter::Policy, Parameter::Seed, Parameter::Axis(Axis::Jobs)];
        assert_eq!(parse_parameter("jobs", &known), Ok(Parameter::Axis(Axis::Jobs)));
        assert!(parse_parameter("load", &known).unwrap_err().contains("expected one of policy, seed, jobs"));
    }
}

//! The metrics a table, plot or claim can name, as one typed list.

use schedlab_sim::RunMetrics;
use serde::{Deserialize, Serialize};

/// A metric of a run. Written in specs by its [`Metric::name`]; an unknown name is an error at
/// its line that lists the known ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Metric {
    /// Average job completion time, hours.
    AvgJctHours,
    /// Median job completion time, hours.
    MedianJctHours,
    /// 95th percentile of job completion time, hours.
    P95JctHours,
    /// 99th percentile of job completion time, hours.
    P99JctHours,
    /// Average time from arrival to first start, hours.
    AvgQueueingDelayHours,
    /// Average time not running between arrival and finish, hours.
    AvgWaitingTimeHours,
    /// Time from the first arrival to the last finish, hours.
    MakespanHours,
    /// Busy GPU-time over available GPU-time in the window.
    Utilization,
    /// Jobs in the measurement window.
    JobsMeasured,
    /// Jobs of the window that finished.
    JobsFinished,
    /// Restarts (preemptions followed by a start).
    Restarts,
    /// Mean bounded slowdown `max(1, JCT / max(run time, 10 s))` of finished jobs (RLTune's
    /// objective).
    AvgBoundedSlowdown,
    /// Mean slowdown, JCT over run time, of finished jobs.
    AvgSlowdown,
    /// Allocation changes: restarts plus batch reconfigurations without a restart.
    AllocationChanges,
    /// Engine events.
    Events,
    /// Policy calls.
    Decisions,
    /// GPU-hours idle while waiting jobs asked for them: the integral over the makespan's span of
    /// `min(idle GPUs, GPUs requested by waiting jobs)`.
    IdleWhileWaitingGpuHours,
    /// Finish-time fairness: the mean over a run's finished measured jobs of the job's JCT divided
    /// by its JCT under the spec's `fairness_reference` policy at the same seed and sweep point
    /// (Themis' rho, with the reference as the "isolated" share; 1 for the reference itself).
    FtfRho,
}

/// Which side of a metric's value a proof-backed bound limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundSide {
    /// No scheduler of the bound's class gets below it (JCT, queueing delay, makespan).
    Lower,
    /// No scheduler of the bound's class gets above it (utilisation).
    Upper,
}

/// The metrics `bound: relaxation` bounds.
pub const RELAXATION_METRICS: [Metric; 4] =
    [Metric::AvgJctHours, Metric::AvgQueueingDelayHours, Metric::MakespanHours, Metric::Utilization];

impl Metric {
    /// The side `bound: relaxation` bounds this metric on, if it bounds it.
    pub fn relaxation_side(self) -> Option<BoundSide> {
        match self {
            Metric::AvgJctHours | Metric::AvgQueueingDelayHours | Metric::MakespanHours => Some(BoundSide::Lower),
            Metric::Utilization => Some(BoundSide::Upper),
            _ => None,
        }
    }

    /// Every metric, in the order `runs.csv` has them (all but [`Metric::FtfRho`], which compares
    /// two runs and so is not a column of one run).
    pub const ALL: [Metric; 18] = [
        Metric::AvgJctHours,
        Metric::MedianJctHours,
        Metric::P95JctHours,
        Metric::P99JctHours,
        Metric::AvgQueueingDelayHours,
        Metric::AvgWaitingTimeHours,
        Metric::MakespanHours,
        Metric::Utilization,
        Metric::JobsMeasured,
        Metric::JobsFinished,
        Metric::Restarts,
        Metric::AvgBoundedSlowdown,
        Metric::AvgSlowdown,
        Metric::AllocationChanges,
        Metric::Events,
        Metric::Decisions,
        Metric::IdleWhileWaitingGpuHours,
        Metric::FtfRho,
    ];

    /// The name specs and files use.
    pub fn name(self) -> &'static str {
        match self {
            Metric::AvgJctHours => "avg_jct_hours",
            Metric::MedianJctHours => "median_jct_hours",
            Metric::P95JctHours => "p95_jct_hours",
            Metric::P99JctHours => "p99_jct_hours",
            Metric::AvgQueueingDelayHours => "avg_queueing_delay_hours",
            Metric::AvgWaitingTimeHours => "avg_waiting_time_hours",
            Metric::MakespanHours => "makespan_hours",
            Metric::Utilization => "utilization",
            Metric::JobsMeasured => "jobs_measured",
            Metric::JobsFinished => "jobs_finished",
            Metric::Restarts => "restarts",
            Metric::AvgBoundedSlowdown => "avg_bounded_slowdown",
            Metric::AvgSlowdown => "avg_slowdown",
            Metric::AllocationChanges => "allocation_changes",
            Metric::Events => "events",
            Metric::Decisions => "decisions",
            Metric::IdleWhileWaitingGpuHours => "idle_while_waiting_gpu_hours",
            Metric::FtfRho => "ftf_rho",
        }
    }

    /// The unit of the metric's values.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::AvgJctHours
            | Metric::MedianJctHours
            | Metric::P95JctHours
            | Metric::P99JctHours
            | Metric::AvgQueueingDelayHours
            | Metric::AvgWaitingTimeHours
            | Metric::MakespanHours => "hours",
            Metric::Utilization => "fraction (0-1)",
            Metric::IdleWhileWaitingGpuHours => "GPU-hours",
            Metric::AvgBoundedSlowdown | Metric::AvgSlowdown | Metric::FtfRho => "ratio",
            Metric::JobsMeasured | Metric::JobsFinished => "jobs",
            Metric::Restarts | Metric::AllocationChanges | Metric::Events | Metric::Decisions => "count",
        }
    }

    /// One line that defines the metric: what is measured, over which jobs.
    pub fn definition(self) -> &'static str {
        match self {
            Metric::AvgJctHours => "mean job completion time (finish minus arrival) of the measured jobs that finished",
            Metric::MedianJctHours => "median JCT of the measured jobs that finished",
            Metric::P95JctHours => "95th percentile of JCT (linear interpolation, as numpy's default)",
            Metric::P99JctHours => "99th percentile of JCT (linear interpolation)",
            Metric::AvgQueueingDelayHours => {
                "mean time from arrival to the first start, over measured jobs that started; time waiting after a preemption is not in it (see waiting time)"
            }
            Metric::AvgWaitingTimeHours => {
                "mean time without GPUs between arrival and finish, over measured jobs that finished: the queueing delay plus every wait after a preemption"
            }
            Metric::MakespanHours => {
                "from the first arrival to the last finish of the measured jobs (the run's end for a job that did not finish)"
            }
            Metric::Utilization => {
                "busy GPU-seconds over available GPU-seconds, over the makespan's span (all GPU types together)"
            }
            Metric::JobsMeasured => {
                "jobs inside the measurement window (the spec's `sim: {window: ...}`; all jobs without one)"
            }
            Metric::JobsFinished => "measured jobs that finished before the run ended",
            Metric::Restarts => {
                "starts after the first, summed over measured jobs (moves, resizes, resumes after preemption)"
            }
            Metric::AvgBoundedSlowdown => {
                "mean of max(1, JCT / max(run time, 10 s)) over measured jobs that finished (RLTune's objective; the 10 s floor keeps short jobs from dominating)"
            }
            Metric::AvgSlowdown => "mean of JCT over run time (time holding GPUs) of measured jobs that finished",
            Metric::AllocationChanges => {
                "restarts plus batch-size reconfigurations without a restart, summed over measured jobs"
            }
            Metric::Events => "arrivals, completions and ticks the engine processed in the whole run",
            Metric::Decisions => "times the engine called the policy",
            Metric::IdleWhileWaitingGpuHours => {
                "GPU-hours over the makespan's span during which GPUs stood idle while waiting jobs asked for them: the integral of min(idle GPUs, GPUs requested by waiting jobs), by count (GPU types and pools are not matched, so it bounds what a work-conserving policy could have used); not a column of runs.csv, which keeps its published columns"
            }
            Metric::FtfRho => {
                "finish-time fairness: mean over finished measured jobs of JCT over the job's JCT under the spec's `fairness_reference` policy (same seed and sweep point)"
            }
        }
    }

    /// The metrics of a single run (every one but [`Metric::FtfRho`]).
    pub fn per_run() -> impl Iterator<Item = Metric> {
        Metric::ALL.into_iter().filter(|metric| *metric != Metric::FtfRho)
    }

    /// The columns of `runs.csv`, in order: the per-run metrics it was published with
    /// ([`Metric::IdleWhileWaitingGpuHours`] came later and is shown where a table names it).
    pub fn runs_csv_columns() -> impl Iterator<Item = Metric> {
        Metric::per_run().filter(|metric| *metric != Metric::IdleWhileWaitingGpuHours)
    }

    /// Reads the metric from one run's metrics; `None` for [`Metric::FtfRho`], which needs the
    /// reference run too.
    pub fn of_run(self, m: &RunMetrics) -> Option<f64> {
        Some(match self {
            Metric::AvgJctHours => m.avg_jct / 3600.0,
            Metric::MedianJctHours => m.median_jct / 3600.0,
            Metric::P95JctHours => m.p95_jct / 3600.0,
            Metric::P99JctHours => m.p99_jct / 3600.0,
            Metric::AvgQueueingDelayHours => m.avg_queueing_delay / 3600.0,
            Metric::AvgWaitingTimeHours => m.avg_waiting_time / 3600.0,
            Metric::MakespanHours => m.makespan / 3600.0,
            Metric::Utilization => m.utilization,
            Metric::JobsMeasured => m.jobs_measured as f64,
            Metric::JobsFinished => m.jobs_finished as f64,
            Metric::Restarts => m.restarts as f64,
            Metric::AvgBoundedSlowdown => m.avg_bounded_slowdown,
            Metric::AvgSlowdown => m.avg_slowdown,
            Metric::AllocationChanges => m.allocation_changes as f64,
            Metric::Events => m.events as f64,
            Metric::Decisions => m.decisions as f64,
            Metric::IdleWhileWaitingGpuHours => m.idle_while_waiting / 3600.0,
            Metric::FtfRho => return None,
        })
    }
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Metric {
    type Err = String;
    fn from_str(text: &str) -> Result<Metric, String> {
        Metric::ALL.into_iter().find(|metric| metric.name() == text).ok_or_else(|| {
            let known: Vec<&str> = Metric::ALL.iter().map(|metric| metric.name()).collect();
            let hint = schedlab_core::suggest::did_you_mean(text, known.iter().copied());
            format!("unknown metric '{text}'{hint}; expected one of {}", known.join(", "))
        })
    }
}

impl TryFrom<String> for Metric {
    type Error = String;
    fn try_from(text: String) -> Result<Metric, String> {
        text.parse()
    }
}

impl From<Metric> for String {
    fn from(metric: Metric) -> String {
        metric.name().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_a_spec_may_name_has_a_unit_and_a_definition() {
        // `FromStr` (what `check` applies to a spec's metric names) accepts exactly `ALL`.
        for metric in Metric::ALL {
            assert_eq!(metric.name().parse::<Metric>(), Ok(metric));
            assert!(!metric.unit().is_empty() && metric.definition().len() > 20, "{metric}");
        }
        let names: std::collections::BTreeSet<&str> = Metric::ALL.iter().map(|metric| metric.name()).collect();
        assert_eq!(names.len(), Metric::ALL.len(), "names are distinct");
    }

    #[test]
    fn names_round_trip_and_unknown_names_list_the_known() {
        for metric in Metric::ALL {
            assert_eq!(metric.name().parse::<Metric>(), Ok(metric));
        }
        let error = "avg_jct_days".parse::<Metric>().unwrap_err();
        assert!(
            error.starts_with(
                "unknown metric 'avg_jct_days' (did you mean 'avg_jct_hours'?); expected one of avg_jct_hours"
            ),
            "{error}"
        );
        assert_eq!(Metric::per_run().count(), 17);
        assert_eq!(Metric::runs_csv_columns().count(), 16);
    }
}

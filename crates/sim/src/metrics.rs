//! What a run produces: one [`JobRecord`] per job, [`RunMetrics`] over the measurement window,
//! and a [`BusyTimeline`] of busy GPUs per type.

use crate::MeasurementWindow;
use serde::{Deserialize, Serialize};

/// A job's allocation from `time` on, as [`crate::SimConfig::trace_jobs`] records it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AllocationSample {
    /// Seconds since the start of the run.
    pub time: f64,
    /// GPUs held (0: waiting, preempted or finished).
    pub gpus: u32,
    /// Nodes those GPUs are on.
    pub nodes: u32,
    /// Global batch size (local batch x accumulation steps x GPUs) when a policy chose one;
    /// `None` while the job trains with its own.
    pub batch: Option<u32>,
    /// Parameter servers held (DL2); absent from stored runs when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ps: u32,
    /// The GPU types held, as bits: bit j is the cluster's j-th type (the order of the run
    /// manifest's `gpu_types`; types from the 64th on share bit 63); absent from stored runs when 0
    /// (no GPUs).
    #[serde(default, skip_serializing_if = "is_zero_mask")]
    pub type_mask: u64,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

fn is_zero_mask(value: &u64) -> bool {
    *value == 0
}

/// The allocations of one traced job over a run, one sample per change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobTimeline {
    /// The job's id.
    pub job: u32,
    /// Samples in time order; the first is the job's arrival (0 GPUs).
    pub samples: Vec<AllocationSample>,
}

/// The outcome of one job. Times are seconds since the start of the workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobRecord {
    /// Job index.
    pub id: u32,
    /// The job's id in its source trace, if any.
    pub name: Option<String>,
    /// Submission time.
    pub arrival: f64,
    /// GPUs requested.
    pub gpus: u32,
    /// Model or template name.
    pub job_type: String,
    /// First start, if the job ever started.
    pub first_start: Option<f64>,
    /// Completion time, if the job finished within the run.
    pub finish: Option<f64>,
    /// Completion time minus arrival, if finished.
    pub jct: Option<f64>,
    /// First start minus arrival, if started.
    pub queueing_delay: Option<f64>,
    /// Seconds between arrival and finish (or the end of the run) without GPUs.
    pub waiting_time: f64,
    /// Seconds holding GPUs (including restart overheads).
    pub run_time: f64,
    /// Starts after the first one (after preemption or migration).
    pub restarts: u32,
    /// Batch-configuration changes while running (no restart).
    #[serde(default)]
    pub reconfigurations: u32,
    /// GPU-seconds held on each GPU type, in the run's type order.
    pub gpu_seconds: Vec<f64>,
}

/// The run time below which [`JobRecord::bounded_slowdown`] counts a job as this long, in
/// seconds: 10 s, as RLTune (and RLScheduler before it) bounds the slowdown of very short jobs.
pub const BOUNDED_SLOWDOWN_FLOOR: f64 = 10.0;

impl JobRecord {
    /// Returns the job's slowdown, its JCT over the time it held GPUs (`(wait + run) / run`),
    /// if it finished; infinite for a job that finished without holding GPUs (impossible in a
    /// run, as every job needs GPUs to progress).
    pub fn slowdown(&self) -> Option<f64> {
        self.jct.map(|jct| jct / self.run_time)
    }

    /// Returns the job's bounded slowdown `max(1, (wait + run) / max(run, 10 s))`, RLTune's
    /// objective, if it finished: short jobs cannot dominate the mean.
    pub fn bounded_slowdown(&self) -> Option<f64> {
        self.jct.map(|jct| (jct / self.run_time.max(BOUNDED_SLOWDOWN_FLOOR)).max(1.0))
    }

    /// Returns how often the job's allocation changed after its first start: restarts (moves,
    /// resizes, preemptions) plus batch reconfigurations without a restart. For elastic
    /// policies restarts alone hide the reconfigurations.
    pub fn allocation_changes(&self) -> u32 {
        self.restarts + self.reconfigurations
    }
}

/// Busy GPUs of each type over time, a step function: `busy[i]` holds from `times[i]` on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BusyTimeline {
    /// GPU type names; the order of each point's counts.
    pub gpu_types: Vec<String>,
    /// Times at which the counts changed.
    pub times: Vec<f64>,
    /// Busy counts, `gpu_types.len()` per point, flattened.
    pub busy: Vec<u32>,
    /// Times at which [`BusyTimeline::idle_wanted`] changed: a step function of its own, so
    /// that its points leave the busy counts' points as they were.
    #[serde(default)]
    pub idle_wanted_times: Vec<f64>,
    /// GPUs idle while waiting jobs asked for them, `min(idle GPUs, GPUs the waiting jobs
    /// request)` (by count: GPU types and pools are not matched), from the same index of
    /// [`BusyTimeline::idle_wanted_times`] on.
    #[serde(default)]
    pub idle_wanted: Vec<u32>,
}

impl BusyTimeline {
    /// Returns the busy counts at point `index`.
    pub fn point(&self, index: usize) -> &[u32] {
        let n = self.gpu_types.len();
        &self.busy[index * n..(index + 1) * n]
    }

    /// Records the counts at `time`, merging with the last point when it is at the same time
    /// and dropping the point when the counts did not change.
    pub fn record(&mut self, time: f64, counts: &[u32]) {
        let n = self.gpu_types.len();
        if let Some(&last_time) = self.times.last() {
            let last = self.times.len() - 1;
            if self.point(last) == counts {
                return;
            }
            if last_time == time {
                self.busy[last * n..(last + 1) * n].copy_from_slice(counts);
                return;
            }
        }
        self.times.push(time);
        self.busy.extend_from_slice(counts);
    }

    /// Records [`BusyTimeline::idle_wanted`] at `time`, merging with the last point when it is at
    /// the same time and dropping the point when the count did not change.
    pub fn record_idle_wanted(&mut self, time: f64, count: u32) {
        if let (Some(&last_time), Some(last)) = (self.idle_wanted_times.last(), self.idle_wanted.last_mut()) {
            if *last == count {
                return;
            }
            if last_time == time {
                *last = count;
                return;
            }
        }
        self.idle_wanted_times.push(time);
        self.idle_wanted.push(count);
    }

    /// Returns the GPU-seconds between `from` and `to` during which GPUs stood idle while
    /// waiting jobs asked for them (the integral of [`BusyTimeline::idle_wanted`]).
    pub fn integrate_idle_wanted(&self, from: f64, to: f64) -> f64 {
        let mut total = 0.0;
        for (index, &count) in self.idle_wanted.iter().enumerate() {
            let start = self.idle_wanted_times[index].max(from);
            let end = self.idle_wanted_times.get(index + 1).copied().unwrap_or(f64::INFINITY).min(to);
            if end > start {
                total += f64::from(count) * (end - start);
            }
        }
        total
    }

    /// Returns the busy counts at time `time` (zeros before the first point).
    pub fn at(&self, time: f64) -> Vec<u32> {
        match self.times.partition_point(|&point| point <= time) {
            0 => vec![0; self.gpu_types.len()],
            index => self.point(index - 1).to_vec(),
        }
    }

    /// Returns the sum of several timelines over the same GPU types (e.g. one per partition).
    ///
    /// # Panics
    /// Panics if the timelines have different GPU types.
    pub fn sum(parts: &[BusyTimeline]) -> BusyTimeline {
        let gpu_types = parts.first().map(|part| part.gpu_types.clone()).unwrap_or_default();
        assert!(parts.iter().all(|part| part.gpu_types == gpu_types), "timelines must share GPU types");
        let mut times: Vec<f64> = parts.iter().flat_map(|part| part.times.iter().copied()).collect();
        times.sort_by(f64::total_cmp);
        times.dedup();
        let mut total = BusyTimeline { gpu_types, ..BusyTimeline::default() };
        let mut cursors = vec![0usize; parts.len()];
        let mut counts = vec![0u32; total.gpu_types.len()];
        for time in times {
            counts.iter_mut().for_each(|count| *count = 0);
            for (part, cursor) in parts.iter().zip(cursors.iter_mut()) {
                while *cursor < part.times.len() && part.times[*cursor] <= time {
                    *cursor += 1;
                }
                if *cursor > 0 {
                    for (count, value) in counts.iter_mut().zip(part.point(*cursor - 1)) {
                        *count += value;
                    }
                }
            }
            total.record(time, &counts);
        }
        let mut times: Vec<f64> = parts.iter().flat_map(|part| part.idle_wanted_times.iter().copied()).collect();
        times.sort_by(f64::total_cmp);
        times.dedup();
        for time in times {
            let count = parts
                .iter()
                .map(|part| match part.idle_wanted_times.partition_point(|&point| point <= time) {
                    0 => 0,
                    index => part.idle_wanted[index - 1],
                })
                .sum();
            total.record_idle_wanted(time, count);
        }
        total
    }

    /// Returns the busy GPU-seconds of each type between `from` and `to`.
    pub fn integrate(&self, from: f64, to: f64) -> Vec<f64> {
        let n = self.gpu_types.len();
        let mut totals = vec![0.0; n];
        for index in 0..self.times.len() {
            let start = self.times[index].max(from);
            let end = self.times.get(index + 1).copied().unwrap_or(f64::INFINITY).min(to);
            if end > start {
                for (total, &count) in totals.iter_mut().zip(self.point(index)) {
                    *total += f64::from(count) * (end - start);
                }
            }
        }
        totals
    }
}

/// Summary of a run over its measurement window. Times in seconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunMetrics {
    /// Jobs in the measurement window.
    pub jobs_measured: usize,
    /// Of those, jobs that finished.
    pub jobs_finished: usize,
    /// Mean job completion time of finished measured jobs.
    pub avg_jct: f64,
    /// Median JCT.
    pub median_jct: f64,
    /// 95th percentile JCT (linear interpolation, as numpy's default).
    pub p95_jct: f64,
    /// 99th percentile JCT.
    pub p99_jct: f64,
    /// Mean of first start minus arrival over measured jobs that started.
    pub avg_queueing_delay: f64,
    /// Mean time without GPUs between arrival and finish, over finished measured jobs.
    pub avg_waiting_time: f64,
    /// Last finish minus first arrival over measured jobs.
    pub makespan: f64,
    /// Busy GPU-seconds over available GPU-seconds in that span.
    pub utilization: f64,
    /// GPU-seconds in that span during which GPUs stood idle while waiting jobs asked for them
    /// ([`BusyTimeline::integrate_idle_wanted`]; absent from runs stored before it, read as 0).
    #[serde(default)]
    pub idle_while_waiting: f64,
    /// The same per GPU type, in the run's type order.
    pub utilization_per_type: Vec<f64>,
    /// Restarts summed over measured jobs.
    pub restarts: u64,
    /// Mean [`JobRecord::bounded_slowdown`] over finished measured jobs.
    pub avg_bounded_slowdown: f64,
    /// Mean [`JobRecord::slowdown`] over finished measured jobs.
    pub avg_slowdown: f64,
    /// [`JobRecord::allocation_changes`] summed over measured jobs.
    pub allocation_changes: u64,
    /// Arrivals, completions and ticks processed in the whole run.
    pub events: u64,
    /// Times the policy was called.
    pub decisions: u64,
    /// Simulated time at which the run ended.
    pub end_time: f64,
}

/// Returns the `p`-th percentile (0..=100) of sorted values by linear interpolation.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let position = p / 100.0 * (sorted.len() - 1) as f64;
    let low = position.floor() as usize;
    let high = position.ceil() as usize;
    sorted[low] + (sorted[high] - sorted[low]) * (position - low as f64)
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, count) = values.fold((0.0, 0usize), |(sum, count), value| (sum + value, count + 1));
    if count == 0 { f64::NAN } else { sum / count as f64 }
}

/// Computes the run metrics of `jobs` over `window`, with GPU totals per type for utilisation.
pub fn summarize(
    jobs: &[JobRecord],
    window: &MeasurementWindow,
    timeline: &BusyTimeline,
    gpus_per_type: &[u32],
    end_time: f64,
) -> RunMetrics {
    use schedlab_core::Time;
    let measured: Vec<&JobRecord> =
        jobs.iter().filter(|job| window.contains(job.id, Time::from_secs(job.arrival))).collect();
    let mut jcts: Vec<f64> = measured.iter().filter_map(|job| job.jct).collect();
    jcts.sort_by(f64::total_cmp);
    let start = measured.iter().map(|job| job.arrival).fold(f64::INFINITY, f64::min);
    let end = measured.iter().map(|job| job.finish.unwrap_or(end_time)).fold(f64::NEG_INFINITY, f64::max);
    let span = if measured.is_empty() { 0.0 } else { end - start };
    let busy = if span > 0.0 { timeline.integrate(start, end) } else { vec![0.0; gpus_per_type.len()] };
    let total_gpus: u32 = gpus_per_type.iter().sum();
    let ratio = |busy: f64, gpus: u32| if span > 0.0 && gpus > 0 { busy / (f64::from(gpus) * span) } else { f64::NAN };
    RunMetrics {
        jobs_measured: measured.len(),
        jobs_finished: jcts.len(),
        avg_jct: mean(jcts.iter().copied()),
        median_jct: percentile(&jcts, 50.0),
        p95_jct: percentile(&jcts, 95.0),
        p99_jct: percentile(&jcts, 99.0),
        avg_queueing_delay: mean(measured.iter().filter_map(|job| job.queueing_delay)),
        avg_waiting_time: mean(measured.iter().filter(|job| job.finish.is_some()).map(|job| job.waiting_time)),
        makespan: span,
        utilization: ratio(busy.iter().sum(), total_gpus),
        idle_while_waiting: if span > 0.0 { timeline.integrate_idle_wanted(start, end) } else { 0.0 },
        utilization_per_type: busy.iter().zip(gpus_per_type).map(|(busy, gpus)| ratio(*busy, *gpus)).collect(),
        restarts: measured.iter().map(|job| u64::from(job.restarts)).sum(),
        avg_bounded_slowdown: mean(measured.iter().filter_map(|job| job.bounded_slowdown())),
        avg_slowdown: mean(measured.iter().filter_map(|job| job.slowdown())),
        allocation_changes: measured.iter().map(|job| u64::from(job.allocation_changes())).sum(),
        events: 0,
        decisions: 0,
        end_time,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_like_numpy() {
        let values = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&values, 50.0), 2.5);
        assert_eq!(percentile(&values, 100.0), 4.0);
        assert!((percentile(&values, 95.0) - 3.85).abs() < 1e-12);
    }

    fn record(arrival: f64, first_start: f64, finish: f64, run_time: f64) -> JobRecord {
        JobRecord {
            id: 0,
            name: None,
            arrival,
            gpus: 1,
            job_type: "t".into(),
            first_start: Some(first_start),
            finish: Some(finish),
            jct: Some(finish - arrival),
            queueing_delay: Some(first_start - arrival),
            waiting_time: finish - arrival - run_time,
            run_time,
            restarts: 2,
            reconfigurations: 3,
            gpu_seconds: vec![run_time],
        }
    }

    #[test]
    fn slowdowns_follow_their_definitions() {
        // Waits 100 s, runs 50 s: slowdown 3 either way.
        let long = record(0.0, 100.0, 150.0, 50.0);
        assert_eq!((long.slowdown(), long.bounded_slowdown()), (Some(3.0), Some(3.0)));
        // Waits 8 s, runs 2 s: slowdown 5, bounded by the 10 s floor to 1.
        let short = record(0.0, 8.0, 10.0, 2.0);
        assert_eq!((short.slowdown(), short.bounded_slowdown()), (Some(5.0), Some(1.0)));
        // Waits 15 s, runs 5 s: 20 / 10 = 2.
        assert_eq!(record(0.0, 15.0, 20.0, 5.0).bounded_slowdown(), Some(2.0));
        assert_eq!(long.allocation_changes(), 5);
        let unfinished = JobRecord { finish: None, jct: None, ..long };
        assert_eq!((unfinished.slowdown(), unfinished.bounded_slowdown()), (None, None));
        let metrics = summarize(
            &[record(0.0, 100.0, 150.0, 50.0), short, unfinished],
            &MeasurementWindow::All,
            &BusyTimeline { gpu_types: vec!["g".into()], ..Default::default() },
            &[1],
            200.0,
        );
        assert_eq!((metrics.avg_slowdown, metrics.avg_bounded_slowdown), (4.0, 2.0));
        assert_eq!(metrics.allocation_changes, 15);
    }

    #[test]
    fn timelines_sum_as_step_functions() {
        let mut a = BusyTimeline { gpu_types: vec!["g".into()], ..Default::default() };
        a.record(0.0, &[1]);
        a.record(10.0, &[0]);
        let mut b = BusyTimeline { gpu_types: vec!["g".into()], ..Default::default() };
        b.record(5.0, &[2]);
        b.record(20.0, &[0]);
        let total = BusyTimeline::sum(&[a, b]);
        assert_eq!(total.times, vec![0.0, 5.0, 10.0, 20.0]);
        assert_eq!(total.busy, vec![1, 3, 2, 0]);
        assert_eq!(total.at(7.0), vec![3]);
        assert_eq!(total.integrate(0.0, 30.0), vec![5.0 + 15.0 + 20.0]);
    }

    #[test]
    fn timeline_merges_and_integrates() {
        let mut timeline = BusyTimeline { gpu_types: vec!["a".into()], ..Default::default() };
        timeline.record(0.0, &[1]);
        timeline.record(0.0, &[2]);
        timeline.record(5.0, &[2]);
        timeline.record(10.0, &[0]);
        assert_eq!(timeline.times, vec![0.0, 10.0]);
        assert_eq!(timeline.integrate(0.0, 20.0), vec![20.0]);
        assert_eq!(timeline.integrate(5.0, 8.0), vec![6.0]);
    }
}

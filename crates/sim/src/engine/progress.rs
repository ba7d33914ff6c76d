//! A running job's progress: rate segments from the perf model, cut at work limits, banked
//! when they change, and the progress event that ends each.

use super::{Engine, EventKind, Rerate};
use crate::SimError;
use schedlab_cluster::{Placement, RateSegment};
use schedlab_core::{BatchConfig, JobId, JobView};

impl Engine<'_> {
    /// Banks the progress `job`'s copies made since the last bank; then the job runs on as one
    /// copy at `continue_at` (its partner left), or stops (`None`).
    pub(super) fn bank_copies(&mut self, job: JobId, continue_at: Option<f64>) {
        let now = self.now;
        let productive_from = self.jobs.get(job).map_or(now, JobView::productive_from);
        let state = &mut self.states[job.index()];
        let from = state.segment_from.max(productive_from);
        if now > from {
            let gross: f64 = state.copy_rates.iter().sum::<f64>() * (now - from);
            state.copies_progress += gross;
            state.aggregation_cost += state.copy_overhead * gross;
        }
        state.segment_from = now;
        state.copy_rates.clear();
        state.copy_overhead = 0.0;
        if let Some(rate) = continue_at {
            state.copy_rates.push(rate);
        }
    }

    /// The space-sharing partner of `job` stopped: `job` keeps the GPUs at its isolated rate.
    pub(super) fn run_alone(&mut self, job: JobId) -> Result<(), SimError> {
        self.rerate(job, Rerate::PartnerLeft)
    }

    /// Recomputes a running job's rate without a restart: its progress is banked, the perf
    /// model's segment asked again, and its next completion or rate change rescheduled.
    pub(super) fn rerate(&mut self, job: JobId, why: Rerate) -> Result<(), SimError> {
        let view = self.jobs.get(job).expect("a running job");
        let allocation = view.allocation.as_ref().expect("running");
        let (progress, batch) = match why {
            Rerate::PartnerLeft => (view.progress(self.now), allocation.batch),
            Rerate::SegmentEnded => {
                (self.states[job.index()].segment_until.expect("a rate change ends a segment"), allocation.batch)
            }
            Rerate::Reconfigured(batch) => (view.progress(self.now), batch),
            Rerate::Limited => (view.progress(self.now), allocation.batch),
        };
        let spec = self.cluster.spec_arc().clone();
        let typed: Vec<(&str, u32)> =
            allocation.parts.iter().map(|&(node, gpus)| (spec.gpu_type_name(spec.node(node).gpu_type), gpus)).collect();
        // A pair sharing GPUs runs at its co-located rate until the partner leaves.
        let partner = allocation.colocated_with.filter(|_| !matches!(why, Rerate::PartnerLeft));
        let segment = match partner {
            Some(partner) => RateSegment {
                rate: self
                    .perf
                    .colocated_rate(
                        &self.workload[job.index()],
                        &self.workload[partner.index()],
                        typed[0].0,
                        allocation.gpus(),
                    )
                    .map_err(|source| self.perf_failure(job, source))?,
                until: None,
            },
            None => {
                let placement = Placement { parts: &typed, batch, ps: allocation.ps_count() };
                self.segment(job, &placement, progress)?
            }
        };
        let segment = self.limited(job, progress, segment);
        self.bank_copies(job, Some(segment.rate));
        let view = self.jobs.get_mut(job).expect("checked above");
        match why {
            Rerate::PartnerLeft => view.record_rate_change(self.now, segment.rate),
            Rerate::SegmentEnded => view.record_segment(self.now, progress, segment.rate),
            Rerate::Limited => view.record_segment(self.now, view.progress(self.now), segment.rate),
            Rerate::Reconfigured(batch) => view.record_reconfiguration(self.now, batch, segment.rate),
        }
        let state = &mut self.states[job.index()];
        state.epoch += 1;
        state.segment_until = segment.until;
        self.schedule_progress_event(job);
        self.rate_changed.push(job);
        Ok(())
    }

    /// The perf model's rate segment for `job` on `placement` at `progress`, checked: a finite
    /// rate >= 0, ending (if it ends) beyond `progress`.
    pub(super) fn segment(
        &self,
        job: JobId,
        placement: &Placement<'_>,
        progress: f64,
    ) -> Result<RateSegment, SimError> {
        let spec_job = &self.workload[job.index()];
        let segment =
            self.perf.segment(spec_job, placement, progress).map_err(|source| self.perf_failure(job, source))?;
        if !(segment.rate.is_finite() && segment.rate >= 0.0) {
            return Err(SimError::Invariant {
                time: self.now,
                message: format!("{} gave {job} a rate of {} steps/s", self.perf.describe(), segment.rate),
            });
        }
        if let Some(until) = segment.until
            && !(until.is_finite() && until > progress)
        {
            return Err(SimError::Invariant {
                time: self.now,
                message: format!(
                    "{} gave {job} a rate segment ending at progress {until}, not beyond its progress {progress}",
                    self.perf.describe()
                ),
            });
        }
        Ok(segment)
    }

    /// `segment` cut at `job`'s work limit: the job runs until its progress reaches the limit
    /// and holds its GPUs at rate 0 from there.
    pub(super) fn limited(&self, job: JobId, progress: f64, segment: RateSegment) -> RateSegment {
        match self.states[job.index()].limit {
            Some(limit) if progress >= limit => RateSegment { rate: 0.0, until: None },
            Some(limit) => {
                RateSegment { until: Some(segment.until.map_or(limit, |until| until.min(limit))), ..segment }
            }
            None => segment,
        }
    }

    /// Schedules the running job's next progress event in its current epoch: the end of its
    /// rate segment, or its completion. A job at rate 0 gets none.
    pub(super) fn schedule_progress_event(&mut self, job: JobId) {
        let view = self.jobs.get(job).expect("a running job");
        let rate = view.observed_rate();
        if rate <= 0.0 {
            return;
        }
        let work = self.workload[job.index()].work;
        let progress = view.progress(self.now.max(view.productive_from()));
        let state = &self.states[job.index()];
        let (target, kind) = match state.segment_until {
            Some(until) if until < work => (until, EventKind::RateChange { job, epoch: state.epoch }),
            _ => (work, EventKind::Completion { job, epoch: state.epoch }),
        };
        let at = view.productive_from().max(self.now) + (target - progress).max(0.0) / rate;
        self.push(at.max(self.now), kind);
    }

    /// A running job keeps its GPUs but trains with `batch` from now on: progress banked, rate
    /// recomputed, no restart and no overhead.
    pub(super) fn reconfigure(&mut self, job: JobId, batch: Option<BatchConfig>) -> Result<(), SimError> {
        self.check_reconfigure(job, batch)?;
        self.rerate(job, Rerate::Reconfigured(batch))
    }

    /// `job` reached the end of its rate segment: it runs on at the next segment's rate, with
    /// no restart.
    pub(super) fn next_segment(&mut self, job: JobId) -> Result<(), SimError> {
        self.rerate(job, Rerate::SegmentEnded)
    }
}

//! What Hadar reports of a run ([`schedlab_core::Policy::report`]): how long the jobs of each
//! gang size waited while GPUs they could use stood free (priced out, not crowded out), and
//! the price range U / L at each round start. Bookkeeping only: no decision reads it.

use schedlab_core::{PolicyReport, Time};
use std::collections::BTreeMap;

/// Most points the U / L series keeps (every k-th round start beyond that).
const MAX_POINTS: usize = 400;

/// A job left waiting by a decision.
#[derive(Clone, Copy, Debug)]
pub struct Waiting {
    /// GPUs it requests (its gang size).
    pub gpus: u32,
    /// Whether free GPUs it could use were there after the decision, so that its price, not
    /// the cluster, kept it waiting.
    pub priced_out: bool,
}

/// The running tallies of a run.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    /// When the jobs in `waiting` were classified.
    since: Option<Time>,
    /// The jobs the last decision left waiting.
    waiting: Vec<Waiting>,
    /// Per gang size: seconds spent priced out, seconds spent waiting.
    by_gang: BTreeMap<u32, (f64, f64)>,
    /// `(hours, log10(U / L))` at each round start.
    spread: Vec<(f64, f64)>,
}

impl Diagnostics {
    /// Books the time since the last decision to the jobs it left waiting, and starts a new
    /// decision at `now` with no job waiting yet.
    pub fn advance(&mut self, now: Time) {
        if let Some(since) = self.since {
            let seconds = now.secs() - since.secs();
            for job in &self.waiting {
                let (priced_out, waited) = self.by_gang.entry(job.gpus).or_default();
                *waited += seconds;
                if job.priced_out {
                    *priced_out += seconds;
                }
            }
        }
        self.since = Some(now);
        self.waiting.clear();
    }

    /// Records a job this decision leaves waiting.
    pub fn wait(&mut self, job: Waiting) {
        self.waiting.push(job);
    }

    /// Records the price range at a round start.
    pub fn round(&mut self, now: Time, low: f64, high: f64) {
        self.spread.push((now.secs() / 3600.0, (high / low).log10()));
    }

    /// The report: per gang size g, `priced_out_share_<g>gpu` (of the time its jobs waited, the
    /// share with free GPUs they could use) and `waiting_job_hours_<g>gpu`; the median of
    /// log10(U / L) over round starts; and the series `log10_u_over_l`.
    pub fn report(&self) -> PolicyReport {
        let mut values = Vec::new();
        // Gang sizes whose jobs never waited for any length of time have no share (and no NaN,
        // which stored runs could not read back).
        let waited = || self.by_gang.iter().filter(|(_, (_, waited))| *waited > 0.0);
        for (gpus, (priced_out, waited)) in waited() {
            values.push((format!("priced_out_share_{gpus}gpu"), priced_out / waited));
        }
        for (gpus, (_, waited)) in waited() {
            values.push((format!("waiting_job_hours_{gpus}gpu"), waited / 3600.0));
        }
        if !self.spread.is_empty() {
            let mut spreads: Vec<f64> = self.spread.iter().map(|point| point.1).collect();
            spreads.sort_by(f64::total_cmp);
            values.push(("log10_u_over_l_median".to_string(), spreads[spreads.len() / 2]));
        }
        let step = self.spread.len().div_ceil(MAX_POINTS).max(1);
        let series: Vec<(f64, f64)> = self.spread.iter().step_by(step).copied().collect();
        PolicyReport {
            values,
            series: if series.is_empty() { Vec::new() } else { vec![("log10_u_over_l".to_string(), series)] },
        }
    }
}

/// Whether a job of `workers` GPUs with per-worker `rates` per type could be placed on the free
/// GPUs `free` (per type): across types with `task_level`, else on one type.
pub fn fits(free: &[u32], rates: &[f64], workers: u32, task_level: bool) -> bool {
    let usable = free.iter().zip(rates).filter(|(_, rate)| **rate > 0.0).map(|(free, _)| *free);
    if task_level { usable.sum::<u32>() >= workers } else { usable.max().unwrap_or(0) >= workers }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_time_is_booked_to_the_jobs_the_previous_decision_left_waiting() {
        let mut diagnostics = Diagnostics::default();
        diagnostics.advance(Time::from_secs(0.0));
        diagnostics.wait(Waiting { gpus: 4, priced_out: true });
        diagnostics.wait(Waiting { gpus: 1, priced_out: false });
        diagnostics.round(Time::from_secs(0.0), 1.0, 1000.0);
        // 3600 s later only the 4-GPU job still waits, crowded out.
        diagnostics.advance(Time::from_secs(3600.0));
        diagnostics.wait(Waiting { gpus: 4, priced_out: false });
        diagnostics.advance(Time::from_secs(7200.0));
        let report = diagnostics.report();
        let value = |name: &str| report.values.iter().find(|(known, _)| known == name).unwrap().1;
        assert_eq!(value("priced_out_share_4gpu"), 0.5);
        assert_eq!(value("priced_out_share_1gpu"), 0.0);
        assert_eq!(value("waiting_job_hours_4gpu"), 2.0);
        assert_eq!(value("waiting_job_hours_1gpu"), 1.0);
        assert_eq!(value("log10_u_over_l_median"), 3.0);
        assert_eq!(report.series, vec![("log10_u_over_l".to_string(), vec![(0.0, 3.0)])]);
    }

    #[test]
    fn a_job_fits_free_gpus_of_the_types_it_can_use() {
        let free = [2, 1, 4];
        let rates = [1.0, 2.0, 0.0];
        assert!(fits(&free, &rates, 3, true));
        assert!(!fits(&free, &rates, 3, false));
        assert!(fits(&free, &rates, 2, false));
        assert!(!fits(&free, &rates, 4, true));
    }
}

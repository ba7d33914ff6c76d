//! Descriptive statistics of a loaded trace, for `schedlab trace stats`.

use crate::datetime::format_naive;
use crate::transform::count_duplicates;
use crate::{Clock, Trace};
use serde::Serialize;
use std::collections::BTreeMap;

/// What `schedlab trace stats` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceStats {
    /// Format name.
    pub format: String,
    /// File read.
    pub path: String,
    /// Data rows read.
    pub rows: usize,
    /// Jobs kept.
    pub kept: usize,
    /// Rows left out and why.
    pub dropped: Vec<(String, usize)>,
    /// Rows kept after a documented correction, and which (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub adjusted: Vec<(String, usize)>,
    /// Jobs identical to an earlier one (removed by the `dedup` transform).
    pub duplicates: usize,
    /// Jobs per GPU count; fractional requests below one GPU are grouped as `<1`.
    pub gpu_histogram: Vec<(String, usize)>,
    /// Duration quantiles in seconds (`p`, value), linear interpolation; empty without durations.
    pub duration_quantiles: Vec<(f64, f64)>,
    /// First submission: a date for traces with dates, else seconds.
    pub first_submit: String,
    /// Last submission.
    pub last_submit: String,
    /// Seconds from first to last submission.
    pub span_seconds: f64,
    /// Jobs per VC, most first.
    pub per_vc: Vec<(String, usize)>,
    /// Distinct users.
    pub users: usize,
    /// The ten users with the most jobs.
    pub top_users: Vec<(String, usize)>,
    /// Jobs per final status.
    pub statuses: Vec<(String, usize)>,
    /// Memory held per loaded job, in bytes.
    pub bytes_per_job: f64,
}

fn counted<K: Ord + Clone>(items: impl Iterator<Item = K>) -> BTreeMap<K, usize> {
    let mut counts = BTreeMap::new();
    for item in items {
        *counts.entry(item).or_insert(0) += 1;
    }
    counts
}

fn most_first(counts: BTreeMap<String, usize>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = counts.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    counts
}

/// Computes the statistics of a trace.
pub fn stats(trace: &Trace) -> TraceStats {
    let mut sizes: BTreeMap<u64, usize> = BTreeMap::new();
    let mut fractional = 0;
    for job in &trace.jobs {
        if job.gpus > 0.0 && job.gpus < 1.0 {
            fractional += 1;
        } else {
            *sizes.entry(job.gpus.to_bits()).or_insert(0) += 1;
        }
    }
    let mut gpu_histogram = Vec::new();
    if fractional > 0 {
        gpu_histogram.push(("<1".to_string(), fractional));
    }
    let mut sized: Vec<(f64, usize)> = sizes.into_iter().map(|(bits, count)| (f64::from_bits(bits), count)).collect();
    sized.sort_by(|a, b| a.0.total_cmp(&b.0));
    gpu_histogram.extend(sized.into_iter().map(|(gpus, count)| (format!("{gpus}"), count)));

    let mut durations: Vec<f64> = trace.jobs.iter().filter_map(|job| job.duration).collect();
    durations.sort_by(f64::total_cmp);
    let quantile = |p: f64| {
        let position = p / 100.0 * (durations.len() - 1) as f64;
        let (low, high) = (position.floor() as usize, position.ceil() as usize);
        durations[low] + (durations[high] - durations[low]) * (position - low as f64)
    };
    let duration_quantiles = if durations.is_empty() {
        Vec::new()
    } else {
        [0.0, 25.0, 50.0, 75.0, 90.0, 99.0, 100.0].map(|p| (p, quantile(p))).to_vec()
    };

    let first = trace.jobs.iter().map(|job| job.submit).fold(f64::INFINITY, f64::min);
    let last = trace.jobs.iter().map(|job| job.submit).fold(f64::NEG_INFINITY, f64::max);
    let show = |seconds: f64| {
        if !seconds.is_finite() {
            "-".to_string()
        } else if trace.clock == Clock::WallClock {
            format_naive(seconds as i64)
        } else {
            format!("{seconds} s")
        }
    };
    let name = |sym| trace.symbols.get(sym).unwrap_or("(none)").to_string();
    let users = counted(trace.jobs.iter().map(|job| name(job.user)));
    let n_users = users.len();
    let mut top_users = most_first(users);
    top_users.truncate(10);
    TraceStats {
        format: trace.format.to_string(),
        path: trace.path.display().to_string(),
        rows: trace.summary.rows,
        kept: trace.summary.kept,
        dropped: trace.summary.dropped.clone(),
        adjusted: trace.summary.adjusted.clone(),
        duplicates: count_duplicates(trace),
        gpu_histogram,
        duration_quantiles,
        first_submit: show(first),
        last_submit: show(last),
        span_seconds: if trace.jobs.is_empty() { 0.0 } else { last - first },
        per_vc: most_first(counted(trace.jobs.iter().map(|job| name(job.vc)))),
        users: n_users,
        top_users,
        statuses: most_first(counted(trace.jobs.iter().map(|job| format!("{:?}", job.status).to_lowercase()))),
        bytes_per_job: trace.bytes_per_job(),
    }
}

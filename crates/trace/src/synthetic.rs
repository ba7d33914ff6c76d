//! Synthetic workloads in the style of Gavel's continuous-arrival generator.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_core::{JobId, JobSpec, Time};
use serde::{Deserialize, Serialize};

/// Most jobs a generator makes: each costs about 1 KB in memory through a run, so ten million
/// would take about 9 GB.
pub const MAX_JOBS: usize = 2_000_000;

/// A job type with the scale factors it supports and its throughput on the reference GPU type
/// at each, which converts a sampled duration into steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobTemplate {
    /// Job type name, the perf model's key.
    pub job_type: String,
    /// `(scale factor, reference steps per second)` pairs.
    pub scales: Vec<(u32, f64)>,
}

/// Draws a template uniformly among those supporting `gpus`; returns its job type and its
/// reference throughput at that scale, or `None` if no template supports `gpus`.
pub(crate) fn pick_template<'a>(templates: &'a [JobTemplate], gpus: u32, rng: &mut impl Rng) -> Option<(&'a str, f64)> {
    let supporting: Vec<(&str, f64)> = templates
        .iter()
        .filter_map(|template| {
            let rate = template.scales.iter().find(|(scale, _)| *scale == gpus)?.1;
            Some((template.job_type.as_str(), rate))
        })
        .collect();
    if supporting.is_empty() {
        return None;
    }
    Some(supporting[rng.random_range(0..supporting.len())])
}

/// Returns job `index` arriving at `arrival` with `gpus` GPUs for `duration` seconds: rigid
/// without templates, else a template drawn among those supporting `gpus`, with steps =
/// duration x its reference throughput, rounded to a whole number (at least 1).
fn make_job(
    index: usize,
    arrival: f64,
    gpus: u32,
    duration: f64,
    templates: &[JobTemplate],
    rng: &mut impl Rng,
) -> Result<JobSpec, GeneratorError> {
    let id = JobId(index as u32);
    let job = if templates.is_empty() {
        JobSpec::new(id, Time::from_secs(arrival), gpus, "rigid", duration)
    } else {
        let (job_type, rate) = pick_template(templates, gpus, rng).ok_or(GeneratorError::NoTemplate(gpus))?;
        JobSpec::new(id, Time::from_secs(arrival), gpus, job_type, (duration * rate).round().max(1.0))
    };
    Ok(JobSpec { trace_duration: Some(duration), ..job })
}

/// Occurs when a generator's parameters cannot produce a workload.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GeneratorError {
    /// Occurs when the arrival rate is not a positive number.
    #[error("rate_per_hour must be a positive number, got {0}")]
    Rate(f64),
    /// Occurs when a sampling distribution is empty.
    #[error("the distribution to sample from is empty")]
    EmptyDistribution,
    /// Occurs when a sampled scale factor has no template supporting it.
    #[error("no job template supports scale factor {0}; templates must cover 1, 2, 4 and 8 GPUs when multi_gpu is on")]
    NoTemplate(u32),
    /// Occurs when `rng: python` needs a model of Gavel's job table that the throughput table
    /// lacks.
    #[error("rng: python draws from Gavel's job table, but the throughput table has no '{0}'")]
    MissingGavelModel(String),
    /// Occurs when `rng: python` cannot seed Gavel's streams (`seed + 2`, `seed + 3`) in 64 bits.
    #[error("rng: python seeds Gavel's streams with seed + 2 and seed + 3; seed {0} is too large (at most 2^64 - 4)")]
    PythonSeed(u64),
}

/// When jobs arrive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrivals {
    /// Poisson arrivals at a mean rate per hour (Gavel's continuous traces).
    Poisson {
        /// Mean arrivals per hour.
        rate_per_hour: f64,
    },
    /// Every job at t = 0 (Gavel's static traces).
    AllAtZero,
}

/// Gavel's workload generator (Narayanan et al., OSDI'20, and `scheduler/utils.py` in its
/// public code): Poisson arrivals (or all at 0); duration
/// `60 * 10^U(1.5, 3)` seconds with probability 0.8, else `60 * 10^U(3, 4)`; with
/// `multi_gpu`, 1/2/4/8 GPUs with probability 0.70/0.10/0.15/0.05, else 1 GPU; job type
/// uniform over the templates that support the scale factor; steps = duration x reference
/// throughput, rounded to a whole number as in Gavel's traces (at least 1); with
/// `multi_priority`, priority weight 5 with probability 0.2, else 1.
///
/// With no templates, jobs are rigid (`job_type` `rigid`, work = duration in seconds) for
/// [`TraceDuration`](https://docs.rs/schedlab-cluster)-style replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GavelStyle {
    /// Number of jobs.
    pub jobs: usize,
    /// When jobs arrive.
    pub arrivals: Arrivals,
    /// Whether jobs may request more than one GPU.
    pub multi_gpu: bool,
    /// Whether 20% of jobs get priority weight 5.
    pub multi_priority: bool,
    /// Seed of the generator's own RNG (ChaCha8).
    pub seed: u64,
    /// Job templates; empty for rigid jobs.
    pub templates: Vec<JobTemplate>,
}

impl GavelStyle {
    /// Returns the jobs, sorted by arrival with ids `0..jobs`; the first arrives at t = 0.
    pub fn generate(&self) -> Result<Vec<JobSpec>, GeneratorError> {
        let mean_interarrival = match self.arrivals {
            Arrivals::Poisson { rate_per_hour } if rate_per_hour.is_finite() && rate_per_hour > 0.0 => {
                3600.0 / rate_per_hour
            }
            Arrivals::Poisson { rate_per_hour } => return Err(GeneratorError::Rate(rate_per_hour)),
            Arrivals::AllAtZero => 0.0,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut arrival = 0.0;
        let mut jobs = Vec::with_capacity(self.jobs);
        for index in 0..self.jobs {
            if index > 0 && mean_interarrival > 0.0 {
                let uniform: f64 = rng.random();
                arrival += -mean_interarrival * (1.0 - uniform).ln();
            }
            let exponent =
                if rng.random::<f64>() < 0.8 { rng.random_range(1.5..3.0) } else { rng.random_range(3.0..4.0) };
            let duration = 60.0 * 10f64.powf(exponent);
            let gpus = if self.multi_gpu {
                match rng.random::<f64>() {
                    draw if draw < 0.70 => 1,
                    draw if draw < 0.80 => 2,
                    draw if draw < 0.95 => 4,
                    _ => 8,
                }
            } else {
                1
            };
            let job = make_job(index, arrival, gpus, duration, &self.templates, &mut rng)?;
            let weight = if self.multi_priority && rng.random::<f64>() < 0.2 { 5.0 } else { 1.0 };
            jobs.push(JobSpec { weight, ..job });
        }
        Ok(jobs)
    }
}

/// Gavel's Philly-derived generator: `(duration, GPUs)` pairs drawn uniformly with replacement
/// from a distribution (such as `philly-gavel-dist`), Poisson arrivals, job types as for
/// [`GavelStyle`] (rigid when there are no templates).
#[derive(Clone, Debug, PartialEq)]
pub struct PhillySampled {
    /// Number of jobs.
    pub jobs: usize,
    /// Mean arrivals per hour.
    pub rate_per_hour: f64,
    /// Seed (ChaCha8).
    pub seed: u64,
    /// `(duration in seconds, GPUs)` pairs to draw from.
    pub distribution: Vec<(f64, u32)>,
    /// Job templates; empty for rigid jobs.
    pub templates: Vec<JobTemplate>,
}

impl PhillySampled {
    /// Returns the jobs, sorted by arrival with ids `0..jobs`; the first arrives at t = 0.
    pub fn generate(&self) -> Result<Vec<JobSpec>, GeneratorError> {
        if !(self.rate_per_hour.is_finite() && self.rate_per_hour > 0.0) {
            return Err(GeneratorError::Rate(self.rate_per_hour));
        }
        if self.distribution.is_empty() {
            return Err(GeneratorError::EmptyDistribution);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mean_interarrival = 3600.0 / self.rate_per_hour;
        let mut arrival = 0.0;
        let mut jobs = Vec::with_capacity(self.jobs);
        for index in 0..self.jobs {
            if index > 0 {
                arrival += -mean_interarrival * (1.0 - rng.random::<f64>()).ln();
            }
            let (duration, gpus) = self.distribution[rng.random_range(0..self.distribution.len())];
            jobs.push(make_job(index, arrival, gpus, duration, &self.templates, &mut rng)?);
        }
        Ok(jobs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generator() -> GavelStyle {
        GavelStyle {
            jobs: 2000,
            arrivals: Arrivals::Poisson { rate_per_hour: 60.0 },
            multi_gpu: true,
            multi_priority: false,
            seed: 7,
            templates: Vec::new(),
        }
    }

    #[test]
    fn is_deterministic_and_sorted() {
        let a = generator().generate().unwrap();
        let b = generator().generate().unwrap();
        assert_eq!(a, b);
        assert!(a.windows(2).all(|pair| pair[0].arrival <= pair[1].arrival));
        assert_eq!(a[0].arrival, Time::ZERO);
    }

    #[test]
    fn matches_the_published_distributions() {
        let jobs = generator().generate().unwrap();
        let n = jobs.len() as f64;
        let single = jobs.iter().filter(|job| job.gpus == 1).count() as f64 / n;
        assert!((single - 0.7).abs() < 0.04, "single-GPU share {single}");
        let mean_gap = jobs.last().unwrap().arrival.secs() / (n - 1.0);
        assert!((mean_gap - 60.0).abs() < 6.0, "mean inter-arrival {mean_gap}");
        assert!(jobs.iter().all(|job| (60.0 * 10f64.powf(1.5)..=600_000.0).contains(&job.work)));
    }

    #[test]
    fn templates_turn_durations_into_steps() {
        let templates = vec![JobTemplate { job_type: "A".into(), scales: vec![(1, 2.0)] }];
        let jobs = GavelStyle { multi_gpu: false, templates, ..generator() }.generate().unwrap();
        assert!(jobs.iter().all(|job| job.job_type == "A" && job.work == (2.0 * job.trace_duration.unwrap()).round()));
        let templates = vec![JobTemplate { job_type: "A".into(), scales: vec![(1, 2.0)] }];
        let err = GavelStyle { templates, ..generator() }.generate().unwrap_err();
        assert!(matches!(err, GeneratorError::NoTemplate(_)));
    }
}

//! Turning trace jobs into simulator jobs: model assignment.

use crate::synthetic::{JobTemplate, pick_template};
use crate::{Trace, TraceError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_core::{JobId, JobSpec, Time};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a trace job gets a job type and an amount of work.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Model {
    /// Job type `rigid`, work = the trace's duration in seconds (for `TraceDuration`).
    #[default]
    Rigid,
    /// A job type drawn uniformly from the throughput table's templates that support the job's
    /// GPU count; work = round(duration x the template's throughput on `reference`), at least 1.
    GavelZoo {
        /// GPU type whose throughput converts seconds into steps (Gavel: `v100`).
        reference: String,
        /// Seed of the draw.
        #[serde(default)]
        seed: u64,
    },
    /// Pollux's buckets by GPU-time (`simulator/workload.py`): under 1 GPU-hour `cifar10` or
    /// `ncf` (even odds), under 10 `deepspeech2` or `bert` (even odds), under 100 `yolov3`,
    /// else `imagenet`. Work = duration in seconds.
    PolluxBuckets {
        /// Seed of the draws.
        #[serde(default)]
        seed: u64,
    },
    /// The trace's own job type and work (Gavel and Pollux traces).
    FromTrace,
    /// The trace's own job type, which names an application of the perf model (Pollux's
    /// `application` column); work = that application's work to completion, as the perf model
    /// defines it ([`JobTypes::work`]: Pollux's progress over its epochs).
    Applications,
}

/// Where a built workload's time 0 is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// At the first arrival (the default): idle time before it is dropped.
    #[default]
    FirstArrival,
    /// At the trace's own time 0, for traces whose times count from the start of an experiment
    /// (Pollux's workloads, where the simulator's clock starts at 0 and steps every 60 s).
    TraceStart,
}

/// What the perf model tells the workload about job types, for the models that need it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobTypes {
    /// Templates (job type, scale factors, reference throughput) for `gavel-zoo`.
    pub templates: Vec<JobTemplate>,
    /// Work to completion per job type, for `applications`.
    pub work: BTreeMap<String, f64>,
}

/// What to do with fractional GPU requests (Alibaba's shared GPUs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FractionalGpus {
    /// Round up to whole GPUs (0.5 becomes 1), and count how many were rounded.
    #[default]
    Ceil,
    /// Refuse the workload.
    Error,
}

/// What building a workload did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildSummary {
    /// Jobs in the workload.
    pub jobs: usize,
    /// Trace jobs left out, with the reason and how many.
    pub dropped: Vec<(String, usize)>,
    /// Jobs whose fractional GPU request was rounded up.
    pub rounded_up: usize,
}

impl BuildSummary {
    fn drop_job(&mut self, reason: String) {
        match self.dropped.iter_mut().find(|(known, _)| *known == reason) {
            Some((_, count)) => *count += 1,
            None => self.dropped.push((reason, 1)),
        }
    }
}

/// Returns the bucket application for a job of `gpu_seconds`, as Pollux assigns them.
fn pollux_application(gpu_seconds: f64, rng: &mut ChaCha8Rng) -> &'static str {
    let hours = gpu_seconds / 3600.0;
    let coin = rng.random_bool(0.5);
    if hours < 1.0 {
        if coin { "cifar10" } else { "ncf" }
    } else if hours < 10.0 {
        if coin { "deepspeech2" } else { "bert" }
    } else if hours < 100.0 {
        "yolov3"
    } else {
        "imagenet"
    }
}

/// Builds a workload: jobs sorted stably by submission, arrivals shifted so the first is 0
/// (unless `origin` keeps the trace's own time 0),
/// ids `0..n`. CPU-only jobs, jobs with zero duration and (for `gavel-zoo`) jobs whose GPU
/// count no template supports are left out and counted; a model that needs something the
/// trace lacks (durations, job types, work) is an error naming the job's line.
pub fn build(
    trace: &Trace,
    model: &Model,
    fractional: FractionalGpus,
    types: &JobTypes,
    origin: Origin,
) -> Result<(Vec<JobSpec>, BuildSummary), TraceError> {
    let templates = &types.templates;
    if origin == Origin::TraceStart && trace.clock != crate::Clock::Relative {
        return Err(TraceError::Config(format!(
            "origin: trace_start needs a trace whose times count from its start; {} records dates",
            trace.format
        )));
    }
    let mut order: Vec<usize> = (0..trace.jobs.len()).collect();
    order.sort_by(|&a, &b| trace.jobs[a].submit.total_cmp(&trace.jobs[b].submit));
    let origin = match origin {
        Origin::FirstArrival => order.first().map_or(0.0, |&index| trace.jobs[index].submit),
        Origin::TraceStart => 0.0,
    };
    let seed = match model {
        Model::GavelZoo { seed, .. } | Model::PolluxBuckets { seed } => *seed,
        _ => 0,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut summary = BuildSummary::default();
    let mut jobs = Vec::with_capacity(trace.jobs.len());
    let symbol = |sym| trace.symbols.get(sym).map(str::to_string);
    for index in order {
        let job = &trace.jobs[index];
        let at = |message: String| TraceError::row(&trace.path, u64::from(job.line), message);
        if job.gpus <= 0.0 {
            summary.drop_job("CPU-only job (0 GPUs)".into());
            continue;
        }
        let gpus = if job.gpus.fract() != 0.0 {
            match fractional {
                FractionalGpus::Ceil => {
                    summary.rounded_up += 1;
                    job.gpus.ceil() as u32
                }
                FractionalGpus::Error => {
                    return Err(at(format!("{} GPUs is fractional; set fractional_gpus: ceil to round up", job.gpus)));
                }
            }
        } else {
            job.gpus as u32
        };
        let duration = || {
            job.duration.ok_or_else(|| {
                at(format!(
                    "the {} trace records no duration, which model {model:?} needs; use from-trace",
                    trace.format
                ))
            })
        };
        let (job_type, work) = match model {
            Model::Rigid => ("rigid".to_string(), duration()?),
            Model::PolluxBuckets { .. } => {
                let duration = duration()?;
                (pollux_application(duration * f64::from(gpus), &mut rng).to_string(), duration)
            }
            Model::GavelZoo { .. } => {
                let duration = duration()?;
                let Some((job_type, rate)) = pick_template(templates, gpus, &mut rng) else {
                    summary.drop_job(format!("no job template supports {gpus} GPUs"));
                    continue;
                };
                (job_type.to_string(), (duration * rate).round().max(1.0))
            }
            Model::Applications => {
                let job_type =
                    symbol(job.job_type).ok_or_else(|| at("applications needs a job type; the row has none".into()))?;
                let Some(&work) = types.work.get(&job_type) else {
                    let known: Vec<&str> = types.work.keys().map(String::as_str).collect();
                    return Err(at(format!(
                        "application '{job_type}' is not one of the perf model's ({})",
                        if known.is_empty() { "it names none; use perf: pollux".to_string() } else { known.join(", ") }
                    )));
                };
                (job_type, work)
            }
            Model::FromTrace => {
                let job_type =
                    symbol(job.job_type).ok_or_else(|| at("from-trace needs a job type; the row has none".into()))?;
                let work = job.work.or(job.duration).ok_or_else(|| at("from-trace needs work or a duration".into()))?;
                (job_type, work)
            }
        };
        if work <= 0.0 {
            summary.drop_job("zero duration or work".into());
            continue;
        }
        let spec = JobSpec {
            id: JobId(jobs.len() as u32),
            name: symbol(job.name),
            arrival: Time::from_secs(job.submit - origin),
            gpus,
            job_type,
            work,
            declared_work: None,
            restart_overhead: None,
            weight: f64::from(job.weight),
            user: symbol(job.user),
            vc: symbol(job.vc),
            batch_size: job.batch_size,
            cpus: job.cpus.map(f64::from),
            ps_cpus: None,
            mem_gib: job.mem_gib.map(f64::from),
            gpu_type: symbol(job.gpu_type),
            pool: None,
            trace_duration: job.duration,
            trace_status: Some(job.status),
        };
        jobs.push(spec);
    }
    summary.jobs = jobs.len();
    Ok((jobs, summary))
}

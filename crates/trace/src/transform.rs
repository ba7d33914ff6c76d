//! Transforms on a loaded [`Trace`]: filter, window, sample, scale, rebase, de-duplicate, sort.

use crate::datetime::parse_naive;
use crate::{Clock, Trace, TraceError, TraceJob};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_core::TraceStatus;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// One step of a transform pipeline, as written in a spec:
/// `- dedup`, `- sort`, `- first: 1000`, `- filter: {min_gpus: 1}`, ...
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Transform {
    /// Removes rows identical to an earlier row (all fields but the line), keeping the first.
    Dedup,
    /// Stable sort by submission time.
    Sort,
    /// Shifts submission times so that the earliest is 0.
    Rebase,
    /// Keeps jobs that match every given condition.
    Filter(Filter),
    /// Keeps jobs submitted in `[from, to)`.
    Window(Window),
    /// Keeps the first `n` jobs in the current order.
    First(usize),
    /// Keeps a seeded random subset, in the current order.
    Sample(Sample),
    /// Keeps the `index`-th block of `jobs` consecutive jobs in the current order (RLTune's
    /// evaluation episodes; the `episode` sweep axis sets `index`).
    Episode(Episode),
    /// Divides inter-arrival times by this factor (2.0 doubles the arrival rate).
    ScaleRate(f64),
    /// Sets every job's VC or GPU type by a seeded weighted draw, per user or per job (for
    /// traces that do not record what a setting needs, e.g. RLTune's Helios VCs).
    Assign(Assign),
}

/// Conditions of [`Transform::Filter`]; absent conditions always hold. Bounds are inclusive.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Filter {
    /// Keep only these final statuses.
    pub status: Option<Vec<TraceStatus>>,
    /// Minimum duration in seconds (jobs without a duration fail this condition).
    pub min_duration: Option<f64>,
    /// Maximum duration in seconds.
    pub max_duration: Option<f64>,
    /// Minimum GPUs (`1` removes CPU jobs).
    pub min_gpus: Option<f64>,
    /// Maximum GPUs.
    pub max_gpus: Option<f64>,
    /// Keep only these VCs.
    pub vcs: Option<Vec<String>>,
}

/// A bound of [`Window`]: a date (`2017-10-01` or `2017-10-01 12:00:00`, for traces with
/// dates) or seconds after the trace's first submission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Bound {
    /// Seconds after the first submission.
    Offset(f64),
    /// A wall-clock date.
    Date(String),
}

/// Bounds of [`Transform::Window`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Window {
    /// Earliest submission kept.
    pub from: Option<Bound>,
    /// Earliest submission no longer kept.
    pub to: Option<Bound>,
}

/// Parameters of [`Transform::Sample`]: exactly one of `count` and `fraction`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Sample {
    /// Keep this many jobs, chosen uniformly without replacement.
    pub count: Option<usize>,
    /// Keep each job with this probability.
    pub fraction: Option<f64>,
    /// Seed of the sampler (ChaCha8).
    pub seed: u64,
}

/// Parameters of [`Transform::Episode`].
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Episode {
    /// Jobs per episode.
    pub jobs: usize,
    /// Which episode: jobs `[index * jobs, (index + 1) * jobs)`, or with `random` the
    /// `index`-th drawn window.
    #[serde(default)]
    pub index: usize,
    /// Windows at random starts instead of consecutive blocks, as RLTune's evaluation draws them
    /// (`philly_eval_v2.py`, `run_policy`: a start uniform in `[0, n - jobs)` per window).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random: Option<RandomEpisodes>,
}

/// Parameters of randomly placed episodes ([`Episode::random`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomEpisodes {
    /// Seed of the starts (ChaCha8): episode `i` starts at the `i`-th draw.
    pub seed: u64,
    /// Jobs below this index (after the transforms before this one) were an agent's training
    /// data: the report marks a window that reaches below it as overlapping training.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trained_below: Option<usize>,
}

/// As derived, without `random` when it is not given (workload reports written before it
/// existed read the same).
impl std::fmt::Debug for Episode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut debug = f.debug_struct("Episode");
        debug.field("jobs", &self.jobs).field("index", &self.index);
        if let Some(random) = &self.random {
            debug.field("random", random);
        }
        debug.finish()
    }
}

impl Episode {
    /// The first job of this episode in a trace of `len` jobs, if it fits.
    pub fn start(&self, len: usize) -> Option<usize> {
        match &self.random {
            None => self
                .index
                .checked_mul(self.jobs)
                .filter(|start| start.checked_add(self.jobs).is_some_and(|end| end <= len)),
            Some(random) => {
                if self.jobs == 0 || len <= self.jobs {
                    return None;
                }
                let mut rng = ChaCha8Rng::seed_from_u64(random.seed);
                let mut start = 0;
                for _ in 0..=self.index {
                    start = rng.random_range(0..len - self.jobs);
                }
                Some(start)
            }
        }
    }
}

/// What [`Transform::Assign`] sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssignField {
    /// The job's VC (`TraceJob::vc`).
    Vc,
    /// The GPU type the job records (`TraceJob::gpu_type`).
    GpuType,
}

/// What one draw of [`Transform::Assign`] covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssignBy {
    /// One draw per user: all of a user's jobs get the same value (jobs without a user are an
    /// error).
    User,
    /// One draw per job.
    Job,
}

/// Parameters of [`Transform::Assign`]. Each draw is keyed by the user's name or the job's
/// source line and the seed, so it does not depend on the order or on which other jobs are
/// left: apply it before windows and episodes and every episode sees the same assignment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Assign {
    /// What is set.
    pub field: AssignField,
    /// Per user or per job.
    pub by: AssignBy,
    /// Values and their relative weights (positive).
    pub weights: std::collections::BTreeMap<String, f64>,
    /// Seed of the draws.
    #[serde(default)]
    pub seed: u64,
}

impl Assign {
    fn apply(&self, trace: &mut Trace) -> Result<(), TraceError> {
        if self.weights.is_empty() {
            return Err(TraceError::Config("assign: weights must name at least one value".into()));
        }
        if let Some((name, weight)) = self.weights.iter().find(|(_, weight)| !(weight.is_finite() && **weight > 0.0)) {
            return Err(TraceError::Config(format!(
                "assign: the weight of '{name}' must be a positive number, got {weight}"
            )));
        }
        let total: f64 = self.weights.values().sum();
        let values: Vec<(crate::Sym, f64)> =
            self.weights.iter().map(|(name, weight)| (trace.symbols.intern(name), *weight)).collect();
        for index in 0..trace.jobs.len() {
            let job = trace.jobs[index];
            let key = match self.by {
                AssignBy::User => match trace.symbols.get(job.user) {
                    Some(user) if !job.user.is_none() => fnv1a(user.as_bytes()),
                    _ => {
                        return Err(TraceError::row(
                            &trace.path,
                            u64::from(job.line),
                            "assign: by user, but the row names no user",
                        ));
                    }
                },
                AssignBy::Job => fnv1a(&job.line.to_le_bytes()),
            };
            let mut point = ChaCha8Rng::seed_from_u64(self.seed ^ key).random::<f64>() * total;
            let mut chosen = values[values.len() - 1].0;
            for &(value, weight) in &values {
                if point < weight {
                    chosen = value;
                    break;
                }
                point -= weight;
            }
            match self.field {
                AssignField::Vc => trace.jobs[index].vc = chosen,
                AssignField::GpuType => trace.jobs[index].gpu_type = chosen,
            }
        }
        Ok(())
    }
}

/// 64-bit FNV-1a: a stable hash of a draw's key (std's hasher may change between releases).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// What one transform did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransformReport {
    /// The transform, as written.
    pub transform: String,
    /// Jobs before.
    pub before: usize,
    /// Jobs after.
    pub after: usize,
}

fn earliest(trace: &Trace) -> f64 {
    trace.jobs.iter().map(|job| job.submit).fold(f64::INFINITY, f64::min)
}

fn resolve(bound: &Bound, trace: &Trace, origin: f64) -> Result<f64, TraceError> {
    match bound {
        Bound::Offset(seconds) => Ok(origin + seconds),
        Bound::Date(text) => {
            if trace.clock != Clock::WallClock {
                return Err(TraceError::Config(format!(
                    "window bound '{text}' is a date, but {} has no dates; give seconds after the first submission",
                    trace.format
                )));
            }
            parse_naive(text)
                .map(|seconds| seconds as f64)
                .ok_or_else(|| TraceError::Config(format!("window bound '{text}': expected YYYY-MM-DD[ HH:MM:SS]")))
        }
    }
}

type DedupKey = (u64, Option<u64>, u64, Option<u32>, Option<u32>, Option<u64>, u32, [u32; 5], Option<u32>, TraceStatus);

fn dedup_key(job: &TraceJob) -> DedupKey {
    (
        job.submit.to_bits(),
        job.duration.map(f64::to_bits),
        job.gpus.to_bits(),
        job.cpus.map(f32::to_bits),
        job.mem_gib.map(f32::to_bits),
        job.work.map(f64::to_bits),
        job.weight.to_bits(),
        [job.name.0, job.user.0, job.vc.0, job.gpu_type.0, job.job_type.0],
        job.batch_size,
        job.status,
    )
}

/// Returns how many jobs are identical to an earlier one (what [`Transform::Dedup`] removes).
pub fn count_duplicates(trace: &Trace) -> usize {
    let mut seen = HashSet::with_capacity(trace.jobs.len());
    trace.jobs.iter().filter(|job| !seen.insert(dedup_key(job))).count()
}

impl Transform {
    /// Applies the transform in place.
    pub fn apply(&self, trace: &mut Trace) -> Result<TransformReport, TraceError> {
        let before = trace.jobs.len();
        match self {
            Transform::Dedup => {
                let mut seen = HashSet::with_capacity(trace.jobs.len());
                trace.jobs.retain(|job| seen.insert(dedup_key(job)));
            }
            Transform::Sort => trace.jobs.sort_by(|a, b| a.submit.total_cmp(&b.submit)),
            Transform::Rebase => {
                let origin = earliest(trace);
                if origin.is_finite() {
                    for job in &mut trace.jobs {
                        job.submit -= origin;
                    }
                }
                trace.clock = Clock::Relative;
            }
            Transform::Filter(filter) => {
                let vcs: Option<Vec<crate::Sym>> =
                    filter.vcs.as_ref().map(|names| names.iter().map(|name| trace.symbols.intern(name)).collect());
                trace.jobs.retain(|job| {
                    filter.status.as_ref().is_none_or(|statuses| statuses.contains(&job.status))
                        && filter.min_duration.is_none_or(|min| job.duration.is_some_and(|duration| duration >= min))
                        && filter.max_duration.is_none_or(|max| job.duration.is_some_and(|duration| duration <= max))
                        && filter.min_gpus.is_none_or(|min| job.gpus >= min)
                        && filter.max_gpus.is_none_or(|max| job.gpus <= max)
                        && vcs.as_ref().is_none_or(|vcs| vcs.contains(&job.vc))
                });
            }
            Transform::Window(window) => {
                let origin = earliest(trace);
                let from = window.from.as_ref().map(|bound| resolve(bound, trace, origin)).transpose()?;
                let to = window.to.as_ref().map(|bound| resolve(bound, trace, origin)).transpose()?;
                trace
                    .jobs
                    .retain(|job| from.is_none_or(|from| job.submit >= from) && to.is_none_or(|to| job.submit < to));
            }
            Transform::First(count) => trace.jobs.truncate(*count),
            Transform::Episode(episode) => match episode.start(trace.jobs.len()).filter(|_| episode.jobs > 0) {
                Some(start) => {
                    trace.jobs.truncate(start + episode.jobs);
                    trace.jobs.drain(..start);
                    if let Some(random) = &episode.random {
                        // Where the drawn window lies, and whether it overlaps training data.
                        let overlap = match random.trained_below {
                            Some(below) if start < below => format!(", OVERLAPS TRAINING (jobs below {below})"),
                            Some(below) => format!(", held out (training: jobs below {below})"),
                            None => String::new(),
                        };
                        return Ok(TransformReport {
                            transform: format!(
                                "{self:?} (jobs {start}..{} of {before}{overlap})",
                                start + episode.jobs
                            ),
                            before,
                            after: trace.jobs.len(),
                        });
                    }
                }
                None if episode.random.is_some() => {
                    return Err(TraceError::Config(format!(
                        "episode: random windows of {} jobs need more than {} jobs, but {} are left",
                        episode.jobs,
                        episode.jobs,
                        trace.jobs.len()
                    )));
                }
                None => {
                    return Err(TraceError::Config(format!(
                        "episode: {} of {} jobs needs {} jobs, but {} are left",
                        episode.index,
                        episode.jobs,
                        (episode.index as u128 + 1) * episode.jobs as u128,
                        trace.jobs.len()
                    )));
                }
            },
            Transform::Sample(sample) => {
                let mut rng = ChaCha8Rng::seed_from_u64(sample.seed);
                match (sample.count, sample.fraction) {
                    (Some(count), None) => {
                        if count > trace.jobs.len() {
                            return Err(TraceError::Config(format!(
                                "sample: count {count} is larger than the {} jobs left",
                                trace.jobs.len()
                            )));
                        }
                        // Partial Fisher-Yates over indices, then keep the chosen in order.
                        let mut indices: Vec<usize> = (0..trace.jobs.len()).collect();
                        for slot in 0..count {
                            let pick = rng.random_range(slot..indices.len());
                            indices.swap(slot, pick);
                        }
                        let mut chosen = indices[..count].to_vec();
                        chosen.sort_unstable();
                        trace.jobs = chosen.into_iter().map(|index| trace.jobs[index]).collect();
                    }
                    (None, Some(fraction)) if (0.0..=1.0).contains(&fraction) => {
                        trace.jobs.retain(|_| rng.random::<f64>() < fraction);
                    }
                    _ => {
                        return Err(TraceError::Config(
                            "sample: give exactly one of count (a number of jobs) and fraction (between 0 and 1)"
                                .into(),
                        ));
                    }
                }
            }
            Transform::Assign(assign) => assign.apply(trace)?,
            Transform::ScaleRate(factor) => {
                if !(factor.is_finite() && *factor > 0.0) {
                    return Err(TraceError::Config(format!("scale_rate: expected a positive factor, got {factor}")));
                }
                let origin = earliest(trace);
                for job in &mut trace.jobs {
                    job.submit = origin + (job.submit - origin) / factor;
                }
            }
        }
        Ok(TransformReport { transform: format!("{self:?}"), before, after: trace.jobs.len() })
    }
}

/// Applies transforms in order and reports each.
pub fn apply_all(trace: &mut Trace, transforms: &[Transform]) -> Result<Vec<TransformReport>, TraceError> {
    transforms.iter().map(|transform| transform.apply(trace)).collect()
}

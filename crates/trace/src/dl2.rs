//! DL2's synthetic workload (`trace.py`, `Trace.get_trace`, with `JOB_ARRIVAL_PATTERN =
//! "Google_Trace"` and `JOB_LEN_PATTERN = "Normal"`): jobs arrive at slot boundaries, as many
//! per slot as a Google-cluster arrival pattern says (capped), each of one of DL2's eight
//! models drawn uniformly, with that model's fixed number of epochs.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_core::{JobId, JobSpec, Time};
use serde::{Deserialize, Serialize};

/// Arrivals per slot from the Google cluster trace, one pattern per cap (`trace.py`,
/// `arrv_pattern_<cap>`), keyed by the cap (`MAX_ARRVS_PER_TS`).
pub const GOOGLE_PATTERNS: [(u32, [u32; 75]); 11] = [
    (
        1,
        [
            1, 22, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1, 1,
            1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 1, 0,
            1, 0, 1, 1,
        ],
    ),
    (
        2,
        [
            2, 40, 2, 2, 2, 3, 2, 2, 1, 1, 1, 1, 2, 2, 2, 1, 2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1,
            1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 1, 1, 2, 1, 1, 1, 2, 1,
            1, 1, 2, 1,
        ],
    ),
    (
        3,
        [
            2, 57, 3, 3, 3, 4, 3, 3, 2, 2, 2, 2, 3, 3, 3, 2, 3, 3, 3, 3, 3, 2, 2, 3, 4, 3, 2, 2, 2, 1, 2, 2, 2, 2, 2,
            2, 3, 3, 1, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 1, 2, 1, 2, 3, 3, 3, 3, 3, 2, 2, 2, 2, 3, 2, 1, 2, 1, 2, 2, 2, 2,
            2, 2, 3, 2,
        ],
    ),
    (
        4,
        [
            3, 74, 4, 4, 4, 6, 5, 4, 3, 3, 3, 3, 4, 4, 5, 3, 4, 4, 4, 4, 4, 2, 2, 4, 5, 4, 2, 3, 2, 2, 2, 3, 2, 3, 3,
            3, 4, 4, 2, 3, 3, 2, 3, 3, 2, 3, 3, 3, 3, 2, 2, 2, 3, 4, 3, 4, 4, 4, 3, 3, 3, 3, 4, 3, 2, 3, 2, 2, 2, 3, 3,
            3, 2, 4, 3,
        ],
    ),
    (
        5,
        [
            4, 10, 5, 4, 5, 6, 5, 4, 3, 3, 4, 3, 4, 5, 5, 4, 5, 5, 5, 5, 4, 3, 3, 4, 6, 4, 3, 3, 3, 2, 3, 3, 3, 4, 3,
            3, 4, 4, 2, 3, 3, 2, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4, 4, 3, 2, 4, 2, 3, 3, 4, 3,
            3, 3, 4, 3,
        ],
    ),
    (
        10,
        [
            6, 134, 8, 7, 8, 10, 9, 7, 6, 5, 6, 5, 7, 8, 9, 6, 8, 8, 8, 8, 7, 5, 5, 7, 9, 7, 5, 5, 5, 3, 5, 6, 4, 6, 6,
            6, 7, 7, 4, 5, 5, 3, 5, 5, 4, 6, 5, 6, 5, 3, 4, 4, 6, 7, 7, 7, 7, 7, 6, 6, 6, 6, 7, 6, 4, 6, 4, 5, 4, 6, 5,
            6, 5, 7, 6,
        ],
    ),
    (
        15,
        [
            11, 224, 13, 12, 14, 18, 15, 12, 10, 9, 11, 9, 12, 14, 15, 10, 14, 14, 13, 14, 12, 8, 8, 12, 16, 12, 8, 9,
            8, 6, 8, 10, 8, 11, 10, 10, 12, 12, 7, 9, 9, 6, 9, 9, 8, 10, 9, 10, 9, 6, 7, 7, 11, 12, 11, 13, 12, 12, 11,
            11, 10, 11, 12, 10, 7, 11, 7, 8, 8, 11, 9, 10, 8, 12, 10,
        ],
    ),
    (
        20,
        [
            14, 288, 17, 16, 18, 23, 19, 16, 13, 11, 14, 11, 15, 18, 19, 13, 18, 18, 17, 18, 16, 11, 10, 15, 21, 15,
            10, 11, 10, 8, 11, 12, 10, 14, 12, 13, 16, 16, 9, 12, 12, 7, 11, 12, 10, 13, 12, 13, 12, 8, 10, 9, 14, 15,
            15, 16, 15, 16, 14, 14, 13, 14, 15, 13, 9, 14, 9, 11, 10, 14, 12, 13, 11, 15, 13,
        ],
    ),
    (
        30,
        [
            20, 403, 24, 23, 26, 32, 27, 22, 18, 16, 19, 16, 22, 26, 27, 19, 25, 26, 24, 25, 22, 15, 15, 21, 29, 21,
            15, 16, 15, 11, 15, 18, 14, 20, 18, 19, 22, 23, 13, 17, 17, 11, 16, 16, 14, 18, 17, 18, 17, 11, 14, 13, 20,
            21, 21, 23, 22, 23, 20, 20, 18, 20, 21, 19, 12, 20, 12, 16, 14, 20, 17, 18, 15, 21, 19,
        ],
    ),
    (
        40,
        [
            25, 504, 30, 29, 32, 40, 34, 28, 23, 20, 24, 20, 27, 32, 34, 24, 32, 33, 31, 32, 28, 19, 18, 27, 37, 27,
            18, 20, 19, 14, 19, 22, 18, 25, 22, 23, 28, 28, 17, 22, 21, 13, 20, 21, 18, 23, 22, 23, 21, 14, 17, 17, 25,
            27, 26, 29, 27, 28, 25, 25, 22, 26, 27, 23, 16, 26, 15, 20, 18, 25, 22, 23, 19, 27, 23,
        ],
    ),
    (
        50,
        [
            33, 672, 40, 38, 43, 54, 45, 38, 31, 27, 33, 27, 36, 43, 46, 32, 43, 44, 41, 42, 37, 26, 25, 36, 49, 36,
            25, 27, 25, 19, 25, 30, 24, 34, 30, 31, 37, 38, 23, 29, 28, 18, 27, 28, 24, 30, 29, 30, 28, 18, 23, 22, 34,
            36, 35, 39, 37, 38, 34, 34, 30, 34, 36, 31, 21, 34, 21, 26, 24, 34, 29, 30, 26, 36, 31,
        ],
    ),
];

/// DL2's eight models with their epochs to completion as a fraction of `max_epochs`
/// (`trace.py`: `models`, `num_epochs`), and whether the authors' workers use no GPU.
pub const DL2_MODELS: [(&str, f64, bool); 8] = [
    ("resnet-50", 0.3, false),
    ("vgg-16", 0.96, false),
    ("resnext-110", 0.05, false),
    ("inception-bn", 0.54, false),
    ("seq2seq", 0.95, false),
    ("cnn-text-classification", 0.46, true),
    ("dssm", 0.33, true),
    ("wlm", 0.23, false),
];

/// What to do with the two models whose workers DL2 gives CPUs only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CpuOnlyModels {
    /// Keep them, each worker on one GPU (and its two CPUs) like the other models' workers.
    #[default]
    OneGpu,
    /// Draw among the other six models only.
    LeaveOut,
}

/// DL2's generator.
#[derive(Clone, Debug, PartialEq)]
pub struct Dl2Workload {
    /// Number of jobs (`TOT_NUM_JOBS`, 200 at large scale).
    pub jobs: usize,
    /// The per-slot cap, which also picks the Google pattern (`MAX_ARRVS_PER_TS`, 10 at large scale).
    pub max_arrivals_per_slot: u32,
    /// Slot length in seconds (`TS_DURATION`, 1,200).
    pub slot: f64,
    /// `MAX_NUM_EPOCHS` (30,000).
    pub max_epochs: f64,
    /// CPUs of a worker, and of a parameter server (`resr_workers`, `resr_ps`: 2 each).
    pub task_cpus: f64,
    /// The two CPU-only models.
    pub cpu_only: CpuOnlyModels,
    /// Seed of the pattern's offset and the model draws.
    pub seed: u64,
}

impl Dl2Workload {
    /// Generates the jobs: ids in arrival order, one GPU requested (the first worker), the
    /// model's epochs as work and as declared work (DL2's `JOB_EPOCH_EST_ERROR = 0`).
    pub fn generate(&self) -> Result<Vec<JobSpec>, String> {
        let pattern = GOOGLE_PATTERNS
            .iter()
            .find(|(cap, _)| *cap == self.max_arrivals_per_slot)
            .map(|(_, pattern)| pattern)
            .ok_or_else(|| {
                format!(
                    "max_arrivals_per_slot must be one of DL2's Google patterns ({}), got {}",
                    GOOGLE_PATTERNS.iter().map(|(cap, _)| cap.to_string()).collect::<Vec<_>>().join(", "),
                    self.max_arrivals_per_slot
                )
            })?;
        if !(self.slot.is_finite() && self.slot > 0.0) {
            return Err(format!("slot must be a positive number of seconds, got {}", self.slot));
        }
        if !(self.max_epochs.is_finite() && self.max_epochs >= 1.0) {
            return Err(format!("max_epochs must be a number of at least 1, got {}", self.max_epochs));
        }
        if !(self.task_cpus.is_finite() && self.task_cpus > 0.0) {
            return Err(format!("task_cpus must be a positive number, got {}", self.task_cpus));
        }
        let models: Vec<&(&str, f64, bool)> =
            DL2_MODELS.iter().filter(|model| !(model.2 && self.cpu_only == CpuOnlyModels::LeaveOut)).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let offset = rng.random_range(0..5usize);
        let mut jobs = Vec::with_capacity(self.jobs);
        'slots: for slot in 0..pattern.len() {
            let arrivals = self.max_arrivals_per_slot.min(pattern[(slot + offset) % pattern.len()]);
            for _ in 0..arrivals {
                if jobs.len() == self.jobs {
                    break 'slots;
                }
                let (name, fraction, _) = *models[rng.random_range(0..models.len())];
                // `int(self.num_epochs[type])`: truncated.
                let epochs = (fraction * self.max_epochs).trunc().max(1.0);
                let mut job =
                    JobSpec::new(JobId(jobs.len() as u32), Time::from_secs(slot as f64 * self.slot), 1, name, epochs);
                job.declared_work = Some(epochs);
                job.cpus = Some(self.task_cpus);
                job.ps_cpus = Some(self.task_cpus);
                jobs.push(job);
            }
        }
        if jobs.len() < self.jobs {
            let total: u32 = pattern.iter().map(|&count| count.min(self.max_arrivals_per_slot)).sum();
            return Err(format!(
                "DL2's pattern for {} arrivals per slot yields {total} jobs or fewer over its {} slots; {} asked",
                self.max_arrivals_per_slot,
                pattern.len(),
                self.jobs
            ));
        }
        Ok(jobs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generator() -> Dl2Workload {
        Dl2Workload {
            jobs: 200,
            max_arrivals_per_slot: 10,
            slot: 1200.0,
            max_epochs: 30000.0,
            task_cpus: 2.0,
            cpu_only: CpuOnlyModels::OneGpu,
            seed: 3,
        }
    }

    #[test]
    fn follows_the_capped_pattern_at_slot_boundaries() {
        let jobs = generator().generate().unwrap();
        assert_eq!(jobs.len(), 200);
        let mut per_slot = std::collections::BTreeMap::<u64, u32>::new();
        for job in &jobs {
            let slot = job.arrival.secs() / 1200.0;
            assert_eq!(slot.fract(), 0.0);
            *per_slot.entry(slot as u64).or_default() += 1;
            assert_eq!(job.declared_work, Some(job.work));
            assert_eq!((job.gpus, job.cpus, job.ps_cpus), (1, Some(2.0), Some(2.0)));
        }
        let pattern = GOOGLE_PATTERNS[5].1;
        assert_eq!(GOOGLE_PATTERNS[5].0, 10);
        let offset = (0..5).find(|offset| per_slot[&0] == pattern[*offset].min(10)).unwrap();
        for (&slot, &count) in per_slot.iter().take(per_slot.len() - 1) {
            assert_eq!(count, pattern[(slot as usize + offset) % 75].min(10), "slot {slot}");
        }
        let resnet = jobs.iter().find(|job| job.job_type == "resnet-50").unwrap();
        assert_eq!(resnet.work, 9000.0);
        assert_eq!(generator().generate().unwrap(), jobs, "seeded");
    }

    #[test]
    fn leaves_out_cpu_only_models_and_refuses_unknown_patterns() {
        let jobs = Dl2Workload { cpu_only: CpuOnlyModels::LeaveOut, ..generator() }.generate().unwrap();
        assert!(jobs.iter().all(|job| job.job_type != "dssm" && job.job_type != "cnn-text-classification"));
        let error = Dl2Workload { max_arrivals_per_slot: 7, ..generator() }.generate().unwrap_err();
        assert!(error.starts_with("max_arrivals_per_slot must be one of DL2's Google patterns (1, 2, 3"), "{error}");
        let error = Dl2Workload { max_arrivals_per_slot: 1, jobs: 100, ..generator() }.generate().unwrap_err();
        assert!(error.contains("100 asked"), "{error}");
    }
}

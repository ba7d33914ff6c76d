//! Gavel's own job stream, draw for draw (`rng: python` on the Gavel generators).
//!
//! Gavel's simulator (`scheduler/scheduler.py`, `_initialize_seeds` and `simulate`) draws each
//! job with `utils.generate_job` from a `random.Random` seeded with `seed + 2`, and the gap to
//! the next arrival from another seeded with `seed + 3`:
//!
//! - scale factor (`_generate_scale_factor`): `r = uniform(0, 1)`; 2 if `0.7 <= r <= 0.8`, else 4
//!   if `0.8 <= r <= 0.95`, else 8 if `r >= 0.95`, else 1; drawn even for single-GPU workloads,
//!   which then set it to 1;
//! - duration (`_generate_duration`): `60 * 10^uniform(3, 4)` if `random() >= 0.8`, else
//!   `60 * 10^uniform(1.5, 3)` seconds;
//! - job type: `choice(JobTable)` repeated until the scale factor is 1 or the template is
//!   distributed (`job_table.py`'s order, 26 templates);
//! - steps: duration x the reference type's isolated throughput, unrounded;
//! - with multi-priority jobs, weight 5 if `uniform(0, 1) <= 0.2`;
//! - arrivals: the first at 0, then `next = -log(1 - random()) / (1 / lam) + last` with
//!   `lam = 3600 / jobs per hour`; static workloads (`lam = 0`) draw no gaps.
//!
//! [`PyRandom`] reproduces CPython's generator, so the same seed gives Gavel's jobs.

use crate::synthetic::{GeneratorError, JobTemplate};
use schedlab_core::{JobId, JobSpec, Time};
use schedlab_pyrandom::PyRandom;

/// One row of Gavel's `job_table.py`: what its `.trace` files record besides steps and sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GavelJobTemplate {
    /// The model name, the throughput table's key (`ResNet-18 (batch size 16)`).
    pub model: String,
    /// The command, with `%s` where Gavel puts the data directory.
    pub command: String,
    /// The working directory.
    pub working_directory: &'static str,
    /// The flag that passes the number of steps.
    pub num_steps_arg: &'static str,
    /// Whether the command takes a data directory.
    pub needs_data_dir: bool,
    /// Whether the job may run on more than one GPU.
    pub distributed: bool,
}

/// Gavel's `JobTable`, in its order (`scheduler/job_table.py`).
pub fn gavel_job_table() -> Vec<GavelJobTemplate> {
    let template = |model: String, command: String, working_directory, num_steps_arg, needs_data_dir, distributed| {
        GavelJobTemplate { model, command, working_directory, num_steps_arg, needs_data_dir, distributed }
    };
    let mut table = Vec::with_capacity(26);
    for batch in [16, 32, 64, 128, 256] {
        table.push(template(
            format!("ResNet-18 (batch size {batch})"),
            format!("python3 main.py --data_dir=%s/cifar10 --batch_size {batch}"),
            "image_classification/cifar10",
            "--num_steps",
            true,
            true,
        ));
    }
    for batch in [16, 32, 64, 128] {
        table.push(template(
            format!("ResNet-50 (batch size {batch})"),
            format!("python3 main.py -j 8 -a resnet50 -b {batch} %s/imagenet/"),
            "image_classification/imagenet",
            "--num_minibatches",
            true,
            true,
        ));
    }
    for batch in [16, 32, 64, 128, 256] {
        table.push(template(
            format!("Transformer (batch size {batch})"),
            format!(
                "python3 train.py -data %s/translation/multi30k.atok.low.pt -batch_size {batch} -proj_share_weight"
            ),
            "translation",
            "-step",
            true,
            true,
        ));
    }
    for batch in [5, 10, 20, 40, 80] {
        table.push(template(
            format!("LM (batch size {batch})"),
            format!("python main.py --cuda --data %s/wikitext2 --batch_size {batch}"),
            "language_modeling",
            "--steps",
            true,
            true,
        ));
    }
    for batch in [512, 1024, 2048, 4096, 8192] {
        table.push(template(
            format!("Recommendation (batch size {batch})"),
            format!("python3 train.py --data_dir %s/ml-20m/pro_sg/ --batch_size {batch}"),
            "recommendation",
            "-n",
            true,
            false,
        ));
    }
    table.push(template(
        "A3C".into(),
        "python3 main.py --env PongDeterministic-v4 --workers 4 --amsgrad True".into(),
        "rl",
        "--max-steps",
        false,
        false,
    ));
    table.push(template(
        "CycleGAN".into(),
        "python3 cyclegan.py --dataset_path %s/monet2photo --decay_epoch 0".into(),
        "cyclegan",
        "--n_steps",
        true,
        false,
    ));
    table
}

/// Gavel's generator with CPython's random streams.
#[derive(Clone, Debug, PartialEq)]
pub struct GavelStream {
    /// Number of jobs.
    pub jobs: usize,
    /// Mean arrivals per hour; `None` puts every job at t = 0 (Gavel's `lam = 0`).
    pub rate_per_hour: Option<f64>,
    /// `--generate-multi-gpu-jobs`.
    pub multi_gpu: bool,
    /// `--generate-multi-priority-jobs`.
    pub multi_priority: bool,
    /// Gavel's `--seed`.
    pub seed: u64,
    /// The throughput table's templates (reference rates); empty for rigid jobs, whose work is
    /// the duration in seconds (the job type is still drawn, so the stream stays Gavel's).
    pub templates: Vec<JobTemplate>,
}

impl GavelStream {
    /// Returns the jobs in Gavel's order (ids `0..jobs`, arrivals non-decreasing).
    pub fn generate(&self) -> Result<Vec<JobSpec>, GeneratorError> {
        let lam = match self.rate_per_hour {
            Some(rate) if rate.is_finite() && rate > 0.0 => Some(3600.0 / rate),
            Some(rate) => return Err(GeneratorError::Rate(rate)),
            None => None,
        };
        let table = gavel_job_table();
        let rates = self.reference_rates(&table)?;
        let seeds = self.seed.checked_add(2).zip(self.seed.checked_add(3));
        let (job_seed, arrival_seed) = seeds.ok_or(GeneratorError::PythonSeed(self.seed))?;
        let mut job_rng = PyRandom::new(job_seed);
        let mut arrival_rng = PyRandom::new(arrival_seed);
        let mut arrival = 0.0;
        let mut jobs = Vec::with_capacity(self.jobs);
        for index in 0..self.jobs {
            let r = job_rng.uniform(0.0, 1.0);
            let mut scale_factor: u32 = if (0.7..=0.8).contains(&r) {
                2
            } else if (0.8..=0.95).contains(&r) {
                4
            } else if r >= 0.95 {
                8
            } else {
                1
            };
            let duration = if job_rng.random() >= 0.8 {
                60.0 * 10f64.powf(job_rng.uniform(3.0, 4.0))
            } else {
                60.0 * 10f64.powf(job_rng.uniform(1.5, 3.0))
            };
            if !self.multi_gpu {
                scale_factor = 1;
            }
            let template = loop {
                let candidate = job_rng.choice_index(table.len());
                if scale_factor == 1 || table[candidate].distributed {
                    break candidate;
                }
            };
            let weight = if self.multi_priority && job_rng.uniform(0.0, 1.0) <= 0.2 { 5.0 } else { 1.0 };
            let id = JobId(index as u32);
            let job = match &rates {
                Some(rates) => {
                    let rate =
                        rates[template][scale_index(scale_factor)].ok_or(GeneratorError::NoTemplate(scale_factor))?;
                    JobSpec::new(
                        id,
                        Time::from_secs(arrival),
                        scale_factor,
                        table[template].model.clone(),
                        duration * rate,
                    )
                }
                None => JobSpec::new(id, Time::from_secs(arrival), scale_factor, "rigid", duration),
            };
            jobs.push(JobSpec { weight, trace_duration: Some(duration), ..job });
            if let Some(lam) = lam {
                let rate_parameter = 1.0 / lam;
                arrival += -(1.0 - arrival_rng.random()).ln() / rate_parameter;
            }
        }
        Ok(jobs)
    }

    /// Each Gavel template's reference rate at scale factors 1, 2, 4 and 8, or `None` for rigid
    /// jobs; an error names a Gavel model the templates lack.
    fn reference_rates(&self, table: &[GavelJobTemplate]) -> Result<Option<Vec<[Option<f64>; 4]>>, GeneratorError> {
        if self.templates.is_empty() {
            return Ok(None);
        }
        let mut rates = Vec::with_capacity(table.len());
        for row in table {
            let template = self
                .templates
                .iter()
                .find(|template| template.job_type == row.model)
                .ok_or_else(|| GeneratorError::MissingGavelModel(row.model.clone()))?;
            let mut by_scale = [None; 4];
            for &(scale, rate) in &template.scales {
                if matches!(scale, 1 | 2 | 4 | 8) {
                    by_scale[scale_index(scale)] = Some(rate);
                }
            }
            rates.push(by_scale);
        }
        Ok(Some(rates))
    }
}

fn scale_index(scale_factor: u32) -> usize {
    scale_factor.trailing_zeros() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_gavels_26_templates_in_order() {
        let table = gavel_job_table();
        assert_eq!(table.len(), 26);
        assert_eq!(table[0].model, "ResNet-18 (batch size 16)");
        assert_eq!(table[23].model, "Recommendation (batch size 8192)");
        assert_eq!(table[25].model, "CycleGAN");
        assert_eq!(table.iter().filter(|row| row.distributed).count(), 19);
        assert!(table.iter().all(|row| row.needs_data_dir == row.command.contains("%s")));
        assert!(!table.iter().find(|row| row.model == "A3C").unwrap().needs_data_dir);
    }

    #[test]
    fn static_workloads_start_together_and_draw_no_gaps() {
        let stream = GavelStream {
            jobs: 50,
            rate_per_hour: None,
            multi_gpu: true,
            multi_priority: true,
            seed: 0,
            templates: Vec::new(),
        };
        let jobs = stream.generate().unwrap();
        assert!(jobs.iter().all(|job| job.arrival == Time::ZERO));
        assert!(jobs.iter().any(|job| job.gpus > 1) && jobs.iter().any(|job| job.weight == 5.0));
        let continuous = GavelStream { rate_per_hour: Some(5.2), ..stream.clone() }.generate().unwrap();
        // The job stream does not depend on the arrival stream.
        assert!(jobs.iter().zip(&continuous).all(|(a, b)| a.work == b.work && a.gpus == b.gpus));
        assert!(continuous.windows(2).all(|pair| pair[0].arrival < pair[1].arrival));
        let error = GavelStream { seed: u64::MAX - 1, ..stream }.generate().unwrap_err();
        assert_eq!(error, GeneratorError::PythonSeed(u64::MAX - 1));
    }
}

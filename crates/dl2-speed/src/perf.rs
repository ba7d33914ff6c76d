//! [`Dl2Speed`]: DL2's simulator's speed model as the engine's ground truth.

use crate::models::model_info;
use crate::rbf::LinearRbf;
use crate::table::{SpeedTable, TableError};
use schedlab_cluster::perf::{PerfError, PerfModel, Placement, RateSegment};
use schedlab_core::JobSpec;
use std::collections::BTreeMap;
use std::path::Path;

/// One model's fitted speed function and what was measured.
#[derive(Clone, Debug)]
struct Fit {
    rbf: LinearRbf,
    measured: BTreeMap<(u32, u32), f64>,
    epoch_size: f64,
    max_ps: u32,
    max_workers: u32,
}

/// A job of model `m` (its `job_type`) with `p` parameter servers and `w` workers (one per
/// GPU) makes `speed_m(p, w) / epoch_size_m` epochs per second, `speed_m` the linear RBF
/// through the model's measurements; no server or no worker: no progress (`job.py`, `step`).
///
/// This model is the one documented exception to "a perf model never invents a rate": DL2
/// lets a job grow to 16 workers and 16 servers, beyond the 11 or 12 workers measured for six
/// of its models, and its simulator evaluates the interpolant there. [`Dl2Speed::exceptions`]
/// names the ranges, and experiments copy them into `manifest.json`. Where the interpolant is
/// negative (it is nowhere in the shipped table within DL2's caps; see the tests) the rate
/// is an error rather than a clamp.
#[derive(Clone, Debug)]
pub struct Dl2Speed {
    source: String,
    fits: BTreeMap<String, Fit>,
}

impl Dl2Speed {
    /// Reads `config_speed.txt` and fits every model.
    pub fn load(path: &Path) -> Result<Dl2Speed, TableError> {
        Dl2Speed::load_named(path, &path.display().to_string())
    }

    /// Reads `config_speed.txt` at `path` and names it `shown` in [`Dl2Speed::exceptions`] (a
    /// path relative to the data directory, so that manifests do not name a machine's folders).
    pub fn load_named(path: &Path, shown: &str) -> Result<Dl2Speed, TableError> {
        let table = SpeedTable::load(path)?;
        Dl2Speed::from_table(&table, shown).map_err(|message| TableError::Line { path: path.into(), line: 0, message })
    }

    /// Fits every model of `table`; `source` names it in errors.
    pub fn from_table(table: &SpeedTable, source: &str) -> Result<Dl2Speed, String> {
        let mut fits = BTreeMap::new();
        for (model, rows) in table.models() {
            let info = model_info(model).ok_or_else(|| {
                format!(
                    "model '{model}' is not one of DL2's eight (trace.py), so its epoch size is unknown: {}",
                    crate::MODELS.iter().map(|model| model.name).collect::<Vec<_>>().join(", ")
                )
            })?;
            let points: Vec<(f64, f64)> = rows.iter().map(|row| (row.ps as f64, row.workers as f64)).collect();
            let speeds: Vec<f64> = rows.iter().map(|row| row.speed).collect();
            let rbf = LinearRbf::fit(&points, &speeds).map_err(|error| format!("{model}: {error}"))?;
            fits.insert(
                model.clone(),
                Fit {
                    rbf,
                    measured: rows.iter().map(|row| ((row.ps, row.workers), row.speed)).collect(),
                    epoch_size: info.epoch_size,
                    max_ps: rows.iter().map(|row| row.ps).max().unwrap_or(0),
                    max_workers: rows.iter().map(|row| row.workers).max().unwrap_or(0),
                },
            );
        }
        Ok(Dl2Speed { source: source.to_string(), fits })
    }

    /// Returns the models it knows.
    pub fn models(&self) -> impl Iterator<Item = &str> {
        self.fits.keys().map(String::as_str)
    }

    /// Returns the interpolated speed (mini-batches per second, all workers together) of
    /// `model` with `ps` servers and `workers` workers (the measurement itself where there is
    /// one), or `None` for an unknown model.
    pub fn speed(&self, model: &str, ps: u32, workers: u32) -> Option<f64> {
        let fit = self.fits.get(model)?;
        if ps == 0 || workers == 0 {
            return Some(0.0);
        }
        // At a measured point the interpolant equals the measurement up to round-off (a
        // measured 0 of vgg-16 comes out as -4e-14); the measurement is the exact value.
        if let Some(&speed) = fit.measured.get(&(ps, workers)) {
            return Some(speed);
        }
        Some(fit.rbf.eval(ps as f64, workers as f64))
    }

    /// Returns epochs per second, DL2's `speed / epoch_size`: `Err(None)` for an unknown
    /// model, `Err(Some(speed))` where the interpolated speed is negative.
    fn epochs_per_second(&self, model: &str, ps: u32, workers: u32) -> Result<f64, Option<f64>> {
        let fit = self.fits.get(model).ok_or(None)?;
        let speed = self.speed(model, ps, workers).ok_or(None)?;
        if speed < 0.0 {
            return Err(Some(speed));
        }
        Ok(speed / fit.epoch_size)
    }

    /// The engine's error for a failure of [`Dl2Speed::epochs_per_second`].
    fn failure(&self, job: &JobSpec, ps: u32, workers: u32, negative: Option<f64>) -> PerfError {
        PerfError::Missing {
            model: self.describe(),
            job_type: job.job_type.clone(),
            gpu_type: "any".into(),
            gpus: workers,
            hint: match negative {
                None => format!("; it has {}", self.fits.keys().cloned().collect::<Vec<_>>().join(", ")),
                Some(speed) => format!(" and {ps} servers: the interpolated speed is negative ({speed})"),
            },
        }
    }

    /// The configurations where rates are extrapolated rather than measured, one line per model.
    pub fn exceptions(&self) -> Vec<String> {
        self.fits
            .iter()
            .map(|(model, fit)| {
                format!(
                    "{}: {model}: speeds measured up to {} servers and {} workers; beyond, the linear RBF extrapolates (DL2 allows 16 of each)",
                    self.source, fit.max_ps, fit.max_workers
                )
            })
            .collect()
    }
}

impl PerfModel for Dl2Speed {
    fn describe(&self) -> String {
        format!("DL2 speeds '{}'", self.source)
    }

    /// The rate with one parameter server (used when a job is admitted).
    fn rate(&self, job: &JobSpec, _gpu_type: &str, gpus: u32) -> Result<f64, PerfError> {
        self.epochs_per_second(&job.job_type, 1, gpus).map_err(|negative| self.failure(job, 1, gpus, negative))
    }

    fn segment(&self, job: &JobSpec, placement: &Placement<'_>, _progress: f64) -> Result<RateSegment, PerfError> {
        let workers: u32 = placement.parts.iter().map(|part| part.1).sum();
        let rate = self
            .epochs_per_second(&job.job_type, placement.ps, workers)
            .map_err(|negative| self.failure(job, placement.ps, workers, negative))?;
        Ok(RateSegment { rate, until: None })
    }

    fn exceptions(&self) -> Vec<String> {
        Dl2Speed::exceptions(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_path() -> std::path::PathBuf {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        schedlab_core::datadir::test_data_file(&root, "dl2/config_speed.txt")
    }

    fn shipped() -> Dl2Speed {
        Dl2Speed::load(&table_path()).expect("the shipped table loads")
    }

    #[test]
    #[cfg_attr(
        schedlab_no_data,
        ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
    )]
    fn equals_the_table_at_every_measured_point() {
        let model = shipped();
        let table = SpeedTable::load(&table_path()).unwrap();
        let mut points = 0;
        for (name, rows) in table.models() {
            for row in rows {
                let fit = &model.fits[name];
                let speed = fit.rbf.eval(row.ps as f64, row.workers as f64);
                assert!(
                    (speed - row.speed).abs() <= 1e-9 * row.speed.max(1.0)
                        && model.speed(name, row.ps, row.workers) == Some(row.speed),
                    "{name} ({}, {}): {speed} vs measured {}",
                    row.ps,
                    row.workers,
                    row.speed
                );
                points += 1;
            }
        }
        assert_eq!(points, 804);
    }

    #[test]
    #[cfg_attr(
        schedlab_no_data,
        ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
    )]
    fn is_never_negative_within_dl2s_caps() {
        let model = shipped();
        let mut smallest = (f64::INFINITY, String::new());
        for name in model.models() {
            for ps in 1..=16 {
                for workers in 1..=16 {
                    let speed = model.speed(name, ps, workers).unwrap();
                    if speed < smallest.0 {
                        smallest = (speed, format!("{name} ({ps}, {workers})"));
                    }
                }
            }
        }
        eprintln!("smallest speed within the caps: {smallest:?}");
        assert!(smallest.0 >= 0.0, "{smallest:?}");
    }
}

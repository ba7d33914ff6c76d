//! One application's measurements, read from the Pollux artifact's profiles
//! (`pollux/profiles/<app>/`: `placements.csv`, `scalability.csv`, `validation-<batch>.csv`), and
//! the artifact's queries on them (`simulator/applications.py`).

use crate::interp::{Delaunay3, InterpError, linear_1d};
use schedlab_core::DataDir;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Occurs when a profile file is missing or malformed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProfileError {
    /// Occurs when a file cannot be found or read.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// Occurs when a row has a bad value; `line` is 1-based.
    #[error("{path}:{line}: {message}")]
    Row {
        /// The file.
        path: String,
        /// The line.
        line: u64,
        /// What was expected.
        message: String,
    },
    /// Occurs when the files are readable but inconsistent.
    #[error("application '{app}': {message}")]
    Invalid {
        /// The application.
        app: String,
        /// What is wrong.
        message: String,
    },
}

/// The artifact's settings of an application (`simulator/applications.py`, `APPLICATIONS`):
/// its name (a folder of the profiles), the epochs it trains, and a local batch cap where the
/// artifact sets one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppSettings {
    /// Folder and job-type name.
    pub name: &'static str,
    /// Epochs to completion (`max_epochs`; no target metric is set, so a job completes after
    /// its last epoch).
    pub max_epochs: usize,
    /// Largest local batch per GPU, if the artifact overrides the profile's (`max_local_bsz`).
    pub max_local_bsz: Option<u32>,
}

/// The six applications of the artifact with its settings (applications.py, lines 224-231).
pub const APPLICATIONS: [AppSettings; 6] = [
    AppSettings { name: "bert", max_epochs: 2, max_local_bsz: None },
    AppSettings { name: "cifar10", max_epochs: 100, max_local_bsz: None },
    AppSettings { name: "ncf", max_epochs: 10, max_local_bsz: None },
    AppSettings { name: "imagenet", max_epochs: 90, max_local_bsz: None },
    AppSettings { name: "deepspeech2", max_epochs: 80, max_local_bsz: None },
    AppSettings { name: "yolov3", max_epochs: 50, max_local_bsz: Some(8) },
];

/// A validation curve: per epoch, the progress (scale-invariant iterations) and iterations
/// reached at its end, and the gradient statistics during it.
#[derive(Clone, Debug, PartialEq)]
struct Curve {
    progress: Vec<f64>,
    iteration: Vec<f64>,
    grad_sqr: Vec<f64>,
    grad_var: Vec<f64>,
}

/// One application: its measurements and the artifact's queries on them.
#[derive(Clone, Debug)]
pub struct Application {
    /// The application's name.
    pub name: String,
    /// The batch size a job starts with (the smallest validated one).
    pub init_batch_size: u32,
    /// The largest total batch size (the largest validated one).
    pub max_batch_size: u32,
    /// The smallest local batch per GPU measured.
    pub min_local_bsz: u32,
    /// The largest local batch per GPU (measured, or the artifact's cap).
    pub max_local_bsz: u32,
    /// Epochs to completion.
    pub max_epochs: usize,
    /// Validation curves by batch size, ascending.
    curves: Vec<(u32, Curve)>,
    /// Measured `(local batch, [step time, sync time])` per placement id, sorted by batch.
    placements: BTreeMap<u64, (Vec<f64>, Vec<[f64; 2]>)>,
    /// Step and sync times over (nodes, replicas, local batch) for unmeasured placements.
    scattered: Delaunay3,
    /// `progress_at[e]`: the progress at which epoch `e` starts (the artifact's
    /// `get_progress(e)`), for `e` in `0..=max_epochs`.
    progress_at: Vec<f64>,
    /// The files read: name relative to the data directory, and path.
    files: Vec<(String, PathBuf)>,
}

fn read_rows(path: &Path, columns: &[&str]) -> Result<Vec<(u64, Vec<f64>)>, ProfileError> {
    let text = path.display().to_string();
    let mut reader = csv::ReaderBuilder::new()
        .from_path(path)
        .map_err(|error| ProfileError::Io { path: text.clone(), message: error.to_string() })?;
    let headers =
        reader.headers().map_err(|error| ProfileError::Io { path: text.clone(), message: error.to_string() })?;
    let mut indices = Vec::with_capacity(columns.len());
    for column in columns {
        let index = headers.iter().position(|header| header == *column).ok_or_else(|| ProfileError::Row {
            path: text.clone(),
            line: 1,
            message: format!("no column '{column}' (expected {})", columns.join(",")),
        })?;
        indices.push(index);
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|error| ProfileError::Io { path: text.clone(), message: error.to_string() })?;
        let line = record.position().map_or(0, csv::Position::line);
        let mut values = Vec::with_capacity(columns.len());
        for (&index, column) in indices.iter().zip(columns) {
            let field = record.get(index).unwrap_or("");
            let value: f64 = field.trim().parse().map_err(|_| ProfileError::Row {
                path: text.clone(),
                line,
                message: format!("{column} '{field}' is not a number"),
            })?;
            if !value.is_finite() {
                return Err(ProfileError::Row { path: text.clone(), line, message: format!("{column} is {value}") });
            }
            values.push(value);
        }
        rows.push((line, values));
    }
    Ok(rows)
}

/// Returns `(nodes, replicas)` of a placement id such as `1224` (one digit per node).
fn shape_of(id: u64) -> (f64, f64) {
    let digits = id.to_string();
    let replicas: u32 = digits.chars().filter_map(|c| c.to_digit(10)).sum();
    (digits.len() as f64, f64::from(replicas))
}

impl Application {
    /// Loads `settings.name` from `dir` (relative to the data directory), e.g. `pollux/profiles`.
    pub fn load(data: &DataDir, dir: &Path, settings: &AppSettings) -> Result<Application, ProfileError> {
        let app_dir = dir.join(settings.name);
        let file = |name: &str| -> Result<PathBuf, ProfileError> {
            data.file(app_dir.join(name)).map_err(|error| ProfileError::Io { path: error.path, message: error.message })
        };
        let placements_path = file("placements.csv")?;
        let scalability_path = file("scalability.csv")?;
        let relative = |name: &str| app_dir.join(name).display().to_string();
        let mut files = vec![
            (relative("placements.csv"), placements_path.clone()),
            (relative("scalability.csv"), scalability_path.clone()),
        ];
        let invalid = |message: String| ProfileError::Invalid { app: settings.name.to_string(), message };

        // Validation curves: every validation-<batch>.csv beside the placements.
        let folder = placements_path.parent().expect("a file has a folder").to_path_buf();
        let listing = std::fs::read_dir(&folder)
            .map_err(|error| ProfileError::Io { path: folder.display().to_string(), message: error.to_string() })?;
        let mut curves = Vec::new();
        for entry in listing {
            let entry = entry
                .map_err(|error| ProfileError::Io { path: folder.display().to_string(), message: error.to_string() })?;
            let name = entry.file_name().to_string_lossy().to_string();
            let Some(batch) = name.strip_prefix("validation-").and_then(|rest| rest.strip_suffix(".csv")) else {
                continue;
            };
            let batch: u32 =
                batch.parse().map_err(|_| invalid(format!("'{name}': expected validation-<batch size>.csv")))?;
            let rows = read_rows(&entry.path(), &["progress", "iteration", "grad_sqr", "grad_var"])?;
            files.push((relative(&name), entry.path()));
            let column = |k: usize| rows.iter().map(|(_, values)| values[k]).collect::<Vec<f64>>();
            curves.push((
                batch,
                Curve { progress: column(0), iteration: column(1), grad_sqr: column(2), grad_var: column(3) },
            ));
        }
        curves.sort_by_key(|(batch, _)| *batch);
        files.sort();
        let (Some(first), Some(last)) = (curves.first(), curves.last()) else {
            return Err(invalid(format!("no validation-<batch>.csv in {}", folder.display())));
        };
        let (init_batch_size, max_batch_size) = (first.0, last.0);
        let shortest = curves.iter().map(|(_, curve)| curve.progress.len()).min().unwrap_or(0);
        if shortest < settings.max_epochs {
            return Err(invalid(format!(
                "{} epochs are set but a validation curve has only {shortest}",
                settings.max_epochs
            )));
        }
        // get_progress(e) = min over curves of progress[e - 1]; 0 for e = 0.
        let mut progress_at = vec![0.0];
        for epoch in 1..=settings.max_epochs {
            progress_at.push(curves.iter().map(|(_, curve)| curve.progress[epoch - 1]).fold(f64::INFINITY, f64::min));
        }

        // Measured placements, and their means per (nodes, replicas, local batch).
        let rows = read_rows(&placements_path, &["placement", "local_bsz", "step_time", "sync_time"])?;
        let mut placements: BTreeMap<u64, (Vec<f64>, Vec<[f64; 2]>)> = BTreeMap::new();
        // (nodes, replicas, local batch) as f64 bits -> (point, sums of step and sync time, rows).
        type Group = ([f64; 3], [f64; 2], u32);
        let mut grouped: BTreeMap<(u64, u64, u64), Group> = BTreeMap::new();
        let mut min_local = f64::INFINITY;
        let mut max_local = f64::NEG_INFINITY;
        for (line, values) in &rows {
            let id = values[0];
            if !(id >= 1.0 && id.fract() == 0.0) {
                return Err(ProfileError::Row {
                    path: placements_path.display().to_string(),
                    line: *line,
                    message: format!("placement '{id}' is not a node-by-node GPU count such as 1224"),
                });
            }
            let id = id as u64;
            let (nodes, replicas) = shape_of(id);
            let (local, times) = (values[1], [values[2], values[3]]);
            min_local = min_local.min(local);
            max_local = max_local.max(local);
            let entry = placements.entry(id).or_default();
            entry.0.push(local);
            entry.1.push(times);
            let key = (nodes.to_bits(), replicas.to_bits(), local.to_bits());
            let group = grouped.entry(key).or_insert(([nodes, replicas, local], [0.0, 0.0], 0));
            group.1[0] += times[0];
            group.1[1] += times[1];
            group.2 += 1;
        }
        for (locals, times) in placements.values_mut() {
            let mut order: Vec<usize> = (0..locals.len()).collect();
            order.sort_by(|&a, &b| locals[a].total_cmp(&locals[b]));
            *locals = order.iter().map(|&index| locals[index]).collect();
            *times = order.iter().map(|&index| times[index]).collect();
        }
        // pandas' groupby sorts keys ascending; BTreeMap over f64 bits of non-negative numbers
        // sorts the same way. The scalability rows follow in file order (DataFrame.append).
        let mut points: Vec<[f64; 3]> = Vec::new();
        let mut values: Vec<[f64; 2]> = Vec::new();
        for (point, sums, count) in grouped.into_values() {
            points.push(point);
            values.push([sums[0] / f64::from(count), sums[1] / f64::from(count)]);
        }
        for (_, row) in
            read_rows(&scalability_path, &["num_nodes", "num_replicas", "local_bsz", "step_time", "sync_time"])?
        {
            points.push([row[0], row[1], row[2]]);
            values.push([row[3], row[4]]);
        }
        let scattered = Delaunay3::new(&points, &values).map_err(|error| invalid(error.to_string()))?;
        if !min_local.is_finite() {
            return Err(invalid(format!("{} has no rows", placements_path.display())));
        }
        let max_local_bsz = settings.max_local_bsz.unwrap_or(max_local as u32);
        if f64::from(max_batch_size) < min_local {
            return Err(invalid(format!(
                "largest batch {max_batch_size} is below the smallest local batch {min_local}"
            )));
        }
        Ok(Application {
            name: settings.name.to_string(),
            init_batch_size,
            max_batch_size,
            min_local_bsz: min_local as u32,
            max_local_bsz,
            max_epochs: settings.max_epochs,
            curves,
            placements,
            scattered,
            progress_at,
            files,
        })
    }

    /// Returns the files read, as (name relative to the data directory, path), sorted.
    pub fn files(&self) -> &[(String, PathBuf)] {
        &self.files
    }

    /// Returns the progress at which epoch `epoch` starts (the artifact's `get_progress`);
    /// `epoch` may be `max_epochs`, where the job completes.
    pub fn progress_at(&self, epoch: usize) -> f64 {
        self.progress_at[epoch]
    }

    /// Returns the epoch a job with `progress` is in: the last epoch whose start it reached
    /// (`max_epochs` once complete).
    pub fn epoch_of(&self, progress: f64) -> usize {
        self.progress_at.partition_point(|&start| start <= progress).saturating_sub(1)
    }

    /// Returns the progress to completion: the start of epoch `max_epochs`.
    pub fn total_progress(&self) -> f64 {
        self.progress_at[self.max_epochs]
    }

    /// Returns the batch sizes with validation curves, ascending.
    pub fn validated_batch_sizes(&self) -> impl Iterator<Item = u32> + '_ {
        self.curves.iter().map(|(batch, _)| *batch)
    }

    /// The validated batch sizes just below and above `batch_size` (equal when validated).
    fn bracket(&self, batch_size: f64) -> Option<(usize, usize)> {
        let upper = self.curves.iter().position(|(batch, _)| f64::from(*batch) >= batch_size)?;
        let lower = self.curves.iter().rposition(|(batch, _)| f64::from(*batch) <= batch_size)?;
        Some((lower, upper))
    }

    /// Interpolates a per-epoch column linearly in the batch size, as the artifact does.
    fn between(&self, batch_size: f64, epoch: usize, column: impl Fn(&Curve) -> &[f64]) -> Result<f64, InterpError> {
        let (low, high) = self.bracket(batch_size).ok_or(InterpError::OutOfRange {
            x: batch_size,
            low: f64::from(self.init_batch_size),
            high: f64::from(self.max_batch_size),
        })?;
        let (low_batch, low_curve) = &self.curves[low];
        let (high_batch, high_curve) = &self.curves[high];
        let (lo, hi) = (column(low_curve)[epoch], column(high_curve)[epoch]);
        if low == high {
            return Ok(lo);
        }
        let (lb, hb) = (f64::from(*low_batch), f64::from(*high_batch));
        Ok(((batch_size - lb) * hi + (hb - batch_size) * lo) / (hb - lb))
    }

    /// Returns `(grad_sqr, grad_var)` during `epoch` at `batch_size` (`get_grad_stats`).
    pub fn grad_stats(&self, batch_size: f64, epoch: usize) -> Result<(f64, f64), InterpError> {
        Ok((
            self.between(batch_size, epoch, |curve| &curve.grad_sqr)?,
            self.between(batch_size, epoch, |curve| &curve.grad_var)?,
        ))
    }

    /// Returns the iterations done after `epoch` epochs at `batch_size` (`get_iteration`).
    pub fn iteration(&self, batch_size: f64, epoch: usize) -> Result<f64, InterpError> {
        self.between(batch_size, epoch, |curve| &curve.iteration)
    }

    /// Returns `[step time, sync time]` in seconds on `placement` (GPUs per node, in node order)
    /// at `local_bsz` examples per GPU (`get_throughput`): measured placements are interpolated
    /// over the batch; others over (nodes, replicas, batch) between every measurement.
    pub fn step_times(&self, placement: &[u32], local_bsz: f64) -> Result<[f64; 2], InterpError> {
        let placement: Vec<u32> = placement.iter().copied().filter(|&gpus| gpus > 0).collect();
        // The lexicographically smallest rotation names a measured placement.
        let rotation = (0..placement.len())
            .map(|start| placement[start..].iter().chain(&placement[..start]).copied().collect::<Vec<u32>>())
            .min()
            .unwrap_or_default();
        let id = rotation.iter().try_fold(0u64, |id, &gpus| {
            (gpus < 10).then(|| id.checked_mul(10).map(|id| id + u64::from(gpus))).flatten()
        });
        if let Some((locals, times)) = id.and_then(|id| self.placements.get(&id)) {
            return linear_1d(locals, times, local_bsz);
        }
        let nodes = placement.len().min(16) as f64;
        let replicas: u32 = placement.iter().sum();
        self.scattered.at([nodes, f64::from(replicas), local_bsz])
    }
}

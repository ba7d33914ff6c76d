//! `schedlab bench`: whole experiments timed the way hyperfine times commands.
//!
//! Each repetition reruns every run of every spec (nothing is reused from a store) in a scratch
//! folder, one per thread count, and measures wall-clock time with `std::time::Instant`: per
//! spec and for the suite, min / median / max over repetitions, at each thread count asked for.
//! The folder is kept from one repetition to the next for one thing only: its stored run times
//! order the next repetition's runs longest first, as `reproduce` orders them by the times in
//! `results/` (so a warm-up also gives the timed repetitions that order). The scratch folder is
//! removed afterwards; `results/` is never touched.

use crate::flags::BenchArgs;
use anyhow::{Result, bail};
use schedlab_core::DataDir;
use schedlab_experiment::RunOptions;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Min, median and max of samples (seconds).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Spread {
    /// Fastest.
    pub min: f64,
    /// Median (the mean of the middle two for an even count).
    pub median: f64,
    /// Slowest.
    pub max: f64,
}

impl Spread {
    fn of(samples: &[f64]) -> Spread {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 };
        Spread { min: sorted[0], median, max: sorted[n - 1] }
    }
}

/// The specs a target names: a spec file, or a family as `reproduce` runs it.
fn specs_of(target: &str) -> Result<Vec<PathBuf>> {
    let path = Path::new(target);
    if path.extension().is_some_and(|extension| extension == "yaml") || path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let family = crate::specs::family(Path::new("experiments"), target);
    if family.is_empty() {
        bail!("'{target}' is neither a spec file nor an experiment family (experiments/{target}.yaml does not exist)");
    }
    Ok(family.into_iter().map(|name| PathBuf::from("experiments").join(format!("{name}.yaml"))).collect())
}

/// `schedlab bench TARGET`.
pub fn bench(args: &BenchArgs) -> Result<()> {
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let data = DataDir::locate();
    let specs = specs_of(&args.target)?;
    let experiments = specs.iter().map(|spec| crate::specs::load(spec, &data)).collect::<Result<Vec<_>>>()?;
    let scratch = std::env::temp_dir().join(format!("schedlab-bench-{}", std::process::id()));
    let outcome = time_all(args, &experiments, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    let rows = outcome?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    for row in &rows {
        println!(
            "{:<28} {:>3} threads  {:>5} runs  median {:>8.2} s  [min {:>8.2} s, max {:>8.2} s]  ({} timed, {} warm-up)",
            row.name,
            row.threads_label(),
            row.runs,
            row.time.median,
            row.time.min,
            row.time.max,
            args.runs,
            args.warmup
        );
    }
    let suites: Vec<&Row> = rows.iter().filter(|row| row.name == "suite").collect();
    if let [first, .., last] = suites.as_slice() {
        println!(
            "suite: {} threads are {:.2}x as fast as {} (median against median)",
            last.threads_label(),
            first.time.median / last.time.median,
            first.threads_label()
        );
    }
    Ok(())
}

/// One line of the report.
#[derive(Debug, serde::Serialize)]
struct Row {
    /// The experiment's name, or `suite`.
    name: String,
    /// Threads asked for (0: one per core).
    threads: usize,
    /// Runs in the experiment (all of them for the suite).
    runs: usize,
    /// Wall-clock seconds.
    time: Spread,
}

impl Row {
    fn threads_label(&self) -> String {
        if self.threads == 0 { "all".into() } else { self.threads.to_string() }
    }
}

fn time_all(args: &BenchArgs, experiments: &[schedlab_experiment::Experiment], scratch: &Path) -> Result<Vec<Row>> {
    let known_checksums = crate::specs::known_checksums();
    let mut rows = Vec::new();
    for &threads in &args.threads {
        let mut samples: Vec<Vec<f64>> = vec![Vec::new(); experiments.len()];
        let mut suite = Vec::new();
        let folder = scratch.join(format!("threads-{threads}"));
        for repetition in 0..args.warmup + args.runs {
            let timed = repetition >= args.warmup;
            let mut total = 0.0;
            for (index, experiment) in experiments.iter().enumerate() {
                let options = RunOptions {
                    threads,
                    force: true,
                    results_dir: folder.clone(),
                    git_revision: None,
                    known_checksums: known_checksums.clone(),
                    strict_data: false,
                    shard: None,
                    budget: None,
                    cancel: None,
                    worker: None,
                };
                let started = Instant::now();
                schedlab_experiment::run_experiment(experiment, &options, &|_| {})?;
                let seconds = started.elapsed().as_secs_f64();
                total += seconds;
                if timed {
                    samples[index].push(seconds);
                }
                eprintln!(
                    "{} {} ({} threads): {seconds:.2} s",
                    if timed { "timed  " } else { "warm-up" },
                    experiment.name(),
                    if threads == 0 { "all".to_string() } else { threads.to_string() }
                );
            }
            if timed {
                suite.push(total);
            }
        }
        let _ = std::fs::remove_dir_all(&folder);
        let mut all_runs = 0;
        for (experiment, samples) in experiments.iter().zip(&samples) {
            let runs = experiment.runs().len();
            all_runs += runs;
            rows.push(Row { name: experiment.name().to_string(), threads, runs, time: Spread::of(samples) });
        }
        rows.push(Row { name: "suite".into(), threads, runs: all_runs, time: Spread::of(&suite) });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_is_min_median_max() {
        assert_eq!(Spread::of(&[3.0, 1.0, 2.0]), Spread { min: 1.0, median: 2.0, max: 3.0 });
        assert_eq!(Spread::of(&[4.0, 1.0, 2.0, 3.0]), Spread { min: 1.0, median: 2.5, max: 4.0 });
    }
}

//! `schedlab run`, `report`, `reproduce` and `check`: load a spec, resolve it, run it with a
//! progress bar (or, for `report`, write the reports from the result store).

use crate::flags::{ReportArgs, RunFlags};
use crate::specs::{experiments, family, known_checksums};
use anyhow::{Context as _, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use schedlab_experiment::{Experiment, Progress, RunOptions};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `schedlab check SPEC`: everything `run` reads and checks before it simulates (the spec, every
/// trace row and generated job, the workload against the cluster and the perf model, each
/// policy), failing with the message `run` would give.
pub fn check(path: &Path) -> Result<()> {
    let experiment = crate::specs::load_spec(path, crate::specs::Missing::Explain)?;
    schedlab_experiment::preflight(&experiment, 0)?;
    let hashes = schedlab_experiment::data_file_hashes(&experiment.setup)?;
    for line in schedlab_experiment::modified_data_files(&hashes, &known_checksums()) {
        eprintln!("warning: data file differs from its recorded checksum: {line} (`run --strict` refuses it)");
    }
    let runs = experiment.runs().len();
    let looks = experiment.adaptive.as_ref().map_or_else(String::new, |looks| {
        let counts: Vec<String> = looks.counts.iter().map(u64::to_string).collect();
        let unit = looks.unit_name();
        format!(
            "; adaptive {unit}: looks at {} {unit}, the later ones only for the claims still open",
            counts.join(", ")
        )
    });
    println!(
        "{}: ok ({}{runs} runs: {} policies x {} seeds x {} sweep points{looks})",
        path.display(),
        if looks.is_empty() { "" } else { "at most " },
        experiment.policies.len(),
        experiment.seeds.len(),
        runs / (experiment.policies.len() * experiment.seeds.len())
    );
    Ok(())
}

/// `schedlab reproduce NAME`: see [`crate::specs::family`]; `all` is every spec in `experiments/`.
pub fn reproduce(name: &str, flags: &RunFlags) -> Result<()> {
    if name == ALL {
        return reproduce_all(Path::new("experiments"), flags);
    }
    let family = family(Path::new("experiments"), name);
    if family.is_empty() {
        let shipped = experiments();
        let hint = schedlab_core::suggest::did_you_mean(name, shipped.iter().map(String::as_str));
        bail!(
            "no experiment '{name}': experiments/{name}.yaml does not exist{hint}; shipped experiments: {}",
            shipped.join(", ")
        );
    }
    // Run every member even if one fails (a strict claim miss, say), then report.
    let mut failures = Vec::new();
    let mut claims = Vec::new();
    for experiment in &family {
        let path = PathBuf::from("experiments").join(format!("{experiment}.yaml"));
        match run_with_claims(&path, flags) {
            Ok(Some(results)) if !results.is_empty() => claims.push((experiment.clone(), results)),
            Ok(Some(_)) | Ok(None) => {}
            Err(error) => {
                eprintln!("error: {error:#}");
                failures.push(experiment.clone());
            }
        }
    }
    if !failures.is_empty() {
        bail!("{} of {} experiments failed: {}", failures.len(), family.len(), failures.join(", "));
    }
    write_claims_across(name, &claims, flags)
}

/// The name `reproduce` takes for every shipped spec.
const ALL: &str = "all";

/// `schedlab reproduce all`: every spec in `dir`, in one queue of runs (longest expected first
/// across experiments, so both cores stay busy to the end), then each experiment's reports
/// (those whose plots read other experiments' results last), each family's claims across its
/// specs, and the verdict counts of every claim.
fn reproduce_all(dir: &Path, flags: &RunFlags) -> Result<()> {
    let started = std::time::Instant::now();
    let names = crate::specs::experiments_in(dir);
    if names.is_empty() {
        bail!("no specs in {}: `reproduce all` runs every experiments/*.yaml", dir.display());
    }
    let missing = if flags.offline { crate::specs::Missing::Explain } else { crate::specs::Missing::Fetch };
    let mut failures = Vec::new();
    let mut loaded = Vec::new();
    for name in &names {
        match crate::specs::load_spec(&dir.join(format!("{name}.yaml")), missing) {
            Ok(experiment) => loaded.push(experiment),
            Err(error) => {
                eprintln!("error: {name}: {error:#}");
                failures.push(name.clone());
            }
        }
    }
    // An experiment whose plots read others' runs.csv writes its reports after theirs.
    loaded.sort_by_key(reads_other_experiments);
    let options = run_options(flags);
    let bar = Bar::new(flags.quiet)?;
    let results = schedlab_experiment::run_experiments(&loaded, &options, &|progress| bar.update(progress));
    bar.bar.finish_and_clear();
    let mut claims = Vec::new();
    let mut verdicts = Vec::new();
    let (mut ran, mut reused) = (0, 0);
    for (experiment, result) in loaded.iter().zip(results) {
        let name = experiment.name().to_string();
        let outcome = result.map_err(anyhow::Error::from).and_then(|result| {
            ran += result.ran;
            reused += result.reused;
            if !flags.quiet && !flags.json && flags.shard.is_none() {
                let counts = schedlab_experiment::claims::counts(result.claims.iter().map(|claim| &claim.verdict));
                let judged = if result.claims.is_empty() {
                    String::new()
                } else {
                    format!("; claims: {}", schedlab_experiment::claims::counts_text(counts))
                };
                println!(
                    "{name}: {} runs ({} run now, {} reused){judged}",
                    result.outcomes.len(),
                    result.ran,
                    result.reused
                );
            }
            if flags.shard.is_none() {
                summarize(experiment, &result, 0.0, false, true, flags.strict)?;
            }
            Ok(result.claims)
        });
        match outcome {
            Ok(results) => {
                verdicts.extend(results.iter().map(|claim| claim.verdict.clone()));
                if !results.is_empty() {
                    claims.push((name, results));
                }
            }
            Err(error) => {
                eprintln!("error: {name}: {error:#}");
                failures.push(name);
            }
        }
    }
    if flags.shard.is_none() {
        for family_name in families(dir, &names) {
            let members = family(dir, &family_name);
            let member_claims: Vec<_> = claims.iter().filter(|(name, _)| members.contains(name)).cloned().collect();
            write_claims_across(&family_name, &member_claims, flags)?;
        }
    }
    if !flags.quiet && !flags.json {
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "all {} experiments: {ran} runs run now, {reused} reused, in {:.0} min {:.0} s",
            loaded.len(),
            (seconds / 60.0).floor(),
            seconds % 60.0
        );
        if flags.shard.is_none() {
            let counts = schedlab_experiment::claims::counts(verdicts.iter());
            println!(
                "claims of every experiment ({}): {} -> {}, {}",
                verdicts.len(),
                schedlab_experiment::claims::counts_text(counts),
                flags.results.join("claims.md").display(),
                flags.results.join("index.html").display()
            );
        }
    }
    if !failures.is_empty() {
        bail!("{} of {} experiments failed: {}", failures.len(), names.len(), failures.join(", "));
    }
    Ok(())
}

/// Whether one of the experiment's plots reads other experiments' results.
fn reads_other_experiments(experiment: &Experiment) -> bool {
    experiment
        .report
        .plots
        .iter()
        .any(|plot| matches!(plot, schedlab_experiment::spec::PlotSpec::MetricVsExperiments { .. }))
}

/// The families of the specs `names` in `dir`: each name's part before its first `-`, and every
/// family a spec joins with `also_in`, that `reproduce FAMILY` runs two or more specs of.
fn families(dir: &Path, names: &[String]) -> Vec<String> {
    let mut candidates: std::collections::BTreeSet<String> =
        names.iter().map(|name| name.split('-').next().unwrap_or(name).to_string()).collect();
    for name in names {
        candidates.extend(crate::specs::also_in(dir, name));
    }
    candidates.into_iter().filter(|candidate| family(dir, candidate).len() > 1).collect()
}

/// Writes `<results>/<name>-claims.md` when members of the family check the same best-case
/// claim (one per trace, say): each judged on its best case across them.
fn write_claims_across(
    name: &str,
    claims: &[(String, Vec<schedlab_experiment::claims::ClaimResult>)],
    flags: &RunFlags,
) -> Result<()> {
    let across = schedlab_experiment::claims::across(claims);
    if across.is_empty() {
        return Ok(());
    }
    let table = schedlab_experiment::claims::across_markdown(&across);
    let members: Vec<&str> = claims.iter().map(|(experiment, _)| experiment.as_str()).collect();
    let text = format!(
        "**{name}: claims across experiments.** Best-case (\"up to\") claims that several experiments of `schedlab reproduce {name}` check ({}), each judged on its best case across them; every experiment's own verdicts are in its claims.md.\n\n{table}",
        members.join(", ")
    );
    let path = flags.results.join(format!("{name}-claims.md"));
    std::fs::create_dir_all(&flags.results).with_context(|| format!("cannot create {}", flags.results.display()))?;
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    let csv_path = flags.results.join(format!("{name}-claims.csv"));
    std::fs::write(&csv_path, schedlab_experiment::claims::across_csv(&across))
        .with_context(|| format!("cannot write {}", csv_path.display()))?;
    if !flags.quiet {
        let counts = schedlab_experiment::claims::counts(across.iter().map(|result| &result.verdict));
        println!(
            "claims across {} ({}): {} -> {}",
            members.join(", "),
            across.len(),
            schedlab_experiment::claims::counts_text(counts),
            path.display()
        );
    }
    Ok(())
}

/// Draws the runner's progress: a bar filled by the finished runs' expected time (so that its
/// estimate of what is left weighs long runs as long), the runs done, and the slowest so far.
/// Where standard error is not a terminal (a log file, CI, a Slurm task) no bar is drawn, so
/// the same figures go out as a plain line, at most one every [`LOG_LINE_INTERVAL`].
struct Bar {
    bar: ProgressBar,
    quiet: bool,
    /// Runs to compute in all rounds so far, and runs done.
    runs: AtomicUsize,
    done: AtomicUsize,
    slowest: Mutex<(f64, String)>,
    /// When the last plain line went out, and how often one goes out, where lines replace the
    /// bar (`None`: a terminal, or quiet).
    last_line: Option<(Mutex<std::time::Instant>, std::time::Duration)>,
}

/// The bar's units per expected second.
const BAR_UNITS_PER_SECOND: f64 = 1000.0;

/// How often a plain progress line is written where the bar is not drawn, unless
/// `SCHEDLAB_PROGRESS_SECONDS` says otherwise.
const LOG_LINE_INTERVAL: std::time::Duration = std::time::Duration::from_secs(60);

/// [`LOG_LINE_INTERVAL`], or the seconds `SCHEDLAB_PROGRESS_SECONDS` gives (0: after every run).
fn log_line_interval() -> Result<std::time::Duration> {
    match std::env::var("SCHEDLAB_PROGRESS_SECONDS") {
        Err(_) => Ok(LOG_LINE_INTERVAL),
        Ok(text) => text
            .trim()
            .parse::<u64>()
            .map(std::time::Duration::from_secs)
            .map_err(|_| anyhow::anyhow!("SCHEDLAB_PROGRESS_SECONDS='{text}': expected whole seconds (0 or more)")),
    }
}

/// A plain progress line: runs done of those planned, time so far and about how much is left
/// (from the finished runs' expected times), and the slowest run so far.
fn progress_line(
    done: usize,
    runs: usize,
    elapsed: std::time::Duration,
    left: Option<std::time::Duration>,
    slowest: &(f64, String),
) -> String {
    let minutes = |time: std::time::Duration| {
        let seconds = time.as_secs();
        format!("{}m{:02}s", seconds / 60, seconds % 60)
    };
    let left = left.map_or_else(|| "unknown".to_string(), minutes);
    let mut line = format!("progress: {done}/{runs} runs, {} elapsed, about {left} left", minutes(elapsed));
    if slowest.0 > 0.0 {
        line.push_str(&format!("; slowest: {} ({:.1} s)", slowest.1, slowest.0));
    }
    line
}

impl Bar {
    fn new(quiet: bool) -> Result<Bar> {
        let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(0) };
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {prefix} runs, {elapsed} elapsed, about {eta} left  {msg}")
                .expect("valid template"),
        );
        let to_terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
        let last_line = if quiet || to_terminal {
            None
        } else {
            Some((Mutex::new(std::time::Instant::now()), log_line_interval()?))
        };
        Ok(Bar {
            bar,
            quiet,
            runs: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            slowest: Mutex::new((0.0, String::new())),
            last_line,
        })
    }

    /// Writes a plain progress line where lines replace the bar, if the last was long enough ago.
    fn log_line(&self, slowest: &(f64, String)) {
        let Some((last, interval)) = &self.last_line else { return };
        let mut last = last.lock().expect("no panics while holding the lock");
        if last.elapsed() < *interval {
            return;
        }
        *last = std::time::Instant::now();
        let (done, runs) = (self.done.load(Ordering::SeqCst), self.runs.load(Ordering::SeqCst));
        let left = (self.bar.position() > 0).then(|| self.bar.eta());
        eprintln!("{}", progress_line(done, runs, self.bar.elapsed(), left, slowest));
    }

    fn update(&self, progress: Progress<'_>) {
        match progress {
            // Nothing to run (yet): no bar, until a later round (a look of adaptive seeds) has runs.
            Progress::Started { to_run: 0, .. } => {
                if self.runs.load(Ordering::SeqCst) == 0 {
                    self.bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
                }
            }
            Progress::Started { to_run, expected_s, .. } => {
                if !self.quiet {
                    self.bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                }
                let runs = self.runs.fetch_add(to_run, Ordering::SeqCst) + to_run;
                self.bar.set_prefix(format!("{}/{runs}", self.done.load(Ordering::SeqCst)));
                let length = self.bar.length().unwrap_or(0);
                self.bar.set_length(length + (expected_s * BAR_UNITS_PER_SECOND).ceil() as u64);
            }
            Progress::Finished { done, experiment, key, wall_time_s, expected_s } => {
                let mut slowest = self.slowest.lock().expect("no panics while holding the lock");
                if wall_time_s > slowest.0 {
                    *slowest = (wall_time_s, format!("{experiment} {key}"));
                    self.bar.set_message(format!("slowest: {} ({:.1} s)", slowest.1, slowest.0));
                }
                self.done.fetch_max(done, Ordering::SeqCst);
                self.bar.set_prefix(format!("{done}/{}", self.runs.load(Ordering::SeqCst)));
                self.bar.inc((expected_s * BAR_UNITS_PER_SECOND).round() as u64);
                self.log_line(&slowest);
            }
            Progress::Look { experiment, count, unit, open, runs } => {
                if !self.quiet {
                    self.bar.suspend(|| {
                        eprintln!("{experiment}: {open} claims open: {runs} runs take them to {count} {unit}")
                    });
                }
            }
            // Shown even with --quiet: it is about the inputs, not progress.
            Progress::Warning(line) => self.bar.suspend(|| eprintln!("warning: {line}")),
        }
    }
}

/// `schedlab run SPEC`.
pub fn run(path: &Path, flags: &RunFlags) -> Result<()> {
    run_with_claims(path, flags).map(|_| ())
}

/// [`run`], returning the claims' verdicts (`None` for a shard, which checks none).
fn run_with_claims(path: &Path, flags: &RunFlags) -> Result<Option<Vec<schedlab_experiment::claims::ClaimResult>>> {
    let missing = if flags.offline { crate::specs::Missing::Explain } else { crate::specs::Missing::Fetch };
    let experiment = crate::specs::load_spec(path, missing)?;
    let options = run_options(flags);
    let started = std::time::Instant::now();
    let bar = Bar::new(flags.quiet)?;
    let result = schedlab_experiment::run_experiment(&experiment, &options, &|progress| bar.update(progress));
    bar.bar.finish_and_clear();
    let result = result?;
    if let Some(shard) = flags.shard {
        if flags.json {
            let output = serde_json::json!({"dir": result.dir, "shard": shard.to_string(), "ran": result.ran, "reused": result.reused, "runs": result.outcomes.len(), "files": result.files});
            println!("{}", serde_json::to_string_pretty(&output)?);
        } else if !flags.quiet {
            println!(
                "{} shard {shard}: {} runs ({} run now, {} reused) in {:.1} s -> {}; once every shard is done, \
                 `schedlab report {}` writes the tables",
                experiment.name(),
                result.outcomes.len(),
                result.ran,
                result.reused,
                started.elapsed().as_secs_f64(),
                result.dir.display(),
                path.display()
            );
        }
        return Ok(None);
    }
    summarize(&experiment, &result, started.elapsed().as_secs_f64(), flags.json, flags.quiet, flags.strict)?;
    Ok(Some(result.claims))
}

/// The runner's options from the command line's.
fn run_options(flags: &RunFlags) -> RunOptions {
    RunOptions {
        threads: flags.threads,
        force: flags.force,
        results_dir: flags.results.clone(),
        git_revision: schedlab_experiment::manifest::git_revision(),
        known_checksums: known_checksums(),
        strict_data: flags.strict,
        shard: flags.shard,
        budget: flags.budget,
        cancel: None,
        worker: None,
    }
}

/// `schedlab report SPEC`: the reports of a store filled by any number of shards.
pub fn report(args: &ReportArgs) -> Result<()> {
    let experiment = crate::specs::load_spec(&args.spec, crate::specs::Missing::Explain)?;
    let options = RunOptions {
        threads: args.threads,
        results_dir: args.results.clone(),
        git_revision: schedlab_experiment::manifest::git_revision(),
        known_checksums: known_checksums(),
        strict_data: args.strict,
        ..RunOptions::default()
    };
    let started = std::time::Instant::now();
    let result = schedlab_experiment::report_experiment(&experiment, &options, &|progress| {
        if let Progress::Warning(line) = progress {
            eprintln!("warning: {line}");
        }
    })?;
    summarize(&experiment, &result, started.elapsed().as_secs_f64(), false, args.quiet, args.strict)
}

/// Prints what a run or report produced; with `strict`, fails on a missed claim.
fn summarize(
    experiment: &Experiment,
    result: &schedlab_experiment::runner::ExperimentResult,
    seconds: f64,
    json: bool,
    quiet: bool,
    strict: bool,
) -> Result<()> {
    let missed: Vec<&str> =
        result.claims.iter().filter(|claim| !claim.holds).map(|claim| claim.claim.text.as_str()).collect();
    let unfinished: Vec<&schedlab_experiment::store::RunOutcome> = result
        .outcomes
        .iter()
        .filter(|outcome| outcome.metrics.jobs_finished < outcome.metrics.jobs_measured)
        .collect();
    // Shown even with --quiet or --json: these runs' JCT metrics cover only the jobs that finished.
    if !unfinished.is_empty() {
        let named: Vec<String> = unfinished
            .iter()
            .map(|outcome| {
                let (finished, measured) = (outcome.metrics.jobs_finished, outcome.metrics.jobs_measured);
                format!("{} ({finished} of {measured} measured jobs finished)", outcome.key)
            })
            .collect();
        eprintln!(
            "warning: {} of {} runs ended before every measured job finished (sim.max_time, or a workload that \
             outlasts it): {}; their jobs_finished is below jobs_measured in runs.csv, and metrics of finished jobs \
             are left empty where none finished",
            unfinished.len(),
            result.outcomes.len(),
            named.join(", ")
        );
    }
    // Shown even with --quiet: the verdicts below are not what the spec asked for.
    if result.budget_stopped {
        let open: Vec<&str> = result
            .claims
            .iter()
            .filter(|claim| matches!(claim.verdict, schedlab_experiment::interval::Verdict::Inconclusive { .. }))
            .map(|claim| claim.claim.text.as_str())
            .collect();
        eprintln!(
            "budget: {} stopped adding {} before its claims were settled; inconclusive for want of them ({}): {}",
            experiment.name(),
            experiment.adaptive.as_ref().map_or("seeds", |looks| looks.unit_name()),
            open.len(),
            open.join("; ")
        );
    }
    if json {
        let claims: Vec<serde_json::Value> = result
            .claims
            .iter()
            .map(|claim| {
                let interval = claim.estimate.and_then(|estimate| estimate.interval);
                serde_json::json!({"text": claim.claim.text, "expected": claim.claim.expected, "direction": claim.claim.direction.name(), "measured": claim.measured,
                    "lower": interval.map(|interval| interval.0), "upper": interval.map(|interval| interval.1),
                    "n_units": claim.estimate.map_or(0, |estimate| estimate.n), "unit": claim.unit.plural(), "unit_why": claim.unit.why(), "n_seeds": claim.per_seed.len(),
                    "verdict": claim.verdict.name(), "holds": claim.holds, "best_case": claim.best_case})
            })
            .collect();
        let unfinished: Vec<&str> = unfinished.iter().map(|outcome| outcome.key.as_str()).collect();
        let output = serde_json::json!({"dir": result.dir, "ran": result.ran, "reused": result.reused, "files": result.files, "claims": claims, "unfinished": unfinished});
        println!("{}", serde_json::to_string_pretty(&output)?);
    } else if !quiet {
        println!(
            "{}: {} runs ({} run now, {} reused) in {seconds:.1} s -> {}",
            experiment.name(),
            result.outcomes.len(),
            result.ran,
            result.reused,
            result.dir.display()
        );
        for (_, markdown) in &result.tables {
            println!("\n{markdown}");
        }
        if !result.claims.is_empty() {
            let counts = schedlab_experiment::claims::counts(result.claims.iter().map(|claim| &claim.verdict));
            println!(
                "claims ({}): {} (see claims.md)",
                result.claims.len(),
                schedlab_experiment::claims::counts_text(counts)
            );
        }
    }
    if strict && !missed.is_empty() {
        bail!("{} published claims missed: {}", missed.len(), missed.join("; "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_is_the_name_its_prefixed_specs_and_the_specs_that_list_it() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
        let philly = family(&dir, "philly");
        assert_eq!(philly, vec!["philly", "philly-rltune"], "hadar-philly is Hadar's, not in `reproduce philly`");
        assert_eq!(
            family(&dir, "rltune"),
            vec![
                "philly-rltune",
                "rltune-helios",
                "rltune-helios-placement",
                "rltune-helios-random",
                "rltune-philly-random"
            ]
        );
        assert!(family(&dir, "no-such-name").is_empty());
    }

    #[test]
    fn a_plain_progress_line_says_runs_time_and_the_slowest_run() {
        use std::time::Duration;
        let slowest = (73.31, "gavel-multi policy=gandiva;seed=4".to_string());
        assert_eq!(
            progress_line(12, 130, Duration::from_secs(754), Some(Duration::from_secs(3_661)), &slowest),
            "progress: 12/130 runs, 12m34s elapsed, about 61m01s left; slowest: gavel-multi policy=gandiva;seed=4 (73.3 s)"
        );
        assert_eq!(
            progress_line(0, 5, Duration::from_secs(59), None, &(0.0, String::new())),
            "progress: 0/5 runs, 0m59s elapsed, about unknown left"
        );
    }
}

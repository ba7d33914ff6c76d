//! `schedlab run`, `report`, `reproduce` and `check`: load a spec, resolve it, run it with a
//! progress bar (or, for `report`, write the reports from the result store).

use crate::flags::{ReportArgs, RunFlags};
use crate::specs::{experiments, family, known_checksums};
use anyhow::{Context as _, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use schedlab_experiment::{Experiment, Progress, RunOptions};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

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
    println!(
        "{}: ok ({runs} runs: {} policies x {} seeds x {} sweep points)",
        path.display(),
        experiment.policies.len(),
        experiment.seeds.len(),
        runs / (experiment.policies.len() * experiment.seeds.len())
    );
    Ok(())
}

/// `schedlab reproduce NAME`: see [`crate::specs::family`].
pub fn reproduce(name: &str, flags: &RunFlags) -> Result<()> {
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

/// Draws the runner's progress: a bar with the slowest run so far.
struct Bar {
    bar: ProgressBar,
    slowest: Mutex<(f64, String)>,
}

impl Bar {
    fn new(quiet: bool) -> Bar {
        let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(0) };
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} runs, {elapsed} elapsed, ETA {eta}  {msg}")
                .expect("valid template"),
        );
        Bar { bar, slowest: Mutex::new((0.0, String::new())) }
    }

    fn update(&self, progress: Progress<'_>) {
        match progress {
            Progress::Started { to_run: 0, .. } => self.bar.set_draw_target(indicatif::ProgressDrawTarget::hidden()),
            Progress::Started { to_run, .. } => self.bar.set_length(to_run as u64),
            Progress::Finished { done, key, wall_time_s } => {
                let mut slowest = self.slowest.lock().expect("no panics while holding the lock");
                if wall_time_s > slowest.0 {
                    *slowest = (wall_time_s, key.to_string());
                    self.bar.set_message(format!("slowest: {} ({:.1} s)", slowest.1, slowest.0));
                }
                self.bar.set_position(done as u64);
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
    let options = RunOptions {
        threads: flags.threads,
        force: flags.force,
        results_dir: flags.results.clone(),
        git_revision: schedlab_experiment::manifest::git_revision(),
        known_checksums: known_checksums(),
        strict_data: flags.strict,
        shard: flags.shard,
        cancel: None,
        worker: None,
    };
    let started = std::time::Instant::now();
    let bar = Bar::new(flags.quiet);
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
}

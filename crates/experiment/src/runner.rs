//! The parallel sweep runner.

use crate::plan::{RunPlan, expand};
use crate::prepare::{PreparedWorkload, Setup, SpecSource};
use crate::spec::ExperimentSpec;
use crate::store::{RunOutcome, Store};
use crate::{ExperimentError, report};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use schedlab_core::DataDir;
use schedlab_sim::metrics::summarize;
use schedlab_sim::{BusyTimeline, JobRecord, RunMetrics, SimConfig};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// How to run an experiment.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads; 0 lets rayon choose (one per core).
    pub threads: usize,
    /// Rerun runs already in the store.
    pub force: bool,
    /// No progress bar.
    pub quiet: bool,
    /// The data directory.
    pub data_dir: DataDir,
    /// Where `<name>/` goes (usually `results/`).
    pub results_dir: PathBuf,
    /// The spec's text, to point errors at lines.
    pub source: SpecSource,
    /// The git revision, for the manifest.
    pub git_revision: Option<String>,
}

/// What an experiment produced.
#[derive(Clone, Debug)]
pub struct ExperimentResult {
    /// Every run, sorted by key.
    pub outcomes: Vec<RunOutcome>,
    /// Claims and whether each held.
    pub claims: Vec<crate::claims::ClaimResult>,
    /// The result folder.
    pub dir: PathBuf,
    /// Runs computed now.
    pub ran: usize,
    /// Runs reused from the store.
    pub reused: usize,
    /// Files written, relative to `dir`.
    pub files: Vec<String>,
}

/// Hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Returns the SHA-256 of the file at `path`, reading it once per experiment.
fn file_sha256(known: &mut BTreeMap<PathBuf, String>, path: &Path) -> Result<String, ExperimentError> {
    if let Some(hash) = known.get(path) {
        return Ok(hash.clone());
    }
    let bytes = std::fs::read(path).map_err(|error| ExperimentError::Data(format!("{}: {error}", path.display())))?;
    let hash = sha256_hex(&bytes);
    known.insert(path.to_path_buf(), hash.clone());
    Ok(hash)
}

/// Runs every run of `spec` not already stored, then writes the reports.
pub fn run_experiment(spec: &ExperimentSpec, options: &RunOptions) -> Result<ExperimentResult, ExperimentError> {
    let setup = Setup::new(spec, &options.data_dir, &options.source)?;
    let store = Store::open(&options.results_dir.join(&spec.name))?;
    let mut file_hashes: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut hash_files = |files: &[(String, PathBuf)]| -> Result<Vec<(String, String)>, ExperimentError> {
        files.iter().map(|(name, path)| Ok((name.clone(), file_sha256(&mut file_hashes, path)?))).collect()
    };
    let data_hashes = hash_files(&setup.data_files)?;
    // The files a policy reads (its `throughputs=` table, say) are part of its runs' identity.
    let policy_hashes: BTreeMap<String, Vec<(String, String)>> = setup
        .policy_files
        .iter()
        .map(|(policy, files)| Ok((policy.clone(), hash_files(files)?)))
        .collect::<Result<_, ExperimentError>>()?;
    // Results depend on the workload, cluster, perf model and engine settings, the data, the
    // tool version and the run's own key (policy, sweep point, seed); not on which other
    // policies are compared, nor on tables, plots, claims or the description. So adding a
    // policy to a spec reruns only that policy's runs.
    let mut essence = spec.clone();
    essence.policies.clear();
    essence.description.clear();
    essence.tables.clear();
    essence.plots.clear();
    essence.claims.clear();
    essence.fairness_reference = None;
    let essence = format!(
        "{}\n{}\n{}",
        env!("CARGO_PKG_VERSION"),
        serde_json::to_string(&essence).expect("specs serialise"),
        serde_json::to_string(&data_hashes).expect("strings serialise")
    );
    let spec_hash = sha256_hex(essence.as_bytes());
    let plans = expand(spec);
    let hash_of = |plan: &RunPlan| {
        let files = &policy_hashes[&plan.policy.to_string()];
        if files.is_empty() {
            sha256_hex(format!("{spec_hash}\n{}", plan.key).as_bytes())
        } else {
            let files = serde_json::to_string(files).expect("strings serialise");
            sha256_hex(format!("{spec_hash}\n{}\n{files}", plan.key).as_bytes())
        }
    };

    let mut outcomes: BTreeMap<String, RunOutcome> = BTreeMap::new();
    let mut todo = Vec::new();
    for plan in &plans {
        match (options.force, store.load(&plan.key, &hash_of(plan))) {
            (false, Some(outcome)) => {
                outcomes.insert(plan.key.clone(), outcome);
            }
            _ => todo.push(plan),
        }
    }
    let reused = outcomes.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|error| ExperimentError::Run { key: "-".into(), message: format!("thread pool: {error}") })?;

    // Each workload once, shared by every policy at that sweep point and seed.
    let mut workload_plans: BTreeMap<&str, &RunPlan> = BTreeMap::new();
    for plan in &todo {
        workload_plans.entry(plan.workload_key.as_str()).or_insert(plan);
    }
    let workloads: BTreeMap<String, PreparedWorkload> = pool.install(|| {
        workload_plans
            .par_iter()
            .map(|(key, plan)| setup.workload(spec, plan).map(|workload| (key.to_string(), workload)))
            .collect::<Result<_, _>>()
    })?;

    let progress =
        if options.quiet || todo.is_empty() { ProgressBar::hidden() } else { ProgressBar::new(todo.len() as u64) };
    progress.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} runs, {elapsed} elapsed, ETA {eta}  {msg}")
            .expect("valid template"),
    );
    let slowest = Mutex::new((0.0f64, String::new()));
    let results: Vec<Result<RunOutcome, ExperimentError>> = pool.install(|| {
        todo.par_iter()
            .map(|plan| {
                let workload = &workloads[&plan.workload_key];
                let outcome = run_one(spec, &setup, workload, plan, hash_of(plan))?;
                store.save(&outcome)?;
                let mut slowest = slowest.lock().expect("no panics while holding the lock");
                if outcome.wall_time_s > slowest.0 {
                    *slowest = (outcome.wall_time_s, outcome.key.clone());
                    progress.set_message(format!("slowest: {} ({:.1} s)", slowest.1, slowest.0));
                }
                progress.inc(1);
                Ok(outcome)
            })
            .collect()
    });
    progress.finish_and_clear();
    let mut first_error = None;
    let ran = results.len();
    for result in results {
        match result {
            Ok(outcome) => {
                outcomes.insert(outcome.key.clone(), outcome);
            }
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    if let Some(error) = first_error {
        return Err(error);
    }
    let outcomes: Vec<RunOutcome> = outcomes.into_values().collect();
    let manifest = report::Manifest {
        experiment: spec.name.clone(),
        spec_hash,
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        git_revision: options.git_revision.clone(),
        gpu_types: setup.cluster.gpu_types().to_vec(),
        data_files: data_hashes,
        policy_files: policy_hashes.into_iter().filter(|(_, files)| !files.is_empty()).collect(),
        workload_report: workloads.into_iter().map(|(key, workload)| (key, workload.report)).collect(),
        wall_time_s: outcomes.iter().map(|outcome| (outcome.key.clone(), outcome.wall_time_s)).collect(),
        solver: outcomes.iter().filter_map(|outcome| Some((outcome.key.clone(), outcome.solver.clone()?))).collect(),
    };
    let (claims, files) = report::write_all(&store, spec, &outcomes, &manifest)?;
    Ok(ExperimentResult { outcomes, claims, dir: store.dir().to_path_buf(), ran, reused, files })
}

/// Runs one simulation (per VC when partitioned) and summarises it.
fn run_one(
    spec: &ExperimentSpec,
    setup: &Setup,
    workload: &PreparedWorkload,
    plan: &RunPlan,
    content_hash: String,
) -> Result<RunOutcome, ExperimentError> {
    let started = Instant::now();
    let config = SimConfig {
        restart_overhead: plan.point.get("restart_overhead").unwrap_or(spec.sim.restart_overhead),
        overhead_on_first_start: spec.sim.overhead_on_first_start,
        window: spec.sim.window,
        max_time: spec.sim.max_time.map(schedlab_core::Time::from_secs),
        check_invariants: false,
        fork_overhead: spec.sim.fork_overhead,
    };
    let fail = |error: String| ExperimentError::Run { key: plan.key.clone(), message: error };
    let env = setup.env.with_seed(plan.workload_seed);
    let policy = || schedlab_zoo::build_params(&plan.policy.0, &env).map_err(|error| fail(error.to_string()));
    let mut solver: Option<schedlab_core::SolverStats> = None;
    let mut add_solver = |stats: Option<schedlab_core::SolverStats>| {
        if let Some(stats) = stats {
            solver.get_or_insert_with(Default::default).merge(&stats);
        }
    };
    let (records, timeline, mut metrics, events, decisions) = match &workload.groups {
        None => {
            let result = schedlab_sim::run(
                setup.cluster.clone(),
                &workload.jobs,
                setup.perf.as_ref(),
                policy()?.as_mut(),
                &config,
            )
            .map_err(|error| fail(error.to_string()))?;
            let (events, decisions) = (result.metrics.events, result.metrics.decisions);
            add_solver(result.solver);
            (result.jobs, result.timeline, Some(result.metrics), events, decisions)
        }
        Some(groups) => {
            let mut records: Vec<Option<JobRecord>> = vec![None; workload.jobs.len()];
            let mut timelines = Vec::with_capacity(groups.len());
            let (mut events, mut decisions) = (0, 0);
            for group in groups {
                let result = schedlab_sim::run(
                    group.cluster.clone(),
                    &group.jobs,
                    setup.perf.as_ref(),
                    policy()?.as_mut(),
                    &config,
                )
                .map_err(|error| fail(format!("VC {}: {error}", group.name)))?;
                events += result.metrics.events;
                decisions += result.metrics.decisions;
                add_solver(result.solver);
                for (record, original) in result.jobs.into_iter().zip(&group.original_ids) {
                    records[original.index()] = Some(JobRecord { id: original.0, ..record });
                }
                timelines.push(result.timeline);
            }
            let records: Vec<JobRecord> =
                records.into_iter().map(|record| record.expect("every job is in one group")).collect();
            let timeline = BusyTimeline::sum(&timelines);
            (records, timeline, None, events, decisions)
        }
    };
    let end_time = records
        .iter()
        .filter_map(|record| record.finish)
        .fold(0.0f64, f64::max)
        .max(timeline.times.last().copied().unwrap_or(0.0));
    let metrics: RunMetrics = metrics.take().unwrap_or_else(|| {
        let mut metrics = summarize(&records, &config.window, &timeline, &setup.cluster.gpus_per_type(), end_time);
        metrics.events = events;
        metrics.decisions = decisions;
        metrics
    });
    let jct_by_job: Vec<(u32, f64)> = records
        .iter()
        .filter(|record| config.window.contains(record.id, schedlab_core::Time::from_secs(record.arrival)))
        .filter_map(|record| Some((record.id, record.jct?)))
        .collect();
    Ok(RunOutcome {
        format: crate::store::STORE_FORMAT,
        key: plan.key.clone(),
        policy: plan.policy.to_string(),
        seed: plan.seed,
        point: plan.point.0.clone(),
        content_hash,
        metrics,
        jct_by_job,
        busy: downsample(&timeline, 1000),
        wall_time_s: started.elapsed().as_secs_f64(),
        solver,
    })
}

/// Total busy GPUs sampled at `points` evenly spaced times, as `(hours, GPUs)`.
fn downsample(timeline: &BusyTimeline, points: usize) -> Vec<(f64, u32)> {
    let Some(&end) = timeline.times.last() else { return Vec::new() };
    (0..=points)
        .map(|index| {
            let time = end * index as f64 / points as f64;
            (time / 3600.0, timeline.at(time).iter().sum())
        })
        .collect()
}

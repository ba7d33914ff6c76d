//! Command-line flags and the commands they run.

use anyhow::{Context as _, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use schedlab_cluster::{CompactCluster, PerfModel, ThroughputTable, TraceDuration, build};
use schedlab_core::{ClusterSpec, DataDir, PolicyEnv, Time};
use schedlab_experiment::RunOptions;
use schedlab_experiment::prepare::SpecSource;
use schedlab_sim::{MeasurementWindow, RunResult, SimConfig};
use schedlab_trace::TraceFormat;
use schedlab_trace::synthetic::{Arrivals, GavelStyle, JobTemplate};
use std::path::PathBuf;
use std::sync::Arc;

/// Benchmark and reproduce deep-learning cluster schedulers on heterogeneous GPU clusters.
#[derive(Debug, Parser)]
#[command(name = "schedlab", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run an experiment spec; results go to `results/<name>/`.
    Run(RunArgs),
    /// Run `experiments/NAME.yaml` (e.g. `schedlab reproduce philly`).
    Reproduce {
        /// Experiment name: `experiments/NAME.yaml`, and every `experiments/NAME-*.yaml` after it
        /// (so `gavel` runs gavel.yaml, gavel-makespan.yaml, gavel-multi.yaml).
        name: String,
        #[command(flatten)]
        options: RunFlags,
    },
    /// Validate a spec without running it: syntax, policies, metrics, data files.
    Check {
        /// The spec file.
        spec: PathBuf,
    },
    /// List policies, shipped experiments or trace formats.
    List {
        /// What to list.
        what: ListWhat,
    },
    /// List every registered policy with its parameters.
    Policies {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run one simulation on a built-in synthetic workload and print its metrics.
    Simulate(SimulateArgs),
    /// Download the public data files (with checksum verification) or check them.
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// Inspect trace files.
    Trace {
        #[command(subcommand)]
        command: TraceCommand,
    },
}

#[derive(Debug, Subcommand)]
enum DataCommand {
    /// Download missing or changed files into the data directory and verify their SHA-256.
    Fetch {
        /// Only files whose path starts with this (e.g. `philly/`).
        #[arg(long, default_value = "")]
        only: String,
        /// Where to put them (default: $SCHEDLAB_DATA, else ./data).
        #[arg(long)]
        dest: Option<PathBuf>,
        /// A sources list to use instead of the shipped traces/sources.json.
        #[arg(long)]
        sources: Option<PathBuf>,
    },
    /// Check the data directory's files against the recorded SHA-256s.
    Verify {
        /// The directory (default: the data directory).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
enum TraceCommand {
    /// Load a trace and print what was read, kept and left out, GPU sizes, durations, arrivals,
    /// VCs and users.
    Stats {
        /// Trace format (see `schedlab trace formats`).
        format: TraceFormat,
        /// The file (for alibaba-pai, pai_job_table.csv; the task table is read from beside it).
        path: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the supported trace formats.
    Formats,
}

/// What `schedlab list` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ListWhat {
    /// Registered policies.
    Policies,
    /// Specs in `experiments/`.
    Experiments,
    /// Trace formats.
    Formats,
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The spec file.
    spec: PathBuf,
    #[command(flatten)]
    options: RunFlags,
}

#[derive(Debug, clap::Args)]
struct RunFlags {
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Rerun runs already in the result store.
    #[arg(long)]
    force: bool,
    /// No progress bar or summary.
    #[arg(long)]
    quiet: bool,
    /// Exit with an error when a published claim is missed.
    #[arg(long)]
    strict: bool,
    /// Where experiment folders go.
    #[arg(long, default_value = "results")]
    results: PathBuf,
    /// Print the claims and files as JSON.
    #[arg(long)]
    json: bool,
}

/// How fast jobs run: the engine's ground truth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PerfChoice {
    /// Rigid jobs whose work is their duration; every GPU type runs at the same speed.
    Rigid,
    /// Gavel's measured throughputs (gavel/simulation_throughputs.json in the data directory).
    Gavel,
}

#[derive(Debug, clap::Args)]
struct SimulateArgs {
    /// Policy name with optional parameters, e.g. `fifo`, `las[quantum=60]`.
    #[arg(long, short)]
    policy: String,
    /// Cluster: `TYPE=GPUS,...` (e.g. `v100=36,p100=36,k80=36`), `philly[:TYPE]`
    /// (philly/philly_vc.csv), `pai` (Alibaba PAI 2020 machines) or `openb` (Alibaba 2023 nodes).
    #[arg(long, short, default_value = "v100=36,p100=36,k80=36")]
    cluster: String,
    /// GPUs per node for the `TYPE=GPUS` form.
    #[arg(long, default_value_t = 4)]
    gpus_per_node: u32,
    /// Number of jobs of the synthetic workload (Gavel's continuous generator).
    #[arg(long, default_value_t = 200)]
    jobs: usize,
    /// Mean arrivals per hour.
    #[arg(long, default_value_t = 20.0)]
    rate: f64,
    /// Only single-GPU jobs (Gavel's default); otherwise 1/2/4/8 GPUs with 70/10/15/5%.
    #[arg(long)]
    single_gpu: bool,
    /// Seed of the workload generator.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Ground-truth performance model.
    #[arg(long, value_enum, default_value_t = PerfChoice::Rigid)]
    perf: PerfChoice,
    /// Throughput file for `--perf gavel` (default: gavel/simulation_throughputs.json in the
    /// data directory, $SCHEDLAB_DATA or ../shared/data).
    #[arg(long)]
    throughputs: Option<PathBuf>,
    /// GPU type on which a job's duration is converted to steps for `--perf gavel`.
    #[arg(long, default_value = "v100")]
    reference: String,
    /// Seconds without progress after each restart or migration.
    #[arg(long, default_value_t = 0.0)]
    restart_overhead: f64,
    /// Measure only jobs FIRST..LAST (job indices, LAST excluded), e.g. `100..200`.
    #[arg(long)]
    window: Option<String>,
    /// Stop the simulation at this many seconds.
    #[arg(long)]
    max_time: Option<f64>,
    /// Check every engine invariant at every decision (slow).
    #[arg(long)]
    check: bool,
    /// Print the metrics as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Run(args) => run_spec(&args.spec, &args.options),
        Command::Reproduce { name, options } => {
            let family: Vec<String> = experiments()
                .into_iter()
                .filter(|experiment| *experiment == name || experiment.starts_with(&format!("{name}-")))
                .collect();
            if family.is_empty() {
                bail!(
                    "no experiment '{name}': experiments/{name}.yaml does not exist; shipped experiments: {}",
                    experiments().join(", ")
                );
            }
            // Run every member even if one fails (a strict claim miss, say), then report.
            let mut failures = Vec::new();
            for experiment in &family {
                let path = PathBuf::from("experiments").join(format!("{experiment}.yaml"));
                if let Err(error) = run_spec(&path, &options) {
                    eprintln!("error: {error:#}");
                    failures.push(experiment.clone());
                }
            }
            if !failures.is_empty() {
                bail!("{} of {} experiments failed: {}", failures.len(), family.len(), failures.join(", "));
            }
            Ok(())
        }
        Command::Check { spec } => {
            let (spec, source) = load_spec(&spec)?;
            schedlab_experiment::prepare::Setup::new(&spec, &schedlab_core::DataDir::locate(), &source)?;
            let runs = schedlab_experiment::plan::expand(&spec).len();
            println!(
                "{}: ok ({runs} runs: {} policies x {} seeds x {} sweep points)",
                source.origin,
                spec.policies.len(),
                spec.seeds.len(),
                runs / (spec.policies.len() * spec.seeds.len())
            );
            Ok(())
        }
        Command::List { what: ListWhat::Policies } => list_policies(false),
        Command::List { what: ListWhat::Experiments } => {
            for name in experiments() {
                println!("{name}");
            }
            Ok(())
        }
        Command::List { what: ListWhat::Formats } => {
            list_formats();
            Ok(())
        }
        Command::Policies { json } => list_policies(json),
        Command::Simulate(args) => simulate(&args),
        Command::Data { command: DataCommand::Fetch { only, dest, sources } } => data_fetch(&only, dest, sources),
        Command::Data { command: DataCommand::Verify { dir } } => data_verify(dir),
        Command::Trace { command: TraceCommand::Stats { format, path, json } } => trace_stats(format, &path, json),
        Command::Trace { command: TraceCommand::Formats } => {
            list_formats();
            Ok(())
        }
    }
}

fn data_fetch(only: &str, dest: Option<PathBuf>, sources: Option<PathBuf>) -> Result<()> {
    let sources = match sources {
        Some(path) => schedlab_data::Sources::parse(
            &std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?,
        )?,
        None => schedlab_data::Sources::builtin(),
    };
    let dest = dest
        .or_else(|| std::env::var_os(schedlab_core::datadir::DATA_ENV).map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("data"));
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg:40} {bar:30} {bytes}/{total_bytes} {bytes_per_sec}")
            .expect("valid template"),
    );
    let mut current = String::new();
    let report = schedlab_data::fetch(&sources, &dest, only, &mut |path, done, total| {
        if path != current {
            current = path.to_string();
            bar.set_message(current.clone());
            bar.set_length(total);
        }
        bar.set_position(done);
    })?;
    bar.finish_and_clear();
    let mut counts = (0, 0, 0);
    for (path, outcome) in &report {
        match outcome {
            schedlab_data::Fetched::Downloaded => counts.0 += 1,
            schedlab_data::Fetched::AlreadyPresent => counts.1 += 1,
            schedlab_data::Fetched::NoUrl(how) => {
                counts.2 += 1;
                println!("{path}: not downloadable: {how}");
            }
        }
    }
    println!(
        "{}: {} downloaded and verified, {} already present, {} to obtain by hand",
        dest.display(),
        counts.0,
        counts.1,
        counts.2
    );
    Ok(())
}

fn data_verify(dir: Option<PathBuf>) -> Result<()> {
    let Some(dir) = dir.or_else(|| schedlab_core::DataDir::locate().root().map(PathBuf::from)) else {
        bail!("no data directory found (looked in {})", schedlab_core::datadir::data_dir_candidates());
    };
    let results = schedlab_data::verify(&schedlab_data::Sources::builtin(), &dir)?;
    let mut bad = 0;
    for (file, state) in &results {
        match state {
            schedlab_data::FileState::Ok => {}
            schedlab_data::FileState::Missing => {
                bad += 1;
                println!("missing   {} ({})", file.path, file.source);
            }
            schedlab_data::FileState::Modified(found) => {
                bad += 1;
                println!("modified  {} (sha256 {found}, expected {})", file.path, file.sha256);
            }
        }
    }
    println!("{}: {} of {} files match their recorded SHA-256", dir.display(), results.len() - bad, results.len());
    if bad > 0 {
        bail!("{bad} data files are missing or modified; `schedlab data fetch` downloads them");
    }
    Ok(())
}

fn list_formats() {
    for format in TraceFormat::ALL {
        println!("{:18}{}", format.name(), format.description());
    }
}

/// Names of the specs in `experiments/`.
fn experiments() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("experiments")
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| entry.file_name().to_str().and_then(|name| name.strip_suffix(".yaml")).map(str::to_string))
        .collect();
    names.sort();
    names
}

fn load_spec(path: &std::path::Path) -> Result<(schedlab_experiment::ExperimentSpec, SpecSource)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read spec {}", path.display()))?;
    let origin = path.display().to_string();
    let spec = schedlab_experiment::ExperimentSpec::parse(&text, &origin)?;
    Ok((spec, SpecSource { origin, text }))
}

fn git_revision() -> Option<String> {
    let output = std::process::Command::new("git").args(["rev-parse", "HEAD"]).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

fn run_spec(path: &std::path::Path, flags: &RunFlags) -> Result<()> {
    let (spec, source) = load_spec(path)?;
    let options = RunOptions {
        threads: flags.threads,
        force: flags.force,
        quiet: flags.quiet,
        data_dir: schedlab_core::DataDir::locate(),
        results_dir: flags.results.clone(),
        source,
        git_revision: git_revision(),
    };
    let started = std::time::Instant::now();
    let result = schedlab_experiment::run_experiment(&spec, &options)?;
    let missed: Vec<&str> =
        result.claims.iter().filter(|claim| !claim.holds).map(|claim| claim.claim.text.as_str()).collect();
    if flags.json {
        let claims: Vec<serde_json::Value> = result
            .claims
            .iter()
            .map(|claim| serde_json::json!({"text": claim.claim.text, "expected": claim.claim.expected, "measured": claim.measured, "holds": claim.holds}))
            .collect();
        let output = serde_json::json!({"dir": result.dir, "ran": result.ran, "reused": result.reused, "files": result.files, "claims": claims});
        println!("{}", serde_json::to_string_pretty(&output)?);
    } else if !flags.quiet {
        println!(
            "{}: {} runs ({} run now, {} reused) in {:.1} s -> {}",
            spec.name,
            result.outcomes.len(),
            result.ran,
            result.reused,
            started.elapsed().as_secs_f64(),
            result.dir.display()
        );
        for table in &spec.tables {
            if let Ok(text) = std::fs::read_to_string(result.dir.join(format!("{}.md", table.name))) {
                println!("\n{text}");
            }
        }
        if !result.claims.is_empty() {
            println!("claims: {} of {} hold (see claims.md)", result.claims.len() - missed.len(), result.claims.len());
        }
    }
    if flags.strict && !missed.is_empty() {
        bail!("{} published claims missed: {}", missed.len(), missed.join("; "));
    }
    Ok(())
}

fn trace_stats(format: TraceFormat, path: &std::path::Path, json: bool) -> Result<()> {
    let trace = format.load(path)?;
    let stats = schedlab_trace::stats::stats(&trace);
    if json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
        return Ok(());
    }
    let pairs = |items: &[(String, usize)]| -> String {
        items.iter().map(|(key, count)| format!("{key}: {count}")).collect::<Vec<_>>().join(", ")
    };
    println!("{:<18}{} ({})", "trace", stats.path, stats.format);
    println!("{:<18}{} read, {} kept", "rows", stats.rows, stats.kept);
    for (reason, count) in &stats.dropped {
        println!("{:<18}{count} left out: {reason}", "");
    }
    println!("{:<18}{} (removed by the dedup transform)", "exact duplicates", stats.duplicates);
    println!("{:<18}{}", "GPUs -> jobs", pairs(&stats.gpu_histogram));
    if stats.duration_quantiles.is_empty() {
        println!("{:<18}not recorded", "duration");
    } else {
        let quantiles: Vec<String> =
            stats.duration_quantiles.iter().map(|(p, value)| format!("p{p}: {value:.0}")).collect();
        println!("{:<18}{} (seconds)", "duration", quantiles.join(", "));
    }
    println!(
        "{:<18}{} .. {} ({:.1} days)",
        "submitted",
        stats.first_submit,
        stats.last_submit,
        stats.span_seconds / 86_400.0
    );
    println!("{:<18}{}", "jobs per VC", pairs(&stats.per_vc));
    println!("{:<18}{} distinct; most jobs: {}", "users", stats.users, pairs(&stats.top_users));
    println!("{:<18}{}", "status", pairs(&stats.statuses));
    println!("{:<18}{:.0} bytes per job", "memory", stats.bytes_per_job);
    Ok(())
}

fn list_policies(json: bool) -> Result<()> {
    if json {
        let entries: Vec<serde_json::Value> = schedlab_zoo::entries()
            .map(|entry| {
                serde_json::json!({
                    "name": entry.name,
                    "description": entry.description,
                    "oracle": entry.oracle,
                    "params": entry.params_text(),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&entries)?);
        return Ok(());
    }
    let width = schedlab_zoo::entries().map(|entry| entry.name.len()).max().unwrap_or(0);
    for entry in schedlab_zoo::entries() {
        println!("{:width$}  {}", entry.name, entry.description);
        let params = entry.params_text();
        if !params.is_empty() {
            println!("{:width$}    params: {}", "", params);
        }
    }
    println!("Write parameters as NAME[key=value,...], e.g. las[quantum=60].");
    Ok(())
}

fn load_cluster(data: &DataDir, text: &str, gpus_per_node: u32) -> Result<Arc<ClusterSpec>> {
    let (name, option) = text.split_once(':').map_or((text, None), |(name, option)| (name, Some(option)));
    let spec = match name {
        "philly" => {
            let path = data.file("philly/philly_vc.csv")?;
            build::from_philly_vc(&path, option.unwrap_or("gpu"))?.0
        }
        "pai" => {
            let path = data.file("alibaba/pai-v2020/pai_machine_spec.csv")?;
            build::from_pai_machine_spec(&path)?.0
        }
        "openb" => {
            let path = data.file("alibaba/openb-v2023/openb_node_list_gpu_node.csv")?;
            build::from_openb_nodes(&path)?.0
        }
        _ => CompactCluster::parse(text, gpus_per_node)?.build()?,
    };
    Ok(Arc::new(spec))
}

fn parse_window(text: &str) -> Result<MeasurementWindow> {
    let Some((first, last)) = text.split_once("..") else {
        bail!("--window '{text}': expected FIRST..LAST job indices, e.g. 100..200");
    };
    let parse = |part: &str| {
        part.trim().parse::<u32>().with_context(|| format!("--window '{text}': '{part}' is not a job index"))
    };
    let (first, last) = (parse(first)?, parse(last)?);
    if first >= last {
        bail!("--window '{text}': FIRST must be smaller than LAST");
    }
    Ok(MeasurementWindow::Jobs { first, last })
}

fn simulate(args: &SimulateArgs) -> Result<()> {
    let data = DataDir::locate();
    let mut policy = schedlab_zoo::build(&args.policy, &PolicyEnv::new(data.clone()))?;
    let cluster = load_cluster(&data, &args.cluster, args.gpus_per_node)
        .with_context(|| format!("cluster '{}'", args.cluster))?;
    let (perf, templates): (Box<dyn PerfModel>, Vec<JobTemplate>) = match args.perf {
        PerfChoice::Rigid => (Box::new(TraceDuration::uniform()), Vec::new()),
        PerfChoice::Gavel => {
            let path = match &args.throughputs {
                Some(path) => path.clone(),
                None => data.file("gavel/simulation_throughputs.json")?,
            };
            let (table, _) = ThroughputTable::load(&path)?;
            let templates =
                schedlab_experiment::prepare::templates_of(&table, &args.reference).map_err(anyhow::Error::msg)?;
            (Box::new(table), templates)
        }
    };
    let generator = GavelStyle {
        jobs: args.jobs,
        arrivals: Arrivals::Poisson { rate_per_hour: args.rate },
        multi_gpu: !args.single_gpu,
        multi_priority: false,
        seed: args.seed,
        templates,
    };
    let jobs = generator.generate()?;
    let config = SimConfig {
        restart_overhead: args.restart_overhead,
        window: args.window.as_deref().map(parse_window).transpose()?.unwrap_or_default(),
        max_time: args.max_time.map(Time::from_secs),
        check_invariants: args.check,
        ..SimConfig::default()
    };
    let result = schedlab_sim::run(cluster.clone(), &jobs, perf.as_ref(), policy.as_mut(), &config)?;
    if args.json {
        let output = serde_json::json!({
            "policy": result.policy,
            "gpu_types": result.gpu_types,
            "metrics": result.metrics,
            "wall_time_s": result.wall_time.as_secs_f64(),
            "solver": result.solver,
        });
        println!("{}", serde_json::to_string_pretty(&output)?);
    } else {
        print_summary(args, &cluster, perf.as_ref(), &result);
    }
    Ok(())
}

fn hours(seconds: f64) -> String {
    format!("{:.2} h", seconds / 3600.0)
}

fn print_summary(args: &SimulateArgs, cluster: &ClusterSpec, perf: &dyn PerfModel, result: &RunResult) {
    let metrics = &result.metrics;
    let per_type: Vec<String> =
        cluster.gpu_types().iter().zip(cluster.gpus_per_type()).map(|(name, gpus)| format!("{name} {gpus}")).collect();
    let utilization: Vec<String> = result
        .gpu_types
        .iter()
        .zip(&metrics.utilization_per_type)
        .map(|(name, value)| format!("{name} {:.1}%", value * 100.0))
        .collect();
    let seconds = result.wall_time.as_secs_f64();
    let rows = [
        ("policy", result.policy.clone()),
        (
            "cluster",
            format!("{} GPUs on {} nodes ({})", cluster.total_gpus(), cluster.nodes().len(), per_type.join(", ")),
        ),
        (
            "workload",
            format!(
                "{} jobs, Gavel-style generator, {} jobs/h, {}, seed {}",
                args.jobs,
                args.rate,
                if args.single_gpu { "single-GPU" } else { "multi-GPU" },
                args.seed
            ),
        ),
        ("perf model", perf.describe()),
        ("jobs measured", format!("{} ({} finished)", metrics.jobs_measured, metrics.jobs_finished)),
        ("avg JCT", hours(metrics.avg_jct)),
        ("median JCT", hours(metrics.median_jct)),
        ("p95 / p99 JCT", format!("{} / {}", hours(metrics.p95_jct), hours(metrics.p99_jct))),
        ("avg queueing delay", hours(metrics.avg_queueing_delay)),
        ("avg waiting time", hours(metrics.avg_waiting_time)),
        ("makespan", hours(metrics.makespan)),
        ("utilisation", format!("{:.1}% ({})", metrics.utilization * 100.0, utilization.join(", "))),
        ("restarts", metrics.restarts.to_string()),
        ("events", format!("{} ({} decisions)", metrics.events, metrics.decisions)),
        (
            "wall time",
            format!("{:.1} ms ({:.0} events/s)", seconds * 1000.0, metrics.events as f64 / seconds.max(1e-9)),
        ),
    ];
    for (label, value) in rows {
        println!("{label:<20}{value}");
    }
    if let Some(solver) = &result.solver {
        println!(
            "{:<20}{} solves with {}, largest {} variables x {} constraints, {:.1} ms building + {:.1} ms solving",
            "LP solver",
            solver.solves,
            solver.backend,
            solver.max_variables,
            solver.max_constraints,
            solver.build_seconds * 1000.0,
            solver.solve_seconds * 1000.0
        );
    }
}

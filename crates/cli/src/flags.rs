//! Command-line flags: what each command takes, parsed by clap. No behaviour lives here.

use clap::{Parser, Subcommand, ValueEnum};
use schedlab_trace::TraceFormat;
use std::path::PathBuf;

/// Benchmark and reproduce deep-learning cluster schedulers on heterogeneous GPU clusters.
#[derive(Debug, Parser)]
#[command(name = "schedlab", version, about)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands; each has its own module.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run an experiment spec; results go to `results/<name>/`.
    Run(RunArgs),
    /// Run `experiments/NAME.yaml` (e.g. `schedlab reproduce philly`).
    Reproduce {
        /// Experiment name: `experiments/NAME.yaml`, and every `experiments/NAME-*.yaml` after it
        /// (so `gavel` runs gavel.yaml, gavel-makespan.yaml, gavel-multi.yaml); `all`: every spec in
        /// `experiments/`, in one queue of runs, longest first across specs.
        name: String,
        #[command(flatten)]
        options: RunFlags,
    },
    /// Write every table, plot, claims.md, index.html and the manifest from the result store, after
    /// the shards of a sweep (`run --shard I/N`) are done; names any shard whose runs are missing.
    Report(ReportArgs),
    /// Write a Slurm job array for a spec: one shard per array task, then a dependent task
    /// that runs `report` (files in `RESULTS/<name>/slurm/`; `sh submit.sh` submits both).
    Slurm(SlurmArgs),
    /// Time whole experiments as hyperfine times commands: warm-up runs, then repeated timed
    /// runs (every run recomputed, in a scratch folder that is removed; from the second
    /// repetition on, runs start longest first by the previous one's times, as `reproduce` orders
    /// them), with min / median / max per experiment and for the suite, at each thread count.
    Bench(BenchArgs),
    /// Validate a spec without running it: everything `run` reads and checks (syntax, policies,
    /// metrics, sweep values, data files, every trace row, the workload against the cluster and
    /// the perf model), without simulating.
    Check {
        /// The spec file.
        spec: PathBuf,
    },
    /// List policies (with their parameters), shipped experiments, trace formats or metrics.
    List {
        /// What to list.
        what: ListWhat,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Run one simulation on a built-in synthetic workload and print its metrics.
    Simulate(SimulateArgs),
    /// Scaffold `crates/policies/NAME`: a policy crate that builds, is listed, and runs in
    /// `experiments/quickstart.yaml`.
    NewPolicy {
        /// The policy's name: lowercase letters, digits and '-', starting with a letter.
        name: String,
        /// The workspace root (default: the current directory).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
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
    /// Train a learned policy's weights (needs a build with `--features train`).
    Train {
        #[command(subcommand)]
        what: TrainWhat,
    },
}

/// `schedlab train ...`.
#[derive(Debug, Subcommand)]
pub enum TrainWhat {
    /// RLTune's agent, by PPO on a spec's workload: writes OUT, OUT's manifest (`.manifest.json`)
    /// and its learning curve (`.learning-curve.png`). The same seed gives the same bytes.
    Rltune(TrainRltuneArgs),
    /// DL2's policy network: supervised on DRF's increments, then actor-critic, on DL2's
    /// generated workloads; writes OUT, OUT's manifest (`.manifest.json`), its learning curve
    /// (`.learning-curve.png`) and checkpoints (`.checkpoints/`). The same seed gives the same bytes.
    Dl2(TrainDl2Args),
}

/// `schedlab train dl2` flags: the defaults are DL2's settings (`parameters.py`) at a small
/// budget; `--builtin` trains the built-in weights.
#[derive(Debug, clap::Args)]
pub struct TrainDl2Args {
    /// The weights file to write (`.json`).
    #[arg(long)]
    pub out: PathBuf,
    /// Seed of traces, initialisation, shuffles, action draws and replay sampling.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The settings of the built-in weights (crates/policies/dl2/weights/dl2.manifest.json):
    /// with seed 0 this writes those weights byte for byte. Only `--seed` may be changed.
    #[arg(long, conflicts_with_all = [
        "sl_steps", "rl_steps", "validation_interval", "no_inject", "no_sl_shuffle", "epsilon_temperature",
        "normalise_inputs", "teacher", "sl_mask_skip", "skip_prior", "skip_prior_states", "reward", "entropy",
        "critic_warmup", "updates_per_slot", "train_traces", "validation_traces", "jobs", "nodes",
        "memory", "sl_memory", "batch", "sl_learning_rate", "rl_learning_rate", "entropy_weight", "anchor_weight",
        "anchor_divergence", "sl_temperature", "sl_learning_rate_end", "sl_labels",
    ])]
    pub builtin: bool,
    /// Supervised updates (DL2's parameters.py: 100,000).
    #[arg(long, default_value_t = 10_000)]
    pub sl_steps: usize,
    /// Reinforcement-learning updates (DL2's parameters.py: 1,000,000).
    #[arg(long, default_value_t = 6_000)]
    pub rl_steps: usize,
    /// Updates between validations on the 10 validation traces.
    #[arg(long, default_value_t = 2_000)]
    pub validation_interval: usize,
    /// Turn off the authors' exploration rules (`INJECT_SAMPLES`, on in DL2): an ablation.
    #[arg(long)]
    pub no_inject: bool,
    /// Show the supervised samples' window in arrival order, as the policy sees it, instead of
    /// shuffling its columns (`JOB_ORDER_SHUFFLE`, on in DL2's supervised mode only).
    #[arg(long)]
    pub no_sl_shuffle: bool,
    /// Turn on the authors' optional epsilon-greedy exploration (`EPSILON_GREEDY`, off in DL2)
    /// with this annealing temperature (their `ANNEALING_TEMPERATURE`: 500): an ablation.
    #[arg(long, value_parser = positive_number)]
    pub epsilon_temperature: Option<f64>,
    /// Scale each input row to about 0..1 (DL2: `INPUT_RESCALE = False`); the weights file has
    /// the scale folded into its first layer.
    #[arg(long)]
    pub normalise_inputs: bool,
    /// The supervised phase's teacher: `drf` (DL2's) or `slot-greedy` (not DL2's: an oracle
    /// that skips; a labelled variant).
    #[arg(long, default_value = "drf", value_parser = ["drf", "slot-greedy"])]
    pub teacher: String,
    /// Leave skip out of the supervised loss's softmax (DRF's labels never skip).
    #[arg(long)]
    pub sl_mask_skip: bool,
    /// After the supervised phase, set skip's output bias so that its mean probability on the
    /// supervised states is this (between 0 and 1).
    #[arg(long)]
    pub skip_prior: Option<f64>,
    /// Whose states `--skip-prior` is set on: `teacher` (the supervised memory's newest 1,024)
    /// or `own` (those the network meets scheduling 10 training traces itself, sampling).
    #[arg(long, default_value = "teacher", value_parser = ["teacher", "own"], requires = "skip_prior")]
    pub skip_prior_states: String,
    /// Each decision's reward: `slot` (DL2's), `job` (DL2's `TS_REWARD_PLUS_JOB_REWARD`),
    /// `marginal` (not DL2's: the change its own task made to the slot reward) or
    /// `marginal-to-go` (not DL2's: the slot reward's change from the decision to the slot's end).
    #[arg(long, default_value = "slot", value_parser = ["slot", "job", "marginal", "marginal-to-go"])]
    pub reward: String,
    /// The entropy term: `mean-over-actions` (DL2's code) or `per-sample` (the paper's formula).
    #[arg(long, default_value = "mean-over-actions", value_parser = ["mean-over-actions", "per-sample"])]
    pub entropy: String,
    /// Critic-only updates before the first policy update (DL2: 0).
    #[arg(long, default_value_t = 0)]
    pub critic_warmup: usize,
    /// Training traces, cycled (DL2: 100).
    #[arg(long, default_value_t = 100)]
    pub train_traces: usize,
    /// Validation traces (DL2: 10).
    #[arg(long, default_value_t = 10)]
    pub validation_traces: usize,
    /// Jobs per trace (DL2: 200).
    #[arg(long, default_value_t = 200)]
    pub jobs: usize,
    /// Nodes of 8 CPUs and 2 GPUs (DL2: 500).
    #[arg(long, default_value_t = 500)]
    pub nodes: usize,
    /// Replay memory size (DL2: 8,192).
    #[arg(long, default_value_t = 8192)]
    pub memory: usize,
    /// The supervised phase's memory size, when it differs from `--memory` (DL2: one size,
    /// 8,192, "or 65536").
    #[arg(long)]
    pub sl_memory: Option<usize>,
    /// Batch size (DL2: 256).
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Not DL2's: the weight of a penalty on moving away from the supervised phase's network in
    /// reinforcement learning, KL(pi_sl || pi) on each batch (0: none, as DL2).
    #[arg(long, default_value_t = 0.0)]
    pub anchor_weight: f64,
    /// Which divergence the anchor's penalty weighs: `forward`, KL(pi_sl || pi), or `reverse`,
    /// KL(pi || pi_sl), which makes mass on actions the supervised network gave little costly.
    #[arg(long, default_value = "forward", value_parser = ["forward", "reverse"])]
    pub anchor_divergence: String,
    /// Not DL2's: divide the supervised network's output logits by this before reinforcement
    /// learning and the skip prior (1: unchanged, as DL2): the same ranking of actions, with
    /// more entropy to explore from.
    #[arg(long, default_value_t = 1.0)]
    pub sl_temperature: f64,
    /// Supervised learning rate (DL2: 0.005).
    #[arg(long, default_value_t = 0.005)]
    pub sl_learning_rate: f64,
    /// Not DL2's (its rate is fixed): the supervised rate falls geometrically from
    /// `--sl-learning-rate` at the first update to this at the last.
    #[arg(long, value_parser = positive_number)]
    pub sl_learning_rate_end: Option<f64>,
    /// How the supervised phase labels the teacher's bundles: `tasks`, a worker then a server
    /// (DL2's), each of which the network's environment places on its own, or `bundles`, one
    /// bundle action placing both on one node as the teacher does (in DL2's `drf_env.py`,
    /// switched off there).
    #[arg(long, default_value = "tasks", value_parser = ["tasks", "bundles"])]
    pub sl_labels: String,
    /// Actor and critic learning rate (DL2: 1e-4).
    #[arg(long, default_value_t = 1e-4)]
    pub rl_learning_rate: f64,
    /// Entropy weight (DL2: 0.1).
    #[arg(long, default_value_t = 0.1)]
    pub entropy_weight: f64,
    /// Updates per slot once the memory is full (DL2: 1).
    #[arg(long, default_value_t = 1)]
    pub updates_per_slot: usize,
}

fn positive_number(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|value| value.is_finite() && *value > 0.0)
        .ok_or_else(|| format!("expected a positive number, got '{text}'"))
}

/// `schedlab train rltune` flags.
#[derive(Debug, clap::Args)]
pub struct TrainRltuneArgs {
    /// A built-in training setting: `philly` or `helios` (crates/policies/rltune/weights/NAME-train.yaml).
    #[arg(long, conflicts_with = "spec", required_unless_present = "spec")]
    pub trace: Option<String>,
    /// An experiment spec whose workload, cluster and perf model to train on (its first run).
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// The weights file to write (`.json`).
    #[arg(long)]
    pub out: PathBuf,
    /// Seed of initialisation, episode windows and action draws.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// PPO epochs (the paper: 100; the default is 100, or 20 for `--trace helios`).
    #[arg(long)]
    pub epochs: Option<usize>,
    /// Episodes per epoch (the paper: 100).
    #[arg(long, default_value_t = 100)]
    pub trajectories: usize,
    /// Independent trainings with seeds `--seed`, `--seed` + 1, ...; the one with the highest
    /// mean training reward over its last 5 epochs is kept (the default is 1, the authors'
    /// procedure, or 3 for `--trace helios`).
    #[arg(long)]
    pub candidates: Option<usize>,
    /// Episodes start below this job index; later jobs are held out (the authors: 10000; the
    /// default is 10000, or 4864 for `--trace helios`, whose evaluation starts at job 4864).
    #[arg(long)]
    pub slice: Option<usize>,
    /// What the agent lowers, the authors' `--score_type` 0-3: bounded slowdown, waiting time,
    /// turnaround time, or utilisation (raised).
    #[arg(long, default_value = "bsld", value_parser = ["bsld", "wait", "turnaround", "utilization"])]
    pub objective: String,
    /// Policy learning rate (the authors: 3e-4).
    #[arg(long)]
    pub pi_lr: Option<String>,
    /// The authors' trajectory filter (`build_sjf`, off in their scripts): keep a drawn window
    /// only if SJF's mean bounded slowdown of it lies strictly between LOW and HIGH (theirs:
    /// 10..150).
    #[arg(long, value_name = "LOW..HIGH")]
    pub filter: Option<String>,
    /// Normalise advantages over the decisions with more than one job to choose from only.
    #[arg(long)]
    pub normalise_multi_choice: bool,
    /// GAE's lambda, between 0 and 1 (the authors: 0.97). At 1 every decision's advantage is
    /// its episode's reward minus the critic's value of its own state.
    #[arg(long)]
    pub lambda: Option<f64>,
}

/// `schedlab data ...`.
#[derive(Debug, Subcommand)]
pub enum DataCommand {
    /// Download missing or changed files into the data directory and verify their SHA-256.
    Fetch {
        /// Only files whose path starts with this (e.g. `philly/`).
        #[arg(long, default_value = "")]
        only: String,
        /// Where to put them (default: $SCHEDLAB_DATA, else ./data).
        #[arg(long)]
        dest: Option<PathBuf>,
        /// A sources list to use instead of the shipped traces/sources.json (default:
        /// $SCHEDLAB_SOURCES if set).
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

/// `schedlab trace ...`.
#[derive(Debug, Subcommand)]
pub enum TraceCommand {
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
    /// Build one run's workload of a spec (generator or trace, with its model) and write it as a
    /// Gavel `.trace` (10 columns, formatted as Gavel's driver writes them), to compare with
    /// traces Gavel's simulator writes (`--output_trace_file_name`) or to replay in it.
    Export {
        /// The experiment spec.
        spec: PathBuf,
        /// The spec seed whose workload to write.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The sweep point, `AXIS=VALUE,...` (e.g. `rate_per_hour=5.2`); default: the first.
        #[arg(long)]
        point: Option<String>,
        /// Write only the first N jobs.
        #[arg(long)]
        jobs: Option<usize>,
        /// The file to write (`-` for stdout).
        #[arg(long)]
        out: PathBuf,
    },
}

/// What `schedlab list` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ListWhat {
    /// Registered policies.
    Policies,
    /// Specs in `experiments/`.
    Experiments,
    /// Trace formats.
    Formats,
    /// Metrics that tables, plots and claims can name, each with its unit and definition.
    Metrics,
}

/// `schedlab run SPEC`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The spec file.
    pub spec: PathBuf,
    #[command(flatten)]
    pub options: RunFlags,
}

/// Flags of `run` and `reproduce`.
#[derive(Debug, clap::Args)]
pub struct RunFlags {
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Rerun runs already in the result store.
    #[arg(long)]
    pub force: bool,
    /// No progress bar or summary.
    #[arg(long)]
    pub quiet: bool,
    /// Exit with an error when a published claim is missed, and refuse data files whose
    /// SHA-256 differs from the one recorded in traces/sources.json.
    #[arg(long)]
    pub strict: bool,
    /// Where experiment folders go.
    #[arg(long, default_value = "results")]
    pub results: PathBuf,
    /// Print the claims and files as JSON.
    #[arg(long)]
    pub json: bool,
    /// Run only part I (from 0) of N of the runs, chosen deterministically and balanced by
    /// job count, into the result store, without reports; `schedlab report` builds them once
    /// every shard is stored (e.g. `--shard $SLURM_ARRAY_TASK_ID/8`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<schedlab_experiment::Shard>,
    /// Never download: a missing data file is an error saying how to get it (by default,
    /// files with a public URL are downloaded into the data directory, or ./data, and verified;
    /// $SCHEDLAB_SOURCES names a sources list to use instead of traces/sources.json).
    #[arg(long)]
    pub offline: bool,
    /// With adaptive seeds: start no further look whose expected time would take this command
    /// past DURATION of wall time (`30m`, `90s`, `2h`); the claims left open stay inconclusive
    /// and are named. The first look, and specs with fixed seeds, always run.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub budget: Option<std::time::Duration>,
}

/// A duration: a number with `s`, `m` or `h` (`30m`).
fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let (number, unit) = text.split_at(text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len()));
    let seconds = match unit {
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("'{text}': expected a number and a unit, s, m or h (e.g. 30m)")),
    };
    let value: f64 = number.parse().map_err(|_| format!("'{text}': expected a number before the unit (e.g. 30m)"))?;
    if !value.is_finite() || value <= 0.0 {
        return Err(format!("'{text}': expected a positive duration"));
    }
    Ok(std::time::Duration::from_secs_f64(value * seconds))
}

/// `schedlab report SPEC`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The spec file.
    pub spec: PathBuf,
    /// Where experiment folders are.
    #[arg(long, default_value = "results")]
    pub results: PathBuf,
    /// Threads to rebuild the workloads with (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Exit with an error when a published claim is missed.
    #[arg(long)]
    pub strict: bool,
    /// No summary.
    #[arg(long)]
    pub quiet: bool,
}

/// `schedlab slurm SPEC --array N`.
#[derive(Debug, clap::Args)]
pub struct SlurmArgs {
    /// The spec file.
    pub spec: PathBuf,
    /// Array tasks: the sweep is split into this many shards.
    #[arg(long)]
    pub array: usize,
    /// Slurm partition (default: the cluster's default partition).
    #[arg(long)]
    pub partition: Option<String>,
    /// Time limit of each task, in a form sbatch takes (e.g. `2:00:00`).
    #[arg(long)]
    pub time: Option<String>,
    /// CPUs per array task (each shard runs that many threads).
    #[arg(long, default_value_t = 2)]
    pub cpus_per_task: usize,
    /// Memory per array task, in a form sbatch takes (e.g. `8G`; default: the cluster's).
    #[arg(long)]
    pub mem: Option<String>,
    /// Extra `#SBATCH` lines for both scripts, one sbatch option each: `--sbatch=--account=lab`
    /// (or `--sbatch='#SBATCH --account=lab'`).
    #[arg(long)]
    pub sbatch: Vec<String>,
    /// Where experiment folders go (the store every task writes to: a shared file system).
    #[arg(long, default_value = "results")]
    pub results: PathBuf,
}

/// `schedlab bench TARGET`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// A spec file, or an experiment family as `reproduce` takes it (e.g. `gavel`).
    pub target: String,
    /// Untimed runs of the whole suite before the timed ones.
    #[arg(long, default_value_t = 1)]
    pub warmup: usize,
    /// Timed runs of the whole suite (per thread count).
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
    /// Thread counts to time, comma-separated (e.g. `1,2`; 0 = one per core).
    #[arg(long, value_delimiter = ',', default_value = "0")]
    pub threads: Vec<usize>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// How fast jobs run: the engine's ground truth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PerfChoice {
    /// Rigid jobs whose work is their duration; every GPU type runs at the same speed.
    Rigid,
    /// Gavel's measured throughputs (gavel/simulation_throughputs.json in the data directory).
    Gavel,
}

/// `schedlab simulate`.
#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    /// Policy name with optional parameters, e.g. `fifo`, `las[quantum=60]`.
    #[arg(long, short)]
    pub policy: String,
    /// Cluster: `TYPE=GPUS,...` (e.g. `v100=36,p100=36,k80=36`), `philly[:TYPE]`
    /// (philly/philly_vc.csv, pooled), `pai` (Alibaba PAI 2020 machines) or `openb` (Alibaba
    /// 2023 nodes).
    #[arg(long, short, default_value = "v100=36,p100=36,k80=36")]
    pub cluster: String,
    /// GPUs per node for the `TYPE=GPUS` form.
    #[arg(long, default_value_t = 4)]
    pub gpus_per_node: u32,
    /// Number of jobs of the synthetic workload (Gavel's continuous generator).
    #[arg(long, default_value_t = 200)]
    pub jobs: usize,
    /// Mean arrivals per hour.
    #[arg(long, default_value_t = 20.0)]
    pub rate: f64,
    /// Only single-GPU jobs (Gavel's default); otherwise 1/2/4/8 GPUs with 70/10/15/5%.
    #[arg(long)]
    pub single_gpu: bool,
    /// Seed: the workload is drawn with the seed an experiment named `simulate` derives from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Ground-truth performance model.
    #[arg(long, value_enum, default_value_t = PerfChoice::Rigid)]
    pub perf: PerfChoice,
    /// Throughput file for `--perf gavel` (default: gavel/simulation_throughputs.json in the
    /// data directory, $SCHEDLAB_DATA or ../shared/data).
    #[arg(long)]
    pub throughputs: Option<PathBuf>,
    /// GPU type on which a job's duration is converted to steps for `--perf gavel`.
    #[arg(long, default_value = "v100")]
    pub reference: String,
    /// Seconds without progress after each restart or migration.
    #[arg(long, default_value_t = 0.0)]
    pub restart_overhead: f64,
    /// Measure only jobs FIRST..LAST (job indices, LAST excluded), e.g. `100..200`.
    #[arg(long)]
    pub window: Option<String>,
    /// Stop the simulation at this many seconds.
    #[arg(long)]
    pub max_time: Option<f64>,
    /// Check every engine invariant at every decision (slow).
    #[arg(long)]
    pub check: bool,
    /// Print the metrics as JSON.
    #[arg(long)]
    pub json: bool,
}

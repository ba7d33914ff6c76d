//! The parallel sweep runner.

use crate::axis::Axis;
use crate::identity::Identity;
pub use crate::identity::{data_file_hashes, modified_data_files, sha256_hex};
use crate::lock::{Access, StoreLock};
use crate::plan::RunPlan;
use crate::prepare::PreparedWorkload;
use crate::resolve::Experiment;
use crate::shard::{self, Shard};
use crate::store::{RunOutcome, Store};
use crate::{ExperimentError, report};
use rayon::prelude::*;
use schedlab_sim::metrics::summarize;
use schedlab_sim::{BusyTimeline, JobRecord, JobTimeline, RunMetrics, SimConfig};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// How to run an experiment.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads; 0 lets rayon choose (one per core).
    pub threads: usize,
    /// Rerun runs already in the store.
    pub force: bool,
    /// Where `<name>/` goes (usually `results/`).
    pub results_dir: PathBuf,
    /// The git revision, for the manifest.
    pub git_revision: Option<String>,
    /// The recorded SHA-256 of data files by path inside the data directory (the binary gives
    /// `traces/sources.json`'s): a file used with another checksum is warned about and listed
    /// in the manifest.
    pub known_checksums: BTreeMap<String, String>,
    /// Refuse to run with a data file whose checksum differs from its recorded one.
    pub strict_data: bool,
    /// Run only this shard's runs and write no reports (see [`report_experiment`]).
    pub shard: Option<Shard>,
    /// Set by the embedding program to stop: runs not yet started are skipped, the ones under way
    /// finish and are stored, and the run ends with an error saying so (the Python module sets
    /// it on Ctrl-C).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// With adaptive seeds: start no further look whose expected time would take this
    /// invocation past this much wall time (the first look, and fixed seeds, always run).
    pub budget: Option<std::time::Duration>,
    /// Runs each worker thread's whole life inside a wrapper of the embedding program's (the
    /// Python module keeps a Python thread state for the thread's lifetime, so that a Python
    /// policy's calls do not create and free one each).
    pub worker: Option<WorkerWrapper>,
}

/// A worker thread's body, as [`WorkerWrapper`] receives it.
pub type WorkerBody<'a> = &'a mut (dyn FnMut() + Send);

/// A wrapper around a worker thread's body: it must call the function it is given, once.
#[derive(Clone)]
pub struct WorkerWrapper(pub std::sync::Arc<dyn Fn(WorkerBody<'_>) + Send + Sync>);

impl std::fmt::Debug for WorkerWrapper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WorkerWrapper")
    }
}

/// What the runner reports while it works; the binary renders it (the library never prints).
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// About to run `to_run` runs; `reused` were found in the store.
    Started {
        /// Runs to compute now.
        to_run: usize,
        /// Runs reused from the store.
        reused: usize,
        /// The runs' expected seconds in all, from earlier times where known (otherwise from job
        /// counts, in the units of the known times, or jobs when none is known): a measure of
        /// the work to do, for a progress bar.
        expected_s: f64,
    },
    /// One run finished and is stored.
    Finished {
        /// Runs finished so far in this invocation.
        done: usize,
        /// The experiment's name.
        experiment: &'a str,
        /// The run's key.
        key: &'a str,
        /// Its wall-clock seconds.
        wall_time_s: f64,
        /// Its expected seconds, in the units of [`Progress::Started`]'s `expected_s`.
        expected_s: f64,
    },
    /// An experiment with adaptive seeds or episodes starts a look: `open` claims are not
    /// settled yet, and `runs` runs take their runs to `count` seeds or episodes (`unit`).
    Look {
        /// The experiment's name.
        experiment: &'a str,
        /// The look's seeds or episodes.
        count: u64,
        /// What the looks add: "seeds" or "episodes".
        unit: &'static str,
        /// Claims not settled by the looks before (all of them at the first).
        open: usize,
        /// Runs the look adds.
        runs: usize,
    },
    /// Something the user should know that does not stop the run.
    Warning(&'a str),
}

/// A progress callback that ignores everything.
pub fn no_progress(_: Progress<'_>) {}

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
    /// Runs reused from the store, or copied from another experiment's (the same run).
    pub reused: usize,
    /// Files written, relative to `dir`.
    pub files: Vec<String>,
    /// Each table's name and Markdown.
    pub tables: Vec<(String, String)>,
    /// Whether adaptive seeds stopped before their claims were settled because the next look
    /// would have taken the invocation past [`RunOptions::budget`].
    pub budget_stopped: bool,
}

fn thread_pool(threads: usize, worker: Option<&WorkerWrapper>) -> Result<rayon::ThreadPool, ExperimentError> {
    let builder = rayon::ThreadPoolBuilder::new().num_threads(threads);
    let built = match worker {
        None => builder.build(),
        Some(wrapper) => {
            let wrapper = wrapper.clone();
            builder
                .spawn_handler(move |thread| {
                    let wrapper = wrapper.clone();
                    let mut thread = Some(thread);
                    std::thread::Builder::new().spawn(move || {
                        (wrapper.0)(&mut || {
                            if let Some(thread) = thread.take() {
                                thread.run();
                            }
                        })
                    })?;
                    Ok(())
                })
                .build()
        }
    };
    built.map_err(|error| ExperimentError::Stopped(format!("no worker threads: {error}")))
}

/// The workload reports of the manifest in `dir`, if it was written for the same inputs
/// (`spec_hash`); nothing otherwise (no manifest, another spec, an unreadable file).
fn previous_workload_reports(dir: &Path, spec_hash: &str) -> Vec<(String, Vec<String>)> {
    let Ok(text) = std::fs::read_to_string(dir.join("manifest.json")) else { return Vec::new() };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else { return Vec::new() };
    if value["spec_hash"].as_str() != Some(spec_hash) {
        return Vec::new();
    }
    serde_json::from_value(value["workload_report"].clone()).unwrap_or_default()
}

/// Builds each workload of `plans` once (shared by every policy at that sweep point and seed).
fn build_workloads(
    pool: &rayon::ThreadPool,
    experiment: &Experiment,
    plans: &[&RunPlan],
) -> Result<BTreeMap<String, PreparedWorkload>, ExperimentError> {
    let mut workload_plans: BTreeMap<&str, &RunPlan> = BTreeMap::new();
    for plan in plans {
        workload_plans.entry(plan.workload_key.as_str()).or_insert(plan);
    }
    pool.install(|| {
        workload_plans
            .par_iter()
            .map(|(key, plan)| {
                experiment.setup.workload(&experiment.inputs.workload, plan).map(|workload| (key.to_string(), workload))
            })
            .collect()
    })
}

/// The shard of each of `plans` when split `count` ways, balanced by the number of jobs in each
/// run's workload ([`shard::assign`]): a pure function of the experiment and its data.
fn shards_of(plans: &[RunPlan], workloads: &BTreeMap<String, PreparedWorkload>, count: usize) -> Vec<usize> {
    let costs: Vec<u64> = plans.iter().map(|plan| workloads[&plan.workload_key].jobs.len() as u64).collect();
    shard::assign(&costs, count)
}

/// Runs every run of the experiment not already stored (calling `progress` as runs finish, from
/// worker threads), then writes the reports. With [`RunOptions::shard`], runs only that shard's
/// runs and writes its record (`shards/I-of-N.json`) instead of the reports: [`report_experiment`]
/// builds them once every shard is stored.
pub fn run_experiment(
    experiment: &Experiment,
    options: &RunOptions,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<ExperimentResult, ExperimentError> {
    let mut results = run_experiments(std::slice::from_ref(experiment), options, progress);
    results.pop().expect("one result per experiment")
}

/// [`run_experiment`] for several experiments at once: every run not already stored, of all of
/// them, goes into one queue, longest expected first across experiments (so that both a long run
/// of one experiment and the short runs of another keep every thread busy to the end), then each
/// experiment's reports are written in the order given (an experiment whose plots read others'
/// results goes after them). Returns one result per experiment, in the same order: an experiment
/// that cannot start (a held lock, a failing workload) fails alone, and the others run.
pub fn run_experiments(
    experiments: &[Experiment],
    options: &RunOptions,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Vec<Result<ExperimentResult, ExperimentError>> {
    let pool = match thread_pool(options.threads, options.worker.as_ref()) {
        Ok(pool) => pool,
        Err(error) => {
            let message = error.to_string();
            return experiments.iter().map(|_| Err(ExperimentError::Stopped(message.clone()))).collect();
        }
    };
    let warn = |message: &str| progress(Progress::Warning(message));
    let mut pending: Vec<Result<Pending<'_>, ExperimentError>> =
        experiments.iter().map(|experiment| Pending::prepare(experiment, options, &pool, &warn)).collect();
    let done = AtomicUsize::new(0);
    // Once a result cannot be saved (a full disk, say), runs not yet started are skipped: their
    // results could not be kept either.
    let save_failed = std::sync::atomic::AtomicBool::new(false);
    let started = std::time::Instant::now();
    // Rounds: everything fixed seeds need and the first look of adaptive seeds, then each
    // further look of the adaptive experiments whose claims are still open.
    for round in 0.. {
        for slot in pending.iter_mut() {
            if let Ok(experiment) = slot
                && let Err(error) = experiment.next_round(&pool, options, progress)
            {
                *slot = Err(error);
            }
        }
        if let Some(budget) = options.budget.filter(|_| round > 0) {
            // Looks whose expected time fits what is left of the budget, cheapest first.
            let threads = pool.current_num_threads().max(1) as f64;
            let mut left = budget.as_secs_f64() - started.elapsed().as_secs_f64();
            let mut looks: Vec<(f64, &mut Pending<'_>)> = pending
                .iter_mut()
                .filter_map(|slot| slot.as_mut().ok())
                .filter(|pending| !pending.todo.is_empty())
                .map(|pending| (pending.round_expected_s() / threads, pending))
                .collect();
            looks.sort_by(|a, b| a.0.total_cmp(&b.0));
            for (expected, pending) in looks {
                if expected <= left {
                    left -= expected;
                } else {
                    pending.stop_for_budget();
                    progress(Progress::Warning(&format!(
                        "{}: the look would take about {expected:.0} s more, past the budget ({:.0} s left): no more {}; its open claims stay inconclusive",
                        pending.experiment.name(),
                        left.max(0.0),
                        pending.experiment.adaptive.as_ref().map_or("seeds", |looks| looks.unit_name())
                    )));
                }
            }
        }
        // The experiments with runs this round, and where each stands in `pending`.
        let (positions, ready): (Vec<usize>, Vec<&Pending<'_>>) = pending
            .iter()
            .enumerate()
            .filter_map(|(position, pending)| pending.as_ref().ok().map(|pending| (position, pending)))
            .filter(|(_, pending)| !pending.todo.is_empty())
            .unzip();
        if ready.is_empty() {
            break;
        }
        // Every run to compute, as (experiment, run), longest expected first across experiments.
        // A run two experiments share (the same content hash) is computed once, for the first
        // of them, and copied to the others' stores after.
        let mut queue: Vec<(usize, usize, f64)> = Vec::new();
        let hashes: Vec<Vec<String>> = ready
            .iter()
            .map(|pending| {
                let setup = &pending.experiment.setup;
                pending.todo.iter().map(|&plan| pending.identity.run_hash(setup, &pending.plans[plan])).collect()
            })
            .collect();
        let mut first_of: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        let mut copies: Vec<((usize, usize), (usize, usize))> = Vec::new();
        for (which, pending) in ready.iter().enumerate() {
            let jobs: Vec<usize> = pending
                .todo
                .iter()
                .map(|&plan| pending.workloads[&pending.plans[plan].workload_key].jobs.len())
                .collect();
            for (run, expected) in expected_times(&pending.previous_times, &jobs).into_iter().enumerate() {
                match first_of.entry(hashes[which][run].as_str()) {
                    std::collections::btree_map::Entry::Occupied(first) => copies.push(((which, run), *first.get())),
                    std::collections::btree_map::Entry::Vacant(slot) => {
                        slot.insert((which, run));
                        queue.push((which, run, expected));
                    }
                }
            }
        }
        queue.sort_by(|a, b| b.2.total_cmp(&a.2).then((a.0, a.1).cmp(&(b.0, b.1))));
        let reused = ready.iter().map(|pending| pending.reused).sum();
        progress(Progress::Started { to_run: queue.len(), reused, expected_s: queue.iter().map(|run| run.2).sum() });
        let next = AtomicUsize::new(0);
        // Per run: nothing yet, or its outcome (`None` when skipped after a failed save).
        type Slot = std::sync::Mutex<Option<Result<Option<RunOutcome>, ExperimentError>>>;
        let slots: Vec<Vec<Slot>> =
            ready.iter().map(|pending| pending.todo.iter().map(|_| std::sync::Mutex::new(None)).collect()).collect();
        // Each thread takes the next run when it is free. Outcomes are keyed, so the order changes
        // nothing in the results.
        pool.scope(|scope| {
            for _ in 0..pool.current_num_threads() {
                scope.spawn(|_| {
                    loop {
                        let position = next.fetch_add(1, Ordering::SeqCst);
                        let Some(&(which, run, expected_s)) = queue.get(position) else { break };
                        let pending = ready[which];
                        let plan = &pending.plans[pending.todo[run]];
                        let cancelled = options.cancel.as_ref().is_some_and(|cancel| cancel.load(Ordering::SeqCst));
                        let result = if cancelled || save_failed.load(Ordering::SeqCst) {
                            Ok(None)
                        } else {
                            let workload = &pending.workloads[&plan.workload_key];
                            let hash = hashes[which][run].clone();
                            run_one(pending.experiment, workload, plan, hash, false).and_then(|outcome| {
                                if let Err(error) = pending.store.save(&outcome) {
                                    save_failed.store(true, Ordering::SeqCst);
                                    return Err(error);
                                }
                                let done = done.fetch_add(1, Ordering::SeqCst) + 1;
                                progress(Progress::Finished {
                                    done,
                                    experiment: pending.experiment.name(),
                                    key: &outcome.key,
                                    wall_time_s: outcome.wall_time_s,
                                    expected_s,
                                });
                                Ok(Some(outcome))
                            })
                        };
                        *slots[which][run].lock().expect("no panics while holding the lock") = Some(result);
                    }
                });
            }
        });
        // The shared runs' copies: stored in each experiment's own folder, counted as reused.
        let mut copied = vec![0; ready.len()];
        for &((which, run), (first, first_run)) in &copies {
            let result = match slots[first][first_run].lock().expect("no panics while holding the lock").as_ref() {
                Some(Ok(Some(outcome))) => ready[which].store.save(outcome).map(|()| Some(outcome.clone())),
                Some(Ok(None)) => Ok(None),
                Some(Err(error)) => Err(ExperimentError::Stopped(format!(
                    "{} shares run {} with {}, where it failed: {error}",
                    ready[which].experiment.name(),
                    ready[which].plans[ready[which].todo[run]].key,
                    ready[first].experiment.name()
                ))),
                None => unreachable!("every run was taken"),
            };
            copied[which] += 1;
            *slots[which][run].lock().expect("no panics while holding the lock") = Some(result);
        }
        drop(ready);
        let failed = save_failed.load(Ordering::SeqCst);
        for ((position, runs), copied) in positions.into_iter().zip(slots).zip(copied) {
            let results = runs
                .into_iter()
                .map(|slot| slot.into_inner().expect("no panics while holding the lock").expect("every run was taken"));
            let slot = &mut pending[position];
            let experiment = slot.as_mut().expect("ready experiments are pending");
            if let Err(error) = experiment.take(results, failed) {
                *slot = Err(error);
            } else {
                experiment.ran -= copied;
                experiment.reused += copied;
            }
        }
    }
    pending.into_iter().map(|pending| pending?.finish(options)).collect()
}

/// One experiment from preparing to writing its reports: its store (locked), its runs so far,
/// and the runs of the current round.
struct Pending<'a> {
    experiment: &'a Experiment,
    store: Store,
    _lock: StoreLock,
    identity: Identity,
    /// Every run planned (with a shard, the shard's).
    plans: Vec<RunPlan>,
    /// The runs stored with the current inputs (or computed now), by key.
    outcomes: BTreeMap<String, RunOutcome>,
    /// Runs reused from the store, and computed now.
    reused: usize,
    ran: usize,
    /// Each run's wall time when it ran before (stored with other inputs, or in the folder's
    /// last manifest), by key, for the order of runs.
    previous: BTreeMap<String, f64>,
    /// The current round: indices into `plans`, their previous times, and their workloads.
    todo: Vec<usize>,
    previous_times: Vec<Option<f64>>,
    workloads: BTreeMap<String, PreparedWorkload>,
    /// With a shard: its workloads, built to weigh the runs, for its round to use.
    prebuilt: BTreeMap<String, PreparedWorkload>,
    /// The reports of the workloads built so far, for the manifest.
    reports: BTreeMap<String, Vec<String>>,
    /// Proof-backed bounds of the workloads looked at so far (adaptive seeds with bounds).
    relaxations: crate::relaxation::Relaxations,
    /// With a shard and adaptive seeds: the other shards' runs stored with the current inputs.
    others: BTreeMap<String, RunOutcome>,
    /// Rounds started; no more once the experiment needs none.
    rounds: usize,
    finished: bool,
    /// Whether the budget stopped its looks.
    budget_stopped: bool,
}

impl<'a> Pending<'a> {
    /// Locks the store and finds the runs stored with the current inputs (with a shard: weighs
    /// every run by its workload and keeps this shard's).
    fn prepare(
        experiment: &'a Experiment,
        options: &RunOptions,
        pool: &rayon::ThreadPool,
        warn: &dyn Fn(&str),
    ) -> Result<Pending<'a>, ExperimentError> {
        let setup = &experiment.setup;
        let store = Store::open(&options.results_dir.join(experiment.name()))?;
        let access = options.shard.map_or(Access::Whole, Access::Shard);
        let lock = StoreLock::acquire(store.dir(), access)?;
        let identity = Identity::new(experiment, &options.known_checksums, options.strict_data, warn)?;
        let mut plans = experiment.runs();
        let mut others = BTreeMap::new();
        let mut workloads = BTreeMap::new();
        if let Some(selected) = options.shard {
            // Every workload is built to weigh the runs, so that each shard computes the same split.
            workloads = build_workloads(pool, experiment, &plans.iter().collect::<Vec<_>>())?;
            let shard_of = shards_of(&plans, &workloads, selected.count);
            let (mine, theirs): (Vec<_>, Vec<_>) =
                plans.into_iter().zip(shard_of).partition(|(_, shard)| *shard == selected.index);
            plans = mine.into_iter().map(|(plan, _)| plan).collect();
            // The shard's own workloads stay built for its rounds.
            workloads.retain(|key, _| plans.iter().any(|plan| plan.workload_key == *key));
            // Adaptive seeds judge the looks on every shard's runs.
            if experiment.adaptive.is_some() {
                for (plan, _) in theirs {
                    if let Some(outcome) = store.load(&plan.key, &identity.run_hash(setup, &plan)) {
                        others.insert(plan.key.clone(), outcome);
                    }
                }
            }
        }
        let mut previous = previous_wall_times(store.dir());
        let mut outcomes = BTreeMap::new();
        // Another experiment of the results folder may hold the same run (same key, same
        // content hash: the same inputs, data and tool): it is copied, not run again.
        let siblings = if options.force { Vec::new() } else { store.siblings() };
        for plan in &plans {
            let hash = identity.run_hash(setup, plan);
            let stored = store.stored(&plan.key);
            let current = stored
                .as_ref()
                .is_some_and(|outcome| outcome.content_hash == hash && outcome.format == crate::store::STORE_FORMAT);
            match stored {
                Some(outcome) if current && !options.force => {
                    outcomes.insert(plan.key.clone(), outcome);
                    continue;
                }
                Some(outcome) => {
                    previous.insert(plan.key.clone(), outcome.wall_time_s);
                }
                None => {}
            }
            if let Some(outcome) = siblings.iter().find_map(|sibling| sibling.load(&plan.key, &hash)) {
                store.save(&outcome)?;
                outcomes.insert(plan.key.clone(), outcome);
            }
        }
        Ok(Pending {
            experiment,
            store,
            _lock: lock,
            identity,
            plans,
            reused: outcomes.len(),
            outcomes,
            ran: 0,
            previous,
            todo: Vec::new(),
            previous_times: Vec::new(),
            workloads: BTreeMap::new(),
            prebuilt: workloads,
            reports: BTreeMap::new(),
            relaxations: crate::relaxation::Relaxations::new(),
            others,
            rounds: 0,
            finished: false,
            budget_stopped: false,
        })
    }

    /// Chooses the next round's runs and builds their workloads: with fixed seeds, every run not
    /// stored (once); with adaptive seeds, the runs the next look needs ([`crate::adaptive`]),
    /// until none (with a shard: this shard's share of the current look's runs).
    fn next_round(
        &mut self,
        pool: &rayon::ThreadPool,
        options: &RunOptions,
        progress: &(dyn Fn(Progress<'_>) + Sync),
    ) -> Result<(), ExperimentError> {
        self.todo.clear();
        self.previous_times.clear();
        self.workloads.clear();
        if self.finished {
            return Ok(());
        }
        let wanted: Vec<usize> = match &self.experiment.adaptive {
            None => {
                self.finished = true;
                (0..self.plans.len()).filter(|&index| !self.outcomes.contains_key(&self.plans[index].key)).collect()
            }
            Some(looks) => {
                let replay = self.replay()?;
                let keys: std::collections::BTreeSet<&str> = replay.next.iter().map(|plan| plan.key.as_str()).collect();
                let wanted: Vec<usize> =
                    (0..self.plans.len()).filter(|&index| keys.contains(self.plans[index].key.as_str())).collect();
                // With a shard, the other shards' runs of the look are theirs: the shard stops
                // once its own are done.
                if wanted.is_empty() || (options.shard.is_some() && self.rounds > 0) {
                    self.finished = true;
                    return Ok(());
                }
                let look = replay.look.map_or(0, |look| look + 1);
                let open = if replay.claims.is_empty() {
                    self.experiment.report.claims.len()
                } else {
                    replay.claims.iter().filter(|claim| !crate::adaptive::settles(&claim.verdict)).count()
                };
                progress(Progress::Look {
                    experiment: self.experiment.name(),
                    count: looks.counts[look.min(looks.count() - 1)],
                    unit: looks.unit_name(),
                    open,
                    runs: wanted.len(),
                });
                wanted
            }
        };
        self.rounds += 1;
        let plans: Vec<&RunPlan> = wanted.iter().map(|&index| &self.plans[index]).collect();
        let mut workloads = std::mem::take(&mut self.prebuilt);
        workloads.retain(|key, _| plans.iter().any(|plan| plan.workload_key == *key));
        let unbuilt: Vec<&RunPlan> =
            plans.iter().copied().filter(|plan| !workloads.contains_key(&plan.workload_key)).collect();
        workloads.extend(build_workloads(pool, self.experiment, &unbuilt)?);
        self.workloads = workloads;
        for (key, workload) in &self.workloads {
            self.reports.insert(key.clone(), workload.report.clone());
        }
        // A run without a time of its own is expected to take what its policy's runs at the
        // same sweep point took under other seeds now (a look adds seeds to runs already run;
        // with adaptive episodes, the same point but for the episode).
        let episodes = matches!(
            self.experiment.adaptive,
            Some(crate::spec::Looks { over: crate::spec::LookUnit::Episodes { .. }, .. })
        );
        let same_point = |a: &[(String, f64)], b: &[(String, f64)]| {
            let skip = |(name, _): &&(String, f64)| !(episodes && name == crate::axis::Axis::Episode.name());
            a.iter().filter(skip).eq(b.iter().filter(skip))
        };
        self.previous_times = plans
            .iter()
            .map(|plan| {
                self.previous.get(&plan.key).copied().or_else(|| {
                    let times: Vec<f64> = self
                        .outcomes
                        .values()
                        .filter(|outcome| {
                            outcome.policy == plan.policy.to_string() && same_point(&outcome.point, &plan.point.0)
                        })
                        .map(|outcome| outcome.wall_time_s)
                        .collect();
                    (!times.is_empty()).then(|| times.iter().sum::<f64>() / times.len() as f64)
                })
            })
            .collect();
        self.todo = wanted;
        Ok(())
    }

    /// The expected seconds of this round's runs, one after another.
    fn round_expected_s(&self) -> f64 {
        let jobs: Vec<usize> =
            self.todo.iter().map(|&plan| self.workloads[&self.plans[plan].workload_key].jobs.len()).collect();
        expected_times(&self.previous_times, &jobs).iter().sum()
    }

    /// Drops this round's runs and ends the looks: the budget would not cover them.
    fn stop_for_budget(&mut self) {
        self.todo.clear();
        self.previous_times.clear();
        self.workloads.clear();
        self.finished = true;
        self.budget_stopped = true;
    }

    /// The adaptive procedure on the runs so far.
    fn replay(&mut self) -> Result<crate::adaptive::Replay, ExperimentError> {
        let experiment = self.experiment;
        let outcomes: Vec<RunOutcome> = self.outcomes.values().chain(self.others.values()).cloned().collect();
        let plans: Vec<RunPlan> = experiment
            .runs()
            .into_iter()
            .filter(|plan| self.outcomes.contains_key(&plan.key) || self.others.contains_key(&plan.key))
            .collect();
        crate::relaxation::add_relaxations(experiment, &plans, &mut self.relaxations)?;
        Ok(crate::adaptive::replay(experiment, &outcomes, &self.relaxations))
    }

    /// Takes the round's results (one per run of `todo`); fails, saying what is kept, if a run
    /// failed or was skipped.
    fn take(
        &mut self,
        results: impl Iterator<Item = Result<Option<RunOutcome>, ExperimentError>>,
        save_failed: bool,
    ) -> Result<(), ExperimentError> {
        let mut first_error = None;
        let mut skipped = 0;
        for result in results {
            self.ran += 1;
            match result {
                Ok(Some(outcome)) => {
                    self.outcomes.insert(outcome.key.clone(), outcome);
                }
                Ok(None) => skipped += 1,
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        // A run that ends early (a save that failed, a cancellation) says what is kept.
        let stopped = |why: String| {
            ExperimentError::Stopped(format!(
                "{why} {} runs are saved in {} and a rerun resumes from them; {skipped} runs were not started",
                self.outcomes.len(),
                self.store.dir().display()
            ))
        };
        if let Some(error) = first_error {
            if save_failed {
                return Err(stopped(format!("{error};")));
            }
            return Err(error);
        }
        if skipped > 0 {
            // Only a cancellation, or another experiment's failed save, skips runs without an error.
            let why = if save_failed {
                "stopped: a result of another experiment could not be saved;"
            } else {
                "interrupted:"
            };
            return Err(stopped(why.to_string()));
        }
        Ok(())
    }

    /// Writes the reports, or the shard's record.
    fn finish(mut self, options: &RunOptions) -> Result<ExperimentResult, ExperimentError> {
        let experiment = self.experiment;
        let (ran, reused, budget_stopped) = (self.ran, self.reused, self.budget_stopped);
        if let Some(selected) = options.shard {
            let record =
                shard::ShardRecord { shard: selected, runs: self.plans.iter().map(|plan| plan.key.clone()).collect() };
            let name = shard::record_name(selected);
            let folder = self.store.dir().join("shards");
            std::fs::create_dir_all(&folder).map_err(|error| ExperimentError::Io {
                path: folder.display().to_string(),
                message: error.to_string(),
            })?;
            self.store.write(&name, serde_json::to_string_pretty(&record).expect("records serialise").as_bytes())?;
            return Ok(ExperimentResult {
                outcomes: self.outcomes.into_values().collect(),
                claims: Vec::new(),
                dir: self.store.dir().to_path_buf(),
                ran,
                reused,
                files: vec![name],
                tables: Vec::new(),
                budget_stopped: false,
            });
        }
        // With adaptive seeds, the reports show the runs the looks read.
        let used = match experiment.adaptive {
            Some(_) => Some(self.replay()?.used),
            None => None,
        };
        let Pending { store, _lock, identity, plans, outcomes, mut reports, .. } = self;
        let outcomes: Vec<RunOutcome> = outcomes
            .into_values()
            .filter(|outcome| used.as_ref().is_none_or(|used| used.contains(&outcome.key)))
            .collect();
        // Workloads of reused runs were not built now: their reports stay as the last manifest of
        // the same inputs recorded them, so a cached rerun does not empty the manifest.
        let used_workloads: std::collections::BTreeSet<&str> = plans
            .iter()
            .filter(|plan| outcomes.iter().any(|outcome| outcome.key == plan.key))
            .map(|plan| plan.workload_key.as_str())
            .collect();
        reports.retain(|key, _| used_workloads.contains(key.as_str()));
        if reused > 0 {
            for (key, report) in previous_workload_reports(store.dir(), &identity.spec_hash) {
                if used_workloads.contains(key.as_str()) {
                    reports.entry(key).or_insert(report);
                }
            }
        }
        let manifest = identity.manifest(experiment, options.git_revision.clone(), &outcomes, reports);
        let written = report::write_all(&store, experiment, &outcomes, &manifest)?;
        crate::html::write_results_index(&options.results_dir)?;
        report::write_results_claims(&options.results_dir)?;
        Ok(ExperimentResult {
            outcomes,
            claims: written.claims,
            dir: store.dir().to_path_buf(),
            ran,
            reused,
            files: written.files,
            tables: written.tables,
            budget_stopped,
        })
    }
}

/// Each run's wall time in the folder's last manifest (whatever inputs it was written for):
/// how long a run took before, where its stored file is gone (a fresh clone has the committed
/// manifests but no runs). Nothing when there is no readable manifest.
fn previous_wall_times(dir: &Path) -> BTreeMap<String, f64> {
    let Ok(text) = std::fs::read_to_string(dir.join("manifest.json")) else { return BTreeMap::new() };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else { return BTreeMap::new() };
    serde_json::from_value::<Vec<(String, f64)>>(value["wall_time_s"].clone())
        .map(|times| times.into_iter().collect())
        .unwrap_or_default()
}

/// Writes every table, plot, `claims.md` and the manifest from the result store alone, as
/// [`run_experiment`] writes them after running (byte for byte but for the manifest's wall and
/// solver times, which are the stored runs' own): the step after the shards of a sweep are done.
/// Runs nothing; when a run is not stored with the current inputs, fails naming the shards
/// (from their records in `shards/`) whose runs are missing.
pub fn report_experiment(
    experiment: &Experiment,
    options: &RunOptions,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<ExperimentResult, ExperimentError> {
    let dir = options.results_dir.join(experiment.name());
    if !dir.join("runs").is_dir() {
        return Err(ExperimentError::Incomplete(format!(
            "{}: no result store (no runs/ folder): run the experiment, or its shards with `run --shard I/N`, first",
            dir.display()
        )));
    }
    let store = Store::open(&dir)?;
    let _lock = StoreLock::acquire(store.dir(), Access::Whole)?;
    let warn = |message: &str| progress(Progress::Warning(message));
    let identity = Identity::new(experiment, &options.known_checksums, options.strict_data, &warn)?;
    let mut plans = experiment.runs();
    let mut stored: Vec<Option<RunOutcome>> =
        plans.iter().map(|plan| store.load(&plan.key, &identity.run_hash(&experiment.setup, plan))).collect();
    if let Some(looks) = &experiment.adaptive {
        // The runs the looks read, once every look the claims needed is stored.
        let found: Vec<RunOutcome> = stored.iter().flatten().cloned().collect();
        let replay = crate::adaptive::replay_stored(experiment, &found)?;
        if !replay.next.is_empty() {
            let keys: Vec<&str> = replay.next.iter().take(3).map(|plan| plan.key.as_str()).collect();
            return Err(ExperimentError::Incomplete(format!(
                "{}: the next look of adaptive {} needs {} runs that are not stored ({}{}): run the experiment, or \
                 each of its shards again (a shard runs its share of one look)",
                store.dir().display(),
                looks.unit_name(),
                replay.next.len(),
                keys.join(", "),
                if replay.next.len() > 3 { ", ..." } else { "" }
            )));
        }
        let (kept_plans, kept): (Vec<RunPlan>, Vec<Option<RunOutcome>>) =
            plans.into_iter().zip(stored).filter(|(plan, _)| replay.used.contains(&plan.key)).unzip();
        (plans, stored) = (kept_plans, kept);
    }
    // Built again (as a fresh single run builds them) for the manifest's workload reports, and to
    // name the shards of missing runs.
    let workloads =
        build_workloads(&thread_pool(options.threads, None)?, experiment, &plans.iter().collect::<Vec<_>>())?;
    let missing: Vec<usize> = (0..plans.len()).filter(|&index| stored[index].is_none()).collect();
    if !missing.is_empty() {
        return Err(ExperimentError::Incomplete(missing_runs_message(store.dir(), &plans, &workloads, &missing)?));
    }
    let outcomes: Vec<RunOutcome> = stored.into_iter().flatten().collect();
    let reports = workloads.into_iter().map(|(key, workload)| (key, workload.report)).collect();
    let manifest = identity.manifest(experiment, options.git_revision.clone(), &outcomes, reports);
    let written = report::write_all(&store, experiment, &outcomes, &manifest)?;
    crate::html::write_results_index(&options.results_dir)?;
    report::write_results_claims(&options.results_dir)?;
    Ok(ExperimentResult {
        ran: 0,
        reused: outcomes.len(),
        outcomes,
        claims: written.claims,
        dir: store.dir().to_path_buf(),
        files: written.files,
        tables: written.tables,
        budget_stopped: false,
    })
}

/// Says which runs are missing and, for every shard count whose records are in `dir/shards/`,
/// which shards they belong to and whether each finished.
fn missing_runs_message(
    dir: &Path,
    plans: &[RunPlan],
    workloads: &BTreeMap<String, PreparedWorkload>,
    missing: &[usize],
) -> Result<String, ExperimentError> {
    let example = |indices: &[usize]| {
        let keys: Vec<&str> = indices.iter().take(3).map(|&index| plans[index].key.as_str()).collect();
        format!("{}{}", keys.join(", "), if indices.len() > 3 { ", ..." } else { "" })
    };
    let mut message = format!(
        "{}: {} of {} runs are not stored with the current inputs ({})",
        dir.display(),
        missing.len(),
        plans.len(),
        example(missing)
    );
    let records = shard::records(dir)?;
    let counts: std::collections::BTreeSet<usize> = records.iter().map(|(_, record)| record.shard.count).collect();
    if counts.is_empty() {
        message.push_str(
            "; no shard has recorded its end in shards/: run the experiment (or its shards) to fill the store",
        );
    }
    for count in counts {
        let shard_of = shards_of(plans, workloads, count);
        let mut by_shard: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &index in missing {
            by_shard.entry(shard_of[index]).or_default().push(index);
        }
        for (index, runs) in by_shard {
            let selected = Shard { index, count };
            let finished = records.iter().any(|(_, record)| record.shard == selected);
            message.push_str(&format!(
                "; shard {selected} is missing {} runs ({}): {}",
                runs.len(),
                example(&runs),
                if finished {
                    "it finished, but its runs were made with other inputs or another schedlab version: run it again"
                        .to_string()
                } else {
                    format!("it did not finish (no shards/ record): run it again with `--shard {selected}`, the store resumes")
                }
            ));
        }
    }
    Ok(message)
}

/// The order to start runs in: longest expected first. A run's expected time is its stored wall
/// time from an earlier invocation when there is one, else its job count times the median
/// seconds per job of the runs that have one (or its job count alone when none has). Ties keep
/// key order.
pub fn longest_first(previous_times: &[Option<f64>], jobs: &[usize]) -> Vec<usize> {
    let expected = expected_times(previous_times, jobs);
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    order.sort_by(|&a, &b| expected[b].total_cmp(&expected[a]).then(a.cmp(&b)));
    order
}

/// Each run's expected seconds, as [`longest_first`] orders them.
fn expected_times(previous_times: &[Option<f64>], jobs: &[usize]) -> Vec<f64> {
    let mut per_job: Vec<f64> = previous_times
        .iter()
        .zip(jobs)
        .filter_map(|(time, &jobs)| time.filter(|_| jobs > 0).map(|time| time / jobs as f64))
        .collect();
    per_job.sort_by(f64::total_cmp);
    let rate = if per_job.is_empty() { 1.0 } else { per_job[per_job.len() / 2] };
    previous_times.iter().zip(jobs).map(|(time, &jobs)| time.unwrap_or(jobs as f64 * rate)).collect()
}

/// Runs one run of the experiment in memory, without the store or reports (what `schedlab
/// simulate` does), optionally with every engine invariant checked at every decision.
pub fn run_single(
    experiment: &Experiment,
    plan: &RunPlan,
    check_invariants: bool,
) -> Result<RunOutcome, ExperimentError> {
    run_single_with_jobs(experiment, plan, check_invariants).map(|(outcome, _)| outcome)
}

/// [`run_single`] with every job's record (all jobs of the workload, in id order; the
/// measurement window decides which the metrics count), which stored runs do not keep.
///
/// # Errors
/// As [`run_single`].
pub fn run_single_with_jobs(
    experiment: &Experiment,
    plan: &RunPlan,
    check_invariants: bool,
) -> Result<(RunOutcome, Vec<JobRecord>), ExperimentError> {
    let workload = experiment.setup.workload(&experiment.inputs.workload, plan)?;
    run_one_with_jobs(experiment, &workload, plan, String::new(), check_invariants)
}

/// Every check one run makes before it simulates, with the same errors: the policy builds, its
/// time slice (if any) outlasts the restart overhead, the window selects jobs of the workload,
/// traced jobs exist, and the engine accepts the workload, cluster, perf model and settings
/// ([`schedlab_sim::validate`], per VC when partitioned). Returns the run's engine settings and
/// the policy it built, ready for the first simulation.
fn validate_run(
    experiment: &Experiment,
    workload: &PreparedWorkload,
    plan: &RunPlan,
    check_invariants: bool,
) -> Result<(SimConfig, Box<dyn schedlab_core::Policy>), ExperimentError> {
    let (setup, sim) = (&experiment.setup, &experiment.inputs.sim);
    let config = SimConfig {
        restart_overhead: plan.point.get(Axis::RestartOverhead).unwrap_or(sim.restart_overhead),
        overhead_on_first_start: sim.overhead_on_first_start,
        window: sim.window,
        max_time: sim.max_time.map(schedlab_core::Time::from_secs),
        stop_after_window: sim.stop_after_window,
        check_invariants,
        fork_overhead: sim.fork_overhead,
        seed: plan.run_seed,
        trace_jobs: experiment.inputs.traced_jobs.clone(),
    };
    let fail = |error: String| ExperimentError::Run { key: plan.key.clone(), message: error };
    let env = setup.env.with_seed(plan.run_seed).with_spec_seed(plan.seed);
    let policy = schedlab_zoo::build_params(&plan.policy.0, &env).map_err(|error| fail(error.to_string()))?;
    if let Some(slice) = policy.time_slice()
        && config.restart_overhead >= slice
    {
        return Err(fail(format!(
            "sim: restart_overhead of {} s is at least the time slice of {} ({slice} s): each slice would end before \
             the overhead had passed, and while jobs wait none would progress; give the policy a longer slice or the \
             run a shorter overhead",
            config.restart_overhead,
            policy.name()
        )));
    }
    if let Some(job) = config.trace_jobs.iter().find(|&&job| job as usize >= workload.jobs.len()) {
        return Err(fail(format!(
            "plot job_timeline names job {job}, but the workload has {} jobs (ids 0 to {})",
            workload.jobs.len(),
            workload.jobs.len().saturating_sub(1)
        )));
    }
    if !workload.jobs.iter().any(|job| config.window.contains(job.id.0, job.arrival)) {
        let (first, last) = (workload.jobs.first(), workload.jobs.last());
        return Err(fail(format!(
            "sim: the window {} selects none of the workload's {} jobs (ids 0 to {}, arriving from {:.0} s to {:.0} s)",
            describe_window(&config.window),
            workload.jobs.len(),
            workload.jobs.len().saturating_sub(1),
            first.map_or(0.0, |job| job.arrival.secs()),
            last.map_or(0.0, |job| job.arrival.secs()),
        )));
    }
    match &workload.groups {
        None => {
            schedlab_sim::validate(&setup.cluster, &workload.jobs, setup.perf.as_ref(), &config)
                .map_err(|error| fail(error.to_string()))?;
        }
        Some(groups) => {
            for group in groups {
                schedlab_sim::validate(&group.cluster, &group.jobs, setup.perf.as_ref(), &group_config(&config, group))
                    .map_err(|error| fail(format!("VC {}: {error}", group.name)))?;
            }
        }
    }
    Ok((config, policy))
}

/// A VC's engine settings: the run's, with the group's own ids of the traced jobs it holds.
fn group_config(config: &SimConfig, group: &crate::prepare::Group) -> SimConfig {
    let trace_jobs = (0..group.original_ids.len() as u32)
        .filter(|&local| config.trace_jobs.contains(&group.original_ids[local as usize].0))
        .collect();
    SimConfig { trace_jobs, ..config.clone() }
}

/// A measurement window as a spec writes it.
fn describe_window(window: &schedlab_sim::MeasurementWindow) -> String {
    match window {
        schedlab_sim::MeasurementWindow::All => "all".to_string(),
        schedlab_sim::MeasurementWindow::Jobs { first, last } => format!("jobs {first}..{last}"),
        schedlab_sim::MeasurementWindow::Arrivals { from, to } => {
            format!("arrivals {} s..{} s", from.secs(), to.secs())
        }
    }
}

/// Everything `run` checks before it simulates, for every run of the experiment (what
/// `schedlab check` runs): every workload is built from its trace or generator (every row read
/// and validated), and each run passes [`validate_run`]. Fails with the error `run` would give
/// first; only the simulations are left out.
pub fn preflight(experiment: &Experiment, threads: usize) -> Result<(), ExperimentError> {
    let pool = thread_pool(threads, None)?;
    let plans = experiment.runs();
    let workloads = build_workloads(&pool, experiment, &plans.iter().collect::<Vec<_>>())?;
    for plan in &plans {
        validate_run(experiment, &workloads[&plan.workload_key], plan, false)?;
    }
    Ok(())
}

/// Runs one simulation (per VC when partitioned) and summarises it.
fn run_one(
    experiment: &Experiment,
    workload: &PreparedWorkload,
    plan: &RunPlan,
    content_hash: String,
    check_invariants: bool,
) -> Result<RunOutcome, ExperimentError> {
    run_one_with_jobs(experiment, workload, plan, content_hash, check_invariants).map(|(outcome, _)| outcome)
}

/// [`run_one`] with the jobs' records.
fn run_one_with_jobs(
    experiment: &Experiment,
    workload: &PreparedWorkload,
    plan: &RunPlan,
    content_hash: String,
    check_invariants: bool,
) -> Result<(RunOutcome, Vec<JobRecord>), ExperimentError> {
    let started = Instant::now();
    let setup = &experiment.setup;
    let (config, validated) = validate_run(experiment, workload, plan, check_invariants)?;
    let fail = |error: String| ExperimentError::Run { key: plan.key.clone(), message: error };
    let env = setup.env.with_seed(plan.run_seed).with_spec_seed(plan.seed);
    // The first simulation takes the policy validation built; each further VC builds its own.
    let mut validated = Some(validated);
    let mut policy = || match validated.take() {
        Some(policy) => Ok(policy),
        None => schedlab_zoo::build_params(&plan.policy.0, &env).map_err(|error| fail(error.to_string())),
    };
    let mut solver: Option<schedlab_core::SolverStats> = None;
    let mut add_solver = |stats: Option<schedlab_core::SolverStats>| {
        if let Some(stats) = stats {
            solver.get_or_insert_with(Default::default).merge(&stats);
        }
    };
    let mut policy_report: Option<schedlab_core::PolicyReport> = None;
    let mut allocations: Vec<JobTimeline> = Vec::new();
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
            policy_report = result.policy_report;
            allocations = result.allocations;
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
                    &group_config(&config, group),
                )
                .map_err(|error| fail(format!("VC {}: {error}", group.name)))?;
                events += result.metrics.events;
                decisions += result.metrics.decisions;
                add_solver(result.solver);
                if let Some(report) = &result.policy_report {
                    policy_report.get_or_insert_with(Default::default).merge(&group.name, report);
                }
                allocations.extend(
                    result
                        .allocations
                        .into_iter()
                        .map(|timeline| JobTimeline { job: group.original_ids[timeline.job as usize].0, ..timeline }),
                );
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
    let outcome = RunOutcome {
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
        policy_report,
        allocations,
    };
    Ok((outcome, records))
}

/// Total busy GPUs sampled at `points` evenly spaced times, as `(hours, GPUs)`.
fn downsample(timeline: &BusyTimeline, points: usize) -> Vec<(f64, u32)> {
    let Some(&end) = timeline.times.last() else { return Vec::new() };
    (0..=points)
        .map(|index| {
            // `end * index` overflows for ends near f64::MAX; the fraction first cannot. Finite
            // products keep the original rounding, so stored plots do not change.
            let scaled = end * index as f64;
            let time = if scaled.is_finite() { scaled / points as f64 } else { end * (index as f64 / points as f64) };
            (time / 3600.0, timeline.at(time).iter().sum())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::downsample;
    use schedlab_sim::BusyTimeline;

    #[test]
    fn downsampling_a_timeline_that_ends_near_the_largest_float_stays_finite() {
        let mut timeline = BusyTimeline { gpu_types: vec!["v100".into()], ..BusyTimeline::default() };
        timeline.record(0.0, &[4]);
        timeline.record(1e308, &[0]);
        let points = downsample(&timeline, 100);
        assert_eq!(points.len(), 101);
        assert!(points.iter().all(|&(hours, _)| hours.is_finite()), "{points:?}");
        assert_eq!((points[1].1, points[100].1), (4, 0));
        // Ordinary ends keep the original rounding: end * index / points.
        let mut small = BusyTimeline { gpu_types: vec!["v100".into()], ..BusyTimeline::default() };
        small.record(0.0, &[1]);
        small.record(7.0, &[0]);
        let samples = downsample(&small, 3);
        assert_eq!(samples[1].0, 7.0 * 1.0 / 3.0 / 3600.0);
    }
}

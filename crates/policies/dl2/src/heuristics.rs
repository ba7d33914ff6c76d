//! The slot heuristics DL2 is compared with, as its code runs them (`drf_env.py`,
//! `fifo_env.py`, `srtf_env.py`, `tetris_env.py`, `optimus_env.py`). Each starts from an empty
//! slot (no bundles given first) and stops at the first task that does not fit.

use crate::slot::{Slot, Task};
use schedlab_dl2_speed::Dl2Speed;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

/// Sees every increment a heuristic makes, before it is made (DL2 records `(state, label)`
/// pairs there for supervised learning: `Scheduler._state`).
pub trait Recorder: Send {
    /// Job `job` of `slot` is about to get `task`.
    fn before(&mut self, slot: &Slot, job: usize, task: Task);
    /// The slot ended with this reward (see `Learner::slot_ended`). Default: nothing.
    fn slot_ended(&mut self, reward: f64) {
        let _ = reward;
    }
    /// The heuristic ended `slot` by choice (nothing left it wants), not because a task did not
    /// fit: the slot-reward greedy's skip. Default: nothing.
    fn skipped(&mut self, slot: &Slot) {
        let _ = slot;
    }
    /// Whether a bundle the heuristic places on one node (DRF, FIFO, SRTF) is one increment,
    /// a [`Task::Bundle`], instead of a worker and then a server. Default: two (DL2's labels).
    fn bundles(&self) -> bool {
        false
    }
}

/// A heuristic.
#[derive(Clone)]
pub enum Heuristic {
    /// Dominant resource fairness: the job with the lowest dominant share (then earliest
    /// arrival) gets a worker and a server on the least-loaded node, repeatedly.
    Drf,
    /// First come first served: each job in arrival order gets up to the cap of bundles.
    Fifo,
    /// Shortest remaining fraction first, up to the cap of bundles each (declared epochs).
    Srtf,
    /// Tetris: nodes in order, each filled with the bundle of the job scoring highest on
    /// alignment with the node's free resources plus weighted remaining work.
    Tetris,
    /// Optimus: the task (worker or server) with the largest reduction of remaining time, by
    /// the true speed function (ORACLE).
    Optimus(Arc<Dl2Speed>),
    /// Not in DL2: greedy on DL2's own slot reward. The task (worker, server or bundle) that
    /// adds the most to the slot's reward per task, by the true speed function (ORACLE); a
    /// diagnostic of what DL2's training objective asks for.
    SlotReward(Arc<Dl2Speed>),
}

/// A float as a totally ordered key.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Key(f64);

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Heuristic {
    /// Fills `slot` (which must be empty) for `slot_seconds`-long slots.
    pub fn fill(&self, slot: &mut Slot, slot_seconds: f64, recorder: &mut Option<Box<dyn Recorder>>) {
        match self {
            Heuristic::Drf => drf(slot, recorder),
            Heuristic::Fifo => bundles_in_order(slot, |_| 0.0, recorder),
            Heuristic::Srtf => bundles_in_order(slot, |job| job.remaining_fraction(), recorder),
            Heuristic::Tetris => tetris(slot, recorder),
            Heuristic::Optimus(speeds) => optimus(slot, speeds, slot_seconds, recorder),
            Heuristic::SlotReward(speeds) => slot_reward(slot, speeds, slot_seconds, recorder),
        }
    }
}

fn note(recorder: &mut Option<Box<dyn Recorder>>, slot: &Slot, job: usize, task: Task) {
    if let Some(recorder) = recorder {
        recorder.before(slot, job, task);
    }
}

/// Takes a bundle's resources on the least-loaded node and books its worker, then its server,
/// as two recorded steps (`drf_env.py`, `fifo_env.py`, `srtf_env.py`), or as one bundle step
/// when the recorder asks for [`Recorder::bundles`].
fn bundle_in_two_steps(slot: &mut Slot, job: usize, recorder: &mut Option<Box<dyn Recorder>>) -> bool {
    let Some(node) = slot.cluster.pop_least_loaded() else {
        return false;
    };
    let (cpus, gpus) = slot.demand(job, Task::Bundle);
    let taken = slot.cluster.try_take(node, cpus, gpus);
    slot.cluster.push(node);
    if taken {
        if recorder.as_ref().is_some_and(|recorder| recorder.bundles()) {
            // The same slot afterwards as the two steps: the worker's and the server's nodes
            // and the dominant share of both.
            note(recorder, slot, job, Task::Bundle);
            slot.record(job, Task::Bundle, node);
        } else {
            note(recorder, slot, job, Task::Worker);
            slot.record(job, Task::Worker, node);
            note(recorder, slot, job, Task::Ps);
            slot.record(job, Task::Ps, node);
        }
    }
    taken
}

/// Adds `task` to job `job` on the least-loaded node, telling the recorder first; false (and
/// nothing recorded) when it does not fit there.
fn place_noted(slot: &mut Slot, job: usize, task: Task, recorder: &mut Option<Box<dyn Recorder>>) -> bool {
    let Some(node) = slot.cluster.pop_least_loaded() else {
        return false;
    };
    let (cpus, gpus) = slot.demand(job, task);
    let taken = slot.cluster.try_take(node, cpus, gpus);
    slot.cluster.push(node);
    if taken {
        note(recorder, slot, job, task);
        slot.record(job, task, node);
    }
    taken
}

fn drf(slot: &mut Slot, recorder: &mut Option<Box<dyn Recorder>>) {
    let mut queue: BinaryHeap<Reverse<(Key, u64, usize)>> =
        (0..slot.jobs.len()).map(|job| Reverse((Key(0.0), slot.jobs[job].arrival_slot, job))).collect();
    while let Some(Reverse((_, arrival, job))) = queue.pop() {
        if !bundle_in_two_steps(slot, job, recorder) {
            return;
        }
        if slot.allows(job, Task::Bundle) {
            queue.push(Reverse((Key(slot.jobs[job].dom_share), arrival, job)));
        }
    }
}

/// FIFO (`key` 0: arrival order) and SRTF (`key` the remaining fraction): each job in order
/// gets up to `max_workers` bundles; the first that does not fit ends the slot.
fn bundles_in_order(
    slot: &mut Slot,
    key: impl Fn(&crate::slot::SlotJob) -> f64,
    recorder: &mut Option<Box<dyn Recorder>>,
) {
    let mut order: Vec<usize> = (0..slot.jobs.len()).collect();
    order.sort_by(|&a, &b| {
        let (a_job, b_job) = (&slot.jobs[a], &slot.jobs[b]);
        key(a_job).total_cmp(&key(b_job)).then(a_job.arrival_slot.cmp(&b_job.arrival_slot)).then(a.cmp(&b))
    });
    for job in order {
        for _ in 0..slot.max_workers {
            if !bundle_in_two_steps(slot, job, recorder) {
                return;
            }
        }
    }
}

fn tetris(slot: &mut Slot, recorder: &mut Option<Box<dyn Recorder>>) {
    if slot.jobs.is_empty() {
        return;
    }
    let gpu_weight = slot.cluster.gpu_weight();
    let mut nodes: BinaryHeap<Reverse<usize>> = (0..slot.cluster.nodes()).map(Reverse).collect();
    while let Some(Reverse(node)) = nodes.pop() {
        let (used_cpus, used_gpus) = slot.cluster.used(node);
        let (cpus, gpus) = slot.cluster.capacity(node);
        // In DL2's slot units: CPUs count 1 each, GPUs `gpu_weight` each.
        let (free_cpu, free_gpu) = (cpus - used_cpus, (gpus - used_gpus) as f64 * gpu_weight);
        let mut align = Vec::with_capacity(slot.jobs.len());
        let mut work = Vec::with_capacity(slot.jobs.len());
        for job in 0..slot.jobs.len() {
            let (cpu, gpu) = slot.demand(job, Task::Bundle);
            let gpu = gpu as f64 * gpu_weight;
            work.push((cpu + gpu) * slot.jobs[job].remaining_fraction());
            align.push(free_cpu * cpu + free_gpu * gpu);
        }
        let mean = |values: &[f64]| values.iter().sum::<f64>() / values.len() as f64;
        let weight = mean(&align) / mean(&work);
        if weight == 0.0 || !weight.is_finite() {
            continue;
        }
        let mut order: Vec<(f64, usize)> =
            (0..slot.jobs.len()).map(|job| (align[job] + weight * work[job], job)).collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for (_, job) in order {
            if slot.jobs[job].workers() >= slot.max_workers {
                continue;
            }
            let (cpu, gpu) = slot.demand(job, Task::Bundle);
            if slot.cluster.try_take(node, cpu, gpu) {
                note(recorder, slot, job, Task::Bundle);
                slot.record(job, Task::Bundle, node);
                nodes.push(Reverse(node));
            }
            // Placed or not, the next node (or this one again) is considered.
            break;
        }
    }
}

/// Epochs per slot of job `job` with `ps` servers and `workers` workers, by the true speed
/// function (0 where it has none).
fn epochs_per_slot(slot: &Slot, job: usize, speeds: &Dl2Speed, slot_seconds: f64, ps: u32, workers: u32) -> f64 {
    let entry = &slot.jobs[job];
    let speed = speeds.speed(&entry.model, ps, workers).unwrap_or(0.0);
    let epoch_size = schedlab_dl2_speed::model_info(&entry.model).map_or(1.0, |model| model.epoch_size);
    speed * slot_seconds / epoch_size
}

/// Job `job`'s term of DL2's slot reward with `ps` servers and `workers` workers, by the true
/// speed function: `min(epochs per slot, remaining epochs) / declared epochs`.
pub fn reward_term(slot: &Slot, job: usize, speeds: &Dl2Speed, slot_seconds: f64, ps: u32, workers: u32) -> f64 {
    let entry = &slot.jobs[job];
    let remaining = (entry.epochs - entry.progress).max(0.0);
    epochs_per_slot(slot, job, speeds, slot_seconds, ps, workers).max(0.0).min(remaining) / entry.epochs
}

/// The best next task of job `job` for DL2's slot reward and its gain per task: the reward is
/// `sum_j min(epochs per slot, remaining epochs) / declared epochs` (`rl_env.py`, `_progress`),
/// so a task's gain is the change of the job's term; a bundle's gain counts per task (half).
/// `None` when the caps allow no task or none gains.
fn slot_reward_gain(slot: &Slot, job: usize, speeds: &Dl2Speed, slot_seconds: f64) -> Option<(f64, Task)> {
    let entry = &slot.jobs[job];
    let term = |ps: u32, workers: u32| reward_term(slot, job, speeds, slot_seconds, ps, workers);
    let (ps, workers) = (entry.ps(), entry.workers());
    let now = term(ps, workers);
    let options = [
        (Task::Worker, term(ps, workers + 1) - now),
        (Task::Ps, term(ps + 1, workers) - now),
        (Task::Bundle, (term(ps + 1, workers + 1) - now) / 2.0),
    ];
    options.into_iter().filter(|(task, gain)| slot.allows(job, *task) && *gain > 0.0).fold(
        None,
        |best: Option<(f64, Task)>, (task, gain)| match best {
            Some((best_gain, _)) if best_gain >= gain => best,
            _ => Some((gain, task)),
        },
    )
}

/// Greedy on DL2's slot reward: the job whose next task gains the most per task gets it on the
/// least-loaded node, until nothing gains or a task does not fit.
fn slot_reward(slot: &mut Slot, speeds: &Dl2Speed, slot_seconds: f64, recorder: &mut Option<Box<dyn Recorder>>) {
    let mut queue: BinaryHeap<(Key, Reverse<usize>, u8)> = BinaryHeap::new();
    let push = |queue: &mut BinaryHeap<(Key, Reverse<usize>, u8)>, slot: &Slot, job: usize| {
        if let Some((gain, task)) = slot_reward_gain(slot, job, speeds, slot_seconds) {
            let index = Task::ALL.iter().position(|known| *known == task).expect("a task") as u8;
            queue.push((Key(gain), Reverse(job), index));
        }
    };
    for job in 0..slot.jobs.len() {
        push(&mut queue, slot, job);
    }
    while let Some((_, Reverse(job), index)) = queue.pop() {
        if !place_noted(slot, job, Task::ALL[index as usize], recorder) {
            return;
        }
        push(&mut queue, slot, job);
    }
    if let Some(recorder) = recorder {
        recorder.skipped(slot);
    }
}

/// Optimus's marginal utility of job `job`'s next worker or server: the reduction of its
/// remaining slots, by the true speed function; a job without a worker (server) gets one
/// first (`-np.iinfo(np.int32).max`).
fn optimus_utility(slot: &Slot, job: usize, speeds: &Dl2Speed, slot_seconds: f64) -> (f64, Task) {
    const FIRST: f64 = -2_147_483_647.0;
    let entry = &slot.jobs[job];
    if entry.workers() == 0 {
        return (FIRST, Task::Worker);
    }
    if entry.ps() == 0 {
        return (FIRST, Task::Ps);
    }
    let epochs_per_slot = |ps: u32, workers: u32| epochs_per_slot(slot, job, speeds, slot_seconds, ps, workers);
    let remaining = entry.epochs - entry.progress;
    let now = epochs_per_slot(entry.ps(), entry.workers());
    // No speed before or after: no gain (DL2 computes inf - inf = nan here).
    let gain = |after: f64| {
        let gain = remaining / now - remaining / after;
        if gain.is_nan() { 0.0 } else { gain }
    };
    let worker = gain(epochs_per_slot(entry.ps(), entry.workers() + 1));
    let ps = gain(epochs_per_slot(entry.ps() + 1, entry.workers()));
    if ps >= worker { (-ps, Task::Ps) } else { (-worker, Task::Worker) }
}

fn optimus(slot: &mut Slot, speeds: &Dl2Speed, slot_seconds: f64, recorder: &mut Option<Box<dyn Recorder>>) {
    let mut queue: BinaryHeap<Reverse<(Key, usize, u8)>> = BinaryHeap::new();
    let push = |queue: &mut BinaryHeap<Reverse<(Key, usize, u8)>>, slot: &Slot, job: usize| {
        let (utility, task) = optimus_utility(slot, job, speeds, slot_seconds);
        queue.push(Reverse((Key(utility), job, (task == Task::Ps) as u8)));
    };
    for job in 0..slot.jobs.len() {
        push(&mut queue, slot, job);
    }
    while let Some(Reverse((Key(utility), job, is_ps))) = queue.pop() {
        if utility >= 0.0 {
            return;
        }
        let task = if is_ps == 1 { Task::Ps } else { Task::Worker };
        if !slot.allows(job, task) {
            continue;
        }
        if !place_noted(slot, job, task, recorder) {
            return;
        }
        push(&mut queue, slot, job);
    }
}

//! DL2's slot mechanics on hand examples: bundles first, least-loaded placement, the caps and
//! the mask, the slot ending when a task does not fit, and DRF's increments.

use rand::SeedableRng;
use schedlab_core::{JobId, NodeId};
use schedlab_policies_dl2::heuristics::{Heuristic, Recorder};
use schedlab_policies_dl2::observation::{ACTIONS, Observation, SKIP, WINDOW, decode};
use schedlab_policies_dl2::pick;
use schedlab_policies_dl2::slot::{Slot, SlotCluster, SlotJob, Task, dl2_cluster};
use std::sync::{Arc, Mutex};

/// Nodes of 8 CPUs and 2 GPUs (DL2's node: 8 CPU slots, 8 GPU slots of which a GPU is 4).
fn slot(nodes: usize, jobs: &[(u64, f64, f64)]) -> Slot {
    let spec = dl2_cluster(nodes);
    let jobs = jobs
        .iter()
        .enumerate()
        .map(|(index, &(arrival_slot, epochs, progress))| SlotJob {
            id: JobId(index as u32),
            model: Arc::from("resnet-50"),
            type_number: 1,
            arrival_slot,
            epochs,
            progress,
            worker_cpus: 2.0,
            ps_cpus: 2.0,
            worker_nodes: Vec::new(),
            ps_nodes: Vec::new(),
            dom_share: 0.0,
        })
        .collect();
    Slot { index: 3, jobs, cluster: SlotCluster::new(&spec, 4.0).unwrap(), max_workers: 16, max_ps: 16 }
}

fn nodes(list: &[NodeId]) -> Vec<u32> {
    list.iter().map(|node| node.0).collect()
}

#[test]
fn bundles_first_then_each_task_on_the_least_loaded_node() {
    let mut slot = slot(2, &[(0, 100.0, 25.0), (1, 100.0, 0.0)]);
    slot.assign_bundles();
    // Job 0's bundle on node 0 (both empty: lower index); job 1's on node 1 (load 0 < 8).
    assert_eq!((nodes(&slot.jobs[0].worker_nodes), nodes(&slot.jobs[0].ps_nodes)), (vec![0], vec![0]));
    assert_eq!((nodes(&slot.jobs[1].worker_nodes), nodes(&slot.jobs[1].ps_nodes)), (vec![1], vec![1]));
    // Loads: 4 CPUs + 4 per GPU = 8 each. A server for job 1 goes to node 0 (tie, lower index).
    assert!(slot.place(1, Task::Ps));
    assert_eq!(nodes(&slot.jobs[1].ps_nodes), vec![1, 0]);
    // Node 0: 6 CPUs, 1 GPU (load 10); node 1: 4 CPUs, 1 GPU (load 8). A worker for job 0 on node 1.
    assert!(slot.place(0, Task::Worker));
    assert_eq!(nodes(&slot.jobs[0].worker_nodes), vec![0, 1]);
    // Node 1 is now 6 CPUs and 2 GPUs (load 14), node 0 load 10: a bundle (4 CPUs, 1 GPU) does
    // not fit on node 0 (6 + 4 > 8): placement fails, nothing changes.
    assert!(!slot.place(0, Task::Bundle));
    assert_eq!((slot.jobs[0].workers(), slot.jobs[0].ps()), (2, 1));
    assert_eq!(slot.cluster.used(0), (6.0, 1));
    // Dominant share of job 0: CPUs 6 of 16, GPUs 2 of 4.
    assert!((slot.jobs[0].dom_share - 0.5).abs() < 1e-12);
}

#[test]
fn the_state_mask_and_caps_follow_dl2() {
    let mut slot = slot(40, &[(0, 100.0, 25.0), (2, 50.0, 0.0), (3, 10.0, 0.0)]);
    slot.max_workers = 2;
    slot.max_ps = 3;
    slot.assign_bundles();
    assert!(slot.place(0, Task::Worker));
    assert!(slot.place(0, Task::Ps));
    assert!(slot.place(0, Task::Ps));
    // Job 0 is at both caps (2 workers, 3 servers): left out of the window.
    let observation = Observation::of(&slot);
    assert_eq!(&observation.window[..3], &[Some(1), Some(2), None]);
    let column = |row: usize, c: usize| observation.state[row * WINDOW + c];
    // Job 1: type 1, waited 3 - 2 = 1 slot, remaining 1.0, dominant share max(4/320, 1/80).
    assert_eq!([column(0, 0), column(1, 0), column(2, 0), column(4, 0), column(5, 0)], [1.0, 1.0, 1.0, 1.0, 1.0]);
    assert_eq!(column(3, 0), (1.0f64 / 80.0) as f32);
    assert_eq!(column(1, 1), 0.0);
    let mask = observation.mask(&slot);
    assert_eq!(mask.iter().filter(|allowed| **allowed).count(), 7, "3 actions for each of 2 jobs, and skip");
    assert!(mask[SKIP] && mask[0] && mask[5] && !mask[6]);
    assert!(slot.place(1, Task::Worker));
    let mask = Observation::of(&slot).mask(&slot);
    assert_eq!((mask[0], mask[1], mask[2]), (false, true, false), "job 1: workers at the cap, servers not");
    assert_eq!(decode(4), (1, Task::Ps));
    // Progress shows as the remaining fraction; the shuffle moves columns with their jobs.
    let mut order = [0usize; WINDOW];
    order.iter_mut().enumerate().for_each(|(c, entry)| *entry = (c + 1) % WINDOW);
    let shuffled = observation.permuted(&order);
    assert_eq!(shuffled.window[0], Some(2));
    assert_eq!(shuffled.column_of(1), Some(WINDOW - 1));
}

#[test]
fn sampling_follows_the_masked_renormalised_output() {
    let mut mask = [false; ACTIONS];
    mask[3] = true;
    mask[SKIP] = true;
    let mut probabilities = vec![0.0f32; ACTIONS];
    probabilities[0] = 0.5;
    probabilities[3] = 0.1;
    probabilities[SKIP] = 0.3;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let draws: Vec<usize> = (0..4000).map(|_| pick(&probabilities, &mask, true, &mut rng).unwrap()).collect();
    let share = draws.iter().filter(|action| **action == 3).count() as f64 / draws.len() as f64;
    assert!((share - 0.25).abs() < 0.03, "{share}");
    assert!(draws.iter().all(|action| *action == 3 || *action == SKIP));
    assert_eq!(pick(&probabilities, &mask, false, &mut rng), Some(SKIP));
    probabilities[3] = 0.0;
    probabilities[SKIP] = 0.0;
    assert_eq!(pick(&probabilities, &mask, true, &mut rng), None, "every allowed action has probability 0");
}

struct Log(Arc<Mutex<Vec<(u32, Task)>>>);

impl Recorder for Log {
    fn before(&mut self, slot: &Slot, job: usize, task: Task) {
        self.0.lock().unwrap().push((slot.jobs[job].id.0, task));
    }
}

#[test]
fn drf_gives_bundles_by_lowest_dominant_share_until_one_does_not_fit() {
    // Two nodes of 8 CPUs and 2 GPUs; three jobs (arrival slots 0, 0, 1).
    let mut slot = slot(2, &[(0, 100.0, 0.0), (0, 100.0, 0.0), (1, 100.0, 0.0)]);
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut recorder: Option<Box<dyn Recorder>> = Some(Box::new(Log(Arc::clone(&log))));
    Heuristic::Drf.fill(&mut slot, 1200.0, &mut recorder);
    // Shares 0, 0, 0: job 0 on node 0, job 1 on node 1, job 2 on node 0 (loads 8 and 8); then
    // job 0 (share 1/4, earliest) on node 1, which fills it; job 1 finds node 0 full: the end.
    let (w, p) = (Task::Worker, Task::Ps);
    assert_eq!(*log.lock().unwrap(), vec![(0, w), (0, p), (1, w), (1, p), (2, w), (2, p), (0, w), (0, p)]);
    assert_eq!(nodes(&slot.jobs[0].worker_nodes), vec![0, 1]);
    assert_eq!(nodes(&slot.jobs[2].ps_nodes), vec![0]);
    assert_eq!((slot.jobs[1].workers(), slot.jobs[1].ps()), (1, 1));
}

/// Records bundles as one increment each.
struct BundleLog(Arc<Mutex<Vec<(u32, Task)>>>);

impl Recorder for BundleLog {
    fn before(&mut self, slot: &Slot, job: usize, task: Task) {
        self.0.lock().unwrap().push((slot.jobs[job].id.0, task));
    }

    fn bundles(&self) -> bool {
        true
    }
}

#[test]
fn drf_labelled_by_bundles_fills_the_same_slot_with_one_increment_per_bundle() {
    let jobs = [(0, 100.0, 0.0), (0, 100.0, 0.0), (1, 100.0, 0.0)];
    let (mut by_tasks, mut by_bundles) = (slot(2, &jobs), slot(2, &jobs));
    let (tasks, bundles) = (Arc::new(Mutex::new(Vec::new())), Arc::new(Mutex::new(Vec::new())));
    let mut recorder: Option<Box<dyn Recorder>> = Some(Box::new(Log(Arc::clone(&tasks))));
    Heuristic::Drf.fill(&mut by_tasks, 1200.0, &mut recorder);
    let mut recorder: Option<Box<dyn Recorder>> = Some(Box::new(BundleLog(Arc::clone(&bundles))));
    Heuristic::Drf.fill(&mut by_bundles, 1200.0, &mut recorder);
    assert_eq!(by_tasks.jobs, by_bundles.jobs, "the same workers, servers, nodes and shares");
    let b = Task::Bundle;
    assert_eq!(*bundles.lock().unwrap(), vec![(0, b), (1, b), (2, b), (0, b)]);
    assert_eq!(tasks.lock().unwrap().len(), 2 * bundles.lock().unwrap().len());
}

fn speeds() -> Arc<schedlab_dl2_speed::Dl2Speed> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let path = schedlab_core::datadir::test_data_file(&root, "dl2/config_speed.txt");
    Arc::new(schedlab_dl2_speed::Dl2Speed::load(&path).unwrap())
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn the_slot_greedy_adds_the_task_with_the_largest_reward_gain_until_none_gains() {
    let speeds = speeds();
    // Three resnet-50 jobs of 9,000 declared epochs on a large cluster: one with plenty left,
    // one nearly done (0.5 epochs left: its first bundle finishes it within the slot), one in
    // between.
    let mut slot = slot(200, &[(0, 9000.0, 0.0), (0, 9000.0, 8999.5), (1, 9000.0, 4000.0)]);
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut recorder: Option<Box<dyn Recorder>> = Some(Box::new(Log(Arc::clone(&log))));
    Heuristic::SlotReward(Arc::clone(&speeds)).fill(&mut slot, 1200.0, &mut recorder);
    // DL2's slot reward term of a job at (ps, workers): epochs in the slot, at most what is
    // left, over the declared epochs.
    let term = |job: &SlotJob, ps: u32, workers: u32| {
        let epochs = speeds.speed("resnet-50", ps, workers).unwrap() * 1200.0 / 115.0;
        epochs.max(0.0).min(job.epochs - job.progress) / job.epochs
    };
    let gains = |job: &SlotJob| {
        let (p, w) = (job.ps(), job.workers());
        let now = term(job, p, w);
        let worker = if w < 16 { term(job, p, w + 1) - now } else { f64::NEG_INFINITY };
        let ps = if p < 16 { term(job, p + 1, w) - now } else { f64::NEG_INFINITY };
        let bundle = if w < 16 && p < 16 { (term(job, p + 1, w + 1) - now) / 2.0 } else { f64::NEG_INFINITY };
        [worker, ps, bundle]
    };
    // Replay the log on fresh copies of the jobs: each step took the largest gain of all.
    let mut jobs: Vec<SlotJob> = slot.jobs.clone();
    for job in &mut jobs {
        job.worker_nodes.clear();
        job.ps_nodes.clear();
    }
    let steps = log.lock().unwrap().clone();
    assert!(!steps.is_empty());
    for (id, task) in steps {
        let best = jobs.iter().flat_map(gains).fold(f64::NEG_INFINITY, f64::max);
        let job = &mut jobs[id as usize];
        let index = Task::ALL.iter().position(|known| *known == task).unwrap();
        assert!((gains(job)[index] - best).abs() < 1e-15 && best > 0.0, "{id} {task:?}: {:?} vs {best}", gains(job));
        if matches!(task, Task::Worker | Task::Bundle) {
            job.worker_nodes.push(NodeId(0));
        }
        if matches!(task, Task::Ps | Task::Bundle) {
            job.ps_nodes.push(NodeId(0));
        }
    }
    // It stopped because nothing gains (the cluster has room for far more).
    for job in &slot.jobs {
        assert!(gains(job).iter().all(|gain| *gain <= 0.0), "{job:?}");
    }
    // The nearly done job got one bundle: a second task cannot add to 0.5 epochs.
    assert_eq!((slot.jobs[1].workers(), slot.jobs[1].ps()), (1, 1));
    assert!(slot.jobs[0].workers() > 1, "the long job grows: {:?}", slot.jobs[0]);
}

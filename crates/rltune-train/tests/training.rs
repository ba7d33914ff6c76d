//! A tiny training budget, end to end: the same seed gives the same weights, and the weights
//! load as the policy's.

use schedlab_cluster::TraceDuration;
use schedlab_core::{ClusterSpec, JobId, JobSpec, Time};
use schedlab_policies_rltune::network::Agent;
use schedlab_rltune_train::{Environment, TrainConfig, train, train_candidates};
use std::sync::Arc;

fn philly() -> Arc<ClusterSpec> {
    Arc::new(schedlab_policies_rltune::clusters::philly())
}

fn workload() -> Vec<JobSpec> {
    (0..200)
        .map(|index| {
            let gpus = [1, 2, 4, 8, 16, 32, 1, 1][index % 8];
            let duration = 300.0 + ((index * 7919) % 5000) as f64;
            JobSpec::new(JobId(index as u32), Time::from_secs(index as f64 * 20.0), gpus, "rigid", duration)
        })
        .collect()
}

fn tiny(seed: u64) -> TrainConfig {
    TrainConfig {
        seed,
        epochs: 2,
        trajectories: 3,
        window: 32,
        batch_job_slice: 200,
        pi_iters: 5,
        v_iters: 5,
        ..TrainConfig::default()
    }
}

#[test]
fn the_same_seed_gives_the_same_weights_on_any_thread_count() {
    let jobs = workload();
    let perf = TraceDuration::uniform();
    let env = Environment { cluster: philly(), jobs: &jobs, perf: &perf };
    let (a, curve) = train(&env, &tiny(3), |_, _| {}).unwrap();
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let (b, _) = one_thread.install(|| train(&env, &tiny(3), |_, _| {})).unwrap();
    assert_eq!(a.to_json(), b.to_json());
    assert_eq!(curve.len(), 2);
    assert!(curve.iter().all(|epoch| epoch.steps >= 3 * 32 && epoch.pi_steps >= 1));
    // The update moved the weights, and they load as a policy's weights.
    let (c, _) = train(&env, &tiny(4), |_, _| {}).unwrap();
    assert_ne!(a.to_json(), c.to_json());
    assert_eq!(Agent::from_json(&a.to_json()).unwrap(), a);
}

#[test]
fn too_small_a_workload_is_refused_with_the_numbers() {
    let jobs = workload();
    let perf = TraceDuration::uniform();
    let env = Environment { cluster: philly(), jobs: &jobs[..50], perf: &perf };
    let error = train(&env, &tiny(0), |_, _| {}).err().unwrap();
    assert!(error.contains("the workload has 50"), "{error}");
}

#[test]
fn several_candidates_are_the_single_runs_of_their_seeds_and_the_best_final_reward_is_kept() {
    let jobs = workload();
    let perf = TraceDuration::uniform();
    let env = Environment { cluster: philly(), jobs: &jobs, perf: &perf };
    let config = TrainConfig { candidates: 3, selection_epochs: 1, ..tiny(5) };
    let (candidates, kept) = train_candidates(&env, &config, &|_, _, _| {}).unwrap();
    assert_eq!(candidates.iter().map(|candidate| candidate.seed).collect::<Vec<_>>(), [5, 6, 7]);
    for candidate in &candidates {
        let (alone, curve) = train(&env, &tiny(candidate.seed), |_, _| {}).unwrap();
        assert_eq!(candidate.agent.to_json(), alone.to_json(), "seed {}", candidate.seed);
        assert_eq!(candidate.curve, curve);
    }
    let last = |index: usize| candidates[index].curve.last().unwrap().mean_reward;
    assert!((0..3).all(|index| last(kept) >= last(index)), "kept {kept}");
    assert!((0..kept).all(|index| last(index) < last(kept)), "a tie goes to the lowest seed");
    let none = TrainConfig { candidates: 0, ..tiny(5) };
    assert!(train_candidates(&env, &none, &|_, _, _| {}).is_err());
}

#[test]
fn each_objective_scores_an_episode_as_the_authors_environment_does() {
    use schedlab_policies_rltune::observation::PoolRules;
    use schedlab_policies_rltune::{Chooser, Order, RlTune};
    use schedlab_rltune_train::{Objective, window};
    let jobs = window(&workload(), 10, 120);
    let perf = TraceDuration::uniform();
    let mut policy = RlTune::new("fcfs".into(), Chooser::Order(Order::Fcfs), PoolRules::default(), false);
    let config = schedlab_sim::SimConfig::default();
    let result = schedlab_sim::run(philly(), &jobs, &perf, &mut policy, &config).unwrap();
    let records = &result.jobs;
    let n = records.len() as f64;
    let finish = |record: &schedlab_sim::JobRecord| record.finish.unwrap();
    let start = |record: &schedlab_sim::JobRecord| record.first_start.unwrap();
    // job_score (helios_env_base_v2.py 1688-1720) and post_process_score (1318-1345).
    let bsld =
        records.iter().map(|r| ((start(r) - r.arrival + r.run_time) / r.run_time.max(10.0)).max(1.0)).sum::<f64>() / n;
    let wait = records.iter().map(|r| start(r) - r.arrival).sum::<f64>() / n;
    let turnaround = records.iter().map(|r| finish(r) - r.arrival).sum::<f64>() / n;
    let first = records.iter().map(|r| r.arrival).fold(f64::INFINITY, f64::min);
    let last = records.iter().map(finish).fold(0.0, f64::max);
    let gpu_seconds = records.iter().map(|r| r.run_time * f64::from(r.gpus)).sum::<f64>();
    let utilization = -gpu_seconds / ((last - first) * 192.0);
    assert!(wait > 60.0, "the window queues, so the orders differ: {wait}");
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
    for (objective, expected) in [
        (Objective::Bsld, bsld),
        (Objective::Wait, wait),
        (Objective::Turnaround, turnaround),
        (Objective::Utilization, utilization),
    ] {
        let score = objective.score(&result);
        assert!(close(score, expected), "{}: {score} against {expected}", objective.name());
        assert_eq!(Objective::parse(objective.name()), Ok(objective));
    }
    assert!(Objective::parse("util").unwrap_err().contains("expected one of bsld, wait, turnaround, utilization"));
}

#[test]
fn every_training_option_is_reproducible_and_changes_what_is_learned() {
    use schedlab_rltune_train::{Objective, WindowFilter};
    let jobs = workload();
    let perf = TraceDuration::uniform();
    let env = Environment { cluster: philly(), jobs: &jobs, perf: &perf };
    let (plain, _) = train(&env, &tiny(3), |_, _| {}).unwrap();
    // A filter that keeps some windows and rejects others: between SJF's lowest and highest
    // bounded slowdown over the windows training draws from.
    let sjf: Vec<f64> = (32..200 - 33)
        .map(|start| {
            let order = schedlab_policies_rltune::Chooser::Order(schedlab_policies_rltune::Order::Sjf);
            env.run(order, Default::default(), Objective::Bsld, (start, 32), 0).unwrap().0
        })
        .collect();
    let (low, high) = sjf.iter().fold((f64::INFINITY, 0.0f64), |(low, high), &x| (low.min(x), high.max(x)));
    assert!(low < high, "windows differ: {low} {high}");
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let options = [
        TrainConfig { objective: Objective::Wait, ..tiny(3) },
        TrainConfig { objective: Objective::Turnaround, ..tiny(3) },
        TrainConfig { objective: Objective::Utilization, ..tiny(3) },
        TrainConfig { pi_lr: 3e-3, ..tiny(3) },
        TrainConfig { normalise_multi_choice: true, ..tiny(3) },
        TrainConfig { filter: Some(WindowFilter { low: (low + high) / 2.0, high: 1e9 }), ..tiny(3) },
    ];
    for config in &options {
        let (a, curve) = train(&env, config, |_, _| {}).unwrap();
        let (b, again) = one_thread.install(|| train(&env, config, |_, _| {})).unwrap();
        assert_eq!(a.to_json(), b.to_json(), "{config:?}");
        assert_eq!(curve, again);
        assert_ne!(a.to_json(), plain.to_json(), "{config:?}");
    }
    // A filter no window passes stops training with the reason.
    let impossible = TrainConfig { filter: Some(WindowFilter { low: 1e8, high: 1e9 }), ..tiny(3) };
    let error = train(&env, &impossible, |_, _| {}).err().unwrap();
    assert!(error.contains("none of 10000 windows drawn had an SJF bounded slowdown strictly between"), "{error}");
    assert_eq!(WindowFilter::parse("10..150"), Ok(WindowFilter { low: 10.0, high: 150.0 }));
    assert!(WindowFilter::parse("150..10").unwrap_err().contains("LOW below HIGH"));
    assert!(WindowFilter::parse("10").unwrap_err().contains("expected LOW..HIGH"));
}

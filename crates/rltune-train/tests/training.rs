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

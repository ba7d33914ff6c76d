//! Gavel's policy-runtime figure: the allocation LPs at 32, 128, 512 and 2048 active jobs on a
//! cluster of n/4 GPUs of each of three types, with every LP backend this build has
//! (`cargo bench -p schedlab-policies-gavel --features highs,cbc` for all three).
//!
//! Two kinds of instance:
//! - `zoo`: jobs drawn from 26 model configurations and scale factors 1, 2, 4, 8, as Gavel's
//!   generator draws them (so identical jobs share an LP row; see `allocation::JobClasses`);
//! - `distinct`: every job has its own random throughputs (the worst case: no two rows merge).
//!
//! Reference (issue text, cvxpy + ECOS on this kind of machine): max-min fairness 0.02 s at 32
//! jobs and 0.15 s at 2048; makespan 0.05 s and 0.47 s. Makespan rows carry each job's
//! remaining steps, so no two rows merge there.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_policies_gavel::allocation::{AllocationInput, makespan, max_min_fairness};
use schedlab_solver::Backend;

/// V100 > P100 > K80 throughputs drawn around Gavel's measured ratios.
fn random_row(rng: &mut ChaCha8Rng) -> Vec<f64> {
    let k80: f64 = rng.random_range(1.0..20.0);
    vec![k80 * rng.random_range(2.0..6.0), k80 * rng.random_range(1.3..3.0), k80]
}

fn instance(jobs: usize, distinct: bool) -> AllocationInput {
    let mut rng = ChaCha8Rng::seed_from_u64(jobs as u64);
    let models: Vec<Vec<f64>> = (0..26).map(|_| random_row(&mut rng)).collect();
    let mut throughputs = Vec::with_capacity(jobs);
    let mut scale_factors = Vec::with_capacity(jobs);
    for _ in 0..jobs {
        if distinct {
            throughputs.push(random_row(&mut rng));
            scale_factors.push(1);
        } else {
            let scale = [1u32, 2, 4, 8][rng.random_range(0..4)];
            let model = &models[rng.random_range(0..models.len())];
            throughputs.push(model.iter().map(|rate| rate * f64::from(scale) * 0.8).collect());
            scale_factors.push(scale);
        }
    }
    let gpus = (jobs / 4).max(8) as u32;
    AllocationInput { throughputs, scale_factors, weights: vec![1.0; jobs], capacity: vec![gpus; 3] }
}

fn policy_runtime(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("max_min_fairness");
    group.sample_size(10);
    for jobs in [32, 128, 512, 2048] {
        for (kind, distinct) in [("zoo", false), ("distinct", true)] {
            let input = instance(jobs, distinct);
            for backend in Backend::available() {
                for (name, aware) in [("aware", true), ("agnostic", false)] {
                    let id = BenchmarkId::new(format!("{kind}/{name}/{backend}"), jobs);
                    group.bench_with_input(id, &input, |bencher, input| {
                        bencher.iter(|| max_min_fairness(input, aware, backend).unwrap())
                    });
                }
            }
        }
    }
    group.finish();
    let mut group = criterion.benchmark_group("makespan");
    group.sample_size(10);
    for jobs in [32, 128, 512, 2048] {
        let input = instance(jobs, false);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let remaining: Vec<f64> = (0..jobs).map(|_| rng.random_range(1e3..1e6)).collect();
        for backend in Backend::available() {
            let id = BenchmarkId::new(format!("aware/{backend}"), jobs);
            group.bench_with_input(id, &input, |bencher, input| {
                bencher.iter(|| makespan(input, &remaining, true, backend).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, policy_runtime);
criterion_main!(benches);

//! Gavel's policy-runtime figure: the max-min fairness LP at 32, 128, 512 and 2048 active jobs
//! on a cluster of n/4 GPUs of each of three types. Reference (issue text, cvxpy + ECOS on this
//! kind of machine): 0.02 s at 32 jobs, 0.15 s at 2048.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_policies_gavel::allocation::{AllocationInput, max_min_fairness};
use schedlab_solver::Backend;

/// Single-GPU jobs with V100 > P100 > K80 throughputs drawn around Gavel's measured ratios.
fn instance(jobs: usize) -> AllocationInput {
    let mut rng = ChaCha8Rng::seed_from_u64(jobs as u64);
    let throughputs = (0..jobs)
        .map(|_| {
            let k80: f64 = rng.random_range(1.0..20.0);
            vec![k80 * rng.random_range(2.0..6.0), k80 * rng.random_range(1.3..3.0), k80]
        })
        .collect();
    AllocationInput {
        throughputs,
        scale_factors: vec![1; jobs],
        weights: vec![1.0; jobs],
        capacity: vec![(jobs / 4) as u32; 3],
    }
}

fn policy_runtime(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("max_min_fairness");
    group.sample_size(10);
    for jobs in [32, 128, 512, 2048] {
        let input = instance(jobs);
        for (name, aware) in [("aware", true), ("agnostic", false)] {
            group.bench_with_input(BenchmarkId::new(name, jobs), &input, |bencher, input| {
                bencher.iter(|| max_min_fairness(input, aware, Backend::MicroLp).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, policy_runtime);
criterion_main!(benches);

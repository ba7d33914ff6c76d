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
//!
//! `makespan_packed` times the per-job space-sharing LP (`allocation::packing::per_job`) on the `zoo`
//! instances, with co-located rates for every pair of templates of the same scale factor, at 32,
//! 512 and 2048 jobs; `finish_time_fairness_packed` one allocation of finish-time fairness with
//! space sharing on the same instances (a sequence of those LPs).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_policies_gavel::allocation::packing::per_job::{finish_time_fairness_packed, makespan_packed};
use schedlab_policies_gavel::allocation::{
    AllocationInput, FtfIteration, FtfReference, PackingInput, makespan, max_min_fairness,
};
use schedlab_solver::Backend;

/// V100 > P100 > K80 throughputs drawn around Gavel's measured ratios.
fn random_row(rng: &mut ChaCha8Rng) -> Vec<f64> {
    let k80: f64 = rng.random_range(1.0..20.0);
    vec![k80 * rng.random_range(2.0..6.0), k80 * rng.random_range(1.3..3.0), k80]
}

fn instance(jobs: usize, distinct: bool) -> AllocationInput {
    packing_instance(jobs, distinct).base
}

/// An instance with each job's template (model, scale factor) and co-located rates between 0.4
/// and 0.9 of each job's rate alone for every pair of templates of the same scale factor.
fn packing_instance(jobs: usize, distinct: bool) -> PackingInput {
    let mut rng = ChaCha8Rng::seed_from_u64(jobs as u64);
    let models: Vec<Vec<f64>> = (0..26).map(|_| random_row(&mut rng)).collect();
    let mut throughputs = Vec::with_capacity(jobs);
    let mut scale_factors = Vec::with_capacity(jobs);
    let mut templates = Vec::with_capacity(jobs);
    for index in 0..jobs {
        if distinct {
            throughputs.push(random_row(&mut rng));
            scale_factors.push(1);
            templates.push(26 * 4 + index);
        } else {
            let scale_index = rng.random_range(0..4);
            let scale = [1u32, 2, 4, 8][scale_index];
            let model_index = rng.random_range(0..models.len());
            throughputs.push(models[model_index].iter().map(|rate| rate * f64::from(scale) * 0.8).collect());
            scale_factors.push(scale);
            templates.push(model_index * 4 + scale_index);
        }
    }
    let count = templates.iter().max().map_or(0, |max| max + 1);
    let mut pair_rates = vec![vec![vec![(0.0, 0.0); 3]; count]; count];
    for a in 0..count {
        for b in a..count {
            if a % 4 != b % 4 || distinct {
                continue;
            }
            for j in 0..3 {
                let (share_a, share_b) = (rng.random_range(0.4..0.9), rng.random_range(0.4..0.9));
                let (alone_a, alone_b) = (models[a / 4][j], models[b / 4][j]);
                pair_rates[a][b][j] = (alone_a * share_a, alone_b * share_b);
                pair_rates[b][a][j] = (alone_b * share_b, alone_a * share_a);
            }
        }
    }
    let gpus = (jobs / 4).max(8) as u32;
    let base = AllocationInput { throughputs, scale_factors, weights: vec![1.0; jobs], capacity: vec![gpus; 3] };
    PackingInput { base, templates, pair_rates }
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
    let mut group = criterion.benchmark_group("makespan_packed");
    group.sample_size(10);
    for jobs in PACKED_JOBS {
        let input = packing_instance(jobs, false);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let remaining: Vec<f64> = (0..jobs).map(|_| rng.random_range(1e3..1e6)).collect();
        for backend in Backend::available() {
            let id = BenchmarkId::new(format!("aware/{backend}"), jobs);
            group.bench_with_input(id, &input, |bencher, input| {
                bencher.iter(|| makespan_packed(input, &remaining, backend).unwrap())
            });
        }
    }
    group.finish();
    // One allocation of finish-time fairness with space sharing as `mode=gavel` computes it
    // (Gavel's isolated reference, the scaled iteration, tolerance 1e-4, at most 50 LPs).
    let mut group = criterion.benchmark_group("finish_time_fairness_packed");
    group.sample_size(10);
    for jobs in PACKED_JOBS {
        let input = packing_instance(jobs, false);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let remaining: Vec<f64> = (0..jobs).map(|_| rng.random_range(1e3..1e6)).collect();
        let elapsed: Vec<f64> = (0..jobs).map(|_| rng.random_range(0.0..1e5)).collect();
        let cumulative: Vec<f64> = elapsed.iter().map(|seconds| seconds * 0.5).collect();
        for backend in Backend::available() {
            let id = BenchmarkId::new(format!("aware/{backend}"), jobs);
            group.bench_with_input(id, &input, |bencher, input| {
                bencher.iter(|| {
                    let reference = FtfReference::Gavel { cumulative: &cumulative, reference_type: None };
                    finish_time_fairness_packed(
                        input,
                        &remaining,
                        &elapsed,
                        reference,
                        backend,
                        FtfIteration::Scaled,
                        1e-4,
                        50,
                    )
                    .unwrap()
                })
            });
        }
    }
    group.finish();
}

/// Active jobs of the packed LPs' benchmarks.
const PACKED_JOBS: [usize; 3] = [32, 512, 2048];

criterion_group!(benches, policy_runtime);
criterion_main!(benches);

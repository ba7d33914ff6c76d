//! One Pollux allocation: NSGA-II at the artifact's settings (population 100, 100 generations)
//! on 16 nodes x 4 GPUs, for 160 jobs (a whole workload at once) and for 8 jobs (a typical
//! decision: workload-1 at 1.0x load averages 5.4 active jobs per decision).

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schedlab_goodput::{GoodputFunction, GradParams, PerfParams, SpeedupFunction};
use schedlab_policies_pollux::ga::{GaJob, GaSettings, Problem, Speedup, optimize};

fn jobs(count: u32) -> Vec<GaJob> {
    (0..count)
        .map(|index| {
            // Half the jobs have fitted models of different scalability, half have none yet.
            let speedup = if index % 2 == 0 {
                let scale = 1.0 + f64::from(index % 7);
                let model = GoodputFunction {
                    perf: PerfParams {
                        alpha_c: 0.02 * scale,
                        beta_c: 0.001,
                        alpha_n: 0.1,
                        beta_n: 0.01,
                        alpha_r: 0.05,
                        beta_r: 0.005,
                        gamma: 1.5,
                    },
                    grad: GradParams { sqr: 1.0, var: 2.0 * scale },
                    init_batch_size: 128.0,
                };
                Speedup::Model(Box::new(SpeedupFunction::new(model, 4096.0, (32.0, 512.0), true)))
            } else {
                Speedup::Linear { fair_replicas: 1.0 }
            };
            GaJob { speedup, max_replicas: 8, age: 600.0 + f64::from(index), restarts: index % 3 }
        })
        .collect()
}

fn allocation(criterion: &mut Criterion) {
    let settings = GaSettings { population: 100, generations: 100, restart_delay: 30.0, power: -1.0 };
    let mut group = criterion.benchmark_group("pollux_ga");
    group.sample_size(10);
    group.bench_function("160_jobs_16x4_gpus", |bencher| {
        bencher.iter(|| {
            let mut problem = Problem::new(jobs(160), vec![4; 16], vec![0; 160 * 16], &settings);
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            optimize(&mut problem, vec![vec![0; 160 * 16]], &settings, &mut rng)
        })
    });
    // Eight running jobs, each on 8 GPUs of two whole nodes: the cluster is full.
    let base: Vec<u8> = (0..8 * 16).map(|cell| if cell / 16 == cell % 16 / 2 { 4 } else { 0 }).collect();
    group.bench_function("8_jobs_16x4_gpus", |bencher| {
        bencher.iter(|| {
            let mut problem = Problem::new(jobs(8), vec![4; 16], base.clone(), &settings);
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            optimize(&mut problem, vec![base.clone(), vec![0; 8 * 16]], &settings, &mut rng)
        })
    });
    group.finish();
}

criterion_group!(benches, allocation);
criterion_main!(benches);

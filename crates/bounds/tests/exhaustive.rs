//! Every bound against the best of every job order: on small random instances (up to 7 jobs,
//! pools, two GPU types at different speeds, first-start overheads), every permutation of the
//! jobs runs through the engine as a strict order and as an order with backfilling (RLTune's
//! class of non-preemptive job orders, and more), and no bound may beat the best of them. The
//! test prints how tight each bound is (bound over the best order's value).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_bounds::{Bounds, bounds, instance};
use schedlab_cluster::{Placer, TraceDuration};
use schedlab_core::{Context, Decision, JobSpec, Policy, PolicyError};
use schedlab_policies_basic::common::start_in_order;
use schedlab_sim::{RunMetrics, SimConfig};
use schedlab_testkit::{JobSpecExt, cluster, job};

/// Starts queued jobs in a fixed order of job ids, strictly or with backfilling.
struct FixedOrder {
    rank: Vec<usize>,
    backfill: bool,
    placer: Placer,
}

impl Policy for FixedOrder {
    fn name(&self) -> &str {
        "fixed-order"
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let mut queued: Vec<_> = context.jobs.queued().collect();
        queued.sort_by_key(|view| self.rank[view.id.0 as usize]);
        let start = start_in_order(context, &self.placer, queued, self.backfill);
        Ok(Decision { start, ..Decision::none() })
    }
}

/// Every permutation of `0..n` (Heap's algorithm).
fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn heap(k: usize, items: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k <= 1 {
            out.push(items.clone());
            return;
        }
        for i in 0..k {
            heap(k - 1, items, out);
            let swap = if k.is_multiple_of(2) { i } else { 0 };
            items.swap(swap, k - 1);
        }
    }
    let mut out = Vec::new();
    heap(n, &mut (0..n).collect(), &mut out);
    out
}

/// The best value of each metric over every order (JCT, queueing delay and makespan smallest,
/// utilisation largest).
fn best_over_orders(description: &str, jobs: &[JobSpec], perf: &TraceDuration, config: &SimConfig) -> RunMetrics {
    let mut best: Option<RunMetrics> = None;
    for order in permutations(jobs.len()) {
        let mut rank = vec![0; jobs.len()];
        for (position, id) in order.iter().enumerate() {
            rank[*id] = position;
        }
        for backfill in [false, true] {
            let mut policy = FixedOrder { rank: rank.clone(), backfill, placer: Placer::default() };
            let result = schedlab_sim::run(cluster(description), jobs, perf, &mut policy, config).unwrap();
            let metrics = result.metrics;
            assert_eq!(metrics.jobs_finished, jobs.len());
            best = Some(match best {
                None => metrics,
                Some(mut known) => {
                    known.avg_jct = known.avg_jct.min(metrics.avg_jct);
                    known.avg_queueing_delay = known.avg_queueing_delay.min(metrics.avg_queueing_delay);
                    known.makespan = known.makespan.min(metrics.makespan);
                    known.utilization = known.utilization.max(metrics.utilization);
                    known
                }
            });
        }
    }
    best.unwrap()
}

#[test]
fn no_bound_beats_the_best_job_order() {
    const CLUSTERS: [&str; 3] = ["1x4 v100, 1x2 k80", "2x2 v100 @a, 1x4 k80 @b", "1x8 v100"];
    let mut rng = ChaCha8Rng::seed_from_u64(61);
    let mut tightness = [Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    for case in 0..24 {
        let description = CLUSTERS[case % CLUSTERS.len()];
        let n = [4, 5, 6, 7][case % 4];
        let jobs: Vec<JobSpec> = (0..n)
            .map(|id| {
                let gpus = [1, 1, 2, 2, 4][rng.random_range(0..5)];
                let arrival = if rng.random_bool(0.3) { 0.0 } else { f64::from(rng.random_range(0..40u32)) };
                let spec = job(id as u32, arrival, gpus, f64::from(rng.random_range(5..80u32)));
                match description {
                    "2x2 v100 @a, 1x4 k80 @b" if gpus <= 4 => {
                        spec.in_pool(if rng.random_bool(0.5) { "a" } else { "b" })
                    }
                    _ => spec,
                }
            })
            .collect();
        let mut jobs = jobs;
        jobs.sort_by(|a, b| a.arrival.secs().total_cmp(&b.arrival.secs()));
        let first = jobs[0].arrival.secs();
        for (index, spec) in jobs.iter_mut().enumerate() {
            spec.id = schedlab_core::JobId(index as u32);
            spec.arrival = schedlab_core::Time::from_secs(spec.arrival.secs() - first);
        }
        let perf = TraceDuration::with_reference("v100").with_speedup("k80", 0.5);
        let overhead = if case % 3 == 1 { 7.0 } else { 0.0 };
        let config =
            SimConfig { restart_overhead: overhead, overhead_on_first_start: overhead > 0.0, ..SimConfig::default() };
        let relaxed = instance(&jobs, &cluster(description), &perf, (overhead > 0.0).then_some(overhead)).unwrap();
        let Bounds { avg_jct, avg_queueing_delay, makespan, utilization } = bounds(&relaxed);
        let best = best_over_orders(description, &jobs, &perf, &config);
        let slack = 1e-9;
        assert!(avg_jct <= best.avg_jct + slack, "case {case}: JCT bound {avg_jct} > best order {}", best.avg_jct);
        assert!(
            avg_queueing_delay <= best.avg_queueing_delay + slack,
            "case {case}: queueing bound {avg_queueing_delay} > best order {}",
            best.avg_queueing_delay
        );
        assert!(makespan <= best.makespan + slack, "case {case}: makespan bound {makespan} > best {}", best.makespan);
        assert!(
            utilization >= best.utilization - slack,
            "case {case}: utilisation bound {utilization} < best order {}",
            best.utilization
        );
        tightness[0].push(avg_jct / best.avg_jct);
        if best.avg_queueing_delay > 0.0 {
            tightness[1].push(avg_queueing_delay / best.avg_queueing_delay);
        }
        tightness[2].push(makespan / best.makespan);
        tightness[3].push(best.utilization / utilization);
    }
    for (name, values) in
        ["avg JCT", "avg queueing delay", "makespan", "utilisation (best / bound)"].iter().zip(&tightness)
    {
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let low = values.iter().copied().fold(f64::INFINITY, f64::min);
        println!("{name}: bound / best order over {} cases: mean {mean:.3}, lowest {low:.3}", values.len());
    }
}

#[test]
fn a_job_no_type_can_run_is_named() {
    let perf = TraceDuration::with_reference("v100");
    let error = instance(&[job(0, 0.0, 8, 10.0)], &cluster("1x4 v100"), &perf, None).unwrap_err();
    assert!(error.contains("job 0 (8 GPUs): no GPU type of the cluster can run it"), "{error}");
}

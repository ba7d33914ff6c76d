//! One RLTune decision at 128 waiting jobs: the observation (7 features per job, placement ways
//! included) and the actor's forward pass with the built-in Philly weights, on RLTune's Philly
//! cluster (16 x 2 + 20 x 8 GPUs) with a third of its nodes partly used.

use criterion::{Criterion, criterion_group, criterion_main};
use schedlab_core::{Allocation, ClusterView, GpuTypeSet, JobId, JobSpec, JobView, NodeId, Time};
use schedlab_policies_rltune::BUILTIN_WEIGHTS;
use schedlab_policies_rltune::network::{Agent, log_softmax};
use schedlab_policies_rltune::observation::{PoolRules, observe};
use std::sync::Arc;

fn decision(criterion: &mut Criterion) {
    let spec = Arc::new(schedlab_policies_rltune::clusters::philly());
    let mut cluster = ClusterView::new(spec);
    for node in (0..36).step_by(3) {
        cluster.take(&Allocation::on_node(NodeId(node), 1), None).unwrap();
    }
    // Philly's size mix: mostly 1 GPU, some 2, 4, 8 and 16.
    let jobs: Vec<JobSpec> = (0..128)
        .map(|index| {
            let gpus = [1, 1, 1, 2, 1, 4, 1, 8, 2, 16][index % 10];
            JobSpec::new(JobId(index as u32), Time::from_secs(index as f64 * 60.0), gpus, "rigid", 3600.0)
        })
        .collect();
    let views: Vec<JobView> = jobs.iter().map(|job| JobView::arrived(job, GpuTypeSet::ALL, None)).collect();
    let queue: Vec<&JobView> = views.iter().collect();
    let agent = Agent::from_json(BUILTIN_WEIGHTS[0].1).unwrap();
    let rules = PoolRules::default();
    let now = Time::from_secs(128.0 * 60.0);
    criterion.bench_function("rltune_decision_128_jobs", |bencher| {
        bencher.iter(|| {
            let observation = observe(now, &cluster, &queue, &rules);
            log_softmax(&agent.logits(&observation.features, &observation.mask))
        })
    });
    criterion.bench_function("rltune_forward_128_jobs", |bencher| {
        let observation = observe(now, &cluster, &queue, &rules);
        bencher.iter(|| log_softmax(&agent.logits(&observation.features, &observation.mask)))
    });
}

criterion_group!(benches, decision);
criterion_main!(benches);

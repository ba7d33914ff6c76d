use crate::common::{root, run, temp_dir};

/// Philly's VCs over two weeks of its trace, with `partition` set.
fn spec(partition: &str) -> String {
    format!(
        "name: vcs
workload:
  trace: {{format: philly-pollux, path: philly/philly-pollux.csv}}
  transforms: [dedup, sort, {{window: {{from: \"2017-10-01\", to: \"2017-10-15\"}}}}]
  model: rigid
cluster:
  philly_vc: {{path: philly/philly_vc.csv, gpu_type: gpu, partition: {partition}}}
policies: [fifo]
seeds: [0]
"
    )
}

#[test]
fn vc_pools_run_one_policy_over_the_shared_cluster_with_per_vc_jobs() {
    for file in ["philly/philly-pollux.csv", "philly/philly_vc.csv"] {
        if schedlab_core::datadir::test_data_file(&root(), file).is_none() {
            return;
        }
    }
    let dir = temp_dir("vc-pools");
    let pools = run(&spec("vc_pools"), &dir.join("pools"), 1).unwrap();
    let per_vc = run(&spec("per_vc"), &dir.join("per-vc"), 1).unwrap();
    let manifest = std::fs::read_to_string(dir.join("pools/vcs/manifest.json")).unwrap();
    assert!(manifest.contains("VC pools:") && manifest.contains("each on its VC's nodes"), "{manifest}");
    // The same jobs are kept and every one finishes in both. The engine refuses any placement
    // outside a job's VC, so a finished pooled run shows that FIFO kept every job in its VC.
    // (JCTs differ: one strict FIFO queue over all VCs lets a blocked head hold up other VCs.)
    let (a, b) = (&pools.outcomes[0].metrics, &per_vc.outcomes[0].metrics);
    assert!(a.jobs_measured > 1000, "{a:?}");
    assert_eq!(a.jobs_measured, b.jobs_measured);
    assert_eq!((a.jobs_finished, b.jobs_finished), (a.jobs_measured, b.jobs_measured));
}

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
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn vc_pools_run_one_policy_over_the_shared_cluster_with_per_vc_jobs() {
    for file in ["philly/philly-pollux.csv", "philly/philly_vc.csv"] {
        schedlab_core::datadir::test_data_file(&root(), file);
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

/// RLTune's Helios setting in small: the DIR-LAB Helios sample with each user drawn into one of
/// two groups of 8-GPU nodes, one policy over both.
fn helios_groups(second_group: &str) -> String {
    format!(
        "name: groups
workload:
  trace: {{format: helios-dirlab, path: helios/helios-dirlab-15k.csv}}
  transforms:
    - {{assign: {{field: vc, by: user, weights: {{vc1: 3, vc2: 1}}, seed: 0}}}}
    - {{first: 600}}
  model: rigid
cluster:
  groups:
    nodes:
      - {{gpu_type: v100, gpus: 8, count: 3, group: vc1}}
      - {{gpu_type: v100, gpus: 8, count: 1{second_group}}}
    partition: vc_pools
policies: [fifo]
seeds: [0]
"
    )
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn grouped_node_lists_keep_jobs_on_their_assigned_vc() {
    schedlab_core::datadir::test_data_file(&root(), "helios/helios-dirlab-15k.csv");
    let dir = temp_dir("groups");
    let result = run(&helios_groups(", group: vc2"), &dir.join("ok"), 1).unwrap();
    let manifest = std::fs::read_to_string(dir.join("ok/groups/manifest.json")).unwrap();
    assert!(manifest.contains("VC pools:") && manifest.contains("one cluster of 2 VCs"), "{manifest}");
    // Jobs of more than 8 GPUs fit only vc1 (24 GPUs); those drawn into vc2 are left out.
    assert!(!manifest.contains("left out: 0 jobs whose VC has no nodes, 0 jobs larger"), "{manifest}");
    let metrics = &result.outcomes[0].metrics;
    assert!(metrics.jobs_measured > 200, "{metrics:?}");
    assert_eq!(metrics.jobs_finished, metrics.jobs_measured);

    let message = run(&helios_groups(""), &dir.join("bad"), 1).unwrap_err().to_string();
    assert!(message.contains("groups: nodes[1] names no group"), "{message}");
}

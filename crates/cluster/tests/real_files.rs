//! Loads the real public cluster and throughput files from the data directory.

use schedlab_cluster::{PerfModel, ThroughputTable, build};
use schedlab_core::datadir::test_data_file;
use schedlab_core::{JobId, JobSpec, Time};
use std::path::Path;

fn data(relative: &str) -> std::path::PathBuf {
    test_data_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."), relative)
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn philly_vcs_make_a_2816_gpu_cluster() {
    let path = data("philly/philly_vc.csv");
    let (spec, summary) = build::from_philly_vc(&path, "p100").unwrap();
    assert_eq!(summary.rows, 11);
    assert_eq!(spec.nodes().len(), 352);
    assert_eq!(spec.total_gpus(), 2816);
    assert_eq!(spec.nodes()[0].group.as_deref(), Some("6214e9"));
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn pai_machine_spec_keeps_gpu_machines_and_counts_the_rest() {
    let path = data("alibaba/pai-v2020/pai_machine_spec.csv");
    let (spec, summary) = build::from_pai_machine_spec(&path).unwrap();
    assert_eq!(summary.rows, 1897);
    assert_eq!(summary.skipped, vec![("machine without GPUs".to_string(), 83)]);
    assert_eq!(spec.nodes().len(), 1814);
    let p100 = spec.gpu_type_id("P100").unwrap();
    assert_eq!(spec.nodes().iter().filter(|node| node.gpu_type == p100).count(), 798);
    assert!(spec.nodes()[0].cpus.is_some());
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn openb_nodes_load_with_their_models() {
    let path = data("alibaba/openb-v2023/openb_node_list_gpu_node.csv");
    let (spec, summary) = build::from_openb_nodes(&path).unwrap();
    assert_eq!(summary.nodes, 1213);
    assert_eq!(spec.gpu_types().len(), 7);
    assert_eq!(spec.total_gpus(), 2 + 3 + 19 + 131 * 2 + 387 * 2 + 17 * 4 + 28 * 4 + 9 * 4 + (549 + 39 + 8 + 21) * 8);
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn gavel_throughputs_load_and_answer_lookups() {
    let path = data("gavel/simulation_throughputs.json");
    let (table, summary) = ThroughputTable::load(&path).unwrap();
    assert_eq!(summary.worker_types.len(), 3);
    assert_eq!(summary.skipped_worker_types.len(), 3);
    assert_eq!(summary.zero_isolated, 3);
    let job = JobSpec::new(JobId(0), Time::ZERO, 1, "ResNet-18 (batch size 64)", 1.0);
    let v100 = table.rate(&job, "v100", 1).unwrap();
    let k80 = table.rate(&job, "k80", 1).unwrap();
    assert!(v100 > k80 && k80 > 0.0, "v100 {v100} should beat k80 {k80}");
    // ResNet-50 with batch size 128 does not fit on two K80s.
    let job = JobSpec::new(JobId(1), Time::ZERO, 2, "ResNet-50 (batch size 128)", 1.0);
    assert!(table.rate(&job, "k80", 2).is_err());
}

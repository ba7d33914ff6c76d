use crate::common::{parse, root, run, temp_dir};

/// One of the Pollux artifact's workloads on its 16 x 4 GPU cluster, with its applications as
/// ground truth and the artifact's 30 s restart cost.
const SPEC: &str = "name: pollux-apps
workload:
  trace: {format: pollux, path: pollux/workloads/workload-1.csv}
  model: applications
  origin: trace_start
cluster:
  compact: {gpus: {gpu: 64}, gpus_per_node: 4}
perf: {pollux: {}}
sim: {restart_overhead: 30, overhead_on_first_start: true}
policies: [fifo]
seeds: [0]
";

#[test]
fn the_artifacts_workloads_run_on_its_applications() {
    if schedlab_core::datadir::test_data_file(&root(), "pollux/workloads/workload-1.csv").is_none() {
        return;
    }
    let dir = temp_dir("pollux-apps");
    let result = run(SPEC, &dir, 1).unwrap();
    let metrics = &result.outcomes[0].metrics;
    assert_eq!((metrics.jobs_measured, metrics.jobs_finished), (160, 160));
    // Every profile file is part of the runs' identity.
    let manifest = std::fs::read_to_string(dir.join("pollux-apps/manifest.json")).unwrap();
    assert!(manifest.contains("pollux/profiles/yolov3/validation-8.csv"), "{manifest}");
}

#[test]
fn applications_need_the_pollux_perf_model() {
    if schedlab_core::datadir::test_data_file(&root(), "pollux/workloads/workload-1.csv").is_none() {
        return;
    }
    let error = parse(&SPEC.replace("perf: {pollux: {}}", "perf: rigid")).unwrap_err().to_string();
    assert!(
        error.contains("model applications takes each job's work from the perf model's applications; set perf: pollux"),
        "{error}"
    );
}

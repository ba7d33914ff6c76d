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
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn the_artifacts_workloads_run_on_its_applications() {
    schedlab_core::datadir::test_data_file(&root(), "pollux/workloads/workload-1.csv");
    let dir = temp_dir("pollux-apps");
    let result = run(SPEC, &dir, 1).unwrap();
    let metrics = &result.outcomes[0].metrics;
    assert_eq!((metrics.jobs_measured, metrics.jobs_finished), (160, 160));
    // Every profile file is part of the runs' identity.
    let manifest = std::fs::read_to_string(dir.join("pollux-apps/manifest.json")).unwrap();
    assert!(manifest.contains("pollux/profiles/yolov3/validation-8.csv"), "{manifest}");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn applications_need_the_pollux_perf_model() {
    schedlab_core::datadir::test_data_file(&root(), "pollux/workloads/workload-1.csv");
    let error = parse(&SPEC.replace("perf: {pollux: {}}", "perf: rigid")).unwrap_err().to_string();
    assert!(
        error.contains("model applications takes each job's work from the perf model's applications; set perf: pollux"),
        "{error}"
    );
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn a_job_timeline_plot_records_that_job_and_changes_only_its_spec_runs() {
    schedlab_core::datadir::test_data_file(&root(), "pollux/workloads/workload-1.csv");
    let dir = temp_dir("pollux-timeline");
    let plain = run(SPEC, &dir, 1).unwrap();
    assert!(plain.outcomes[0].allocations.is_empty());
    let traced = run(&format!("{SPEC}plots: [{{job_timeline: {{job: 3}}}}]\n"), &dir, 1).unwrap();
    let outcome = &traced.outcomes[0];
    // The plot's job is recorded, so its runs have another identity; the metrics are the same.
    assert_ne!(outcome.content_hash, plain.outcomes[0].content_hash);
    assert_eq!(outcome.metrics, plain.outcomes[0].metrics);
    let [timeline] = outcome.allocations.as_slice() else { panic!("one traced job: {:?}", outcome.allocations) };
    assert_eq!(timeline.job, 3);
    let (first, last) = (timeline.samples.first().unwrap(), timeline.samples.last().unwrap());
    assert!(first.gpus > 0, "FIFO starts job 3 when it arrives on an idle cluster: {first:?}");
    assert_eq!((last.gpus, last.nodes, last.batch), (0, 0, None));
    let jct = outcome.jct_by_job.iter().find(|(job, _)| *job == 3).unwrap().1;
    assert!((last.time - first.time - jct).abs() < 1e-6, "finished after its JCT: {timeline:?}");
    assert!(dir.join("pollux-apps/job_3_timeline.svg").exists());
    // A job the workload does not have is an error naming the key.
    let error = run(&format!("{SPEC}plots: [{{job_timeline: {{job: 160}}}}]\n"), &dir, 1).unwrap_err().to_string();
    assert!(error.contains("plot job_timeline names job 160, but the workload has 160 jobs (ids 0 to 159)"), "{error}");
}

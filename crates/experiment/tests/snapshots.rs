use crate::common::{root, run, temp_dir};

/// Runs `experiments/ci/<name>.yaml` and snapshots every table. To accept an intended change:
/// `cargo insta review` (or `INSTA_UPDATE=always cargo test -p schedlab-experiment`), then
/// commit the updated files in `tests/snapshots/`.
fn check(name: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(root().join(format!("experiments/ci/{name}.yaml"))).unwrap();
    let experiment = crate::common::parse(&text).unwrap();
    let dir = temp_dir(&format!("snapshot-{name}"));
    run(&text, &dir, 2).unwrap();
    for table in &experiment.report.tables {
        let markdown = std::fs::read_to_string(dir.join(experiment.name()).join(format!("{}.md", table.name))).unwrap();
        insta::assert_snapshot!(format!("{name}-{}", table.name), markdown);
    }
    // One line a claim: a changed value, interval or verdict is its own line of the diff.
    if !experiment.report.claims.is_empty() {
        let markdown = std::fs::read_to_string(dir.join(experiment.name()).join("claims.md")).unwrap();
        insta::assert_snapshot!(format!("{name}-claims"), markdown);
    }
    dir.join(experiment.name())
}

#[test]
fn ci_basic() {
    check("basic");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn ci_gavel_table() {
    schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json");
    check("gavel-table");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn ci_gavel_las() {
    schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json");
    check("gavel-las");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn ci_gavel_all() {
    schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json");
    check("gavel-all");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn ci_hadar() {
    schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json");
    check("hadar");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn ci_hadar_physical() {
    schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json");
    check("hadar-physical");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn ci_pollux() {
    schedlab_core::datadir::test_data_file(&root(), "pollux/workloads/workload-1.csv");
    check("pollux");
}

/// The full name the manifest of the experiment in `dir` records for `policy`.
fn pinned_name(dir: &std::path::Path, policy: &str) -> String {
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    manifest["pinned_names"][policy].as_str().unwrap().to_string()
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn ci_rltune() {
    schedlab_core::datadir::test_data_file(&root(), "philly/philly-pollux.csv");
    let dir = check("rltune");
    // The built-in weights' digest is in the manifest.
    let pinned = pinned_name(&dir, "rltune");
    let digest = pinned.strip_prefix("rltune[weights=philly@").and_then(|rest| rest.strip_suffix(']')).unwrap();
    assert!(digest.len() == 8 && digest.chars().all(|c| c.is_ascii_hexdigit()), "{pinned}");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn ci_rltune_helios() {
    schedlab_core::datadir::test_data_file(&root(), "helios/helios-dirlab-15k.csv");
    let pinned = pinned_name(&check("rltune-helios"), "rltune[env=helios]");
    assert!(pinned.starts_with("rltune[env=helios,weights=helios@"), "{pinned}");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn ci_dl2() {
    schedlab_core::datadir::test_data_file(&root(), "dl2/config_speed.txt");
    let dir = check("dl2");
    let pinned = pinned_name(&dir, "dl2");
    assert!(pinned.starts_with("dl2[weights=dl2@"), "{pinned}");
    // The speed model's extrapolation is declared in the manifest.
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"perf_exceptions\"") && manifest.contains("beyond, the linear RBF extrapolates"));
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn new_built_in_weights_rerun_the_agents_runs_and_only_those() {
    schedlab_core::datadir::test_data_file(&root(), "philly/philly-pollux.csv");
    let text = "name: pinned
workload:
  trace: {format: philly-pollux, path: philly/philly-pollux.csv}
  transforms: [dedup, sort, {window: {from: \"2017-10-07\", to: \"2017-12-01\"}}, {episode: {jobs: 256}}]
  model: rigid
cluster:
  nodes: [{gpu_type: p100, gpus: 2, count: 16}, {gpu_type: p100, gpus: 8, count: 20}]
perf: rigid
policies: [rltune, rltune-fcfs]
";
    let dir = temp_dir("pinned-weights");
    let options = schedlab_experiment::RunOptions { threads: 2, results_dir: dir.clone(), ..Default::default() };
    let mut experiment = crate::common::parse(text).unwrap();
    let first = schedlab_experiment::run_experiment(&experiment, &options, &schedlab_experiment::no_progress).unwrap();
    assert_eq!((first.ran, first.reused), (2, 0));
    let again = schedlab_experiment::run_experiment(&experiment, &options, &schedlab_experiment::no_progress).unwrap();
    assert_eq!((again.ran, again.reused), (0, 2));
    // As if the built-in weights had changed: another digest in the agent's full name.
    experiment.setup.pinned_names.insert("rltune".into(), "rltune[weights=philly@00000000]".into());
    let changed =
        schedlab_experiment::run_experiment(&experiment, &options, &schedlab_experiment::no_progress).unwrap();
    assert_eq!((changed.ran, changed.reused), (1, 1), "the agent's run reruns, FCFS's is reused");
}

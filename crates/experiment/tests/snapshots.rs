use crate::common::{root, run, temp_dir};

/// Runs `experiments/ci/<name>.yaml` and snapshots every table. To accept an intended change:
/// `cargo insta review` (or `INSTA_UPDATE=always cargo test -p schedlab-experiment`), then
/// commit the updated files in `tests/snapshots/`.
fn check(name: &str) {
    let text = std::fs::read_to_string(root().join(format!("experiments/ci/{name}.yaml"))).unwrap();
    let experiment = crate::common::parse(&text).unwrap();
    let dir = temp_dir(&format!("snapshot-{name}"));
    run(&text, &dir, 2).unwrap();
    for table in &experiment.report.tables {
        let markdown = std::fs::read_to_string(dir.join(experiment.name()).join(format!("{}.md", table.name))).unwrap();
        insta::assert_snapshot!(format!("{name}-{}", table.name), markdown);
    }
}

#[test]
fn ci_basic() {
    check("basic");
}

#[test]
fn ci_gavel_table() {
    if schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json").is_none() {
        return;
    }
    check("gavel-table");
}

#[test]
fn ci_gavel_las() {
    if schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json").is_none() {
        return;
    }
    check("gavel-las");
}

#[test]
fn ci_gavel_all() {
    if schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json").is_none() {
        return;
    }
    check("gavel-all");
}

#[test]
fn ci_hadar() {
    if schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json").is_none() {
        return;
    }
    check("hadar");
}

#[test]
fn ci_hadar_physical() {
    if schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json").is_none() {
        return;
    }
    check("hadar-physical");
}

#[test]
fn ci_pollux() {
    if schedlab_core::datadir::test_data_file(&root(), "pollux/workloads/workload-1.csv").is_none() {
        return;
    }
    check("pollux");
}

#[test]
fn ci_rltune() {
    if schedlab_core::datadir::test_data_file(&root(), "philly/philly-pollux.csv").is_none() {
        return;
    }
    check("rltune");
}

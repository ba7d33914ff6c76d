use crate::common::{SMALL, parse, run, temp_dir};

/// `SMALL` renamed, with a plot across experiments `small-a` (x 1), `small-b` (x 2) and
/// `small-c` (x 3).
fn across(name: &str) -> String {
    SMALL.replace("name: small", &format!("name: {name}")).replace(
        "  - jct_cdf\n",
        "  - jct_cdf\n  - metric_vs_experiments: {name: jct_vs_x, metric: avg_jct_hours, x_label: x,\n      points: [{experiment: small-a, x: 1}, {experiment: small-b, x: 2}, {experiment: small-c, x: 3}]}\n",
    )
}

#[test]
fn a_plot_across_experiments_reads_their_runs_and_names_those_missing() {
    let dir = temp_dir("across-experiments");
    run(&SMALL.replace("name: small", "name: small-a"), &dir, 1).unwrap();
    run(&across("small-b"), &dir, 1).unwrap();
    let svg = std::fs::read_to_string(dir.join("small-b/jct_vs_x.svg")).unwrap();
    assert!(dir.join("small-b/jct_vs_x.png").exists());
    // small-a is read, small-b is this experiment, small-c has not run.
    assert!(svg.contains("not read: "), "{svg}");
    assert!(svg.contains("small-c"), "{svg}");
    assert!(!svg.contains("small-a/runs.csv"), "{svg}");
    let readme = std::fs::read_to_string(dir.join("small-b/README.md")).unwrap();
    assert!(readme.contains("![jct_vs_x](jct_vs_x.svg)"), "{readme}");
}

#[test]
fn a_plot_across_experiments_is_checked_with_the_spec() {
    // (text replaced in the spec, its replacement, what the error must say)
    let cases = [
        ("name: jct_vs_x", "name: ../x", &["plot '../x'", "expected a file name"][..]),
        ("experiment: small-c", "experiment: /tmp/x", &["experiment '/tmp/x'"]),
        ("experiment: small-c", "experiment: small-a", &["experiment 'small-a' is listed twice"]),
        ("metric: avg_jct_hours, x_label", "metric: ftf_rho, x_label", &["ftf_rho is not a column of runs.csv"]),
        (
            "metric: avg_jct_hours, x_label",
            "metric: idle_while_waiting_gpu_hours, x_label",
            &["idle_while_waiting_gpu_hours is not a column of runs.csv"],
        ),
        ("x: 3}", "x: .inf}", &["x must be a finite number"]),
    ];
    for (from, to, expected) in cases {
        let error = parse(&across("small-b").replace(from, to)).unwrap_err().to_string();
        assert!(expected.iter().all(|part| error.contains(part)), "{error}");
    }
}

#[test]
fn when_a_result_cannot_be_saved_later_runs_stop_and_the_error_says_what_was_kept() {
    let dir = crate::common::temp_dir("save-fails");
    crate::common::run(crate::common::SMALL, &dir, 1).unwrap();
    // Every stored run becomes a non-empty folder of the same name: saving it again fails.
    let runs = dir.join("small/runs");
    let files = crate::common::stored_runs(&dir, "small");
    assert_eq!(files.len(), 12);
    for file in &files {
        std::fs::remove_file(file).unwrap();
        std::fs::create_dir_all(file.join("blocked")).unwrap();
    }
    let message = crate::common::run(crate::common::SMALL, &dir, 1).unwrap_err().to_string();
    assert!(message.contains("0 runs are saved in") && message.contains("a rerun resumes from them"), "{message}");
    assert!(message.contains("11 runs were not started"), "{message}");
    let temporary = std::fs::read_dir(&runs)
        .unwrap()
        .filter(|entry| entry.as_ref().unwrap().file_name().to_string_lossy().ends_with(".tmp"));
    assert_eq!(temporary.count(), 0);
}

#[test]
fn a_data_file_with_another_checksum_is_warned_about_recorded_and_refused_when_strict() {
    use schedlab_experiment::{Progress, RunOptions, run_experiment};
    let dir = crate::common::temp_dir("checksums");
    let data = dir.join("data");
    std::fs::create_dir_all(data.join("t")).unwrap();
    std::fs::write(
        data.join("t/w.csv"),
        "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,60,1,60,a\n",
    )
    .unwrap();
    let text = "name: sums
workload:
  trace: {format: philly-pollux, path: t/w.csv}
cluster:
  compact: {gpus: {v100: 4}, gpus_per_node: 4}
policies: [fifo]
";
    let experiment =
        schedlab_experiment::Experiment::from_text(text, "spec.yaml", &schedlab_core::DataDir::at(&data)).unwrap();
    let recorded = "0".repeat(64);
    let options = RunOptions {
        threads: 1,
        results_dir: dir.join("results"),
        known_checksums: [("t/w.csv".to_string(), recorded.clone())].into(),
        ..RunOptions::default()
    };
    let warnings = std::sync::Mutex::new(Vec::new());
    run_experiment(&experiment, &options, &|progress| {
        if let Progress::Warning(line) = progress {
            warnings.lock().unwrap().push(line.to_string());
        }
    })
    .unwrap();
    let warnings = warnings.into_inner().unwrap();
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].starts_with("data file differs from its recorded checksum: t/w.csv: SHA-256 "), "{warnings:?}");
    let manifest = std::fs::read_to_string(dir.join("results/sums/manifest.json")).unwrap();
    assert!(manifest.contains("\"data_modified\"") && manifest.contains(&recorded), "{manifest}");

    let strict = RunOptions { strict_data: true, force: true, ..options };
    let message = run_experiment(&experiment, &strict, &schedlab_experiment::no_progress).unwrap_err().to_string();
    assert!(message.contains("data files differ from their recorded checksums (strict): t/w.csv"), "{message}");
}

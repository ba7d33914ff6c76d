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
        ("metric: avg_jct_hours, x_label", "metric: ftf_rho, x_label", &["ftf_rho is not a per-run metric"]),
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
    let files: Vec<std::path::PathBuf> = std::fs::read_dir(&runs).unwrap().map(|entry| entry.unwrap().path()).collect();
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

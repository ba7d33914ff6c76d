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

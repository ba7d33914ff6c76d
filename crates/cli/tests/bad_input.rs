//! A newcomer's mistakes are caught by `schedlab check`, before any long run, with the message
//! `run` gives: every class of bad input that `run` refuses, `check` refuses the same way. And a
//! run cut short reports its unfinished jobs instead of writing NaN.

mod common;

use common::{data_dir_with, schedlab, temp_dir, text};
use std::path::Path;

const HEADER: &str = "timestamp,duration,num_gpus,gpu_time,cluster\n";
const ROWS: &str = "2017-10-09 07:01:55,66.0,1,66.0,a\n2017-10-09 06:13:03,2951.0,1,2951.0,a\n";

/// A spec on a Philly-format trace at `trace`, run on 8 V100s.
fn trace_spec(trace: &Path) -> String {
    format!(
        "name: bad
workload:
  trace: {{format: philly-pollux, path: {}}}
  model: rigid
cluster:
  compact: {{gpus: {{v100: 8}}, gpus_per_node: 4}}
perf: rigid
policies: [fifo]
seeds: [0]
",
        trace.display()
    )
}

/// A spec on 40 generated jobs with `extra` lines (which may replace the generator's rate).
fn generated_spec(rate: &str, extra: &str) -> String {
    format!(
        "name: bad
workload:
  generator:
    gavel-continuous: {{jobs: 40, rate_per_hour: {rate}, multi_gpu: true}}
  model: rigid
cluster:
  compact: {{gpus: {{v100: 8}}, gpus_per_node: 4}}
perf: rigid
policies: [fifo, gandiva]
seeds: [0]
{extra}"
    )
}

/// Runs `check` and then `run` on `spec`; both must fail with the same one-line error holding
/// `expected`.
fn check_fails_as_run_does(dir: &Path, case: &str, spec: &str, expected: &str) {
    let path = dir.join(format!("{case}.yaml"));
    std::fs::write(&path, spec).unwrap();
    let check = schedlab().arg("check").arg(&path).output().unwrap();
    let run =
        schedlab().arg("run").arg(&path).arg("--results").arg(dir.join("results")).arg("--quiet").output().unwrap();
    let (check_err, run_err) = (text(&check).1, text(&run).1);
    assert!(!check.status.success(), "{case}: check passed a spec run refuses: {run_err}");
    assert!(!run.status.success(), "{case}: run passed: {run_err}");
    let last = |stderr: &str| stderr.lines().rfind(|line| line.starts_with("error: ")).unwrap_or_default().to_owned();
    assert_eq!(last(&check_err), last(&run_err), "{case}: check and run disagree");
    assert!(last(&check_err).contains(expected), "{case}: {check_err}");
}

#[test]
fn check_refuses_each_bad_trace_as_run_does() {
    let dir = temp_dir("bad-traces");
    let cases = [
        ("huge-duration", format!("{HEADER}{ROWS}2017-10-09 06:13:36,1e300,1,1e300,a\n"), ":4: a duration of 1e300 s"),
        ("non-numeric", format!("{HEADER}{ROWS}2017-10-09 06:13:36,abc,1,66.0,a\n"), "expected a duration in seconds"),
        ("header-only", HEADER.to_string(), "the workload has no jobs to run"),
        ("empty", String::new(), ":1: expected header"),
        ("too-large", format!("{HEADER}{ROWS}2017-10-09 06:13:36,60,64,3840,a\n"), "requests 64 GPUs but the cluster"),
    ];
    for (case, content, expected) in cases {
        let trace = dir.join(format!("{case}.csv"));
        std::fs::write(&trace, content).unwrap();
        check_fails_as_run_does(&dir, case, &trace_spec(&trace), expected);
    }
}

#[test]
fn check_refuses_bad_generators_windows_and_overheads_as_run_does() {
    let dir = temp_dir("bad-settings");
    check_fails_as_run_does(&dir, "rate", &generated_spec("1e-80", ""), "beyond the 1e11 s");
    check_fails_as_run_does(
        &dir,
        "empty-window",
        &generated_spec("1.0", "sim: {window: {jobs: {first: 1000, last: 2000}}}\n"),
        "the window jobs 1000..2000 selects none of the workload's 40 jobs",
    );
    check_fails_as_run_does(
        &dir,
        "slice",
        &generated_spec("1.0", "sim: {restart_overhead: 120}\n"),
        "restart_overhead of 120 s is at least the time slice of gandiva (60 s)",
    );
    check_fails_as_run_does(
        &dir,
        "overhead",
        &generated_spec("1.0", "sim: {restart_overhead: 1e12}\n").replace("[fifo, gandiva]", "[las]"),
        "restart_overhead of 1e12 s is beyond the 1e9 s",
    );
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn check_refuses_what_the_perf_model_cannot_rate_as_run_does() {
    let data = data_dir_with("gavel/simulation_throughputs.json");
    let dir = temp_dir("bad-perf");
    let spec = |cluster: &str, workload: &str| {
        format!(
            "name: bad
workload:
  {workload}
cluster:
  compact: {{gpus: {cluster}, gpus_per_node: 4}}
perf:
  throughputs: {{path: {}, reference: v100}}
policies: [fifo]
seeds: [0]
",
            data.join("gavel/simulation_throughputs.json").display()
        )
    };
    let generated =
        "generator: {gavel-continuous: {jobs: 20, rate_per_hour: 1.0}}\n  model: {gavel-zoo: {reference: v100}}";
    check_fails_as_run_does(
        &dir,
        "unknown-type",
        &spec("{v100: 4, a100: 4}", generated),
        "has no GPU type 'a100', which the cluster has; its GPU types are k80, p100, v100",
    );
    let trace = dir.join("work.trace");
    let row = |work: &str, arrival: &str| {
        format!(
            "ResNet-18 (batch size 64)\tpython3 main.py\timage_classification/cifar10\t--num_steps\t1\t{work}\t1\t1\t\
             -1.000000\t{arrival}\n"
        )
    };
    std::fs::write(&trace, format!("{}{}", row("1646636", "0"), row("1e308", "60"))).unwrap();
    let workload = format!("trace: {{format: gavel, path: {}}}\n  model: from-trace", trace.display());
    check_fails_as_run_does(&dir, "huge-work", &spec("{v100: 4}", &workload), "work of 1e308 is out of range");
}

#[test]
fn a_run_cut_short_says_which_runs_left_jobs_unfinished_and_writes_no_nan() {
    let dir = temp_dir("unfinished");
    let spec = dir.join("short.yaml");
    std::fs::write(&spec, generated_spec("1.0", "sim: {max_time: 1}\n").replace(", gandiva]", "]")).unwrap();
    let results = dir.join("results");
    let output = schedlab().arg("run").arg(&spec).arg("--results").arg(&results).arg("--quiet").output().unwrap();
    let stderr = text(&output).1;
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: 1 of 1 runs ended before every measured job finished")
            && stderr.contains("policy=fifo;seed=0 (0 of 40 measured jobs finished)"),
        "{stderr}"
    );
    let runs = std::fs::read_to_string(results.join("bad/runs.csv")).unwrap();
    assert!(!runs.contains("NaN"), "{runs}");
    let header: Vec<&str> = runs.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = runs.lines().nth(1).unwrap().split(',').collect();
    let column = |name: &str| row[header.iter().position(|&field| field == name).unwrap()];
    assert_eq!((column("jobs_measured"), column("jobs_finished"), column("avg_jct_hours")), ("40", "0", ""));
}

//! The `schedlab` binary end to end: exit codes, error output, and a real interrupted sweep.

mod common;

use common::{data_dir_with, schedlab, succeeds, temp_dir, text};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SPEC: &str = "name: cli
workload:
  generator:
    gavel-continuous: {jobs: 150, rate_per_hour: 1.5, multi_gpu: true}
cluster:
  compact: {gpus: {v100: 16, k80: 16}, gpus_per_node: 4}
policies: [fifo, \"las[quantum=600]\", srtf, tiresias]
seeds: [0, 1, 2]
sweep:
  rate_per_hour: [1.5, 3.0]
tables:
  - {name: avg_jct, metric: avg_jct_hours, rows: policy, columns: rate_per_hour}
";

#[test]
fn errors_are_printed_once_with_a_failing_exit_code() {
    let dir = temp_dir("errors");
    let spec = dir.join("bad.yaml");
    std::fs::write(&spec, SPEC.replace("seeds:", "sedes:")).unwrap();
    let output = schedlab().arg("check").arg(&spec).output().unwrap();
    let (_, stderr) = text(&output);
    assert!(!output.status.success());
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert_eq!(stderr.matches("error: ").count(), 1, "the chain is printed once, with one prefix: {stderr}");
    assert!(stderr.contains("unknown field `sedes`"), "{stderr}");
    let output = schedlab().args(["reproduce", "no-such-experiment"]).output().unwrap();
    assert!(text(&output).1.contains("shipped experiments: "), "{}", text(&output).1);
    let output = schedlab().args(["data", "verify", "--dir", "/nonexistent/schedlab-data"]).output().unwrap();
    assert!(!output.status.success());
    let (stdout, stderr) = text(&output);
    assert!(stdout.is_empty(), "no list of missing files: {stdout}");
    assert!(stderr.contains("/nonexistent/schedlab-data: no such folder"), "{stderr}");
}

#[test]
fn strict_fails_on_a_missed_claim() {
    let dir = temp_dir("strict");
    let spec = dir.join("claim.yaml");
    let claim = "claims:\n  - {source: none, text: impossible, metric: avg_jct_hours, policy: fifo, expected: -1, tolerance: 0.1}\n";
    std::fs::write(&spec, format!("{}{claim}", SPEC.replace("jobs: 150", "jobs: 40"))).unwrap();
    let results = dir.join("results");
    let lenient = schedlab().arg("run").arg(&spec).arg("--results").arg(&results).arg("--quiet").output().unwrap();
    assert!(lenient.status.success(), "{}", text(&lenient).1);
    let strict =
        schedlab().arg("run").arg(&spec).arg("--results").arg(&results).args(["--quiet", "--strict"]).output().unwrap();
    assert!(!strict.status.success());
    assert!(text(&strict).1.contains("1 published claims missed: impossible"), "{}", text(&strict).1);
}

#[test]
fn without_a_terminal_progress_goes_out_as_plain_lines() {
    let dir = temp_dir("progress-lines");
    let spec = dir.join("progress.yaml");
    std::fs::write(&spec, SPEC.replace("jobs: 150", "jobs: 40")).unwrap();
    let results = dir.join("results");
    let run = |seconds: &str, flags: &[&str]| {
        schedlab()
            .env("SCHEDLAB_PROGRESS_SECONDS", seconds)
            .arg("run")
            .args(flags)
            .arg(&spec)
            .arg("--results")
            .arg(&results)
            .output()
            .unwrap()
    };
    // Standard error is a pipe here, as in CI or a Slurm task: no bar, and with the interval at
    // 0 s a line after every run.
    let output = run("0", &[]);
    let (_, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|line| line.starts_with("progress: ")).collect();
    assert_eq!(lines.len(), 24, "one line per run of 4 policies x 3 seeds x 2 points: {stderr}");
    assert!(lines.last().unwrap().starts_with("progress: 24/24 runs, "), "{stderr}");
    assert!(lines.iter().all(|line| line.contains(" elapsed, about ") && line.contains("; slowest: ")), "{stderr}");
    // A wrong value is an error naming the variable; --quiet writes no lines.
    let output = run("soon", &[]);
    assert!(!output.status.success());
    assert!(
        text(&output).1.contains("SCHEDLAB_PROGRESS_SECONDS='soon': expected whole seconds"),
        "{}",
        text(&output).1
    );
    let output = run("0", &["--force", "--quiet"]);
    assert!(output.status.success());
    assert!(!text(&output).1.contains("progress: "), "{}", text(&output).1);
}

#[test]
fn killing_a_sweep_and_rerunning_it_gives_the_uninterrupted_result() {
    let dir = temp_dir("kill");
    let spec = dir.join("cli.yaml");
    std::fs::write(&spec, SPEC).unwrap();
    let full = dir.join("full");
    let status = schedlab()
        .arg("run")
        .arg(&spec)
        .arg("--results")
        .arg(&full)
        .args(["--quiet", "--threads", "1"])
        .status()
        .unwrap();
    assert!(status.success());

    let killed = dir.join("killed");
    let mut child = schedlab()
        .arg("run")
        .arg(&spec)
        .arg("--results")
        .arg(&killed)
        .args(["--quiet", "--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill as soon as the first run is stored (or give up waiting after 60 s: then the sweep
    // simply finished, and the rerun below must reuse everything).
    let runs = killed.join("cli/runs");
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        let stored = std::fs::read_dir(&runs)
            .map(|entries| {
                entries.filter_map(Result::ok).filter(|e| e.path().extension().is_some_and(|x| x == "json")).count()
            })
            .unwrap_or(0);
        if stored > 0 || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    let rerun = schedlab()
        .arg("run")
        .arg(&spec)
        .arg("--results")
        .arg(&killed)
        .args(["--quiet", "--threads", "2"])
        .output()
        .unwrap();
    assert!(rerun.status.success(), "{}", text(&rerun).1);
    let read = |root: &Path, name: &str| std::fs::read_to_string(root.join("cli").join(name)).unwrap();
    assert_eq!(read(&killed, "runs.csv"), read(&full, "runs.csv"));
    assert_eq!(read(&killed, "avg_jct.md"), read(&full, "avg_jct.md"));
}

#[test]
fn a_reader_that_stops_early_ends_the_listing_quietly() {
    // `schedlab list policies | head -1`, made deterministic: the pipe's reading end is closed
    // before the command writes anything, so its first line meets a broken pipe.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = schedlab().args(["list", "policies"]).stdout(writer).stderr(Stdio::piped()).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && !stderr.contains("panicked"), "{stderr}");
}

#[test]
fn train_names_its_settings_and_says_how_to_get_the_trainer() {
    let dir = temp_dir("train-errors");
    let out = dir.join("weights.json");
    let output = schedlab().args(["train", "rltune", "--trace", "alibaba", "--out"]).arg(&out).output().unwrap();
    assert!(!output.status.success());
    assert!(
        text(&output).1.contains("no built-in RLTune training setting 'alibaba'; known: philly, helios"),
        "{}",
        text(&output).1
    );
    let output = schedlab().args(["train", "rltune", "--out"]).arg(&out).output().unwrap();
    assert!(!output.status.success(), "--trace or --spec is required");
    if !cfg!(feature = "train") {
        let output = schedlab().args(["train", "rltune", "--trace", "helios", "--out"]).arg(&out).output().unwrap();
        assert!(!output.status.success());
        assert!(text(&output).1.contains("rebuild with it: `cargo run --release -p schedlab-cli --features train"));
    }
    assert!(!out.exists());
}

/// One tiny DL2 training through the command, twice from one seed (CI runs it with
/// `--features train`).
#[cfg(feature = "train")]
#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn train_dl2_twice_from_one_seed_writes_the_same_weights_and_a_full_manifest() {
    let data = data_dir_with("dl2/config_speed.txt");
    let dir = temp_dir("train-dl2");
    let out = dir.join("dl2.json");
    let run = || {
        schedlab()
            .env("SCHEDLAB_DATA", &data)
            .args(["train", "dl2", "--out"])
            .arg(&out)
            .args(["--seed", "3", "--sl-steps", "3", "--rl-steps", "3", "--validation-interval", "3"])
            .args(["--train-traces", "2", "--validation-traces", "1", "--jobs", "20", "--nodes", "10"])
            .args(["--memory", "64", "--batch", "8", "--normalise-inputs", "--reward", "marginal"])
            .output()
            .unwrap()
    };
    let output = run();
    let (_, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("skip probability") && stderr.contains("tasks per slot"), "{stderr}");
    let weights = std::fs::read(&out).unwrap();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("dl2.manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["config"]["seed"], 3);
    assert_eq!(manifest["config"]["reward"], "marginal");
    assert!(manifest["wall_seconds"].as_f64().unwrap() > 0.0, "{manifest}");
    assert!(manifest["data"]["speeds"].is_string() && manifest["curve"].as_array().unwrap().len() >= 3);
    for plot in ["dl2.learning-curve.png", "dl2.diagnostics.png"] {
        assert!(std::fs::metadata(dir.join(plot)).unwrap().len() > 1000, "{plot}");
    }
    assert!(run().status.success());
    assert_eq!(std::fs::read(&out).unwrap(), weights, "the same seed gives the same bytes");
}

/// One tiny training through the command on RLTune's own synthetic trace (CI runs it with
/// `--features train`).
#[cfg(feature = "train")]
#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn train_rltune_writes_weights_manifest_and_curve() {
    let data = data_dir_with("rltune/synthetic_trace.csv");
    let dir = temp_dir("train");
    let spec = dir.join("train.yaml");
    std::fs::write(
        &spec,
        "name: train-test
workload: {trace: {format: rltune-swf, path: rltune/synthetic_trace.csv}, model: rigid}
cluster:
  nodes: [{gpu_type: p100, gpus: 2, count: 16}, {gpu_type: p100, gpus: 8, count: 20}]
perf: rigid
policies: [rltune-fcfs]
",
    )
    .unwrap();
    let out = dir.join("weights.json");
    let run = || {
        schedlab()
            .env("SCHEDLAB_DATA", &data)
            .args(["train", "rltune", "--spec"])
            .arg(&spec)
            .arg("--out")
            .arg(&out)
            .args(["--epochs", "1", "--trajectories", "1", "--seed", "5"])
            .output()
            .unwrap()
    };
    let output = run();
    assert!(output.status.success(), "{}", text(&output).1);
    let weights = std::fs::read_to_string(&out).unwrap();
    assert!(weights.contains("schedlab-rltune-weights/1"));
    let manifest = std::fs::read_to_string(dir.join("weights.manifest.json")).unwrap();
    assert!(manifest.contains("\"learning_curve\"") && manifest.contains("\"seed\": 5"), "{manifest}");
    assert!(std::fs::metadata(dir.join("weights.learning-curve.png")).unwrap().len() > 1000);
    // The same seed gives the same bytes.
    assert!(run().status.success());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), weights);
    // Two candidates (seeds 5 and 6): the manifest lists both and names the one kept.
    let several = dir.join("several.json");
    let output = schedlab()
        .env("SCHEDLAB_DATA", &data)
        .args(["train", "rltune", "--spec"])
        .arg(&spec)
        .arg("--out")
        .arg(&several)
        .args(["--epochs", "1", "--trajectories", "1", "--seed", "5", "--candidates", "2"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output).1);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("several.manifest.json")).unwrap()).unwrap();
    let seeds: Vec<u64> = manifest["selection"]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|candidate| candidate["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, [5, 6]);
    let kept = manifest["selection"]["kept_seed"].as_u64().unwrap();
    assert!(kept == 5 || kept == 6, "{kept}");
    if kept == 5 {
        assert_eq!(std::fs::read_to_string(&several).unwrap(), weights, "candidate 5 is the single run of seed 5");
    }
    // An objective and the training options reach the trainer and its manifest; bad values are
    // refused with the flag's name.
    let wait = dir.join("wait.json");
    let output = schedlab()
        .env("SCHEDLAB_DATA", &data)
        .args(["train", "rltune", "--spec"])
        .arg(&spec)
        .arg("--out")
        .arg(&wait)
        .args(["--epochs", "1", "--trajectories", "1", "--seed", "5", "--objective", "wait"])
        .args(["--pi-lr", "3e-3", "--normalise-multi-choice", "--filter", "0.5..1e9", "--lambda", "1"])
        .output()
        .unwrap();
    let (_, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("to lower wait") && stderr.contains("wait rl "), "{stderr}");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("wait.manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["config"]["objective"], "wait");
    assert_eq!(manifest["config"]["pi_lr"], 3e-3);
    assert_eq!(manifest["config"]["normalise_multi_choice"], true);
    assert_eq!(manifest["config"]["filter"]["low"], 0.5);
    assert_eq!(manifest["config"]["lambda"], 1.0);
    for (flag, value, expected) in [
        ("--filter", "9..3", "--filter: expected LOW below HIGH, got '9..3'"),
        ("--pi-lr", "-1", "--pi-lr: expected a positive number, got '-1'"),
        ("--lambda", "1.5", "--lambda 1.5: expected 0 to 1"),
    ] {
        let output = schedlab()
            .env("SCHEDLAB_DATA", &data)
            .args(["train", "rltune", "--spec"])
            .arg(&spec)
            .arg("--out")
            .arg(&wait)
            .args(["--epochs", "1"])
            .arg(format!("{flag}={value}"))
            .output()
            .unwrap();
        assert!(!output.status.success());
        assert!(text(&output).1.contains(expected), "{}", text(&output).1);
    }
}

#[test]
fn a_modified_data_file_is_warned_about_by_check_and_run_and_refused_by_strict() {
    let dir = temp_dir("modified-data");
    let data = dir.join("data");
    std::fs::create_dir_all(data.join("philly")).unwrap();
    // A listed file (traces/sources.json) with other contents than recorded.
    std::fs::write(
        data.join("philly/philly-pollux.csv"),
        "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,60,1,60,a\n",
    )
    .unwrap();
    let spec = dir.join("modified.yaml");
    std::fs::write(
        &spec,
        "name: modified\nworkload:\n  trace: {format: philly-pollux, path: philly/philly-pollux.csv}\n\
         cluster:\n  compact: {gpus: {v100: 4}, gpus_per_node: 4}\npolicies: [fifo]\n",
    )
    .unwrap();
    let output = schedlab().env("SCHEDLAB_DATA", &data).arg("check").arg(&spec).output().unwrap();
    let (_, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: data file differs from its recorded checksum: philly/philly-pollux.csv"),
        "{stderr}"
    );
    let results = dir.join("results");
    let run = |strict: bool| {
        let mut command = schedlab();
        command.env("SCHEDLAB_DATA", &data).arg("run").arg(&spec).arg("--quiet").arg("--results").arg(&results);
        if strict {
            command.arg("--strict");
        }
        command.output().unwrap()
    };
    let output = run(false);
    assert!(output.status.success(), "{}", text(&output).1);
    assert!(text(&output).1.contains("warning: data file differs"), "{}", text(&output).1);
    let output = run(true);
    assert!(!output.status.success());
    assert!(text(&output).1.contains("(strict): philly/philly-pollux.csv"), "{}", text(&output).1);
}

/// `rng: python` gives Gavel's own job sequences: `trace export` matches, byte for byte, traces
/// that Gavel's driver wrote with `--output_trace_file_name` (`scripts/gavel/compare_traces.sh`
/// regenerates them with the public code).
#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn trace_export_matches_traces_written_by_gavels_driver() {
    let data = data_dir_with("gavel/simulation_throughputs.json");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gavel-driver");
    let dir = temp_dir("gavel-export");
    let cases = [
        ("single-2perh-seed0", 0, "gavel-continuous: {jobs: 300, rate_per_hour: 2.0, rng: python}"),
        (
            "multi-priority-5.2perh-seed1",
            1,
            "gavel-continuous: {jobs: 400, rate_per_hour: 5.2, multi_gpu: true, multi_priority: true, rng: python}",
        ),
        ("static-multi-seed2", 2, "gavel-static: {jobs: 60, multi_gpu: true, rng: python}"),
    ];
    for (name, seed, generator) in cases {
        let spec = dir.join(format!("{name}.yaml"));
        std::fs::write(
            &spec,
            format!(
                "name: {name}
workload:
  generator:
    {generator}
  model: {{gavel-zoo: {{reference: v100}}}}
cluster:
  compact: {{gpus: {{v100: 36, p100: 36, k80: 36}}, gpus_per_node: 4}}
perf:
  throughputs: {{path: gavel/simulation_throughputs.json, reference: v100}}
policies: [gavel-fifo]
seeds: [{seed}]
"
            ),
        )
        .unwrap();
        let out = dir.join(format!("{name}.trace"));
        let output = schedlab()
            .env("SCHEDLAB_DATA", &data)
            .args(["trace", "export"])
            .arg(&spec)
            .args(["--seed", &seed.to_string(), "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", text(&output).1);
        let ours = std::fs::read_to_string(&out).unwrap();
        let gavel = std::fs::read_to_string(fixtures.join(format!("{name}.trace"))).unwrap();
        // Gavel writes the window's first job twice (running at the window's start, then arriving).
        let gavel: Vec<&str> = gavel.lines().skip(1).collect();
        let ours: Vec<&str> = ours.lines().collect();
        assert_eq!(ours.len(), gavel.len(), "{name}");
        for (line, (a, b)) in ours.iter().zip(&gavel).enumerate() {
            assert_eq!(a, b, "{name}, job {line}");
        }
    }
    let output = schedlab()
        .env("SCHEDLAB_DATA", &data)
        .args(["trace", "export"])
        .arg(dir.join("static-multi-seed2.yaml"))
        .args(["--seed", "7", "--out", "-"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(text(&output).1.contains("no run with seed 7 (seeds [2]"), "{}", text(&output).1);
}

#[test]
fn bench_times_each_spec_and_the_suite_at_each_thread_count_and_writes_no_results() {
    let dir = temp_dir("bench");
    let spec = dir.join("bench.yaml");
    std::fs::write(&spec, SPEC.replace("name: cli", "name: cli-bench").replace("seeds: [0, 1, 2]", "seeds: [0]"))
        .unwrap();
    let output = schedlab()
        .current_dir(&dir)
        .args(["bench", "bench.yaml", "--runs", "2", "--warmup", "1", "--threads", "1,2", "--json"])
        .output()
        .unwrap();
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    let rows: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 4, "{stdout}");
    for (row, (name, threads)) in rows.iter().zip([("cli-bench", 1), ("suite", 1), ("cli-bench", 2), ("suite", 2)]) {
        assert_eq!((row["name"].as_str().unwrap(), row["threads"].as_u64().unwrap()), (name, threads));
        assert_eq!(row["runs"], 8);
        let time = &row["time"];
        assert!(time["min"].as_f64().unwrap() <= time["median"].as_f64().unwrap());
        assert!(time["median"].as_f64().unwrap() <= time["max"].as_f64().unwrap());
    }
    assert_eq!(stderr.matches("warm-up").count(), 2, "one warm-up per thread count: {stderr}");
    assert_eq!(stderr.matches("timed").count(), 4, "{stderr}");
    assert!(!dir.join("results").exists(), "bench writes nothing into the working folder");
    let output = schedlab().current_dir(&dir).args(["bench", "no-such-family"]).output().unwrap();
    assert!(!output.status.success());
    assert!(text(&output).1.contains("neither a spec file nor an experiment family"), "{}", text(&output).1);
}

#[test]
fn shards_fill_one_store_and_report_writes_the_tables_of_a_single_run() {
    let dir = temp_dir("shards");
    let spec = dir.join("cli.yaml");
    std::fs::write(&spec, SPEC).unwrap();
    let (single, sharded) = (dir.join("single"), dir.join("sharded"));
    let output = schedlab().arg("run").arg(&spec).arg("--results").arg(&single).arg("--quiet").output().unwrap();
    assert!(output.status.success(), "{:?}", text(&output));
    let output = schedlab().arg("run").arg(&spec).args(["--shard", "2/2"]).output().unwrap();
    let (_, stderr) = text(&output);
    assert!(!output.status.success() && stderr.contains("'2/2': expected I/N with 0 <= I < N"), "{stderr}");
    let report = || schedlab().arg("report").arg(&spec).arg("--results").arg(&sharded).output().unwrap();
    for index in 0..2 {
        let shard = format!("{index}/2");
        let output = schedlab().arg("run").arg(&spec).args(["--shard", &shard]).arg("--results").arg(&sharded).output();
        let (stdout, stderr) = text(&output.unwrap());
        assert!(stdout.contains(&format!("cli shard {shard}: 12 runs (12 run now, 0 reused)")), "{stdout}{stderr}");
        assert!(stdout.contains("`schedlab report"), "{stdout}");
        if index == 0 {
            let output = report();
            let (_, stderr) = text(&output);
            assert!(!output.status.success(), "{stderr}");
            assert!(stderr.contains("shard 1/2 is missing 12 runs") && stderr.contains("--shard 1/2"), "{stderr}");
        }
    }
    let output = report();
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(stdout.contains("cli: 24 runs (0 run now, 24 reused)"), "{stdout}");
    for file in ["runs.csv", "avg_jct.csv", "avg_jct.md", "README.md"] {
        let read = |folder: &Path| std::fs::read(folder.join("cli").join(file)).unwrap();
        assert!(read(&single) == read(&sharded), "{file} differs");
    }
}

#[test]
fn slurm_writes_an_array_of_shards_and_a_dependent_report_inside_the_results_folder() {
    let dir = temp_dir("slurm");
    let spec = dir.join("cli.yaml");
    std::fs::write(&spec, SPEC).unwrap();
    let results = dir.join("results");
    let output = schedlab()
        .arg("slurm")
        .arg(&spec)
        .args(["--array", "6", "--partition", "short", "--time", "1:00:00"])
        .arg("--results")
        .arg(&results)
        .output()
        .unwrap();
    assert!(output.status.success(), "{:?}", text(&output));
    let folder = results.join("cli/slurm");
    let shards = std::fs::read_to_string(folder.join("shards.sbatch")).unwrap();
    assert!(shards.contains("#SBATCH --array=0-5") && shards.contains("#SBATCH --partition=short"), "{shards}");
    assert!(shards.contains(&format!("run '{}'", spec.display())), "{shards}");
    assert!(std::fs::read_to_string(folder.join("report.sbatch")).unwrap().contains(" report "));
    assert!(std::fs::read_to_string(folder.join("submit.sh")).unwrap().contains("afterok"));
    let output = schedlab().arg("slurm").arg(&spec).args(["--array", "0"]).output().unwrap();
    assert!(!output.status.success() && text(&output).1.contains("--array 0"), "{:?}", text(&output));
}

/// Serves `body` at `/file` on the loopback interface for up to `requests` requests.
fn serve_once(body: Vec<u8>, requests: usize) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(requests) {
            let mut stream = stream.unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap() > 0 && line != "\r\n" {
                line.clear();
            }
            write!(stream, "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len()).unwrap();
            stream.write_all(&body).unwrap();
        }
    });
    format!("http://{address}/file")
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn a_first_run_downloads_missing_data_into_data_verifies_it_and_runs() {
    let data = data_dir_with("philly/philly_vc.csv");
    let real = std::fs::read(data.join("philly/philly_vc.csv")).unwrap();
    let entry = schedlab_data::Sources::builtin().find("philly/philly_vc.csv").unwrap().clone();
    let spec = "name: first
workload:
  generator:
    gavel-continuous: {jobs: 40, rate_per_hour: 2}
cluster:
  philly_vc: {path: philly/philly_vc.csv, gpu_type: gpu, partition: pooled}
policies: [fifo]
";
    // A fresh folder with no data directory around it, and a sources list naming the server.
    let setup = |name: &str, body: Vec<u8>| {
        let dir = temp_dir(name);
        std::fs::write(dir.join("spec.yaml"), spec).unwrap();
        let sources = schedlab_data::Sources {
            note: "test".into(),
            files: vec![schedlab_data::SourceFile { url: Some(serve_once(body, 1)), ..entry.clone() }],
        };
        std::fs::write(dir.join("sources.json"), serde_json::to_string(&sources).unwrap()).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_schedlab"));
        command.current_dir(&dir).env_remove("SCHEDLAB_DATA").env("SCHEDLAB_SOURCES", dir.join("sources.json"));
        command.args(["run", "spec.yaml", "--quiet"]);
        (dir, command)
    };
    let (dir, mut command) = setup("first-run", real.clone());
    let output = command.output().unwrap();
    let (_, stderr) = text(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("philly/philly_vc.csv is not in the data directory: downloading it into data"), "{stderr}");
    assert!(stderr.contains("downloaded and verified"), "{stderr}");
    assert_eq!(std::fs::read(dir.join("data/philly/philly_vc.csv")).unwrap(), real);
    assert!(dir.join("results/first/runs.csv").exists());
    // The second run finds it in ./data and downloads nothing.
    let output = Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .current_dir(&dir)
        .env_remove("SCHEDLAB_DATA")
        .args(["run", "spec.yaml", "--quiet"])
        .output()
        .unwrap();
    assert!(output.status.success() && !text(&output).1.contains("downloading"), "{:?}", text(&output));

    // --offline says how to get it instead.
    let (dir, mut command) = setup("first-run-offline", real.clone());
    let output = command.arg("--offline").output().unwrap();
    let (_, stderr) = text(&output);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("`schedlab data fetch --only philly/philly_vc.csv` downloads it"), "{stderr}");
    assert!(!dir.join("data").exists());

    // A download whose SHA-256 differs is refused and leaves nothing behind.
    let mut tampered = real.clone();
    tampered[0] ^= 1;
    let (dir, mut command) = setup("first-run-tampered", tampered);
    let output = command.output().unwrap();
    let (_, stderr) = text(&output);
    assert!(!output.status.success() && stderr.contains("philly/philly_vc.csv: SHA-256 is"), "{stderr}");
    assert!(!dir.join("data/philly/philly_vc.csv").exists());
    assert!(!dir.join("results").exists(), "nothing ran");
}

#[test]
fn reproduce_judges_a_claim_several_specs_check_on_its_best_case_across_them() {
    let dir = temp_dir("across");
    std::fs::create_dir_all(dir.join("experiments")).unwrap();
    let claim = "claims:
  - {source: \"Paper X abstract\", text: \"LAS cuts JCT by up to 30%\", metric: avg_jct_hours,
     best_ratio: {policy: \"las[quantum=600]\", against: [fifo], best: min}, expected: 0.7, tolerance: 0.5}
";
    for (name, rate) in [("fam-light", "1.0"), ("fam-heavy", "3.0")] {
        let spec = SPEC
            .replace("name: cli", &format!("name: {name}"))
            .replace("rate_per_hour: [1.5, 3.0]", &format!("rate_per_hour: [{rate}]"))
            .replace("jobs: 150", "jobs: 60");
        std::fs::write(dir.join("experiments").join(format!("{name}.yaml")), format!("{spec}{claim}")).unwrap();
    }
    let output = schedlab().current_dir(&dir).args(["reproduce", "fam", "--quiet"]).output().unwrap();
    assert!(output.status.success(), "{}", text(&output).1);
    let table = std::fs::read_to_string(dir.join("results/fam-claims.md")).unwrap();
    let row = table.lines().find(|line| line.starts_with("| LAS cuts JCT by up to 30%")).expect(&table);
    let cells: Vec<&str> = row.split(" | ").collect();
    // Each spec's own best case, then the smaller of the two as the verdict's value.
    let each = cells[4];
    let value = |name: &str| -> f64 {
        let start = each.find(&format!("{name}: ")).expect(each) + name.len() + 2;
        each[start..].split(' ').next().unwrap().parse().unwrap()
    };
    let best = value("fam-heavy").min(value("fam-light"));
    assert!(cells[5].starts_with(&format!("{best:.3} (")), "{row}");
    // The verdict is the best case's interval against the band 0.7 +- 50%, as claims.csv says;
    // the interval splits its 5% over the two specs' pairs.
    let csv = std::fs::read_to_string(dir.join("results/fam-claims.csv")).unwrap();
    let fields: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let (lower, upper): (f64, f64) = (fields[7].parse().unwrap(), fields[8].parse().unwrap());
    assert_eq!((fields[9], fields[10], fields[11]), ("0.975", "3", "seeds"), "{csv}");
    assert!(lower <= best && best <= upper, "{csv}");
    let verdict = if lower >= 0.35 && upper <= 1.05 {
        "| holds |"
    } else if upper < 0.35 || lower > 1.05 {
        "| MISSED |"
    } else {
        "inconclusive"
    };
    assert!(row.contains(verdict) && fields[14] == verdict.trim_matches(['|', ' ']).to_lowercase(), "{row}\n{csv}");
    // One spec alone makes no table.
    let output = schedlab().current_dir(&dir).args(["reproduce", "fam-light", "--quiet"]).output().unwrap();
    assert!(output.status.success(), "{}", text(&output).1);
    assert!(!dir.join("results/fam-light-claims.md").exists());
}

#[test]
fn reproduce_all_runs_every_spec_in_one_queue_resumes_and_gives_each_spec_its_own_bytes() {
    let dir = temp_dir("all");
    std::fs::create_dir_all(dir.join("experiments")).unwrap();
    let claim = "claims:
  - {source: \"Paper X abstract\", text: \"LAS cuts JCT by up to 30%\", metric: avg_jct_hours,
     best_ratio: {policy: \"las[quantum=600]\", against: [fifo], best: min}, expected: 0.7, tolerance: 0.5}
";
    for (name, rate) in [("fam-light", "1.0"), ("fam-heavy", "3.0"), ("solo", "2.0")] {
        let spec = SPEC
            .replace("name: cli", &format!("name: {name}"))
            .replace("rate_per_hour: [1.5, 3.0]", &format!("rate_per_hour: [{rate}]"))
            .replace("jobs: 150", "jobs: 60");
        std::fs::write(dir.join("experiments").join(format!("{name}.yaml")), format!("{spec}{claim}")).unwrap();
    }
    let all = |results: &str, threads: &str| {
        succeeds(&dir, &["reproduce", "all", "--threads", threads, "--results", results]).0
    };
    let stdout = all("two", "2");
    // 3 specs x 4 policies x 3 seeds x 1 rate.
    assert!(stdout.contains("all 3 experiments: 36 runs run now, 0 reused"), "{stdout}");
    assert!(stdout.contains("claims of every experiment (3): "), "{stdout}");
    for name in ["fam-light", "fam-heavy", "solo"] {
        assert!(dir.join(format!("two/{name}/claims.md")).exists(), "{name}");
    }
    // The family's claim across its two specs, as `reproduce fam` writes it; no family of one.
    assert!(dir.join("two/fam-claims.md").exists() && !dir.join("two/solo-claims.md").exists());
    assert!(dir.join("two/claims.md").exists() && dir.join("two/index.html").exists());

    // Interrupted (runs lost): a rerun computes only those and reuses the rest.
    let runs = dir.join("two/fam-heavy/runs");
    let mut stored: Vec<_> = std::fs::read_dir(&runs)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .collect();
    stored.sort();
    assert_eq!(stored.len(), 12);
    for path in &stored[..5] {
        std::fs::remove_file(path).unwrap();
    }
    let stdout = all("two", "2");
    assert!(stdout.contains("all 3 experiments: 5 runs run now, 31 reused"), "{stdout}");

    // One thread, and each family on its own, give the same bytes.
    all("one", "1");
    succeeds(&dir, &["reproduce", "fam", "--quiet", "--results", "fam"]);
    for file in ["fam-light/runs.csv", "fam-heavy/runs.csv", "fam-light/claims.csv", "fam-claims.csv"] {
        let read = |results: &str| std::fs::read(dir.join(results).join(file)).unwrap();
        assert_eq!(read("two"), read("one"), "{file}");
        assert_eq!(read("two"), read("fam"), "{file}");
    }
}

#[test]
fn a_run_two_specs_share_is_computed_once_and_copied_to_each_store() {
    let dir = temp_dir("shared-runs");
    std::fs::create_dir_all(dir.join("experiments")).unwrap();
    // The same inputs; `share-b` sweeps one more rate, so `share-a`'s 12 runs are also its runs.
    for (name, rates) in [("share-a", "[1.0]"), ("share-b", "[1.0, 2.0]")] {
        let spec = SPEC
            .replace("name: cli", &format!("name: {name}"))
            .replace("rate_per_hour: [1.5, 3.0]", &format!("rate_per_hour: {rates}"))
            .replace("jobs: 150", "jobs: 40");
        std::fs::write(dir.join("experiments").join(format!("{name}.yaml")), spec).unwrap();
    }
    let stdout = succeeds(&dir, &["reproduce", "all", "--threads", "2", "--results", "all"]).0;
    // The first spec (in name order) computes them; the other copies them.
    assert!(stdout.contains("share-a: 12 runs (12 run now, 0 reused)"), "{stdout}");
    assert!(stdout.contains("share-b: 24 runs (12 run now, 12 reused)"), "{stdout}");
    assert!(stdout.contains("all 2 experiments: 24 runs run now, 12 reused"), "{stdout}");
    // Each store holds its own copy, and a spec alone gives the same bytes.
    let stored = |results: &str, name: &str| {
        let runs = std::fs::read_dir(dir.join(results).join(name).join("runs")).unwrap();
        runs.filter(|entry| entry.as_ref().unwrap().path().extension().is_some_and(|extension| extension == "json"))
            .count()
    };
    assert_eq!((stored("all", "share-a"), stored("all", "share-b")), (12, 24));
    succeeds(&dir, &["run", "experiments/share-a.yaml", "--quiet", "--results", "alone"]);
    let read = |results: &str| std::fs::read(dir.join(results).join("share-a/runs.csv")).unwrap();
    assert_eq!(read("all"), read("alone"));
    // A run another spec stored earlier in the same results folder is copied, not run again.
    let stdout = succeeds(&dir, &["run", "experiments/share-b.yaml", "--results", "alone"]).0;
    assert!(stdout.contains("24 runs (12 run now, 12 reused)"), "{stdout}");
    // Not when its inputs differ: another cluster is another run.
    let other = std::fs::read_to_string(dir.join("experiments/share-a.yaml")).unwrap().replace("k80: 16", "k80: 8");
    std::fs::write(dir.join("experiments/share-a.yaml"), other).unwrap();
    let stdout = succeeds(&dir, &["run", "experiments/share-a.yaml", "--results", "all"]).0;
    assert!(stdout.contains("12 runs (12 run now, 0 reused)"), "{stdout}");
}

/// A spec with adaptive seeds: an easy claim (SRTF finishes every job), one that needs more
/// seeds (FIFO's JCT is at most 52 h), and one no number of seeds up to max settles.
const ADAPTIVE: &str = "name: adaptive
workload:
  generator:
    gavel-continuous: {jobs: 60, rate_per_hour: 2.0, multi_gpu: true}
cluster:
  compact: {gpus: {v100: 16, k80: 16}, gpus_per_node: 4}
policies: [fifo, srtf, las]
seeds: {min: 4, max: 12, settle: claims}
tables:
  - {name: avg_jct, metric: avg_jct_hours, rows: policy, columns: seed}
claims:
  - {source: Test, text: SRTF finishes every job, metric: jobs_finished, policy: srtf, expected: 60, tolerance: 0.1}
  - {source: Test, text: FIFO JCT at most 52 h, metric: avg_jct_hours, policy: fifo, expected: 26, tolerance: 1.0, direction: at_most}
  - {source: Test, text: LAS JCT is 15 h, metric: avg_jct_hours, policy: las, expected: 15, tolerance: 0.1}
";

#[test]
fn adaptive_seeds_add_seeds_to_the_open_claims_runs_resume_and_give_the_same_bytes_on_any_thread_count() {
    let dir = temp_dir("adaptive");
    std::fs::write(dir.join("adaptive.yaml"), ADAPTIVE).unwrap();
    let run = |results: &str, threads: &str| {
        succeeds(&dir, &["run", "adaptive.yaml", "--threads", threads, "--results", results])
    };
    let (stdout, stderr) = run("two", "2");
    // Looks at 4, 8 and 12 seeds (K = 3): all runs at 4, then only the open claims' runs.
    for line in [
        "adaptive: 3 claims open: 12 runs take them to 4 seeds",
        "adaptive: 2 claims open: 8 runs take them to 8 seeds",
        "adaptive: 1 claims open: 4 runs take them to 12 seeds",
    ] {
        assert!(stderr.contains(line), "{line}\n{stderr}");
    }
    assert!(stdout.contains("adaptive: 24 runs (24 run now, 0 reused)"), "{stdout}");
    let csv = std::fs::read_to_string(dir.join("two/adaptive/claims.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|line| line.split(',').collect()).collect();
    // confidence, units, verdict: each claim judged at 1 - 0.05 / 3 on the seeds its look had.
    let judged: Vec<(&str, &str, &str)> = rows.iter().map(|row| (row[9], row[10], row[14])).collect();
    let level = (1.0 - 0.05 / 3.0f64).to_string();
    assert_eq!(
        judged,
        vec![(level.as_str(), "4", "holds"), (level.as_str(), "8", "holds"), (level.as_str(), "12", "inconclusive")],
        "{csv}"
    );
    let runs = std::fs::read_to_string(dir.join("two/adaptive/runs.csv")).unwrap();
    let seeds_of = |policy: &str| runs.lines().filter(|line| line.split(',').nth(1) == Some(policy)).count();
    assert_eq!((seeds_of("srtf"), seeds_of("fifo"), seeds_of("las")), (4, 8, 12), "{runs}");

    // Interrupted in the last look: a rerun computes the lost runs only.
    let stored = dir.join("two/adaptive/runs");
    let lost: Vec<_> = std::fs::read_dir(&stored)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().contains("policy=las_seed=1"))
        .collect();
    assert_eq!(lost.len(), 3, "seeds 1, 10 and 11 of LAS: {lost:?}");
    for path in &lost {
        std::fs::remove_file(path).unwrap();
    }
    let (stdout, _) = run("two", "2");
    assert!(stdout.contains("adaptive: 24 runs (3 run now, 21 reused)"), "{stdout}");

    // One thread gives the same bytes.
    run("one", "1");
    for file in ["runs.csv", "claims.csv", "avg_jct.csv"] {
        let read = |results: &str| std::fs::read(dir.join(results).join("adaptive").join(file)).unwrap();
        assert_eq!(read("two"), read("one"), "{file}");
    }

    // Shards: each runs its share of one look; `report` waits for the looks the claims need.
    let shard = |which: &str| {
        succeeds(&dir, &["run", "adaptive.yaml", "--quiet", "--results", "shards", "--shard", which]);
    };
    let report = || {
        schedlab()
            .current_dir(&dir)
            .args(["report", "adaptive.yaml", "--quiet", "--results", "shards"])
            .output()
            .unwrap()
    };
    for look in 0..3 {
        shard("0/2");
        shard("1/2");
        let output = report();
        if look < 2 {
            let (_, stderr) = text(&output);
            assert!(!output.status.success() && stderr.contains("the next look of adaptive seeds needs"), "{stderr}");
        } else {
            assert!(output.status.success(), "{}", text(&output).1);
        }
    }
    for file in ["runs.csv", "claims.csv", "avg_jct.csv"] {
        let read = |results: &str| std::fs::read(dir.join(results).join("adaptive").join(file)).unwrap();
        assert_eq!(read("two"), read("shards"), "{file}");
    }

    // A budget that the first look already uses up: no more seeds, and the open claims named.
    let (_, stderr) = succeeds(&dir, &["run", "adaptive.yaml", "--quiet", "--results", "budget", "--budget", "0.001s"]);
    assert!(
        stderr.contains("budget: adaptive stopped adding seeds before its claims were settled; inconclusive for want of them (2): FIFO JCT at most 52 h; LAS JCT is 15 h"),
        "{stderr}"
    );
    let csv = std::fs::read_to_string(dir.join("budget/adaptive/claims.csv")).unwrap();
    let verdicts: Vec<(&str, &str)> = csv
        .lines()
        .skip(1)
        .map(|line| {
            let row: Vec<&str> = line.split(',').collect();
            (row[10], row[14])
        })
        .collect();
    assert_eq!(verdicts, vec![("4", "holds"), ("4", "inconclusive"), ("4", "inconclusive")], "{csv}");
    // Without it, the looks go on from the stored runs.
    succeeds(&dir, &["run", "adaptive.yaml", "--quiet", "--results", "budget"]);
    assert_eq!(
        std::fs::read(dir.join("budget/adaptive/claims.csv")).unwrap(),
        std::fs::read(dir.join("two/adaptive/claims.csv")).unwrap()
    );
    assert!(
        schedlab().args(["run", "adaptive.yaml", "--budget", "30"]).current_dir(&dir).output().unwrap().status.code()
            == Some(2)
    );

    let output = schedlab().current_dir(&dir).args(["check", "adaptive.yaml"]).output().unwrap();
    let (stdout, _) = text(&output);
    assert!(
        stdout.contains(
            "ok (at most 36 runs: 3 policies x 12 seeds x 1 sweep points; adaptive seeds: looks at 4, 8, 12 seeds"
        ),
        "{stdout}"
    );

    // An interval needs two seeds.
    std::fs::write(dir.join("bad.yaml"), ADAPTIVE.replace("min: 4", "min: 1")).unwrap();
    let output = schedlab().current_dir(&dir).args(["check", "bad.yaml"]).output().unwrap();
    let (_, stderr) = text(&output);
    assert!(!output.status.success() && stderr.contains("expected 2 <= min <= max"), "{stderr}");

    // A study judged afresh: `from` shifts every look to seeds no earlier look read, with the
    // same plan (the same looks and runs per look as seeds 0-11 take).
    std::fs::write(dir.join("fresh.yaml"), ADAPTIVE.replace("seeds: {min: 4", "seeds: {from: 20, min: 4")).unwrap();
    succeeds(&dir, &["run", "fresh.yaml", "--quiet", "--results", "fresh"]);
    let runs = std::fs::read_to_string(dir.join("fresh/adaptive/runs.csv")).unwrap();
    let seeds: std::collections::BTreeSet<u64> =
        runs.lines().skip(1).map(|line| line.split(',').nth(2).unwrap().parse().unwrap()).collect();
    assert_eq!(seeds, (20..32).collect(), "{runs}");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn every_training_spec_shipped_beside_weights_passes_check() {
    // The trainers read these specs (`schedlab train rltune --trace NAME`); nothing else runs them.
    let data = data_dir_with("helios/helios-dirlab-15k.csv");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let folder = root.join("crates/policies/rltune/weights");
    let mut specs: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().ends_with("-train.yaml"))
        .collect();
    specs.sort();
    assert!(specs.len() >= 2, "{specs:?}");
    for spec in specs {
        let output = schedlab().env("SCHEDLAB_DATA", &data).arg("check").arg(&spec).output().unwrap();
        assert!(output.status.success(), "{}: {}", spec.display(), text(&output).1);
    }
}

#[test]
fn new_policy_refuses_a_registered_name_with_what_the_zoo_says_of_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let output = schedlab().args(["new-policy", "las", "--root"]).arg(&root).output().unwrap();
    let (_, stderr) = text(&output);
    assert!(!output.status.success());
    assert!(
        stderr.contains("policy name 'las' is already registered (") && stderr.contains("choose another name"),
        "{stderr}"
    );
    assert!(!root.join("crates/policies/las").exists());
}

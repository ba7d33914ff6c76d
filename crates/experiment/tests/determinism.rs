use crate::common::{SMALL, run, temp_dir};

fn read(dir: &std::path::Path, name: &str) -> String {
    std::fs::read_to_string(dir.join("small").join(name)).unwrap()
}

#[test]
fn one_or_two_threads_give_byte_identical_results() {
    let (one, two) = (temp_dir("threads-1"), temp_dir("threads-2"));
    run(SMALL, &one, 1).unwrap();
    run(SMALL, &two, 2).unwrap();
    for file in ["runs.csv", "avg_jct.csv", "avg_jct.md", "jct_cdf.svg", "avg_jct_hours_vs_rate_per_hour.svg"] {
        assert_eq!(read(&one, file), read(&two, file), "{file} differs");
    }
}

#[test]
fn an_interrupted_sweep_resumes_and_ends_where_an_uninterrupted_one_does() {
    let dir = temp_dir("resume");
    let first = run(SMALL, &dir, 2).unwrap();
    assert_eq!((first.ran, first.reused), (12, 0));
    let complete = read(&dir, "runs.csv");
    // Simulate a kill after some runs: remove five stored runs and the reports.
    let files = crate::common::stored_runs(&dir, "small");
    for file in files.iter().take(5) {
        std::fs::remove_file(file).unwrap();
    }
    std::fs::remove_file(dir.join("small/runs.csv")).unwrap();
    let resumed = run(SMALL, &dir, 2).unwrap();
    assert_eq!((resumed.ran, resumed.reused), (5, 7));
    assert_eq!(read(&dir, "runs.csv"), complete);
    // Adding a policy runs only that policy; a change to what results depend on reruns everything.
    let more =
        run(&SMALL.replace("policies: [fifo, las, srtf]", "policies: [fifo, las, srtf, tiresias]"), &dir, 2).unwrap();
    assert_eq!((more.ran, more.reused), (4, 12));
    let changed = run(&SMALL.replace("jobs: 60", "jobs: 61"), &dir, 2).unwrap();
    assert_eq!((changed.ran, changed.reused), (12, 0));
}

#[test]
fn a_rerun_that_reuses_every_run_keeps_the_manifests_workload_reports() {
    let dir = temp_dir("cached-manifest");
    run(SMALL, &dir, 2).unwrap();
    let reports = |dir: &std::path::Path| {
        let manifest: serde_json::Value = serde_json::from_str(&read(dir, "manifest.json")).unwrap();
        manifest["workload_report"].clone()
    };
    let first = reports(&dir);
    assert!(first.as_array().is_some_and(|reports| !reports.is_empty()), "{first}");
    let again = run(SMALL, &dir, 2).unwrap();
    assert_eq!((again.ran, again.reused), (0, 12));
    assert_eq!(reports(&dir), first);
}

#[test]
fn every_policy_sees_the_same_workload_and_seeds_differ() {
    let dir = temp_dir("workloads");
    let result = run(SMALL, &dir, 2).unwrap();
    let jobs = |policy: &str, seed: u64| {
        result
            .outcomes
            .iter()
            .find(|outcome| outcome.policy == policy && outcome.seed == seed && outcome.point[0].1 == 0.5)
            .map(|outcome| outcome.metrics.jobs_measured)
            .unwrap()
    };
    assert_eq!(jobs("fifo", 0), jobs("las", 0));
    let makespan = |policy: &str, seed: u64| {
        result
            .outcomes
            .iter()
            .find(|outcome| outcome.policy == policy && outcome.seed == seed)
            .unwrap()
            .metrics
            .makespan
    };
    assert_ne!(makespan("fifo", 0), makespan("fifo", 1), "seeds should give different workloads");
}

#[test]
fn editing_a_policys_data_file_reruns_only_that_policys_runs() {
    let dir = temp_dir("policy-files");
    let table = |v100: f64| {
        format!(r#"{{"v100": {{"('A', 1)": {{"null": {v100}}}}}, "k80": {{"('A', 1)": {{"null": 1.0}}}}}}"#)
    };
    let (perf, policy_table) = (dir.join("perf.json"), dir.join("policy.json"));
    std::fs::write(&perf, table(10.0)).unwrap();
    std::fs::write(&policy_table, table(10.0)).unwrap();
    let spec = format!(
        "name: files
workload:
  generator:
    gavel-continuous: {{jobs: 20, rate_per_hour: 4}}
  model:
    gavel-zoo: {{reference: v100}}
cluster:
  compact: {{gpus: {{v100: 2, k80: 2}}, gpus_per_node: 2}}
perf:
  throughputs: {{path: {}, reference: v100}}
policies: [fifo, 'gavel-las[throughputs={}]']
seeds: [0, 1]
tables:
  - {{name: avg_jct, metric: avg_jct_hours, rows: policy, columns: seed}}
",
        perf.display(),
        policy_table.display()
    );
    let results = dir.join("results");
    let first = run(&spec, &results, 1).unwrap();
    assert_eq!((first.ran, first.reused), (4, 0));
    let again = run(&spec, &results, 1).unwrap();
    assert_eq!((again.ran, again.reused), (0, 4));
    // Only the Gavel policy reads policy.json: its two runs rerun, FIFO's are reused.
    std::fs::write(&policy_table, table(20.0)).unwrap();
    let edited = run(&spec, &results, 1).unwrap();
    assert_eq!((edited.ran, edited.reused), (2, 2));
    let manifest = std::fs::read_to_string(results.join("files/manifest.json")).unwrap();
    assert!(manifest.contains("policy_files") && manifest.contains("policy.json"), "{manifest}");
}

#[test]
fn run_seeds_differ_across_seeds_and_points_and_are_shared_by_policies() {
    let experiment = crate::common::parse(SMALL).unwrap();
    let runs = experiment.runs();
    let again = crate::common::parse(SMALL).unwrap().runs();
    assert_eq!(
        runs.iter().map(|plan| plan.run_seed).collect::<Vec<_>>(),
        again.iter().map(|plan| plan.run_seed).collect::<Vec<_>>()
    );
    let mut by_workload: std::collections::BTreeMap<&str, std::collections::BTreeSet<u64>> = Default::default();
    for plan in &runs {
        by_workload.entry(&plan.workload_key).or_default().insert(plan.run_seed);
        assert_ne!(plan.run_seed, plan.workload_seed, "a separate stream from the workload's");
    }
    // Two seeds x two rates: four workloads, each with one run seed for all three policies.
    assert_eq!(by_workload.len(), 4);
    assert!(by_workload.values().all(|seeds| seeds.len() == 1));
    let distinct: std::collections::BTreeSet<u64> = by_workload.values().flatten().copied().collect();
    assert_eq!(distinct.len(), 4);
}

#[test]
fn a_worker_wrapper_runs_every_worker_thread_and_changes_no_result() {
    use schedlab_experiment::{RunOptions, WorkerWrapper, no_progress, run_experiment};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (plain, wrapped) = (temp_dir("wrapper-plain"), temp_dir("wrapper-wrapped"));
    run(SMALL, &plain, 2).unwrap();
    let entered = Arc::new(AtomicUsize::new(0));
    let counter = entered.clone();
    let worker = WorkerWrapper(Arc::new(move |body| {
        counter.fetch_add(1, Ordering::SeqCst);
        body();
    }));
    let options =
        RunOptions { threads: 2, results_dir: wrapped.clone(), worker: Some(worker), ..RunOptions::default() };
    let result = run_experiment(&crate::common::parse(SMALL).unwrap(), &options, &no_progress).unwrap();
    assert_eq!(result.ran, 12);
    assert_eq!(entered.load(Ordering::SeqCst), 2, "one call per worker thread");
    assert_eq!(read(&plain, "runs.csv"), read(&wrapped, "runs.csv"));
}

#[test]
fn a_cancelled_run_stores_what_finished_says_so_and_a_rerun_resumes() {
    use schedlab_experiment::{RunOptions, run_experiment};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = temp_dir("cancel");
    let experiment = crate::common::parse(SMALL).unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    // Cancelled once the fourth run has finished, as Ctrl-C would be.
    let progress = move |event: schedlab_experiment::Progress<'_>| {
        if let schedlab_experiment::Progress::Finished { done: 4, .. } = event {
            flag.store(true, Ordering::SeqCst);
        }
    };
    let options = RunOptions { threads: 1, results_dir: dir.clone(), cancel: Some(cancel), ..RunOptions::default() };
    let error = run_experiment(&experiment, &options, &progress).unwrap_err().to_string();
    assert!(
        error.starts_with("interrupted: 4 runs are saved in") && error.contains("8 runs were not started"),
        "{error}"
    );
    let resumed = run(SMALL, &dir, 2).unwrap();
    assert_eq!((resumed.ran, resumed.reused), (8, 4));
}

#[test]
fn a_renamed_copy_replays_the_same_jobs_and_a_new_cluster_draws_new_ones() {
    let (original, renamed, recluster) = (temp_dir("named-small"), temp_dir("named-mine"), temp_dir("named-cluster"));
    run(SMALL, &original, 2).unwrap();
    run(&SMALL.replace("name: small", "name: mine"), &renamed, 2).unwrap();
    let rows = |dir: &std::path::Path, name: &str| std::fs::read_to_string(dir.join(name).join("runs.csv")).unwrap();
    assert_eq!(rows(&original, "small"), rows(&renamed, "mine"));
    // What defines the workload (here the cluster, which model assignment reads) draws anew.
    run(&SMALL.replace("k80: 8}", "k80: 4}"), &recluster, 2).unwrap();
    let seeds = |spec: &str| {
        crate::common::parse(spec).unwrap().runs().iter().map(|plan| plan.workload_seed).collect::<Vec<_>>()
    };
    assert_eq!(seeds(SMALL), seeds(&SMALL.replace("name: small", "name: mine")));
    assert_ne!(seeds(SMALL), seeds(&SMALL.replace("k80: 8}", "k80: 4}")));
    assert_ne!(rows(&original, "small"), rows(&recluster, "small"));
}

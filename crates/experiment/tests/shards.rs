use crate::common::{SMALL, parse, run, temp_dir};
use schedlab_experiment::{RunOptions, Shard, no_progress, report_experiment, run_experiment};
use std::collections::BTreeMap;
use std::path::Path;

/// Every file of an experiment folder but the stored runs and shard records, by relative path.
/// The wall and solver times (the manifest's, and the page's wall time) are the runs' own and
/// differ between any two computations, so they are left out.
fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut bytes = std::fs::read(&path).unwrap();
        if name == "manifest.json" {
            let mut manifest: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            let object = manifest.as_object_mut().unwrap();
            assert!(object.remove("wall_time_s").is_some() && object.remove("solver").is_some());
            bytes = serde_json::to_vec_pretty(&manifest).unwrap();
        }
        if name == "index.html" {
            bytes = without_wall_time(&String::from_utf8(bytes).unwrap()).into_bytes();
        }
        files.insert(name, bytes);
    }
    files
}

/// The page with its wall-time text removed.
fn without_wall_time(page: &str) -> String {
    let start = page.find("<span class=\"wall-time\">").expect("the page states its wall time");
    let end = start + page[start..].find("</span>").unwrap();
    format!("{}{}", &page[..start], &page[end..])
}

fn run_shard(results: &Path, index: usize, count: usize) -> schedlab_experiment::runner::ExperimentResult {
    let options = RunOptions {
        threads: 1,
        results_dir: results.to_path_buf(),
        shard: Some(Shard { index, count }),
        ..RunOptions::default()
    };
    run_experiment(&parse(SMALL).unwrap(), &options, &no_progress).unwrap()
}

fn report(results: &Path) -> Result<schedlab_experiment::runner::ExperimentResult, String> {
    let options = RunOptions { threads: 2, results_dir: results.to_path_buf(), ..RunOptions::default() };
    report_experiment(&parse(SMALL).unwrap(), &options, &no_progress).map_err(|error| error.to_string())
}

#[test]
fn shards_then_a_report_give_the_files_of_a_single_run_byte_for_byte() {
    let (single, sharded) = (temp_dir("single"), temp_dir("sharded"));
    run(SMALL, &single, 2).unwrap();
    let mut keys = Vec::new();
    for index in 0..3 {
        let result = run_shard(&sharded, index, 3);
        assert_eq!(result.files, vec![format!("shards/{index}-of-3.json")]);
        assert!(result.tables.is_empty() && result.claims.is_empty());
        keys.extend(result.outcomes.into_iter().map(|outcome| outcome.key));
        // A shard writes no report: the folder holds only the store and the records.
        assert!(!sharded.join("small/runs.csv").exists());
    }
    // Each of the 12 runs was run by exactly one shard, 4 each (equal job counts).
    keys.sort();
    let all: Vec<String> = parse(SMALL).unwrap().runs().into_iter().map(|plan| plan.key).collect();
    assert_eq!(keys, all);
    let merged = report(&sharded).unwrap();
    assert_eq!((merged.ran, merged.reused), (0, 12));
    let (expected, got) = (outputs(&single.join("small")), outputs(&sharded.join("small")));
    assert_eq!(expected.keys().collect::<Vec<_>>(), got.keys().collect::<Vec<_>>());
    for (name, bytes) in &expected {
        assert!(got[name] == *bytes, "{name} differs between the single run and the merged shards");
    }
    // Every stored run file is the same set, written once each.
    let listing = |dir: &Path| {
        let files = crate::common::stored_runs(dir, "small");
        files.iter().map(|path| path.file_name().unwrap().to_string_lossy().into_owned()).collect::<Vec<_>>()
    };
    assert_eq!(listing(&single), listing(&sharded));
}

#[test]
fn a_shard_runs_the_same_runs_whatever_the_store_holds() {
    let (empty, full) = (temp_dir("shard-empty"), temp_dir("shard-full"));
    run(SMALL, &full, 2).unwrap();
    let keys = |result: schedlab_experiment::runner::ExperimentResult| {
        result.outcomes.into_iter().map(|outcome| outcome.key).collect::<Vec<_>>()
    };
    let fresh = run_shard(&empty, 1, 5);
    assert_eq!(fresh.ran, fresh.outcomes.len());
    let resumed = run_shard(&full, 1, 5);
    assert_eq!((resumed.ran, resumed.reused), (0, resumed.outcomes.len()));
    assert_eq!(keys(fresh), keys(resumed));
}

#[test]
fn a_report_names_the_shard_whose_runs_are_missing_and_resumes_after_it_reruns() {
    let results = temp_dir("shard-missing");
    let error = report(&results).unwrap_err();
    assert!(error.contains("no result store"), "{error}");
    run_shard(&results, 0, 3);
    run_shard(&results, 2, 3);
    let error = report(&results).unwrap_err();
    assert!(error.contains("4 of 12 runs are not stored"), "{error}");
    assert!(error.contains("shard 1/3 is missing 4 runs"), "{error}");
    assert!(error.contains("it did not finish"), "{error}");
    assert!(!error.contains("shard 0/3") && !error.contains("shard 2/3"), "{error}");
    // A shard whose record is there but one of whose runs was lost (or made by other inputs).
    let record = std::fs::read_to_string(results.join("small/shards/0-of-3.json")).unwrap();
    let record: schedlab_experiment::shard::ShardRecord = serde_json::from_str(&record).unwrap();
    let runs_dir = results.join("small/runs");
    let victim = std::fs::read_dir(&runs_dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| {
            let text = std::fs::read_to_string(path).unwrap();
            record.runs.iter().any(|key| text.contains(&format!("\"key\":\"{key}\"")))
        })
        .unwrap();
    std::fs::remove_file(victim).unwrap();
    let error = report(&results).unwrap_err();
    assert!(error.contains("shard 0/3 is missing 1 runs") && error.contains("it finished, but"), "{error}");
    run_shard(&results, 1, 3);
    run_shard(&results, 0, 3);
    let merged = report(&results).unwrap();
    assert_eq!(merged.outcomes.len(), 12);
}

#[test]
fn a_store_in_use_is_refused_at_once_and_shards_run_beside_each_other() {
    use schedlab_experiment::lock::{Access, StoreLock};
    let results = temp_dir("store-in-use");
    std::fs::create_dir_all(results.join("small/runs")).unwrap();
    // Another process running shard 1/3 (a lock held through another open file).
    let other = StoreLock::acquire(&results.join("small"), Access::Shard(Shard { index: 1, count: 3 })).unwrap();
    let whole = run(SMALL, &results, 1).unwrap_err().to_string();
    assert!(whole.contains("small: the result store is in use by another schedlab process"), "{whole}");
    assert!(report(&results).unwrap_err().contains("in use"));
    assert_eq!(run_shard(&results, 0, 3).ran, 4, "another shard runs beside it");
    let options =
        RunOptions { results_dir: results.clone(), shard: Some(Shard { index: 1, count: 3 }), ..RunOptions::default() };
    let same = run_experiment(&parse(SMALL).unwrap(), &options, &no_progress).unwrap_err().to_string();
    assert!(same.contains("another process running shard 1/3"), "{same}");
    drop(other);
    run_shard(&results, 1, 3);
    run_shard(&results, 2, 3);
    assert_eq!(report(&results).unwrap().outcomes.len(), 12);
}

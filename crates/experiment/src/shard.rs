//! Shards: one of N deterministic parts of a sweep (`run --shard I/N`), so that a Slurm job array
//! or a Kubernetes Indexed Job can fill one result store from many processes, and `report` can
//! build the outputs once every part is stored.
//!
//! Which shard runs which run is a pure function of the experiment (its runs and their job
//! counts), never of the store or the machine: a resubmitted shard runs exactly the runs it ran
//! before, and `report` can name the shard a missing run belongs to.

use crate::ExperimentError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Part `index` (from 0) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which part, `0..count`.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Parses `I/N` with `0 <= I < N` (Slurm's `$SLURM_ARRAY_TASK_ID` and Kubernetes's
    /// `$JOB_COMPLETION_INDEX` both count from 0).
    fn from_str(text: &str) -> Result<Shard, String> {
        let expected = || format!("'{text}': expected I/N with 0 <= I < N (e.g. 0/4), shards counted from 0");
        let (index, count) = text.split_once('/').ok_or_else(expected)?;
        let index: usize = index.trim().parse().map_err(|_| expected())?;
        let count: usize = count.trim().parse().map_err(|_| expected())?;
        if count == 0 || index >= count {
            return Err(expected());
        }
        Ok(Shard { index, count })
    }
}

/// The shard of each run: longest processing time first. Runs are taken in decreasing `cost`
/// (ties in the given order, which is key order) and each goes to the shard with the least cost
/// so far (ties to the lowest index). With equal costs this deals runs out in turn, so each
/// shard gets a mix of policies and seeds.
pub fn assign(costs: &[u64], count: usize) -> Vec<usize> {
    assert!(count > 0, "at least one shard");
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].cmp(&costs[a]).then(a.cmp(&b)));
    let mut load = vec![0u64; count];
    let mut shard_of = vec![0; costs.len()];
    for run in order {
        let lightest = (0..count).min_by_key(|&shard| (load[shard], shard)).expect("count > 0");
        load[lightest] += costs[run].max(1);
        shard_of[run] = lightest;
    }
    shard_of
}

/// What a shard writes when every one of its runs is stored: `shards/I-of-N.json` in the
/// experiment's folder (one file per shard, so shards never write the same file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// The shard.
    pub shard: Shard,
    /// The keys of its runs, in key order.
    pub runs: Vec<String>,
}

/// The file a shard's record goes to, relative to the experiment's folder.
pub fn record_name(shard: Shard) -> String {
    format!("shards/{}-of-{}.json", shard.index, shard.count)
}

/// The shard records in `dir/shards/`, in file-name order.
pub fn records(dir: &Path) -> Result<Vec<(PathBuf, ShardRecord)>, ExperimentError> {
    let folder = dir.join("shards");
    let Ok(entries) = std::fs::read_dir(&folder) else { return Ok(Vec::new()) };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|extension| extension == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).map_err(|error| ExperimentError::Io {
                path: path.display().to_string(),
                message: error.to_string(),
            })?;
            let record = serde_json::from_str(&text).map_err(|error| ExperimentError::Io {
                path: path.display().to_string(),
                message: format!("not a shard record: {error}"),
            })?;
            Ok((path, record))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_from_zero_and_refuse_what_is_out_of_range() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!("0/1".parse::<Shard>().unwrap().to_string(), "0/1");
        for bad in ["4/4", "1/0", "1", "a/3", "-1/3", "1/3/5", ""] {
            let error = bad.parse::<Shard>().unwrap_err();
            assert!(error.contains("expected I/N"), "{bad}: {error}");
        }
    }

    #[test]
    fn longest_runs_are_spread_first_and_costs_balance() {
        // One long run and six short ones over two shards: the long one alone on shard 0.
        assert_eq!(assign(&[1, 1, 1, 10, 1, 1, 1], 2), vec![1, 1, 1, 0, 1, 1, 1]);
        assert_eq!(assign(&[1, 1, 1, 4, 1, 1, 1], 2), vec![1, 1, 1, 0, 1, 0, 1]);
        // Equal costs are dealt out in turn.
        assert_eq!(assign(&[5; 6], 3), vec![0, 1, 2, 0, 1, 2]);
        // More shards than runs: the last shards are empty, none is assigned twice.
        assert_eq!(assign(&[3, 2], 4), vec![0, 1]);
        // Zero-cost runs still count, so they do not all pile onto one shard.
        assert_eq!(assign(&[0, 0, 0, 0], 2), vec![0, 1, 0, 1]);
    }

    #[test]
    fn every_run_is_in_exactly_one_shard_whatever_the_count() {
        let costs: Vec<u64> = (0..50).map(|index| (index * 37 % 11) as u64).collect();
        for count in 1..8 {
            let shard_of = assign(&costs, count);
            assert_eq!(shard_of.len(), costs.len());
            assert!(shard_of.iter().all(|&shard| shard < count));
            let mut load = vec![0u64; count];
            for (run, &shard) in shard_of.iter().enumerate() {
                load[shard] += costs[run].max(1);
            }
            let (lightest, heaviest) = (load.iter().min().unwrap(), load.iter().max().unwrap());
            assert!(heaviest - lightest <= 10, "{count} shards: {load:?}");
        }
    }
}

//! Locks on a result store, so that two processes never compute the same runs or write the same
//! reports at once.
//!
//! The lock files live in the store's `runs/` folder (a cache, not results). A whole run and a
//! report hold `runs/.lock` exclusively. A shard holds it shared (the shards of one array write
//! disjoint runs and no reports) and its own `runs/.lock-shard-I-of-N` exclusively (a resubmitted task must not race a still-running one). Locks are advisory file
//! locks (`flock` on Unix), released when the process ends however it ends, so a killed run
//! never leaves the store locked. A second process gets an error at once instead of waiting.

use crate::{ExperimentError, Shard};
use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

/// The file every run and report of a store locks, inside the store folder.
pub const STORE_LOCK: &str = "runs/.lock";

/// Held locks; dropping it releases them.
#[derive(Debug)]
pub struct StoreLock {
    _files: Vec<File>,
}

/// What the holder is about to do with the store.
#[derive(Clone, Copy, Debug)]
pub enum Access {
    /// Every run and the reports (`run`, `reproduce`, `report`).
    Whole,
    /// One shard's runs only (`run --shard I/N`).
    Shard(Shard),
}

impl StoreLock {
    /// Takes the locks `access` needs on the store folder `dir` (whose `runs/` must exist), or fails
    /// naming the folder and what holds it.
    pub fn acquire(dir: &Path, access: Access) -> Result<StoreLock, ExperimentError> {
        let store = open(&dir.join(STORE_LOCK))?;
        let held_by = match access {
            Access::Whole => "another schedlab process (a run, a report or a shard)",
            Access::Shard(_) => "another schedlab process running this experiment whole or writing its report",
        };
        let taken = match access {
            Access::Whole => store.try_lock(),
            Access::Shard(_) => store.try_lock_shared(),
        };
        busy_or(taken, dir, held_by)?;
        let mut files = vec![store];
        if let Access::Shard(shard) = access {
            let own = open(&dir.join(format!("runs/.lock-shard-{}-of-{}", shard.index, shard.count)))?;
            busy_or(own.try_lock(), dir, &format!("another process running shard {shard}"))?;
            files.push(own);
        }
        Ok(StoreLock { _files: files })
    }
}

fn open(path: &Path) -> Result<File, ExperimentError> {
    OpenOptions::new().create(true).truncate(false).write(true).open(path).map_err(|error| ExperimentError::Io {
        path: path.display().to_string(),
        message: format!("cannot open the store's lock file: {error}"),
    })
}

fn busy_or(taken: Result<(), TryLockError>, dir: &Path, held_by: &str) -> Result<(), ExperimentError> {
    match taken {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => Err(ExperimentError::Busy(format!(
            "{}: the result store is in use by {held_by}; wait for it to end, or write to another folder \
             with --results",
            dir.display()
        ))),
        Err(TryLockError::Error(error)) => Err(ExperimentError::Io {
            path: dir.join(STORE_LOCK).display().to_string(),
            message: format!("cannot lock the result store: {error}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("schedlab-lock-{}-{test}", std::process::id()));
        std::fs::create_dir_all(dir.join("runs")).unwrap();
        dir
    }

    fn shard(index: usize, count: usize) -> Access {
        Access::Shard(Shard { index, count })
    }

    #[test]
    fn whole_runs_exclude_each_other_and_shards() {
        let dir = scratch("whole");
        let whole = StoreLock::acquire(&dir, Access::Whole).unwrap();
        let error = StoreLock::acquire(&dir, Access::Whole).unwrap_err().to_string();
        assert!(error.contains("in use by another schedlab process"), "{error}");
        assert!(error.contains("--results"), "{error}");
        assert!(StoreLock::acquire(&dir, shard(0, 2)).is_err());
        drop(whole);
        StoreLock::acquire(&dir, Access::Whole).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shards_share_the_store_but_not_their_own_runs() {
        let dir = scratch("shards");
        let first = StoreLock::acquire(&dir, shard(0, 2)).unwrap();
        let _second = StoreLock::acquire(&dir, shard(1, 2)).unwrap();
        let error = StoreLock::acquire(&dir, shard(0, 2)).unwrap_err().to_string();
        assert!(error.contains("another process running shard 0/2"), "{error}");
        assert!(StoreLock::acquire(&dir, Access::Whole).is_err(), "a report must wait for the shards");
        drop(first);
        StoreLock::acquire(&dir, shard(0, 2)).unwrap();
        drop(_second);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

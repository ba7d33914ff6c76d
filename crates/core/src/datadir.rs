//! Where the real data files live: one configurable directory.

use std::path::{Path, PathBuf};

/// The environment variable naming the data directory.
pub const DATA_ENV: &str = "SCHEDLAB_DATA";

/// Returns the data directory: `$SCHEDLAB_DATA` if set, else `./data` if it exists, else
/// `../shared/data` if it exists (relative to the working directory), else `None`.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(DATA_ENV) {
        return Some(PathBuf::from(dir));
    }
    ["data", "../shared/data"].iter().map(PathBuf::from).find(|candidate| candidate.is_dir())
}

/// Returns the directories [`data_dir`] looks in, for error messages.
pub fn data_dir_candidates() -> String {
    format!("${DATA_ENV}, ./data, ../shared/data")
}

/// Returns `relative` inside the data directory, or an error message naming where it looked.
pub fn data_file(relative: impl AsRef<Path>) -> Result<PathBuf, String> {
    let relative = relative.as_ref();
    match data_dir() {
        Some(dir) => {
            let path = dir.join(relative);
            if path.is_file() {
                Ok(path)
            } else {
                Err(format!("data file '{}' not found in data directory '{}'", relative.display(), dir.display()))
            }
        }
        None => Err(format!(
            "data file '{}' needed, but no data directory was found (looked in {})",
            relative.display(),
            data_dir_candidates()
        )),
    }
}

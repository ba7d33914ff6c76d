//! Where the real data files live: one configurable directory.

use std::path::{Path, PathBuf};

/// The environment variable naming the data directory.
pub const DATA_ENV: &str = "SCHEDLAB_DATA";

/// Returns the data directory: `$SCHEDLAB_DATA` if set, else `./data` if it exists, else
/// `../shared/data` if it exists relative to the working directory or one of its first few
/// parents (so that commands and tests run inside a crate's folder find it too), else `None`.
pub fn data_dir() -> Option<PathBuf> {
    data_dir_from(Path::new(""))
}

/// Like [`data_dir`], with `./data` and `../shared/data` taken relative to `base` (tests pass
/// the workspace root, since cargo runs them inside each crate's folder).
pub fn data_dir_from(base: &Path) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(DATA_ENV) {
        return Some(PathBuf::from(dir));
    }
    if let Some(found) = ["data", "../shared/data"].iter().map(|relative| base.join(relative)).find(|dir| dir.is_dir())
    {
        return Some(found);
    }
    let absolute = if base.as_os_str().is_empty() { std::env::current_dir().ok()? } else { base.to_path_buf() };
    absolute.ancestors().take(4).map(|folder| folder.join("../shared/data")).find(|candidate| candidate.is_dir())
}

/// The environment variable that makes tests fail, instead of skip, when data is missing.
pub const REQUIRE_DATA_ENV: &str = "SCHEDLAB_REQUIRE_DATA";

/// For tests: returns `relative` inside the data directory found from `workspace_root`, or
/// `None` (after printing why) when it is absent, so the test can skip.
///
/// # Panics
/// Panics when the file is absent and `SCHEDLAB_REQUIRE_DATA` is set: CI sets it so that
/// real-data tests cannot silently stop running.
pub fn test_data_file(workspace_root: &Path, relative: &str) -> Option<PathBuf> {
    let path = data_dir_from(workspace_root).map(|dir| dir.join(relative)).filter(|path| path.is_file());
    if path.is_none() {
        let message = format!("data file '{relative}' not found (looked in {})", data_dir_candidates());
        assert!(std::env::var_os(REQUIRE_DATA_ENV).is_none(), "{message}, and {REQUIRE_DATA_ENV} is set");
        eprintln!("skipping: {message}");
    }
    path
}

/// Returns the directories [`data_dir`] looks in, for error messages.
pub fn data_dir_candidates() -> String {
    format!("${DATA_ENV}, ./data, ../shared/data (from the working directory or up to 3 parents)")
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

//! Where the real data files live: one directory, found once by the binary and then passed
//! around explicitly as a [`DataDir`].

use std::path::{Path, PathBuf};

pub use schedlab_data_locate::{DATA_ENV, REQUIRE_DATA_ENV, data_dir_from};

/// Where each family of data files comes from, for "missing file" messages (path prefix, source).
const SOURCES: &[(&str, &str)] = &[
    (
        "philly/",
        "Philly traces: petuum/adaptdl (osdi21-artifact, simulator/traces/philly.csv), stanford-futuredata/gavel, S-Lab-System-Group/HeliosArtifact",
    ),
    ("gavel/", "stanford-futuredata/gavel @ c4fa400, scheduler/"),
    ("helios/", "S-Lab-System-Group/HeliosData and DIR-LAB/Gen-Parallel-Workloads"),
    ("alibaba/", "alibaba/clusterdata (cluster-trace-gpu-v2020, cluster-trace-gpu-v2023)"),
    ("pollux/", "petuum/adaptdl @ c793c70, simulator/"),
    ("rltune/", "dshruti20/RLTune, GPU_Traces/"),
    ("dl2/", "pengyanghua/DL2, config_speed.txt"),
];

/// Returns where a data file (path relative to the data directory) can be obtained.
pub fn public_source(relative: &str) -> &'static str {
    SOURCES
        .iter()
        .find(|(prefix, _)| relative.starts_with(prefix))
        .map_or("see ../shared/data/README.md", |(_, origin)| origin)
}

/// Occurs when a data file cannot be found; the message names the file, where it was looked
/// for and its public source.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DataError {
    /// The path as given (relative to the data directory unless absolute).
    pub path: String,
    /// What is wrong and where to get the file.
    pub message: String,
}

/// The data directory, or its absence. Relative data paths (`gavel/simulation_throughputs.json`)
/// are resolved against it; absolute paths are taken as they are.
///
/// Only the binary looks the directory up ([`DataDir::locate`]); libraries and policies are given
/// one (policies through [`crate::PolicyEnv`]), so nothing below the binary reads the process
/// environment to find files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataDir {
    root: Option<PathBuf>,
}

impl DataDir {
    /// A data directory at `root`.
    pub fn at(root: impl Into<PathBuf>) -> DataDir {
        DataDir { root: Some(root.into()) }
    }

    /// No data directory: only absolute paths resolve.
    pub fn none() -> DataDir {
        DataDir { root: None }
    }

    /// `$SCHEDLAB_DATA` if set, else `./data` if it exists, else `../shared/data` relative to
    /// the working directory or one of its first few parents (so commands run inside a crate's
    /// folder find it too), else none.
    pub fn locate() -> DataDir {
        DataDir::locate_from(Path::new(""))
    }

    /// Like [`DataDir::locate`], with `./data` and `../shared/data` taken relative to `base`
    /// (tests pass the workspace root, since cargo runs them inside each crate's folder).
    pub fn locate_from(base: &Path) -> DataDir {
        DataDir { root: data_dir_from(base) }
    }

    /// The directory, if there is one.
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// Returns the file at `path` (relative to the directory unless absolute), or an error naming
    /// the file, where it was looked for and its public source.
    pub fn file(&self, path: impl AsRef<Path>) -> Result<PathBuf, DataError> {
        let path = path.as_ref();
        let text = path.display().to_string();
        let error = |message: String| DataError { path: text.clone(), message };
        if path.is_absolute() {
            return if path.is_file() {
                Ok(path.to_path_buf())
            } else {
                Err(error(format!("data file '{text}' not found")))
            };
        }
        let origin = public_source(&text);
        match &self.root {
            Some(dir) if dir.join(path).is_file() => Ok(dir.join(path)),
            Some(dir) => Err(error(format!(
                "data file '{text}' not found in the data directory '{}'; public source: {origin}",
                dir.display()
            ))),
            None => Err(error(format!(
                "data file '{text}' needed, but no data directory was found (set SCHEDLAB_DATA, or create ./data or ../shared/data); public source: {origin}"
            ))),
        }
    }
}

/// For tests on real data, which are marked `#[cfg_attr(schedlab_no_data, ignore = "...")]`
/// (see `schedlab_data_locate`): the file `relative` in the data directory found from
/// `workspace_root`.
///
/// # Panics
/// Panics naming the file and where it was looked for when it is absent: a test that needs data
/// fails without it, and is ignored (by its cfg) only where no data is expected.
pub fn test_data_file(workspace_root: &Path, relative: &str) -> PathBuf {
    let dir = data_dir_from(workspace_root);
    match dir.as_ref().map(|dir| dir.join(relative)) {
        Some(path) if path.is_file() => path,
        Some(path) => panic!(
            "data file '{relative}' not found: {} does not exist (the data directory is {}; public source: {})",
            path.display(),
            dir.expect("found").display(),
            public_source(relative)
        ),
        None => panic!(
            "data file '{relative}' needed, but no data directory was found (looked in {}; public source: {})",
            data_dir_candidates(),
            public_source(relative)
        ),
    }
}

/// Returns the directories [`DataDir::locate`] looks in, for error messages.
pub fn data_dir_candidates() -> String {
    schedlab_data_locate::candidates()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_files_name_the_directory_and_source() {
        let dir = DataDir::at("/nonexistent-schedlab-data");
        let error = dir.file("gavel/x.json").unwrap_err().to_string();
        assert!(
            error.contains("'gavel/x.json' not found in the data directory '/nonexistent-schedlab-data'"),
            "{error}"
        );
        assert!(error.contains("stanford-futuredata/gavel"), "{error}");
        let error = DataDir::none().file("philly/y.csv").unwrap_err().to_string();
        assert!(error.contains("no data directory was found"), "{error}");
        let error = DataDir::none().file("/nonexistent-schedlab-data/z").unwrap_err().to_string();
        assert_eq!(error, "data file '/nonexistent-schedlab-data/z' not found");
    }
}

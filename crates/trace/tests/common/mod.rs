//! Helpers shared by the tests.

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fixture file under `traces/fixtures`.
pub fn fixture(name: &str) -> PathBuf {
    root().join("traces/fixtures").join(name)
}

/// A real data file; the test fails naming it when it is absent (tests that call this are
/// marked `#[cfg_attr(schedlab_no_data, ignore = ...)]`).
pub fn data(relative: &str) -> PathBuf {
    schedlab_core::datadir::test_data_file(&root(), relative)
}

/// Writes `content` to a fresh file named `name` in a per-test temp folder and returns its path.
pub fn temp_file(test: &str, name: &str, content: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("schedlab-trace-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

//! Helpers shared by the CLI's test binaries (each uses some of them).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `schedlab` binary, started in the repository's root.
pub fn schedlab() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_schedlab"));
    command.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    command
}

/// A fresh folder for one test.
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("schedlab-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The data directory, which must hold `file`: the test fails naming it otherwise (tests that
/// call this are marked `#[cfg_attr(schedlab_no_data, ignore = ...)]`).
pub fn data_dir_with(file: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    schedlab_core::datadir::test_data_file(&root, file);
    let data = schedlab_core::datadir::data_dir_from(&root).expect("test_data_file found it");
    if data.is_absolute() { data } else { root.join(data) }
}

/// Standard output and error as text.
pub fn text(output: &Output) -> (String, String) {
    (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Runs `schedlab ARGS` in `dir`; fails the test with its standard error unless it succeeds.
/// Returns standard output and error.
pub fn succeeds(dir: &Path, args: &[&str]) -> (String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_schedlab")).current_dir(dir).args(args).output().unwrap();
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "schedlab {}: {stderr}", args.join(" "));
    (stdout, stderr)
}

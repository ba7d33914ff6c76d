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

/// The data directory (`SCHEDLAB_DATA`, else `../shared/data`) if it holds `file`; `None` skips
/// the test, unless `SCHEDLAB_REQUIRE_DATA` is set, which makes a missing file a failure.
pub fn data_dir_with(file: &str) -> Option<PathBuf> {
    let data = std::env::var_os("SCHEDLAB_DATA").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("../shared/data"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let data = if data.is_absolute() { data } else { root.join(data) };
    if !data.join(file).exists() {
        assert!(std::env::var_os("SCHEDLAB_REQUIRE_DATA").is_none(), "{file} is missing");
        return None;
    }
    Some(data)
}

/// Standard output and error as text.
pub fn text(output: &Output) -> (String, String) {
    (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
}

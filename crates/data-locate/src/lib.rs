//! Where schedlab's data directory is: the one search that the binary (through
//! `schedlab_core::DataDir`) and the build scripts of crates with tests on real data share.
//!
//! A test that needs real data is marked `#[cfg_attr(schedlab_no_data, ignore = "...")]` and
//! reads its file with `schedlab_core::datadir::test_data_file`, which fails naming the file when
//! it is absent. [`mark_tests_without_data`], called by the crate's build script, sets
//! `schedlab_no_data` only when no data directory is found and `SCHEDLAB_REQUIRE_DATA` is not
//! set: so such a test runs where the data is (or is required, as in CI) and fails loudly if a
//! file is missing, and is reported as ignored, with its reason, elsewhere. It never passes
//! without its data.

use std::path::{Path, PathBuf};

/// The environment variable naming the data directory.
pub const DATA_ENV: &str = "SCHEDLAB_DATA";

/// The environment variable that makes the data required: tests that need it run and fail when
/// a file is missing, instead of being ignored.
pub const REQUIRE_DATA_ENV: &str = "SCHEDLAB_REQUIRE_DATA";

/// The data directory seen from `base`: `$SCHEDLAB_DATA` if set, else `base/data` or
/// `base/../shared/data` if either is a folder, else `../shared/data` from one of `base`'s first
/// few parents (so commands run inside a crate's folder find it too).
pub fn data_dir_from(base: &Path) -> Option<PathBuf> {
    search(std::env::var_os(DATA_ENV).map(PathBuf::from), base)
}

/// [`data_dir_from`] with `$SCHEDLAB_DATA` given as `named`.
fn search(named: Option<PathBuf>, base: &Path) -> Option<PathBuf> {
    if named.is_some() {
        return named;
    }
    if let Some(found) = ["data", "../shared/data"].iter().map(|relative| base.join(relative)).find(|dir| dir.is_dir())
    {
        return Some(found);
    }
    let absolute = if base.as_os_str().is_empty() { std::env::current_dir().ok()? } else { base.to_path_buf() };
    absolute.ancestors().take(4).map(|folder| folder.join("../shared/data")).find(|candidate| candidate.is_dir())
}

/// Where [`data_dir_from`] looks, for messages.
pub fn candidates() -> String {
    format!("${DATA_ENV}, ./data, ../shared/data (from the working directory or up to 3 parents)")
}

/// Whether tests that need data must run (and fail when it is missing): `SCHEDLAB_REQUIRE_DATA`
/// is set to anything but `0` or the empty string.
pub fn data_required() -> bool {
    std::env::var(REQUIRE_DATA_ENV).is_ok_and(|value| !value.is_empty() && value != "0")
}

/// For the build script of a crate with tests on real data: sets the cfg `schedlab_no_data` when
/// no data directory is found from the workspace root and the data is not required, and asks
/// cargo to run the script again when either environment variable or the data directory found
/// changes.
pub fn mark_tests_without_data() {
    println!("cargo::rustc-check-cfg=cfg(schedlab_no_data)");
    println!("cargo::rerun-if-env-changed={DATA_ENV}");
    println!("cargo::rerun-if-env-changed={REQUIRE_DATA_ENV}");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("a build script runs under cargo"));
    let root = manifest.ancestors().find(|dir| dir.join("Cargo.lock").is_file()).unwrap_or(&manifest).to_path_buf();
    match data_dir_from(&root) {
        Some(dir) => println!("cargo::rerun-if-changed={}", dir.display()),
        None => {
            // Watching the folders that do not exist would rerun the script, and rebuild its
            // crate, on every build; data added later is seen once SCHEDLAB_DATA names it.
            println!("cargo::rerun-if-changed=build.rs");
            if !data_required() {
                println!("cargo::rustc-cfg=schedlab_no_data");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_named_folder_comes_first_then_the_bases_data_then_a_shared_one() {
        let root = std::env::temp_dir().join(format!("schedlab-data-locate-{}", std::process::id()));
        let base = root.join("clone");
        std::fs::create_dir_all(root.join("shared/data")).unwrap();
        std::fs::create_dir_all(&base).unwrap();
        assert_eq!(search(None, &base), Some(base.join("../shared/data")));
        std::fs::create_dir_all(base.join("data")).unwrap();
        assert_eq!(search(None, &base), Some(base.join("data")));
        let named = PathBuf::from("/elsewhere");
        assert_eq!(search(Some(named.clone()), &base), Some(named), "named even where it is not a folder");
        std::fs::remove_dir_all(&root).unwrap();
    }
}

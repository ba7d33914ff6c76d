//! The default build needs the Rust toolchain and a C compiler only (README, Set-up): no crate
//! that `cargo test --workspace` or `cargo reproduce NAME` compiles may run bindgen (libclang),
//! cmake or pkg-config at build time, or link a library of the system.
//!
//! Two checks: the resolved dependency graph of the workspace (`cargo tree`, default
//! features, this host) holds none of the crates that find or build native code that way, and
//! no build script of a crate in that graph asked to link a library it did not build itself
//! (the `output` files cargo keeps of each build script, next to this test's binary).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Crates that need something beyond a C compiler at build time.
const NATIVE_TOOLS: [(&str, &str); 7] = [
    ("bindgen", "runs libclang to generate bindings"),
    ("clang-sys", "loads libclang"),
    ("cmake", "runs cmake"),
    ("pkg-config", "looks for a system library"),
    ("system-deps", "looks for system libraries through pkg-config"),
    ("vcpkg", "looks for a vcpkg library"),
    ("autotools", "runs configure and make"),
];

/// Crates in the default graph allowed to link a library their build script did not build
/// (package name, and why that is acceptable). Empty: every native library of the default
/// build (ring's, Qhull's, L-BFGS-B's) is compiled from sources its crate ships.
const ALLOWED_SYSTEM_LIBRARIES: [(&str, &str); 0] = [];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The packages the default build compiles, each with the chain of packages that brought it in
/// from a workspace member: `cargo tree` of the workspace for this host with default features
/// and normal, build and dev edges (dev-dependencies are those of the workspace's own crates,
/// which `cargo test` compiles). `cargo metadata` would not do: its resolve lists optional and
/// platform-specific dependencies that no build compiles.
fn default_graph() -> BTreeMap<String, Vec<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(workspace_root())
        .args(["tree", "--workspace", "--locked", "-e", "normal,build,dev", "--prefix", "depth", "--format", "{p}"])
        .output()
        .expect("cargo tree runs");
    assert!(output.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&output.stderr));
    let mut chains = BTreeMap::new();
    let mut stack: Vec<String> = Vec::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        // `<depth><name> v<version> ...`.
        let digits = line.find(|c: char| !c.is_ascii_digit()).unwrap_or(line.len());
        let (Ok(depth), Some(name)) = (line[..digits].parse::<usize>(), line[digits..].split(' ').next()) else {
            continue;
        };
        stack.truncate(depth);
        stack.push(name.to_owned());
        chains.entry(name.to_owned()).or_insert_with(|| stack.clone());
    }
    chains
}

#[test]
fn the_default_build_needs_no_bindgen_cmake_or_pkg_config() {
    let graph = default_graph();
    assert!(graph.contains_key("schedlab-cli") && graph.contains_key("schedlab-qhull"), "{:?}", graph.keys());
    let mut problems = Vec::new();
    for (tool, what) in NATIVE_TOOLS {
        if let Some(chain) = graph.get(tool) {
            problems.push(format!("{tool} ({what}) is in the default build: {}", chain.join(" -> ")));
        }
    }
    assert!(problems.is_empty(), "the default build must need Rust and a C compiler only:\n{}", problems.join("\n"));
}

/// The build directory of this test's profile: `target/<profile>/build`, two levels above
/// `target/<profile>/deps/<this test>`.
fn build_directory() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().and_then(Path::parent).unwrap().join("build")
}

/// Whether `recorded`, a link-search path a build script printed, is a folder of its own build
/// folder (`own`, `build/<package>-<hash>`) holding library `name`. The script printed an
/// absolute path of wherever the target folder was then; a target folder restored from a cache
/// or copied elsewhere keeps the part below `<package>-<hash>`, so that part is judged, joined to
/// where the build folder is now.
fn built_in_own_folder(recorded: &Path, own: &Path, name: &str) -> bool {
    let own_name = own.file_name().expect("a build folder has a name");
    let mut components = recorded.components();
    if !components.by_ref().any(|component| component.as_os_str() == own_name) {
        return false;
    }
    let here = own.join(components.as_path());
    here.join(format!("lib{name}.a")).exists() || here.join(format!("{name}.lib")).exists()
}

#[test]
fn a_library_is_judged_below_its_own_build_folder_wherever_the_target_folder_moved() {
    let root = std::env::temp_dir().join(format!("schedlab-build-graph-{}", std::process::id()));
    let own = root.join("moved/debug/build/schedlab-qhull-0123456789abcdef");
    std::fs::create_dir_all(own.join("out")).unwrap();
    std::fs::write(own.join("out/libqhull.a"), b"").unwrap();
    let recorded = Path::new("/old/target/debug/build/schedlab-qhull-0123456789abcdef/out");
    assert!(built_in_own_folder(recorded, &own, "qhull"));
    assert!(!built_in_own_folder(recorded, &own, "m"), "a library the script did not build");
    assert!(!built_in_own_folder(Path::new("/usr/lib/x86_64-linux-gnu"), &own, "qhull"), "a system folder");
    let other = Path::new("/old/target/debug/build/other-0123456789abcdef/out");
    assert!(!built_in_own_folder(other, &own, "qhull"), "another crate's build folder");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn no_build_script_links_a_library_it_did_not_build() {
    let graph = default_graph();
    let allowed: BTreeSet<&str> = ALLOWED_SYSTEM_LIBRARIES.iter().map(|(name, _)| *name).collect();
    let directory = build_directory();
    let mut inspected = BTreeSet::new();
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(&directory).unwrap_or_else(|error| panic!("{}: {error}", directory.display())) {
        let path = entry.unwrap().path();
        let output = path.join("output");
        let Ok(text) = std::fs::read_to_string(&output) else { continue };
        let dir_name = path.file_name().unwrap().to_string_lossy().into_owned();
        // `<package>-<16 hex digits>`.
        let Some((package, _hash)) = dir_name.rsplit_once('-') else { continue };
        if !graph.contains_key(package) || allowed.contains(package) {
            continue;
        }
        inspected.insert(package.to_owned());
        let directive = |line: &str, key: &str| {
            line.strip_prefix("cargo::")
                .or_else(|| line.strip_prefix("cargo:"))
                .and_then(|rest| rest.strip_prefix(key).and_then(|value| value.strip_prefix('=')).map(str::to_owned))
        };
        let search: Vec<PathBuf> = text
            .lines()
            .filter_map(|line| directive(line, "rustc-link-search"))
            .map(|value| PathBuf::from(value.rsplit_once('=').map_or(value.as_str(), |(_, path)| path)))
            .collect();
        for library in text.lines().filter_map(|line| directive(line, "rustc-link-lib")) {
            // `[KIND[:MODIFIERS]=]NAME[:RENAME]`.
            let name = library.rsplit_once('=').map_or(library.as_str(), |(_, name)| name);
            let name = name.split(':').next().unwrap();
            let built_here = search.iter().any(|dir| built_in_own_folder(dir, &path, name));
            if !built_here {
                problems.push(format!(
                    "{package} links {library}, not built in its own build directory ({}): {}",
                    output.display(),
                    graph[package].join(" -> ")
                ));
            }
        }
    }
    // The check must have seen the crates that do build native code.
    for expected in ["schedlab-qhull", "schedlab-lbfgsb"] {
        assert!(inspected.contains(expected), "no build-script output of {expected} under {}", directory.display());
    }
    assert!(problems.is_empty(), "the default build must link no system library:\n{}", problems.join("\n"));
}

//! No claim table in the docs is typed by hand: every block that README.md or a crate's README
//! quotes from a result file (`<!-- generated from PATH: scripts/docs/sync.py rewrites this
//! block -->`) holds that file's text exactly. `scripts/docs/sync.py` rewrites them after a run.

use std::path::{Path, PathBuf};

const START: &str = "<!-- generated from ";
const START_END: &str = ": scripts/docs/sync.py rewrites this block -->\n";
const END: &str = "<!-- end generated -->";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// README.md, every Markdown file in docs/ and every crate's README.md.
fn documents() -> Vec<PathBuf> {
    let mut found = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|extension| extension == "md") {
            found.push(path);
        }
    }
    let mut folders = vec![root().join("crates")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && path.file_name().is_some_and(|name| name != "vendor") {
                folders.push(path);
            } else if path.file_name().is_some_and(|name| name == "README.md") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The quoted blocks of a document: (source path, body).
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(START) {
        let after = &rest[start + START.len()..];
        let header_end = after.find(START_END).expect("a block header ends with its marker");
        let path = after[..header_end].to_string();
        let body_start = &after[header_end + START_END.len()..];
        let body_end = body_start.find(END).expect("a block is closed");
        found.push((path, body_start[..body_end].to_string()));
        rest = &body_start[body_end + END.len()..];
    }
    found
}

#[test]
fn every_quoted_result_is_the_files_text() {
    let mut checked = 0;
    let mut stale = Vec::new();
    for document in documents() {
        let text = std::fs::read_to_string(&document).unwrap();
        for (path, body) in blocks(&text) {
            let source = std::fs::read_to_string(root().join(&path)).unwrap_or_else(|error| panic!("{path}: {error}"));
            if body != source {
                stale.push(format!("{}: {path}", document.display()));
            }
            checked += 1;
        }
    }
    assert!(
        stale.is_empty(),
        "quoted results differ from their files (run scripts/docs/sync.py):\n{}",
        stale.join("\n")
    );
    assert!(checked >= 1, "no quoted block found");
}

#[test]
fn blocks_are_found_with_their_paths() {
    let text = format!("a\n{START}results/x/claims.md{START_END}| t |\n{END}\nb\n{START}y.md{START_END}{END}");
    assert_eq!(
        blocks(&text),
        vec![("results/x/claims.md".to_string(), "| t |\n".to_string()), ("y.md".to_string(), String::new())]
    );
}

/// `experiments/seeds/NAME-10-seeds.yaml` reruns `experiments/NAME.yaml` with ten other seeds: the
/// two specs differ only in their name, the description's first line and the seeds, which the
/// base spec does not run (an independent sample, not seeds added after a look).
#[test]
fn seed_variants_equal_their_base_but_for_name_description_and_seeds() {
    let folder = root().join("experiments/seeds");
    let mut checked = 0;
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let base_name = name.strip_suffix("-10-seeds").unwrap_or_else(|| panic!("{name}: expected NAME-10-seeds"));
        let lines = |path: &Path| -> Vec<String> {
            std::fs::read_to_string(path)
                .unwrap()
                .lines()
                .filter(|line| !line.starts_with('#'))
                .filter(|line| !line.starts_with("name: ") && !line.starts_with("seeds: "))
                .filter(|line| !line.contains("with seeds 3-12, to settle the claims"))
                .map(str::to_owned)
                .collect()
        };
        let base = root().join(format!("experiments/{base_name}.yaml"));
        assert_eq!(lines(&path), lines(&base), "{} drifted from {}", path.display(), base.display());
        let seeds = |path: &Path| -> Vec<u64> {
            let text = std::fs::read_to_string(path).unwrap();
            let line = text.lines().find(|line| line.starts_with("seeds: ")).expect("a seeds line");
            line["seeds: ".len()..].trim_matches(['[', ']']).split(", ").map(|seed| seed.parse().unwrap()).collect()
        };
        let (more, first) = (seeds(&path), seeds(&base));
        assert_eq!(more.len(), 10, "{}", path.display());
        assert!(more.iter().all(|seed| !first.contains(seed)), "{} reuses seeds of {}", path.display(), base.display());
        checked += 1;
    }
    assert!(checked >= 1);
}

#[test]
fn the_metric_glossary_is_what_list_metrics_prints() {
    let readme = std::fs::read_to_string(root().join("docs/spec.md")).unwrap();
    let marker = "<!-- generated by `schedlab list metrics`: crates/cli/tests/docs.rs checks this block -->\n";
    let start = readme.find(marker).expect("docs/spec.md has the metric glossary") + marker.len();
    let end = start + readme[start..].find("<!-- end generated -->").expect("the glossary block ends");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_schedlab")).args(["list", "metrics"]).output().unwrap();
    assert!(output.status.success());
    assert_eq!(
        &readme[start..end],
        String::from_utf8(output.stdout).unwrap(),
        "docs/spec.md's metric glossary differs from `schedlab list metrics`: paste its output there"
    );
}

/// The documentation speaks of the project, not of how it was made: no internal work period
/// ("stop 45", "this session", "issue 18") in the Markdown, Rust and YAML files. Name a date or
/// a commit instead.
#[test]
fn no_file_names_an_internal_work_period() {
    let labels = [" stop ", " stops ", "session", "issue "];
    let mut found = Vec::new();
    let mut folders = vec![root()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if !["target", "results", "vendor", "data", "node_modules"].contains(&name.as_str())
                    && !name.starts_with('.')
                {
                    folders.push(path);
                }
                continue;
            }
            if !(name.ends_with(".md") || name.ends_with(".rs") || name.ends_with(".yaml")) {
                continue;
            }
            if path.ends_with("crates/cli/tests/docs.rs") {
                continue; // this test names the labels it looks for
            }
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            for (index, line) in text.lines().enumerate() {
                let lower = format!(" {} ", line.to_lowercase());
                for label in labels {
                    // A label followed by a number ("stop 45", "issue 18"), any "session", and an issue
                    // named without its number ("the issue", "the issue's goal").
                    let numbered = lower
                        .match_indices(label)
                        .any(|(at, _)| lower[at + label.len()..].starts_with(|c: char| c.is_ascii_digit()));
                    let unnumbered_issue =
                        label == "issue " && (lower.contains(" the issue") || lower.contains("issue's"));
                    if numbered || unnumbered_issue || (label == "session" && lower.contains(label)) {
                        found.push(format!(
                            "{}:{}: {}",
                            path.strip_prefix(root()).unwrap().display(),
                            index + 1,
                            line.trim()
                        ));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "name a date or a commit instead of a work period:\n{}", found.join("\n"));
}

#[test]
fn the_readme_stays_short_and_lists_every_crate() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 150, "README.md has {lines} lines; keep it within 150 and move detail to docs/");
    let mut missing = Vec::new();
    for folder in ["crates", "crates/policies"] {
        for entry in std::fs::read_dir(root().join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.join("Cargo.toml").exists() {
                let name = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
                if !readme.contains(&format!("`{name}`")) {
                    missing.push(name);
                }
            }
        }
    }
    assert!(missing.is_empty(), "README.md's layout table leaves out {missing:?}");
}

/// Committed results are the same bytes on every machine: no file under `results/` (the run
/// stores aside, which are not committed) names where this checkout or its data directory lie.
#[test]
fn no_result_file_names_a_machine_path() {
    let root = root().canonicalize().unwrap();
    let mut markers: Vec<String> =
        ["shared/data", "/work/", "/home/", "/root/", "/tmp/", "/Users/"].iter().map(|s| s.to_string()).collect();
    markers.push(root.display().to_string());
    if let Some(data) = schedlab_core::DataDir::locate_from(&root).root().and_then(|dir| dir.canonicalize().ok()) {
        markers.push(data.display().to_string());
    }
    let mut found = Vec::new();
    let mut folders = vec![root.join("results")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|name| name != "runs") {
                    folders.push(path);
                }
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            for (index, line) in text.lines().enumerate() {
                if let Some(marker) = markers.iter().find(|marker| line.contains(marker.as_str())) {
                    found.push(format!(
                        "{}:{}: names '{marker}'",
                        path.strip_prefix(&root).unwrap().display(),
                        index + 1
                    ));
                }
            }
        }
    }
    found.sort();
    assert!(found.is_empty(), "{} result lines name a machine path:\n{}", found.len(), found.join("\n"));
}

/// ARCHITECTURE.md is read by users of a clone: it names nothing outside the repository.
#[test]
fn the_architecture_names_no_path_outside_the_repository() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let outside: Vec<String> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| ["../", "](/", " `/", "(`/"].iter().any(|pattern| line.contains(pattern)))
        .map(|(index, line)| format!("ARCHITECTURE.md:{}: {line}", index + 1))
        .collect();
    assert!(outside.is_empty(), "paths outside the repository:\n{}", outside.join("\n"));
}

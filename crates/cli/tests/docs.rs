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

/// README.md and every crate's README.md.
fn documents() -> Vec<PathBuf> {
    let mut found = vec![root().join("README.md")];
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

/// `experiments/seeds/NAME-10-seeds.yaml` reruns `experiments/NAME.yaml` with more seeds: the
/// two specs differ only in their name, the description's first line and the seeds.
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
                .filter(|line| !line.contains("with seeds 0-9, to settle the claims"))
                .map(str::to_owned)
                .collect()
        };
        let base = root().join(format!("experiments/{base_name}.yaml"));
        assert_eq!(lines(&path), lines(&base), "{} drifted from {}", path.display(), base.display());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("\nseeds: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n"), "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 1);
}

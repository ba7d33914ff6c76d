use crate::common::{SMALL, run, temp_dir};

/// The page's element structure: one line per element (indented by depth) with its id and
/// class, without text, attributes' other values, or the inside of inline plots (their shapes
/// are the plots' business). Pins what the page is made of while numbers may change.
fn structure(html: &str) -> String {
    let mut lines = Vec::new();
    let mut depth = 0usize;
    let mut rest = html;
    let mut in_svg = 0usize;
    const VOID: [&str; 4] = ["meta", "br", "img", "input"];
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').map(|end| start + end).expect("tags close");
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            if name == "svg" {
                in_svg -= 1;
            }
            if in_svg == 0 || name == "svg" {
                depth -= 1;
            }
            if name == "script" || name == "style" {
                // Their text is code, not markup: skip to the closing tag (already consumed).
            }
            continue;
        }
        let name: String = tag.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        let self_closing = tag.ends_with('/') || VOID.contains(&name.as_str());
        if in_svg > 0 {
            if name == "svg" {
                in_svg += 1;
            }
            continue;
        }
        let attribute = |key: &str| {
            let pattern = format!(" {key}=\"");
            tag.find(&pattern).map(|at| {
                let value = &tag[at + pattern.len()..];
                format!(" {key}={}", &value[..value.find('"').unwrap()])
            })
        };
        let id = attribute("id").unwrap_or_default();
        let class = attribute("class").unwrap_or_default();
        lines.push(format!("{}{name}{id}{class}", "  ".repeat(depth)));
        if name == "svg" {
            in_svg = 1;
            depth += 1;
        } else if !self_closing {
            depth += 1;
        }
        if name == "script" || name == "style" {
            let close = format!("</{name}>");
            let at = rest.find(&close).expect("closed");
            rest = &rest[at + close.len()..];
            depth -= 1;
        }
    }
    assert_eq!(depth, 0, "unbalanced tags");
    lines.join("\n")
}

#[test]
fn each_experiment_writes_a_self_contained_page_and_the_results_folder_an_index() {
    let dir = temp_dir("html");
    let spec = SMALL.replace(
        "plots:",
        // Claims far from any value two seeds could leave in doubt: one missed, one holding.
        "claims:\n  - {text: 'FIFO waits', source: 'a test', policy: fifo, metric: avg_jct_hours, expected: 1.0e8, tolerance: 0.1}\n  - {text: 'LAS ends within a million hours', source: 'a test', policy: las, metric: avg_jct_hours, expected: 1, tolerance: 999999, direction: at_most}\nplots:",
    );
    run(&spec, &dir, 2).unwrap();
    let page = std::fs::read_to_string(dir.join("small/index.html")).unwrap();
    insta::assert_snapshot!("html-structure", structure(&page));
    // Self-contained: nothing is loaded from anywhere (links to the folder's files are only links).
    for forbidden in ["src=", "href=\"http", "@import", "url("] {
        assert!(!page.contains(forbidden), "the page loads something: {forbidden}");
    }
    assert!(page.contains("<meta name=\"schedlab-claims\" content=\"1 of 2\">"));
    assert!(page.contains("<tr class=\"missed\"><td>FIFO waits (avg_jct_hours of fifo)</td>"), "{page}");
    assert!(page.contains("<td class=\"verdict\">holds</td>"));
    // The spec and the data provenance are on the page.
    assert!(page.contains("policies: [fifo, las, srtf]"));
    assert!(page.contains("class=\"wall-time\""));
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        index.contains("<a href=\"small/index.html\">small</a></th><td class=\"number\" data-sort=\"0.5\">1 of 2</td>"),
        "{index}"
    );
    // A second experiment joins the index; the first stays.
    run(&SMALL.replace("name: small", "name: other"), &dir, 2).unwrap();
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        index.contains("small/index.html")
            && index.contains("<a href=\"other/index.html\">other</a></th><td class=\"number\">no claims</td>"),
        "{index}"
    );
}

/// Every committed page under `results/` shows its spec as the spec file reads now: a spec edited
/// without its reports regenerated (a comment, say, which leaves the runs' identity alone) fails
/// here until `schedlab report` rewrites them.
#[test]
fn committed_pages_show_their_specs_as_they_read_now() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut checked = 0;
    let mut stale = Vec::new();
    for entry in std::fs::read_dir(root.join("results")).unwrap() {
        let folder = entry.unwrap().path();
        let page = folder.join("index.html");
        if !page.is_file() {
            continue;
        }
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let spec = ["experiments", "experiments/extra"]
            .iter()
            .map(|dir| root.join(dir).join(format!("{name}.yaml")))
            .find(|path| path.is_file())
            .unwrap_or_else(|| panic!("results/{name}/ has no spec in experiments/ or experiments/extra/"));
        let text = std::fs::read_to_string(&spec).unwrap();
        let shown = format!("<pre><code>{}</code></pre>", schedlab_experiment::html::escape(text.trim_end()));
        if !std::fs::read_to_string(&page).unwrap().contains(&shown) {
            stale.push(name);
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} result pages found");
    assert!(stale.is_empty(), "results/*/index.html shows an older spec for {stale:?}: rerun `schedlab report SPEC`");
}

//! The HTML report: `index.html` in each experiment's folder and `index.html` in the results
//! folder linking them. Pages are self-contained (inline CSS, SVG and a small sorting script; no
//! fetches), keyboard-navigable (a skip link, sections in a nav, sort buttons) and print-friendly.

use crate::ExperimentError;
use crate::manifest::Manifest;
use std::fmt::Write as _;
use std::path::Path;

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// A table cell as the page shows it: its text and the value it sorts by (none: sorts last).
pub type HtmlCell = (String, Option<f64>);

/// A result table as the page shows it.
#[derive(Clone, Debug)]
pub struct HtmlTable {
    /// The table's name (its files are `<name>.csv` and `<name>.md`).
    pub name: String,
    /// What the cells are.
    pub caption: String,
    /// The label of the row-label column.
    pub corner: String,
    /// Column labels.
    pub columns: Vec<String>,
    /// Each row: its label and its cells as `(text, value to sort by)`.
    pub rows: Vec<(String, Vec<HtmlCell>)>,
}

/// One published claim as the page shows it.
#[derive(Clone, Debug)]
pub struct HtmlClaim {
    /// The claim's cells ([`crate::claims::cells`], under [`crate::claims::COLUMNS`]).
    pub cells: [String; 12],
    /// Its verdict.
    pub verdict: crate::interval::Verdict,
    /// The planned looks of adaptive seeds or episodes its error was split over (1 without).
    pub looks: usize,
    /// Its units.
    pub unit: crate::claims::Unit,
}

/// The row class of a verdict.
fn verdict_class(verdict: &crate::interval::Verdict) -> &'static str {
    match verdict {
        crate::interval::Verdict::Holds => "holds",
        crate::interval::Verdict::Missed => "missed",
        crate::interval::Verdict::Inconclusive { .. } | crate::interval::Verdict::Censored { .. } => "inconclusive",
        crate::interval::Verdict::Unreachable { .. } => "unreachable",
        crate::interval::Verdict::Incomplete { .. } => "incomplete",
    }
}

/// How many of `claims` have each verdict (holds, missed, inconclusive, unreachable here,
/// incomplete).
fn verdict_counts(claims: &[HtmlClaim]) -> [usize; 5] {
    crate::claims::counts(claims.iter().map(|claim| &claim.verdict))
}

/// What an experiment's page shows.
pub struct Page<'a> {
    /// The experiment's name.
    pub name: &'a str,
    /// Its description.
    pub description: &'a str,
    /// Its claims (none: no section).
    pub claims: Vec<HtmlClaim>,
    /// Its tables.
    pub tables: Vec<HtmlTable>,
    /// Its plots: name and SVG.
    pub plots: Vec<(String, String)>,
    /// The spec as written.
    pub spec_text: &'a str,
    /// Where the spec came from.
    pub spec_origin: &'a str,
    /// The manifest (provenance).
    pub manifest: &'a Manifest,
}

const STYLE: &str = "
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0550ae;
  --holds: #dafbe1; --holds-ink: #116329; --missed: #ffebe9; --missed-ink: #a40e26;
  --inconclusive: #fff8c5; --inconclusive-ink: #7d4e00; --unreachable: #eaeef2; --unreachable-ink: #24292f;
  --incomplete: #ddf4ff; --incomplete-ink: #0a3069; }
* { box-sizing: border-box; }
body { font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif; color: var(--ink); margin: 0 auto;
  max-width: 70rem; padding: 0 1.25rem 3rem; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #fb8c00; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0.5rem; background: #fff; padding: 0.5rem; }
.skip:focus { left: 0.5rem; }
header { border-bottom: 1px solid var(--line); margin-bottom: 1rem; }
h1 { margin: 1.25rem 0 0.25rem; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; margin-top: 2rem; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; padding: 0; }
.summary { font-weight: 600; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; }
td.number { text-align: right; white-space: nowrap; }
button.sort { font: inherit; font-weight: 600; background: none; border: 0; padding: 0; cursor: pointer; color: inherit; }
button.sort::after { content: ' \\2195'; color: var(--muted); }
th[aria-sort=ascending] button.sort::after { content: ' \\2191'; color: var(--ink); }
th[aria-sort=descending] button.sort::after { content: ' \\2193'; color: var(--ink); }
tr.holds td.verdict { background: var(--holds); color: var(--holds-ink); font-weight: 600; }
tr.missed td.verdict { background: var(--missed); color: var(--missed-ink); font-weight: 600; }
tr.inconclusive td.verdict { background: var(--inconclusive); color: var(--inconclusive-ink); font-weight: 600; }
tr.unreachable td.verdict { background: var(--unreachable); color: var(--unreachable-ink); font-weight: 600; }
tr.incomplete td.verdict { background: var(--incomplete); color: var(--incomplete-ink); font-weight: 600; }
.note { color: var(--muted); font-size: 0.9em; }
figure { margin: 1rem 0 2rem; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
code, pre { font: 0.875rem/1.4 ui-monospace, 'DejaVu Sans Mono', monospace; }
pre { background: #f6f8fa; padding: 0.75rem; overflow-x: auto; border: 1px solid var(--line); }
footer { margin-top: 2rem; color: var(--muted); border-top: 1px solid var(--line); padding-top: 0.5rem; }
@media print {
  body { max-width: none; font-size: 11pt; }
  nav, .skip, .hint { display: none; }
  a { color: inherit; text-decoration: none; }
  button.sort::after { content: ''; }
  .scroll { overflow: visible; }
  table, figure, pre { page-break-inside: avoid; }
  h2 { page-break-after: avoid; }
  pre { white-space: pre-wrap; }
}
";

/// Sorts a table by a column when its header button is pressed (Enter and Space press a
/// focused button): by the cells' `data-sort` numbers, else by their text; cells without a
/// value go last either way.
const SCRIPT: &str = "
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('thead button.sort').forEach(function (button) {
    button.addEventListener('click', function () {
      var header = button.parentElement;
      var column = Number(button.getAttribute('data-column'));
      var ascending = header.getAttribute('aria-sort') !== 'ascending';
      table.querySelectorAll('thead th').forEach(function (th) { th.removeAttribute('aria-sort'); });
      header.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column], y = b.cells[column];
        var p = x.hasAttribute('data-sort') ? Number(x.getAttribute('data-sort')) : NaN;
        var q = y.hasAttribute('data-sort') ? Number(y.getAttribute('data-sort')) : NaN;
        if (x.tagName === 'TH' || (isNaN(p) && isNaN(q) && x.hasAttribute('data-text'))) {
          var order = x.textContent.localeCompare(y.textContent, undefined, { numeric: true });
          return ascending ? order : -order;
        }
        if (isNaN(p) || isNaN(q)) { return isNaN(p) - isNaN(q); }
        return ascending ? p - q : q - p;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
";

/// A number for `data-sort`, exactly as Rust prints it (JavaScript's `Number` reads it back).
fn sort_value(value: f64) -> String {
    if value.is_finite() { format!("{value}") } else { String::new() }
}

fn claims_section(html: &mut String, claims: &[HtmlClaim]) {
    let summary = crate::claims::counts_text(verdict_counts(claims));
    let _ = write!(
        html,
        "<section id=\"claims\" aria-labelledby=\"claims-title\">\n<h2 id=\"claims-title\">Claims</h2>\n\
         <p class=\"summary\">{} published claims: {summary}.</p>\n<div class=\"scroll\">\
         <table class=\"claims\">\n<thead><tr>{}</tr></thead>\n<tbody>\n",
        claims.len(),
        crate::claims::COLUMNS
            .iter()
            .map(|column| format!("<th scope=\"col\">{}</th>", escape(column)))
            .collect::<String>()
    );
    // Numbers are right-aligned: paper, measured, lower, upper, units, seeds.
    const NUMBER: [bool; 12] = [false, false, true, false, true, true, true, true, true, false, false, false];
    for claim in claims {
        let cells: String = claim
            .cells
            .iter()
            .zip(NUMBER)
            .enumerate()
            .map(|(index, (cell, number))| {
                let class = if index == 10 {
                    " class=\"verdict\""
                } else if number {
                    " class=\"number\""
                } else {
                    ""
                };
                format!("<td{class}>{}</td>", escape(cell))
            })
            .collect();
        let _ = writeln!(html, "<tr class=\"{}\">{cells}</tr>", verdict_class(&claim.verdict));
    }
    let adaptive = crate::claims::adaptive_note(claims.iter().map(|claim| (claim.looks, claim.unit)))
        .map(|note| format!("</p>\n<p class=\"note\">{}", escape(&note)))
        .unwrap_or_default();
    let _ = write!(
        html,
        "</tbody>\n</table></div>\n<p class=\"note\">{}{adaptive}</p>\n</section>\n",
        escape(crate::claims::INTERVAL_NOTE)
    );
}

fn table_section(html: &mut String, table: &HtmlTable) {
    let id = escape(&table.name);
    let _ = write!(
        html,
        "<section id=\"table-{id}\" aria-labelledby=\"table-{id}-title\">\n<h3 id=\"table-{id}-title\">{id}</h3>\n\
         <p>{}</p>\n<div class=\"scroll\"><table class=\"sortable\" id=\"{id}\">\n<thead><tr>\
         <th scope=\"col\"><button type=\"button\" class=\"sort\" data-column=\"0\">{}</button></th>",
        escape(&table.caption),
        escape(&table.corner)
    );
    for (index, column) in table.columns.iter().enumerate() {
        let _ = write!(
            html,
            "<th scope=\"col\"><button type=\"button\" class=\"sort\" data-column=\"{}\">{}</button></th>",
            index + 1,
            escape(column)
        );
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for (label, cells) in &table.rows {
        let _ = write!(html, "<tr><th scope=\"row\">{}</th>", escape(label));
        for (text, value) in cells {
            match value {
                Some(value) if value.is_finite() => {
                    let _ =
                        write!(html, "<td class=\"number\" data-sort=\"{}\">{}</td>", sort_value(*value), escape(text));
                }
                _ => {
                    let _ = write!(html, "<td class=\"number\">{}</td>", escape(text));
                }
            }
        }
        html.push_str("</tr>\n");
    }
    let _ = write!(
        html,
        "</tbody>\n</table></div>\n<p class=\"hint\">Files: <a href=\"{id}.csv\">{id}.csv</a>, \
         <a href=\"{id}.md\">{id}.md</a>.</p>\n</section>\n"
    );
}

/// An SVG from the plots module, made an accessible inline image.
fn inline_svg(name: &str, svg: &str) -> String {
    let body = svg.trim_start();
    let body = match body.strip_prefix("<?xml") {
        Some(rest) => rest.split_once("?>").map_or(body, |(_, after)| after.trim_start()),
        None => body,
    };
    match body.strip_prefix("<svg") {
        Some(rest) => format!("<svg role=\"img\" aria-labelledby=\"plot-{0}-caption\"{rest}", escape(name)),
        None => body.to_string(),
    }
}

fn provenance_section(html: &mut String, page: &Page<'_>) {
    let manifest = page.manifest;
    let total: f64 = manifest.wall_time_s.iter().map(|(_, seconds)| seconds).sum();
    let slowest = manifest.wall_time_s.iter().max_by(|a, b| a.1.total_cmp(&b.1));
    let _ = write!(
        html,
        "<section id=\"provenance\" aria-labelledby=\"provenance-title\">\n<h2 id=\"provenance-title\">Provenance</h2>\n<dl>\n\
         <dt>tool</dt><dd>schedlab {}</dd>\n<dt>git revision</dt><dd><code>{}</code></dd>\n\
         <dt>spec</dt><dd><code>{}</code> (inputs SHA-256 <code>{}</code>)</dd>\n<dt>GPU types</dt><dd>{}</dd>\n\
         <dt>runs</dt><dd>{}</dd>\n<dt>wall time</dt><dd><span class=\"wall-time\">{:.1} s over all runs{}</span></dd>\n</dl>\n",
        escape(&manifest.tool_version),
        escape(manifest.git_revision.as_deref().unwrap_or("unknown")),
        escape(page.spec_origin),
        escape(&manifest.spec_hash),
        escape(&manifest.gpu_types.join(", ")),
        manifest.wall_time_s.len(),
        total,
        slowest.map_or(String::new(), |(key, seconds)| format!("; slowest {} ({seconds:.1} s)", escape(key))),
    );
    if !manifest.data_files.is_empty() || !manifest.policy_files.is_empty() {
        html.push_str(
            "<h3>Data files</h3>\n<div class=\"scroll\"><table class=\"data-files\">\n<thead><tr><th scope=\"col\">file</th>\
             <th scope=\"col\">read by</th><th scope=\"col\">SHA-256</th></tr></thead>\n<tbody>\n",
        );
        let files = manifest.data_files.iter().map(|(file, sha)| ("the experiment", file, sha));
        let policies = manifest
            .policy_files
            .iter()
            .flat_map(|(policy, files)| files.iter().map(move |(file, sha)| (policy.as_str(), file, sha)));
        for (reader, file, sha) in files.chain(policies) {
            let _ = writeln!(
                html,
                "<tr><td><code>{}</code></td><td>{}</td><td><code>{}</code></td></tr>",
                escape(file),
                escape(reader),
                escape(sha)
            );
        }
        html.push_str("</tbody>\n</table></div>\n");
    }
    for (title, lines) in [
        ("Data files that differ from their recorded checksums", &manifest.data_modified),
        ("Where the perf model extrapolates", &manifest.perf_exceptions),
    ] {
        if !lines.is_empty() {
            let _ = writeln!(html, "<h3>{title}</h3>\n<ul>");
            for line in lines {
                let _ = writeln!(html, "<li>{}</li>", escape(line));
            }
            html.push_str("</ul>\n");
        }
    }
    let _ = write!(html, "<h3>Spec</h3>\n<pre><code>{}</code></pre>\n</section>\n", escape(page.spec_text.trim_end()));
}

/// The experiment's `index.html`.
pub fn experiment_page(page: &Page<'_>) -> String {
    let name = escape(page.name);
    let description = page.description.trim();
    let [held, missed, inconclusive, unreachable, incomplete] = verdict_counts(&page.claims);
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{name} - schedlab</title>\n\
         <meta name=\"description\" content=\"{}\">\n<meta name=\"schedlab-claims\" content=\"{held} of {}\">\n\
         <meta name=\"schedlab-verdicts\" content=\"{held} {missed} {inconclusive} {unreachable} {incomplete}\">\n\
         <style>{STYLE}</style>\n</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to the results</a>\n\
         <header>\n<h1>{name}</h1>\n<p class=\"description\">{}</p>\n</header>\n\
         <nav aria-label=\"Sections\"><ul>\n",
        escape(description),
        page.claims.len(),
        escape(description)
    );
    if !page.claims.is_empty() {
        html.push_str("<li><a href=\"#claims\">Claims</a></li>\n");
    }
    for table in &page.tables {
        let _ = writeln!(html, "<li><a href=\"#table-{0}\">{0}</a></li>", escape(&table.name));
    }
    if !page.plots.is_empty() {
        html.push_str("<li><a href=\"#plots\">Plots</a></li>\n");
    }
    html.push_str(
        "<li><a href=\"#provenance\">Provenance</a></li>\n<li><a href=\"../index.html\">All experiments</a></li>\n</ul></nav>\n<main id=\"main\">\n",
    );
    if !page.claims.is_empty() {
        claims_section(&mut html, &page.claims);
    }
    html.push_str("<section id=\"tables\" aria-labelledby=\"tables-title\">\n<h2 id=\"tables-title\">Tables</h2>\n");
    html.push_str("<p class=\"hint\">Press a column's header to sort by it; again to reverse.</p>\n");
    for table in &page.tables {
        table_section(&mut html, table);
    }
    html.push_str("</section>\n");
    if !page.plots.is_empty() {
        html.push_str("<section id=\"plots\" aria-labelledby=\"plots-title\">\n<h2 id=\"plots-title\">Plots</h2>\n");
        for (plot, svg) in &page.plots {
            let id = escape(plot);
            let _ = writeln!(
                html,
                "<figure id=\"plot-{id}\">\n{}\n<figcaption id=\"plot-{id}-caption\">{id} \
                 (<a href=\"{id}.svg\">SVG</a>, <a href=\"{id}.png\">PNG</a>)</figcaption>\n</figure>",
                inline_svg(plot, svg).trim_end()
            );
        }
        html.push_str("</section>\n");
    }
    provenance_section(&mut html, page);
    let _ = write!(
        html,
        "</main>\n<footer>Written by schedlab {}. The same results as <a href=\"README.md\">README.md</a>, \
         <a href=\"runs.csv\">runs.csv</a> (every run) and <a href=\"manifest.json\">manifest.json</a>.</footer>\n\
         <script>{SCRIPT}</script>\n</body>\n</html>\n",
        escape(&page.manifest.tool_version)
    );
    html
}

/// Reads `<meta name="NAME" content="...">` from a page this module wrote.
fn meta(page: &str, name: &str) -> Option<String> {
    let pattern = format!("<meta name=\"{name}\" content=\"");
    let start = page.find(&pattern)? + pattern.len();
    let end = page[start..].find('"')?;
    Some(page[start..start + end].to_string())
}

/// The text up to its first full stop followed by a space (all of it if there is none).
fn first_sentence(text: &str) -> String {
    match text.find(". ") {
        Some(end) => text[..=end].to_string(),
        None => text.to_string(),
    }
}

/// Writes `results_dir/index.html`: a link to every experiment folder there that has an
/// `index.html`, with the first sentence of its description and how many of its claims hold.
/// Built from the pages on disk, so it lists experiments written by earlier invocations too.
pub fn write_results_index(results_dir: &Path) -> Result<(), ExperimentError> {
    let io = |path: &Path, error: std::io::Error| ExperimentError::Io {
        path: path.display().to_string(),
        message: error.to_string(),
    };
    let mut experiments: Vec<(String, String, String, String)> = Vec::new();
    for entry in std::fs::read_dir(results_dir).map_err(|error| io(results_dir, error))? {
        let path = entry.map_err(|error| io(results_dir, error))?.path();
        let page_path = path.join("index.html");
        let Some(name) = path.file_name().and_then(|name| name.to_str()) else { continue };
        let Ok(page) = std::fs::read_to_string(&page_path) else { continue };
        // Escaped text stays escaped: it goes back into the same kind of place.
        let claims = meta(&page, "schedlab-claims").unwrap_or_default();
        let verdicts = meta(&page, "schedlab-verdicts").unwrap_or_default();
        let description = first_sentence(&meta(&page, "description").unwrap_or_default());
        experiments.push((name.to_string(), description, claims, verdicts));
    }
    experiments.sort();
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Results - schedlab</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to the experiments</a>\n\
         <header>\n<h1>Results</h1>\n<p class=\"description\">{} experiments. Each page has its claims, tables, plots and provenance.</p>\n\
         </header>\n<main id=\"main\">\n<div class=\"scroll\"><table class=\"sortable\" id=\"experiments\">\n\
         <thead><tr><th scope=\"col\"><button type=\"button\" class=\"sort\" data-column=\"0\">experiment</button></th>\
         <th scope=\"col\"><button type=\"button\" class=\"sort\" data-column=\"1\">claims that hold</button></th>\
         <th scope=\"col\"><button type=\"button\" class=\"sort\" data-column=\"2\">missed</button></th>\
         <th scope=\"col\"><button type=\"button\" class=\"sort\" data-column=\"3\">inconclusive</button></th>\
         <th scope=\"col\"><button type=\"button\" class=\"sort\" data-column=\"4\">unreachable here</button></th>\
         <th scope=\"col\"><button type=\"button\" class=\"sort\" data-column=\"5\">incomplete</button></th>\
         <th scope=\"col\">description</th></tr></thead>\n<tbody>\n",
        experiments.len()
    );
    let mut totals = [0usize; 5];
    for (name, description, claims, verdicts) in &experiments {
        let name = escape(name);
        // "3 of 4": sorted by the share that holds; experiments without claims last.
        let (cell, share) = match claims.split_once(" of ") {
            Some((held, total)) if total != "0" => {
                let share = held.parse::<f64>().unwrap_or(0.0) / total.parse::<f64>().unwrap_or(1.0);
                (claims.clone(), format!(" data-sort=\"{}\"", sort_value(share)))
            }
            _ => ("no claims".to_string(), String::new()),
        };
        // "held missed inconclusive unreachable incomplete", each counted in its own column.
        let counts: Vec<usize> = verdicts.split(' ').filter_map(|count| count.parse().ok()).collect();
        let others: String = match counts.as_slice() {
            [_, missed, inconclusive, unreachable, incomplete] => {
                for (total, count) in totals.iter_mut().zip(&counts) {
                    *total += count;
                }
                [missed, inconclusive, unreachable, incomplete]
                    .iter()
                    .map(|count| format!("<td class=\"number\" data-sort=\"{count}\">{count}</td>"))
                    .collect()
            }
            _ => "<td></td><td></td><td></td><td></td>".to_string(),
        };
        let _ = writeln!(
            html,
            "<tr><th scope=\"row\"><a href=\"{name}/index.html\">{name}</a></th><td class=\"number\"{share}>{cell}</td>{others}<td>{description}</td></tr>"
        );
    }
    let _ = write!(
        html,
        "</tbody>\n</table></div>\n<p class=\"summary\" id=\"verdict-totals\">All claims: {}.</p>\n",
        crate::claims::counts_text(totals)
    );
    let _ = write!(html, "</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n");
    crate::store::write_atomically(&results_dir.join("index.html"), html.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_meta_reads_back_what_was_written() {
        assert_eq!(escape("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
        let page =
            "<meta name=\"schedlab-claims\" content=\"3 of 4\">\n<meta name=\"description\" content=\"a &amp; b\">";
        assert_eq!(meta(page, "schedlab-claims").as_deref(), Some("3 of 4"));
        assert_eq!(meta(page, "description").as_deref(), Some("a &amp; b"));
        assert_eq!(meta(page, "other"), None);
        assert_eq!(first_sentence("Gavel's LAS. On 6,000 jobs."), "Gavel's LAS.");
        assert_eq!(first_sentence("No stop"), "No stop");
    }

    #[test]
    fn an_svg_is_inlined_without_its_xml_declaration_and_labelled_by_its_caption() {
        let svg = "<?xml version=\"1.0\"?>\n<svg width=\"10\" height=\"10\"><rect/></svg>\n";
        assert_eq!(
            inline_svg("jct_cdf", svg),
            "<svg role=\"img\" aria-labelledby=\"plot-jct_cdf-caption\" width=\"10\" height=\"10\"><rect/></svg>\n"
        );
    }
}

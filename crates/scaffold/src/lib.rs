//! Scaffolding a policy crate (`schedlab new-policy NAME`, or the `schedlab-new-policy`
//! binary of this crate, which builds in seconds): writes `crates/policies/NAME` with a working
//! placeholder policy and registers it: one line in the workspace's `[workspace.dependencies]`, one
//! dependency line in the zoo's `Cargo.toml` (`.workspace = true`, as its neighbours), one line
//! in the zoo's `CRATES`, and a place in `experiments/quickstart.yaml`. Every edit is checked before
//! anything is written, so a moved anchor is an error naming the file, never a silent no-op.

use anyhow::{Context as _, Result, bail};
use std::path::{Path, PathBuf};

/// The line in the zoo's `Cargo.toml` after which policy crates are listed.
const CARGO_ANCHOR: &str = "# Policy crates";
/// How the workspace's `[workspace.dependencies]` lines of policy crates begin.
const WORKSPACE_ANCHOR: &str = "schedlab-policies-";
/// The line in the zoo's `src/lib.rs` that opens the list of crates.
const CRATES_ANCHOR: &str = "pub const CRATES: &[&[PolicyEntry]] = &[";
/// The line in `experiments/quickstart.yaml` that lists its policies.
const QUICKSTART_ANCHOR: &str = "policies: [";

/// A validated policy name and the names derived from it.
#[derive(Debug, PartialEq, Eq)]
struct Names {
    /// `my-policy`.
    policy: String,
    /// `schedlab-policies-my-policy`.
    package: String,
    /// `schedlab_policies_my_policy`.
    ident: String,
    /// `MyPolicy`.
    type_name: String,
}

fn names(name: &str, registered: &dyn Fn(&str) -> Option<String>) -> Result<Names> {
    let parts: Vec<&str> = name.split('-').collect();
    let valid = name.len() <= 40
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && parts
            .iter()
            .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
    if !valid {
        bail!(
            "policy name '{name}': expected lowercase letters and digits in words joined by single '-', starting with a letter, at most 40 characters (e.g. my-policy)"
        );
    }
    let type_name: String = parts
        .iter()
        .map(|part| {
            let mut chars = part.chars();
            let first = chars.next().expect("parts are not empty").to_ascii_uppercase();
            std::iter::once(first).chain(chars).collect::<String>()
        })
        .collect();
    // `Self` is the one keyword a CamelCase word can be; the other names are prefixed.
    if type_name == "Self" {
        bail!("policy name '{name}': its type name would be `Self`, a Rust keyword; choose another name");
    }
    if let Some(known) = registered(name) {
        bail!("policy name '{name}' is already registered ({known}); choose another name");
    }
    Ok(Names {
        policy: name.to_string(),
        package: format!("schedlab-policies-{name}"),
        ident: format!("schedlab_policies_{}", name.replace('-', "_")),
        type_name,
    })
}

/// Inserts `line` after the last line of the block that starts at `anchor` (the anchor line and
/// the non-empty lines after it), or fails naming the file and the anchor.
/// Inserts `line` after the last line of `text` that starts with `prefix` (the workspace's
/// dependency lines of policy crates).
fn insert_after_last(text: &str, prefix: &str, line: &str, file: &Path) -> Result<String> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(last) = lines.iter().rposition(|known| known.starts_with(prefix)) else {
        bail!("{}: expected a line starting with '{prefix}' to add the policy crate after", file.display());
    };
    let mut out: Vec<&str> = lines[..=last].to_vec();
    out.push(line);
    out.extend_from_slice(&lines[last + 1..]);
    Ok(out.join("\n") + "\n")
}

fn insert_after_block(text: &str, anchor: &str, line: &str, file: &Path) -> Result<String> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines.iter().position(|known| known.trim_start().starts_with(anchor)) else {
        bail!("{}: expected a line starting with '{anchor}' to add the policy crate after", file.display());
    };
    let end =
        lines[start + 1..].iter().position(|known| known.trim().is_empty()).map_or(lines.len(), |at| start + 1 + at);
    let mut out: Vec<&str> = lines[..end].to_vec();
    out.push(line);
    out.extend_from_slice(&lines[end..]);
    Ok(out.join("\n") + "\n")
}

/// Inserts `line` before the `];` that closes the list opened at `anchor`.
fn insert_in_list(text: &str, anchor: &str, line: &str, file: &Path) -> Result<String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|known| known.trim_start().starts_with(anchor));
    let close =
        start.and_then(|start| lines[start..].iter().position(|known| known.trim() == "];").map(|at| start + at));
    let Some(close) = close else {
        bail!("{}: expected '{anchor}' followed by a line '];' to add the policy crate to", file.display());
    };
    let mut out: Vec<&str> = lines[..close].to_vec();
    out.push(line);
    out.extend_from_slice(&lines[close..]);
    Ok(out.join("\n") + "\n")
}

/// Appends `name` to the one-line `policies: [...]` list.
fn add_to_quickstart(text: &str, name: &str, file: &Path) -> Result<String> {
    let mut found = false;
    let lines: Vec<String> = text
        .lines()
        .map(|line| match line.strip_prefix(QUICKSTART_ANCHOR).and_then(|rest| rest.strip_suffix(']')) {
            Some(inner) if !found => {
                found = true;
                format!("{QUICKSTART_ANCHOR}{inner}, {name}]")
            }
            _ => line.to_string(),
        })
        .collect();
    if !found {
        bail!("{}: expected a one-line 'policies: [...]' list to add the policy to", file.display());
    }
    Ok(lines.join("\n") + "\n")
}

/// Where a policy crate's registry (`src/lib.rs` or `src/registry.rs` under `root/crates/policies`)
/// names `name` as a string literal (`name: "fifo"`, or a macro's `gavel!("gavel-las", ...)`),
/// as `file:line`. Without the zoo compiled in, this is how the small binary refuses a taken
/// name; the zoo's tests refuse two policies of one name in any case.
pub fn registered_in_sources(root: &Path, name: &str) -> Option<String> {
    let literal = format!("\"{name}\"");
    let crates = std::fs::read_dir(root.join("crates/policies")).ok()?;
    let mut dirs: Vec<PathBuf> = crates.filter_map(|entry| entry.ok().map(|entry| entry.path())).collect();
    dirs.sort();
    for dir in dirs {
        for file in ["src/lib.rs", "src/registry.rs"] {
            let path = dir.join(file);
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            if let Some(line) = text.lines().position(|line| line.contains(&literal)) {
                return Some(format!("named in {}:{}", path.display(), line + 1));
            }
        }
    }
    None
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path)
        .with_context(|| format!("cannot read {} (is --root the workspace root?)", path.display()))
}

/// Scaffolds and registers the policy `name` in the workspace at `root`. `registered` says
/// whether a policy of that name exists already, and what it is (the tool asks the zoo; the
/// small binary reads the policy crates' registries, [`registered_in_sources`]).
pub fn new_policy(name: &str, root: &Path, registered: &dyn Fn(&str) -> Option<String>) -> Result<()> {
    let names = names(name, registered)?;
    let dir = root.join("crates/policies").join(name);
    if dir.exists() {
        bail!("{} already exists", dir.display());
    }
    let workspace = root.join("Cargo.toml");
    let workspace_text = read(&workspace)?;
    if !workspace_text.contains("\"crates/policies/*\"") {
        bail!("{}: expected the workspace members to include \"crates/policies/*\"", workspace.display());
    }
    // Every edit is computed first; files are written only when all of them apply.
    let zoo_cargo = root.join("crates/zoo/Cargo.toml");
    let zoo_lib = root.join("crates/zoo/src/lib.rs");
    let quickstart = root.join("experiments/quickstart.yaml");
    // The crate joins the workspace's dependencies, and the zoo takes it from there like its
    // neighbours (`.workspace = true`).
    let path = format!("{} = {{ path = \"crates/policies/{name}\" }}", names.package);
    let dependency = format!("{}.workspace = true", names.package);
    let edits: Vec<(PathBuf, String)> = vec![
        (workspace.clone(), insert_after_last(&workspace_text, WORKSPACE_ANCHOR, &path, &workspace)?),
        (zoo_cargo.clone(), insert_after_block(&read(&zoo_cargo)?, CARGO_ANCHOR, &dependency, &zoo_cargo)?),
        (
            zoo_lib.clone(),
            insert_in_list(&read(&zoo_lib)?, CRATES_ANCHOR, &format!("    {}::POLICIES,", names.ident), &zoo_lib)?,
        ),
        (quickstart.clone(), add_to_quickstart(&read(&quickstart)?, name, &quickstart)?),
    ];
    let files = [("Cargo.toml", cargo_toml(&names)), ("README.md", readme(&names)), ("src/lib.rs", lib_rs(&names))];
    std::fs::create_dir_all(dir.join("src")).with_context(|| format!("cannot create {}", dir.display()))?;
    for (file, contents) in files {
        let path = dir.join(file);
        std::fs::write(&path, contents).with_context(|| format!("cannot write {}", path.display()))?;
    }
    for (path, contents) in edits {
        std::fs::write(&path, contents).with_context(|| format!("cannot write {}", path.display()))?;
    }
    println!("created {}; registered '{name}' in crates/zoo and experiments/quickstart.yaml", dir.display());
    println!(
        "next: fill in src/lib.rs and README.md, then: cargo test -p {} (its tests run it through the engine) and cargo reproduce quickstart --results /tmp/{name} (a scratch folder, not the committed results)",
        names.package
    );
    Ok(())
}

fn cargo_toml(names: &Names) -> String {
    format!(
        r#"[package]
name = "{package}"
description = "The {policy} scheduling policy"
version.workspace = true
edition.workspace = true
rust-version.workspace = true
license.workspace = true

[dependencies]
schedlab-core.workspace = true
schedlab-cluster.workspace = true

[dev-dependencies]
schedlab-testkit.workspace = true

[lints]
workspace = true
"#,
        package = names.package,
        policy = names.policy
    )
}

fn readme(names: &Names) -> String {
    format!(
        r#"# {package}

What the policy is and which paper it comes from.

## Algorithm

The paper's algorithm in math.

## Parameters

| parameter | default | source (paper section or the authors' code) |
|---|---|---|

## Deviations

- What differs from the paper, and why.
"#,
        package = names.package
    )
}

fn lib_rs(names: &Names) -> String {
    format!(
        r#"//! The `{policy}` policy. Replace this with what the paper's algorithm does.

#![deny(missing_docs)]

use schedlab_cluster::Placer;
use schedlab_core::{{Context, Decision, ParamError, ParamReader, Policy, PolicyEntry, PolicyError, ready, recipe}};

/// This crate's policies, as the zoo lists them.
pub const POLICIES: &[PolicyEntry] = &[PolicyEntry {{
    name: "{policy}",
    description: "{policy}: starts waiting jobs in arrival order (a placeholder to replace)",
    oracle: false,
    make: |params, env| recipe(params, env, {type_name}::read, ready),
}}];

/// The `{policy}` policy: starts waiting jobs in arrival order (a placeholder to replace).
#[derive(Clone, Debug)]
pub struct {type_name} {{
    name: String,
    placer: Placer,
}}

impl {type_name} {{
    /// Reads the policy from `{policy}[placement=...,same_type=...]`. Read every parameter
    /// here, through the reader (files with `reader.file`), so that `schedlab list policies`
    /// lists it and experiments hash the files it names; load files in a build function
    /// given to `recipe` (see `schedlab_policies_gavel::Gavel::new`), never here.
    pub fn read(reader: &mut ParamReader<'_>) -> Result<{type_name}, ParamError> {{
        let placer = Placer::from_params(reader)?;
        Ok({type_name} {{ name: reader.name(), placer }})
    }}
}}

impl Policy for {type_name} {{
    fn name(&self) -> &str {{
        &self.name
    }}

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {{
        let mut plan = context.cluster.clone();
        let mut start = Vec::new();
        for job in context.jobs.queued() {{
            // As the shipped policies place: on the job's pool, GPU types and CPUs.
            if let Some(allocation) = self.placer.place_job(&plan, job) {{
                plan.take(&allocation, job.cpu_demand()).expect("the placer only returns free resources");
                start.push((job.id, allocation));
            }}
        }}
        Ok(Decision {{ start, ..Decision::none() }})
    }}
}}

#[cfg(test)]
mod tests {{
    use super::*;
    use schedlab_testkit::{{JobSpecExt, Scenario, job, policy, run}};

    #[test]
    fn waiting_jobs_start_in_their_pools() {{
        let mut scenario = Scenario::new("1x4 v100 @a cpus=16, 1x4 v100 @b cpus=16");
        scenario.arrive(job(0, 0.0, 4, 600.0).in_pool("b"));
        let decision = scenario.decide(&mut *policy(POLICIES, "{policy}")).unwrap();
        assert_eq!(decision.start.len(), 1, "{{decision:?}}");
        assert_eq!(decision.start[0].1.parts, [(schedlab_core::NodeId(1), 4)], "pool b is node 1");
    }}

    #[test]
    fn the_engine_runs_every_job_to_completion() {{
        // The engine refuses a decision that breaks a pool or over-commits CPUs.
        let jobs = [job(0, 0.0, 4, 600.0).in_pool("b"), job(1, 0.0, 2, 300.0).in_pool("a"), job(2, 60.0, 4, 60.0)];
        let records = run(&mut *policy(POLICIES, "{policy}"), "1x4 v100 @a cpus=16, 1x4 v100 @b cpus=16", &jobs)
            .unwrap_or_else(|error| panic!("{{error}}"));
        assert!(records.iter().all(|record| record.finish.is_some()), "{{records:?}}");
    }}
}}
"#,
        policy = names.policy,
        type_name = names.type_name
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The workspace root (this crate is `crates/scaffold`).
    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    #[test]
    fn names_are_validated_and_derived() {
        let registered = |name: &str| registered_in_sources(&root(), name);
        let derived = names("my-policy2", &registered).unwrap();
        assert_eq!(
            (derived.package.as_str(), derived.ident.as_str(), derived.type_name.as_str()),
            ("schedlab-policies-my-policy2", "schedlab_policies_my_policy2", "MyPolicy2")
        );
        for bad in ["", "My", "2fast", "a--b", "a-", "-a", "a_b", "a b", "self", &"x".repeat(41)] {
            assert!(names(bad, &registered).is_err(), "{bad:?} should be refused");
        }
        let taken = names("las", &registered).unwrap_err().to_string();
        assert!(taken.contains("already registered") && taken.contains("basic/src/lib.rs:"), "{taken}");
    }

    #[test]
    fn the_sources_name_every_registered_policy_family() {
        // A plain entry, a macro's entry and a registry module's entry.
        for name in ["fifo", "gavel-las-agnostic", "hadare", "rltune-sjf"] {
            assert!(registered_in_sources(&root(), name).is_some(), "{name}");
        }
        assert_eq!(registered_in_sources(&root(), "largest-first"), None);
    }

    #[test]
    fn edits_land_where_the_anchors_are_and_fail_loudly_without_them() {
        let file = Path::new("f");
        let cargo = "[dependencies]\nx = 1\n# Policy crates, one line each\na = 1\nb = 1\n\n[lints]\n";
        let edited = insert_after_block(cargo, CARGO_ANCHOR, "c = 1", file).unwrap();
        assert_eq!(edited, "[dependencies]\nx = 1\n# Policy crates, one line each\na = 1\nb = 1\nc = 1\n\n[lints]\n");
        let workspace = "[workspace.dependencies]\nschedlab-core = 1\nschedlab-policies-a = 1\nschedlab-policies-b = 1\nschedlab-x = 1\n";
        let edited = insert_after_last(workspace, WORKSPACE_ANCHOR, "schedlab-policies-c = 1", file).unwrap();
        assert_eq!(
            edited,
            "[workspace.dependencies]\nschedlab-core = 1\nschedlab-policies-a = 1\nschedlab-policies-b = 1\nschedlab-policies-c = 1\nschedlab-x = 1\n"
        );
        let lib = "pub const CRATES: &[&[PolicyEntry]] = &[\n    a::POLICIES,\n];\nfn f() {}\n";
        let edited = insert_in_list(lib, CRATES_ANCHOR, "    b::POLICIES,", file).unwrap();
        assert_eq!(
            edited,
            "pub const CRATES: &[&[PolicyEntry]] = &[\n    a::POLICIES,\n    b::POLICIES,\n];\nfn f() {}\n"
        );
        let yaml = "name: q\npolicies: [fifo, \"las[quantum=60]\"]\nseeds: [0]\n";
        let edited = add_to_quickstart(yaml, "mine", file).unwrap();
        assert_eq!(edited, "name: q\npolicies: [fifo, \"las[quantum=60]\", mine]\nseeds: [0]\n");
        for error in [
            insert_after_block("[dependencies]\n", CARGO_ANCHOR, "c", file).unwrap_err(),
            insert_after_last("[workspace.dependencies]\n", WORKSPACE_ANCHOR, "c", file).unwrap_err(),
            insert_in_list("pub const OTHER = &[\n];\n", CRATES_ANCHOR, "b", file).unwrap_err(),
            add_to_quickstart("policies:\n  - fifo\n", "mine", file).unwrap_err(),
        ] {
            assert!(error.to_string().starts_with("f: expected"), "{error}");
        }
    }
}

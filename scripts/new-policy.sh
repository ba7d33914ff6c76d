#!/usr/bin/env bash
# Scaffolds crates/policies/NAME: a crate with one policy, a README to fill in, a zoo entry
# and a place in experiments/quickstart.yaml. Usage: scripts/new-policy.sh NAME
set -euo pipefail
name="${1:?usage: scripts/new-policy.sh NAME (lowercase letters, digits, '-')}"
[[ "$name" =~ ^[a-z][a-z0-9-]*$ ]] || { echo "error: policy name '$name' should be lowercase letters, digits and '-'" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/crates/policies/$name"
[ -e "$dir" ] && { echo "error: $dir already exists" >&2; exit 2; }
crate="schedlab-policies-$name"
type="$(echo "$name" | sed -E 's/(^|-)([a-z])/\U\2/g')"
ident="$(echo "$crate" | tr '-' '_')"
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "$crate"
description = "The $name scheduling policy"
version.workspace = true
edition.workspace = true
rust-version.workspace = true
license.workspace = true

[dependencies]
schedlab-core.workspace = true
schedlab-cluster.workspace = true

[lints]
workspace = true
TOML
cat > "$dir/src/lib.rs" <<RUST
//! The \`$name\` policy. Replace this with what the paper's algorithm does.

#![deny(missing_docs)]

use schedlab_cluster::Placer;
use schedlab_core::{Context, Decision, ParamError, Policy, PolicyError, PolicyParams};

/// The \`$name\` policy: starts waiting jobs in arrival order (a placeholder to replace).
#[derive(Clone, Debug)]
pub struct $type {
    name: String,
    placer: Placer,
}

impl $type {
    /// Builds the policy from \`$name[placement=...,same_type=...]\`.
    pub fn from_params(params: &PolicyParams) -> Result<$type, ParamError> {
        let mut reader = params.reader();
        let placer = Placer::from_params(&mut reader)?;
        Ok($type { name: reader.finish()?, placer })
    }
}

impl Policy for $type {
    fn name(&self) -> &str {
        &self.name
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let mut plan = context.cluster.clone();
        let mut start = Vec::new();
        for job in context.jobs.queued() {
            if let Some(allocation) = self.placer.place(&plan, job.gpus, job.feasible_types, None) {
                plan.take(&allocation, None).expect("the placer only returns free resources");
                start.push((job.id, allocation));
            }
        }
        Ok(Decision { start, ..Decision::none() })
    }
}
RUST
cat > "$dir/README.md" <<MD
# $crate

What the policy is and which paper it comes from.

## Algorithm

The paper's algorithm in math.

## Parameters

| parameter | default | source (paper section or the authors' code) |
|---|---|---|

## Deviations

- What differs from the paper, and why.
MD
# Workspace member and dependency.
sed -i "/^members/ s|\"crates/zoo\"|\"crates/policies/$name\", \"crates/zoo\"|" "$root/Cargo.toml"
sed -i "s|^schedlab-zoo = { path = \"crates/zoo\" }|$crate = { path = \"crates/policies/$name\" }\nschedlab-zoo = { path = \"crates/zoo\" }|" "$root/Cargo.toml"
sed -i "s|^schedlab-policies-basic.workspace = true|schedlab-policies-basic.workspace = true\n$crate.workspace = true|" "$root/crates/zoo/Cargo.toml"
# Zoo entry, before the closing of REGISTRY.
python3 - "$root/crates/zoo/src/lib.rs" "$name" "$ident" "$type" <<'PY'
import sys
path, name, ident, type_ = sys.argv[1:]
text = open(path).read()
entry = f'''    PolicyEntry {{
        name: "{name}",
        description: "TODO: one line on what {name} does",
        oracle: false,
        params: "",
        build: |params| boxed({ident}::{type_}::from_params(params)),
    }},
];
'''
marker = "];\n\n/// Returns the parameters every policy also accepts"
assert marker in text, "zoo layout changed; add the entry by hand"
text = text.replace(marker, entry + "\n/// Returns the parameters every policy also accepts", 1)
open(path, "w").write(text)
PY
# Add it to the quickstart suite.
sed -i -E "s|^(policies: \[.*)\]$|\1, $name]|" "$root/experiments/quickstart.yaml"
echo "created $dir; registered '$name' in the zoo and experiments/quickstart.yaml"
echo "next: fill in src/lib.rs and README.md, then: cargo test --workspace && cargo reproduce quickstart"

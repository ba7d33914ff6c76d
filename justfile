# schedlab developer tasks. Every recipe is a thin wrapper over cargo; see README.md.
# Install just with `cargo install just --locked` (it is not in Debian 12), or use the cargo
# aliases in .cargo/config.toml (`cargo reproduce NAME`).

# List recipes.
default:
    @just --list

# Run experiments/NAME.yaml into results/NAME/ (e.g. `just reproduce philly`; `just reproduce all`: every spec).
reproduce NAME *FLAGS:
    cargo run --release --quiet -p schedlab-cli -- reproduce {{NAME}} {{FLAGS}}

# Run the test suite, including the regression snapshots (the command CI runs).
test:
    cargo test --workspace

# Review changed result-table snapshots (needs `cargo install cargo-insta`).
snapshots:
    cargo insta review

# Formatting and lints as CI checks them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# Criterion benchmarks: the engine (100k jobs, 2,816 GPUs), the trace loaders, one Pollux
# allocation, one RLTune decision and RLTune's placement MILP on every backend.
bench:
    cargo bench -p schedlab-sim --bench engine
    cargo bench -p schedlab-trace --bench load
    cargo bench -p schedlab-policies-pollux --bench ga
    cargo bench -p schedlab-policies-rltune --bench decision
    cargo bench -p schedlab-policies-rltune --features highs,cbc --bench milp

# Scaffold crates/policies/NAME, register it in the zoo and add it to the quickstart suite (the small
# scaffolding binary builds in seconds, so the tool is built once, after the crate exists).
new-policy NAME:
    cargo run --quiet -p schedlab-scaffold -- {{NAME}}

# One simulation; pass flags through, e.g. `just simulate -p las --perf gavel`.
simulate *ARGS:
    cargo run --release --quiet -p schedlab-cli -- simulate {{ARGS}}

# Train RLTune's agent on a spec's workload (e.g. the shipped Philly weights:
# `just train-rltune crates/policies/rltune/weights/philly-train.yaml crates/policies/rltune/weights/philly.json`;
# the same as `schedlab train rltune --trace philly ...` in a build with `--features train`).
train-rltune SPEC OUT *FLAGS:
    cargo run --release --quiet -p schedlab-rltune-train --bin rltune-train -- {{SPEC}} {{OUT}} {{FLAGS}}

# Train the RLTune agent for one objective (bsld, wait, turnaround, utilization) with schedlab's recipe,
# as the built-in per-objective weights were: `just train-rltune-objective philly wait 100` writes
# crates/policies/rltune/weights/philly-wait.json; Helios: `just train-rltune-objective helios wait 100 1` (`turnaround`, `utilization`: 60 epochs)
# (GAE's lambda 1 there; the crate README gives each agent's epochs).
train-rltune-objective TRACE OBJECTIVE EPOCHS LAMBDA="0.97":
    cargo run --release --quiet -p schedlab-cli --features train -- train rltune --trace {{TRACE}} --objective {{OBJECTIVE}} \
        --epochs {{EPOCHS}} --candidates 1 --pi-lr 3e-3 --normalise-multi-choice --filter 10..150 --lambda {{LAMBDA}} \
        --out crates/policies/rltune/weights/{{TRACE}}-{{OBJECTIVE}}.json

# Train DL2's policy network (the built-in weights: `just train-dl2 crates/policies/dl2/weights/dl2.json --builtin`;
# the same as `schedlab train dl2 --builtin --out ...` in a build with `--features train`).
train-dl2 OUT *FLAGS:
    cargo run --release --quiet -p schedlab-dl2-train --bin dl2-train -- {{OUT}} {{FLAGS}}

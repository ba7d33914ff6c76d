# schedlab developer tasks. Every recipe is a thin wrapper over cargo; see README.md.

# List recipes.
default:
    @just --list

# Run the test suite (the same command CI runs).
test:
    cargo test --workspace

# Formatting and lints as CI checks them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# Criterion benchmarks of the engine (FIFO and LAS, 100k jobs, 2,816 GPUs).
bench:
    cargo bench -p schedlab-sim --bench engine

# One simulation; pass flags through, e.g. `just simulate -p las --perf gavel`.
simulate *ARGS:
    cargo schedlab simulate {{ARGS}}

# List the registered policies.
policies:
    cargo schedlab policies

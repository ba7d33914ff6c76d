#!/usr/bin/env bash
# One AFL++ campaign: fuzz/run.sh TARGET SECONDS [OUT]. Builds the harness with `cargo afl`,
# writes the seed corpus (fuzz/seeds.py), and fuzzes TARGET (trace, spec or policy) for SECONDS
# into OUT (default target/fuzz/TARGET). Crashes land in OUT/default/crashes/; replay one with
# `target/release/TARGET < FILE`, and keep its minimised input in fuzz/regressions/TARGET/.
set -euo pipefail
cd "$(dirname "$0")"
target="${1:?target: trace, spec or policy}"
seconds="${2:?seconds}"
out="${3:-target/fuzz/$target}"
mkdir -p "$(dirname "$out")"
cargo afl build --release --quiet
python3 seeds.py target/fuzz-seeds >/dev/null
# No CPU frequency or core-pattern tuning on a shared machine; no curses UI in logs.
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
# The trace target's files: one folder for the campaign (AFL++ forks a process per batch).
export SCHEDLAB_FUZZ_SCRATCH="$out.scratch"
cargo afl fuzz -V "$seconds" -i "target/fuzz-seeds/$target" -o "$out" -- "target/release/$target"

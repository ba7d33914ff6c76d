#!/usr/bin/env python3
"""Writes the seed corpus of each AFL++ target into OUT/<target>/ (default target/fuzz-seeds).

trace: each format's fixture (traces/fixtures/) and the first 40 lines of each real data file
of that format (from $SCHEDLAB_DATA, ./data or ../shared/data), after the format's selector
byte (its index in schedlab_fuzz::FORMATS); spec: every committed experiment spec; policy:
every policy name with example parameters. fuzz/regressions/<target>/ (inputs earlier campaigns
found) are added too. The real data stays out of the repository: seeds are written under OUT.
"""
import os
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
out = Path(sys.argv[1] if len(sys.argv) > 1 else root / "target" / "fuzz-seeds")

# Index in schedlab_fuzz::FORMATS, fixture, real data files (relative to the data directory).
FORMATS = [
    (0, "philly-pollux.csv", ["philly/philly-pollux.csv"]),
    (1, "philly-gavel-dist.csv", ["philly/philly-gavel-distribution.csv"]),
    (2, "philly-raw.json", []),
    (3, "helios-cluster_log.csv", []),
    (4, "helios-dirlab.csv", ["helios/helios-dirlab-15k.csv"]),
    (6, "alibaba-openb.csv", ["alibaba/openb-v2023/openb_pod_list_default.csv"]),
    (7, "gavel-mixed.trace", []),
    (8, "pollux-workload.csv", ["pollux/workloads/workload-1.csv", "pollux/workloads-2.0/workload-3.csv"]),
    (9, "rltune.csv", ["rltune/synthetic_trace.csv"]),
]


def data_dir():
    for candidate in [os.environ.get("SCHEDLAB_DATA"), root / "data", root.parent / "shared" / "data"]:
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


def write(target, name, data):
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def head(path, lines=40):
    with open(path, "rb") as file:
        return b"".join(line for _, line in zip(range(lines), file))


data = data_dir()
for index, fixture, real in FORMATS:
    write("trace", fixture, bytes([index]) + (root / "traces" / "fixtures" / fixture).read_bytes())
    for relative in real:
        if data and (data / relative).is_file():
            write("trace", "data-" + relative.replace("/", "-"), bytes([index]) + head(data / relative))
pai = root / "traces" / "fixtures" / "alibaba-pai"
write("trace", "alibaba-pai", bytes([5]) + (pai / "pai_job_table.csv").read_bytes() + b"\x0c"
      + (pai / "pai_task_table.csv").read_bytes())
if data:
    for trace in sorted((data / "gavel" / "traces").rglob("*.trace"))[:3]:
        write("trace", "data-gavel-" + trace.name, bytes([7]) + head(trace))

for spec in sorted(root.glob("experiments/**/*.yaml")):
    write("spec", spec.name, spec.read_bytes())

for name in ["fifo[backfill=true]", "las[quantum=600,service=time]", "tiresias[starvation=2]",
             "gavel-ftf-packed[min_interval=7200,max_iterations=3]", "hadare[max_copies=2]",
             "pollux[generations=15,population=30]", "rltune[placement=milp]", "dl2[action=greedy]"]:
    write("policy", name.replace("[", "_").replace("]", "").replace("=", "-").replace(",", "_"), name.encode())

for target in ["trace", "spec", "policy"]:
    for found in sorted((root / "fuzz" / "regressions" / target).glob("*")):
        if found.is_file():
            write(target, "regression-" + found.name, found.read_bytes())
print(f"seeds written to {out}: " + ", ".join(f"{t} {len(list((out / t).iterdir()))}" for t in ["trace", "spec", "policy"]))

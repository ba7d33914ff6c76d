"""Reference values from the Pollux artifact's own code, for schedlab-goodput's tests.

Usage: python reference.py ARTIFACT_SIMULATOR_DIR OUT.json

ARTIFACT_SIMULATOR_DIR is the `simulator/` folder of petuum/adaptdl at branch osdi21-artifact
(with its `traces/`); the artifact's code is imported from there, never copied. Needs numpy<1.24,
pandas<2, scipy (see scripts/pollux/README.md). The queries are drawn with a fixed seed.
"""
import json
import math
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
sys.path.insert(0, sys.argv[1])
import applications  # noqa: E402  (the artifact's module)


def placement_of(rng, replicas):
    """A random placement of `replicas` GPUs on nodes of at most 4."""
    placement = []
    while sum(placement) < replicas:
        placement.append(int(rng.randint(1, min(4, replicas - sum(placement)) + 1)))
    return tuple(placement)


out = {}
rng = np.random.RandomState(7)
for name, app in applications.APPLICATIONS.items():
    record = {
        "init_batch_size": int(app.init_batch_size),
        "max_batch_size": int(app.max_batch_size),
        "min_local_bsz": int(app.min_local_bsz),
        "max_local_bsz": int(app.max_local_bsz),
        "max_epochs": int(app.max_epochs),
        "progress": [float(app.get_progress(e)) for e in range(app.max_epochs + 1)],
        "throughput": [],
        "grad_stats": [],
        "iteration": [],
    }
    locals_ = sorted(set(app.placements.local_bsz.values))
    lo, hi = min(locals_), max(locals_)
    while len(record["throughput"]) < 40:
        replicas = int(rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32]))
        placement = placement_of(rng, replicas)
        local = float(rng.choice(locals_)) if rng.rand() < 0.4 else float(rng.randint(lo, hi + 1))
        try:
            step, sync = app.get_throughput(placement, local)
        except (AssertionError, ValueError):
            continue
        record["throughput"].append([list(placement), local, float(step), float(sync)])
    batches = list(app.validation)
    for _ in range(15):
        batch = float(rng.randint(batches[0], batches[-1] + 1))
        epoch = int(rng.randint(0, app.max_epochs))
        sqr, var = app.get_grad_stats(batch, epoch)
        record["grad_stats"].append([batch, epoch, float(sqr), float(var)])
        record["iteration"].append([batch, epoch, float(app.get_iteration(batch, epoch))])
    out[name] = record

with open(sys.argv[2], "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("wrote", sys.argv[2], {k: len(v["throughput"]) for k, v in out.items()})

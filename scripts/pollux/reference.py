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

# The agent's fit (goodput.py, fit_perf_params) on synthetic measurements of known models.
from goodput import PerfParams, fit_perf_params, _predict_accum_time, _predict_log_optim_time, _predict_network_time  # noqa: E402

fits = []
truths = [PerfParams(0.03, 0.002, 0.2, 0.01, 0.05, 0.004, 1.5), PerfParams(0.1, 0.0005, 0.5, 0.02, 0.08, 0.01, 3.0)]
configs = [
    [(1, 1, 32), (1, 1, 128), (1, 2, 64), (1, 4, 64), (1, 4, 128), (2, 8, 64), (4, 16, 64), (4, 16, 128)],
    [(1, 1, 64)],
    [(1, 1, 64), (1, 4, 64), (1, 4, 96)],
    [(1, 2, 32), (2, 2, 32)],
]
for truth in truths:
    for config in configs:
        n = np.array([c[0] for c in config]); r = np.array([c[1] for c in config]); b = np.array([c[2] for c in config])
        accum = _predict_accum_time(truth, b)
        step = np.exp(_predict_log_optim_time(truth, accum, _predict_network_time(truth, n, r)))
        fitted = fit_perf_params(n, r, b, accum, step)
        fits.append({"measurements": [[int(x), int(y), int(z), float(a), float(s)] for (x, y, z), a, s in zip(config, accum, step)],
                     "fitted": [float(v) for v in fitted]})
out["fits"] = fits

# The agent's choice of batch size and accumulation (goodput.py, GoodputFunction.optimize).
from goodput import GoodputFunction  # noqa: E402

optima = []
for case in fits:
    for grad in [(1.0, 3.0), (5.0, 0.5)]:
        fn = GoodputFunction(case["fitted"], grad, 128)
        for nodes, replicas in [(1, 1), (1, 4), (2, 5), (4, 16), (8, 24)]:
            goodput, atomic, accum = fn.optimize(nodes, replicas, 4096, (32, 256), accumulation=True)
            optima.append({"params": case["fitted"], "grad": list(grad), "nodes": nodes, "replicas": replicas,
                           "goodput": float(goodput), "atomic_bsz": int(atomic), "accum_steps": int(accum)})
out["optima"] = optima

with open(sys.argv[2], "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("wrote", sys.argv[2], len(applications.APPLICATIONS), "applications,", len(fits), "fits,", len(optima), "optima")

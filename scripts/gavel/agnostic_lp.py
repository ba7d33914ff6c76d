#!/usr/bin/env python3
"""Solves Gavel's heterogeneity-agnostic max-min fairness LP with Gavel's own policy code and
compares the interior points ECOS (Gavel's solver) and Clarabel return with schedlab's spread
(`spread_over_types` in crates/policies/gavel/src/allocation/mod.rs), with a simplex vertex, and
with schedlab's `maxmin-ipm` on schedlab's formulation of the same LP (through
`cargo run --release -p schedlab-solver --example max_min_ratio`; run from the repository root).

The agnostic LP is degenerate: every GPU type is worth 1.0 to every job, so any split of a
job's time over the types is optimal. Gavel's simulator keeps whatever point ECOS returns;
schedlab imitates it by spreading each job's total over the types in proportion to their
capacities. This script measures how far that imitation is from ECOS's actual point.

Usage: agnostic_lp.py GAVEL_CHECKOUT   (run with the venv of scripts/gavel/setup.sh, or any
python with cvxpy, ecos and clarabel; no RPC stubs are needed)
"""
import sys

import numpy as np

from maxmin_ipm_vs_ecos import solve_ours


def maxmin_ipm(scales, usable, capacity):
    """schedlab's agnostic LP (throughput 1 on usable types, demand 1 / s) solved by
    `maxmin-ipm`: maximise t with sum_j x[m][j] >= t / s_m, rows <= 1, capacities."""
    return solve_ours(usable.astype(float), 1.0 / scales, scales, capacity)[1]


def spread(totals, capacity, usable, scales):
    """schedlab's rule (`spread_over_types`): each job's total over its usable types in
    proportion to their capacities, then alternating projections (types scaled down to their
    capacity, jobs scaled back to their totals) until both hold within 1e-9; if that does not
    settle in 500 rounds, the LP's own split is kept (returned as None here)."""
    x = np.where(usable, capacity[None, :], 0.0)
    x = x / x.sum(axis=1, keepdims=True) * totals[:, None]
    for _ in range(500):
        worst = 0.0
        used = (x * scales[:, None]).sum(axis=0)
        over = used > capacity
        worst = max(worst, float((used - capacity)[over].max(initial=0.0)))
        x[:, over] *= capacity[over] / used[over]
        sums = x.sum(axis=1)
        positive = sums > 0
        worst = max(worst, float(np.abs(totals - sums)[positive].max(initial=0.0)))
        x[positive] *= (totals[positive] / sums[positive])[:, None]
        if worst <= 1e-9:
            used = (x * scales[:, None]).sum(axis=0)
            over = used > capacity
            x[:, over] *= capacity[over] / used[over]
            return x
    return None


def instances(rng):
    """(name, scale factors, usable mask, capacity) per instance, as in Gavel's simulated
    cluster (36 GPUs of each of three types)."""
    capacity = np.array([36.0, 36.0, 36.0])  # k80, p100, v100 (Gavel sorts the type names)
    yield "20 single-GPU jobs (fits)", np.ones(20), np.ones((20, 3), bool), capacity
    yield "200 single-GPU jobs", np.ones(200), np.ones((200, 3), bool), capacity
    scales = rng.choice([1, 2, 4, 8], size=80, p=[0.7, 0.1, 0.15, 0.05]).astype(float)
    usable = np.ones((80, 3), bool)
    usable[(scales >= 2) & (rng.random(80) < 0.3), 0] = False  # some gangs cannot use K80s
    yield "80 multi-GPU jobs, some without K80", scales, usable, capacity


def main():
    gavel = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
    sys.path.insert(0, f"{gavel}/scheduler/policies")
    from max_min_fairness import MaxMinFairnessPolicy  # noqa: E402  (Gavel's own code)

    rng = np.random.RandomState(0)
    types = ["k80", "p100", "v100"]
    print("| instance | point | largest difference from ECOS: a job's total time / one entry | share of time on types a job cannot use |")
    print("|---|---|---|---|")
    for name, scales, usable, capacity in instances(rng):
        jobs = list(range(len(scales)))
        # Gavel's agnostic policy sets every throughput to 1.0, whatever the job can use.
        throughputs = {j: {t: (1.0 if usable[j, k] else 0.0) for k, t in enumerate(types)} for j in jobs}
        cluster = {t: capacity[k] for k, t in enumerate(types)}
        weights = {j: 1.0 for j in jobs}
        points = {}
        for solver in ["ECOS", "CLARABEL", "HIGHS"]:
            policy = MaxMinFairnessPolicy(solver=solver)
            allocation = policy.get_allocation(throughputs, dict(zip(jobs, scales)), weights, cluster)
            points[solver] = np.array([[allocation[j][t] for t in types] for j in jobs])
        # schedlab spreads the totals of its simplex solution (HiGHS stands in for microlp).
        for source, label in [("HIGHS", "the simplex totals"), ("ECOS", "ECOS's totals")]:
            spread_point = spread(points[source].sum(axis=1), capacity, usable, scales)
            points[f"schedlab spread of {label}"] = points[source] if spread_point is None else spread_point
        points["maxmin-ipm (schedlab's formulation)"] = maxmin_ipm(scales, usable, capacity)
        spread_point = spread(points["maxmin-ipm (schedlab's formulation)"].sum(axis=1), capacity, usable, scales)
        if spread_point is not None:
            points["schedlab spread of maxmin-ipm's totals"] = spread_point
        ecos = points["ECOS"]
        for solver, x in points.items():
            totals = np.abs(x.sum(axis=1) - ecos.sum(axis=1)).max()
            entry = np.abs(x - ecos).max()
            unusable = (x * ~usable).sum() / max(x.sum(), 1e-12)
            print(f"| {name} | {solver} | {totals:.4f} / {entry:.4f} | {unusable:.3f} |")


if __name__ == "__main__":
    main()

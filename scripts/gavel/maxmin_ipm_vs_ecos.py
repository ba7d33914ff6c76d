#!/usr/bin/env python3
"""Compares the point schedlab's `maxmin-ipm` returns for max-min ratio LPs with the points of
cvxpy's ECOS (Gavel's solver) and Clarabel on the same LP, on random Gavel-like instances:
the heterogeneity-agnostic LP (every usable type worth 1, degenerate in how each job's time
splits over the types) and the aware one (Gavel-like throughputs, demands from Gavel's
proportional share).

All three solve one formulation, ours (`crates/solver/src/max_min.rs`): maximise t subject to
sum_j R[m][j] x[m][j] >= t d[m], sum_j x[m][j] <= 1, sum_m a[m] x[m][j] <= N[j], x >= 0.
Where the optimum is not unique each returns the point its own iterations lead to; the script
prints, per instance kind, the largest difference in any job's time on any type between each
pair of solvers (ECOS-Clarabel is the scale of "two interior points").

Usage: maxmin_ipm_vs_ecos.py   (python with cvxpy and ecos; run from the repository root; it
builds `cargo run --release -p schedlab-solver --example max_min_ratio`)
"""
import subprocess

import cvxpy as cp
import numpy as np

EXAMPLE = ["cargo", "run", "--quiet", "--release", "-p", "schedlab-solver", "--example", "max_min_ratio"]


def instance(rng, jobs, aware):
    """Jobs of scale factor 1/2/4/8 (70/10/15/5%) on n/4 GPUs of each of three types."""
    scales = rng.choice([1, 2, 4, 8], size=jobs, p=[0.7, 0.1, 0.15, 0.05]).astype(float)
    capacity = np.full(3, max(jobs // 4, 8), dtype=float)
    if aware:
        k80 = rng.uniform(1, 20, size=jobs)
        rates = np.stack([k80 * rng.uniform(2, 6, size=jobs), k80 * rng.uniform(1.3, 3, size=jobs), k80], axis=1)
        rates *= scales[:, None] * 0.8
        iso = rates @ capacity / capacity.sum()
        demand = iso / scales
    else:
        rates = np.ones((jobs, 3))
        demand = 1.0 / scales
    return rates, demand, scales, capacity


def solve_cvxpy(rates, demand, scales, capacity, solver):
    x = cp.Variable(rates.shape, nonneg=True)
    t = cp.Variable()
    constraints = [
        cp.sum(cp.multiply(rates, x), axis=1) >= t * demand,
        cp.sum(x, axis=1) <= 1,
        scales @ x <= capacity,
    ]
    cp.Problem(cp.Maximize(t), constraints).solve(solver=solver)
    return t.value, x.value


def solve_ours(rates, demand, scales, capacity):
    """`maxmin-ipm` through the solver crate's example: (t, x)."""
    lines = [f"{len(rates)} {len(capacity)}", " ".join(map(str, map(float, capacity)))]
    lines += [" ".join(map(str, map(float, [a, d, *row]))) for a, d, row in zip(scales, demand, rates)]
    out = subprocess.run(EXAMPLE, input="\n".join(lines), capture_output=True, text=True, check=True).stdout.split("\n")
    return float(out[0]), np.array([[float(v) for v in line.split()] for line in out[1 : 1 + len(rates)]])


def main():
    rng = np.random.default_rng(0)
    for aware in [False, True]:
        worst = {"ours-ECOS": 0.0, "ours-Clarabel": 0.0, "ECOS-Clarabel": 0.0}
        worst_t = 0.0
        for jobs in [32, 64, 128, 256] * 3:
            problem = instance(rng, jobs, aware)
            t_ecos, x_ecos = solve_cvxpy(*problem, cp.ECOS)
            t_clarabel, x_clarabel = solve_cvxpy(*problem, cp.CLARABEL)
            t_ours, x_ours = solve_ours(*problem)
            worst_t = max(worst_t, abs(t_ours - t_ecos) / abs(t_ecos))
            for name, a, b in [("ours-ECOS", x_ours, x_ecos), ("ours-Clarabel", x_ours, x_clarabel),
                               ("ECOS-Clarabel", x_ecos, x_clarabel)]:
                worst[name] = max(worst[name], float(np.abs(a - b).max()))
        kind = "aware" if aware else "agnostic"
        print(f"{kind}: 12 instances of 32-256 jobs; t relative difference ours-ECOS at most {worst_t:.1e}; "
              + "; ".join(f"{name} largest time difference {value:.1e}" for name, value in worst.items()))


if __name__ == "__main__":
    main()

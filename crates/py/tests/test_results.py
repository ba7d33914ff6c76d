"""Runs and results: DataFrames of runs, tables and claims, reuse of stored runs, one run."""

import math

import pandas
import polars
import pyarrow
import pytest

import schedlab
from conftest import small_spec


def test_a_dict_spec_runs_and_comes_back_as_dataframes(tmp_path):
    spec = small_spec(
        policies=["fifo", "sjf"],
        seeds=[0, 1],
        tables=[{"name": "avg_jct", "metric": "avg_jct_hours", "rows": "policy", "columns": "seed"}],
    )
    results = schedlab.run(spec, results=tmp_path, threads=2, progress=False)
    assert results.dir == tmp_path / "py-small"
    assert (results.ran, results.reused) == (4, 0)
    assert isinstance(results.runs, pandas.DataFrame)
    assert sorted(results.runs["policy"].unique()) == ["fifo", "sjf"]
    assert {"avg_jct_hours", "utilization", "seed"} <= set(results.runs.columns)
    assert list(results.tables) == ["avg_jct"]
    assert results.claims is None
    # The DataFrame holds what runs.csv holds.
    on_disk = pandas.read_csv(results.dir / "runs.csv")
    pandas.testing.assert_frame_equal(results.runs, on_disk)

    again = schedlab.run(spec, results=tmp_path, frame="polars", progress=False)
    assert (again.ran, again.reused) == (0, 4)
    assert isinstance(again.runs, polars.DataFrame)
    assert again.runs["avg_jct_hours"].to_list() == results.runs["avg_jct_hours"].to_list()
    arrow = schedlab.run(spec, results=tmp_path, frame="arrow", progress=False)
    assert isinstance(arrow.runs, pyarrow.Table)


def test_a_spec_file_runs_with_its_claims(tmp_path):
    spec_file = tmp_path / "claims.yaml"
    spec_file.write_text(
        "name: py-claims\n"
        "workload:\n"
        "  generator: {gavel-continuous: {jobs: 40, rate_per_hour: 1.0, multi_gpu: true}}\n"
        "  model: rigid\n"
        "cluster: {compact: {gpus: {v100: 8, p100: 8, k80: 8}, gpus_per_node: 4}}\n"
        "perf: rigid\n"
        "policies: [fifo, sjf]\n"
        "seeds: [0, 1]\n"
        "claims:\n"
        "  - {text: sjf beats fifo, metric: avg_jct_hours, ratio: [fifo, sjf], expected: 1.2, tolerance: 0.5,"
        " source: a test}\n"
        "  - {text: fifo takes a billion hours, metric: avg_jct_hours, policy: fifo, expected: 1.0e9, tolerance: 0.1,"
        " source: a test}\n"
    )
    results = schedlab.run(spec_file, results=tmp_path / "out", progress=False)
    assert results.claims is not None
    row = results.claims.iloc[0]
    assert row["claim"] == "sjf beats fifo"
    fifo = results.runs.query("policy == 'fifo'").sort_values("seed")["avg_jct_hours"].to_list()
    sjf = results.runs.query("policy == 'sjf'").sort_values("seed")["avg_jct_hours"].to_list()
    assert row["measured"] == pytest.approx((sum(fifo) / 2) / (sum(sjf) / 2))
    # Fieller's interval of the ratio of means, worked out here from the runs (two seeds: t = 12.706).
    n, t = 2, 12.706
    mean_a, mean_b = sum(fifo) / n, sum(sjf) / n
    var_a = sum((a - mean_a) ** 2 for a in fifo) / (n - 1)
    var_b = sum((b - mean_b) ** 2 for b in sjf) / (n - 1)
    cov = sum((a - mean_a) * (b - mean_b) for a, b in zip(fifo, sjf)) / (n - 1)
    q = t * t / n
    quad_a, quad_b, quad_c = mean_b**2 - q * var_b, mean_a * mean_b - q * cov, mean_a**2 - q * var_a
    if quad_a > 0:
        root = max(quad_b * quad_b - quad_a * quad_c, 0.0) ** 0.5
        lower, upper = max((quad_b - root) / quad_a, 0.0), (quad_b + root) / quad_a
    else:
        lower, upper = 0.0, math.inf
    assert row["lower"] == pytest.approx(lower)
    assert (upper == math.inf and (row["upper"] == math.inf or str(row["upper"]) == "inf")) or row["upper"] == pytest.approx(upper)
    low, high = 1.2 * 0.5, 1.2 * 1.5
    expected = "holds" if low <= lower and upper <= high else "missed" if upper < low or lower > high else "inconclusive"
    assert row["verdict"] == expected
    # A billion hours lies far above even a two-seed interval of these runs: missed, spelled as the code writes it.
    assert results.claims.iloc[1]["verdict"] == "missed"
    assert set(results.claims["verdict"]) <= {"holds", "missed", "inconclusive", "unreachable here", "incomplete"}


def test_simulate_runs_one_run_in_memory_with_every_job_in_a_long_frame(tmp_path):
    spec = small_spec(policies=["fifo", "las"], seeds=[0, 1])
    run = schedlab.simulate(spec, policy="las", seed=1)
    assert run.policy == "las" and run.seed == 1
    assert len(run.jobs) == 60 and list(run.jobs.columns) == [
        "job", "name", "job_type", "gpus", "gpu_type", "arrival_s", "first_start_s", "finish_s", "jct_s",
        "queueing_delay_s", "waiting_time_s", "run_time_s", "restarts", "reconfigurations", "measured",
    ]
    jobs = run.jobs
    finished = jobs[jobs["finish_s"].notna()]
    assert (finished["jct_s"] == finished["finish_s"] - finished["arrival_s"]).all()
    started = jobs[jobs["first_start_s"].notna()]
    assert (started["queueing_delay_s"] == started["first_start_s"] - started["arrival_s"]).all()
    assert set(jobs["gpu_type"].dropna()) <= {"v100", "p100", "k80"}
    stored = schedlab.run(spec, results=tmp_path, progress=False).runs
    row = stored.query("policy == 'las' and seed == 1").iloc[0]
    assert run.metrics["avg_jct_hours"] == row["avg_jct_hours"]
    measured = jobs[jobs["measured"]]
    assert measured["jct_s"].mean() / 3600 == pytest.approx(row["avg_jct_hours"])
    assert measured["restarts"].sum() == row["restarts"]
    with pytest.raises(schedlab.SchedlabError, match=r"simulate\(policy='las'\): 2 runs of 'py-small' match; choose one"):
        schedlab.simulate(spec, policy="las")


def test_simulate_runs_a_policy_seed_or_point_the_spec_does_not_list_as_if_it_did(tmp_path):
    spec = small_spec(policies=["fifo", "las"], seeds=[0, 1])
    outside = schedlab.simulate(spec, policy="srtf", seed=5)
    listed = schedlab.simulate(small_spec(policies=["fifo", "srtf"], seeds=[4, 5]), policy="srtf", seed=5)
    assert outside.metrics == listed.metrics
    assert outside.jobs.equals(listed.jobs)
    from schedlab.examples.fifo import Fifo

    by_class = schedlab.simulate(spec, policy=Fifo, seed=0)
    assert by_class.policy.startswith("py:schedlab.examples.fifo:Fifo")
    assert by_class.metrics["avg_jct_hours"] == schedlab.simulate(spec, policy="fifo", seed=0).metrics["avg_jct_hours"]
    with pytest.raises(TypeError, match="pass the class"):
        schedlab.simulate(spec, policy=Fifo(), seed=0)
    with pytest.raises(schedlab.SchedlabError, match=r"simulate\(policy='fifoo', seed=0\): unknown policy 'fifoo' \(did you mean 'fifo'\?\)"):
        schedlab.simulate(spec, policy="fifoo", seed=0)


def test_policies_lists_the_zoo_with_parameters():
    zoo = schedlab.policies()
    assert list(zoo.columns) == ["name", "oracle", "params", "description"]
    fifo = zoo.set_index("name").loc["fifo"]
    assert fifo["params"].startswith("backfill=false") and not fifo["oracle"]
    assert zoo.set_index("name").loc["sjf"]["oracle"]
    assert {"gavel-las", "hadar", "pollux", "rltune", "dl2"} <= set(zoo["name"])


def test_results_give_every_runs_jobs_in_one_long_frame(tmp_path):
    spec = small_spec(policies=["fifo", "las[quantum=600]"], seeds=[0, 1], jobs=30, sweep={"rate_per_hour": [1.0, 2.0]})
    results = schedlab.run(spec, results=tmp_path, progress=False)
    jobs = results.jobs()
    assert len(jobs) == 8 * 30
    assert list(jobs.columns[:4]) == ["policy", "seed", "rate_per_hour", "job"]
    # Each run's measured jobs give its runs.csv row back.
    for _, row in results.runs.iterrows():
        mine = jobs[(jobs["policy"] == row["policy"]) & (jobs["seed"] == row["seed"]) & (jobs["rate_per_hour"] == row["rate_per_hour"])]
        assert mine[mine["measured"]]["jct_s"].mean() / 3600 == pytest.approx(row["avg_jct_hours"])
    las = results.jobs(policy="las[quantum=600]", seed=1, point={"rate_per_hour": 2.0})
    assert len(las) == 30 and set(las["policy"]) == {"las[quantum=600]"}
    with pytest.raises(ValueError, match="no run of py-small matches"):
        results.jobs(seed=9)

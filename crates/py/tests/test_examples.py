"""The stable-baselines3 example (CI installs the `rl` extra for it; elsewhere it skips where
stable-baselines3 is missing, and CI fails on a skip it does not expect)."""

import runpy
import sys

import pytest

from conftest import ROOT


@pytest.mark.parametrize("plain", [False, True])
def test_the_ppo_example_trains_and_evaluates(data, monkeypatch, capsys, plain):
    pytest.importorskip("stable_baselines3")
    if not plain:
        pytest.importorskip("sb3_contrib")
    argv = ["train_ppo.py", "--steps", "1024", "--envs", "2", "--held-out", "2"] + (["--plain"] if plain else [])
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(ROOT / "crates" / "py" / "examples" / "train_ppo.py"), run_name="__main__")
    output = capsys.readouterr().out
    assert ("PPO: " if plain else "MaskablePPO: ") in output and "steps in" in output
    assert "held out: 2 windows of 256 jobs after job 10000 where FCFS makes a job wait" in output
    rows = [line.split() for line in output.splitlines() if line.startswith("  ")]
    assert len(rows) == 3 and all(float(row[-1]) >= 1.0 for row in rows), output

"""The stable-baselines3 example, where stable-baselines3 is installed (not in CI: torch is
gigabytes)."""

import runpy
import sys

import pytest

from conftest import ROOT


@pytest.mark.parametrize("masked", [False, True])
def test_the_ppo_example_trains_and_evaluates(data, monkeypatch, capsys, masked):
    pytest.importorskip("stable_baselines3")
    if masked:
        pytest.importorskip("sb3_contrib")
    argv = ["train_ppo.py", "--steps", "600", "--window", "32"] + (["--masked"] if masked else [])
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(ROOT / "crates" / "py" / "examples" / "train_ppo.py"), run_name="__main__")
    output = capsys.readouterr().out
    assert "600 steps in" in output and "held-out mean reward against FCFS" in output

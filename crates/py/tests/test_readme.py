"""The README's Python section runs as written, and its policy is the built-in FIFO."""

import os
import re
import shutil
import sys
import types

import schedlab
from conftest import ROOT, small_spec


def readme_code():
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## From Python") : text.index("## Where everything is")]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_readmes_python_section_runs_and_its_fifo_is_fifo(tmp_path, monkeypatch):
    (tmp_path / "experiments").mkdir()
    shutil.copy(ROOT / "experiments" / "quickstart.yaml", tmp_path / "experiments")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(compile(readme_code(), "README.md", "exec"), namespace)
    assert (tmp_path / "results" / "quickstart" / "runs.csv").exists()
    assert namespace["run"].policy == "las"
    # The README's class as a module, beside the built-in FIFO.
    module = types.ModuleType("readme_policy")
    module.Fifo = namespace["Fifo"]
    monkeypatch.setitem(sys.modules, "readme_policy", module)
    runs = schedlab.run(small_spec(policies=["fifo", "py:readme_policy:Fifo"], seeds=[0, 1]), results=tmp_path / "r", progress=False).runs
    by_policy = {policy: rows.drop(columns=["key", "policy"]).reset_index(drop=True) for policy, rows in runs.groupby("policy")}
    assert by_policy["fifo"].equals(by_policy["py:readme_policy:Fifo"])

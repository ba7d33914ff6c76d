"""Policies written in Python: the same contract, checks and determinism as Rust policies."""

import os
import textwrap

import pandas
import pytest

import schedlab
from conftest import philly_spec, small_spec

PY_FIFO = "py:schedlab.examples.fifo:Fifo"


def metrics(runs):
    return runs.drop(columns=["key", "policy"]).reset_index(drop=True)


def test_a_python_fifo_gives_the_rust_fifos_metrics_on_philly(tmp_path, data):
    rust = schedlab.run(philly_spec("philly-rust", ["fifo"]), results=tmp_path, threads=1, progress=False)
    python = schedlab.run(philly_spec("philly-py", [PY_FIFO]), results=tmp_path, threads=1, progress=False)
    assert len(python.runs) == 3
    pandas.testing.assert_frame_equal(metrics(python.runs), metrics(rust.runs))
    # Byte for byte: runs.csv is the same but for the policy's name.
    rust_text = (rust.dir / "runs.csv").read_text().replace("fifo", "POLICY")
    python_text = (python.dir / "runs.csv").read_text().replace(PY_FIFO, "POLICY")
    assert python_text == rust_text


def test_the_python_policys_copy_of_the_jobs_matches_the_engines(tmp_path, monkeypatch):
    # SCHEDLAB_PY_VERIFY=1 compares every job a Python policy sees with the engine's view at every
    # decision point, with preemptions, ticks and backfilling.
    monkeypatch.setenv("SCHEDLAB_PY_VERIFY", "1")
    spec = small_spec(
        policies=["py:policies_for_tests:RandomOrder", PY_FIFO + "[backfill=true]"],
        seeds=[0, 1],
        jobs=120,
        sim={"restart_overhead": 30},
    )
    results = schedlab.run(spec, results=tmp_path, threads=2, progress=False)
    assert len(results.runs) == 4
    assert results.runs.query("policy == 'py:policies_for_tests:RandomOrder'")["restarts"].sum() > 0


def test_job_lists_slice_and_compare_as_python_sequences(tmp_path):
    # The checks run inside the policy: a failed one fails the run.
    results = schedlab.run(
        small_spec(policies=["py:policies_for_tests:SequenceChecks"]), results=tmp_path, threads=1, progress=False
    )
    assert results.runs["jobs_finished"].iloc[0] == 60
    with pytest.raises(schedlab.SchedlabError, match="TypeError: job indices must be integers or slices, not str"):
        schedlab.run(
            small_spec(policies=["py:policies_for_tests:IndexByName"]), results=tmp_path, threads=1, progress=False
        )


def test_same_spec_same_seed_same_bytes_on_one_thread_or_two(tmp_path):
    spec = small_spec(policies=["py:policies_for_tests:RandomOrder", PY_FIFO], seeds=[0, 1, 2])
    one = schedlab.run(spec, results=tmp_path / "one", threads=1, progress=False)
    two = schedlab.run(spec, results=tmp_path / "two", threads=2, progress=False)
    assert (one.dir / "runs.csv").read_bytes() == (two.dir / "runs.csv").read_bytes()
    again = schedlab.run(spec, results=tmp_path / "one", threads=2, force=True, progress=False)
    assert again.ran == 6
    assert (again.dir / "runs.csv").read_bytes() == (one.dir / "runs.csv").read_bytes()
    # Seeds reach the policy: its runs differ across seeds.
    random_runs = one.runs.query("policy == 'py:policies_for_tests:RandomOrder'")
    assert random_runs["avg_jct_hours"].nunique() == 3


def test_the_policy_source_file_is_part_of_the_run_identity(tmp_path, monkeypatch):
    module = tmp_path / "mod_identity.py"
    source = textwrap.dedent(
        """
        from schedlab.examples.fifo import Fifo


        class Mine(Fifo):
            pass
        """
    )
    module.write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = small_spec(policies=["py:mod_identity:Mine"])
    first = schedlab.run(spec, results=tmp_path / "out", progress=False)
    assert first.ran == 1
    assert schedlab.run(spec, results=tmp_path / "out", progress=False).reused == 1
    module.write_text(source + "\n# changed\n")
    assert schedlab.run(spec, results=tmp_path / "out", progress=False).ran == 1
    manifest = (first.dir / "manifest.json").read_text()
    assert os.fspath(module) in manifest


def test_a_source_less_classs_digest_is_the_same_in_every_process():
    # Without source, the digest reads bytecode and constants; a lambda's code object among them
    # used to enter by its repr, which holds a memory address, so no later process reused a run.
    import subprocess
    import sys

    script = textwrap.dedent(
        """
        from schedlab._identity import class_source_digest
        source = (
            "class Notebook:\\n"
            "    limit = 3\\n"
            "    def schedule(self, context):\\n"
            "        pick = lambda jobs: [job for job in jobs if job.job_type in {'a', 'b'}][: self.limit]\\n"
            "        return pick(context.queued)\\n"
        )
        namespace = {}
        exec(compile(source, "<notebook cell>", "exec"), namespace)
        print(class_source_digest(namespace["Notebook"]))
        """
    )
    digests = {
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
        for _ in range(3)
    }
    assert len(digests) == 1 and len(digests.pop().strip()) == 16


def test_a_class_without_a_source_file_is_pinned_by_its_source(tmp_path, monkeypatch):
    # A notebook's class: its module has no file; the digest of its source pins the run identity.
    import sys
    import types

    def define(body):
        module = types.ModuleType("notebook_cell")
        exec(compile(f"class Mine:\n    def schedule(self, context):\n        {body}\n", "<cell>", "exec"), module.__dict__)
        monkeypatch.setitem(sys.modules, "notebook_cell", module)

    spec = small_spec(policies=["py:notebook_cell:Mine"], jobs=20)
    results = tmp_path / "out"
    define("from schedlab.examples.fifo import Fifo; return Fifo().schedule(context)")
    once = schedlab.run(spec, results=results, progress=False)
    again = schedlab.run(spec, results=results, progress=False)
    assert (once.ran, again.reused) == (1, 1)
    define("from schedlab.examples.fifo import Fifo; return Fifo(backfill=True).schedule(context)")
    assert schedlab.run(spec, results=results, progress=False).ran == 1
    manifest = (results / "py-small" / "manifest.json").read_text()
    assert "py:notebook_cell:Mine[source=" in manifest


def test_the_defining_modules_file_counts_too(tmp_path, monkeypatch):
    # `py:outer:Mine` where outer re-exports a class defined in inner: editing inner reruns.
    (tmp_path / "inner.py").write_text("from schedlab.examples.fifo import Fifo\n\n\nclass Mine(Fifo):\n    pass\n")
    (tmp_path / "outer.py").write_text("from inner import Mine\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = small_spec(policies=["py:outer:Mine"])
    assert schedlab.run(spec, results=tmp_path / "out", progress=False).ran == 1
    (tmp_path / "inner.py").write_text((tmp_path / "inner.py").read_text() + "\n# changed\n")
    assert schedlab.run(spec, results=tmp_path / "out", progress=False).ran == 1


def test_a_base_class_in_a_users_module_counts_too(tmp_path, monkeypatch):
    # `py:child:Mine` subclasses `base.Base` (a user module): editing base reruns, and the
    # installed schedlab package (site-packages) is not among the files.
    (tmp_path / "base.py").write_text("from schedlab.examples.fifo import Fifo\n\n\nclass Base(Fifo):\n    pass\n")
    (tmp_path / "child.py").write_text("from base import Base\n\n\nclass Mine(Base):\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = small_spec(policies=["py:child:Mine"])
    first = schedlab.run(spec, results=tmp_path / "out", progress=False)
    assert first.ran == 1
    assert schedlab.run(spec, results=tmp_path / "out", progress=False).reused == 1
    (tmp_path / "base.py").write_text((tmp_path / "base.py").read_text() + "\n# changed\n")
    assert schedlab.run(spec, results=tmp_path / "out", progress=False).ran == 1
    manifest = (first.dir / "manifest.json").read_text()
    assert os.fspath(tmp_path / "base.py") in manifest
    if "site-packages" in schedlab.__file__:
        # Installed packages' modules are left out (an editable install is the user's own code).
        assert "examples/fifo.py" not in manifest

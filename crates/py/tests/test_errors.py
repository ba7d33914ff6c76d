"""Errors arrive as schedlab.SchedlabError with the command line's messages."""

import pytest

import schedlab
from conftest import small_spec


def test_a_wrong_key_names_the_key_and_what_is_accepted(tmp_path):
    spec = small_spec()
    spec["seedz"] = [0]
    with pytest.raises(schedlab.SchedlabError, match="seedz"):
        schedlab.run(spec, results=tmp_path, progress=False)


def test_a_spec_file_error_names_its_file_and_line(tmp_path):
    spec_file = tmp_path / "bad.yaml"
    spec_file.write_text(
        "name: bad\n"
        "workload: {generator: {gavel-continuous: {jobs: 5, rate_per_hour: 1.0, multi_gpu: false}}, model: rigid}\n"
        "cluster: {compact: {gpus: {v100: 4}, gpus_per_node: 4}}\n"
        "perf: rigid\n"
        "policies: [fifoo]\n"
    )
    with pytest.raises(schedlab.SchedlabError) as error:
        schedlab.run(spec_file, results=tmp_path, progress=False)
    message = str(error.value)
    assert message.startswith(f"{spec_file}: line 5"), message
    assert "fifoo" in message and "did you mean 'fifo'" in message


def test_a_missing_spec_file_says_so(tmp_path):
    with pytest.raises(schedlab.SchedlabError, match="cannot read spec .*nowhere.yaml"):
        schedlab.run(tmp_path / "nowhere.yaml", results=tmp_path, progress=False)


def test_a_python_policy_that_cannot_be_found_says_why(tmp_path):
    for name, expected in [
        ("py:no_such_module:Fifo", "cannot import module 'no_such_module'.*add the folder that holds it to PYTHONPATH"),
        ("py:policies_for_tests:Missing", "module 'policies_for_tests' has no class 'Missing'"),
        ("py:policies_for_tests", "expected py:package.module:Class"),
    ]:
        with pytest.raises(schedlab.SchedlabError, match=expected):
            schedlab.run(small_spec(policies=[name]), results=tmp_path, progress=False)


def test_a_python_exception_stops_the_run_with_its_traceback_and_keeps_stored_runs(tmp_path):
    spec = small_spec(policies=["fifo", "py:policies_for_tests:Failing"], seeds=[0, 1])
    with pytest.raises(schedlab.SchedlabError) as error:
        schedlab.run(spec, results=tmp_path, threads=1, progress=False)
    message = str(error.value)
    assert "Traceback (most recent call last)" in message
    assert "RuntimeError: deliberate failure in a test policy" in message
    assert "policies_for_tests.py" in message
    # The Rust policy's runs that finished are stored: a rerun without the failing policy reuses them.
    stored = list((tmp_path / "py-small" / "runs").glob("*fifo*.json"))
    spec["policies"] = ["fifo"]
    again = schedlab.run(spec, results=tmp_path, progress=False)
    assert again.reused == len(stored) and again.reused >= 1


def test_a_python_decision_is_checked_as_a_rust_one(tmp_path):
    with pytest.raises(schedlab.SchedlabError, match="node"):
        schedlab.run(small_spec(policies=["py:policies_for_tests:OutOfCluster"]), results=tmp_path, progress=False)
    with pytest.raises(schedlab.SchedlabError, match="returned dict; expected a schedlab.Decision or None"):
        schedlab.run(small_spec(policies=["py:policies_for_tests:WrongReturn"]), results=tmp_path, progress=False)


def test_ctrl_c_stops_a_run_keeping_what_finished(tmp_path):
    import os
    import signal
    import threading

    spec = small_spec(policies=["py:policies_for_tests:Slow"], seeds=list(range(30)))
    # Python raises KeyboardInterrupt only where SIGINT was not ignored when it started; a
    # process started in the background by a shell without job control inherits it ignored.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.6, lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            schedlab.run(spec, results=tmp_path, threads=1, progress=False)
    finally:
        timer.join()
        signal.signal(signal.SIGINT, previous)
    stored = len(list((tmp_path / "py-small" / "runs").glob("*.json")))
    assert 0 < stored < 30
    resumed = schedlab.run(spec, results=tmp_path, threads=2, progress=False)
    assert (resumed.reused, resumed.ran) == (stored, 30 - stored)


def test_a_dict_spec_error_names_its_key_path(tmp_path):
    spec = small_spec()
    spec["workload"]["generator"]["gavel-continuous"]["sedes"] = 3
    with pytest.raises(schedlab.SchedlabError) as error:
        schedlab.run(spec, results=tmp_path, progress=False)
    message = str(error.value)
    assert message.startswith("spec key workload.generator.gavel-continuous.sedes: unknown field `sedes`"), message
    spec = small_spec(policies=["fifo", "lass"])
    with pytest.raises(schedlab.SchedlabError, match=r"^spec key policies\[1\]: unknown policy 'lass'"):
        schedlab.simulate(spec)
    spec = small_spec(seeds=[0], sweep={"rate_per_hour": [1.0, 1.0]})
    with pytest.raises(schedlab.SchedlabError, match=r"^spec key sweep.rate_per_hour: sweep: 'rate_per_hour' lists 1 twice"):
        schedlab.run(spec, results=tmp_path, progress=False)


def test_a_dict_spec_takes_policy_classes_and_refuses_other_objects(tmp_path):
    from schedlab.examples.fifo import Fifo

    results = schedlab.run(small_spec(policies=[Fifo, "fifo"]), results=tmp_path, progress=False)
    assert sorted(results.runs["policy"].str.split("[").str[0]) == ["fifo", "py:schedlab.examples.fifo:Fifo"]
    with pytest.raises(TypeError, match=r"spec: policies\[0\]: object is not a spec value"):
        schedlab.run(small_spec(policies=[object()]), results=tmp_path, progress=False)


def test_the_environments_name_a_dict_specs_key_path_too():
    from schedlab.gym import DL2Env, RLTuneEnv

    spec = small_spec()
    spec["workload"]["generator"]["gavel-continuous"]["sedes"] = 3
    for make in (RLTuneEnv, DL2Env):
        with pytest.raises(schedlab.SchedlabError) as error:
            make(spec)
        message = str(error.value)
        assert message.startswith("spec key workload.generator.gavel-continuous.sedes: unknown field"), message

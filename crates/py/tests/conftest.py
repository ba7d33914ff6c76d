"""Shared fixtures: the repository root, the data directory and small specs."""

import os
from pathlib import Path

import pytest

import schedlab

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session", autouse=True)
def in_repository():
    """Specs name experiments/ and data relative to the repository, as the command line does."""
    previous = os.getcwd()
    os.chdir(ROOT)
    yield
    os.chdir(previous)


def data_required():
    """As the Rust tests read SCHEDLAB_REQUIRE_DATA: set to anything but "" or "0"."""
    return os.environ.get("SCHEDLAB_REQUIRE_DATA", "") not in ("", "0")


@pytest.fixture(scope="session")
def data():
    """The data directory; without it the tests that read real traces fail when data is
    required (SCHEDLAB_REQUIRE_DATA, as in CI) and are skipped, with the reason, otherwise."""
    found = schedlab.data_dir()
    if found is None or not (found / "philly" / "philly-pollux.csv").exists():
        where = "no data directory was found" if found is None else f"{found} has no philly/philly-pollux.csv"
        if data_required():
            pytest.fail(f"SCHEDLAB_REQUIRE_DATA is set but {where}")
        pytest.skip(f"needs real data: {where}")
    return found


# Skips are counted; where SCHEDLAB_EXPECTED_SKIPS names a file of test ids (one a line, as
# `test_file.py::test_name[params]`, `#` comments), a skip it does not list fails the session,
# so that CI cannot go green having run less.
SKIPPED = []


def pytest_runtest_logreport(report):
    if report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        SKIPPED.append((report.nodeid, reason))


def expected_skips():
    listed = os.environ.get("SCHEDLAB_EXPECTED_SKIPS")
    if not listed:
        return None
    path = Path(listed) if Path(listed).exists() else ROOT / listed
    if not path.is_file():
        raise pytest.UsageError(f"SCHEDLAB_EXPECTED_SKIPS names {listed}, which is not a file")
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return {line for line in lines if line}


def unexpected_skips():
    expected = expected_skips()
    if expected is None:
        return []
    listed = lambda nodeid: any(nodeid == known or nodeid.endswith("/" + known) for known in expected)
    return [(nodeid, reason) for nodeid, reason in SKIPPED if not listed(nodeid)]


def pytest_terminal_summary(terminalreporter):
    expected = expected_skips()
    terminalreporter.write_line(
        f"skipped: {len(SKIPPED)}"
        + ("" if expected is None else f" ({len(SKIPPED) - len(unexpected_skips())} of them expected)")
    )
    for nodeid, reason in SKIPPED:
        terminalreporter.write_line(f"  skipped {nodeid}: {reason}")
    for nodeid, reason in unexpected_skips():
        terminalreporter.write_line(f"UNEXPECTED SKIP {nodeid}: {reason} (not in $SCHEDLAB_EXPECTED_SKIPS)", red=True)


def pytest_sessionfinish(session, exitstatus):
    if unexpected_skips() and session.exitstatus == 0:
        session.exitstatus = 1


def small_spec(name="py-small", policies=("fifo",), seeds=(0,), jobs=60, **extra):
    """A spec on Gavel's generator and a small three-type cluster: runs in well under a second."""
    spec = {
        "name": name,
        "workload": {
            "generator": {"gavel-continuous": {"jobs": jobs, "rate_per_hour": 1.0, "multi_gpu": True}},
            "model": "rigid",
        },
        "cluster": {"compact": {"gpus": {"v100": 8, "p100": 8, "k80": 8}, "gpus_per_node": 4}},
        "perf": "rigid",
        "policies": list(policies),
        "seeds": list(seeds),
    }
    spec.update(extra)
    return spec


def philly_spec(name, policies, rates=(1, 2, 4)):
    """experiments/philly.yaml's workload and cluster with other policies."""
    return {
        "name": name,
        "workload": {
            "trace": {"format": "philly-pollux", "path": "philly/philly-pollux.csv"},
            "transforms": ["dedup", "sort", {"window": {"from": "2017-10-01", "to": "2017-12-01"}}],
            "model": "rigid",
        },
        "cluster": {"philly_vc": {"path": "philly/philly_vc.csv", "gpu_type": "gpu", "partition": "per_vc"}},
        "perf": "rigid",
        "policies": list(policies),
        "seeds": [0],
        "sweep": {"scale_rate": list(rates)},
    }

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


@pytest.fixture(scope="session")
def data():
    """The data directory; without it the tests that read real traces fail when CI requires
    data (SCHEDLAB_REQUIRE_DATA=1) and are skipped otherwise."""
    found = schedlab.data_dir()
    if found is None or not (found / "philly" / "philly-pollux.csv").exists():
        if os.environ.get("SCHEDLAB_REQUIRE_DATA") == "1":
            pytest.fail("SCHEDLAB_REQUIRE_DATA=1 but the data directory has no philly/philly-pollux.csv")
        pytest.skip("no data directory with the Philly trace")
    return found


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

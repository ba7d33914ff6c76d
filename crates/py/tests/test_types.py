"""The type stubs of the Rust module match it, and the package type-checks against them."""

import subprocess
import sys

import pytest

from conftest import ROOT

PACKAGE = ROOT / "crates" / "py"


def mypy(*args):
    pytest.importorskip("mypy")
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=PACKAGE, capture_output=True, text=True, check=False
    )


def test_the_stubs_are_what_the_rust_module_has():
    result = mypy("mypy.stubtest", "schedlab._native")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_type_checks():
    result = mypy("mypy", "--config-file", "pyproject.toml", "-p", "schedlab")
    assert result.returncode == 0, result.stdout + result.stderr

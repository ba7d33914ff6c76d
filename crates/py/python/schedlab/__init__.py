"""schedlab from Python: run specs on schedlab's Rust engine and get DataFrames back, write
policies as Python classes, and train RL schedulers on a Gymnasium environment.

    import schedlab
    results = schedlab.run("experiments/quickstart.yaml")
    results.runs            # one row per run (pandas; frame="polars" or "arrow" for others)
    results.claims          # claims with their verdicts, when the spec has claims

Every function calls the same Rust code as the ``schedlab`` command: errors arrive as
``schedlab.SchedlabError`` with the command line's messages (file, line, key).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native
from ._native import (
    Allocation,
    Cluster,
    Context,
    Decision,
    Job,
    Jobs,
    RunInfo,
    SchedlabError,
    __version__,
)

__all__ = [
    "Allocation",
    "Cluster",
    "Context",
    "Decision",
    "Job",
    "Jobs",
    "Results",
    "Run",
    "RunInfo",
    "SchedlabError",
    "__version__",
    "data_dir",
    "policies",
    "run",
    "simulate",
]

Spec = Union[str, "os.PathLike[str]", Mapping[str, Any]]
FRAMES = ("pandas", "polars", "arrow")


def _source(spec: Spec) -> Tuple[Optional[str], Optional[str]]:
    """A spec as (text, path): a dict becomes JSON text (JSON is YAML), a path stays a path."""
    if isinstance(spec, Mapping):
        return json.dumps(spec), None
    if isinstance(spec, (str, os.PathLike)):
        return None, os.fspath(spec)
    raise TypeError(f"spec: expected a path or a dict, got {type(spec).__name__}")


def _frame(table: Any, frame: str) -> Any:
    """An Arrow table as the DataFrame kind asked for."""
    if frame == "pandas":
        return table.to_pandas()
    if frame == "polars":
        import polars

        return polars.from_arrow(table)
    if frame == "arrow":
        return table
    raise ValueError(f"frame={frame!r}: expected one of {', '.join(FRAMES)}")


def _read_csv(path: Path, frame: str) -> Any:
    import pyarrow.csv

    return _frame(pyarrow.csv.read_csv(path), frame)


@dataclass
class Results:
    """What ``run`` produced: DataFrames read through Arrow from the result folder's files."""

    dir: Path
    """The result folder, ``RESULTS/<experiment name>``."""
    runs: Any
    """``runs.csv``: one row per run, its policy, seed, sweep point and metrics."""
    tables: Dict[str, Any]
    """Each table of the spec by name (its CSV)."""
    claims: Any
    """``claims.csv`` (each claim, its measured value, interval and verdict), or None."""
    ran: int
    """Runs computed now."""
    reused: int
    """Runs reused from the store (same inputs, same bytes)."""
    files: List[str] = field(default_factory=list)
    """Files written, relative to ``dir``."""


def run(
    spec: Spec,
    results: Union[str, "os.PathLike[str]"] = "results",
    threads: int = 0,
    force: bool = False,
    frame: str = "pandas",
    progress: bool = True,
) -> Results:
    """Runs every run of ``spec`` (a path to a YAML spec, or the same spec as a dict) not
    already stored in ``results``, writes its tables, plots and claims, and returns them.

    ``threads=0`` uses one thread per core; ``force`` reruns stored runs; ``frame`` is
    ``"pandas"``, ``"polars"`` or ``"arrow"``; ``progress`` prints a line per finished run to
    stderr.
    """
    if frame not in FRAMES:
        raise ValueError(f"frame={frame!r}: expected one of {', '.join(FRAMES)}")
    text, path = _source(spec)
    answer = json.loads(_native.run(text, path, os.fspath(results), threads, force, progress))
    folder = Path(answer["dir"])
    tables = {name: _read_csv(folder / f"{name}.csv", frame) for name in answer["tables"]}
    claims_file = folder / "claims.csv"
    claims = _read_csv(claims_file, frame) if "claims.csv" in answer["files"] else None
    return Results(
        dir=folder,
        runs=_read_csv(folder / "runs.csv", frame),
        tables=tables,
        claims=claims,
        ran=answer["ran"],
        reused=answer["reused"],
        files=answer["files"],
    )


@dataclass
class Run:
    """One run, as ``simulate`` returns it."""

    policy: str
    """The policy's canonical name."""
    seed: int
    """The spec seed."""
    point: Dict[str, float]
    """The sweep point."""
    metrics: Dict[str, float]
    """Every per-run metric over the measurement window, named and scaled as in ``runs.csv``
    (hours, fractions, counts), with ``idle_while_waiting_gpu_hours`` besides."""
    jobs: Any
    """The finished measured jobs: ``job`` and ``jct_s`` (seconds)."""
    busy: Any
    """Busy GPUs over time: ``hours`` and ``gpus``."""
    wall_time_s: float
    """Seconds the run took."""


def simulate(
    spec: Spec,
    policy: Optional[str] = None,
    seed: Optional[int] = None,
    point: Optional[Mapping[str, float]] = None,
    check: bool = False,
    frame: str = "pandas",
) -> Run:
    """Runs one run of ``spec`` in memory (nothing is written): the run whose ``policy``
    (canonical name), ``seed`` and sweep ``point`` match; together they must leave exactly one.
    ``check`` verifies every engine invariant at every decision (slower).
    """
    import pyarrow

    text, path = _source(spec)
    pairs = None if point is None else [(str(axis), float(value)) for axis, value in point.items()]
    outcome = json.loads(_native.simulate(text, path, policy, seed, pairs, check))
    jobs = pyarrow.table(
        {
            "job": pyarrow.array([job for job, _ in outcome["jct_by_job"]], pyarrow.uint32()),
            "jct_s": pyarrow.array([jct for _, jct in outcome["jct_by_job"]], pyarrow.float64()),
        }
    )
    busy = pyarrow.table(
        {
            "hours": pyarrow.array([hours for hours, _ in outcome["busy"]], pyarrow.float64()),
            "gpus": pyarrow.array([gpus for _, gpus in outcome["busy"]], pyarrow.uint32()),
        }
    )
    return Run(
        policy=outcome["policy"],
        seed=outcome["seed"],
        point={axis: value for axis, value in outcome["point"]},
        metrics=outcome["metrics"],
        jobs=_frame(jobs, frame),
        busy=_frame(busy, frame),
        wall_time_s=outcome["wall_time_s"],
    )


def policies(frame: str = "pandas") -> Any:
    """Every policy in schedlab's zoo: ``name``, ``oracle`` (whether it reads ground truth),
    ``params`` (each parameter with its default) and ``description``."""
    import pyarrow

    table = pyarrow.Table.from_pylist(json.loads(_native.policies()))
    return _frame(table.select(["name", "oracle", "params", "description"]), frame)


def data_dir() -> Optional[Path]:
    """The data directory schedlab reads (``SCHEDLAB_DATA``, ``./data``, ``../shared/data``)."""
    found = _native.data_dir()
    return None if found is None else Path(found)

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
        return _dict_text(spec)[0], None
    if isinstance(spec, (str, os.PathLike)):
        return None, os.fspath(spec)
    raise TypeError(f"spec: expected a path or a dict, got {type(spec).__name__}")


def _dict_text(spec: Mapping[str, Any]) -> Tuple[str, List[str]]:
    """A dict spec as JSON text with one key or item per line, and the key path of each line
    (``workload.generator.jobs``, ``policies[2]``), so an error at a line can name its key.
    Policy classes become their names (``py:module:Class``)."""
    lines: List[str] = []
    paths: List[str] = []

    def emit(value: Any, path: str, depth: int, prefix: str, comma: str) -> None:
        pad = "  " * depth
        if isinstance(value, Mapping) or isinstance(value, (list, tuple)):
            pairs = (
                [(key, f"{path}.{key}" if path else str(key)) for key in value]
                if isinstance(value, Mapping)
                else [(index, f"{path}[{index}]") for index in range(len(value))]
            )
            opening, closing = ("{", "}") if isinstance(value, Mapping) else ("[", "]")
            if not pairs:
                lines.append(f"{pad}{prefix}{opening}{closing}{comma}")
                paths.append(path)
                return
            lines.append(f"{pad}{prefix}{opening}")
            paths.append(path)
            for number, (key, inner) in enumerate(pairs):
                if isinstance(value, Mapping) and not isinstance(key, str):
                    raise TypeError(f"spec: key {key!r} at {path or 'the top'}: keys are text")
                label = json.dumps(key) + ": " if isinstance(value, Mapping) else ""
                emit(value[key], inner, depth + 1, label, "," if number < len(pairs) - 1 else "")
            lines.append(f"{pad}{closing}{comma}")
            paths.append(path)
            return
        if isinstance(value, type):
            value = _policy_name(value)
        elif not (value is None or isinstance(value, (str, bool, int, float))):
            raise TypeError(
                f"spec: {path}: {type(value).__name__} is not a spec value (text, a number, a "
                "boolean, a list, a dict, or a policy class)"
            )
        lines.append(f"{pad}{prefix}{json.dumps(value)}{comma}")
        paths.append(path)

    emit(spec, "", 0, "", "")
    return "\n".join(lines) + "\n", paths


def _at_key(message: str, spec: Spec) -> str:
    """A dict spec's error with the key path of the line it names (``<dict>:14`` or
    ``<dict>: line 14 column 3`` becomes ``spec key workload.generator.jobs``)."""
    if not isinstance(spec, Mapping):
        return message
    import re

    paths = _dict_text(spec)[1]

    def name(match: "re.Match[str]") -> str:
        line = int(match.group(1) or match.group(2))
        if 1 <= line <= len(paths) and paths[line - 1]:
            return f"spec key {paths[line - 1]}"
        return match.group(0)

    return re.sub(r"<dict>(?::(\d+)|: line (\d+) column \d+)", name, message)


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
    spec: Any = None
    """The spec the results came from (what ``jobs`` replays)."""
    frame: str = "pandas"
    """The DataFrame kind of the tables."""

    def jobs(
        self,
        policy: Optional[Any] = None,
        seed: Optional[int] = None,
        point: Optional[Mapping[str, float]] = None,
    ) -> Any:
        """Every job of every run (or of the runs whose ``policy``, ``seed`` and ``point``
        match), one row per job and run: ``policy``, ``seed``, each sweep axis, then the columns
        of ``Run.jobs``. The store keeps no per-job records, so each run is simulated again in
        memory; a run is a pure function of its spec, data and seed, so these are the jobs of
        the stored runs, at the cost of running them once more."""
        import pyarrow
        import pyarrow.csv

        wanted = None if policy is None else _policy_name(policy)
        keys = pyarrow.csv.read_csv(self.dir / "runs.csv").column("key").to_pylist()
        pieces = []
        for key in keys:
            fields = dict(part.split("=", 1) for part in _split_key(key))
            run_policy, run_seed = fields.pop("policy"), int(fields.pop("seed"))
            run_point = {axis: float(value) for axis, value in fields.items()}
            if wanted is not None and run_policy != wanted and run_policy.split("[")[0] != wanted:
                continue
            if seed is not None and run_seed != seed:
                continue
            if point is not None and any(run_point.get(axis) != float(value) for axis, value in point.items()):
                continue
            table = simulate(self.spec, run_policy, run_seed, run_point or None, frame="arrow").jobs
            columns = {"policy": pyarrow.array([run_policy] * table.num_rows, pyarrow.string())}
            columns["seed"] = pyarrow.array([run_seed] * table.num_rows, pyarrow.uint64())
            for axis, value in run_point.items():
                columns[axis] = pyarrow.array([value] * table.num_rows, pyarrow.float64())
            for name in table.column_names:
                columns[name] = table.column(name)
            pieces.append(pyarrow.table(columns))
        if not pieces:
            raise ValueError(f"no run of {self.dir.name} matches policy={wanted!r}, seed={seed!r}, point={point!r}")
        return _frame(pyarrow.concat_tables(pieces), self.frame)


def _split_key(key: str) -> List[str]:
    """A run key's ``name=value`` parts (``policy=las[quantum=60];seed=0``: separators inside
    brackets belong to the policy's parameters)."""
    parts, depth, current = [], 0, ""
    for character in key:
        depth += {"[": 1, "]": -1}.get(character, 0)
        if character == ";" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += character
    parts.append(current)
    return parts


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
    try:
        answer = json.loads(_native.run(text, path, os.fspath(results), threads, force, progress))
    except SchedlabError as error:
        raise SchedlabError(_at_key(str(error), spec)) from None
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
        spec=spec,
        frame=frame,
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
    """Every job of the run, one row each: ``job`` (its id), ``name`` (its id in the source
    trace, if any), ``job_type``, ``gpus``, ``gpu_type`` (the type it held the most
    GPU-seconds on; null if it never ran), ``arrival_s``, ``first_start_s``, ``finish_s``,
    ``jct_s``, ``queueing_delay_s`` (null while not started or finished), ``waiting_time_s``,
    ``run_time_s`` (seconds), ``restarts``, ``reconfigurations``, and ``measured`` (whether the
    spec's measurement window counts it, as ``metrics`` do)."""
    busy: Any
    """Busy GPUs over time: ``hours`` and ``gpus``."""
    wall_time_s: float
    """Seconds the run took."""


def _policy_name(policy: Any) -> str:
    """A policy as a spec names it: a name as given, a class as ``py:module:Class``."""
    if isinstance(policy, str):
        return policy
    if isinstance(policy, type):
        if policy.__module__ == "__main__" or "<locals>" in policy.__qualname__:
            raise TypeError(
                f"policy={policy.__name__}: schedlab imports a policy class by its module, and "
                f"{policy.__qualname__} is defined in {policy.__module__!r}: move it to an "
                "importable module (a .py file on the path)"
            )
        return f"py:{policy.__module__}:{policy.__qualname__}"
    raise TypeError(
        f"policy: expected a policy name or a policy class, got an instance of "
        f"{type(policy).__name__}: schedlab builds a fresh policy for each run, so pass the class, "
        "with parameters as 'py:module:Class[key=value]'"
    )


def simulate(
    spec: Spec,
    policy: Optional[Any] = None,
    seed: Optional[int] = None,
    point: Optional[Mapping[str, float]] = None,
    check: bool = False,
    frame: str = "pandas",
) -> Run:
    """Runs one run of ``spec`` in memory (nothing is written): the run of ``policy`` (a name,
    or a policy class), ``seed`` and sweep ``point``; together with the spec's lists they must
    leave exactly one. A policy, seed or sweep value the spec does not list is run as if it
    did (the same jobs as the spec's runs at that seed and point). ``check`` verifies every
    engine invariant at every decision (slower).
    """
    import pyarrow

    text, path = _source(spec)
    name = None if policy is None else _policy_name(policy)
    pairs = None if point is None else [(str(axis), float(value)) for axis, value in point.items()]
    try:
        outcome = json.loads(_native.simulate(text, path, name, seed, pairs, check))
    except SchedlabError as error:
        raise SchedlabError(_at_key(str(error), spec)) from None
    records = outcome["jobs"]
    columns = {
        "job": pyarrow.uint32(),
        "name": pyarrow.string(),
        "job_type": pyarrow.string(),
        "gpus": pyarrow.uint32(),
        "gpu_type": pyarrow.string(),
        "arrival_s": pyarrow.float64(),
        "first_start_s": pyarrow.float64(),
        "finish_s": pyarrow.float64(),
        "jct_s": pyarrow.float64(),
        "queueing_delay_s": pyarrow.float64(),
        "waiting_time_s": pyarrow.float64(),
        "run_time_s": pyarrow.float64(),
        "restarts": pyarrow.uint32(),
        "reconfigurations": pyarrow.uint32(),
        "measured": pyarrow.bool_(),
    }
    jobs = pyarrow.table(
        {column: pyarrow.array([record[column] for record in records], kind) for column, kind in columns.items()}
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

"""Types of schedlab's Rust module, for editors and type checkers."""

from typing import Iterator, List, Optional, Sequence, Tuple, final, overload

__all__ = [
    "Allocation",
    "Cluster",
    "Context",
    "Decision",
    "Dl2Episodes",
    "Job",
    "Jobs",
    "RlTuneEpisodes",
    "RunInfo",
    "SchedlabError",
    "__version__",
    "data_dir",
    "policies",
    "run",
    "simulate",
]

__version__: str

class SchedlabError(Exception): ...

@final
class Allocation:
    def __new__(cls, parts: Sequence[Tuple[int, int]]) -> "Allocation": ...
    @property
    def parts(self) -> List[Tuple[int, int]]: ...
    @property
    def gpus(self) -> int: ...

@final
class Job:
    @property
    def id(self) -> int: ...
    @property
    def arrival(self) -> float: ...
    @property
    def gpus(self) -> int: ...
    @property
    def job_type(self) -> str: ...
    @property
    def weight(self) -> float: ...
    @property
    def user(self) -> Optional[str]: ...
    @property
    def vc(self) -> Optional[str]: ...
    @property
    def pool(self) -> Optional[str]: ...
    @property
    def state(self) -> str: ...
    @property
    def is_running(self) -> bool: ...
    @property
    def allocation(self) -> Optional[Allocation]: ...
    @property
    def restarts(self) -> int: ...
    @property
    def run_seconds(self) -> float: ...
    @property
    def attained_service(self) -> float: ...
    @property
    def declared_work(self) -> Optional[float]: ...
    @property
    def remaining_time(self) -> Optional[float]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Jobs(Sequence[Job]):
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int, /) -> Job: ...
    @overload
    def __getitem__(self, index: slice, /) -> Jobs: ...
    def __iter__(self) -> Iterator[Job]: ...

@final
class Cluster:
    @property
    def total_free(self) -> int: ...
    @property
    def total_gpus(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def gpu_types(self) -> List[str]: ...
    def free(self, node: int) -> int: ...
    def node_type(self, node: int) -> str: ...
    def place(self, job: Job, placement: str = "consolidated", same_type: bool = True) -> Optional[Allocation]: ...
    def take(self, allocation: Allocation, job: Job) -> None: ...
    def copy(self) -> "Cluster": ...

@final
class Context:
    now: float
    tick: bool
    arrived: List[int]
    finished: List[int]
    rate_changed: List[int]
    cluster: Cluster
    queued: Jobs
    running: Jobs

@final
class Decision:
    start: List[Tuple[int, Allocation]]
    preempt: List[int]
    next_tick: Optional[float]
    def __new__(
        cls,
        start: Sequence[Tuple[int, Allocation]] = ...,
        preempt: Sequence[int] = ...,
        next_tick: Optional[float] = None,
    ) -> "Decision": ...

@final
class RunInfo:
    seed: int
    gpu_types: List[str]
    total_gpus: int
    nodes: int

@final
class RlTuneEpisodes:
    def __new__(
        cls,
        text: Optional[str],
        path: Optional[str],
        objective: str = "bsld",
        window: int = 256,
        max_start: Optional[int] = None,
        invalid_action: str = "fcfs",
        relative: bool = True,
        env: Optional[str] = None,
    ) -> "RlTuneEpisodes": ...
    @property
    def last_start(self) -> int: ...
    @property
    def jobs(self) -> int: ...
    def reset(self, start: int, seed: int) -> Tuple[bytes, bytes, float, Tuple[float, int, int, int]]: ...
    def step(
        self, action: int
    ) -> Tuple[
        Optional[bytes], Optional[bytes], float, bool, Optional[float], Optional[Tuple[float, int, int, int]]
    ]: ...

@final
class Dl2Episodes:
    def __new__(cls, text: Optional[str], path: Optional[str], invalid_action: str = "skip") -> "Dl2Episodes": ...
    def reset(self, workload_seed: int, seed: int) -> Tuple[bytes, bytes, Tuple[int, float, int, int, int]]: ...
    def step(
        self, action: int
    ) -> Tuple[
        Optional[bytes], Optional[bytes], float, bool, Optional[float], Optional[Tuple[int, float, int, int, int]]
    ]: ...

def run(
    text: Optional[str],
    path: Optional[str],
    results: str,
    threads: int = 0,
    force: bool = False,
    progress: bool = True,
) -> str: ...
def simulate(
    text: Optional[str],
    path: Optional[str],
    policy: Optional[str] = None,
    seed: Optional[int] = None,
    point: Optional[Sequence[Tuple[str, float]]] = None,
    check: bool = False,
) -> str: ...
def policies() -> str: ...
def data_dir() -> Optional[str]: ...

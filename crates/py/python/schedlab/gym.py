"""Gymnasium environments on schedlab's Rust engine: RLTune's job ordering (``RLTuneEnv``) and
DL2's slot-wise allocation (``DL2Env``, below).

An episode is a window of ``window`` consecutive jobs of a spec's workload (its first run's
trace or generator, cluster and perf model), replayed from time 0 by RLTune's scheduling loop
(``crates/policies/rltune``): whenever the cluster may start a job, the agent picks one of the
first 128 waiting jobs in arrival order; a job that cannot be placed yet is waited for (no
backfilling); once placed, the agent picks again at the same instant.

- Observation: ``float32`` array of shape (128, 7), RLTune's features per queue slot (empty
  slots hold the authors' filler values), in [0, 1] but the last ("can start now"), in [0, 1.5].
- Action: ``Discrete(128)``, a queue slot. ``info["action_mask"]`` and ``action_masks()`` say
  which slots hold a job. An empty slot starts the earliest waiting job (``invalid_action="fcfs"``,
  the default), starts nothing until the next event (``"skip"``, the authors' ``skip_schedule``),
  or raises (``"error"``).
- ``info`` at every step: ``clock_s`` (the simulated clock), ``queued`` (jobs waiting, all of
  them), ``running`` (jobs running, those started earlier at the same instant included),
  ``free_gpus``, and ``action_mask``; at ``reset`` also ``window_start`` and ``base_score``
  (FCFS's score on the window); at the end ``score`` instead of the moment.
- Reward: 0 until the episode ends, then the authors' ``(base - rl) / max(base, rl, 1)`` on the
  episode's score for ``objective`` (``bsld``: mean bounded slowdown, ``wait``: mean waiting
  time, ``turnaround``: mean JCT, ``utilization``: minus the utilisation), where ``base`` is
  FCFS's score on the same window; with ``relative=False``, minus the score itself.

``reset(seed=...)`` is reproducible: the window's start and the run's seed are drawn from the
environment's generator, which the seed resets. Starts are drawn from ``0..=max_start``; by
default the windows lie in the first 10,000 jobs, the part RLTune's trainer trains on (the
authors' ``--batch_job_slice``), so the rest stays held out; a larger ``max_start`` (up to the
workload's jobs minus ``window``) asks for later windows.

Both environments take only actions their ``action_space`` contains (Gymnasium's rule: a Python
or NumPy integer, or a 0-d integer array, from 0 to n - 1): anything else (``-1``, ``128``,
``3.7``, ``True``) raises ``ValueError``, whatever ``invalid_action`` says (that setting is about
valid indices the state does not allow).

Both can be copied (``copy.deepcopy``, ``pickle``), as search-based agents and vectorised
wrappers need: the engine runs an episode on a thread of its own, with no state to copy, so a
copy rebuilds the environment from its arguments, starts the same episode and replays the
actions taken since ``reset`` (the cost of a copy grows with them); its random generator is
copied too, so the copy and the original go on alike.

Importing ``schedlab.gym`` registers them with Gymnasium as ``schedlab/RLTune-v0`` and
``schedlab/DL2-v0``; ``gymnasium.make("schedlab.gym:schedlab/RLTune-v0", spec=...)`` imports it
first. ``gymnasium.make`` wraps the environment, and Gymnasium's wrappers do not pass on other
methods: call ``env.get_wrapper_attr("action_masks")()`` (what stable-baselines3's vectorised
environments call) or ``env.unwrapped.action_masks()``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from . import SchedlabError, _at_key, _native, _source

QUEUE_SLOTS = 128
JOB_FEATURES = 7


def _index(action: Any, space: spaces.Discrete) -> int:
    """``action`` as an index, when ``space`` contains it; else ``ValueError`` naming it."""
    # Gymnasium's Discrete takes a bool for an int; an action that is True is a mistake.
    if isinstance(action, (bool, np.bool_)) or not space.contains(action):
        raise ValueError(
            f"action {action!r} ({type(action).__name__}): expected an integer from 0 to "
            f"{int(space.n) - 1} (a Python or NumPy integer, or a 0-d integer array)"
        )
    return int(action)


class _Replayed:
    """Copying by replay (see the module documentation): what a subclass records is its
    constructor's arguments (``_arguments``), the episode it started (``_episode``, the native
    ``reset``'s arguments, or None) and the actions since (``_actions``)."""

    _arguments: Tuple[Any, ...]
    _episode: Optional[Tuple[int, int]]
    _actions: List[int]
    _np_random: Optional[np.random.Generator]

    def __getstate__(self) -> Dict[str, Any]:
        return {
            "arguments": self._arguments,
            "episode": self._episode,
            "actions": list(self._actions),
            "np_random": self._np_random,
        }

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__init__(*state["arguments"])  # type: ignore[misc]
        self._np_random = state["np_random"]
        if state["episode"] is not None:
            self._start(*state["episode"])
            for action in state["actions"]:
                cast(gymnasium.Env, self).step(action)

    def _start(self, first: int, second: int) -> Tuple[np.ndarray, Dict[str, Any]]:
        raise NotImplementedError


class RLTuneEnv(_Replayed, gymnasium.Env):
    """RLTune's job ordering on a spec's workload; see the module documentation."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        spec: Any,
        objective: str = "bsld",
        window: int = 256,
        max_start: Optional[int] = None,
        invalid_action: str = "fcfs",
        relative: bool = True,
        env: Optional[str] = None,
    ):
        self._arguments = (spec, objective, window, max_start, invalid_action, relative, env)
        self._episode: Optional[Tuple[int, int]] = None
        self._actions: List[int] = []
        text, path = _source(spec)
        try:
            self._episodes = _native.RlTuneEpisodes(
                text, path, objective, window, max_start, invalid_action, relative, env
            )
        except SchedlabError as error:
            raise SchedlabError(_at_key(str(error), spec)) from None
        # Every feature lies in [0, 1] but the last, "can start now", which is 1.5 (x 0.99999)
        # when the job has two ways or more to start.
        high = np.ones((QUEUE_SLOTS, JOB_FEATURES), dtype=np.float32)
        high[:, -1] = 1.5
        self.observation_space = spaces.Box(np.zeros_like(high), high, dtype=np.float32)
        self._action_space = spaces.Discrete(QUEUE_SLOTS)
        self.action_space = self._action_space
        self._mask = np.zeros(QUEUE_SLOTS, dtype=bool)
        self._info: Dict[str, Any] = {}

    @staticmethod
    def _observation(features: bytes) -> np.ndarray:
        # Copies, so that agents get writable arrays (torch warns on read-only ones).
        return np.frombuffer(features, dtype="<f4").reshape(QUEUE_SLOTS, JOB_FEATURES).copy()

    @staticmethod
    def _mask_of(mask: bytes) -> np.ndarray:
        return np.frombuffer(mask, dtype=np.bool_).copy()

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts an episode. ``options={"start": J}`` fixes the window's first job."""
        super().reset(seed=seed)
        start = (options or {}).get("start")
        if start is None:
            start = int(self.np_random.integers(0, self._episodes.last_start + 1))
        run_seed = int(self.np_random.integers(0, 2**63))
        return self._start(int(start), run_seed)

    def _start(self, start: int, run_seed: int) -> Tuple[np.ndarray, Dict[str, Any]]:
        features, mask, base, moment = self._episodes.reset(start, run_seed)
        self._episode, self._actions = (start, run_seed), []
        self._mask = self._mask_of(mask)
        self._info = {"window_start": start, "base_score": base}
        return self._observation(features), {**self._info, **_rltune_moment(moment), "action_mask": self._mask}

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        index = _index(action, self._action_space)
        features, mask, reward, terminated, score, moment = self._episodes.step(index)
        self._actions.append(index)
        if terminated:
            self._mask = np.zeros(QUEUE_SLOTS, dtype=bool)
            observation = np.zeros((QUEUE_SLOTS, JOB_FEATURES), dtype=np.float32)
            info = {**self._info, "score": score, "action_mask": self._mask}
        else:
            assert features is not None and mask is not None and moment is not None
            self._mask = self._mask_of(mask)
            observation = self._observation(features)
            info = {**_rltune_moment(moment), "action_mask": self._mask}
        return observation, float(reward), bool(terminated), False, info

    def action_masks(self) -> np.ndarray:
        """The slots that hold a job (for action-masking agents such as sb3-contrib's MaskablePPO)."""
        return self._mask

    @property
    def jobs(self) -> int:
        """The workload's jobs (a window ``start`` may be up to ``jobs - window``, given a
        ``max_start`` that large)."""
        return self._episodes.jobs

    @property
    def last_start(self) -> int:
        """The last job a drawn window starts at (``max_start``, or the training range's last)."""
        return self._episodes.last_start


DL2_FEATURES = 6
DL2_WINDOW = 40
DL2_ACTIONS = 3 * DL2_WINDOW + 1
DL2_SKIP = DL2_ACTIONS - 1


class DL2Env(_Replayed, gymnasium.Env):
    """DL2's slot-wise allocation on a spec's workload (``crates/policies/dl2``).

    An episode is a run of the spec's workload, drawn anew per episode (a generator's draw from
    the episode's workload seed), through DL2's slot loop: at every slot boundary (20 minutes)
    every allocation is rebuilt, each job first gets one bundle (a worker and a parameter
    server), and then each action adds a worker, a server or a bundle to one of the first 40
    jobs that may still grow, until the agent skips or a task does not fit.

    - Observation: ``float32`` (6, 40), DL2's state, one column per job, rows: model type (1-8),
      slots waited, remaining fraction of its epochs, dominant share, workers, servers.
    - Action: ``Discrete(121)``: ``3 c`` a worker, ``3 c + 1`` a server, ``3 c + 2`` a bundle for
      column ``c``, 120 skip (end the slot). ``info["action_mask"]`` and ``action_masks()`` say
      which are allowed; a disallowed action ends the slot (``invalid_action="skip"``) or raises
      (``"error"``).
    - Reward (``reward="slot"``, DL2's): the slot reward, the epochs each job made in the slot
      over its declared epochs, summed; a slot's reward is known at the next slot boundary, so it
      comes with the first step of the next slot (the last slot's with the final step). Every job
      makes all of its epochs, so an episode's return is the number of jobs whatever the policy
      does; DL2 learns from its discounted, per-slot shape. ``reward="jct"``: 0 at every step
      but the last, which gets minus the episode's average JCT in hours, so the return is the
      objective itself (sparse, but it tells policies apart in ``ep_rew_mean``).
      ``info["avg_jct_hours"]`` at the end either way.
    - ``info`` at every step: ``slot`` (its index), ``clock_s`` (the slot's start), ``jobs``
      (uncompleted), ``workers`` and ``servers`` (placed in the slot so far), ``action_mask``;
      ``workload_seed`` at ``reset``.
    """

    metadata = {"render_modes": []}

    def __init__(self, spec: Any, invalid_action: str = "skip", reward: str = "slot"):
        if reward not in ("slot", "jct"):
            raise ValueError(
                f"reward must be 'slot' (DL2's slot reward) or 'jct' (minus the average JCT at the end), "
                f"got {reward!r}"
            )
        self._reward = reward
        self._arguments = (spec, invalid_action, reward)
        self._episode: Optional[Tuple[int, int]] = None
        self._actions: List[int] = []
        text, path = _source(spec)
        try:
            self._episodes = _native.Dl2Episodes(text, path, invalid_action)
        except SchedlabError as error:
            raise SchedlabError(_at_key(str(error), spec)) from None
        high = np.full((DL2_FEATURES, DL2_WINDOW), np.inf, dtype=np.float32)
        high[0, :] = 8.0  # model type
        high[2, :] = 1.0  # remaining fraction
        high[3, :] = 1.0  # dominant share (its tasks fit in the cluster)
        # Slots waited has no bound; workers and servers are bounded by the cluster's GPUs.
        self.observation_space = spaces.Box(np.zeros_like(high), high, dtype=np.float32)
        self._action_space = spaces.Discrete(DL2_ACTIONS)
        self.action_space = self._action_space
        self._mask = np.zeros(DL2_ACTIONS, dtype=bool)

    @staticmethod
    def _observation(state: bytes) -> np.ndarray:
        return np.frombuffer(state, dtype="<f4").reshape(DL2_FEATURES, DL2_WINDOW).copy()

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts an episode. ``options={"workload_seed": K}`` fixes the workload's draw."""
        super().reset(seed=seed)
        workload_seed = (options or {}).get("workload_seed")
        if workload_seed is None:
            workload_seed = int(self.np_random.integers(0, 2**63))
        run_seed = int(self.np_random.integers(0, 2**63))
        return self._start(int(workload_seed), run_seed)

    def _start(self, workload_seed: int, run_seed: int) -> Tuple[np.ndarray, Dict[str, Any]]:
        state, mask, moment = self._episodes.reset(workload_seed, run_seed)
        self._episode, self._actions = (workload_seed, run_seed), []
        self._mask = np.frombuffer(mask, dtype=np.bool_).copy()
        self._workload_seed = workload_seed
        info = {"workload_seed": self._workload_seed, **_dl2_moment(moment), "action_mask": self._mask}
        return self._observation(state), info

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        index = _index(action, self._action_space)
        state, mask, reward, terminated, jct, moment = self._episodes.step(index)
        self._actions.append(index)
        if terminated:
            self._mask = np.zeros(DL2_ACTIONS, dtype=bool)
            observation = np.zeros((DL2_FEATURES, DL2_WINDOW), dtype=np.float32)
            info = {"workload_seed": self._workload_seed, "avg_jct_hours": jct, "action_mask": self._mask}
            if self._reward == "jct":
                assert jct is not None, "the final step carries the episode's average JCT"
                reward = -jct
        else:
            if self._reward == "jct":
                reward = 0.0
            assert state is not None and mask is not None and moment is not None
            self._mask = np.frombuffer(mask, dtype=np.bool_).copy()
            observation = self._observation(state)
            info = {**_dl2_moment(moment), "action_mask": self._mask}
        return observation, float(reward), bool(terminated), False, info

    def action_masks(self) -> np.ndarray:
        """The actions allowed now (skip always is)."""
        return self._mask


def _rltune_moment(moment: Tuple[float, int, int, int]) -> Dict[str, Any]:
    clock_s, queued, running, free_gpus = moment
    return {"clock_s": clock_s, "queued": queued, "running": running, "free_gpus": free_gpus}


def _dl2_moment(moment: Tuple[int, float, int, int, int]) -> Dict[str, Any]:
    slot, clock_s, jobs, workers, servers = moment
    return {"slot": slot, "clock_s": clock_s, "jobs": jobs, "workers": workers, "servers": servers}


def _register() -> None:
    """Registers both environments with Gymnasium (once; importing twice is harmless)."""
    for name, entry_point in (
        ("schedlab/RLTune-v0", "schedlab.gym:RLTuneEnv"),
        ("schedlab/DL2-v0", "schedlab.gym:DL2Env"),
    ):
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=entry_point)


_register()

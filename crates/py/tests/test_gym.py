"""The Gymnasium environment: the checker, reproducible resets, FCFS as a baseline, errors."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import schedlab
from schedlab.gym import DL2Env, RLTuneEnv

PHILLY_TRAIN = "crates/policies/rltune/weights/philly-train.yaml"


@pytest.fixture(scope="module")
def env(data):
    return RLTuneEnv(PHILLY_TRAIN, window=64, max_start=10_000)


def play(env, seed, choose, options=None):
    """One episode: observations, rewards and the final info."""
    observation, info = env.reset(seed=seed, options=options)
    observations, rewards = [observation.copy()], []
    while True:
        observation, reward, terminated, truncated, info = env.step(choose(info["action_mask"]))
        observations.append(observation.copy())
        rewards.append(reward)
        if terminated or truncated:
            return observations, rewards, info


def test_the_environment_passes_gymnasiums_checker(env):
    check_env(env, skip_render_check=True)


def test_reset_with_a_seed_is_reproducible(env):
    def random_choice(seed):
        rng = np.random.default_rng(seed)
        return lambda mask: int(rng.choice(np.flatnonzero(mask)))

    first = play(env, 7, random_choice(1))
    second = play(env, 7, random_choice(1))
    assert first[2]["window_start"] == second[2]["window_start"]
    assert first[1] == second[1] and first[2]["score"] == second[2]["score"]
    assert all(np.array_equal(a, b) for a, b in zip(first[0], second[0]))
    other = env.reset(seed=8)[1]["window_start"]
    assert other != first[2]["window_start"]


def test_always_the_first_slot_is_fcfs_and_earns_nothing(env):
    # The first slot holds the earliest waiting job: FCFS's choice, so the agent's score is the
    # baseline's and the authors' relative reward is exactly 0.
    observations, rewards, info = play(env, 3, lambda mask: 0, options={"start": 4_000})
    assert info["score"] == info["base_score"] and rewards[-1] == 0.0
    assert all(reward == 0.0 for reward in rewards)
    # Masked-out slots map to slot 0 by default: the same episode.
    _, same, same_info = play(env, 3, lambda mask: 127 if not mask[127] else 0, options={"start": 4_000})
    assert same_info["score"] == info["score"]


def test_the_reward_is_relative_to_fcfs_or_the_score_itself(data):
    relative = RLTuneEnv(PHILLY_TRAIN, window=64, max_start=10_000)
    absolute = RLTuneEnv(PHILLY_TRAIN, window=64, max_start=10_000, relative=False)
    last = lambda mask: int(np.flatnonzero(mask)[-1])  # the latest arrival first
    _, rewards, info = play(relative, 5, last, options={"start": 6_000})
    _, absolute_rewards, absolute_info = play(absolute, 5, last, options={"start": 6_000})
    base, score = info["base_score"], info["score"]
    assert rewards[-1] == pytest.approx((base - score) / max(base, score, 1.0))
    assert absolute_rewards[-1] == pytest.approx(-absolute_info["score"]) and absolute_info["score"] == score


def test_invalid_actions_and_settings_say_what_is_expected(data):
    strict = RLTuneEnv(PHILLY_TRAIN, window=16, max_start=10_000, invalid_action="error")
    _, info = strict.reset(seed=0)
    empty = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(ValueError, match=f"action {empty}: slot {empty} holds no job"):
        strict.step(empty)
    with pytest.raises(ValueError, match="objective: expected one of bsld, wait, turnaround, utilization"):
        RLTuneEnv(PHILLY_TRAIN, objective="speed")
    with pytest.raises(ValueError, match="invalid_action 'random'"):
        RLTuneEnv(PHILLY_TRAIN, invalid_action="random")
    with pytest.raises(schedlab.SchedlabError, match="episodes of 100000 jobs need at least that many"):
        RLTuneEnv(PHILLY_TRAIN, window=100_000)
    with pytest.raises(schedlab.SchedlabError, match="step before reset"):
        RLTuneEnv(PHILLY_TRAIN, window=16).step(0)


def test_an_abandoned_episode_leaves_no_thread_behind(env):
    import os

    def threads():
        return len(os.listdir("/proc/self/task"))

    env.reset(seed=0)
    during = threads()  # the episode's thread runs beside this one
    for seed in range(1, 6):
        env.reset(seed=seed)
        env.step(0)
    assert threads() == during
    play(env, 11, lambda mask: 0)  # ends its episode: its thread is joined
    assert threads() == during - 1


def test_dl2s_environment_passes_the_checker_and_hands_over_every_slot_reward():
    from schedlab.gym import DL2Env

    env = DL2Env("experiments/dl2.yaml")
    check_env(env, skip_render_check=True)
    # Every job makes all of its declared epochs, and a slot's reward is the epochs its jobs made
    # over their declared epochs: over a whole episode the rewards add up to the number of jobs.
    rng = np.random.default_rng(0)
    observation, info = env.reset(seed=1)
    total, steps = 0.0, 0
    while True:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        observation, reward, terminated, _, info = env.step(action)
        total += reward
        steps += 1
        if terminated:
            break
    assert total == pytest.approx(200.0)
    assert info["avg_jct_hours"] > 0 and steps > 200
    # Skipping at once is DL2's one-bundle-per-job allocation; the same seed gives the same run.
    skip = lambda mask: 120
    first = play(env, 4, skip)[2]["avg_jct_hours"]
    assert play(env, 4, skip)[2]["avg_jct_hours"] == first
    strict = DL2Env("experiments/dl2.yaml", invalid_action="error")
    _, info = strict.reset(seed=0)
    forbidden = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(ValueError, match=f"action {forbidden}: not allowed now"):
        strict.step(forbidden)


def test_dl2s_jct_reward_returns_minus_the_average_jct_and_tells_policies_apart():
    env = DL2Env("experiments/dl2.yaml", reward="jct")
    returns = {}
    for name, choose in (("skip", lambda mask: 120), ("first", lambda mask: int(np.flatnonzero(mask)[0]))):
        _, rewards, info = play(env, 5, choose, options={"workload_seed": 7})
        assert all(reward == 0.0 for reward in rewards[:-1])
        assert rewards[-1] == -info["avg_jct_hours"]
        returns[name] = sum(rewards)
    # DL2's slot reward adds up to the number of jobs for both; this one does not.
    assert returns["skip"] != returns["first"]
    with pytest.raises(ValueError, match="reward must be 'slot'"):
        DL2Env("experiments/dl2.yaml", reward="epochs")


def test_actions_outside_the_action_space_are_refused_in_every_mode(env):
    env.reset(seed=0)
    for wrong in (-1, 128, 3.7, "3", True, np.array([1, 2]), np.float32(2.0)):
        with pytest.raises(ValueError, match="expected an integer from 0 to 127"):
            env.step(wrong)
    # What agents pass: Python and NumPy integers, and 0-d integer arrays.
    for right in (0, np.int64(0), np.array(0)):
        env.step(right)


def test_the_environments_are_registered_with_gymnasium(data):
    import gymnasium

    env = gymnasium.make("schedlab/RLTune-v0", spec=PHILLY_TRAIN, window=16, max_start=10_000)
    _, info = env.reset(seed=0)
    # gymnasium.make wraps it; the mask is reached as stable-baselines3 reaches it.
    assert (env.get_wrapper_attr("action_masks")() == info["action_mask"]).all()
    assert env.unwrapped.__class__ is RLTuneEnv
    assert gymnasium.spec("schedlab/DL2-v0").entry_point == "schedlab.gym:DL2Env"


def test_the_package_has_a_version():
    assert schedlab.__version__ == "0.1.0"


def test_a_step_after_the_episode_ended_says_so(env):
    play(env, 3, lambda mask: 0)
    with pytest.raises(schedlab.SchedlabError, match=r"step after the episode ended \(terminated\): call reset\(\)"):
        env.step(0)
    env.reset(seed=3)
    env.step(0)


def test_by_default_windows_leave_the_held_out_part_alone(data):
    env = RLTuneEnv(PHILLY_TRAIN, window=256)
    assert env._episodes.last_start == 10_000 - 256
    starts = [env.reset(seed=seed)[1]["window_start"] for seed in range(50)]
    assert max(starts) + 256 <= 10_000
    # Later windows when asked for.
    assert RLTuneEnv(PHILLY_TRAIN, window=256, max_start=20_000)._episodes.last_start == 20_000


def test_copies_go_on_as_the_original_does(data):
    import copy
    import pickle

    first = lambda mask: int(np.flatnonzero(mask)[0])
    last = lambda mask: int(np.flatnonzero(mask)[-1])
    env = RLTuneEnv(PHILLY_TRAIN, window=32)
    fresh = copy.deepcopy(env)  # before any reset
    _, info = env.reset(seed=4)
    for _ in range(5):
        _, _, _, _, info = env.step(last(info["action_mask"]))
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        mine, theirs = env, twin
        mine_info = theirs_info = info
        # Both go on with the same choices and give the same observations and rewards...
        for _ in range(8):
            a = mine.step(first(mine_info["action_mask"]))
            b = theirs.step(first(theirs_info["action_mask"]))
            assert (a[0] == b[0]).all() and a[1:4] == b[1:4]
            mine_info, theirs_info = a[4], b[4]
            if a[2]:
                break
        # ...and their generators draw the same next windows.
        assert mine.reset()[1]["window_start"] == theirs.reset()[1]["window_start"]
        env.reset(seed=4)
        for _ in range(5):
            _, _, _, _, info = env.step(last(info["action_mask"]))
    assert fresh.reset(seed=4)[1]["window_start"] == RLTuneEnv(PHILLY_TRAIN, window=32).reset(seed=4)[1]["window_start"]


def test_dl2s_environment_copies_too():
    import copy

    env = DL2Env("experiments/dl2.yaml")
    _, info = env.reset(seed=2)
    for _ in range(30):
        _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    twin = copy.deepcopy(env)
    for _ in range(40):
        a = env.step(120)
        b = twin.step(120)
        assert (a[0] == b[0]).all() and a[1:4] == b[1:4]
        if a[2]:
            assert a[4]["avg_jct_hours"] == b[4]["avg_jct_hours"]
            break


def test_every_step_says_where_the_run_stands(data):
    env = RLTuneEnv(PHILLY_TRAIN, window=64, max_start=10_000)
    observation, info = env.reset(seed=3, options={"start": 4_000})
    moments = [info]
    while True:
        observation, _, terminated, _, info = env.step(0)
        if terminated:
            break
        moments.append(info)
    clocks = [moment["clock_s"] for moment in moments]
    assert clocks == sorted(clocks) and clocks[-1] > clocks[0] >= 0
    # Every choice has a job to choose, and the slots shown are the first 128 of the queue.
    for moment in moments:
        assert moment["queued"] >= 1 and moment["action_mask"].sum() == min(moment["queued"], 128)
        assert 0 <= moment["free_gpus"] <= 192 and moment["running"] >= 0
    # The run is full at some point: jobs wait, others run.
    assert any(moment["queued"] > 1 and moment["running"] > 0 for moment in moments)

    dl2 = DL2Env("experiments/dl2.yaml")
    _, info = dl2.reset(seed=1)
    slots = [info]
    while True:
        _, _, terminated, _, info = dl2.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break
        slots.append(info)
    assert [moment["clock_s"] for moment in slots] == [moment["slot"] * 1200.0 for moment in slots]
    assert all(moment["jobs"] >= 1 for moment in slots)
    # Within a slot each allowed action places a task: workers and servers grow until the next slot.
    same_slot = [(a, b) for a, b in zip(slots, slots[1:]) if a["slot"] == b["slot"]]
    assert same_slot and all(b["workers"] + b["servers"] > a["workers"] + a["servers"] for a, b in same_slot)

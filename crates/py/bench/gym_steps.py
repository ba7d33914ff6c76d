"""Steps per second of schedlab.gym's environments (the goal: at least 20,000 on one core).

    taskset -c 0 python crates/py/bench/gym_steps.py [SPEC] [--seconds 10] [--env rltune|dl2]

A random agent over the allowed actions, resets included: for RLTune episodes of 256 jobs (each
reset also runs FCFS on the window for the reward's baseline), for DL2 runs of the spec's
workload (default experiments/dl2.yaml). Prints steps/s, episodes and the median of three timed
blocks.
"""

import argparse
import statistics
import time

import numpy as np

from schedlab.gym import DL2Env, RLTuneEnv


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spec", nargs="?", help="default: RLTune's Philly training spec, or experiments/dl2.yaml")
    parser.add_argument("--env", choices=["rltune", "dl2"], default="rltune")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each of the three timed blocks")
    parser.add_argument("--window", type=int, default=256)
    args = parser.parse_args()
    if args.env == "rltune":
        env = RLTuneEnv(args.spec or "crates/policies/rltune/weights/philly-train.yaml", window=args.window, max_start=10_000)
    else:
        env = DL2Env(args.spec or "experiments/dl2.yaml")
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    rates = []
    for block in range(3):
        steps = episodes = 0
        started = time.perf_counter()
        while time.perf_counter() - started < args.seconds:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, _, terminated, _, _ = env.step(action)
            steps += 1
            if terminated:
                episodes += 1
                env.reset()
        elapsed = time.perf_counter() - started
        rates.append(steps / elapsed)
        print(f"block {block}: {steps} steps in {elapsed:.2f} s = {steps / elapsed:,.0f} steps/s ({episodes} episodes)")
    print(f"median: {statistics.median(rates):,.0f} steps/s")


if __name__ == "__main__":
    main()

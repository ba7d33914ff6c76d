"""Trains stable-baselines3's PPO (or sb3-contrib's MaskablePPO, with --masked) on RLTune's
job-ordering environment for a few thousand steps, then compares the trained agent's greedy
episodes with FCFS's on held-out windows.

    pip install "./crates/py[gym]" stable-baselines3 sb3-contrib   # torch comes with them
    python crates/py/examples/train_ppo.py --steps 5000 [--masked]

Not part of CI (torch is gigabytes). Seeded: the same command gives the same numbers on the same
machine and library versions.
"""

import argparse
import time

import numpy as np

from schedlab.gym import RLTuneEnv

SPEC = "crates/policies/rltune/weights/philly-train.yaml"


def evaluate(model, env, starts, masked):
    """Mean relative reward (the authors': positive when the agent beats FCFS) of greedy
    episodes on fixed windows."""
    rewards = []
    for start in starts:
        observation, info = env.reset(seed=0, options={"start": start})
        while True:
            if masked:
                action, _ = model.predict(observation, deterministic=True, action_masks=env.action_masks())
            else:
                action, _ = model.predict(observation, deterministic=True)
            observation, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                rewards.append(reward)
                break
    return float(np.mean(rewards))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--masked", action="store_true", help="sb3-contrib's MaskablePPO, with the action mask")
    parser.add_argument("--window", type=int, default=64, help="jobs per episode (the authors: 256)")
    args = parser.parse_args()
    # Training windows start among the first 10,000 jobs, as the shipped Philly weights' do;
    # evaluation windows after them.
    env = RLTuneEnv(SPEC, window=args.window, max_start=10_000)
    held_out = RLTuneEnv(SPEC, window=args.window)
    starts = [12_000 + 1_500 * k for k in range(8)]
    if args.masked:
        from sb3_contrib import MaskablePPO

        model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=0, verbose=0, device="cpu")
    else:
        from stable_baselines3 import PPO

        model = PPO("MlpPolicy", env, n_steps=512, batch_size=128, seed=0, verbose=0, device="cpu")
    before = evaluate(model, held_out, starts, args.masked)
    started = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    seconds = time.perf_counter() - started
    after = evaluate(model, held_out, starts, args.masked)
    print(f"{type(model).__name__}: {args.steps} steps in {seconds:.1f} s ({args.steps / seconds:.0f} steps/s with learning)")
    print(f"held-out mean reward against FCFS (8 windows of {args.window} jobs): {before:+.4f} untrained, {after:+.4f} trained")


if __name__ == "__main__":
    main()

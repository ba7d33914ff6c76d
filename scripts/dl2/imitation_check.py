#!/usr/bin/env python3
"""Can a dense network of DL2's shape imitate DRF? A check outside schedlab's trainer.

Fits scikit-learn's MLPClassifier (two hidden layers of 160 ReLU units, Adam, batches of 256,
inputs standardised) to DRF's supervised samples, written by
`cargo run --release -p schedlab-dl2-train --example drf_samples -- FILE [--no-shuffle]`,
and prints the accuracy on the held-out second half after each pass, overall and for the
worker and server labels. Not part of CI (it needs numpy and scikit-learn).

Usage: imitation_check.py SAMPLES.bin [--epochs N] [--learning-rate R]
"""

import argparse
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

INPUTS = 240
RECORD = 4 * INPUTS + 4


def load(path):
    raw = np.fromfile(path, dtype=np.uint8)
    if len(raw) % RECORD:
        raise SystemExit(f"{path}: {len(raw)} bytes is not a whole number of {RECORD}-byte samples")
    records = raw.reshape(-1, RECORD)
    states = records[:, : 4 * INPUTS].copy().view("<f4").reshape(-1, INPUTS)
    labels = records[:, 4 * INPUTS :].copy().view("<i4").reshape(-1)
    keep = labels >= 0
    return states[keep], labels[keep]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("samples")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--learning-rate", type=float, default=0.001)
    args = parser.parse_args()
    states, labels = load(args.samples)
    states = states / (states.std(axis=0) + 1e-6)
    half = len(labels) // 2
    task = labels[half:] % 3
    net = MLPClassifier((160, 160), batch_size=256, learning_rate_init=args.learning_rate, max_iter=1,
                        warm_start=True, random_state=0)
    started = time.time()
    print(f"{len(labels)} labelled samples, {half} to fit; accuracy on the rest")
    for epoch in range(1, args.epochs + 1):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            net.fit(states[:half], labels[:half])
        predicted = net.predict(states[half:])
        right = predicted == labels[half:]
        updates = epoch * ((half + 255) // 256)
        print(f"pass {epoch:>2} ({updates:>6} updates): {right.mean():.3f} (worker {right[task == 0].mean():.3f}, "
              f"server {right[task == 1].mean():.3f}) [{time.time() - started:.0f} s]", flush=True)


if __name__ == "__main__":
    main()

"""Wall time of the Python FIFO (schedlab.examples.fifo) against the Rust FIFO on the Philly
spec's workload and cluster at 1x, 2x and 4x load, back to back, one thread each:

    python crates/py/bench/python_fifo.py [--repeats 3]

Checks that both give the same metrics, then prints each one's median time and the ratio.
"""

import argparse
import statistics
import tempfile
import time

import schedlab

RUST, PYTHON = "fifo", "py:schedlab.examples.fifo:Fifo"


def spec(policy):
    return {
        "name": "python-fifo-bench",
        "workload": {
            "trace": {"format": "philly-pollux", "path": "philly/philly-pollux.csv"},
            "transforms": ["dedup", "sort", {"window": {"from": "2017-10-01", "to": "2017-12-01"}}],
            "model": "rigid",
        },
        "cluster": {"philly_vc": {"path": "philly/philly_vc.csv", "gpu_type": "gpu", "partition": "per_vc"}},
        "perf": "rigid",
        "policies": [policy],
        "seeds": [0],
        "sweep": {"scale_rate": [1, 2, 4]},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    times = {RUST: [], PYTHON: []}
    runs = {}
    with tempfile.TemporaryDirectory() as results:
        for _ in range(args.repeats):
            for policy in (RUST, PYTHON):
                started = time.perf_counter()
                result = schedlab.run(spec(policy), results=results, threads=1, force=True, progress=False)
                times[policy].append(time.perf_counter() - started)
                runs[policy] = result.runs.drop(columns=["key", "policy"])
    assert runs[RUST].equals(runs[PYTHON]), "the Python FIFO's metrics differ from the Rust FIFO's"
    rust, python = statistics.median(times[RUST]), statistics.median(times[PYTHON])
    print(f"Rust FIFO   {rust:.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times[RUST])})")
    print(f"Python FIFO {python:.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times[PYTHON])})")
    print(f"ratio {python / rust:.2f}x; metrics identical")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Builds the workspace's tests with extra features and runs only some packages' test binaries.

    scripts/ci/test-packages.py --features F1,F2 PACKAGE...

`cargo test -p A -p B --features ...` resolves features for A and B alone, so shared
dependencies get other features than in `cargo test --workspace` and are built again (criterion,
clap, regex, ...). Built through `--workspace`, only the crates the features touch are rebuilt;
then each test binary of the named packages runs in its package's folder, as `cargo test` runs it.
Fails when the build or any test fails.
"""
import json
import subprocess
import sys
from pathlib import Path

def package_name(package_id):
    """`path+file:///dir/solver#schedlab-solver@0.1.0` (or `...#0.1.0` when the folder is the name)."""
    url, _, fragment = package_id.partition("#")
    return fragment.rsplit("@", 1)[0] if "@" in fragment else url.rstrip("/").rsplit("/", 1)[-1]


arguments = sys.argv[1:]
if len(arguments) < 3 or arguments[0] != "--features":
    sys.exit(__doc__)
features, packages = arguments[1], set(arguments[2:])
command = ["cargo", "test", "--workspace", "--locked", "--features", features, "--no-run", "--message-format=json"]
build = subprocess.run(command, stdout=subprocess.PIPE, text=True)
if build.returncode != 0:
    sys.exit(f"{' '.join(command)} failed")
binaries = []
for line in build.stdout.splitlines():
    message = json.loads(line)
    if message.get("reason") != "compiler-artifact" or not message.get("executable"):
        continue
    if message["profile"]["test"] and package_name(message["package_id"]) in packages:
        binaries.append((Path(message["manifest_path"]).parent, message["executable"]))
found = sorted({str(folder) for folder, _ in binaries})
if len(found) != len(packages):
    sys.exit(f"test binaries found in {found}, expected one folder for each of {sorted(packages)}")
for folder, executable in binaries:
    print(f"     Running {executable} (in {folder})", flush=True)
    if subprocess.run([executable], cwd=folder).returncode != 0:
        sys.exit(f"{executable} failed")

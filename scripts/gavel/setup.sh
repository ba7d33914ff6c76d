#!/usr/bin/env bash
# Sets up Gavel's simulator (stanford-futuredata/gavel, folder scheduler/) in a venv, without
# GPUs or torch: only what the simulator imports. Usage: setup.sh GAVEL_CHECKOUT VENV
set -euo pipefail
gavel="${1:?usage: setup.sh GAVEL_CHECKOUT VENV}"
venv="${2:?usage: setup.sh GAVEL_CHECKOUT VENV}"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet cvxpy numpy grpcio grpcio-tools psutil filelock func_timeout \
    preconditions setproctitle dill matrix_completion scikit-learn ecos
(cd "$gavel/scheduler" && PATH="$venv/bin:$PATH" make rpc_stubs)

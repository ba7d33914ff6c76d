#!/usr/bin/env bash
# A single-node Slurm on this machine (slurmctld + slurmd, munge authentication, no cgroups),
# for the scale-out test. Needs root and Debian's slurm-wlm and munge.
#
#   scripts/slurm/single-node.sh start DIR   # config, state and logs in DIR; prints SLURM_CONF
#   scripts/slurm/single-node.sh stop DIR
#
# Clients (sbatch, squeue) find this cluster through SLURM_CONF=DIR/slurm.conf.
set -euo pipefail
command="${1:?usage: single-node.sh start|stop DIR}"
dir="${2:?usage: single-node.sh start|stop DIR}"

stop() {
    for daemon in slurmd slurmctld; do
        if [ -f "$dir/$daemon.pid" ]; then
            kill "$(cat "$dir/$daemon.pid")" 2>/dev/null || true
        fi
    done
    if [ -f "$dir/munged.pid" ]; then
        kill "$(cat "$dir/munged.pid")" 2>/dev/null || true
    fi
    sleep 1
}

case "$command" in
stop)
    stop
    exit 0
    ;;
start) ;;
*)
    echo "usage: single-node.sh start|stop DIR" >&2
    exit 2
    ;;
esac

mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
dir="$(cd "$dir" && pwd)"
host="$(hostname -s)"

# munge: a key of our own, a socket in DIR, run as root (--force: root-owned key and folder).
if [ ! -f "$dir/munge/munge.key" ]; then
    dd if=/dev/urandom bs=1 count=1024 of="$dir/munge/munge.key" status=none
    chmod 600 "$dir/munge/munge.key"
fi
chmod 700 "$dir/munge"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed"

# The node as slurmd sees it (CPUs, sockets, memory), so that it is not drained for a mismatch.
node="$(slurmd -C | head -n 1)"
cat >"$dir/slurm.conf" <<CONF
ClusterName=schedlab-ci
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
$node State=UNKNOWN
PartitionName=ci Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
# Wait until the node takes jobs.
for _ in $(seq 60); do
    if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
        echo "SLURM_CONF=$SLURM_CONF"
        exit 0
    fi
    sleep 1
done
echo "Slurm did not become ready; logs in $dir:" >&2
tail -n 20 "$dir"/slurmctld.log "$dir"/slurmd.log >&2 || true
sinfo >&2 || true
stop
exit 1

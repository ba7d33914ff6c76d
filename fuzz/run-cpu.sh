#!/usr/bin/env bash
# One AFL++ campaign with a CPU-time budget instead of a wall-clock one:
# fuzz/run-cpu.sh TARGET CPU_SECONDS [OUT]. Runs fuzz/run.sh with no time limit under `nice`
# (so it takes only the CPU nothing else wants) and stops afl-fuzz (SIGINT, which writes its
# final stats) once the campaign's processes (afl-fuzz, the fork server and every target
# process they ran) have used CPU_SECONDS of CPU. Prints the CPU used and the final stats.
set -euo pipefail
cd "$(dirname "$0")"
target="${1:?target: trace, spec or policy}"
budget="${2:?CPU seconds}"
out="${3:-target/fuzz/$target}"
ticks=$(getconf CLK_TCK)
# CPU seconds of a process and its reaped children (utime, stime, cutime, cstime of /proc/PID/stat).
cpu_of() { awk -v t="$ticks" '{ sub(/^.*\) /, ""); print ($12 + $13 + $14 + $15) / t }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# Every descendant of a process.
descendants() { local child; for child in $(pgrep -P "$1" || true); do echo "$child"; descendants "$child"; done; }
# One day: the wall-clock limit is only a backstop; the watcher below ends the campaign.
nice -n 19 ./run.sh "$target" 86400 "$out" &
runner=$!
used=0
while kill -0 "$runner" 2>/dev/null; do
    sleep 20
    used=$(for pid in $runner $(descendants "$runner"); do cpu_of "$pid"; done | awk '{ s += $1 } END { printf "%d", s }')
    if [ "$used" -ge "$budget" ]; then
        pkill -INT -f "afl-fuzz .* -o $out " || true
        break
    fi
done
wait "$runner" || true
echo "campaign $target: about $used CPU seconds (budget $budget)"
grep -E "^(run_time|execs_done|execs_per_sec|corpus_count|saved_crashes|saved_hangs|bitmap_cvg|stability) " "$out/default/fuzzer_stats" || true

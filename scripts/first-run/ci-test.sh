#!/usr/bin/env bash
# A newcomer's first run (called by .ci/run): a fresh clone with no data directory anywhere near
# it runs `cargo reproduce philly`. It must download the data files it needs, verify their
# SHA-256s and run, and its tables must equal the committed results/ byte for byte.
#
# The downloads come from an HTTP server on the loopback interface standing in for GitHub: every
# URL of traces/sources.json is rewritten to it (through $SCHEDLAB_SOURCES), and it serves the
# files of the data directory given by $SCHEDLAB_DATA.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
data="${SCHEDLAB_DATA:?set SCHEDLAB_DATA to the data directory the test server serves}"
data="$(cd "$data" && pwd)"
work="$(mktemp -d)"
git clone --quiet "$root" "$work/repo"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$data" >"$work/server.log" 2>&1 &
server=$!
cleanup() {
    kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
python3 - "$root/traces/sources.json" "$work/sources.json" "$port" <<'PY'
import json, sys
sources, out, port = sys.argv[1], sys.argv[2], sys.argv[3]
listing = json.load(open(sources))
for entry in listing["files"]:
    if entry.get("url"):
        entry["url"] = f"http://127.0.0.1:{port}/{entry['path']}"
json.dump(listing, open(out, "w"), indent=1)
PY
for _ in $(seq 50); do
    if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/philly/philly_vc.csv')" 2>/dev/null; then
        break
    fi
    sleep 0.2
done

cd "$work/repo"
test ! -e data && test ! -e ../shared/data
# The newcomer's command as it is. Only to build faster in CI, the release profile skips LTO and
# splits code generation (results do not depend on either: the tables are compared below).
env -u SCHEDLAB_DATA -u SCHEDLAB_REQUIRE_DATA SCHEDLAB_SOURCES="$work/sources.json" \
    CARGO_TARGET_DIR="$root/target" CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_DEBUG=false cargo reproduce philly 2>&1 | tee "$work/reproduce.log"

echo "-- downloaded, verified, and the tables of a run on the shared data"
for file in philly/philly-pollux.csv philly/philly_vc.csv; do
    grep -q "$file is not in the data directory: downloading it into data" "$work/reproduce.log"
    cmp "data/$file" "$data/$file"
done
grep -q "GET /philly/philly-pollux.csv" "$work/server.log"
git diff --stat --exit-code -- 'results/philly/*.csv' 'results/philly/*.md' 'results/philly/*.svg' \
    'results/philly-rltune/*.csv' 'results/philly-rltune/*.md' 'results/philly-rltune/*.svg'
echo "-- ok"

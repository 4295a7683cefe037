#!/usr/bin/env bash
# CPU spent by `rates` while it waits for a slow reply: `rates current BTC
# --refresh` (one request) against the fake API answering each request after
# DELAY seconds (default 2). Prints the median wall time, the median CPU time
# (user + system) and the requests served, for the one transport every platform
# runs (libcurl, loaded at run time).
#
#   scripts/transport-cpu.sh [RUNS]
#
# Target: at most 0.05 s of CPU for a 2 s wait. Environment: DELAY (seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
delay=${DELAY:-2}

swift build -c release >/dev/null
bin=$(swift build -c release --show-bin-path)/rates

work=$(mktemp -d)
swift build -c release --product fake-api >/dev/null
"$(swift build -c release --show-bin-path)/fake-api" --port 0 --port-file "$work/port" \
  --delay "$delay" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(cat "$work/port")"
export HOME="$work/home" XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" \
  XDG_DATA_HOME="$work/data" RATES_COINGECKO_URL="$base/api/v3" RATES_TIMEOUT=10
unset COINGECKO_API_KEY COINGECKO_PRO_API_KEY RATES_CURRENCY RATES_PROVIDER

# measure BINARY: median wall and CPU seconds over $runs runs,
# from wait4's rusage (microsecond resolution).
measure() {
  local binary=$1
  curl -s -X POST "$base/__reset" >/dev/null
  python3 - "$binary" "$runs" <<'PY'
import os, statistics, sys, time
binary, runs = sys.argv[1], int(sys.argv[2])
walls, cpus = [], []
for _ in range(runs):
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1); os.dup2(null, 2)
        os.execv(binary, [binary, "current", "BTC", "--refresh"])
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{binary} failed with {os.waitstatus_to_exitcode(status)}")
    walls.append(time.perf_counter() - start)
    cpus.append(usage.ru_utime + usage.ru_stime)
print(f"{statistics.median(walls):.3f} {statistics.median(cpus):.3f}")
PY
}

printf '%-28s %10s %10s %13s\n' "transport ($runs runs)" "wall s" "CPU s" "requests/run"
report() {
  local label=$1; shift
  local result
  result=$(measure "$@")
  # shellcheck disable=SC2086  # two numbers, split on purpose
  printf '%-28s %10s %10s %13s\n' "$label" $result "$(( $(curl -s "$base/__requests") / runs ))"
}
report "live (libcurl)" "$bin"
echo "(fake API delay ${delay} s per request; target: CPU <= 0.05 s)"

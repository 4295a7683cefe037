#!/usr/bin/env bash
# Soak test for `rates watch` (release build) against fake-api, the tests' fake APIs.
#
# Runs `rates watch BTC ETH GBP-USD --every 10 --count 30` (about 5 minutes) with
# RATES_WATCH_FLOOR=EVERY and reports the peak RSS, the average CPU (user + sys over
# wall time) and the HTTP requests per minute the fake API saw.
#
# usage: scripts/watch-soak.sh [COUNT] [EVERY]   (defaults 30 and 10)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-30}
every=${2:-10}

# shellcheck source=scripts/release-build.sh
source scripts/release-build.sh
release_build --scratch-path "${SOAK_SCRATCH:-.build}"

FAKE_API=$(dirname "$bin")/fake-api
# shellcheck source=scripts/fake-env.sh
source scripts/fake-env.sh
export RATES_WATCH_FLOOR=$every
reset

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # utime + stime, clock ticks
hz=$(getconf CLK_TCK)

start=$(date +%s.%N)
"$bin" watch BTC ETH GBP-USD --every "$every" --count "$count" >"$work/out" 2>"$work/err" &
pid=$!
peak_kb=0
cpu_ticks=0
while kill -0 "$pid" 2>/dev/null; do
  if [ -r "/proc/$pid/status" ]; then
    rss=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ -n "$rss" ] && [ "$rss" -gt "$peak_kb" ] && peak_kb=$rss
    t=$(ticks "$pid" 2>/dev/null || echo "$cpu_ticks")
    [ -n "$t" ] && cpu_ticks=$t
  fi
  sleep 0.5
done
status=0
wait "$pid" || status=$?
end=$(date +%s.%N)

wall=$(echo "$end - $start" | bc -l)
requests=$(curl -s "$base/__requests")
lines=$(wc -l <"$work/out")
printf 'exit status        %s\n' "$status"
printf 'updates x items    %s lines (expected %s)\n' "$lines" "$((count * 3))"
printf 'wall time          %.1f s\n' "$wall"
printf 'peak RSS           %.1f MB\n' "$(echo "$peak_kb / 1024" | bc -l)"
printf 'average CPU        %.2f %% (user+sys %.2f s, last sample)\n' \
  "$(echo "$cpu_ticks / $hz / $wall * 100" | bc -l)" "$(echo "$cpu_ticks / $hz" | bc -l)"
printf 'requests           %s total, %.2f per minute\n' "$requests" "$(echo "$requests / $wall * 60" | bc -l)"
if [ -s "$work/err" ]; then echo "stderr:"; sed 's/^/  /' "$work/err"; fi

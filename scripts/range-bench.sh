#!/usr/bin/env bash
# The long-range history figures of issue 16 (release build, fake API):
#   - requests for a cold `rates history EUR USD --from 1999-01-04`, then for a second run;
#   - the day store's size on disk;
#   - warm wall and CPU time of that command against `rates --version`, median of N
#     interleaved runs, and their ratio (target: <= 1.5x).
#
# usage: scripts/range-bench.sh [RUNS]   (default 31; RATES_BIN=path skips the build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-31}

if [ -z "${RATES_BIN:-}" ]; then
  swift build -c release >/dev/null
  RATES_BIN=$(swift build -c release --show-bin-path)/rates
fi
FAKE_API=${FAKE_API:-$(dirname "$RATES_BIN")/fake-api}
[ -x "$FAKE_API" ] || swift build -c release --product fake-api >/dev/null
export FAKE_API
# shellcheck source=scripts/fake-env.sh
source scripts/fake-env.sh

command=("$RATES_BIN" history EUR USD --from 1999-01-04)
reset
"${command[@]}" >/dev/null
echo "cold run:   $(requests) requests"
reset
"${command[@]}" >/dev/null
echo "second run: $(requests) requests"
echo "day store:  $(find "$XDG_CACHE_HOME/rates/days" -type f -printf '%s\n' | paste -sd+ | bc) bytes in $(find "$XDG_CACHE_HOME/rates/days" -type f | wc -l) file(s)"

python3 - "$runs" "$RATES_BIN" "${command[@]}" <<'PY'
import resource, statistics, subprocess, sys, time
runs, binary, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
def once(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
results = {"version": [], "history": []}
for _ in range(runs):  # interleaved, so load changes hit both alike
    results["version"].append(once([binary, "--version"]))
    results["history"].append(once(command))
med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in results.items()}
for k, (w, c) in med.items():
    print(f"{k:8} wall {w:6.1f} ms  cpu {c:6.1f} ms")
print(f"ratio    wall {med['history'][0] / med['version'][0]:.2f}x  cpu {med['history'][1] / med['version'][1]:.2f}x")
PY

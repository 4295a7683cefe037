#!/usr/bin/env bash
# Start-up cost of cached commands against a Foundation hello world (release builds).
#
# Builds `rates` with a plain `swift build -c release` and a hello world that only
# imports Foundation (swiftc -O), fills the cache from the fake API once, then
# prints the median wall and CPU time and the peak RSS of N runs of:
#   hello (Foundation only), rates --version, rates history BTC EUR (warm),
#   rates convert 100 USD EUR (warm)
# and each warm command's ratio to the hello world (issue target: <= 1.5x).
#
# usage: scripts/startup.sh [RUNS]   (default 31)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-31}

swift build -c release >/dev/null
bin=$(swift build -c release --show-bin-path)/rates
hello_dir=$(mktemp -d)
printf 'import Foundation\nprint("hello \\(Date().timeIntervalSince1970 > 0)")\n' \
  >"$hello_dir/main.swift"
swiftc -O "$hello_dir/main.swift" -o "$hello_dir/hello"

# shellcheck source=scripts/fake-env.sh
source scripts/fake-env.sh
"$bin" history BTC EUR >/dev/null
"$bin" convert 100 USD EUR >/dev/null
reset

measure() {
  python3 - "$runs" "$@" <<'PY'
import resource, statistics, subprocess, sys, time
runs, command = int(sys.argv[1]), sys.argv[2:]
walls, cpus = [], []
for _ in range(runs):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    walls.append((time.perf_counter() - start) * 1000)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{statistics.median(walls):.1f} {statistics.median(cpus):.1f} {peak:.1f}")
PY
}

printf '%-34s %10s %10s %10s %8s\n' "command (release, $runs runs)" "wall ms" "cpu ms" "peak MiB" "vs hello"
read -r hw hc hm < <(measure "$hello_dir/hello")
printf '%-34s %10s %10s %10s %8s\n' "hello (Foundation only)" "$hw" "$hc" "$hm" "1.00x"
for command in "--version" "history BTC EUR" "convert 100 USD EUR"; do
  # shellcheck disable=SC2086
  read -r w c m < <(measure "$bin" $command)
  ratio=$(awk -v a="$w" -v b="$hw" 'BEGIN { printf "%.2fx", a / b }')
  printf '%-34s %10s %10s %10s %8s\n' "rates $command" "$w" "$c" "$m" "$ratio"
done
echo "requests made by the warm runs: $(requests)"
echo "binary: $(du -h "$bin" | cut -f1) ($bin)"
rm -rf "$hello_dir"

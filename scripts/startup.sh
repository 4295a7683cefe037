#!/usr/bin/env bash
# Start-up cost of cached commands, against a budget (a benchmark, not a test: run it on a
# quiet machine). It fills the cache from fake-api once, then prints the median wall and
# CPU time of RUNS runs of a warm `history BTC EUR` and `convert 100 USD EUR`, each without
# and with a one-key config file, alternating with a dynamic Foundation hello world (a
# load that comes and goes weighs on both alike), and one PASS/OVER line per budget:
#   - each command <= 10 ms wall (on a quiet 2-core machine);
#   - the plain `swift build -c release` binary <= 1.00x the hello world's wall time.
# Then the 10,000-point `history EUR USD --from 1999-01-04` as --json against
# --format csv, alternating too (json no slower), and what one warm command does by counts.
# With --installed it also builds what scripts/install.sh installs (static Swift runtime,
# no $ORIGIN run path, stripped; a second release build) and holds it to the 10 ms budget.
#
# usage: scripts/startup.sh [--installed] [RUNS]   (default 31)
set -euo pipefail
cd "$(dirname "$0")/.."
with_installed=no
if [ "${1:-}" = "--installed" ]; then with_installed=yes; shift; fi
runs=${1:-31}
budget_ms=10
budget_ratio=1.00

# shellcheck source=scripts/release-build.sh
source scripts/release-build.sh
release_build --product rates
plain=$bin
release_build --product fake-api
hello_dir=$(mktemp -d)
installed=
if [ "$with_installed" = yes ]; then
  release_build --product rates --static-swift-stdlib --disable-local-rpath --scratch-path .build-static
  installed="$hello_dir/rates-installed"
  strip -o "$installed" "$bin"
fi

# The hello world: Foundation, dynamic, encoding one small JSON value.
hello="$hello_dir/hello-foundation"
printf 'import Foundation\nstruct Point: Encodable { var x = 1 }\nlet data = try JSONEncoder().encode(Point())\nprint(String(decoding: data, as: UTF8.self))\n' \
  >"$hello.swift"
swiftc -O "$hello.swift" -o "$hello"

FAKE_API=$(dirname "$plain")/fake-api
# shellcheck source=scripts/fake-env.sh
source scripts/fake-env.sh
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -rf "$work" "$hello_dir"' EXIT
"$plain" history BTC EUR >/dev/null
"$plain" convert 100 USD EUR >/dev/null
"$plain" history EUR USD --from 1999-01-04 --json >/dev/null
reset

# measure COMMAND [-- OTHER COMMAND]: median wall ms and CPU ms of RUNS runs; with a second
# command, runs alternate between the two (so a load that comes and goes weighs on both
# alike) and a second line gives the other's figures.
measure() {
  python3 - "$runs" "$@" <<'PY'
import resource, statistics, subprocess, sys, time
runs, words = int(sys.argv[1]), sys.argv[2:]
commands = [words[:words.index("--")], words[words.index("--") + 1:]] if "--" in words else [words]
walls, cpus = [[] for _ in commands], [[] for _ in commands]
for _ in range(runs):
    for index, command in enumerate(commands):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        walls[index].append((time.perf_counter() - start) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus[index].append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
for index in range(len(commands)):
    print(f"{statistics.median(walls[index]):.2f} {statistics.median(cpus[index]):.1f}")
PY
}
row() { printf '%-46s %9s %8s %9s %8s\n' "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
config="$XDG_CONFIG_HOME/rates/config.json"

# budget LABEL VALUE LIMIT UNIT: one budget line, PASS when VALUE <= LIMIT, else OVER.
budgets=()
budget() {
  local verdict
  verdict=$(awk -v v="$2" -v l="$3" 'BEGIN { print (v + 0 <= l + 0) ? "PASS" : "OVER" }')
  budgets+=("$(printf '%-4s %-50s %6s%s <= %s%s' "$verdict" "$1" "$2" "$4" "$3" "$4")")
}

# compare LABEL TITLE BINARY HOLD-TO-RATIO: each command alternates with the hello world,
# without and with a one-key config file (written by `rates config set`, so it is one rates
# reads); budget lines for 10 ms and, when HOLD-TO-RATIO is yes, 1.00x the hello world.
compare() {
  local label=$1 title=$2 binary=$3 hold_ratio=$4 name hw hc w c r
  echo
  echo "$title"
  row "command ($runs runs each, alternating)" "wall ms" "cpu ms" "hello ms" "vs hello"
  for setting in none timeout; do
    rm -f "$config"
    [ "$setting" = none ] || "$binary" config set timeout 10 >/dev/null
    for command in "history BTC EUR" "convert 100 USD EUR"; do
      name="rates $command"
      [ "$setting" = none ] || name="$name (config file)"
      # shellcheck disable=SC2086
      { read -r w c; read -r hw hc; } < <(measure "$binary" $command -- "$hello")
      r=$(ratio "$w" "$hw")
      row "$name" "$w" "$c" "$hw" "$r"
      budget "$label: $name" "$w" "$budget_ms" " ms"
      [ "$hold_ratio" = no ] || budget "$label: $name" "${r%x}" "$budget_ratio" "x hello"
    done
  done
  rm -f "$config"
}
compare plain "1. plain build (swift build -c release) vs dynamic Foundation hello" \
  "$plain" yes
if [ -n "$installed" ]; then
  compare installed "2. installed build (static, stripped) vs dynamic Foundation hello" \
    "$installed" no
fi
echo
echo "budget (wall: on a quiet 2-core machine; load average now $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime))"
printf '  %s\n' "${budgets[@]}"

echo
echo "3. 10,000 points: history EUR USD --from 1999-01-04, plain release build"
row "command ($runs runs each, alternating)" "wall ms" "cpu ms" "" "vs csv"
{ read -r jw jc; read -r cw cc; } < <(measure "$plain" history EUR USD --from 1999-01-04 --json -- \
  "$plain" history EUR USD --from 1999-01-04 --format csv)
row "--format csv" "$cw" "$cc" "" "1.00x"
row "--json" "$jw" "$jc" "" "$(ratio "$jw" "$cw")"

# counts BINARY HELLO: what one warm `history BTC EUR` does, by counts that no load on the
# machine changes: system calls, files opened, memory maps and threads (strace -f), page
# faults (perf stat) and, when valgrind is there, instructions run in user space, the loader's
# included (its lackey tool; on a copy without debug information, whose DWARF 5 valgrind
# 3.19 cannot read); the hello world's alongside.
counts() {
  local binary=$1 hello=$2 trace stripped="$hello_dir/rates-stripped"
  trace=$(mktemp)
  strip -g -o "$stripped" "$binary"
  for command in "$binary history BTC EUR" "$hello"; do
    # shellcheck disable=SC2086
    strace -f -c -o "$trace" $command >/dev/null 2>&1
    awk -v name="${command##*/}" '
      $NF == "openat" { opens = $4 } $NF == "mmap" { maps = $4 }
      $NF ~ /^clone/ { threads += $4 } $NF == "total" { calls = $4 }
      END { printf "  %-36s %5d system calls, %3d opens, %3d mmaps, %d threads", name, calls, opens, maps, threads + 1 }
    ' "$trace"
    # shellcheck disable=SC2086
    perf stat -r 20 -e page-faults $command 2>&1 >/dev/null | awk '/page-faults/ { printf ", %s page faults", $1 }'
    if command -v valgrind >/dev/null; then
      # shellcheck disable=SC2086
      valgrind --tool=lackey --basic-counts=yes ${command/#$binary/$stripped} 2>&1 >/dev/null |
        awk '/guest instrs:/ { printf ", %s instructions", $4 }'
    fi
    echo
  done
  rm -f "$trace"
}
if command -v strace >/dev/null && command -v perf >/dev/null; then
  echo
  echo "4. counts of one warm history BTC EUR, plain build (strace -f -c, perf stat -r 20, valgrind)"
  counts "$plain" "$hello"
fi

echo
echo "requests made by the warm runs: $(requests)"
size() { du -h "$1" | cut -f1; }
echo "binaries: plain $(size "$plain")${installed:+, installed $(size "$installed") (static, stripped)}, hello $(size "$hello")"

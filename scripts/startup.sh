#!/usr/bin/env bash
# Start-up cost of cached commands against hello worlds (release builds), the two
# comparisons of issue 27:
#   1. the installed build (static Swift runtime, no $ORIGIN run path, stripped, as
#      scripts/install.sh makes it)
#      against a static, stripped hello world that imports only FoundationEssentials and
#      encodes one small JSON value (target: warm `history BTC EUR` <= 1.25x);
#   2. the plain `swift build -c release` binary against a dynamic Foundation hello world
#      (target: <= 1x).
# It fills the cache from fake-api once, then prints the median wall and CPU time of N runs
# of each command, alternating with its hello world (a load that comes and goes weighs on
# both alike), the ratios and the sizes; then the 10,000-point `history EUR USD --from
# 1999-01-04` as --json against --format csv, alternating too (target: json no slower).
#
# usage: scripts/startup.sh [RUNS]   (default 31)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-31}

# shellcheck source=scripts/release-build.sh
source scripts/release-build.sh
release_build --product rates
plain=$bin
release_build --product fake-api
release_build --product rates --static-swift-stdlib --disable-local-rpath --scratch-path .build-static
hello_dir=$(mktemp -d)
strip -o "$hello_dir/rates-installed" "$bin"
installed="$hello_dir/rates-installed"

hello() {  # hello MODULE OUTPUT [swiftc options]
  local module=$1 output=$2
  shift 2
  printf 'import %s\nstruct Point: Encodable { var x = 1 }\nlet data = try JSONEncoder().encode(Point())\nprint(String(decoding: data, as: UTF8.self))\n' \
    "$module" >"$hello_dir/$output.swift"
  swiftc -O "$@" "$hello_dir/$output.swift" -o "$hello_dir/$output"
}
hello FoundationEssentials hello-essentials-static -static-stdlib
strip "$hello_dir/hello-essentials-static"
hello Foundation hello-foundation

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

# compare TITLE HELLO BINARY TARGET: each command alternates with the hello world.
compare() {
  local title=$1 hello=$2 binary=$3 target=$4 hw hc w c
  echo
  echo "$title"
  row "command ($runs runs each, alternating)" "wall ms" "cpu ms" "hello ms" "vs hello"
  for command in "--version" "history BTC EUR" "convert 100 USD EUR"; do
    # shellcheck disable=SC2086
    { read -r w c; read -r hw hc; } < <(measure "$binary" $command -- "$hello")
    row "rates $command" "$w" "$c" "$hw" "$(ratio "$w" "$hw")"
    if [ "$command" = "history BTC EUR" ]; then
      history_ratio=$(ratio "$w" "$hw") cpu_ratio=$(ratio "$c" "$hc")
    fi
  done
  echo "warm history BTC EUR: $history_ratio the hello world's wall time, $cpu_ratio its CPU time (target <= $target)"
}
compare "1. installed build (static, stripped) vs static FoundationEssentials hello" \
  "$hello_dir/hello-essentials-static" "$installed" 1.25x
compare "2. plain release build vs dynamic Foundation hello" \
  "$hello_dir/hello-foundation" "$plain" 1.00x

echo
echo "3. 10,000 points: history EUR USD --from 1999-01-04, plain release build"
row "command ($runs runs each, alternating)" "wall ms" "cpu ms" "" "vs csv"
{ read -r jw jc; read -r cw cc; } < <(measure "$plain" history EUR USD --from 1999-01-04 --json -- \
  "$plain" history EUR USD --from 1999-01-04 --format csv)
row "--format csv" "$cw" "$cc" "" "1.00x"
row "--json" "$jw" "$jc" "" "$(ratio "$jw" "$cw")"

# counts BINARY HELLO: what one warm `history BTC EUR` does, by counts that no load on the
# machine changes: system calls, files opened, memory maps and threads (strace -f), and page
# faults (perf stat); the hello world's alongside.
counts() {
  local binary=$1 hello=$2 trace
  trace=$(mktemp)
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
    echo
  done
  rm -f "$trace"
}
if command -v strace >/dev/null && command -v perf >/dev/null; then
  echo
  echo "4. counts of one warm history BTC EUR (strace -f -c, perf stat -r 20)"
  counts "$installed" "$hello_dir/hello-essentials-static"
  counts "$plain" "$hello_dir/hello-foundation"
fi

echo
echo "requests made by the warm runs: $(requests)"
size() { du -h "$1" | cut -f1; }
echo "binaries: installed $(size "$installed") (static, stripped), plain $(size "$plain"), hello (essentials, static, stripped) $(size "$hello_dir/hello-essentials-static")"
if ldd "$plain" | grep -E 'libFoundation\.so|_FoundationICU|libicu' >/dev/null; then
  echo "the plain build links Foundation or ICU"
else
  echo "the plain build links neither libFoundation.so nor ICU"
fi

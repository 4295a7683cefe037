#!/usr/bin/env bash
# Benchmark `rates ledger` (release build) on large ledgers, in a temporary XDG_DATA_HOME.
#
# For each size it generates a CSV of that many exchanges (about 33 a day, oldest first, over
# the last 3,000 days; 80% USD-LBP, 20% EUR-LBP), imports it into an empty ledger, then runs
# every command RUNS times and prints the median wall time, the median CPU time (user + system,
# which a busy machine disturbs less than wall time) and the median peak RSS
# (/usr/bin/time -f %M) of:
#   rates ledger import FILE            (into an empty ledger, the file of SIZE lines)
#   rates ledger add 100 USD 8950000 LBP --sell
#   rates ledger rate USD LBP           (the last 3 days)
#   rates ledger list | head -1
#   rates ledger list > /dev/null
#   rates ledger export --csv > /dev/null
#   rates ledger remove ID              (one entry; reads every line)
#   rates --version                     (the start-up cost included in every figure)
# Wall times include starting the process; on a loaded machine run it twice.
#
# usage: scripts/ledger-bench.sh [SIZE ...] [--runs N]   (default: 100000, 10 runs)
#        RATES_BIN=/tmp/rates-old scripts/ledger-bench.sh     (another binary)
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=()
runs=10
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(100000)

# RATES_BIN=/path/to/rates measures another build (say, the previous version) instead.
if [ -n "${RATES_BIN:-}" ]; then
  bin=$RATES_BIN
else
  swift build -c release >/dev/null
  bin=$(swift build -c release --show-bin-path)/rates
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache XDG_CONFIG_HOME=$work/config
export NO_COLOR=1 COLUMNS=120

# generate SIZE FILE: SIZE exchanges ending today, oldest first.
generate() {
  awk -v n="$1" -v today="$(( $(date -u +%s) / 86400 ))" '
    function civil(z,   era, doe, yoe, y, doy, mp, d, m) {
      z += 719468; era = int((z >= 0 ? z : z - 146096) / 146097); doe = z - era * 146097
      yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
      y = yoe + era * 400; doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
      mp = int((5 * doy + 2) / 153); d = doy - int((153 * mp + 2) / 5) + 1
      m = mp < 10 ? mp + 3 : mp - 9
      return sprintf("%04d-%02d-%02d", y + (m <= 2), m, d)
    }
    BEGIN {
      srand(1)
      print "date,side,amount,currency,counter_amount,counter_currency,with,note"
      split("Abu Ali,Karim,,Rana,Exchange Co,", names, ",")
      split(",rent,groceries,,salary", notes, ",")
      for (i = 0; i < n; i++) {
        day = civil(today - 2999 + int(i * 3000 / n))
        amount = 50 * (1 + int(rand() * 20)); rate = 89000 + int(rand() * 4000) - 2000
        currency = rand() < 0.8 ? "USD" : "EUR"
        printf "%s,%s,%d,%s,%d,LBP,%s,%s\n", day, rand() < 0.5 ? "sell" : "buy", amount, currency,
          amount * rate, names[1 + int(rand() * 6)], notes[1 + int(rand() * 5)]
      }
    }' > "$2"
}

# measure LABEL SETUP COMMAND: runs SETUP then COMMAND (a shell snippet, with "$bin" the
# binary and $rss the file /usr/bin/time writes to) RUNS times; prints medians.
measure() {
  local label=$1 setup=$2 command=$3 times=() sizes=() cpus=()
  for _ in $(seq "$runs"); do
    eval "$setup"
    local rss=$work/rss start end
    start=$(date +%s%N)
    eval "$command"
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
    read -r user system peak < <(tail -1 "$rss")
    sizes+=("$peak")
    cpus+=("$(awk -v u="$user" -v s="$system" 'BEGIN {printf "%d", (u + s) * 1000}')")
  done
  local t m c
  t=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}')
  m=$(printf '%s\n' "${sizes[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1024}')
  c=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%d", a[int((NR+1)/2)]}')
  printf '%-44s %10s %10s %10s\n' "$label" "$t" "$c" "$m"
}

timed='/usr/bin/time -f "%U %S %M" -o "$rss"'
for size in "${sizes[@]}"; do
  csv=$work/ledger-$size.csv
  generate "$size" "$csv"
  echo
  printf '%-44s %10s %10s %10s\n' "$size entries (release, $runs runs)" "wall ms" "CPU ms" "RSS MiB"
  measure "rates --version" ":" "$timed \"\$bin\" --version >/dev/null"
  measure "rates ledger import ($size lines)" 'rm -rf "$XDG_DATA_HOME"' \
    "$timed \"\$bin\" ledger import \"\$csv\" >/dev/null"
  ls -l "$XDG_DATA_HOME/rates/ledger.json" | awk '{printf "ledger.json: %.1f MB\n", $5 / 1e6}'
  measure "rates ledger add" ":" \
    "$timed \"\$bin\" ledger add 100 USD 8950000 LBP --sell >/dev/null"
  measure "rates ledger rate USD LBP (3 days)" ":" \
    "$timed \"\$bin\" ledger rate USD LBP >/dev/null"
  measure "rates ledger list | head -1" ":" \
    "$timed \"\$bin\" ledger list 2>/dev/null | head -1 >/dev/null || true"
  measure "rates ledger list > /dev/null" ":" "$timed \"\$bin\" ledger list >/dev/null"
  measure "rates ledger export --csv > /dev/null" ":" \
    "$timed \"\$bin\" ledger export --csv >/dev/null"
  next=1
  measure "rates ledger remove ID" 'next=$((next + 1))' \
    "$timed \"\$bin\" ledger remove \$next >/dev/null"
done

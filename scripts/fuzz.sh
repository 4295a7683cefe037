#!/usr/bin/env bash
# Fuzzes the parsers that read files from outside (each importer of `ledger import --from`,
# the ledger's own CSV, and the ledger file's line parser) under libFuzzer, seeded with the
# real exported files in fixtures/real/exchanges and real ledger lines and a ledger export
# written by rates (scripts/fuzz/ledger-lines, scripts/fuzz/rates-csv).
# A crash, a trap, a hang (an input taking over 10 s) or unbounded memory (over 1 GB) stops
# that target and leaves the input in $RATES_FUZZ_OUT (default .build/fuzz/findings).
# A script, not CI: it takes SECONDS for each target.
#
#   scripts/fuzz.sh [SECONDS (default 600)] [TARGET...]
#   targets: coinbase coinbase-exchange kraken kraken-ledgers binance auto rates-csv ledger-line
#   RATES_FUZZ_JOBS=2 runs that many targets at once.
#
# It builds RateCore with -sanitize=fuzzer (and -enable-testing, for the internal line
# parser) in a package of its own under .build/fuzz (links to the sources), and links
# scripts/fuzz/FuzzMain.swift (the entry point) to it, so the main package's build is untouched.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(coinbase coinbase-exchange kraken kraken-ledgers binance auto rates-csv ledger-line)
jobs=${RATES_FUZZ_JOBS:-1}
out=${RATES_FUZZ_OUT:-$root/.build/fuzz/findings}
package=$root/.build/fuzz/package
mkdir -p "$out" "$package/Sources"
for target in CCurlShim CECBSnapshot CNumberFormat RateCore; do
  ln -sfn "$root/Sources/$target" "$package/Sources/$target"
done
cat > "$package/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
  name: "rates-fuzz",
  targets: [
    .target(name: "CCurlShim"),
    .target(name: "CECBSnapshot", exclude: ["eurofxref.bin"]),
    .target(name: "CNumberFormat"),
    .target(name: "RateCore", dependencies: ["CCurlShim", "CECBSnapshot", "CNumberFormat"]),
  ]
)
MANIFEST
echo "fuzz: building RateCore (release, -sanitize=fuzzer) and the entry point..." >&2
(cd "$package" && swift build -c release --target RateCore -Xswiftc -sanitize=fuzzer \
  -Xswiftc -enable-testing -Xcc -fsanitize=fuzzer-no-link 2>&1 | grep -E 'error' >&2 || true)
build=$package/.build/release
binary=$build/rates-fuzz
# Objects of sources deleted since an earlier run would be linked too: drop them.
for object in "$build"/RateCore.build/*.swift.o; do
  [ -n "$(find "$root/Sources/RateCore" -name "$(basename "$object" .o)")" ] || rm -f "$object"
done
swiftc -O -sanitize=fuzzer -parse-as-library -I "$build/Modules" -I "$build" \
  "$root/scripts/fuzz/FuzzMain.swift" "$build"/RateCore.build/*.o "$build"/CCurlShim.build/*.o \
  "$build"/CECBSnapshot.build/*.o "$build"/CNumberFormat.build/*.o -o "$binary"
[ -x "$binary" ] || { echo "fuzz: the build failed" >&2; exit 1; }

# The seeds of a target: the real exports of its exchange (every exchange's for auto), the
# ledger lines for ledger-line, a ledger export (`ledger export --csv`) for rates-csv.
seeds() {
  local target=$1 dir=$2
  mkdir -p "$dir"
  case $target in
    coinbase) cp "$root"/fixtures/real/exchanges/coinbase/*.csv "$dir"/ ;;
    coinbase-exchange) cp "$root"/fixtures/real/exchanges/coinbase-exchange/*.csv "$dir"/ ;;
    kraken) cp "$root"/fixtures/real/exchanges/kraken/trades_*.csv "$dir"/ ;;
    kraken-ledgers) cp "$root"/fixtures/real/exchanges/kraken/ledgers_*.csv "$dir"/ ;;
    binance) cp "$root"/fixtures/real/exchanges/binance/*.csv "$dir"/ ;;
    auto) cp "$root"/fixtures/real/exchanges/*/*.csv "$dir"/ ;;
    rates-csv) cp "$root"/scripts/fuzz/rates-csv/* "$dir"/ ;;
    ledger-line) cp "$root"/scripts/fuzz/ledger-lines/* "$dir"/ ;;
    *) echo "fuzz: unknown target $target" >&2; return 1 ;;
  esac
}

run() {
  local target=$1 corpus=$package/corpus/$1
  seeds "$target" "$corpus"
  local log=$out/$target.log
  if RATES_FUZZ_TARGET=$target "$binary" "$corpus" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=1024 -max_len=65536 -print_final_stats=1 -artifact_prefix="$out/$target-" >"$log" 2>&1; then
    local runs; runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    local peak; peak=$(grep -E '^stat::peak_rss_mb' "$log" | awk '{print $2}')
    echo "fuzz: $target: no finding in ${seconds}s, $runs inputs, peak RSS ${peak} MB" >&2
  else
    echo "fuzz: $target: FINDING (see $log and $out/$target-*)" >&2
    return 1
  fi
}

status=0
pids=()
for target in "${targets[@]}"; do
  run "$target" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status

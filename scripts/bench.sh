#!/usr/bin/env bash
# Benchmark rates (release build) against fake-api, the tests' fake APIs on a loopback port.
#
# Prints the median wall time of:
#   rates --version
#   rates history BTC EUR   with a warm cache (answered without a request)
#   rates history BTC EUR   with an empty cache
# and the number of HTTP requests each made; then, for the user's lists,
#   rates favorites          with 10 favorites
#   rates pairs              with 5 fiat pairs
#   rates top --in EUR,USD   (with those favorites)
# the requests of a cold run and the median of warm runs.
#
# usage: scripts/bench.sh [RUNS]   (default 21)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-21}

# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh

printf '%-34s %12s %10s\n' "command (release, $runs runs)" "median ms" "requests"

reset
t=$(median_ms ":" "$bin" --version)
printf '%-34s %12s %10s\n' "rates --version" "$t" "$(( $(requests) / runs ))"
version_ms=$t

rm -rf "$XDG_CACHE_HOME"; "$bin" history BTC EUR >/dev/null; reset
t=$(median_ms ":" "$bin" history BTC EUR)
printf '%-34s %12s %10s\n' "rates history BTC EUR (warm)" "$t" "$(( $(requests) / runs ))"
warm_ms=$t

reset
t=$(median_ms 'rm -rf "$XDG_CACHE_HOME"' "$bin" history BTC EUR)
printf '%-34s %12s %10s\n' "rates history BTC EUR (empty)" "$t" "$(( $(requests) / runs ))"

awk -v w="$warm_ms" -v v="$version_ms" 'BEGIN { printf "warm history / --version: %.2fx (target <= 1.3x)\n", w / v }'

echo
"$bin" favorites add BTC ETH USDT SOL XRP DOGE ADA TRX LINK DOT >/dev/null
for pair in GBP-USD EUR-AUD USD-JPY CHF-SEK NOK-DKK; do "$bin" pairs add "$pair" >/dev/null; done
printf '%-34s %12s %10s\n' "lists (release, $runs warm runs)" "median ms" "cold reqs"
for command in "favorites" "pairs" "top --in EUR,USD"; do
  rm -rf "$XDG_CACHE_HOME"; reset
  # shellcheck disable=SC2086
  "$bin" $command >/dev/null
  cold=$(requests)
  # shellcheck disable=SC2086
  t=$(median_ms ":" "$bin" $command)
  printf '%-34s %12s %10s\n' "rates $command" "$t" "$cold"
done

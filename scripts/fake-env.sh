# Sourced by the benchmark scripts, or by hand from the repository root to try rates
# offline: starts `fake-api` (the tests' fake CoinGecko, CoinDesk, Frankfurter, Coinbase, Kraken and ECB APIs,
# Sources/FakeAPI) on a free loopback port, points rates at it with a throwaway HOME and
# XDG folders, and stops it on exit. Sets $work (a temporary folder) and $base (the URL).
# Runs $FAKE_API when set, else builds fake-api (release) first.
if [ -z "${FAKE_API:-}" ]; then
  swift build -c release --product fake-api >/dev/null
  FAKE_API="$(swift build -c release --show-bin-path)/fake-api"
fi
work=$(mktemp -d)
"$FAKE_API" --port 0 --port-file "$work/port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(cat "$work/port")"

export HOME="$work/home" XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" \
  XDG_DATA_HOME="$work/data" RATES_COINGECKO_URL="$base/api/v3" RATES_COINDESK_URL="$base/v1/bpi" \
  RATES_FRANKFURTER_URL="$base/frankfurter" RATES_COINBASE_URL="$base/coinbase" \
  RATES_KRAKEN_URL="$base/kraken" RATES_ECB_URL="$base/ecb"
unset COINGECKO_API_KEY COINGECKO_PRO_API_KEY RATES_CURRENCY RATES_PROVIDER

requests() { curl -s "$base/__requests"; }
reset() { curl -s -X POST "$base/__reset" >/dev/null; }

# Sourced by the benchmark scripts, or by hand from the repository root to try rates
# offline: starts `fake-api` (the tests' fake CoinGecko, CoinDesk, Frankfurter, Coinbase, Kraken and ECB APIs,
# Sources/FakeAPI) on a free loopback port, points rates at it with a throwaway HOME and
# XDG folders, and stops it on exit. Sets $work (a temporary folder) and $base (the URL).
# Runs $FAKE_API when set, else builds fake-api (release) first.
# Says what it does on stderr (a build takes a minute or two the first time): quiet with
# FAKE_ENV_QUIET=1.
fake_env_say() { [ -n "${FAKE_ENV_QUIET:-}" ] || printf 'fake-env: %s\n' "$*" >&2; }
if [ -z "${FAKE_API:-}" ]; then
  fake_env_say "building fake-api (release; a minute or two the first time)..."
  fake_env_log=$(mktemp)
  if ! swift build -c release --product fake-api >"$fake_env_log" 2>&1; then
    grep -E 'error' "$fake_env_log" | head -20 >&2
    rm -f "$fake_env_log"
    fake_env_say "the build failed; nothing started"
    return 1 2>/dev/null || exit 1
  fi
  rm -f "$fake_env_log"
  FAKE_API="$(swift build -c release --show-bin-path)/fake-api"
fi
work=$(mktemp -d)
fake_env_say "starting fake-api..."
"$FAKE_API" --port 0 --port-file "$work/port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
base="http://127.0.0.1:$(cat "$work/port")"
fake_env_say "fake APIs at $base; HOME is $work/home (removed on exit). Try: rates top --limit 10"

export HOME="$work/home" XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config" \
  XDG_DATA_HOME="$work/data" RATES_COINGECKO_URL="$base/api/v3" RATES_COINDESK_URL="$base/v1/bpi" \
  RATES_FRANKFURTER_URL="$base/frankfurter" RATES_COINBASE_URL="$base/coinbase" \
  RATES_KRAKEN_URL="$base/kraken" RATES_ECB_URL="$base/ecb" RATES_WATCH_FLOOR=1
# RATES_WATCH_FLOOR=1: fake-api has no rate limit, so `rates watch --every 1s` updates every
# second here (against CoinGecko without a key the floor is 15 s).
unset COINGECKO_API_KEY COINGECKO_PRO_API_KEY RATES_CURRENCY RATES_PROVIDER

requests() { curl -s "$base/__requests"; }
reset() { curl -s -X POST "$base/__reset" >/dev/null; }

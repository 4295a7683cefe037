#!/usr/bin/env bash
# Benchmark `rates ledger import --from kraken-ledgers` of 10,000 rows and a warm
# `rates portfolio gains` of the ledger it makes (issue 36), release build, against fake-api.
# The file: a EUR deposit a week and 4,900 BTC and ETH trades over the last 360 days (two
# rows each, sharing a refid, with a EUR fee), as Kraken writes ledgers.csv.
# Prints the median wall time of each and checks the budget: import <= 1,000 ms (a fresh
# ledger each run), gains <= 100 ms warm (after one run that fills the day store; no request).
#
# usage: scripts/import-bench.sh [RUNS]   (default 7; RATES_BIN to use another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh

python3 - "$work/ledgers.csv" <<'PY'
import datetime, random, sys
random.seed(36)
now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None, microsecond=0)
rows = ['"txid","refid","time","type","subtype","aclass","asset","amount","fee","balance"']
prices = {"XXBT": 60000.0, "XETH": 3000.0}
n = 0
def row(refid, when, kind, asset, amount, fee):
    global n
    n += 1
    rows.append(f'"L{n:05d}-BENCH-{n:06d}","{refid}","{when}","{kind}","","currency","{asset}",{amount},{fee},0')
trades = 0
while len(rows) - 1 < 10000:
    when = now - datetime.timedelta(minutes=(360 * 24 * 60) * (10000 - len(rows)) // 10000 + 60)
    stamp = when.strftime("%Y-%m-%d %H:%M:%S")
    if trades % 50 == 0:
        row(f"QBENCH-{n:06d}", stamp, "deposit", "ZEUR", "10000.0000", "0.0000")
    trades += 1
    asset = random.choice(list(prices))
    euros = round(random.uniform(20, 400), 2)
    quantity = euros / prices[asset] * random.uniform(0.97, 1.03)
    fee = round(euros * 0.0026, 4)
    refid = f"TBENCH-{trades:06d}"
    if random.random() < 0.6:
        row(refid, stamp, "trade", "ZEUR", f"{-euros:.4f}", f"{fee:.4f}")
        row(refid, stamp, "trade", asset, f"{quantity:.10f}", "0.0000000000")
    else:
        row(refid, stamp, "trade", asset, f"{-quantity:.10f}", "0.0000000000")
        row(refid, stamp, "trade", "ZEUR", f"{euros:.4f}", f"{fee:.4f}")
open(sys.argv[1], "w").write("\n".join(rows[:10001]) + "\n")
PY
from=$(date -u -d '361 days ago' +%F)  # CoinGecko's free plans serve the past 365 days

printf '%-52s %10s %9s\n' "command (10,000 rows, $runs runs)" "median ms" "requests"
reset
import_ms=$(median_ms 'rm -rf "$XDG_DATA_HOME"' "$bin" ledger import --from kraken-ledgers "$work/ledgers.csv")
printf '%-52s %10s %9s\n' "rates ledger import --from kraken-ledgers" "$import_ms" "$(( $(requests) / runs ))"
"$bin" ledger import --from kraken-ledgers "$work/ledgers.csv" >/dev/null 2>&1 || true
entries=$("$bin" ledger list --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["entries"]))')
"$bin" portfolio gains --in EUR --from "$from" >/dev/null
reset
gains_ms=$(median_ms ":" "$bin" portfolio gains --in EUR --from "$from")
printf '%-52s %10s %9s\n' "rates portfolio gains --in EUR --from $from (warm)" "$gains_ms" "$(( $(requests) / runs ))"
disposals=$("$bin" portfolio gains --in EUR --from "$from" --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["disposals"]))')
echo "ledger: $entries entries; gains: $disposals disposals"
awk -v i="$import_ms" -v g="$gains_ms" 'BEGIN {
  printf "import <= 1000 ms: %s   gains <= 100 ms: %s\n", (i <= 1000 ? "PASS" : "FAIL"), (g <= 100 ? "PASS" : "FAIL")
  exit !(i <= 1000 && g <= 100) }'

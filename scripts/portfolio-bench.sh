#!/usr/bin/env bash
# Benchmark `rates portfolio` (issue 26) on a ledger of 10,000 entries (buys and sells of BTC,
# ETH, EUR and LBP against USD over two years, deposits and withdrawals), release build,
# against fake-api: the median wall time of warm runs (after one run that fills the day
# store) of
#   rates portfolio
#   rates portfolio history --from <one year ago>
# and the requests a warm run makes (none expected).
#
# usage: scripts/portfolio-bench.sh [RUNS]   (default 11; RATES_BIN to use another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
# shellcheck source=scripts/bench-lib.sh
source scripts/bench-lib.sh

python3 - "$work/ledger.csv" <<'PY'
import datetime, random, sys
random.seed(26)
today = datetime.date.today()
rows = ["id,date,side,amount,currency,counter_amount,counter_currency,rate,with,note"]
prices = {"BTC": 60000, "ETH": 3000, "EUR": 1.08, "LBP": 1 / 89500}
for i in range(10000):
    day = today - datetime.timedelta(days=730 - i * 730 // 10000)
    if i % 500 == 0:
        rows.append(f"{i},{day},deposit,50000,USD,,,,,")
        continue
    if i % 500 == 250:
        rows.append(f"{i},{day},withdrawal,10,USD,,,,,")
        continue
    code = random.choice(list(prices))
    usd = round(random.uniform(10, 500), 2)
    amount = usd / prices[code] * random.uniform(0.97, 1.03)
    side = "buy" if random.random() < 0.6 else "sell"
    rows.append(f"{i},{day},{side},{amount:.8f},{code},{usd},USD,,,")
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
"$bin" ledger import "$work/ledger.csv" >/dev/null
from=$(date -u -d '364 days ago' +%F)  # CoinGecko's free plans serve the past 365 days

printf '%-48s %10s %9s\n' "command (10,000 entries, $runs warm runs)" "median ms" "requests"
for command in "portfolio" "portfolio history --from $from"; do
  # shellcheck disable=SC2086
  "$bin" $command >/dev/null
  reset
  # shellcheck disable=SC2086
  t=$(median_ms ":" "$bin" $command)
  printf '%-48s %10s %9s\n' "rates $command" "$t" "$(( $(requests) / runs ))"
done

#!/usr/bin/env bash
# `rates portfolio --as-of` against hledger and beancount (issue 26): records a ledger of
# deposits, buys, sells and a withdrawal across BTC, ETH, EUR, USD and LBP, exports it with
# `ledger export --format ledger|beancount --in USD`, and checks on three dates that the
# market value of Assets each tool computes equals `rates portfolio --as-of DAY --json`'s
# total, to the cent. Run by scripts/interop.sh; alone:
#
#   RATES_BIN=.build/debug/rates FAKE_API=.build/debug/fake-api \
#     scripts/interop-portfolio.sh /tmp/rates-interop-venv/bin/python
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-python3}
rates=${RATES_BIN:?set RATES_BIN to the rates binary}
# shellcheck source=scripts/fake-env.sh
source scripts/fake-env.sh
ago() { date -u -d "$1 days ago" +%F; }

"$rates" ledger add 10000 USD --deposit --date "$(ago 40)" >/dev/null
"$rates" ledger add 0.1 BTC 6000 USD --buy --date "$(ago 39)" >/dev/null
"$rates" ledger add 1 ETH 3000 USD --buy --date "$(ago 38)" >/dev/null
"$rates" ledger add 0.1 BTC 7000 USD --buy --date "$(ago 37)" >/dev/null
"$rates" ledger add 0.05 BTC 3500 USD --sell --date "$(ago 35)" >/dev/null
"$rates" ledger add 1000 USD 900 EUR --sell --date "$(ago 34)" >/dev/null
"$rates" ledger add 100 USD 8950000 LBP --sell --date "$(ago 33)" >/dev/null
"$rates" ledger add 0.5 ETH --deposit --cost "1000 EUR" --date "$(ago 32)" >/dev/null
"$rates" ledger add 0.5 ETH --withdraw --date "$(ago 31)" >/dev/null
"$rates" ledger export --format ledger --in USD >"$work/portfolio.journal"
"$rates" ledger export --format beancount --in USD >"$work/portfolio.beancount"

days=("$(ago 36)" "$(ago 20)" "$(ago 0)")
for day in "${days[@]}"; do
  "$rates" portfolio --in USD --as-of "$day" --json >"$work/portfolio-$day.json"
done

"$python" - "$work" "${days[@]}" <<'PY'
import datetime, json, subprocess, sys
from decimal import Decimal

work, days = sys.argv[1], sys.argv[2:]
problems = []

def hledger(day):
    end = (datetime.date.fromisoformat(day) + datetime.timedelta(days=1)).isoformat()
    result = subprocess.run(
        ["hledger", "-f", f"{work}/portfolio.journal", "bal", "^Assets", "-X", "USD", "-e", end,
         "--depth", "1", "-N", "-O", "csv", "-c", "USD 1.000000"],
        capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"hledger: {result.stderr.strip()}")
    rows = [line.split('","') for line in result.stdout.splitlines()[1:]]
    return sum(Decimal(r[1].strip('"').replace("USD", "").replace(",", "").strip()) for r in rows)

def beancount(day):
    from beancount import loader
    from beancount.core import convert, data, inventory, prices
    entries, errors, _ = loader.load_file(f"{work}/portfolio.beancount")
    if errors:
        raise SystemExit(f"beancount: {errors[0].message}")
    date = datetime.date.fromisoformat(day)
    price_map = prices.build_price_map(entries)
    held = inventory.Inventory()
    for entry in entries:
        if isinstance(entry, data.Transaction) and entry.date <= date:
            for posting in entry.postings:
                if posting.account.startswith("Assets:"):
                    held.add_amount(posting.units)
    total = Decimal(0)
    for position in held:
        value = convert.convert_amount(position.units, "USD", price_map, date=date)
        if value.currency != "USD":
            raise SystemExit(f"beancount: no USD price for {position.units.currency} on {day}")
        total += value.number
    return total

print(f"{'date':<12} {'rates portfolio':>18} {'hledger':>18} {'beancount':>18}")
for day in days:
    ours = Decimal(str(json.load(open(f"{work}/portfolio-{day}.json"))["totals"]["value"]))
    theirs = {"hledger": hledger(day), "beancount": beancount(day)}
    print(f"{day:<12} {ours:>18.2f} {theirs['hledger']:>18.2f} {theirs['beancount']:>18.2f}")
    for tool, value in theirs.items():
        if abs(value - ours) >= Decimal("0.005"):
            problems.append(f"{tool} {day}: {value} against rates portfolio {ours}")
for problem in problems:
    print("  " + problem)
sys.exit(1 if problems else 0)
PY

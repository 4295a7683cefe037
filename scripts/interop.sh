#!/usr/bin/env bash
# Checks that every export format reads back exactly in the tools people feed it to:
# hledger and ledger (price directives), beancount 3 (and 2, when it installs) and a CSV
# reader. Not part of CI or the tests: it installs what is missing (hledger and ledger with
# apt-get, beancount with pip in a venv under /tmp), builds rates in release, starts the fake
# API (scripts/fake-env.sh), exports prices in every format and compares each value a tool
# reads back with the value `--json` holds, as Doubles (exact equality).
#
#   scripts/interop.sh              # from the repository root; exit 0 when all match
#   INTEROP_VENV=/tmp/x scripts/interop.sh
#
# Prices that need every digit come from two places: ledger entries whose rates are tiny,
# huge or not exactly decimal (3.3e-15, 1e21, 0.1 + 0.2), and a second small CoinGecko
# stand-in (Python, below) whose two coins are priced that way and whose history has gap
# days (no value, `null` in --json, no directive and no CSV row). A ten-year ECB range and
# an hourly coin history (ledger `P YYYY-MM-DD HH:MM:SS` directives, CSV with a `time`
# column; beancount refuses hourly prices) are read back the same way.
#
# Prints, per tool, its version, how many prices it read back and how many differ; and the
# portfolio's market value by rates, hledger and beancount on three dates.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${INTEROP_VENV:-/tmp/rates-interop-venv}
venv2=${INTEROP_VENV2:-/tmp/rates-interop-venv-beancount2}
say() { printf 'interop: %s\n' "$*" >&2; }

# --- Tools -------------------------------------------------------------------------------
install_tools() {
  local missing=()
  command -v hledger >/dev/null || missing+=(hledger)
  command -v ledger >/dev/null || missing+=(ledger)
  if [ ${#missing[@]} -gt 0 ]; then
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    if ! command -v apt-get >/dev/null; then
      say "no apt-get here: install ${missing[*]} by hand"
    else
      $sudo apt-get update -qq || say "apt-get update failed (exit $?)"
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null || say "apt-get install ${missing[*]} failed (exit $?)"
    fi
  fi
  if ! "$venv/bin/python" -c 'import beancount' 2>/dev/null; then
    python3 -m venv "$venv" && "$venv/bin/pip" install -q beancount \
      || say "pip install beancount (PyPI) failed (exit $?)"
  fi
  # beancount 2 limits names to 24 characters; its wheels may not exist for this Python.
  if ! "$venv2/bin/python" -c 'import beancount' 2>/dev/null; then
    { python3 -m venv "$venv2" && "$venv2/bin/pip" install -q 'beancount<3'; } >/dev/null 2>&1 \
      || say "pip install 'beancount<3' failed: beancount 2 is skipped"
  fi
}
install_tools

# --- rates and the fake API --------------------------------------------------------------
swift build -c release --product rates >/dev/null
swift build -c release --product fake-api >/dev/null
bin="$(swift build -c release --show-bin-path)"
export FAKE_API="$bin/fake-api"
rates="$bin/rates"
# shellcheck source=scripts/fake-env.sh
source scripts/fake-env.sh
out="$work/exports"
mkdir -p "$out"

# Each case: a name and the arguments of a command that takes --json and --format.
cases=(
  "history-btc-eur|history BTC EUR --days 90"
  "history-eth-usd|history ETH USD --days 365"
  "history-gbp-usd|history GBP USD --days 60"
  "history-eur-btc|history EUR BTC --days 30"
  "history-wormhole|history ethereum-wormhole EUR --days 14"
  "history-usdt-btc|history USDT BTC --days 30"
  "stats-sol-gbp|stats SOL GBP --days 30"
  "current-coins|current BTC ETH SOL DOGE USDT ethereum-wormhole --in EUR,USD"
  "current-in-btc|current ETH SOL DOGE USDT --in BTC"
  # Not GBP-USD and USD-GBP together: ledger keeps one price per pair and moment, the
  # inverse included, so it would report one of the two (the values still agree).
  "current-fiat|current GBP-USD EUR-JPY AUD-CHF"
  "ledger-list|ledger list"
  # Ten years of ECB rates (Frankfurter in yearly requests), and hourly coin prices: ledger
  # and CSV carry each point's time (beancount, whose prices have no time, is refused).
  "history-gbp-usd-10y|history GBP USD --from $(date -u -d '10 years ago' +%F)"
  "history-btc-eur-hourly|history BTC EUR --days 7 --interval hourly"
)
# Your own exchanges, with rates that need every digit (1/89500, 3.3/3, …).
"$rates" ledger add 100 USD 8950000 LBP --sell --date 2024-11-14 >/dev/null
"$rates" ledger add 1000000 LBP 11.17 USD --sell --date 2024-11-15 >/dev/null
"$rates" ledger add 3 EUR 3.3 USD --buy --date 2024-11-15 >/dev/null
"$rates" ledger add 7 GBP 9.123456789 EUR --sell --with "A, B" --date 2024-11-16 >/dev/null

# Tiny, huge and inexact rates: 3.3/1e15, 1e15/1e-6, 0.30000000000000004, 1/3.
"$rates" ledger add 1000000000000000 XAA 3.3 XBB --buy --date 2024-11-17 >/dev/null
"$rates" ledger add 0.000001 XCC 1000000000000000 XDD --buy --date 2024-11-17 >/dev/null
"$rates" ledger add 1 XEE 0.30000000000000004 XFF --sell --date 2024-11-18 >/dev/null
"$rates" ledger add 3 XGG 1 XHH --sell --date 2024-11-18 >/dev/null

# The extreme coins: `/simple/price` and a daily `/market_chart` whose values cycle through
# numbers that need every digit, with two gap days. Ids with `-` need no `/search`.
cat >"$work/extreme.py" <<'PY'
import json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

VALUES = {
    "extreme-tiny": [3.3e-15, 1.2345678901234567e-10, 5e-12, 0.30000000000000004, 7e-9],
    "extreme-huge": [1e21, 7.000000000000001e22, 123456789012345680.0, 9007199254740993.0,
                     1.7976931348623157e25],
}
GAP_DAYS_AGO = {3, 4}  # no sample for these days: gaps, never filled in

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        parts = url.path.split("/")
        now = time.time()
        if url.path == "/api/v3/simple/price":
            answer = {}
            for coin in query.get("ids", "").split(","):
                if coin in VALUES:
                    answer[coin] = {}
                    for vs in query.get("vs_currencies", "").split(","):
                        answer[coin][vs] = VALUES[coin][0]
                        answer[coin][f"{vs}_24h_change"] = -1.2345678901234567e-7
                    answer[coin]["last_updated_at"] = int(now) - 30
            return self.reply(200, answer)
        if len(parts) == 6 and parts[3] == "coins" and parts[5] == "market_chart" \
                and parts[4] in VALUES:
            values, days = VALUES[parts[4]], int(query.get("days", "1"))
            today = int(now // 86400) * 86400
            prices = [[(today - ago * 86400) * 1000, values[ago % len(values)]]
                      for ago in range(days, 0, -1) if ago not in GAP_DAYS_AGO]
            prices.append([int(now * 1000), values[0]])
            return self.reply(200, {"prices": prices, "market_caps": prices,
                                    "total_volumes": prices})
        self.reply(404, {"error": "Not Found"})

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as f:
    f.write(f"{server.server_address[1]}\n")
server.serve_forever()
PY
python3 "$work/extreme.py" "$work/extreme.port" &
extreme=$!
trap 'kill $extreme $server 2>/dev/null; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/extreme.port" ] && break; sleep 0.1; done
extreme_url="http://127.0.0.1:$(cat "$work/extreme.port")/api/v3"
cases+=(
  "extreme-history-tiny|history extreme-tiny USD --days 12"
  "extreme-history-huge|history extreme-huge EUR --days 12"
  "extreme-current|current extreme-tiny extreme-huge --in USD,EUR"
)

for case in "${cases[@]}"; do
  name=${case%%|*}
  read -r -a args <<<"${case#*|}"
  url=$RATES_COINGECKO_URL
  [[ $name == extreme-* ]] && url=$extreme_url
  RATES_COINGECKO_URL=$url "$rates" "${args[@]}" --json >"$out/$name.json"
  for format in ledger beancount csv; do
    if [[ $name == *-hourly && $format == beancount ]]; then
      # Refused (exit 64): an empty file, which the comparison below skips.
      if "$rates" "${args[@]}" --format beancount >"$out/$name.$format" 2>/dev/null; then
        say "$name: beancount export of hourly prices was not refused"
        exit 1
      fi
      continue
    fi
    RATES_COINGECKO_URL=$url "$rates" "${args[@]}" --format "$format" >"$out/$name.$format"
  done
done
"$rates" ledger export --csv >"$out/ledger-export.csv"

# `rates portfolio --as-of` against hledger's and beancount's market value of the exported
# journal on three dates (its own ledger and fake API; see scripts/interop-portfolio.sh).
portfolio_status=0
RATES_BIN="$rates" scripts/interop-portfolio.sh "$venv/bin/python" || portfolio_status=$?

# --- Read back and compare ---------------------------------------------------------------
beancount2=""
"$venv2/bin/python" -c 'import beancount' 2>/dev/null && beancount2="$venv2/bin/python"
"$venv/bin/python" - "$out" "$venv/bin/bean-check" "$beancount2" <<'PY'
import csv, json, os, re, subprocess, sys
from collections import defaultdict

out, bean_check, beancount2 = sys.argv[1], sys.argv[2], sys.argv[3]
cases = sorted(f[:-5] for f in os.listdir(out) if f.endswith(".json"))
NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
figures = defaultdict(lambda: {"files": 0, "checked": 0, "mismatches": 0, "errors": 0})
problems = []

def expected_values(name, doc):
    """The values --json holds, in the order the exports write their directives."""
    if doc.get("interval") == "hourly":
        return [p["rate"] for p in doc["points"]]
    if "points" in doc:
        # Gap days (rate null) have no directive.
        return [p["rate"] for p in doc["points"] if not p["carried"] and p["rate"] is not None]
    if "quotes" in doc:
        return [q["rate"] for q in doc["quotes"]]
    if "entries" in doc:
        return [e["rate"] for e in reversed(doc["entries"]) if e.get("rate") is not None]
    raise SystemExit(f"{name}: unknown JSON document")

def unquote(name):
    return name.strip().strip('"')

def split_amount(text):
    match = NUMBER.search(text)
    return match.group(0), unquote(text[: match.start()] + text[match.end():])

def keyed(lines, pattern):
    """(date, base, quote) -> [numbers as text], from our own export."""
    result = []
    for line in lines:
        match = re.match(pattern, line)
        if not match:
            raise SystemExit(f"unreadable export line: {line!r}")
        date, base, number, quote = match.groups()
        result.append(((date, unquote(base), unquote(quote)), number))
    return result

def compare(tool, name, written, expected, read_back):
    """Each value the tool read back must equal the --json value of the same line."""
    want = defaultdict(list)
    for (key, _), value in zip(written, expected):
        want[key].append(value)
    got = defaultdict(list)
    for key, text in read_back:
        got[key].append(float(text))
    figure = figures[tool]
    figure["files"] += 1
    for key in set(want) | set(got):
        a, b = sorted(want[key]), sorted(got[key])
        figure["checked"] += len(b)
        if a != b:
            figure["mismatches"] += max(len(a), len(b))
            problems.append(f"{tool} {name} {key}: json {a} read back {b}")

def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)

for name in cases:
    doc = json.load(open(f"{out}/{name}.json"))
    expected = expected_values(name, doc)
    hourly = doc.get("interval") == "hourly"
    ledger_text = open(f"{out}/{name}.ledger").read()
    bean_path = f"{out}/{name}.beancount"
    ledger_lines = [l for l in ledger_text.splitlines() if l]
    bean_lines = [l for l in open(bean_path).read().splitlines() if l]
    if hourly:
        bean_lines = []  # refused: beancount prices have a date only
    if len(ledger_lines) != len(expected) or len(bean_lines) != len(expected) * (not hourly):
        problems.append(f"{name}: {len(expected)} JSON values, {len(ledger_lines)} ledger and "
                        f"{len(bean_lines)} beancount lines")
    written_ledger = keyed(
        ledger_lines, r'^P (\S+)(?: \d\d:\d\d:\d\d)? ("[^"]+"|\S+) (\S+) ("[^"]+"|\S+)$')
    written_bean = keyed(bean_lines, r"^(\S+) price (\S+) (\S+) (\S+)$")
    for (_, text), value in zip(written_ledger + written_bean, expected + expected * (not hourly)):
        figures["written text"]["checked"] += 1
        if float(text) != value or "e" in text.lower():
            figures["written text"]["mismatches"] += 1
            problems.append(f"{name}: wrote {text} for {value!r}")

    # hledger: the prices it parsed, each with its own digits.
    result = run(["hledger", "-f", f"{out}/{name}.ledger", "prices"])
    if result.returncode != 0:
        figures["hledger"]["errors"] += 1
        problems.append(f"hledger {name}: {result.stderr.strip()}")
    read = []
    for line in result.stdout.splitlines():
        match = re.match(r'^P (\S+) ("[^"]+"|\S+) (.+)$', line)
        number, quote = split_amount(match.group(3))
        read.append(((match.group(1), unquote(match.group(2)), quote), number))
    compare("hledger", name, written_ledger, expected, read)

    # ledger: pricedb lists the prices of commodities that have postings, so one
    # seed transaction holds one unit of each.
    bases = sorted({m.group(1) for m in re.finditer(r'^P \S+(?: \d\d:\d\d:\d\d)? ("[^"]+"|\S+)',
                                          ledger_text, re.M)})
    seed = f"{out}/{name}.seed.ledger"
    with open(seed, "w") as f:
        f.write("2000-01-01 seed\n" + "".join(f"    a    1 {b}\n" for b in bases) + "    b\n")
    result = run(["ledger", "-f", f"{out}/{name}.ledger", "-f", seed, "pricedb"])
    if result.returncode != 0 or result.stderr.strip():
        figures["ledger"]["errors"] += 1
        problems.append(f"ledger {name}: {result.stderr.strip()}")
    read = []
    for line in result.stdout.splitlines():
        match = re.match(r'^P (\S+) \S+ ("[^"]+"|\S+) (.+)$', line)
        number, quote = split_amount(match.group(3))
        read.append(((match.group(1).replace("/", "-"), unquote(match.group(2)), quote), number))
    compare("ledger", name, written_ledger, expected, read)

    if hourly:
        figures["hourly (time kept)"]["checked"] += sum(
            bool(re.match(r"^P \S+ \d\d:\d\d:\d\d ", l)) for l in ledger_lines)
        figures["hourly (time kept)"]["files"] += 1
    # beancount 3: bean-check, then the loader's Price entries (none for hourly prices).
    if not hourly:
        result = run([bean_check, bean_path])
        if result.returncode != 0:
            figures["beancount 3"]["errors"] += 1
            problems.append(f"bean-check {name}: {result.stdout.strip()} {result.stderr.strip()}")
    loader = (
        "import sys\nfrom beancount import loader\nfrom beancount.core import data\n"
        "entries, errors, _ = loader.load_file(sys.argv[1])\n"
        "for e in errors: print('ERROR', e.message, file=sys.stderr)\n"
        "for e in entries:\n"
        "    if isinstance(e, data.Price):\n"
        "        print(e.date, e.currency, e.amount.number, e.amount.currency)\n")
    for tool, python in [("beancount 3", sys.executable), ("beancount 2", beancount2)]:
        if not python or hourly:
            continue
        result = run([python, "-c", loader, bean_path])
        if result.returncode != 0 or "ERROR" in result.stderr:
            figures[tool]["errors"] += 1
            problems.append(f"{tool} {name}: {result.stderr.strip()}")
        read = []
        for line in result.stdout.splitlines():
            date, base, number, quote = line.split(" ")
            read.append(((date, base, quote), number))
        compare(tool, name, written_bean, expected, read)

    # CSV: every row's rate (and change) is the JSON value.
    rows = list(csv.DictReader(open(f"{out}/{name}.csv", newline="")))
    if hourly:
        points = {p["time"]: p["rate"] for p in doc["points"]}
        pairs = [(r["rate"], points.get(r["time"])) for r in rows]
        size = len(points)
    elif "points" in doc:
        # Gap days (rate null) have no row; match rows to points by date.
        points = {p["date"]: p["rate"] for p in doc["points"] if p["rate"] is not None}
        pairs = [(r["rate"], points.get(r["date"])) for r in rows]
        size = len(points)
        figures["gap days"]["checked"] += len(doc["points"]) - len(points)
    elif "quotes" in doc:
        pairs = [(r["rate"], q["rate"]) for r, q in zip(rows, doc["quotes"])]
        pairs += [(r["changePercent"], q["changePercent"]) for r, q in zip(rows, doc["quotes"])
                  if q["changePercent"] is not None]
        size = len(doc["quotes"])
    else:
        entries = list(reversed(doc["entries"]))
        pairs = [(r[c], e[k]) for r, e in zip(rows, entries)
                 for c, k in [("amount", "amount"), ("counter_amount", "counterAmount"),
                              ("rate", "rate")] if e.get(k) is not None]
        size = len(entries)
    figure = figures["csv"]
    figure["files"] += 1
    if len(rows) != size:
        figure["errors"] += 1
        problems.append(f"csv {name}: {len(rows)} rows for {size} values")
    for text, value in pairs:
        figure["checked"] += 1
        if float(text) != value or "e" in text.lower():
            figure["mismatches"] += 1
            problems.append(f"csv {name}: {text} for {value!r}")

# The escaped and shortened names README documents (CommodityNameTests checks that rates
# makes them; the hashed one only shows the shape): every tool must take them and keep them
# apart.
names = ["X'USD'2B", "X'X", "X''24", "X''5F", "X'1INCH", "X'A'20B", "X''C3'89",
         "WRAPPED-BITCOIN'1A2B3C4D", "ETHEREUM-WORMHOLE", "X'USD"]
with open(f"{out}/names.ledger", "w") as f:
    f.write("".join(f'P 2024-11-16 "{n}" {i + 1}.5 USD\n' for i, n in enumerate(names)))
    f.write("2000-01-01 seed\n" + "".join(f'    a    1 "{n}"\n' for n in names) + "    b\n")
with open(f"{out}/names.beancount", "w") as f:
    f.write("".join(f"2024-11-16 price {n} {i + 1}.5 USD\n" for i, n in enumerate(names)))
want = {n: f"{i + 1}.5" for i, n in enumerate(names)}
readers = {
    "hledger": (["hledger", "-f", f"{out}/names.ledger", "prices"], r'^P \S+ ("[^"]+"|\S+) (\S+)'),
    "ledger": (["ledger", "-f", f"{out}/names.ledger", "pricedb"], r'^P \S+ \S+ ("[^"]+"|\S+) USD(\S+)'),
}
loader_names = ("import sys\nfrom beancount import loader\nfrom beancount.core import data\n"
                "e, errs, _ = loader.load_file(sys.argv[1])\nassert not errs, errs\n"
                "[print('P x', p.currency, p.amount.number) for p in e if isinstance(p, data.Price)]\n")
for tool, python in [("beancount 3", sys.executable), ("beancount 2", beancount2)]:
    if python:
        readers[tool] = ([python, "-c", loader_names, f"{out}/names.beancount"], r"^P x (\S+) (\S+)")
for tool, (command, pattern) in readers.items():
    result = run(command)
    got = {unquote(m.group(1)): m.group(2) for m in
           (re.match(pattern, l) for l in result.stdout.splitlines()) if m}
    figures[tool]["checked"] += len(got)
    if result.returncode != 0 or got != want:
        figures[tool]["errors"] += 1
        problems.append(f"{tool} names: {result.stderr.strip()} read {got}")

# ledger export --csv against ledger list --json.
doc = json.load(open(f"{out}/ledger-list.json"))
rows = list(csv.DictReader(open(f"{out}/ledger-export.csv", newline="")))
for row, entry in zip(rows, reversed(doc["entries"])):
    for column, key in [("amount", "amount"), ("counter_amount", "counterAmount")]:
        figures["csv (ledger export)"]["checked"] += 1
        if float(row[column]) != entry[key]:
            figures["csv (ledger export)"]["mismatches"] += 1
            problems.append(f"ledger export: {row[column]} for {entry[key]!r}")

def version(command):
    try:
        return run(command).stdout.strip().splitlines()[0]
    except (OSError, IndexError):
        return "not installed"

versions = {
    "hledger": version(["hledger", "--version"]),
    "ledger": version(["ledger", "--version"]),
    "beancount 3": version([sys.executable, "-c", "import beancount; print(beancount.__version__)"]),
    "beancount 2": version([beancount2, "-c", "import beancount; print(beancount.__version__)"])
    if beancount2 else "not installed",
}
print(f"{'tool':<20} {'version':<50} {'files':>5} {'checked':>8} {'mismatches':>10} {'errors':>6}")
for tool in ["hledger", "ledger", "beancount 3", "beancount 2", "csv", "csv (ledger export)",
             "written text", "gap days", "hourly (time kept)"]:
    f = figures[tool] if tool in figures else None
    if f is None:
        print(f"{tool:<20} {versions.get(tool, '-'):<50} skipped")
        continue
    print(f"{tool:<20} {versions.get(tool, '-'):<50} {f['files']:>5} {f['checked']:>8} "
          f"{f['mismatches']:>10} {f['errors']:>6}")
for problem in problems[:40]:
    print("  " + problem)
sys.exit(1 if problems else 0)
PY
exit "$portfolio_status"

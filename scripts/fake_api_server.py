#!/usr/bin/env python3
"""Fake CoinGecko v3 and CoinDesk BPI v1 APIs for benchmarks and offline demos.

Standard library only. Mirrors Tests/RateCoreTests/Support/FakeProviders.swift
(same synthetic formulas; exact agreement is not guaranteed).

    python3 scripts/fake_api_server.py --port 0 --port-file /tmp/port
    RATES_COINGECKO_URL=http://127.0.0.1:$(cat /tmp/port)/api/v3 ...

CoinGecko lives under /api/v3 (/ping, /simple/price, /coins/{id}/market_chart,
/search), CoinDesk under /v1/bpi (/currentprice.json, /currentprice/{CODE}.json,
/historical/close.json). Control endpoints, not counted:
GET /__requests (API requests served so far, plain text), POST /__reset.

Values (all relative to the real clock unless --now is given):
  wave(key, x) = 1 + 0.04 sin(0.45x + p) + 0.015 sin(1.7x + 2p),
  p = 2 pi (fnv1a64(key) mod 10000) / 10000, x = Unix days (fractional).
  CoinGecko point at instant t: round(base(id, vs) * wave("id/vs", t/86400), 2);
  the "now" point and /simple/price give base(id, vs) itself.
  CoinDesk close of day D: round(BASE[CODE] * wave("coindesk/CODE", D), 4).
"""

import argparse
import datetime as dt
import json
import math
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote, urlsplit

DAY = 86400

GECKO_PRICES = {
    "bitcoin": {"eur": 61234.5, "usd": 66012.25, "gbp": 52000.75},
    "ethereum": {"eur": 3310.42, "usd": 3568.9, "gbp": 2810.3},
    "tether": {"eur": 0.9212, "usd": 0.9931, "gbp": 0.7858},
    "solana": {"eur": 152.31, "usd": 164.1902, "gbp": 129.9204},
    "ripple": {"eur": 0.4871, "usd": 0.5251, "gbp": 0.4155},
    "dogecoin": {"eur": 0.1432, "usd": 0.1544, "gbp": 0.1221},
    "cardano": {"eur": 0.4123, "usd": 0.4445, "gbp": 0.3517},
    "tron": {"eur": 0.1121, "usd": 0.1208, "gbp": 0.0956},
    "chainlink": {"eur": 15.42, "usd": 16.6228, "gbp": 13.1533},
    "polkadot": {"eur": 6.51, "usd": 7.0178, "gbp": 5.553},
    "litecoin": {"eur": 77.8, "usd": 83.8684, "gbp": 66.3634},
    "bitcoin-cash": {"eur": 410.2, "usd": 442.1956, "gbp": 349.9006},
    "uniswap": {"eur": 9.12, "usd": 9.8314, "gbp": 7.7794},
    "near": {"eur": 5.43, "usd": 5.8535, "gbp": 4.6318},
    "stellar": {"eur": 0.0981, "usd": 0.1058, "gbp": 0.0837},
    "monero": {"eur": 151.3, "usd": 163.1014, "gbp": 129.0589},
    "cosmos": {"eur": 7.41, "usd": 7.988, "gbp": 6.3207},
}
# CoinGecko also prices coins in BTC and ETH: derive those from the USD prices.
for _table in GECKO_PRICES.values():
    _table["btc"] = round(_table["usd"] / GECKO_PRICES["bitcoin"]["usd"], 10)
    _table["eth"] = round(_table["usd"] / GECKO_PRICES["ethereum"]["usd"], 10)
SUPPLY = {"bitcoin": 19_700_000, "ethereum": 120_100_000}
COINS = [  # id, name, symbol, rank (None = unranked)
    ("bitcoin", "Bitcoin", "BTC", 1),
    ("ethereum", "Ethereum", "ETH", 2),
    ("tether", "Tether", "USDT", 3),
    ("solana", "Solana", "SOL", 5),
    ("ripple", "XRP", "XRP", 6),
    ("dogecoin", "Dogecoin", "DOGE", 8),
    ("cardano", "Cardano", "ADA", 9),
    ("tron", "TRON", "TRX", 10),
    ("chainlink", "Chainlink", "LINK", 12),
    ("polkadot", "Polkadot", "DOT", 14),
    ("litecoin", "Litecoin", "LTC", 20),
    ("bitcoin-cash", "Bitcoin Cash", "BCH", 21),
    ("uniswap", "Uniswap", "UNI", 22),
    ("near", "NEAR Protocol", "NEAR", 23),
    ("stellar", "Stellar", "XLM", 25),
    ("monero", "Monero", "XMR", 28),
    ("cosmos", "Cosmos Hub", "ATOM", 30),
    ("evil-coin", "Evil\x1b[31mCoin", "EVIL", 4242),
    ("ethereum-wormhole", "Ethereum (Wormhole)", "ETH", None),
]
DESK_BASE = {
    "USD": 66020.1234, "EUR": 61240.5678, "GBP": 52010.4321,
    "CHF": 59000.25, "JPY": 10350000.5, "CNY": 478000.75,
}
DESK_NAMES = {
    "USD": "United States Dollar", "EUR": "Euro", "GBP": "British Pound Sterling",
    "CHF": "Swiss Franc", "JPY": "Japanese Yen", "CNY": "Chinese Yuan Renminbi",
}
DESK_SYMBOLS = {"USD": "&#36;", "GBP": "&pound;", "EUR": "&euro;"}
DESK_DISCLAIMER = (
    "This data was produced from the CoinDesk Bitcoin Price Index (USD). Non-USD currency data "
    "converted using hourly conversion rate from openexchangerates.org"
)
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
EARLIEST = dt.date(2010, 7, 17)


def fnv1a(text):
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def wave(key, x):
    phase = (fnv1a(key) % 10000) / 10000 * 2 * math.pi
    return 1 + 0.04 * math.sin(x * 0.45 + phase) + 0.015 * math.sin(x * 1.7 + 2 * phase)


def gecko_base(coin, vs):
    price = GECKO_PRICES.get(coin, {}).get(vs)
    if price is not None:
        return price
    return 10 + (fnv1a(f"{coin}/{vs}") % 100000) / 100


def gecko_value(coin, vs, seconds):
    return round(gecko_base(coin, vs) * wave(f"{coin}/{vs}", seconds / DAY), 2)


def desk_value(code, day):
    ordinal = (day - dt.date(1970, 1, 1)).days
    return round(DESK_BASE[code] * wave(f"coindesk/{code}", ordinal), 4)


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"))


class Counter:
    def __init__(self):
        self.lock = threading.Lock()
        self.count = 0

    def increment(self):
        with self.lock:
            self.count += 1

    def reset(self):
        with self.lock:
            self.count = 0

    def value(self):
        with self.lock:
            return self.count


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as URLSession expects
    server_version = "FakeAPI/1"
    sys_version = ""

    def log_message(self, format, *args):  # quiet
        if self.server.verbose:
            sys.stderr.write("%s %s\n" % (self.address_string(), format % args))

    # -- plumbing -----------------------------------------------------------

    def reply(self, status, body, content_type="application/json; charset=utf-8", headers=None):
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def text(self, status, body):
        self.reply(status, body, "text/plain; charset=utf-8")

    def now(self):
        return self.server.fixed_now if self.server.fixed_now is not None else time.time()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if urlsplit(self.path).path == "/__reset":
            self.server.counter.reset()
            self.text(200, "0")
        else:
            self.text(405, "method not allowed")

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        if path == "/__requests":
            self.text(200, str(self.server.counter.value()))
            return
        self.server.counter.increment()
        if self.server.delay:
            time.sleep(self.server.delay)
        now = self.now()
        if path.startswith("/api/v3/"):
            self.coingecko(path[len("/api/v3"):], query, now)
        elif path.startswith("/v1/bpi/"):
            self.coindesk(path[len("/v1/bpi"):], query, now)
        elif path.startswith("/frankfurter/"):
            self.frankfurter(path[len("/frankfurter/"):], query, now)
        else:
            self.text(404, "fake_api_server: unknown path %s" % path)

    # -- Frankfurter (ECB reference rates) ----------------------------------
    # Mirrors Tests/RateCoreTests/Support/FakeFrankfurter.swift under /frankfurter:
    # /latest (/current), /YYYY-MM-DD, /START..END, /START.., /currencies, with
    # from (base), to (symbols) and amount. Working days: Monday to Friday except
    # 1 Jan and 25-26 Dec; data from 1999-01-04. EUR figure of code C on day D, taken
    # from W = the last working day <= D:
    #   v = FX_EUR[C] * (1 + (wave("frankfurter/C", W in Unix days) - 1) / 4),
    #   rounded to 2 decimals if v >= 100, 3 if v >= 10, else 4.
    # Other bases or amounts: amount * eur(quote) / eur(base), rounded by size as in
    # apis.md 3.3. Errors: 404 {"message":"not found"}, 422 bad currency pair,
    # invalid date, invalid amount.

    FX_EUR = {
        "AUD": 1.6289, "BGN": 1.9558, "BRL": 5.7812, "CAD": 1.4798, "CHF": 0.9717,
        "CNY": 7.8456, "CZK": 24.712, "DKK": 7.4589, "EUR": 1.0, "GBP": 0.8495,
        "HKD": 8.5032, "HUF": 392.48, "IDR": 17636.2, "ILS": 4.0321, "INR": 90.875,
        "ISK": 150.3, "JPY": 170.1, "KRW": 1490.1, "MXN": 19.861, "MYR": 5.1105,
        "NOK": 11.6825, "NZD": 1.7664, "PHP": 63.802, "PLN": 4.3265, "RON": 4.9765,
        "SEK": 11.3, "SGD": 1.4695, "THB": 39.872, "TRY": 35.158, "USD": 1.0889,
        "ZAR": 20.321,
    }
    FX_NAMES = {
        "AUD": "Australian Dollar", "BGN": "Bulgarian Lev", "BRL": "Brazilian Real",
        "CAD": "Canadian Dollar", "CHF": "Swiss Franc", "CNY": "Chinese Renminbi Yuan",
        "CZK": "Czech Koruna", "DKK": "Danish Krone", "EUR": "Euro", "GBP": "British Pound",
        "HKD": "Hong Kong Dollar", "HUF": "Hungarian Forint", "IDR": "Indonesian Rupiah",
        "ILS": "Israeli New Sheqel", "INR": "Indian Rupee", "ISK": "Icelandic Króna",
        "JPY": "Japanese Yen", "KRW": "South Korean Won", "MXN": "Mexican Peso",
        "MYR": "Malaysian Ringgit", "NOK": "Norwegian Krone", "NZD": "New Zealand Dollar",
        "PHP": "Philippine Peso", "PLN": "Polish Złoty", "RON": "Romanian Leu",
        "SEK": "Swedish Krona", "SGD": "Singapore Dollar", "THB": "Thai Baht",
        "TRY": "Turkish Lira", "USD": "United States Dollar", "ZAR": "South African Rand",
    }
    FX_EARLIEST = dt.date(1999, 1, 4)

    @staticmethod
    def fx_round(value, places):
        # Half away from zero, like Swift's rounded(), not Python's round-half-even.
        scale = 10 ** places
        return math.copysign(math.floor(abs(value) * scale + 0.5), value) / scale

    @staticmethod
    def fx_working(day):
        return day.weekday() < 5 and (day.month, day.day) not in ((1, 1), (12, 25), (12, 26))

    @classmethod
    def fx_on_or_before(cls, day):
        while not cls.fx_working(day):
            day -= dt.timedelta(days=1)
        return day

    @classmethod
    def fx_eur(cls, code, day):
        if code == "EUR":
            return 1.0
        published = cls.fx_on_or_before(day)
        ordinal = (published - dt.date(1970, 1, 1)).days
        value = cls.FX_EUR[code] * (1 + (wave(f"frankfurter/{code}", ordinal) - 1) / 4)
        return cls.fx_round(value, 2 if value >= 100 else 3 if value >= 10 else 4)

    @classmethod
    def fx_rate(cls, base, quote, day, amount):
        if base == "EUR" and amount == 1:
            return cls.fx_eur(quote, day)
        value = amount * cls.fx_eur(quote, day) / cls.fx_eur(base, day)
        size = abs(value)
        places = (0 if size > 5000 else 2 if size > 80 else 3 if size > 20 else 4 if size > 1
                  else 5 if size > 0.0001 else 6)
        return cls.fx_round(value, places)

    @staticmethod
    def fx_day(text):
        if len(text) != 10 or text[4] != "-" or text[7] != "-":
            return None
        try:
            return dt.date.fromisoformat(text)
        except ValueError:
            return None

    def frankfurter(self, path, query, now):
        def message(status, text):
            self.reply(status, dumps({"message": text}))

        today = dt.datetime.fromtimestamp(now, dt.timezone.utc).date()
        if path == "currencies":
            names = dict(sorted(self.FX_NAMES.items()))
            self.reply(200, json.dumps(names, separators=(",", ":"), ensure_ascii=False))
            return
        if path in ("latest", "current"):
            start, end, single = today, None, True
        elif ".." in path:
            start_text, end_text = path.split("..", 1)
            start = self.fx_day(start_text)
            end = self.fx_day(end_text) if end_text else today
            if start is None or end is None:
                message(422, "invalid date")
                return
            single = False
        elif path[:1].isdigit():
            start, end, single = self.fx_day(path), None, True
            if start is None:
                message(422, "invalid date")
                return
        else:
            message(404, "not found")
            return
        base = (query.get("from") or query.get("base") or "EUR").upper()
        if base not in self.FX_EUR:
            message(404, "not found")
            return
        amount = 1.0
        if "amount" in query:
            try:
                amount = float(query["amount"])
            except ValueError:
                amount = -1.0
            if not math.isfinite(amount) or amount <= 0:
                message(422, "invalid amount")
                return
        listed = query.get("to", query.get("symbols"))
        if listed is not None:
            listed = [c.strip().upper() for c in listed.split(",") if c.strip()]
            if any(c not in self.FX_EUR for c in listed):
                message(404, "not found")
                return
            if listed and all(c == base for c in listed):
                message(422, "bad currency pair")
                return
        quotes = sorted(set(self.FX_EUR if listed is None else listed) - {base})

        def rates(day):
            return {q: self.fx_rate(base, q, day, amount) for q in quotes}

        if single:
            day = self.fx_on_or_before(min(start, today))
            if day < self.FX_EARLIEST:
                message(404, "not found")
                return
            self.reply(200, dumps({"amount": amount, "base": base, "date": day.isoformat(),
                                   "rates": rates(day)}))
            return
        first = self.fx_on_or_before(max(start, self.FX_EARLIEST))
        last = min(end, today)
        days = []
        day = first
        while day <= last:
            if self.fx_working(day):
                days.append(day)
            day += dt.timedelta(days=1)
        if not days:
            message(404, "not found")
            return
        self.reply(200, dumps({
            "amount": amount, "base": base, "start_date": first.isoformat(),
            "end_date": days[-1].isoformat(),
            "rates": {d.isoformat(): rates(d) for d in days},
        }))

    # -- CoinGecko ----------------------------------------------------------

    def coingecko(self, path, query, now):
        segments = [s for s in path.split("/") if s]
        if segments == ["ping"]:
            self.reply(200, dumps({"gecko_says": "(V3) To the Moon!"}))
        elif segments == ["simple", "price"]:
            self.simple_price(query, now)
        elif segments == ["search"]:
            self.search(query.get("query", ""))
        elif segments == ["coins", "markets"]:
            self.markets(query, now)
        elif len(segments) == 3 and segments[0] == "coins" and segments[2] == "market_chart":
            self.market_chart(segments[1], query, now)
        else:
            self.reply(404, dumps({"error": "Not Found"}))

    def simple_price(self, query, now):
        ids = [s.strip().lower() for s in query.get("ids", "").split(",") if s.strip()]
        vs_list = [s.strip().lower() for s in query.get("vs_currencies", "").split(",") if s.strip()]
        known = {vs for table in GECKO_PRICES.values() for vs in table}
        if not vs_list:
            self.reply(400, dumps({"error": "Missing parameter vs_currencies"}))
            return
        if any(vs not in known for vs in vs_list):
            self.reply(400, dumps({"error": "invalid vs_currency"}))
            return
        flag = lambda name: query.get(name, "").lower() == "true"
        result = {}
        for coin in ids:
            if coin not in GECKO_PRICES or coin in result:
                continue
            entry = {}
            for vs in vs_list:
                price = gecko_base(coin, vs)
                entry[vs] = price
                if flag("include_market_cap"):
                    entry[vs + "_market_cap"] = price * SUPPLY.get(coin, 1e9)
                if flag("include_24hr_vol"):
                    entry[vs + "_24h_vol"] = round(price * SUPPLY.get(coin, 1e9) * 0.025, 2)
                if flag("include_24hr_change"):
                    then = gecko_value(coin, vs, now - DAY)
                    entry[vs + "_24h_change"] = round((price / then - 1) * 100, 4)
            if flag("include_last_updated_at"):
                seconds = int(now)
                entry["last_updated_at"] = seconds - seconds % 20
            result[coin] = entry
        self.reply(200, dumps(result))

    def markets(self, query, now):
        vs = query.get("vs_currency", "").lower()
        if vs not in {v for table in GECKO_PRICES.values() for v in table}:
            self.reply(400, dumps({"error": "invalid vs_currency"}))
            return
        wanted = {s.strip().lower() for s in query.get("ids", "").split(",") if s.strip()} or None
        per_page = max(1, min(250, int(query.get("per_page", "100") or 100)))
        page = max(1, int(query.get("page", "1") or 1))
        coins = [c for c in COINS if c[0] in GECKO_PRICES and (wanted is None or c[0] in wanted)]
        coins.sort(key=lambda c: c[3] if c[3] is not None else 1 << 30)
        stamp = dt.datetime.fromtimestamp(now, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        rows = []
        for coin, name, symbol, rank in coins[(page - 1) * per_page:page * per_page]:
            price = gecko_base(coin, vs)
            supply = SUPPLY.get(coin, 1e9)
            then = gecko_value(coin, vs, now - DAY)
            row = {
                "id": coin, "symbol": symbol.lower(), "name": name, "image": "missing_large.png",
                "current_price": price, "market_cap": round(price * supply, 1), "market_cap_rank": rank,
                "fully_diluted_valuation": None, "total_volume": round(price * supply * 0.025, 1),
                "high_24h": round(price * 1.02, 6), "low_24h": round(price * 0.97, 6),
                "price_change_24h": None, "price_change_percentage_24h": round((price / then - 1) * 100, 4),
                "circulating_supply": supply, "total_supply": supply,
                "max_supply": 21000000.0 if coin == "bitcoin" else None,
                "ath": round(price * 1.5, 6), "ath_change_percentage": -33.3333,
                "ath_date": "2024-03-14T07:10:36.635Z", "atl": round(price * 0.01, 8),
                "atl_change_percentage": 9900.0, "atl_date": "2015-10-20T00:00:00.000Z",
                "roi": None, "last_updated": stamp,
            }
            if query.get("sparkline", "").lower() == "true":
                row["sparkline_in_7d"] = {
                    "price": [gecko_value(coin, vs, now - (168 - h) * 3600) for h in range(168)]}
            rows.append(row)
        self.reply(200, dumps(rows))

    def market_chart(self, coin, query, now):
        if coin not in GECKO_PRICES:
            self.reply(404, dumps({"error": "coin not found"}))
            return
        vs = query.get("vs_currency", "").lower()
        if vs not in {v for table in GECKO_PRICES.values() for v in table}:
            self.reply(400, dumps({"error": "invalid vs_currency"}))
            return
        days_text = query.get("days", "")
        if days_text == "max" or (days_text.isdigit() and int(days_text) > 365):
            stamp = dt.datetime.fromtimestamp(now, dt.timezone.utc).isoformat(timespec="milliseconds")
            self.reply(401, dumps({"error": {"status": {
                "timestamp": stamp, "error_code": 10012,
                "error_message": "Your request exceeds the allowed time range. Public API users "
                "are limited to querying historical data within the past 365 days. Upgrade to a "
                "paid plan to enjoy full historical data access: "
                "https://www.coingecko.com/en/api/pricing. "}}}))
            return
        if not days_text.isdigit() or int(days_text) < 1:
            self.reply(400, dumps({"error": "fake_api_server: days must be a positive integer"}))
            return
        days = int(days_text)
        points = []
        if query.get("interval") == "daily" or days > 90:
            today = int(now // DAY)
            for offset in range(days - 1, -1, -1):
                midnight = (today - offset) * DAY
                points.append((midnight * 1000, gecko_value(coin, vs, midnight)))
        else:
            step = 300 if days == 1 else 3600
            for index in range(days * DAY // step, 0, -1):
                nominal = now - index * step
                jitter = ((fnv1a(str(int(nominal // step))) % 40000) - 20000) / 1000
                stamp = nominal + jitter
                points.append((int(stamp * 1000), gecko_value(coin, vs, stamp)))
        points.append((int(now * 1000), gecko_base(coin, vs)))
        supply = SUPPLY.get(coin, 1e9)
        self.reply(200, dumps({
            "prices": [[t, v] for t, v in points],
            "market_caps": [[t, round(v * supply, 1)] for t, v in points],
            "total_volumes": [[t, round(v * supply * 0.025, 1)] for t, v in points],
        }))

    def search(self, text):
        needle = text.strip().lower()
        matches = []
        if needle:
            matches = [c for c in COINS if any(needle in f.lower() for f in c[:3])]
            matches.sort(key=lambda c: (c[3] is None, c[3] or 0))
        coins = [{
            "id": cid, "name": name, "api_symbol": cid, "symbol": symbol, "market_cap_rank": rank,
            "thumb": f"https://coin-images.coingecko.com/coins/images/1/thumb/{cid}.png",
            "large": f"https://coin-images.coingecko.com/coins/images/1/large/{cid}.png",
        } for cid, name, symbol, rank in matches]
        self.reply(200, dumps({"coins": coins, "exchanges": [], "icos": [], "categories": [], "nfts": []}))

    # -- CoinDesk -----------------------------------------------------------

    def coindesk(self, path, query, now):
        if path == "/currentprice.json":
            self.reply(200, dumps(self.current_price(["USD", "GBP", "EUR"], now, full=True)))
        elif path.startswith("/currentprice/") and path.endswith(".json"):
            code = path[len("/currentprice/"):-len(".json")].upper()
            if code not in DESK_BASE:
                self.text(404, "Sorry, that currency was not found")
                return
            codes = ["USD"] if code == "USD" else ["USD", code]
            self.reply(200, dumps(self.current_price(codes, now, full=False)))
        elif path == "/historical/close.json":
            self.historical(query, now)
        else:
            self.text(404, "fake_api_server: unknown path /v1/bpi%s" % path)

    @staticmethod
    def bpi_time(seconds, uk):
        moment = dt.datetime.fromtimestamp(seconds, dt.timezone.utc)
        time_part = {
            "updated": f"{MONTHS[moment.month - 1]} {moment.day}, {moment.year} "
            f"{moment:%H:%M:%S} UTC",
            "updatedISO": moment.strftime("%Y-%m-%dT%H:%M:%S+00:00"),
        }
        if uk:
            summer = is_bst(moment)
            local = moment + dt.timedelta(hours=1 if summer else 0)
            time_part["updateduk"] = (f"{MONTHS[local.month - 1]} {local.day}, {local.year} at "
                                      f"{local:%H:%M} {'BST' if summer else 'GMT'}")
        return time_part

    def current_price(self, codes, now, full):
        bpi = {}
        for code in codes:
            value = DESK_BASE[code]
            entry = {"code": code}
            if full:
                entry["symbol"] = DESK_SYMBOLS.get(code, code)
            entry["rate"] = f"{value:,.4f}"
            entry["description"] = DESK_NAMES[code]
            entry["rate_float"] = value
            bpi[code] = entry
        body = {"time": self.bpi_time(now - now % 60, uk=True), "disclaimer": DESK_DISCLAIMER}
        if full:
            body["chartName"] = "Bitcoin"
        body["bpi"] = bpi
        return body

    def historical(self, query, now):
        code = query.get("currency", "USD").upper()
        if code not in DESK_BASE:
            self.text(404, "Sorry, that currency was not found")
            return
        today = dt.datetime.fromtimestamp(now, dt.timezone.utc).date()
        yesterday = today - dt.timedelta(days=1)
        start, end = today - dt.timedelta(days=31), yesterday
        if query.get("for") == "yesterday":
            start = yesterday
        elif "start" in query or "end" in query:
            try:
                start = dt.date.fromisoformat(query["start"])
                end = dt.date.fromisoformat(query["end"])
            except (KeyError, ValueError):
                self.text(400, "fake_api_server: give start and end as YYYY-MM-DD, or neither")
                return
        if start < EARLIEST:
            self.text(404, "Sorry, the CoinDesk BPI only covers data from 2010-07-17 onwards.")
            return
        if end < start or start > today:
            self.text(404, "Sorry, but your specified end date is before your start date.")
            return
        end = min(end, yesterday)
        if start > end:
            self.reply(200, "{}")
            return
        bpi = {}
        day = end
        while day >= start:  # newest first: clients must sort the keys
            bpi[day.isoformat()] = desk_value(code, day)
            day -= dt.timedelta(days=1)
        midnight = (now // DAY) * DAY
        self.reply(200, dumps({
            "bpi": bpi,
            "disclaimer": "This data was produced from the CoinDesk Bitcoin Price Index. "
            f"BPI value data returned as {code}.",
            "time": self.bpi_time(midnight + 180, uk=False),
        }))


def is_bst(moment):
    def last_sunday(month):
        day = dt.date(moment.year, month, 31)
        while day.weekday() != 6:
            day -= dt.timedelta(days=1)
        return dt.datetime(day.year, day.month, day.day, 1, tzinfo=dt.timezone.utc)
    return last_sunday(3) <= moment < last_sunday(10)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 lets the kernel choose")
    parser.add_argument("--port-file", help="write the chosen port here (atomically)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds of latency per API request")
    parser.add_argument("--now", type=float, help="fixed clock, Unix seconds (default: real time)")
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = parser.parse_args()

    server = Server((args.host, args.port), Handler)
    server.counter = Counter()
    server.delay = args.delay
    server.fixed_now = args.now
    server.verbose = args.verbose
    port = server.server_address[1]
    if args.port_file:
        temporary = args.port_file + ".tmp"
        with open(temporary, "w") as handle:
            handle.write(f"{port}\n")
        os.replace(temporary, args.port_file)

    def request_stop(signum, frame):
        # shutdown() waits for serve_forever() to return, so call it from another thread.
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

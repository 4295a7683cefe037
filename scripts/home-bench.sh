#!/usr/bin/env bash
# Figures for the home screen (`rates ui`, release build) against fake-api, the tests'
# fake APIs, on a pseudo-terminal of 160 x 48 (the market table with every column) driven
# by a small Python program:
#
# - key press to frame written, for a list of 100 rows (20 of your coins): `j`, `k`,
#   PageDown/PageUp and the sort keys `D`/`M` typed KEYS times
#   (default 200), 20 ms apart. Two measures: inside the process (RATES_HOME_TRACE: from
#   the key read to the frame's write) and round trip on the terminal (from writing the
#   key to reading the frame's end); median, 95th percentile and worst of each.
# - CPU while idle on the home screen over MINUTES (default 5): user + system time from
#   /proc/PID/stat, as a share of one core. It includes the default refreshes (every
#   60 s) and their parsing, but no network waits (the fake API is local).
# - requests per minute at the default refresh over the same minutes, counted by the
#   fake API.
#
# usage: scripts/home-bench.sh [MINUTES] [KEYS]   (defaults 5 and 200; MINUTES may be 0.5)
# Not run by the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-5}
keys=${2:-200}

# shellcheck source=scripts/release-build.sh
source scripts/release-build.sh
release_build

FAKE_API=$(dirname "$bin")/fake-api
# shellcheck source=scripts/fake-env.sh
source scripts/fake-env.sh
unset NO_COLOR
export TERM=${TERM:-xterm-256color}
[ "$TERM" = dumb ] && export TERM=xterm-256color

# 100 rows: 20 coins of yours, 75 pairs and the fake's top coins that are not yours (5).
mkdir -p "$XDG_DATA_HOME/rates"
python3 - "$XDG_DATA_HOME/rates" <<'EOF'
import json, sys, os
data = sys.argv[1]
coins = ["ripple", "dogecoin", "cardano", "tron", "chainlink", "polkadot", "litecoin",
         "bitcoin-cash", "stellar", "monero", "cosmos", "uniswap", "near", "aptos", "filecoin",
         "algorand", "tezos", "zcash", "dash", "aave"]
stamp = "2026-01-01T00:00:00Z"
with open(os.path.join(data, "coins.json"), "w") as f:
    json.dump({"version": 1, "coins": [{"id": c, "symbol": c[:4].upper(), "addedAt": stamp} for c in coins]}, f)
ecb = ["AUD", "BGN", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "HKD", "HUF", "IDR", "ILS", "INR",
       "ISK", "JPY", "KRW", "MXN", "MYR", "NOK", "NZD", "PHP", "PLN", "RON", "SEK", "SGD", "THB",
       "TRY", "ZAR"]
pairs = [(b, q) for b in ["EUR", "GBP", "USD"] for q in ecb][:75]
with open(os.path.join(data, "pairs.json"), "w") as f:
    json.dump({"version": 1, "pairs": [{"base": b, "quote": q, "addedAt": stamp} for b, q in pairs]}, f)
EOF

trace="$work/trace"
export RATES_HOME_TRACE="$trace"
python3 - "$bin" "$base" "$trace" "$keys" "$minutes" <<'EOF'
import fcntl, os, pty, select, statistics, struct, sys, termios, time, urllib.request

binary, base, trace, keys, minutes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])

pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 48, 160, 0, 0))
    os.execv(binary, [binary, "ui"])

seen = bytearray()
def read_for(seconds, until=None):
    """Reads the terminal for up to `seconds`; stops early once `until` shows in new output."""
    deadline = time.monotonic() + seconds
    fresh = bytearray()
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return fresh, False
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return fresh, False
            if not chunk:
                return fresh, False
            fresh += chunk
            seen.extend(chunk)
            if until is not None and until in fresh:
                return fresh, True

def fail(message):
    print(message, file=sys.stderr)
    os.kill(pid, 9)
    sys.exit(1)

_, ok = read_for(60, b"Bitcoin")
if not ok:
    fail("the list never showed: " + seen[-2000:].decode(errors="replace"))
read_for(3)  # the fresh load lands

def fetch(path, method="GET"):
    return urllib.request.urlopen(urllib.request.Request(base + path, method=method)).read().decode()

# Key press to frame.
open(trace, "w").close()
round_trips = []
missed = 0
for i in range(keys):
    cycle = [b"j", b"j", b"\x1b[6~", b"D", b"k", b"\x1b[5~", b"M", b"k", b"#"]
    key = cycle[i % len(cycle)]
    start = time.perf_counter()
    os.write(fd, key)
    _, ok = read_for(2, b"\x1b[J")
    if ok:
        round_trips.append((time.perf_counter() - start) * 1000)
    else:
        missed += 1
    time.sleep(0.02)
read_for(0.5)
inside = [int(line.split()[1]) / 1000 for line in open(trace) if line.startswith("key_to_frame_us")]

def summary(values):
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return "median %.2f ms, p95 %.2f ms, worst %.2f ms (%d frames)" % (
        statistics.median(ordered), p95, ordered[-1], len(ordered))

print("rows                  100 (20 coins, 75 pairs, 5 top), window 160x48")
print("key to frame, inside  " + summary(inside))
print("key to frame, pty     " + summary(round_trips) + ("" if not missed else ", %d keys without a frame" % missed))

# Idle.
def ticks():
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime
hz = os.sysconf("SC_CLK_TCK")
fetch("/__reset", "POST")
before, began = ticks(), time.monotonic()
read_for(minutes * 60)
after, wall = ticks(), time.monotonic() - began
requests = int(fetch("/__requests").strip() or 0)
print("idle CPU              %.3f %% of a core over %.1f min (user+sys %.2f s)" % (
    (after - before) / hz / wall * 100, wall / 60, (after - before) / hz))
print("requests              %d in %.1f min: %.2f per minute" % (requests, wall / 60, requests / wall * 60))

os.write(fd, b"q")
read_for(5)
_, status = os.waitpid(pid, 0)
print("exit status           %d" % os.waitstatus_to_exitcode(status))
EOF

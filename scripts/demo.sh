#!/usr/bin/env bash
# Runs every command of README's "Quickstart" and "Try every command without network"
# blocks, read from README.md itself (`watch` with `--every 1s`), with a built `rates`
# against `fake-api` (through scripts/fake-env.sh): each must exit 0 and print something on
# stdout, and `rates top --limit 10` must list at least ten coins (an optimizer-only defect
# once left it empty). CI runs it with the release binary, so what ships is what is checked.
#
# usage: scripts/demo.sh [RATES_BINARY [FAKE_API_BINARY]]
#   default: builds both in release mode (swift build -c release)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ge 1 ]; then
  rates_bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  FAKE_API=${2:-$(dirname "$rates_bin")/fake-api}
else
  echo "demo: building rates and fake-api (release)…" >&2
  swift build -c release --product rates >/dev/null
  swift build -c release --product fake-api >/dev/null
  rates_bin="$(swift build -c release --show-bin-path)/rates"
  FAKE_API="$(swift build -c release --show-bin-path)/fake-api"
fi
[ -x "$rates_bin" ] || { echo "demo: no executable at $rates_bin" >&2; exit 66; }
[ -x "$FAKE_API" ] || { echo "demo: no executable at $FAKE_API" >&2; exit 66; }
export FAKE_API

# The commands, one per line: README's two blocks, without `source`, `exit` and comments,
# split at `;`.
commands=$(python3 - <<'PY'
import re
text = open("README.md", encoding="utf-8").read()
lines = []
for heading in ("## Quickstart", "### Try every command without network"):
    block = re.search(re.escape(heading) + r"\n.*?```sh\n(.*?)```", text, re.S)
    if not block:
        raise SystemExit(f"README.md has no sh block under {heading!r}")
    for line in block.group(1).splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        for command in (part.strip() for part in line.split(";")):
            if command and not command.startswith(("source ", "exit", "#")):
                lines.append(command)
print("\n".join(lines))
PY
)

# shellcheck source=scripts/fake-env.sh
source scripts/fake-env.sh
shims="$work/shims"
mkdir -p "$shims"
ln -s "$rates_bin" "$shims/rates"
if ! command -v jq >/dev/null 2>&1; then
  # Without jq, a stand-in that checks the JSON parses and passes it through.
  printf '#!/bin/sh\nexec python3 -c "import json,sys; print(json.dumps(json.load(sys.stdin)))"\n' \
    >"$shims/jq"
  chmod +x "$shims/jq"
fi
export PATH="$shims:$PATH" RATES_WATCH_FLOOR=1

failed=0
count=0
while IFS= read -r command; do
  count=$((count + 1))
  out="$work/out" err="$work/err"
  # `watch` waits its interval (60 s by default) between updates: the demo checks it with
  # the shortest one (RATES_WATCH_FLOOR=1) rather than spend a minute of CI waiting.
  if [[ "$command" == "rates watch"* && "$command" != *"--every"* ]]; then
    command="$command --every 1s"
  fi
  if bash -o pipefail -c "$command" >"$out" 2>"$err" </dev/null && [ -s "$out" ]; then
    status=ok
  else
    status=FAIL
  fi
  if [[ "$command" == "rates top --limit 10"* ]] && [ "$(grep -c . "$out")" -lt 11 ]; then
    status=FAIL
  fi
  printf '%-4s %s\n' "$status" "$command"
  if [ "$status" = FAIL ]; then
    failed=$((failed + 1))
    sed 's/^/     out: /' "$out" | head -20
    sed 's/^/     err: /' "$err" | head -20
  fi
done <<<"$commands"

echo "demo: $((count - failed)) of $count commands passed with $rates_bin"
[ "$failed" = 0 ]

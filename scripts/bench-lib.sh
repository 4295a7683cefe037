# Sourced by the benchmark scripts from the repository root, after setting $runs: builds the
# release `rates` and `fake-api` (unless RATES_BIN names a binary to measure, with its
# fake-api beside it or in FAKE_API), sets $bin, starts fake-api through scripts/fake-env.sh,
# and defines `median_ms SETUP COMMAND...`: COMMAND run $runs times, SETUP (a shell snippet,
# ":" for none) before each, its output discarded; prints the median wall time in ms.
if [ -z "${RATES_BIN:-}" ]; then
  swift build -c release --product rates >/dev/null
  swift build -c release --product fake-api >/dev/null
  RATES_BIN=$(swift build -c release --show-bin-path)/rates
fi
bin=$RATES_BIN
FAKE_API=${FAKE_API:-$(dirname "$bin")/fake-api}
# shellcheck source=scripts/fake-env.sh
source scripts/fake-env.sh

median_ms() {
  local setup=$1; shift
  local times=()
  for _ in $(seq "$runs"); do
    eval "$setup"
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}'
}

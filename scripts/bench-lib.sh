# Sourced by the benchmark scripts (after scripts/fake-env.sh): `median_ms SETUP COMMAND...`
# runs COMMAND $runs times, SETUP (a shell snippet, ":" for none) before each, its output
# discarded, and prints the median wall time in ms with one decimal.
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

# Sourced by the benchmark scripts: `release_build [swift build options]` builds `rates`
# and `fake-api` in release mode, retried while the tree is being edited meanwhile
# ("modified during the build"), and sets $bin to the built `rates`. Exits with the
# compiler's errors when the build fails.
release_build() {
  local log="${TMPDIR:-/tmp}/rates-release-build.log" built=0
  for _ in 1 2 3 4 5 6; do
    if swift build -c release "$@" >"$log" 2>&1; then
      built=1
      break
    fi
    grep -q "modified during the build" "$log" || break
    sleep 10
  done
  if [ "$built" != 1 ]; then
    echo "release build failed:" >&2
    grep -E "error" "$log" | head -20 >&2
    exit 1
  fi
  bin=$(swift build -c release "$@" --show-bin-path)/rates
}

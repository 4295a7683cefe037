#!/bin/sh
# Builds the release `rates` and installs it under a prefix (default ~/.local) with its
# bash, zsh and fish completions and its manual page, all made by the binary itself
# (`rates completions`, `rates help --man`), so they match the help text. Creates missing
# folders and says so when <prefix>/bin is not on PATH. Run from anywhere:
#
#   scripts/install.sh                    # build, then install under ~/.local
#   scripts/install.sh --prefix /opt/rates
#   scripts/install.sh --binary PATH      # install an already built binary (no build)
set -eu

prefix="${PREFIX:-$HOME/.local}"
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --binary) binary="${2:?--binary needs a file}"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$binary" ]; then
  if ! command -v swift >/dev/null 2>&1; then
    echo "install.sh: no Swift toolchain: install one from https://swift.org/install" >&2
    echo "  (on Linux: curl -O https://download.swift.org/swiftly/linux/swiftly-\$(uname -m).tar.gz," >&2
    echo "   then see https://www.swift.org/install/linux/ for 'swiftly init')" >&2
    exit 69
  fi
  cd "$root"
  # The Swift runtime linked in starts faster; where the platform cannot (macOS), a plain
  # release build.
  if swift build -c release --product rates --static-swift-stdlib; then :; else
    echo "install.sh: --static-swift-stdlib failed; building without it" >&2
    swift build -c release --product rates
  fi
  binary="$(swift build -c release --show-bin-path)/rates"
fi
[ -x "$binary" ] || { echo "install.sh: no executable at $binary" >&2; exit 66; }

case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
bin="$prefix/bin"
man="$prefix/share/man/man1"
bash_dir="$prefix/share/bash-completion/completions"
zsh_dir="$prefix/share/zsh/site-functions"
fish_dir="$prefix/share/fish/vendor_completions.d"
mkdir -p "$bin" "$man" "$bash_dir" "$zsh_dir" "$fish_dir"

install -m 0755 "$binary" "$bin/rates"
"$bin/rates" completions bash > "$bash_dir/rates"
"$bin/rates" completions zsh > "$zsh_dir/_rates"
"$bin/rates" completions fish > "$fish_dir/rates.fish"
"$bin/rates" help --man > "$man/rates.1"

echo "installed $bin/rates"
echo "  manual page  $man/rates.1 (man rates)"
echo "  completions  $bash_dir/rates, $zsh_dir/_rates, $fish_dir/rates.fish"
case ":${PATH:-}:" in
  *":$bin:"*) ;;
  *)
    echo "note: $bin is not on your PATH; add it, then open a new shell:"
    echo "  bash/zsh: echo 'export PATH=\"$bin:\$PATH\"' >> ~/.bashrc   (or ~/.zshrc)"
    echo "  fish:     fish_add_path $bin"
    ;;
esac
echo "note: zsh users: add 'fpath=($zsh_dir \$fpath)' before compinit in ~/.zshrc"
echo "try: rates history BTC EUR   (offline: rates convert 100 EUR USD)"

#!/bin/sh
# Builds the release `rates` (static Swift runtime, stripped) and installs it under a prefix
# (default ~/.local) with its bash, zsh and fish completions and its manual page, all made by
# the binary itself (`rates completions`, `rates help --man`), so they match the help text.
# Records what it installed, with each file's checksum, so --uninstall removes exactly that
# and only as it left it (a file changed since, or reached through a link, is kept and
# named). Run from anywhere:
#
#   scripts/install.sh                    # build, then install under ~/.local
#   scripts/install.sh --prefix /opt/rates
#   scripts/install.sh --binary PATH      # install an already built binary (no build)
#   scripts/install.sh --uninstall        # remove what an install put under the prefix
set -eu

prefix="${PREFIX:-$HOME/.local}"
binary=""
uninstall=0
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a folder}"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --binary) binary="${2:?--binary needs a file}"; shift 2 ;;
    --uninstall) uninstall=1; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done

# 'text' quoted for sh, bash and zsh: pastes as one word whatever it holds.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
# The same for fish, whose single quotes escape ' and \ with a backslash.
fish_quote() { printf "'%s'" "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e "s/'/\\\\'/g")"; }

case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
bin="$prefix/bin"
man="$prefix/share/man/man1"
bash_dir="$prefix/share/bash-completion/completions"
zsh_dir="$prefix/share/zsh/site-functions"
fish_dir="$prefix/share/fish/vendor_completions.d"
record_dir="$prefix/share/rates"
record="$record_dir/installed"

# The record is read line by line: a path holding a newline could not be told apart from
# two paths, so such a prefix is refused.
nl='
'
case "$prefix" in
  *"$nl"*)
    echo "install.sh: the prefix $(quote "$prefix") holds a newline; choose another --prefix" >&2
    exit 64
    ;;
esac
real_prefix=$(realpath -m "$prefix")

# A file's SHA-256, recorded at install so that --uninstall removes only files it finds as
# it left them.
checksum() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum <"$1"; else shasum -a 256 <"$1"; fi |
    cut -d' ' -f1
}
# Whether folder $1, under the prefix or one of the prefix's own parents, is reached without
# a symbolic link that leads elsewhere: it resolves where the resolved prefix says it is.
unlinked() {
  [ -L "$1" ] && return 1
  rel=$(realpath -m -s --relative-to="$prefix" "$1")
  case "$rel" in
    .. | ../*)
      case "$prefix/" in "$1"/*) ;; *) return 1 ;; esac
      down=$(realpath -m -s --relative-to="$1" "$prefix")
      [ "$(realpath -m -s "$(realpath -m "$1")/$down")" = "$real_prefix" ]
      ;;
    *) [ "$(realpath -m "$1")" = "$(realpath -m -s "$real_prefix/$rel")" ] ;;
  esac
}
# Whether a record line is `file <sha256> <absolute path>`, as this script writes it.
well_formed() {
  case "$1" in *[!0-9a-f]* | "") return 1 ;; esac
  [ "${#1}" = 64 ] && case "$2" in /*) true ;; *) false ;; esac
}

if [ "$uninstall" = 1 ]; then
  [ -f "$record" ] || {
    echo "install.sh: nothing recorded as installed under $(quote "$prefix") ($(quote "$record") is missing); nothing removed" >&2
    exit 1
  }
  unlinked "$record_dir" || {
    echo "install.sh: $(quote "$record_dir") is reached through a symbolic link; nothing removed" >&2
    exit 73
  }
  kept=0
  keep() { echo "kept $(quote "$1"): $2"; kept=$((kept + 1)); }
  # The files it finds as it installed them, then the folders the install made, deepest
  # first, each only when empty. Nothing is removed through a link, and a file the user
  # changed or replaced since is kept and named.
  while IFS= read -r line; do
    case "$line" in
      "file "*)
        sum=$(printf '%s' "$line" | cut -c6-69)
        path=${line#"file $sum "}
        if [ "$path" = "$line" ] || ! well_formed "$sum" "$path"; then
          keep "${line#file }" "recorded without a checksum (an older install.sh): install again, then --uninstall"
          continue
        fi
        if [ ! -e "$path" ] && [ ! -L "$path" ]; then
          continue
        elif [ -L "$path" ] || ! unlinked "$(dirname "$path")"; then
          keep "$path" "a symbolic link, or reached through one"
        elif [ ! -f "$path" ] || [ "$(checksum "$path")" != "$sum" ]; then
          keep "$path" "changed since it was installed"
        else
          rm -f "$path"
        fi
        ;;
    esac
  done <"$record"
  dirs=$(grep '^dir /' "$record" | cut -c5- | sort -r)
  rm -f "$record"
  printf '%s\n' "$dirs" | while IFS= read -r path; do
    [ -n "$path" ] && [ ! -L "$path" ] && unlinked "$path" && rmdir "$path" 2>/dev/null || true
  done
  if [ "$kept" = 0 ]; then
    echo "removed rates from $(quote "$prefix")"
  else
    echo "removed rates from $(quote "$prefix"), but kept $kept file(s) named above"
  fi
  exit 0
fi

root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$binary" ]; then
  if ! command -v swift >/dev/null 2>&1; then
    echo "install.sh: no Swift toolchain: install one from https://swift.org/install" >&2
    echo "  (on Linux: curl -O https://download.swift.org/swiftly/linux/swiftly-\$(uname -m).tar.gz," >&2
    echo "   then see https://www.swift.org/install/linux/ for 'swiftly init')" >&2
    exit 69
  fi
  cd "$root"
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  # The Swift runtime linked in starts faster; where the platform cannot (macOS), a plain
  # release build. The build prints "[n/m] Compiling …" steps: shown as one progress line.
  build() {
    echo "install.sh: building the release binary ($*; a few minutes the first time)…"
    swift build -c release --product rates "$@" >"$log" 2>&1 &
    pid=$!
    ticks=0
    while kill -0 "$pid" 2>/dev/null; do
      sleep 1
      ticks=$((ticks + 1))
      step=$(grep -o '^\[[0-9]*/[0-9]*\]' "$log" | tail -n 1)
      if [ -t 1 ]; then
        printf '\r  building %s %ss' "$step" "$ticks"
      elif [ $((ticks % 20)) = 0 ]; then
        echo "  still building $step (${ticks}s)"
      fi
    done
    status=0
    wait "$pid" || status=$?
    if [ -t 1 ]; then printf '\r\033[K'; fi
    return "$status"
  }
  # No $ORIGIN run path: a static binary loads no library from its own folder, and with one
  # the loader first looks there for each system library (libc, libm, libstdc++) at every start.
  if ! build --static-swift-stdlib --disable-local-rpath; then
    echo "install.sh: --static-swift-stdlib failed; building without it" >&2
    build || { grep -E 'error' "$log" | head -20 >&2; exit 1; }
    binary="$(swift build -c release --show-bin-path)/rates"
  else
    binary="$(swift build -c release --static-swift-stdlib --disable-local-rpath --show-bin-path)/rates"
  fi
  # The linker warns that FoundationEssentials' static library refers to glibc's mktemp
  # ("the use of `mktemp' is dangerous"): a function of Foundation's temporary files that
  # rates never calls. Other warnings are shown.
  grep -i 'warning' "$log" | grep -v -e "use of \`mktemp' is dangerous" -e 'Compiling' |
    head -5 >&2 || true
fi
[ -x "$binary" ] || { echo "install.sh: no executable at $binary" >&2; exit 66; }

# Nothing is written through a symbolic link that leads outside the prefix: a folder that
# resolves outside it is refused, and files are replaced by rename, never written through.
for dir in "$bin" "$man" "$bash_dir" "$zsh_dir" "$fish_dir" "$record_dir"; do
  resolved=$(realpath -m "$dir")
  case "$resolved/" in
    "$real_prefix"/*) ;;
    *)
      echo "install.sh: $(quote "$dir") leads outside the prefix (to $(quote "$resolved")) through a symbolic link; remove the link or choose another --prefix" >&2
      exit 73
      ;;
  esac
done

# Each folder this install creates (parents first) is recorded for --uninstall, with those
# an earlier install made.
made=$( [ -f "$record" ] && grep '^dir ' "$record" || true)
for dir in "$bin" "$man" "$bash_dir" "$zsh_dir" "$fish_dir" "$record_dir"; do
  probe="$dir"
  while [ ! -d "$probe" ]; do
    made="$made
dir $probe"
    probe=$(dirname "$probe")
  done
  mkdir -p "$dir"
done

# Writes stdin to `path` by a rename in its folder, so a link there is replaced, not followed.
place() {
  tmp="$1.install.$$"
  cat >"$tmp" && chmod "$2" "$tmp" && mv -f "$tmp" "$1"
}
strip_to() {
  if command -v strip >/dev/null 2>&1; then strip -o "$2" "$1"; else cp "$1" "$2"; fi
}
strip_to "$binary" "$bin/rates.install.$$"
chmod 0755 "$bin/rates.install.$$"
mv -f "$bin/rates.install.$$" "$bin/rates"
"$bin/rates" completions bash | place "$bash_dir/rates" 0644
"$bin/rates" completions zsh | place "$zsh_dir/_rates" 0644
"$bin/rates" completions fish | place "$fish_dir/rates.fish" 0644
"$bin/rates" help --man | place "$man/rates.1" 0644

{
  printf '%s\n' "$made"
  for file in "$bin/rates" "$man/rates.1" "$bash_dir/rates" "$zsh_dir/_rates" \
    "$fish_dir/rates.fish"; do
    echo "file $(checksum "$file") $file"
  done
} | sed '/^$/d' | sort -u | place "$record" 0644

echo "installed $bin/rates ($(du -h "$bin/rates" | cut -f1), stripped)"
echo "  manual page  $man/rates.1 (man rates)"
echo "  completions  $bash_dir/rates, $zsh_dir/_rates, $fish_dir/rates.fish"
echo "  uninstall    $(quote "$root/scripts/install.sh") --uninstall --prefix $(quote "$prefix")"

# PATH: advice only when a new login shell would still miss the folder (Debian's ~/.profile,
# for one, adds ~/.local/bin once it exists).
login_path=$(env -i HOME="$HOME" USER="${USER:-}" LOGNAME="${LOGNAME:-}" TERM=dumb \
  timeout 5 "${SHELL:-/bin/sh}" -l -c 'printf %s "$PATH"' </dev/null 2>/dev/null || true)
case ":${PATH:-}:" in
  *":$bin:"*) ;;
  *)
    case ":$login_path:" in
      *":$bin:"*) echo "note: $bin is on PATH in a new login shell (log in again, or: exec \"\$SHELL\" -l)" ;;
      *)
        echo "note: $bin is not on your PATH; add this line to ~/.bashrc or ~/.zshrc, then open a new shell:"
        echo "  export PATH=$(quote "$bin"):\"\$PATH\""
        echo "  (fish: fish_add_path $(fish_quote "$bin"))"
        ;;
    esac
    ;;
esac

# bash: bash-completion (2.2 or later) loads completions on demand from the folder next to
# the command's bin; without it, the script has to be sourced.
have_bash_completion=0
for file in /usr/share/bash-completion/bash_completion /etc/bash_completion \
  /usr/local/share/bash-completion/bash_completion \
  /opt/homebrew/etc/profile.d/bash_completion.sh /usr/local/etc/profile.d/bash_completion.sh; do
  [ -f "$file" ] && have_bash_completion=1
done
if [ "$have_bash_completion" = 0 ]; then
  echo "note: bash-completion is not installed; for completions in bash, add to ~/.bashrc:"
  echo "  source $(quote "$bash_dir/rates")"
fi
case "$zsh_dir" in
  /usr/share/zsh/site-functions | /usr/local/share/zsh/site-functions) ;;
  *)
    echo "note: zsh users: add this line to ~/.zshrc before compinit:"
    echo "  fpath=($(quote "$zsh_dir") \$fpath)"
    ;;
esac
# fish reads vendor completions under ~/.local/share, /usr/local/share and /usr/share only.
case "$fish_dir" in
  "$HOME/.local/share/fish/vendor_completions.d" | /usr/local/share/fish/vendor_completions.d | \
    /usr/share/fish/vendor_completions.d) ;;
  *)
    echo "note: fish users: add this line to ~/.config/fish/config.fish:"
    echo "  set -a fish_complete_path $(fish_quote "$fish_dir")"
    ;;
esac
echo "try: rates history BTC EUR   (offline: rates convert 100 EUR USD)"

#!/usr/bin/env bash
# Builds a release of rates into dist/ (or --out DIR):
#   rates-<version>-linux-<arch>.tar.gz   bin/rates (static Swift runtime, stripped), the
#                                         manual page, bash/zsh/fish completions, README.md,
#                                         LICENSE (Apache-2.0)
#   rates_<version>_<debian arch>.deb     the same files under /usr (dpkg-deb)
#   SHA256SUMS                            of both
# The version is the binary's own (`rates --version`, from RatesVersion.current), so the
# binary, the manual page and the packages agree. Archives are reproducible: file times are
# the last commit's (SOURCE_DATE_EPOCH), owners root, names sorted.
#
# Then checks them (also alone, on existing files: --check-only): the .deb installed with
# dpkg into a scratch root and the tarball unpacked elsewhere each run `rates --version`
# (the .deb is removed again, leaving no file); the tarball's binary installs with
# scripts/install.sh into a scratch prefix, and --uninstall leaves that prefix as it found
# it. Scratch folders are removed.
#
# usage: scripts/release.sh [--out DIR] [--check-only]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out="$root/dist"
check_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$(mkdir -p "$2" && cd "$2" && pwd); shift 2 ;;
    --check-only) check_only=1; shift ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "release.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done
[ -f LICENSE ] || { echo "release.sh: LICENSE is missing; both packages ship it" >&2; exit 66; }
command -v dpkg-deb >/dev/null || { echo "release.sh: dpkg-deb is needed (apt install dpkg)" >&2; exit 69; }

arch=$(uname -m)
deb_arch=$(dpkg --print-architecture 2>/dev/null || echo "$arch")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

build() {
  # Its own scratch path: a static build in .build would replace the plain one. No $ORIGIN
  # run path, as install.sh builds it (the loader would look for libc there first).
  echo "release: building rates (release, --static-swift-stdlib)…" >&2
  swift build -c release --product rates --static-swift-stdlib --disable-local-rpath \
    --scratch-path .build-static \
    >"$scratch/build.log" 2>&1 || { grep -E 'error' "$scratch/build.log" >&2; exit 1; }
  binary="$(swift build -c release --static-swift-stdlib --disable-local-rpath \
    --scratch-path .build-static --show-bin-path)/rates"
  version=$("$binary" --version | awk '{ print $NF }')
  name="rates-$version-linux-$arch"
  export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
}

# Lays out `prefix` (under `stage`) as an install does: bin, man page, completions.
lay_out() {
  local stage=$1 prefix=$2 zsh=$3
  mkdir -p "$stage$prefix/bin" "$stage$prefix/share/man/man1" \
    "$stage$prefix/share/bash-completion/completions" "$stage$prefix/share/$zsh" \
    "$stage$prefix/share/fish/vendor_completions.d"
  strip -o "$stage$prefix/bin/rates" "$binary"
  chmod 0755 "$stage$prefix/bin/rates"
  "$binary" help --man >"$stage$prefix/share/man/man1/rates.1"
  "$binary" completions bash >"$stage$prefix/share/bash-completion/completions/rates"
  "$binary" completions zsh >"$stage$prefix/share/$zsh/_rates"
  "$binary" completions fish >"$stage$prefix/share/fish/vendor_completions.d/rates.fish"
}

package() {
  mkdir -p "$out"
  rm -f "$out"/rates-*.tar.gz "$out"/rates_*.deb "$out/SHA256SUMS"
  local tree="$scratch/tar/$name"
  lay_out "$tree" "" zsh/site-functions
  cp README.md "$tree/"
  cp LICENSE "$tree/"
  find "$scratch/tar" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    -C "$scratch/tar" -cf - "$name" | gzip -9n >"$out/$name.tar.gz"

  local deb="$scratch/deb"
  lay_out "$deb" /usr zsh/vendor-completions
  gzip -9n "$deb/usr/share/man/man1/rates.1"
  mkdir -p "$deb/usr/share/doc/rates" "$deb/DEBIAN"
  cp README.md "$deb/usr/share/doc/rates/"
  cp LICENSE "$deb/usr/share/doc/rates/copyright"
  cat >"$deb/DEBIAN/control" <<CONTROL
Package: rates
Version: $version
Architecture: $deb_arch
Maintainer: rates maintainers <rates@localhost>
Depends: libc6, libstdc++6
Recommends: libcurl4 | libcurl4t64
Section: utils
Priority: optional
Installed-Size: $(du -sk "$deb/usr" | cut -f1)
Description: exchange rates for coins and currencies in the terminal
 History, current prices, conversions and a ledger of your own exchanges, with the
 ECB's daily reference rates since 1999 built in. HTTP goes through libcurl.so.4,
 loaded only when a command needs the network.
CONTROL
  find "$deb" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  dpkg-deb --root-owner-group -Zgzip --build "$deb" "$out/rates_${version}_${deb_arch}.deb" \
    >/dev/null
  (cd "$out" && sha256sum "$name.tar.gz" "rates_${version}_${deb_arch}.deb" >SHA256SUMS)
}

check() {
  local tarball deb
  tarball=$(ls "$out"/rates-*-linux-*.tar.gz)
  deb=$(ls "$out"/rates_*.deb)
  (cd "$out" && sha256sum --quiet -c SHA256SUMS)
  version=${version:-$(dpkg-deb -f "$deb" Version)}

  # dpkg installs the .deb into a scratch root with its own empty database (the host
  # provides libc6 and libstdc++6, hence --force-depends), then removes it.
  local root="$scratch/root"
  mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
  touch "$root/var/lib/dpkg/status"
  dpkg_root() {
    dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless \
      --log=/dev/null "$@" >"$scratch/dpkg.log" 2>&1 || { cat "$scratch/dpkg.log" >&2; fail "dpkg $*"; }
  }
  dpkg_root -i "$deb"
  expect_version "$root/usr/bin/rates" ".deb"
  zcat "$root/usr/share/man/man1/rates.1.gz" >"$scratch/rates.1"
  grep -q "\"rates $version\"" "$scratch/rates.1" ||
    fail "the .deb's manual page does not say rates $version"
  cmp -s LICENSE "$root/usr/share/doc/rates/copyright" || fail "the .deb does not ship LICENSE"
  dpkg_root -r rates
  [ -z "$(find "$root/usr" -type f 2>/dev/null)" ] || fail "dpkg -r left files under usr/"

  mkdir -p "$scratch/unpacked"
  tar -C "$scratch/unpacked" -xzf "$tarball"
  local unpacked="$scratch/unpacked/$(basename "$tarball" .tar.gz)"
  expect_version "$unpacked/bin/rates" "tarball"
  cmp -s LICENSE "$unpacked/LICENSE" || fail "the tarball does not ship LICENSE"
  if ldd "$unpacked/bin/rates" 2>/dev/null | grep -E 'libFoundation\.so|_FoundationICU|libicu'; then
    fail "the tarball's rates links Foundation or ICU"
  fi

  # install.sh with the tarball's binary, then --uninstall: the prefix as found.
  local prefix="$scratch/prefix with 'quote"
  mkdir -p "$prefix/bin" "$prefix/share/man"
  touch "$prefix/bin/other-tool"
  local before
  before=$(cd "$prefix" && find . | sort)
  HOME="$scratch" PATH="/usr/bin:/bin" scripts/install.sh --binary "$unpacked/bin/rates" \
    --prefix "$prefix" >"$scratch/install.log" 2>&1 || { cat "$scratch/install.log" >&2; fail "install.sh failed"; }
  expect_version "$prefix/bin/rates" "install.sh"
  HOME="$scratch" scripts/install.sh --uninstall --prefix "$prefix" >/dev/null
  [ "$(cd "$prefix" && find . | sort)" = "$before" ] ||
    fail "install.sh --uninstall did not leave the prefix as it found it"
  echo "release: checked $(basename "$tarball"), $(basename "$deb") and SHA256SUMS"
}

expect_version() {
  local got
  got=$("$1" --version) || fail "$2: $1 --version failed"
  [ "$got" = "rates $version" ] || fail "$2: '$got', expected 'rates $version'"
}

fail() {
  echo "release: check failed: $1" >&2
  exit 1
}

if [ "$check_only" = 0 ]; then
  build
  package
  ls -l "$out"
fi
check

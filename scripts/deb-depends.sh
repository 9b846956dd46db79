#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints the Debian Depends: value for an ELF binary, from the shared
# libraries it really links (liburing2, libcjson1, zlib1g, libc6 for iospd as
# Debian builds it; libaio is never one: iospd's libaio engine makes the
# system calls itself). The method used goes to stderr.
#
#   scripts/deb-depends.sh <binary> [shlibdeps|objdump]
#
# shlibdeps (the default when dpkg-shlibdeps exists): dpkg-shlibdeps, with
#   the minimal debian/control it needs written to a temporary folder; it
#   takes minimal versions from each library's symbols file (the symbols
#   the binary uses), as a Debian source build would.
# objdump: the binary's NEEDED entries, each library found with ldconfig,
#   its package with dpkg -S and the version from that package's shlibs
#   file (the version the library's packager declared for any user of it,
#   so it may be stricter than dpkg-shlibdeps's).
set -euo pipefail

usage() { echo "usage: scripts/deb-depends.sh <binary> [shlibdeps|objdump]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
bin=$(readlink -f "$1")
[ -f "$bin" ] || { echo "deb-depends.sh: '$1' is not a file" >&2; exit 2; }
method=${2:-}
if [ -z "$method" ]; then
  if command -v dpkg-shlibdeps >/dev/null; then method=shlibdeps; else method=objdump; fi
fi

case "$method" in
  shlibdeps)
    command -v dpkg-shlibdeps >/dev/null ||
      { echo "deb-depends.sh: dpkg-shlibdeps not found (apt-get install dpkg-dev)" >&2; exit 1; }
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    # A copy where a package build would have it (debian/<package>/...),
    # DEBIAN/ marking its root, so dpkg-shlibdeps analyses it without a warning.
    mkdir -p "$tmp/debian/iospd/usr/bin" "$tmp/debian/iospd/DEBIAN"
    cp "$bin" "$tmp/debian/iospd/usr/bin/"
    printf 'Source: iospd\n\nPackage: iospd\nArchitecture: any\n' >"$tmp/debian/control"
    line=$(cd "$tmp" && dpkg-shlibdeps -O -e"debian/iospd/usr/bin/${bin##*/}") ||
      { echo "deb-depends.sh: dpkg-shlibdeps failed on $bin" >&2; exit 1; }
    deps=${line#shlibs:Depends=}
    [ "$deps" != "$line" ] || { echo "deb-depends.sh: unexpected dpkg-shlibdeps output: $line" >&2; exit 1; }
    echo "deb-depends.sh: Depends from dpkg-shlibdeps (symbols files)" >&2
    ;;
  objdump)
    command -v objdump >/dev/null || { echo "deb-depends.sh: objdump not found (apt-get install binutils)" >&2; exit 1; }
    arch=$(dpkg --print-architecture)
    deps=""
    # Read whole (no awk "exit" on a pipe: with pipefail, ldconfig's SIGPIPE
    # would fail the assignment now and then).
    cache=$(ldconfig -p)
    for soname in $(objdump -p "$bin" | awk '$1 == "NEEDED" { print $2 }'); do
      path=$(awk -v so="$soname" '$1 == so && /x86-64|x32|AArch64|64bit/ && !p { p = $NF } END { print p }' <<<"$cache")
      [ -n "$path" ] || path=$(awk -v so="$soname" '$1 == so && !p { p = $NF } END { print p }' <<<"$cache")
      [ -n "$path" ] || { echo "deb-depends.sh: $soname (NEEDED by $bin) is not in the ldconfig cache" >&2; exit 1; }
      # dpkg -S knows the path the package shipped; /lib may be a symlink
      # to /usr/lib (merged /usr), so try both spellings.
      pkg=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null ||
            dpkg -S "${path#/usr}" 2>/dev/null || true)
      pkg=${pkg%%:*}   # "libc6:amd64: /lib/..." -> libc6
      [ -n "$pkg" ] || { echo "deb-depends.sh: no package owns $path ($soname)" >&2; exit 1; }
      # shlibs lines: "<name> <version> <dependency>", e.g. "liburing 2 liburing2 (>= 2.3)".
      name=${soname%%.so*}; name=${name#lib}; ver=${soname#*.so.}
      dep=""
      for f in "/var/lib/dpkg/info/$pkg:$arch.shlibs" "/var/lib/dpkg/info/$pkg.shlibs"; do
        [ -f "$f" ] || continue
        dep=$(awk -v n="lib$name" -v v="$ver" '$1 == n && $2 == v { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' "$f")
        [ -n "$dep" ] && break
      done
      [ -n "$dep" ] || dep=$pkg
      case ", $deps, " in *", $dep, "*) ;; *) deps=${deps:+$deps, }$dep ;; esac
    done
    [ -n "$deps" ] || { echo "deb-depends.sh: $bin has no NEEDED entries (a static binary needs no Depends)" >&2; exit 1; }
    echo "deb-depends.sh: Depends from objdump -p NEEDED entries, dpkg -S and shlibs files" >&2
    ;;
  *) usage ;;
esac
echo "$deps"

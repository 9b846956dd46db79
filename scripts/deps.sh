#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what building and testing iospd needs on Debian/Ubuntu, and only
# what is missing: compilers, liburing, zlib, CMocka and cJSON (native, and
# their sources for the mingw build), wine (64-bit, and wine32 from the i386 architecture
# for the x86 iospd.exe), xmllint, e2fsprogs (mkfs.ext4 for the ext4 image
# e2e_create_safety mounts), python3-jsonschema (validates JSON results
# against schema/iospd-results.schema.json), openssh-server/-client (the
# fleet tests' private sshd on 127.0.0.1, tests/pester/FleetSshBed.ps1),
# groff-base and man-db (the man_page test renders iospd.1 with groff, man
# and lexgrog), zsh (loads the zsh completion, tests/e2e/completion_zsh_test.sh),
# chromium (the HTML report's headless-browser tests, tests/html), fio (its
# JSON is what e2e_fio_json compares --output=fio-json: with).
# Usage: scripts/deps.sh [--build-only]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

build_pkgs=(build-essential cmake pkg-config liburing-dev zlib1g-dev libcmocka-dev
            libcjson-dev)
test_pkgs=(gcc-mingw-w64-x86-64 gcc-mingw-w64-i686 libz-mingw-w64-dev wine64 wine wine32:i386
           libxml2-utils dpkg-dev zip unzip e2fsprogs python3-jsonschema openssh-server
           openssh-client zsh)
test_pkgs+=(groff-base man-db) # the man_page test: groff, man, lexgrog
test_pkgs+=(chromium) # the HTML report opened headless (tests/html)
test_pkgs+=(fio) # e2e_fio_json: fio's own JSON of the same workload
pkgs=("${build_pkgs[@]}")
[ "${1:-}" = "--build-only" ] || pkgs+=("${test_pkgs[@]}")
# lintian checks the .deb that scripts/package-deb.sh builds (tests/packaging).
[ "${1:-}" = "--build-only" ] || pkgs+=(lintian)

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  # wine32 (runs the i686 iospd.exe in a WoW64 prefix) is an i386 package.
  if [[ " ${missing[*]}" == *":i386"* ]] && ! dpkg --print-foreign-architectures | grep -qx i386; then
    echo "deps: enabling the i386 architecture (dpkg --add-architecture i386) for wine32"
    $sudo dpkg --add-architecture i386
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ "${1:-}" = "--build-only" ] && exit 0

# CMocka and cJSON for mingw: Debian has no mingw build of them, so compile
# their sources (tests/CMakeLists.txt builds cmocka.c, CMakeLists.txt cJSON.c,
# applied with Debian's patches). apt-get source needs a deb-src entry;
# derive it from the machine's own apt source. Prints the two source dirs,
# cmocka's first.
dest="$root/build/deps"
have_deb_src() {
  [ -n "$(apt-get source --print-uris "$1" 2>/dev/null | grep -i dsc)" ]
}
fetch_source() { # package  file-inside-the-source-dir
  if ls -d "$dest"/"$1"-*/"$2" >/dev/null 2>&1; then return 0; fi
  if ! have_deb_src "$1"; then
    src=""
    for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/ubuntu.sources; do
      [ -f "$f" ] && src="$f" && break
    done
    if [ -n "$src" ]; then
      sed 's/^Types: deb$/Types: deb-src/' "$src" | $sudo tee /etc/apt/sources.list.d/iospd-deb-src.sources >/dev/null
    elif [ -f /etc/apt/sources.list ]; then
      grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | $sudo tee /etc/apt/sources.list.d/iospd-deb-src.list >/dev/null
    fi
    $sudo apt-get update -qq
  fi
  mkdir -p "$dest"
  (cd "$dest" && apt-get source -qq "$1" >/dev/null 2>&1)
}
fetch_source cmocka src/cmocka.c
fetch_source cjson cJSON.c
ls -d "$dest"/cmocka-*/ | head -n1
ls -d "$dest"/cjson-*/ | head -n1

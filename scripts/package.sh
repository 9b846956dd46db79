#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Windows release package: iospd.exe for amd64 and x86 (mingw-w64),
# the IoSpd PowerShell module, windows-selfcheck.ps1, xml/, schema/ (the
# JSON results' schema), LICENSE, README.md and docs/ (the README links
# into it), zipped, with a
# sha256sum-style digest file beside it.
#
#   scripts/package.sh <version> <outdir>
#     -> <outdir>/iospd-<version>.zip and <outdir>/iospd-<version>.zip.sha256
set -euo pipefail

usage() { echo "usage: scripts/package.sh <version> <outdir>   (e.g. scripts/package.sh 1.0.0 dist)" >&2; exit 2; }
[ $# -eq 2 ] || usage
version=$1
outdir=$2
if ! [[ "$version" =~ ^[0-9A-Za-z][0-9A-Za-z._+-]*$ ]]; then
  echo "package.sh: version '$version' may contain only letters, digits and . _ + - (e.g. 1.0.0)" >&2
  exit 2
fi

root=$(cd "$(dirname "$0")/.." && pwd)
toolchain="$root/scripts/toolchain-mingw-w64.cmake"
jobs=${IOSPD_JOBS:-2}
name="iospd-$version"

for tool in cmake x86_64-w64-mingw32-gcc i686-w64-mingw32-gcc; do
  command -v "$tool" >/dev/null || { echo "package.sh: '$tool' not found (apt-get install cmake gcc-mingw-w64)" >&2; exit 1; }
done

# The mingw builds compile cJSON from its source (Debian has no mingw
# package): IOSPD_CJSON_SOURCE_DIR, else the copy scripts/deps.sh fetches
# into build/deps (fetched here when missing, as scripts/test.sh does).
cjson_src=${IOSPD_CJSON_SOURCE_DIR:-$(ls -d "$root"/build/deps/cjson-*/ 2>/dev/null | head -n1 || true)}
if [ -z "$cjson_src" ]; then
  cjson_src=$("$root/scripts/deps.sh" | tail -n1) ||
    { echo "package.sh: fetching the cJSON source failed; run scripts/deps.sh or set IOSPD_CJSON_SOURCE_DIR" >&2; exit 1; }
fi
[ -f "$cjson_src/cJSON.c" ] ||
  { echo "package.sh: no cJSON.c in '$cjson_src'; run scripts/deps.sh or set IOSPD_CJSON_SOURCE_DIR" >&2; exit 1; }

build_one() { # <package folder> <mingw arch>
  local folder=$1 arch=$2 dir="$root/build/pkg-$1"
  echo "package.sh: building $folder ($arch) in $dir"
  cmake -S "$root" -B "$dir" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DIOSPD_MINGW_ARCH="$arch" -DCMAKE_BUILD_TYPE=Release \
    -DIOSPD_BUILD_TESTS=OFF -DBUILD_TESTING=OFF -DIOSPD_CJSON_SOURCE_DIR="$cjson_src" >"$dir.log" 2>&1 ||
    { cat "$dir.log" >&2; echo "package.sh: configuring $folder failed" >&2; exit 1; }
  cmake --build "$dir" --target iospd -j"$jobs" >>"$dir.log" 2>&1 ||
    { tail -50 "$dir.log" >&2; echo "package.sh: building $folder failed (log: $dir.log)" >&2; exit 1; }
  [ -f "$dir/iospd.exe" ] || { echo "package.sh: $dir/iospd.exe was not produced" >&2; exit 1; }
}

mkdir -p "$root/build"
build_one amd64 x86_64
build_one x86 i686

stage=$(mktemp -d "$root/build/pkg-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/amd64" "$stage/x86"
cp "$root/build/pkg-amd64/iospd.exe" "$stage/amd64/iospd.exe"
cp "$root/build/pkg-x86/iospd.exe" "$stage/x86/iospd.exe"
x86_64-w64-mingw32-strip --strip-debug "$stage/amd64/iospd.exe"
i686-w64-mingw32-strip --strip-debug "$stage/x86/iospd.exe"

cp -R "$root/scripts/IoSpd" "$stage/IoSpd"
# The self-check finds iospd.exe in amd64\ or x86\ and the module in IoSpd\ beside it.
cp "$root/scripts/windows-selfcheck.ps1" "$stage/windows-selfcheck.ps1"
# The packaged module carries the release version when it is a plain
# dotted number (ModuleVersion must parse as System.Version).
if [[ "$version" =~ ^[0-9]+(\.[0-9]+){1,3}$ ]]; then
  sed -i "s/^\(\s*ModuleVersion\s*=\s*\)'[^']*'/\1'$version'/" "$stage/IoSpd/IoSpd.psd1"
fi

if [ -d "$root/xml" ]; then
  cp -R "$root/xml" "$stage/xml"
else
  mkdir -p "$stage/xml"
fi

if [ ! -f "$root/LICENSE" ]; then
  echo "package.sh: LICENSE is missing at the repository root" >&2; exit 1
fi
cp "$root/LICENSE" "$stage/LICENSE"
if [ -f "$root/README.md" ]; then
  cp "$root/README.md" "$stage/README.md"
else
  echo "package.sh: warning: README.md missing at the repository root; the package gets a short one" >&2
  cat >"$stage/README.md" <<MD
# iospd $version

A command-line compatible successor of DISKSPD 2.2.

- amd64/iospd.exe: 64-bit Windows build; x86/iospd.exe: 32-bit build.
- IoSpd/: PowerShell module (Import-Module ./IoSpd; Get-Help Install-IoSpd).
- xml/: XML profile schema and examples.
- schema/: the JSON Schema of -Rjson and --output=json: results.
- docs/: the documentation the README links to.
MD
fi

# The README links into docs/ (benchmarks, engines, self-check, ...).
if [ -d "$root/docs" ]; then
  cp -R "$root/docs" "$stage/docs"
fi
# The JSON results' schema (-Rjson, --output=json:), which docs/ links to.
if [ -d "$root/schema" ]; then
  cp -R "$root/schema" "$stage/schema"
fi

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
zipfile="$outdir/$name.zip"
rm -f "$zipfile" "$zipfile.sha256"
# Fixed timestamps and sorted entries so that the same input gives the same zip.
find "$stage" -exec touch -h -d '2026-01-01 00:00:00' {} +
if command -v zip >/dev/null; then
  (cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | sed 's|^\./||' | zip -q -X -@ "$zipfile")
else
  python3 - "$stage" "$zipfile" <<'PY'
import os, sys, zipfile
stage, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for dirpath, dirs, files in os.walk(stage):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(dirpath, f)
            z.write(p, os.path.relpath(p, stage))
PY
fi
(cd "$outdir" && sha256sum "$name.zip" >"$name.zip.sha256")
echo "package.sh: wrote $zipfile"
echo "package.sh: $(cat "$zipfile.sha256")"

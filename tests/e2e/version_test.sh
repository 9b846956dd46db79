#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iospd --version: its exact lines (version, commit and date as the build
# stamped them, engines, platform), exit 0, nothing on stderr; and the
# stamp script: SOURCE_DATE_EPOCH decides the date, a second run rewrites
# nothing (so the core is not recompiled), a bad value is refused.
# Usage: version_test.sh <iospd> <source dir> <stamp header> <engines>
#                        <platform> [--wine]
set -uo pipefail
exe=$1 src=$2 header=$3 engines=$4 platform=$5
wine=0
[ "${6:-}" = --wine ] && wine=1
. "$src/tests/e2e/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-version.XXXXXX")
trap 'rm -rf "$work"' EXIT

run() {
  if [ $wine = 1 ]; then wine "$exe" "$@"; else "$exe" "$@"; fi \
    >"$work/out" 2>"$work/err"
  rc=$?
  sed -i 's/\r$//' "$work/out" "$work/err"
}

version=$(sed -n 's/^#define IOSPD_VERSION "\(.*\)"$/\1/p' "$src/include/iospd/version.h")
commit=$(sed -n 's/^#define IOSPD_GIT_COMMIT "\(.*\)"$/\1/p' "$header")
date=$(sed -n 's/^#define IOSPD_BUILD_DATE "\(.*\)"$/\1/p' "$header")
[[ "$date" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] && ok || bad "stamp header: date '$date' is not YYYY-MM-DD"
[ -n "$commit" ] && ok || bad "stamp header: no commit"

run --version
[ "$rc" = 0 ] && ok || bad "--version: exit $rc, expected 0"
[ -s "$work/err" ] && bad "--version wrote to stderr: $(head -3 "$work/err")" || ok
printf '%s\n' "iospd $version" "commit: $commit" "built: $date (UTC)" \
  "engines: $engines" "platform: $platform" "command line: DISKSPD 2.2.0 (--diskspd=2.2) and 2.3.0 (--diskspd=2.3, the default)" \
  >"$work/want"
if diff -u "$work/want" "$work/out" >"$work/diff"; then ok; else
  bad "--version lines differ:"; cat "$work/diff"
fi

run --version -b4K
[ "$rc" = 3 ] && ok || bad "--version -b4K: exit $rc, expected 3"
grep -qF "'--version' must be the only argument: iospd --version" "$work/err" \
  && ok || bad "--version -b4K: message: $(cat "$work/err")"

# -? lists it.
run -?
grep -qx "  --version" "$work/out" && ok || bad "-? does not list --version"

if [ $wine = 0 ]; then
  # The stamp script, run as the build runs it.
  stamp() { # out-file, then env arguments
    local out=$1; shift
    env "$@" cmake -DSRC="$src" -DOUT="$out" -DGIT="$(command -v git)" \
      -P "$src/cmake/git_commit.cmake" >"$work/stamp.log" 2>&1
  }
  stamp "$work/a.h" SOURCE_DATE_EPOCH=1700000000 && ok || bad "stamp failed: $(cat "$work/stamp.log")"
  grep -qx '#define IOSPD_BUILD_DATE "2023-11-14"' "$work/a.h" && ok \
    || bad "SOURCE_DATE_EPOCH=1700000000 did not stamp 2023-11-14: $(cat "$work/a.h")"
  stamp "$work/b.h" SOURCE_DATE_EPOCH=0 && grep -qx '#define IOSPD_BUILD_DATE "1970-01-01"' "$work/b.h" \
    && ok || bad "SOURCE_DATE_EPOCH=0 did not stamp 1970-01-01"
  # Unset: today (UTC).
  stamp "$work/c.h" -u SOURCE_DATE_EPOCH
  today=$(date -u +%Y-%m-%d)
  grep -qx "#define IOSPD_BUILD_DATE \"$today\"" "$work/c.h" && ok \
    || bad "without SOURCE_DATE_EPOCH the date is not today ($today): $(cat "$work/c.h")"
  # A second run with the same inputs leaves the file alone.
  touch -d '2001-01-01 00:00:00' "$work/a.h"
  before=$(stat -c %Y "$work/a.h")
  stamp "$work/a.h" SOURCE_DATE_EPOCH=1700000000
  [ "$(stat -c %Y "$work/a.h")" = "$before" ] && ok || bad "an unchanged stamp rewrote the header"
  if stamp "$work/d.h" SOURCE_DATE_EPOCH=yesterday; then
    bad "SOURCE_DATE_EPOCH=yesterday was accepted"
  else
    grep -q "SOURCE_DATE_EPOCH='yesterday' is not a whole number of seconds" "$work/stamp.log" \
      && ok || bad "bad SOURCE_DATE_EPOCH message: $(cat "$work/stamp.log")"
  fi
  [ -e "$work/d.h" ] && bad "a refused stamp wrote a header" || ok
fi
finish version_test

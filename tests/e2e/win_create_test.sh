#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -c on Windows, seen from outside under wine: the fill of a file whose size
# is not a multiple of 4 KiB gives that exact size and the (k & 0xff)
# pattern up to the last byte, -v names the way the file was made, and the
# data reaches the disk before the run: FlushFileBuffers, which wine turns
# into fsync(2), counted with strace. Usage: win_create_test.sh <iospd.exe>
exe=$1
if ! command -v strace >/dev/null; then
  echo "strace is not installed, so the fsync of the -c fill cannot be seen; skipped"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# A wineserver started under strace -f would be waited for: start it first.
true | wineserver -p 60 >/dev/null 2>&1
true | wine cmd.exe /c exit >/dev/null 2>&1

timeout 300 strace -f -qq -e trace=fsync,fdatasync -o trace.txt \
  wine "$exe" -c5000000 -d1 -W0 -b64K -v f.dat >out.txt 2>err.txt
rc=$?
tr -d '\r' <err.txt >err.lf && mv err.lf err.txt
[ "$rc" = 0 ] && ok || { bad "-c5000000 -v: exit $rc"; sed 's/^/  /' err.txt | head -5; }
n=$(grep -cE '(fsync|fdatasync)\(.*= 0' trace.txt)
# One creation, one flush; the run itself (reads, cached) flushes nothing.
[ "$n" = 1 ] && ok || bad "expected 1 fsync (the -c fill's FlushFileBuffers), saw $n"
[ "$(stat -c %s f.dat)" = 5000000 ] && ok || bad "size $(stat -c %s f.dat), want 5000000"
# Byte 4999999 = 4999999 & 0xff = 63: the rounded-up last write was cut back
# at the right place and carries the pattern.
[ "$(od -An -tu1 -j4999999 -N1 f.dat | tr -d ' ')" = 63 ] && ok || bad "last byte is not the pattern"
[ "$(od -An -tu1 -j1048831 -N1 f.dat | tr -d ' ')" = 255 ] && ok || bad "byte 1048831 is not the pattern"
# Which way the file was made: wine keeps no file ACLs, so not with
# SetFileValidData but by writing every block, and -v says so.
grep -q "^NOTE: 'f.dat' cannot keep an owner- and Administrators-only ACL (error code: [0-9]*), so every block is written" err.txt &&
  ok || bad "-v: no NOTE on how the file was made"
# And the closing NOTE names the path that ran (the self-check reads it).
grep -q "^NOTE: 'f.dat' was created by writing every block (unbuffered, up to 4 MiB in flight, flushed)$" err.txt &&
  ok || bad "-v: no closing NOTE naming the creation path"
grep -q "^NOTE: creating 'f.dat': 100 % written$" err.txt && ok || bad "-v: no progress to 100 %"
echo "win_create_test: $pass passed, $fail failed"
[ "$fail" = 0 ]

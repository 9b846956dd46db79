#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iospd.exe under wine, which has no IoRing: a run on the IoRing engine
# (--engine=ioring, and DISKSPD 2.3's -u once the parser takes it) fails
# with exit code 1 and the missing piece named, before any I/O: the
# target's bytes are unchanged, even for a write run. -Rp still prints.
# Usage: win_ioring_test.sh <iospd.exe>
set -uo pipefail
exe=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-winioring.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
iospd() {
  wine "$exe" "$@" >"$work/out" 2>"$work/err"
  rc=$?
  sed -i 's/\r$//' "$work/out" "$work/err"
}
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; sed 's/^/  stderr: /' "$work/err" | head -5; }
expect_rc() { if [ "$rc" = "$1" ]; then ok; else bad "$2: exit code $rc, expected $1"; fi; }
expect_err() { if grep -qF -- "$1" "$work/err"; then ok; else bad "$2: stderr lacks '$1'"; fi; }
expect_out() { if grep -qF -- "$1" "$work/out"; then ok; else bad "$2: stdout lacks '$1'"; fi; }
same_bytes() {
  if [ "$(sha1sum <"$work/t.dat")" = "$sum" ]; then ok; else bad "$1: the target's bytes changed"; fi
}

f=$(winepath -w "$work/t.dat" 2>/dev/null)
head -c $((1024 * 1024)) /dev/urandom >"$work/t.dat"
sum=$(sha1sum <"$work/t.dat")
missing="IoRing (-u) is not available: this Windows has no QueryIoRingCapabilities in kernelbase.dll; IoRing needs Windows 11 (build 22000 or later)"

# Writes, reads, unbuffered: each refused the same way, nothing touched.
for args in "-w100" "-w50 -Sh" "-w0 -Su -o8 -t2"; do
  # shellcheck disable=SC2086
  iospd --engine=ioring $args -b4K -d1 -W0 -C0 "$f"
  expect_rc 1 "--engine=ioring $args"
  expect_err "$missing" "--engine=ioring $args"
  # With -t2 either thread may be the first to fail.
  expect_out "The test failed: cannot create the I/O queue of thread " "--engine=ioring $args"
  expect_out ": $missing" "--engine=ioring $args"
  same_bytes "--engine=ioring $args"
done

# The XML result says why too.
iospd --engine=ioring -w100 -b4K -d1 -W0 -C0 -Rxml "$f"
expect_rc 1 "--engine=ioring -Rxml"
expect_out "$missing" "--engine=ioring -Rxml"
same_bytes "--engine=ioring -Rxml"

# -Rp makes no ring: the profile prints and exits 0.
iospd --engine=ioring -w100 -b4K -d1 -Rpxml "$f"
expect_rc 0 "--engine=ioring -Rpxml"
expect_out "<Path>" "--engine=ioring -Rpxml"

# DISKSPD 2.3's -u: the same refusal, once the 2.3 parser and the worker's
# ring choice are in this build (they come from other branches of issue
# #25; until then the switch is refused at parse with exit 3).
iospd --diskspd=2.3 -u -w100 -b4K -d1 -W0 -C0 "$f"
if [ "$rc" = 3 ]; then
  echo "skip: this build's parser does not take --diskspd=2.3 -u yet (exit 3: $(head -1 "$work/err"))"
else
  expect_rc 1 "-u"
  expect_err "$missing" "-u"
  same_bytes "-u"
fi

echo "win_ioring_test: $pass passed, $fail failed"
[ $fail = 0 ]

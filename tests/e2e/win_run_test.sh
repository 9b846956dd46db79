#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iospd.exe under wine, for what the Windows layer does around a run:
# -l without "Lock pages in memory" fails with DISKSPD's words and exit
# code 1 (no quiet fall-back to small pages); -I runs and says so in the
# report; -g and -j run with millisecond waits; a depth-1 run on a file
# ends normally. Usage: win_run_test.sh <iospd.exe> <source dir>
set -uo pipefail
exe=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-winrun.XXXXXX")
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

f=$(winepath -w "$work/t.dat" 2>/dev/null)
head -c $((1024 * 1024)) /dev/zero >"$work/t.dat"

# -l: wine, like Windows by default, does not grant the privilege.
iospd -l -b4K -d1 -W0 -C0 "$f"
expect_rc 1 "-l without the privilege"
expect_err "Error adjusting token privileges for SeLockMemoryPrivilege (error code: 1300)" "-l"
expect_err "Lock pages in memory" "-l"
expect_err "or run without -l" "-l"
[ ! -s "$work/out" ] && ok || bad "-l: a report was printed for a run that never started"

# -I: the hint is set (wine cannot read it back) and the report says so.
iospd -I2 -b4K -d1 -W0 -C0 "$f"
expect_rc 0 "-I2"
expect_out "IO priority: low" "-I2"

# -g (bytes per ms) at depth 4: 4 KiB x 100 per second, paced by the
# throttle's millisecond waits.
iospd -g400 -o4 -b4K -d2 -W0 -C0 -Rxml "$f"
expect_rc 0 "-g"
ios=$(sed -n 's:.*<ReadCount>\([0-9]*\)</ReadCount>.*:\1:p' "$work/out" | head -1)
if [ -n "$ios" ] && [ "$ios" -ge 180 ] && [ "$ios" -le 220 ]; then ok; else bad "-g400 for 2 s: $ios reads, expected about 200"; fi

# -j with a burst: 10 I/Os, then 5 ms of think time, at depth 1.
iospd -i10 -j5 -b4K -d1 -W0 -C0 "$f"
expect_rc 0 "-i/-j"

echo "win_run_test: $pass passed, $fail failed"
[ $fail = 0 ]

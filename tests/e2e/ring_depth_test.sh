#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue #25: DISKSPD 2.3's -u on Linux runs io_uring and keeps -o I/Os in
# flight at the device, as depth_loop_test.sh checks for --engine=: a loop
# device (direct I/O over a file) under 4K random O_DIRECT reads, its
# /sys/block/<loop>/inflight sampled for the whole run. The most reads in
# flight must be exactly -o, whatever the batch (-u: 25 % of -o, -u3,
# -un50p), and the report must name io_uring. --engine= naming another
# engine with -u is refused before any I/O.
# Needs root and a free loop device; exits 77 (skipped) otherwise.
# Usage: ring_depth_test.sh <iospd binary>
set -uo pipefail
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null ||
   [ ! -e /dev/loop-control ]; then
  echo "skipped: needs root and loop devices (losetup, /dev/loop-control)"
  exit 77
fi
work=$(mktemp -d "$(dirname "$exe")/iospd-ring.XXXXXX")
dev=""
cleanup() {
  [ -n "$dev" ] && losetup -d "$dev"
  rm -rf "$work"
}
trap cleanup EXIT
truncate -s 64M "$work/img" || exit 1
dev=$(losetup -f --show --direct-io=on "$work/img" 2>"$work/lerr") || {
  echo "skipped: losetup: $(cat "$work/lerr")"
  dev=""
  exit 77
}
name=$(basename "$dev")
pass=0
fail=0
DEPTH=6
tab=$'\t'
for u in -u -u3 -un50p; do
  "$exe" --diskspd=2.3 -b4K -r -Su -o$DEPTH -t1 -d4 -W0 -C0 $u "$dev" \
    >"$work/out" 2>"$work/err" &
  pid=$!
  sleep 0.5
  max=0
  samples=0
  while kill -0 $pid 2>/dev/null && [ $samples -lt 400 ]; do
    read -r r _ <"/sys/block/$name/inflight"
    [ "$r" -gt $max ] && max=$r
    samples=$((samples + 1))
    sleep 0.01
  done
  wait $pid
  rc=$?
  if [ $rc != 0 ] && grep -q "io_uring is not available" "$work/err"; then
    echo "note: io_uring unavailable here, not checked"
    continue
  fi
  if [ $rc = 0 ] && [ $max = $DEPTH ] &&
     grep -qF "I/O engine:${tab}${tab}io_uring, $DEPTH I/Os in flight per thread" "$work/out"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $u -o$DEPTH: exit $rc, at most $max reads in flight at $dev" \
         "($samples samples), want $DEPTH, and the io_uring engine line"
    grep -F "I/O engine" "$work/out" | head -2
    head -3 "$work/err"
  fi
  echo "$u: at most $max reads in flight ($samples samples)"
done
# -u with another engine: refused, nothing read.
"$exe" --diskspd=2.3 -b4K -r -Su -o4 -d1 -W0 -C0 -u --engine=libaio "$dev" \
  >"$work/out" 2>"$work/err"
rc=$?
if [ $rc = 1 ] && grep -qF -- "-u submits through io_uring, but --engine=libaio names another engine; drop -u or the --engine= switch" "$work/err"; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL: -u --engine=libaio: exit $rc, want 1 and the conflict named"
  head -3 "$work/err"
fi
echo "ring_depth_test: $pass passed, $fail failed"
[ $fail = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue #12: each engine really keeps -o I/Os in flight at the device, seen
# by the kernel, not by iospd: a loop device (direct I/O over a file) under
# a 4K random O_DIRECT read run, its /sys/block/<loop>/inflight sampled
# while the run goes. The most reads in flight must be exactly -o (never
# more), and 1 for psync, which runs one at a time and says so.
# Needs root and a free loop device; exits 77 (skipped) otherwise.
# Usage: depth_loop_test.sh <iospd binary>
set -uo pipefail
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null ||
   [ ! -e /dev/loop-control ]; then
  echo "skipped: needs root and loop devices (losetup, /dev/loop-control)"
  exit 77
fi
work=$(mktemp -d "$(dirname "$exe")/iospd-depth.XXXXXX")
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
for e in io_uring libaio threads psync; do
  "$exe" -b4K -r -Su -o$DEPTH -t1 -d4 -W0 -C0 --engine=$e "$dev" \
    >"$work/out" 2>"$work/err" &
  pid=$!
  want=$DEPTH
  [ $e = psync ] && want=1
  sleep 0.5
  max=0
  samples=0
  # For the whole run (not only 1.5 s of it): one-at-a-time psync I/Os
  # on a loaded machine can slip between 150 samples of 10 ms.
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
  if [ $rc = 0 ] && [ $max = $want ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $e -o$DEPTH: exit $rc, at most $max reads in flight at $dev" \
         "($samples samples), want $want"
    head -3 "$work/err"
  fi
  echo "$e: at most $max reads in flight ($samples samples)"
done
echo "depth_loop_test: $pass passed, $fail failed"
[ $fail = 0 ]

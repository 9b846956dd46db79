#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --ping on a folder never lands where nobody asked (issue #30,
# docs/ping.md "The temporary file in a folder"):
#  - a --working-set larger than the folder's free space (a 1 MiB tmpfs;
#    root only, skipped with the reason otherwise) is refused with exit 1
#    before anything is written: the message names the size, the free
#    space and what to do, and no temporary file is left;
#  - SIGHUP (the terminal went away) ends the probe like Ctrl-C: the
#    summary, exit 0, the temporary file gone; an ignored SIGHUP (nohup)
#    stays ignored (native only).
# Usage: ping_safety_test.sh <iospd binary> <source dir> [--wine]
set -u
exe=$1
src=$2
wine=0
[ "${3:-}" = "--wine" ] && wine=1
. "$src/tests/e2e/lib.sh"
work=$(mktemp -d)
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
wait_lines() {
  local i
  for i in $(seq 300); do
    [ "$(grep -c 'request=' "$1" 2>/dev/null)" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 1
}

# ---- a working set larger than the free space --------------------------------
if [ "$(id -u)" != 0 ]; then
  echo "skipped: the free-space check needs a small tmpfs, and mounting one needs root"
elif ! mkdir small || ! mount -t tmpfs -o size=1M tmpfs small; then
  echo "skipped: cannot mount a tmpfs here"
else
  mounted=$work/small
  avail=$(( $(stat -f -c '%a * %S' small) ))
  run_exe --ping=3 --working-set=4M small >out.txt 2>err.txt
  rc=$?
  [ $rc = 1 ] && ok || bad "a working set over the free space: exit $rc, expected 1: $(cat err.txt)"
  grep -q "^iospd: error: --ping: the working set of 4194304 bytes (4MiB) does not fit in 'small': its file system has $avail bytes ([0-9.]*[KM]iB) free; nothing was written. Give a smaller --working-set or free some space there" err.txt \
    && ok || bad "a working set over the free space: message: $(cat err.txt)"
  [ -z "$(ls -A small)" ] && ok || bad "a working set over the free space left: $(ls -A small)"
  [ "$(stat -f -c '%a' small)" = "$(( avail / $(stat -f -c '%S' small) ))" ] && ok \
    || bad "a working set over the free space: space was taken"
  ! grep -q 'request=' out.txt && ok || bad "a refused probe made requests"
  # one that fits still runs, and leaves nothing
  run_exe --ping=3 --interval=10ms --working-set=256K small >out.txt 2>err.txt
  rc=$?
  [ $rc = 0 ] && [ "$(grep -c 'request=' out.txt)" = 3 ] && [ -z "$(ls -A small)" ] && ok \
    || bad "a working set that fits: exit $rc: $(cat out.txt err.txt; ls -A small)"
fi

# ---- SIGHUP --------------------------------------------------------------------
if [ $wine = 0 ]; then
  mkdir dir
  "$exe" --ping --interval=100ms dir >out.txt 2>err.txt &
  pid=$!
  wait_lines out.txt 3
  [ -n "$(ls -A dir)" ] && ok || bad "no temporary file while probing"
  kill -HUP $pid
  wait $pid
  rc=$?
  n=$(grep -c 'request=' out.txt)
  if [ $rc = 0 ] && grep -q "^generated $n requests in " out.txt &&
     [ -z "$(ls -A dir)" ]; then ok; else
    bad "SIGHUP (rc $rc, $n lines): $(cat out.txt err.txt; ls -A dir)"
  fi
  # nohup: an ignored SIGHUP stays ignored; SIGINT still ends the probe.
  (trap '' HUP; exec "$exe" --ping --interval=100ms dir >out.txt 2>err.txt) &
  pid=$!
  wait_lines out.txt 2
  kill -HUP $pid
  sleep 0.5
  kill -0 $pid 2>/dev/null && ok || bad "an ignored SIGHUP ended the probe"
  kill -INT $pid
  wait $pid
  rc=$?
  [ $rc = 0 ] && [ -z "$(ls -A dir)" ] && ok || bad "SIGINT after an ignored SIGHUP: rc $rc, $(ls -A dir)"
fi

finish ping_safety

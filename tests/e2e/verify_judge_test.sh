#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How --verify and --verify-only judge (docs/verify.md, "How a block is
# judged"; issue #30), end to end with real runs of the binary:
#  - one bit of a block header's generation flipped on disk: --verify-only
#    reports a bad checksum at that offset and exits 1 (it used to call the
#    block indeterminate and exit 0);
#  - -Sm --verify with two writing threads (-t2, -F2) is refused (exit 3,
#    saying why and what to use); -Sm --verify with one thread runs with
#    zero failures;
#  - a --verify-only that could not check (its state in use by another
#    process; a read-only mount, root only) never prints a clean-looking
#    summary: the target's line says "incomplete ... not a pass"; a --verify
#    run whose timespan failed says so in its verify paragraph;
#  - the printed failures name distinct blocks first.
# With --wine: iospd.exe under wine (the parts that exist on Windows).
# Usage: verify_judge_test.sh <iospd binary> <source dir> [--wine]
set -u
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift 2
wine=0
for a in "$@"; do
  case "$a" in --wine) wine=1 ;; esac
done
if ! command -v python3 >/dev/null; then
  echo "skip: python3 is needed to flip bits on disk"
  exit 77
fi
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # ok, bad, finish, run_exe
work=$(mktemp -d "$PWD/verify_judge.XXXXXX") || exit 1
mnt=""
lockpid=""
# retry <command...>: a file system stays busy for a moment after the last
# iospd exits (io_uring drops its file references asynchronously).
retry() {
  local i
  for i in $(seq 50); do
    "$@" 2>/dev/null && return 0
    sleep 0.1
  done
  "$@"
}
cleanup() {
  [ -n "$lockpid" ] && kill "$lockpid" 2>/dev/null
  cd /
  if [ -n "$mnt" ]; then
    retry umount "$mnt" && rmdir "$mnt"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
bad_detail() { echo "--- stdout"; tail -5 out.txt 2>/dev/null; echo "--- stderr"; head -20 err.txt 2>/dev/null; }

# run <expected exit> <args...>: output in out.txt / err.txt.
run() {
  local want=$1
  shift
  run_exe "$@" </dev/null >out.txt 2>err.txt
  local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "iospd $* exited $rc, expected $want"; fi
}
has() { # has <file> <fixed text> <what>
  if grep -qF -- "$2" "$1"; then ok; else bad "$3: no '$2' in $1"; fi
}
hasnt() {
  if grep -qF -- "$2" "$1"; then bad "$3: '$2' in $1"; else ok; fi
}
# flip <file> <byte offset> <mask>: xors one byte in place.
flip() {
  python3 -c "
import sys
f = open(sys.argv[1], 'r+b'); o = int(sys.argv[2]); f.seek(o); b = f.read(1)
f.seek(o); f.write(bytes([b[0] ^ int(sys.argv[3])]))" "$@"
}

dur=1
[ $wine = 1 ] && dur=2

# ---- a flipped bit of the header's generation --------------------------------
# Block 5's generation is at byte 5*4096 + 32; bit 1 of its fifth byte
# (bit 33 of the number) raises it far above any generation handed out.
run 0 -c256K -b4K -s -w100 -o4 -d$dur -W0 -C0 --verify g.dat
run 0 --verify-only -b4K g.dat
has out.txt "checked 64, failures 0 " "before the flip"
flip g.dat $((5 * 4096 + 32 + 4)) 2
run 1 --verify-only -b4K g.dat
has out.txt "checked 63, failures 1 (bad checksum 1," "generation bit flipped"
has out.txt "indeterminate 0," "generation bit flipped"
has err.txt "verify FAILED: target 'g.dat' offset 20480 (block 5): bad checksum: expected crc32 0x" "generation bit flipped"

# ---- -Sm with two writers per block ------------------------------------------
why="--verify with memory-mapped I/O (-Sm): target 'm.dat' is written by 2 threads (-t, -F or the same file named twice), whose copies into one block through the mapping can interleave and would read back as torn blocks on healthy storage; use one thread per target with -Sm (-t1, no -F), or leave -Sm out to verify several writing threads"
run 0 -c1M -b4K -s -w100 -o4 -d$dur -W0 -C0 --verify m.dat
for sw in "-t2" "-F2"; do
  # shellcheck disable=SC2086
  run 3 -b4K -r -w50 $sw -o8 -d$dur -W0 -C0 -Sm --verify m.dat
  has err.txt "error: $why" "-Sm --verify $sw"
done
run 3 -b4K -r -w50 -o8 -d$dur -W0 -C0 -Sm --verify m.dat m.dat
has err.txt "error: ${why}" "-Sm --verify, the file named twice"
# One writing thread: no refusal, and not one false failure.
run 0 -b4K -r -w50 -o8 -d$dur -W0 -C0 -Sm --verify m.dat
if grep -q "written [1-9][0-9]*, checked [1-9][0-9]*, failures 0 " out.txt; then ok
else bad "-Sm --verify -t1: no clean verified mixed run"; fi
run 0 --verify-only -b4K m.dat
has out.txt "checked 256, failures 0 " "after -Sm -t1"
# Reading threads beside no writer are fine.
run 0 -b4K -r -w0 -t2 -o8 -d$dur -W0 -C0 -Sm --verify m.dat
has out.txt "failures 0 " "-Sm --verify -t2 -w0"

# ---- the printed failures name distinct blocks first ---------------------------
# 16 blocks, all zeroed after a verified write; random reads hit each many
# times. The first --verify-errors lines name as many blocks as there are.
distinct_first() { # distinct_first <lines> <distinct> <what>
  python3 - "$1" "$2" <<'PY' && ok || bad "$3: the printed failures repeat a block before naming $2"
import re, sys
n, d = int(sys.argv[1]), int(sys.argv[2])
offs = re.findall(r"^verify FAILED: target '[^']*' offset (\d+) ", open("err.txt").read(), re.M)
assert len(offs) == n, offs
assert len(set(offs[:d])) == d, offs
PY
}
run 0 -c64K -b4K -s -w100 -o1 -d$dur -W0 -C0 --verify z.dat
python3 -c "open('z.dat', 'r+b').write(bytes(65536))"
run 1 -b4K -r -w0 -o1 -d$dur -W0 -C0 --verify z.dat
distinct_first 10 10 "one thread"
run 1 -b4K -r -w0 -t2 -o1 -d$dur -W0 -C0 --verify --verify-errors=20 z.dat
distinct_first 20 16 "two threads, --verify-errors=20"
has err.txt "failures in all, 20 shown" "two threads, --verify-errors=20"

# ---- a check that could not run is no pass ------------------------------------
noclean() { # the summary must not read as a clean pass
  has out.txt "incomplete: the check stopped before the end (see the error), not a pass" "$1"
}
if [ $wine = 0 ] && command -v flock >/dev/null; then
  # Another process holds the state (as a running --verify would).
  # (exec: the pid killed below is the process holding the lock.)
  (exec 9<>g.dat.iospd-verify && flock 9 && exec sleep 30) >/dev/null 2>&1 &
  lockpid=$!
  for _ in $(seq 50); do
    flock -n g.dat.iospd-verify true 2>/dev/null || break
    sleep 0.1
  done
  run 3 --verify-only -b4K g.dat
  noclean "state in use"
  kill "$lockpid" 2>/dev/null
  wait "$lockpid" 2>/dev/null
  lockpid=""
fi
# No state at all (refused, exit 3) reads the same way.
run 0 -c64K -b4K -s -w100 -o1 -d$dur -W0 -C0 n.dat
run 3 --verify-only -b4K n.dat
noclean "no state"

if [ $wine = 1 ]; then
  :
elif [ "$(id -u)" != 0 ]; then
  echo "skip: read-only mount part (needs root to mount a tmpfs)"
else
  mnt=$(mktemp -d /tmp/verify_judge_ro.XXXXXX)
  if mount -t tmpfs -o size=8m tmpfs "$mnt"; then
    (cd "$mnt" && "$exe" -c256K -b4K -s -w100 -o4 -d1 -W0 -C0 --verify r.dat >/dev/null 2>&1)
    if retry mount -o remount,ro "$mnt"; then ok; else bad "mount -o remount,ro $mnt failed"; fi
    run_exe --verify-only -b4K "$mnt/r.dat" >out.txt 2>err.txt
    rc=$?
    if [ $rc = 0 ]; then
      # A --verify-only that can check a read-only mount: all of it.
      has out.txt "checked 64, failures 0 " "read-only mount (checked)"
      hasnt out.txt "incomplete" "read-only mount (checked)"
    else
      [ $rc = 1 ] && ok || bad "read-only mount: exit $rc, expected 1"
      noclean "read-only mount"
    fi
    # A --verify run there fails its timespan: the paragraph says so.
    run_exe -b4K -w0 -d1 -W0 -C0 --verify "$mnt/r.dat" >out.txt 2>err.txt
    rc=$?
    if [ $rc != 0 ]; then
      has out.txt "incomplete: the timespan failed (see the error), not a pass" "--verify on a read-only mount"
      run_exe -b4K -w0 -d1 -W0 -C0 --verify -Rjson "$mnt/r.dat" >out.txt 2>err.txt
      python3 -c "
import json
d = json.load(open('out.txt'))
t = d['timespans'][0]
assert t['error'], t
v = t.get('verify')
assert v is None or v['complete'] is False, v" && ok || bad "--verify -Rjson on a read-only mount: complete is not false"
    else
      has out.txt "failures 0 " "--verify on a read-only mount (ran)"
    fi
  else
    echo "skip: read-only mount part (mount -t tmpfs failed)"
  fi
fi

finish verify_judge_test

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of runs that fail (Linux, the native iospd binary):
#  - the target truncated under a running test (buffered, -Su, -Sm reads and
#    -Sm writes): exit 1, the target and offset named on stderr and in
#    <Error>, and the results measured before the truncation, with no
#    zero-byte I/O counted (BytesCount = IOCount x 4096);
#  - the real error in -Rxml's <Error> for a missing device, an ENOSPC write
#    on a 1 MiB tmpfs and a loop device whose backing file cannot grow (the
#    last two need root and mount; skipped with the reason otherwise).
# With --wine, iospd.exe under wine, the truncation cases only (buffered and
# -Sm: wine maps the file with mmap, so the host's truncate makes the view
# fault, which src/win/mapped.c must catch as on Windows).
# Usage: fail_test.sh <iospd binary> [--wine]
set -u
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
if [ ! -f "$exe" ]; then
  echo "no iospd binary at $exe"
  exit 1
fi
wine=0
for a in "$@"; do
  case "$a" in --wine) wine=1 ;; esac
done
# Wine starts slowly: give the run time to reach its measurement.
delay=0.5 dur=2
[ $wine = 1 ] && delay=2.5 dur=6
iospd() {
  if [ $wine = 1 ]; then wine "$exe" "$@" </dev/null; else "$exe" "$@"; fi
}
if ! command -v python3 >/dev/null; then
  echo "skip: python3 is needed to read the XML results"
  exit 77
fi
# In the build tree, not /tmp: -Su needs a file system with O_DIRECT.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # ok, bad, finish
work=$(mktemp -d "$PWD/fail_test.XXXXXX") || exit 1
mnt=""
loopdev=""
bgpid=""
cleanup() {
  [ -n "$bgpid" ] && kill "$bgpid" 2>/dev/null
  [ -n "$loopdev" ] && losetup -d "$loopdev"
  [ -n "$mnt" ] && umount "$mnt"
  cd /
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1


# check_xml <xml> <stderr> <block> <min s> <max s> <substring...>: the
# <Error> equals the "iospd: error: " line of stderr and holds every substring;
# with a block size, the timespan measured between min and max seconds and
# every target moved exactly block bytes per counted I/O (no short or empty
# I/O counted), at least one.
check_xml() {
  python3 - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
xml, errf, block, lo, hi = sys.argv[1:6]
subs = sys.argv[6:]
root = ET.parse(xml).getroot()
ts = root.find("TimeSpan")
e = ts.findtext("Error")
assert e is not None, "no <Error>"
line = [l for l in open(errf).read().splitlines() if l.startswith("iospd: error: ")]
assert line and line[0] == "iospd: error: " + e, (line, e)
for s in subs:
    assert s in e, (s, e)
assert "interrupted before" not in e, e
if block != "-":
    secs = float(ts.findtext("TestTimeSeconds"))
    assert float(lo) <= secs <= float(hi), ("TestTimeSeconds", secs)
    total = 0
    for t in ts.iter("Target"):
        n, b = int(t.findtext("IOCount")), int(t.findtext("BytesCount"))
        assert b == n * int(block), ("bytes", b, "I/Os", n)
        total += n
    assert total > 0, "no I/O counted"
    print("  measured %.2f s, %d I/Os, %.0f IOPS" % (secs, total, total / secs))
PY
}

# truncated <name> <iospd args...>: runs -d$dur on a 64 MiB file, truncates
# it to 0 bytes $delay s after the worker threads exist.
truncated() {
  local name=$1
  shift
  local f="$name.dat"
  iospd -c64M -d1 -W0 -C0 -b1M "$f" >/dev/null 2>&1 || {
    bad "$name: cannot create $f"
    return
  }
  local rc
  if [ $wine = 1 ]; then
    # $! of a backgrounded wine is not the Windows process: run it in a
    # subshell that records the exit code, and give wine time to start.
    (
      wine "$exe" -d$dur -W0 -C0 -b4K -r -Rxml "$@" "$f" </dev/null \
        >"$name.xml" 2>"$name.err"
      echo $? >"$name.rc"
    ) &
    bgpid=$!
    sleep $delay
    truncate -s 0 "$f"
    wait "$bgpid"
    rc=$(cat "$name.rc")
  else
    "$exe" -d$dur -W0 -C0 -b4K -r -Rxml "$@" "$f" >"$name.xml" 2>"$name.err" &
    bgpid=$!
    local i
    for ((i = 0; i < 100; i++)); do
      [ "$(ls "/proc/$bgpid/task" 2>/dev/null | wc -l)" -ge 2 ] && break
      sleep 0.05
    done
    sleep $delay
    truncate -s 0 "$f"
    wait "$bgpid"
    rc=$?
  fi
  bgpid=""
  if [ "$rc" != 1 ]; then
    bad "$name: exit code $rc, want 1; stderr: $(head -c 600 "$name.err")"
    return
  fi
  if [ "$name" = mapped-read ] || [ "$name" = mapped-write ]; then
    set -- "of target '$f' through its memory-mapped view (-Sm) failed" \
      "the file was truncated during the run (now 0 bytes, 67108864 at the start)"
  else
    set -- "of target '$f' moved 0 of 4096 bytes" \
      "the target now ends before that I/O's end (now 0 bytes, 67108864 at the start); was it truncated during the run?"
  fi
  if check_xml "$name.xml" "$name.err" 4096 0.1 $((dur - 1)).9 "$@"; then
    ok
  else
    bad "$name: results or message wrong; stderr: $(head -c 600 "$name.err")"
  fi
}

truncated buffered -o4 -t2
[ $wine = 0 ] && truncated unbuffered -o4 -Su
truncated mapped-read -o2 -Sm
truncated mapped-write -o2 -Sm -w100
if [ $wine = 1 ]; then
  echo "fail_test: $pass passed, $fail failed"
  [ "$fail" = 0 ]
  exit
fi

# The same failure in the text report: named in place of DISKSPD's
# "interrupted" line, results after it.
f="text.dat"
"$exe" -c16M -d1 -W0 -C0 -b1M "$f" >/dev/null 2>&1
"$exe" -d2 -W0 -C0 -b4K "$f" >text.out 2>text.err &
bgpid=$!
sleep 0.7
truncate -s 0 "$f"
wait "$bgpid"
rc=$?
bgpid=""
if [ "$rc" = 1 ] &&
  grep -q "^The test failed: read at offset [0-9]* of target '$f' moved 0 of 4096 bytes" text.out &&
  grep -q "^The results measured before the failure follow.$" text.out &&
  grep -q "^total: " text.out && ! grep -q "interrupted before" text.out; then
  ok
else
  bad "text report: rc $rc; $(grep -m2 -e 'test failed' -e '^iospd: error' text.out text.err)"
fi

# A missing device: its own message, not "interrupted".
dev="/dev/iospd-missing-$$"
"$exe" -d1 -W0 -b4K -Rxml "$dev" >missing.xml 2>missing.err
rc=$?
if [ "$rc" = 1 ] && check_xml missing.xml missing.err - 0 0 \
  "target '$dev' does not exist; create it with -c<size>"; then
  ok
else
  bad "missing device: rc $rc; $(cat missing.err)"
fi

# ENOSPC on a 1 MiB tmpfs: a sparse 64 MiB file, 4 KiB writes from offset 0
# (one page each, so none can be partial); the 257th write fails.
if [ "$(id -u)" != 0 ]; then
  echo "skip: ENOSPC and full loop device: mounting a tmpfs needs root"
elif ! mkdir -p "$work/mnt" || ! mount -t tmpfs -o size=1M tmpfs "$work/mnt" 2>mount.err; then
  echo "skip: ENOSPC and full loop device: cannot mount a tmpfs: $(cat mount.err)"
else
  mnt="$work/mnt"
  truncate -s 64M "$mnt/big.dat"
  "$exe" -w100 -b4K -d2 -W0 -Rxml "$mnt/big.dat" >nospc.xml 2>nospc.err
  rc=$?
  if [ "$rc" = 1 ] && check_xml nospc.xml nospc.err 4096 0 2.5 \
    "write at offset 1048576 of target '$mnt/big.dat' failed (thread 0): no space left on device"; then
    ok
  else
    bad "ENOSPC: rc $rc; $(cat nospc.err)"
  fi
  rm -f "$mnt/big.dat"
  # A device that fails: a loop device on a sparse file of that tmpfs.
  truncate -s 64M "$mnt/disk.img"
  if ! command -v losetup >/dev/null ||
    ! loopdev=$(losetup -f --show "$mnt/disk.img" 2>loop.err); then
    loopdev=""
    echo "skip: full loop device: losetup cannot attach one: $(cat loop.err 2>/dev/null)"
  else
    "$exe" -w100 -b4K -d2 -W0 -Su -Rxml "$loopdev" >loop.xml 2>loop.err
    rc=$?
    if [ "$rc" = 1 ] && check_xml loop.xml loop.err - 0 0 \
      "write at offset 1048576 of target '$loopdev' failed (thread 0): "; then
      ok
    else
      bad "full loop device: rc $rc; $(cat loop.err)"
    fi
  fi
fi

finish fail_test

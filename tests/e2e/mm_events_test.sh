#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of memory-mapped I/O (-Sm, -N, -Smw) and named events
# (-yr/-ys/-yf/-yp/-ye) with the real iospd binary, natively or (--wine)
# iospd.exe under wine. Event names carry this shell's pid, so parallel runs
# do not meet.
# Usage: mm_events_test.sh <iospd binary> [--wine]
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
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # ok, bad, finish
work=$(mktemp -d)
bg_pids=()
cleanup() {
  for p in "${bg_pids[@]}"; do kill "$p" 2>/dev/null; done
  cd /
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1


# iospd args...: stdout -> out, stderr -> err, sets rc.
iospd() {
  if [ $wine = 1 ]; then
    wine "$exe" "$@" >out 2>err
  else
    "$exe" "$@" >out 2>err
  fi
  rc=$?
}
# bg <name> args...: starts iospd in the background, output in <name>.out /
# <name>.err; its pid goes to pid_<name>.
bg() {
  local name=$1
  shift
  if [ $wine = 1 ]; then
    wine "$exe" "$@" >"$name.out" 2>"$name.err" &
  else
    "$exe" "$@" >"$name.out" 2>"$name.err" &
  fi
  local p=$!
  bg_pids+=("$p")
  eval "pid_$name=$p"
}
# wait_line <file> <text> <seconds>: 0 once the file holds the text.
wait_line() {
  local i
  for ((i = 0; i < $3 * 5; i++)); do
    grep -qF -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.2
  done
  return 1
}
# wait_exit <pid> <seconds>: the process's exit code, or 124 on time-out
# (then it is killed).
wait_exit() {
  local i
  for ((i = 0; i < $2 * 5; i++)); do
    if ! kill -0 "$1" 2>/dev/null; then
      wait "$1"
      return $?
    fi
    sleep 0.2
  done
  kill "$1" 2>/dev/null
  wait "$1" 2>/dev/null
  return 124
}
# xml_num <element>: the first value of <element> in out.
xml_num() { sed -n "s:.*<$1>\([0-9]*\)</$1>.*:\1:p" out | head -1; }

# ---- memory-mapped I/O ----------------------------------------------------

# A mixed random run through the mapping: counts add up, bytes are whole
# blocks, both reads and writes happened, and the profile says -Sm.
iospd -c4M -d1 -W0 -Sm -w50 -b4K -r -Rxml f
if [ $rc = 0 ]; then ok; else bad "-Sm run exit $rc: $(head -3 err)"; fi
n=$(xml_num IOCount)
nr=$(xml_num ReadCount)
nw=$(xml_num WriteCount)
br=$(xml_num ReadBytes)
bw=$(xml_num WriteBytes)
bt=$(xml_num BytesCount)
if [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$nr" -gt 0 ] && [ "$nw" -gt 0 ] &&
  [ $((nr + nw)) = "$n" ] && [ "$br" = $((nr * 4096)) ] &&
  [ "$bw" = $((nw * 4096)) ] && [ "$bt" = $((br + bw)) ]; then
  ok
else
  bad "-Sm counts inconsistent: IOCount=$n ReadCount=$nr WriteCount=$nw" \
    "ReadBytes=$br WriteBytes=$bw BytesCount=$bt"
fi
if grep -q "<MemoryMappedIo>true</MemoryMappedIo>" out; then ok; else
  bad "-Rxml profile lacks <MemoryMappedIo>true</MemoryMappedIo>"
fi

# The text echo names the mode and the flush.
iospd -c1M -d1 -W0 -Sm -Nv -w100 -b4K g
if [ $rc = 0 ]; then ok; else bad "-Sm -Nv run exit $rc: $(head -3 err)"; fi
if grep -q "memory mapped I/O enabled, flush mode: FlushViewOfFile" out; then
  ok
else
  bad "-Sm -Nv: no 'memory mapped I/O enabled, flush mode: FlushViewOfFile'"
fi
if grep -Eq "^total: +[1-9][0-9]* \|" out; then ok; else
  bad "-Sm -Nv: no I/O counted"
fi

# Mapped writes reach the file: a sequential -w100 run over a 64 KiB file
# rewrites every block, first with the default pattern (byte k = k mod 256,
# since blocks are multiples of 256 bytes), then with zeros (-Z).
have_py=0
command -v python3 >/dev/null && have_py=1
if [ $have_py = 1 ]; then
  python3 -c 'import sys; sys.stdout.buffer.write(bytes(i & 255 for i in range(65536)))' >pattern.bin
  head -c 65536 /dev/zero >zeros.bin
  iospd -c64K -d1 -W0 -Sm -w100 -b4K -Z h
  if [ $rc = 0 ] && cmp -s h zeros.bin; then ok; else
    bad "-Sm -Z -w100: file is not all zeros (exit $rc)"
  fi
  iospd -d1 -W0 -Smw -w100 -b4K h
  if [ $rc = 0 ] && cmp -s h pattern.bin; then ok; else
    bad "-Smw -w100: file does not hold the write pattern (exit $rc)"
  fi
  iospd -d1 -W0 -Sm -Nv -w100 -b4K -Z h
  if [ $rc = 0 ] && cmp -s h zeros.bin; then ok; else
    bad "-Sm -Nv -Z -w100: file is not all zeros (exit $rc)"
  fi
else
  echo "note: python3 missing; file content checks skipped"
fi

# Devices cannot be mapped (DISKSPD refuses too): exit 1, a clear message.
# Natively only, where a loop device can be examined (root).
if [ $wine = 0 ] && [ -b /dev/loop0 ] && [ -r /dev/loop0 ]; then
  iospd -Sm -d1 -W0 /dev/loop0
  if [ $rc = 1 ] && grep -q "memory-mapped I/O (-Sm) works only on files" err
  then ok; else
    bad "-Sm on a block device: exit $rc: $(head -2 err)"
  fi
fi

# -Nn needs Windows (Linux refuses the switch: exit 3) and persistent
# memory (wine and ordinary volumes have none: the run fails, exit 1). A
# clear message naming -Nn either way, never a silent plain copy.
want=3
[ $wine = 1 ] && want=1
iospd -c1M -d1 -W0 -Sm -Nn -w100 g
if [ $rc = $want ] && grep -q -- "-Nn" err; then ok; else
  bad "-Sm -Nn: expected exit $want naming -Nn, got $rc: $(head -2 err)"
fi

# ---- named events -----------------------------------------------------------

sfx=$$
# -ye of an event nobody holds: exit 1, the name in the message.
iospd "-yeiospd_none_$sfx"
if [ $rc = 1 ] && grep -q "iospd_none_$sfx" err && [ ! -s out ]; then ok; else
  bad "-ye of a missing event: exit $rc, stderr: $(head -2 err)"
fi

# A waits for GO, sets S when it starts measuring and F when it stops. B and
# C wait on S and F (with -yr) and can only run once A has set them.
GO=go_$sfx S=s_$sfx F=f_$sfx
bg A -c1M -d3 -W0 -C0 -v "-yr$GO" "-ys$S" "-yf$F" a.dat
if wait_line A.out "waiting for the start event" 60; then ok; else
  bad "-yr: A never said it waits for its start event: $(head -3 A.err)"
fi
bg B -c1M -d1 -W0 -v "-yr$S" b.dat
bg C -c1M -d1 -W0 -v "-yr$F" c.dat
wait_line B.out "waiting for the start event" 60
wait_line C.out "waiting for the start event" 60
sleep 1
if grep -q "starting warm up" A.out B.out C.out; then
  bad "a run started before its -yr event was set"
else
  ok
fi
iospd "-ye$GO"
if [ $rc = 1 ] && grep -qF "Set event '$GO'." out; then ok; else
  bad "-ye$GO: exit $rc, stdout: $(head -2 out) stderr: $(head -2 err)"
fi
if wait_line A.out "starting measurements" 60; then ok; else
  bad "A did not start measuring after -ye"
fi
# F is set only when A's 3 s of measuring end: C must still be waiting.
if grep -q "starting warm up" C.out; then
  bad "-yf was set before the measurement ended"
else
  ok
fi
wait_exit "$pid_A" 120
a_rc=$?
wait_exit "$pid_B" 120
b_rc=$?
wait_exit "$pid_C" 120
c_rc=$?
if [ $a_rc = 0 ] && grep -q "actual test time" A.out; then ok; else
  bad "A (-yr/-ys/-yf) exit $a_rc: $(head -3 A.err)"
fi
if [ $b_rc = 0 ] && grep -q "actual test time" B.out; then ok; else
  bad "B (waiting on A's -ys event) exit $b_rc: $(head -3 B.err)"
fi
if [ $c_rc = 0 ] && grep -q "actual test time" C.out; then ok; else
  bad "C (waiting on A's -yf event) exit $c_rc: $(head -3 C.err)"
fi

# -yp: setting the stop event ends a 60 s run early, with results, exit 0
# and without the Ctrl-C line.
P=p_$sfx
bg D -c1M -d60 -W0 -v "-yp$P" d.dat
if wait_line D.out "starting measurements" 60; then ok; else
  bad "-yp run never started measuring: $(head -3 D.err)"
fi
sleep 1
iospd "-ye$P"
if [ $rc = 1 ] && grep -qF "Set event '$P'." out; then ok; else
  bad "-ye$P: exit $rc, stderr: $(head -2 err)"
fi
wait_exit "$pid_D" 30
d_rc=$?
secs=$(sed -n 's/^actual test time:[[:space:]]*\([0-9]*\)\..*/\1/p' D.out)
if [ $d_rc = 0 ] && [ -n "$secs" ] && [ "$secs" -lt 30 ]; then ok; else
  bad "-yp: exit $d_rc, actual test time '${secs}' s (expected < 30)"
fi
if grep -q "Ctrl-C" D.out; then bad "-yp stop printed the Ctrl-C line"; else
  ok
fi
if grep -q "stop event (-yp) is set" D.out; then ok; else
  bad "-yp with -v: no line saying the stop event stopped the run"
fi

finish mm_events_test

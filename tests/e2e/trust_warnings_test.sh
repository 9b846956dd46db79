#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The warnings about misleading set-ups (docs/warnings.md), made to happen
# for real: a sparse file and a written all-zero file read, buffered reads
# of a file that fits in memory, more threads than CPUs, a queue the engine
# cannot keep full (Little's law). Each must give its stderr line, an
# XML <Warning> and a JSON "warnings" entry of its kind; a prepared target
# (written by -c, not zero, -Su, threads <= CPUs) gives none.
# The busy-thread rule needs an idle machine to be made reliably; its
# numbers are tested in test_warnings.
# Usage: trust_warnings_test.sh <iospd binary> <source dir> [--wine]
set -uo pipefail
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
wine=0
[ "${3:-}" = --wine ] && wine=1
. "$src/tests/e2e/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-trustw.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

iospd() {
  local run=("$exe")
  [ $wine = 1 ] && run=(wine "$exe")
  "${run[@]}" "$@" >out 2>err
  rc=$?
  sed -i 's/\r$//' out err
}
bad_detail() { sed 's/^/  err: /' err | head -6; }
has() { grep -qF -- "$2" "$1"; }
# kind <kind> <switches...>: the run exits 0 and reports the kind in the
# stderr text (checked by the caller), in -Rxml and in -Rjson.
in_reports() {
  local k=$1
  shift
  iospd -Rxml "$@"
  if [ "$rc" = 0 ] && has out "<Kind>$k</Kind>"; then ok; else
    bad "$k: -Rxml exit $rc, no <Kind>$k</Kind>"; fi
  iospd -Rjson "$@"
  if [ "$rc" = 0 ] && python3 -c '
import json, sys
d = json.load(open("out"))
ks = [w["kind"] for w in d["timespans"][0]["warnings"]]
sys.exit(0 if sys.argv[1] in ks else 1)' "$k"; then ok; else
    bad "$k: -Rjson exit $rc, no warnings entry"; fi
}
cpus=$(nproc)

# --- a prepared target: written by -c (not zero), unbuffered, one thread ---
# The after-the-run warnings depend on the machine's load too (a worker
# that waits for a CPU keeps fewer I/Os in flight, which is then true): up
# to three tries, one of which must be silent. -o1: wine completes
# overlapped I/O synchronously, so it really keeps one I/O in flight.
iospd -c16M -d0 -W0 ok.dat
quiet=0
for try in 1 2 3; do
  iospd -d2 -W0 -b4K -r -Su -o1 -t1 -Rjson ok.dat
  [ "$rc" = 0 ] || break
  if ! grep -qi "warning" err && python3 -c '
import json
d = json.load(open("out"))
assert d["timespans"][0]["warnings"] == []'; then quiet=1; break; fi
  echo "note: try $try of the prepared target warned: $(grep -i warning err | head -c 300)"
done
[ $quiet = 1 ] && ok || bad "prepared target: exit $rc, warned in three tries"
iospd -d1 -W0 -b4K -r -Su -o2 -t1 -Rxml ok.dat
if grep -q "<Kind>" out && ! grep -qE "<Kind>(queue_not_full|generator_busy)</Kind>" out; then
  bad "prepared target: a before-the-run <Warning> in XML"; else ok; fi

# --- never written: a sparse file ---
rm -f sp.dat
truncate -s 16M sp.dat
iospd -d1 -W0 -b4K -r -Su sp.dat
if [ "$rc" = 0 ] && has err "WARNING: target 'sp.dat': 16777216 of its 16777216 bytes (100.0 %) were never written" &&
  has err "or write it once first, e.g. a -w100 -Zr pass over the whole target (or a --verify write run)"; then
  ok
  in_reports unwritten_target -d1 -W0 -b4K -r -Su sp.dat
elif [ $wine = 1 ]; then
  # Wine does not mark a Linux sparse file sparse, nor answer the valid
  # data length: the platform says "unknown" and nothing is claimed.
  echo "skip: wine cannot tell that sp.dat is sparse (FileStandardInfo/allocated ranges); the zero-sample check covers it"
  if has err "all 32 blocks sampled"; then ok; else bad "wine: sparse file not caught by the zero samples either"; fi
else
  bad "sparse file: exit $rc, no never-written warning with the fix"
fi

# --- written, but all zeros ---
head -c 16777216 /dev/zero >z.dat
iospd -d1 -W0 -b4K -r -Su z.dat
if [ "$rc" = 0 ] && has err "warning: target 'z.dat': all 32 blocks sampled across the range the run reads are zeros" &&
  has err "To measure real reads, write it once first, e.g. a -w100 -Zr pass"; then ok; else
  bad "zero file: exit $rc, no zero_data warning"; fi
has err "were never written" && bad "zero file: called never written" || ok
in_reports zero_data -d1 -W0 -b4K -r -Su z.dat
# Writing it is not warned about.
iospd -d1 -W0 -b4K -r -Su -w100 z.dat
has err "blocks sampled" && bad "zero file, -w100: warned" || ok

# --- buffered reads of a file that fits in memory ---
iospd -d1 -W0 -b4K -r ok.dat
if [ "$rc" = 0 ] && has err "warning: target 'ok.dat': buffered reads of 16777216 bytes, which fit in the " &&
  has err "Use -Su (unbuffered) or a target larger than memory"; then ok; else
  bad "page cache: exit $rc, no page_cache warning"; fi
in_reports page_cache -d1 -W0 -b4K -r ok.dat

# --- more threads than CPUs ---
n=$((cpus + 1))
iospd -d1 -W0 -b4K -r -Su -t$n ok.dat
if [ "$rc" = 0 ] && has err "warning: $n worker threads on $cpus logical CPUs"; then ok; else
  bad "threads: exit $rc, no threads_over_cpus warning"; fi
in_reports threads_over_cpus -d1 -W0 -b4K -r -Su -t$n ok.dat

# --- a queue the generator cannot keep full: memory-mapped reads (-Sm)
# are each a copy done by the worker itself, so however many are asked for,
# about one is "in flight" (Little's law) ---
iospd -d1 -W0 -b4K -r -Sm -o16 ok.dat
if [ "$rc" = 0 ] && grep -qE "^warning: [0-9]+ IOPS x [0-9.]+ us mean latency = [0-9.]+ I/Os in flight on average, [0-9]+ % of the 16 outstanding I/Os asked for \(Little's law\)" err; then ok; else
  bad "Little's law: exit $rc, no queue_not_full warning"; fi
# Said after the report: merged, it follows the report's last line.
if [ $wine = 1 ]; then wine "$exe" -d1 -W0 -b4K -r -Sm -o16 ok.dat >all 2>&1; else
  "$exe" -d1 -W0 -b4K -r -Sm -o16 ok.dat >all 2>&1; fi
last=$(grep -n "Little's law" all | cut -d: -f1)
rep=$(grep -n "^total:" all | tail -1 | cut -d: -f1)
if [ -n "$last" ] && [ -n "$rep" ] && [ "$last" -gt "$rep" ]; then ok; else
  bad "Little's law line not after the report (line ${last:-none}, report total at ${rep:-none})"; fi
in_reports queue_not_full -d1 -W0 -b4K -r -Sm -o16 ok.dat

finish trust_warnings_test

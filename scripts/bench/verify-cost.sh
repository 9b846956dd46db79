#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cost of --verify (issue #15): the page-cache QD32 read workload
# (vs-fio.sh's workload 3: 4K random reads, one thread, -o32, buffered) on a
# file written by a --verify run, with --verify (every block read is checked:
# crc32 of 4 KiB plus the header) against the same run without it. Runs
# alternate A B B A ... so drift on a shared machine hits both alike; prints
# each pair's ratio, the medians and the cost (1 - verify/plain), and PASS
# when the cost is at most 25 %.
set -u

usage() {
  cat <<'EOF'
usage: scripts/bench/verify-cost.sh [options]
  --seconds N   measured seconds per run (default 10)
  --pairs N     A/B pairs (default 5)
  --size SIZE   test file, must fit in free memory (default 256M)
  --dir DIR     folder for the test file (default build/bench-data)
  --iospd PATH  iospd binary (default: a Release build in build/bench-linux)
  --engine E    --engine= for every run (default auto)
  --quick       --seconds 2 --pairs 1 --size 64M (checks the script)
  -h, --help    this text
EOF
}
die() { echo "verify-cost: $*" >&2; exit 1; }
REPO=$(cd "$(dirname "$0")/../.." && pwd)
SECS=10 PAIRS=5 SIZE=256M DIR="" IOSPD="" ENGINE=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECS=${2:?}; shift 2 ;;
    --pairs) PAIRS=${2:?}; shift 2 ;;
    --size) SIZE=${2:?}; shift 2 ;;
    --dir) DIR=${2:?}; shift 2 ;;
    --iospd) IOSPD=${2:?}; shift 2 ;;
    --engine) ENGINE=${2:?}; shift 2 ;;
    --quick) SECS=2; PAIRS=1; SIZE=64M; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done
case "$SECS$PAIRS" in *[!0-9]*) die "--seconds and --pairs take whole numbers" ;; esac
if [ -z "$IOSPD" ]; then
  BUILD="$REPO/build/bench-linux"
  cmake -S "$REPO" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
      -DIOSPD_BUILD_TESTS=OFF -DBUILD_TESTING=OFF >"$REPO/build/bench-cmake.log" 2>&1 &&
    cmake --build "$BUILD" -j2 >>"$REPO/build/bench-cmake.log" 2>&1 ||
    die "iospd build failed; see $REPO/build/bench-cmake.log (or pass --iospd PATH)"
  IOSPD="$BUILD/iospd"
fi
[ -x "$IOSPD" ] || die "no iospd binary at $IOSPD"
DIR=${DIR:-$REPO/build/bench-data}
mkdir -p "$DIR" || die "cannot make $DIR"
FILE="$DIR/verify-cost.dat"
rm -f "$FILE" "$FILE.iospd-verify"
trap 'rm -f "$FILE" "$FILE.iospd-verify"' EXIT

# Every block written once with a header (sequential, until a pass is done).
"$IOSPD" -c"$SIZE" -b4K -s -w100 -o32 -t1 -d5 -W0 -C0 --verify \
  --engine="$ENGINE" "$FILE" >/dev/null || die "the --verify write pass failed"
"$IOSPD" --verify-only -b4K "$FILE" >"$DIR/verify-cost.only" 2>/dev/null ||
  die "--verify-only after the write pass failed: $(cat "$DIR/verify-cost.only")"
grep -q "not written by a verified run 0" "$DIR/verify-cost.only" ||
  die "the write pass did not reach every block; raise -d in this script"

# No warm-up: the CPU time of the whole process then belongs to the I/Os
# counted (the one thread is CPU-bound on a page-cache read).
W3="-b4K -r -o32 -t1 -w0 -W0 -C0 -d$SECS --engine=$ENGINE"
iops() { # iops <extra switches...>: "IOPS blocks-checked cpu-us-per-IO"
  # shellcheck disable=SC2086
  python3 "$REPO/scripts/bench/rusage_run.py" --stdout "$DIR/verify-cost.json" \
    --stderr "$DIR/verify-cost.err" --rusage "$DIR/verify-cost.rusage" -- \
    "$IOSPD" $W3 "$@" -Rjson "$FILE" ||
    die "run failed ($*): $(head -3 "$DIR/verify-cost.err")"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["timespans"][0]
u=json.load(open(sys.argv[2])); ios=t["total"]["total"]["ios"]
v=t.get("verify")
if v and v["targets"][0]["failures"]: sys.exit("verify failures in a bench run")
print("%.0f %d %.3f" % (t["total"]["total"]["iops"], v["targets"][0]["blocks_checked"] if v else 0,
      (u["user"] + u["sys"]) * 1e6 / max(ios, 1)))' \
    "$DIR/verify-cost.json" "$DIR/verify-cost.rusage"
}
echo "verify-cost: $IOSPD, $SIZE file, ${SECS}s runs, $PAIRS pairs (A B B A ...), engine $ENGINE"
echo "verify-cost: load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
plain=() checked=() ratios=() cpua=() cpub=()
for p in $(seq 1 "$PAIRS"); do
  if [ $((p % 2)) = 1 ]; then order="plain verify"; else order="verify plain"; fi
  for o in $order; do
    if [ "$o" = plain ]; then read -r a _ ca < <(iops)
    else read -r b c cb < <(iops --verify)
      [ "${c:-0}" -gt 0 ] || die "the --verify run checked no block"; fi
  done
  ratio=$(python3 -c "print('%.3f' % ($b / $a))")
  echo "pair $p: plain $a IOPS ($ca us CPU per I/O), --verify $b IOPS ($cb us CPU per I/O, $c blocks checked), IOPS ratio $ratio"
  plain+=("$a"); checked+=("$b"); ratios+=("$ratio"); cpua+=("$ca"); cpub+=("$cb")
done
python3 - "${plain[*]}" "${checked[*]}" "${ratios[*]}" "${cpua[*]}" "${cpub[*]}" <<'PY'
import statistics, sys
a, b, r, ca, cb = ([float(x) for x in arg.split()] for arg in sys.argv[1:6])
ma, mb, mr = statistics.median(a), statistics.median(b), statistics.median(r)
mca, mcb = statistics.median(ca), statistics.median(cb)
cost = 1 - mr
# The one worker is CPU-bound: on an idle machine IOPS scale with 1 / CPU
# per I/O, which a loaded machine disturbs far less than wall-clock IOPS.
cpu_cost = 1 - mca / mcb
print("median plain %.0f IOPS, median --verify %.0f IOPS, median ratio %.3f "
      "(min %.3f, max %.3f): --verify costs %.1f %% of IOPS -> %s (target <= 25 %%)"
      % (ma, mb, mr, min(r), max(r), 100 * cost,
         "PASS" if cost <= 0.25 else "MISS"))
print("CPU per I/O: plain %.3f us, --verify %.3f us (medians): the IOPS a "
      "CPU-bound worker loses is %.1f %% -> %s (target <= 25 %%)"
      % (mca, mcb, 100 * cpu_cost, "PASS" if cpu_cost <= 0.25 else "MISS"))
PY
echo "verify-cost: load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"

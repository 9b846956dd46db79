#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --curve against caps set by the block cgroup (cgroup v1 blkio throttle)
# on a loop device over a file, read -Su (issue #27, docs/curve.md):
#  1. read_iops_device 2000: the curve plateaus within 10 % of 2,000 IOPS,
#     the verdict calls it an IOPS cap (the 16K probe gives the same IOPS)
#     and Little's law holds at the deepest point (mean within 20 % of
#     in-flight / IOPS);
#  2. the same cap with --latency-limit=mean<=1.2ms: Little's law says a
#     queue of N at 2,000 IOPS waits N / 2,000 s, so the deepest -o within
#     1.2 ms is 2 and the bisection brackets it between 2 and 3;
#  3. read_bps_device 8 MiB/s: the verdict calls it a bandwidth cap of
#     about 8 MiB/s (the 16K probe gives the same MiB/s, a quarter of the
#     IOPS);
#  4. no cap, a file in the page cache (buffered): the verdict names
#     iospd's own CPU as the limit.
# Mean latency, not p99: the throttle releases I/Os in slices of 100 ms,
# so its p99 is the slice, not the queue (Little's law is about the mean).
# Skips (exit 77, saying why) when not root, without cgroup v1 blkio or
# without a loop device.
# Usage: curve_cgroup_test.sh <source dir> <iospd binary>
set -uo pipefail
src=$1
exe=$2
. "$src/tests/e2e/lib.sh"
py=${IOSPD_PYTHON:-python3}
skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "not root: the blkio cgroup and loop devices need root"
blk=/sys/fs/cgroup/blkio
[ -w "$blk/cgroup.procs" ] && [ -e "$blk/blkio.throttle.read_iops_device" ] ||
  skip "no writable cgroup v1 blkio hierarchy at $blk"
command -v losetup >/dev/null || skip "losetup is not installed"
"$py" -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-curvecg.XXXXXX")
cg="$blk/iospd-curve-$$"
dev=
cleanup() {
  [ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
  [ -d "$cg" ] && rmdir "$cg" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
head -c 128M /dev/urandom >img || skip "cannot write a 128 MiB image in $work"
dev=$(losetup -f --show img 2>/dev/null) || { dev=; skip "no free loop device"; }
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
mkdir "$cg" || skip "cannot create the cgroup $cg"
bad_detail() { [ -s err ] && sed 's/^/  stderr: /' err | head -5; }
check() { "$py" "$src/tests/e2e/curve_check.py" "$src" "$@" >chk.log 2>&1 && ok ||
  { bad "curve_check $*"; sed 's/^/  /' chk.log | head -10; }; }
# Runs iospd in the cgroup (the shell moves itself there, then execs).
in_cg() {
  sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$exe" "$@"
}
echo "$mm 2000" >"$cg/blkio.throttle.read_iops_device" || skip "cannot set read_iops_device"

# --- 1. an IOPS cap ----------------------------------------------------------
in_cg --curve -d2 -W1 -b4K -r -Su -Rjson "$dev" >iops.json 2>err
[ $? = 0 ] && ok || bad "the IOPS-capped curve failed"
check iops.json stopped=plateau cap=iops "verdict~The plateau is an IOPS cap at about"
"$py" - iops.json <<'PY' >chk.log 2>&1 && ok || { bad "IOPS cap: figures"; cat chk.log; }
import json, sys
d = json.load(open(sys.argv[1]))
k = d["knee"]
assert abs(k["iops"] - 2000) <= 200, "knee at %.0f IOPS, not within 10 %% of 2000" % k["iops"]
assert abs(d["cap"]["value"] - 2000) <= 200, d["cap"]
probe = [p for p in d["points"] if p["phase"] == "block_size_probe"]
assert len(probe) == 1 and probe[0]["block_size"] == 16384, probe
assert abs(probe[0]["iops"] - 2000) <= 200, probe[0]["iops"]
last = d["littles_law"][-1]
assert abs(last["measured_latency_us"] / last["expected_latency_us"] - 1) < 0.2, last
print("knee %.0f IOPS at QD %d; Little at QD %d: %.0f us expected, %.0f measured" % (
    k["iops"], k["axis_value"], last["outstanding_total"], last["expected_latency_us"],
    last["measured_latency_us"]))
PY
cat chk.log

# --- 2. the latency bound, against Little's law ------------------------------
in_cg --curve -d2 -W1 -b4K -r -Su '--latency-limit=mean<=1.2ms' -Rjson "$dev" \
  >lim.json 2>err
[ $? = 0 ] && ok || bad "the bounded curve failed"
check lim.json stopped=limit_broken "verdict~bracketed between QD 2 (within) and QD 3 (over)"
"$py" - lim.json <<'PY' >chk.log 2>&1 && ok || { bad "latency bound: figures"; cat chk.log; }
import json, sys
d = json.load(open(sys.argv[1]))
b = d["answer"]["bracket"]
assert b == {"good_axis_value": 2, "bad_axis_value": 3}, b
good = [p for p in d["points"] if p["axis_value"] == 2 and p["phase"] in ("curve", "bisect")][0]
expected = 2 / good["iops"] * 1e6
assert abs(good["latency_us"]["mean"] / expected - 1) < 0.2, (good["latency_us"], expected)
print("bracket QD 2..3; at QD 2: %.0f us measured, %.0f by Little's law" % (good["latency_us"]["mean"], expected))
PY
cat chk.log

# --- 3. a bandwidth cap --------------------------------------------------------
echo "$mm 0" >"$cg/blkio.throttle.read_iops_device"
echo "$mm 8388608" >"$cg/blkio.throttle.read_bps_device" || skip "cannot set read_bps_device"
in_cg --curve -d2 -W1 -b4K -r -Su -Rjson "$dev" >bw.json 2>err
[ $? = 0 ] && ok || bad "the bandwidth-capped curve failed"
check bw.json stopped=plateau cap=bandwidth "verdict~The plateau is a bandwidth cap at about"
"$py" - bw.json <<'PY' >chk.log 2>&1 && ok || { bad "bandwidth cap: figures"; cat chk.log; }
import json, sys
d = json.load(open(sys.argv[1]))
assert abs(d["cap"]["value"] - 8) <= 0.8, d["cap"]
assert d["cap"]["unit"] == "MiB/s"
probe = [p for p in d["points"] if p["phase"] == "block_size_probe"][0]
assert abs(probe["mib_per_s"] - 8) <= 0.8, probe["mib_per_s"]
print("cap %.2f MiB/s; the 16K probe %.2f MiB/s at %.0f IOPS" % (d["cap"]["value"], probe["mib_per_s"], probe["iops"]))
PY
cat chk.log

# --- 4. the page cache: iospd is the limit -----------------------------------
head -c 64M /dev/urandom >cached.dat
cat cached.dat >/dev/null
run_exe --curve -d2 -W1 -b4K -r -Rjson cached.dat >pc.json 2>err
[ $? = 0 ] && ok || bad "the page-cache curve failed"
check pc.json cap=tool "verdict~iospd itself is the limit, not the storage"
finish curve_cgroup_test

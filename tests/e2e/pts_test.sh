#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of --pts (docs/pts.md) with real runs of the binary:
#  - on a file, --pts=iops --pts-cell=1s with a reduced matrix and a -g
#    throttle (the same rate every cell): WIPC wrote twice the capacity in
#    128 KiB writes (counted), the file's bytes changed, steady at round 5;
#    the round structure (every cell of the matrix in every round, the
#    tracked value = the tracked cell's IOPS), the window's mean,
#    excursions and fitted line recomputed from the JSON; the document
#    matches schema/iospd-pts.schema.json; the text report says the same;
#  - on a loop device over a file of zeros (root only): the kind is
#    "disk"; preconditioned, it holds data, and is refused without
#    --allow-raw-write and taken with it;
#  - --pts-purge=trim on the loop device (BLKDISCARD) before WIPC;
#  - Ctrl-C keeps the finished rounds ("interrupted"), --pts-resume
#    continues from them (and refuses other settings or a finished run);
#  - refusals (exit 3) with their messages.
# Usage: pts_test.sh <iospd binary> <source dir>
set -u
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
if ! command -v python3 >/dev/null; then
  echo "skip: python3 is needed to read the reports"
  exit 77
fi
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # ok, bad, finish
work=$(mktemp -d "$PWD/pts_test.XXXXXX") || exit 1
bgpid=""
dev=""
cleanup() {
  [ -n "$bgpid" ] && kill -9 "$bgpid" 2>/dev/null
  [ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
  cd /
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
bad_detail() { echo "--- stderr"; head -20 err.txt 2>/dev/null; }
schema_ok() {
  python3 "$src/tests/json/validate_pts.py" "$src/schema" "$1" >schema.txt 2>&1
  case $? in
    0) ok ;;
    77) echo "note: $(cat schema.txt): schema check skipped" ;;
    *) bad "$1 does not match schema/iospd-pts.schema.json: $(head -5 schema.txt)" ;;
  esac
}
check() {
  local what=$1
  shift
  local msg
  msg=$(python3 - "$@" 2>&1)
  if [ -z "$msg" ]; then ok; else bad "$what: $msg"; fi
}

"$exe" -c4M -d0 -W0 -C0 f.dat >/dev/null 2>err.txt || { bad "cannot create f.dat"; finish pts; exit 1; }
cp f.dat before.dat

# ---- 1. a file, throttled: steady at round 5.
"$exe" --pts=iops --pts-cell=1s '--pts-matrix=bs:4K,8K;read:100,0' -t1 -o2 \
  -g4096 --output=text:pts.txt --output=html:pts.html -Rjson f.dat >pts.json 2>err.txt
rc=$?
[ $rc = 0 ] && ok || bad "--pts on a file exited $rc"
schema_ok pts.json
# --output=html: the PTS page of the same document (html_pages_test.sh
# checks the drawing).
if grep -q "<title>iospd PTS iops test: f.dat" pts.html && [ "$(grep -c '<svg' pts.html)" -ge 2 ]; then ok
else bad "--output=html:pts.html is not the PTS page: $(head -c 300 pts.html)"; fi
cmp -s f.dat before.dat && bad "WIPC left f.dat as it was" || ok
check "PTS document" pts.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def fail(m):
    print(m); sys.exit(0)
cap = 4 << 20
if d["target"]["kind"] != "file" or d["target"]["capacity_bytes"] != cap:
    fail("target %r" % d["target"])
w = d["wipc"]
if (w["writes"], w["bytes_written"], w["complete"]) != (2 * cap // 131072, 2 * cap, True):
    fail("wipc %r: want %d writes of 128 KiB" % (w, 2 * cap // 131072))
if d["conformant"] or "cells of 1 s (PTS: 60 s)" not in d["nonconformant_reasons"] \
        or "the target is a file: PTS measures devices" not in d["nonconformant_reasons"]:
    fail("reasons %r" % d["nonconformant_reasons"])
m = d["matrix"]
if m["block_sizes"] != [4096, 8192] or [x["read_pct"] for x in m["mixes"]] != [100, 0] or m["access"] != "random":
    fail("matrix %r" % m)
if d["tracked"] != {"block_size": 4096, "read_pct": 0, "access": "random", "metric": "iops", "unit": "IOPS"}:
    fail("tracked %r" % d["tracked"])
if (d["threads"], d["outstanding"]) != (1, 2):
    fail("threads %r outstanding %r" % (d["threads"], d["outstanding"]))
R = d["rounds"]
# Round 5 on an idle machine; a loaded one may starve the throttle.
if not d["converged"] or d["stopped"] != "steady" or not 5 <= len(R) <= 25:
    fail("verdict %r after %d rounds" % (d["stopped"], len(R)))
for i, r in enumerate(R):
    if r["n"] != i + 1:
        fail("round %d numbered %r" % (i + 1, r["n"]))
    cells = [(c["read_pct"], c["block_size"]) for c in r["cells"]]
    if cells != [(100, 4096), (100, 8192), (0, 4096), (0, 8192)]:
        fail("round %d cells %r" % (i + 1, cells))
    for c in r["cells"]:
        if abs(c["seconds"] - 1.0) > 0.05 or c["iops"] <= 0:
            fail("round %d cell %r" % (i + 1, c))
        if abs(c["mib_per_s"] - c["iops"] * c["block_size"] / 1048576.0) > 1e-6 * max(1, c["mib_per_s"]):
            fail("cell MiB/s %r vs IOPS" % c)
    if r["tracked_value"] != r["cells"][2]["iops"]:
        fail("round %d tracked %r, the 4K read-0 cell %r" % (i + 1, r["tracked_value"], r["cells"][2]["iops"]))
win = d["window"]
n = len(R)
if (win["first_round"], win["last_round"]) != (n - 4, n):
    fail("window rounds %r of %d" % ((win["first_round"], win["last_round"]), n))
vals = win["values"]
if vals != [R[k - 1]["tracked_value"] for k in range(n - 4, n + 1)]:
    fail("window values %r" % vals)
mean = sum(vals) / 5
slope = sum((i - 2) * (y - mean) for i, y in enumerate(vals)) / 10.0
exp = {"mean": mean, "data_excursion": max(vals) - min(vals), "slope": slope,
       "intercept": mean - 2 * slope, "slope_excursion": abs(slope) * 4}
for k, e in exp.items():
    if abs(win[k] - e) > 1e-6 * max(1, abs(e)):
        fail("%s %r, recomputed %r" % (k, win[k], e))
if not (win["data_ok"] and win["slope_ok"]) or win["data_excursion"] > 0.2 * mean:
    fail("window flags %r" % win)
PY
check "text report" pts.json pts.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read()
n = len(d["rounds"])
want = ["SNIA SSS PTS 2.0.2 IOPS test (--pts=iops)\n",
        "target:\t\tf.dat (file, 4194304 bytes)\n",
        "preconditioning:\t64 writes of 128 KiB, 8388608 bytes (2 x capacity)",
        "measurement window: rounds %d-%d\n" % (n - 4, n),
        "steady state: reached at round %d\n" % n,
        "%5u | %14.2f\n" % (1, d["rounds"][0]["tracked_value"])]
for w in want:
    if w not in t:
        print("text lacks %r" % w)
PY

# ---- 2. Ctrl-C: the finished rounds are kept.
"$exe" --pts=iops --pts-cell=1s '--pts-matrix=bs:4K;read:0,100' -t1 -o2 \
  -g4096 -Rjson f.dat >int.json 2>err.txt &
bgpid=$!
sleep 4.5
kill -INT $bgpid
wait $bgpid
rc=$?
bgpid=""
[ $rc = 0 ] && ok || bad "interrupted --pts exited $rc"
schema_ok int.json
check "Ctrl-C" int.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if d["stopped"] != "interrupted" or not d["interrupted"] or d["converged"]:
    print("verdict %r" % d["stopped"])
elif not 1 <= len(d["rounds"]) <= 2 or any(len(r["cells"]) != 2 for r in d["rounds"]):
    print("rounds kept %r" % [len(r["cells"]) for r in d["rounds"]])
PY

# ---- 2b. --pts-resume continues it: the saved rounds first, the next one
# numbered on, no second preconditioning; a different -o is refused, and
# so is a finished run's document.
"$exe" --pts=iops --pts-cell=1s '--pts-matrix=bs:4K;read:0,100' -t1 -o2 \
  -g4096 --pts-resume=int.json -Rjson f.dat >res.json 2>err.txt
rc=$?
[ $rc = 0 ] && ok || bad "--pts-resume exited $rc"
schema_ok res.json
check "resume" int.json res.json err.txt <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
k = len(a["rounds"])
if b["resumed_rounds"] != k or b["rounds"][:k] != a["rounds"]:
    print("the saved rounds are not the first %d: %r" % (k, b["resumed_rounds"]))
elif [r["n"] for r in b["rounds"]] != list(range(1, len(b["rounds"]) + 1)):
    print("rounds numbered %r" % [r["n"] for r in b["rounds"]])
elif b["wipc"] != a["wipc"]:
    print("wipc changed: %r vs %r" % (b["wipc"], a["wipc"]))
elif "preconditioned:" in open(sys.argv[3]).read():
    print("preconditioning ran again")
elif b["stopped"] != "steady" or len(b["rounds"]) < 5:
    print("resumed run %r after %d rounds" % (b["stopped"], len(b["rounds"])))
PY
# ---- 3. refusals.
refuse() {
  local code=$1 want=$2
  shift 2
  "$exe" "$@" >out.txt 2>err.txt
  local rc=$?
  if [ $rc = "$code" ] && grep -qF -- "$want" err.txt; then ok; else
    bad "iospd $* exited $rc (want $code) with: $(head -2 err.txt) (want: $want)"
  fi
}
refuse 3 "iospd: error: --pts writes a text report or the JSON PTS document, not XML" \
  --pts=iops -Rxml f.dat
refuse 3 "iospd: error: --pts runs its own steady-state test (5 rounds, 20 %, 10 %): drop --steady-state" \
  --pts=iops --steady-state=iops:20% -d600 f.dat
refuse 3 "iospd: error: --pts-matrix: the iops test tracks block size 4096 at read 0 %, which the matrix must hold (add bs:4K / read:0)" \
  --pts=iops '--pts-matrix=bs:8K' f.dat
refuse 3 "iospd: error: --pts writes the whole target; create a file first (iospd -c<size> -d0 f.dat) and drop -c" \
  --pts=iops -c1M f.dat
refuse 3 "iospd: error: '--pts=bw': use --pts=<test> with a test of iops, throughput or latency" \
  --pts=bw f.dat
refuse 3 "iospd: error: '--pts-cell=1500ms': a cell lasts whole seconds, 1s to 1h (PTS: 60s)" \
  --pts=iops --pts-cell=1500ms f.dat
refuse 3 "is not a multiple of 512 bytes from 512 to 64M" \
  --pts=iops --pts-matrix=bs:1000 f.dat
refuse 3 "iospd: error: --pts-purge=trim discards a whole disk; 'f.dat' is a file: drop --pts-purge" \
  --pts=iops --pts-purge=trim --allow-raw-write f.dat
refuse 3 "iospd: error: '--pts-purge=zero': use --pts-purge=trim or --pts-purge=secure" \
  --pts=iops --pts-purge=zero f.dat
refuse 3 "iospd: error: --pts-resume: the saved run's outstanding I/Os is 2, this run's is 4: resume with the same switches" \
  --pts=iops --pts-cell=1s '--pts-matrix=bs:4K;read:0,100' -t1 -o4 --pts-resume=int.json f.dat
refuse 3 "iospd: error: --pts-resume=pts.json: that run is finished (it stopped at steady state or 25 rounds): nothing to resume" \
  --pts=iops --pts-cell=1s '--pts-matrix=bs:4K,8K;read:100,0' -t1 -o2 --pts-resume=pts.json f.dat
refuse 3 "iospd: error: --pts-resume=f.dat: not JSON" \
  --pts=iops --pts-resume=f.dat f.dat
refuse 3 "iospd: error: --pts-cell is for --pts runs: add --pts=iops|throughput|latency or drop it" \
  --pts-cell=1s f.dat
refuse 3 "iospd: error: --pts-matrix is for --pts runs: add --pts=iops|throughput|latency or drop it" \
  --pts-matrix=bs:4K f.dat
refuse 3 "iospd: error: --pts and --curve are two different modes of many runs: give one of them" \
  --pts=iops --curve f.dat
refuse 3 "iospd: error: --steady-state with --curve is not supported: drop one of them" \
  --steady-state=iops:20%,window:2x1s --curve f.dat
# Switches a cell replaces are said, not ignored.
"$exe" --pts=iops --pts-cell=1s '--pts-matrix=bs:4K;read:0' -b64K -d30 -g4096 \
  -Rjson f.dat >w.json 2>err.txt
if [ $? = 0 ] && grep -qF "warning: --pts sets each cell's block size, mix, access and time (no warm-up or cool-down, latencies on): -b -d are not used" err.txt; then
  ok
else
  bad "no warning for -b -d with --pts: $(head -3 err.txt)"
fi

# ---- 4. a loop device over a file of zeros (root only): a disk; once
# preconditioned it holds data, and a second run needs --allow-raw-write.
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
  echo "note: not root or no losetup: the loop-device checks are skipped"
elif ! { truncate -s 4M z.img && dev=$(losetup -f --show z.img 2>err.txt); }; then
  echo "note: no loop device ($(head -1 err.txt)): the loop-device checks are skipped"
  dev=""
else
  "$exe" --pts=iops --pts-cell=1s '--pts-matrix=bs:4K;read:0' -t1 -o1 -g4096 \
    -Sh -Rjson "$dev" >loop.json 2>err.txt
  rc=$?
  [ $rc = 0 ] && ok || bad "--pts on $dev exited $rc"
  schema_ok loop.json
  check "loop device" loop.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if d["target"]["kind"] != "disk" or d["target"]["capacity_bytes"] != 4 << 20:
    print("target %r" % d["target"])
elif d["wipc"]["writes"] != 64 or "the target is a file: PTS measures devices" in d["nonconformant_reasons"]:
    print("wipc %r reasons %r" % (d["wipc"], d["nonconformant_reasons"]))
elif any("OS cache" in x for x in d["nonconformant_reasons"]):
    print("-Sh still called cached: %r" % d["nonconformant_reasons"])
elif d["stopped"] not in ("steady", "max_rounds") or not d["rounds"]:
    # Steady or not: unbuffered writes to a loop device on a loaded
    # machine need not settle; the rounds must be there either way.
    print("loop device run %r with %d rounds" % (d["stopped"], len(d["rounds"])))
PY
  refuse 1 "iospd: error: refusing to write to '$dev': it holds data of an unknown kind (the first megabyte is not all zeros), which writing (-w100) would destroy; pass --allow-raw-write to write to it anyway" \
    --pts=iops --pts-cell=1s '--pts-matrix=bs:4K;read:0' "$dev"
  "$exe" --pts=iops --pts-cell=1s '--pts-matrix=bs:4K;read:0' -t1 -o1 -g4096 \
    --allow-raw-write -Rjson "$dev" >raw.json 2>err.txt
  [ $? = 0 ] && ok || bad "--pts --allow-raw-write on $dev failed"
  # --pts-purge=trim: BLKDISCARD on the loop device (it punches the backing
  # file's blocks), before preconditioning.
  "$exe" --pts=iops --pts-cell=1s '--pts-matrix=bs:4K;read:0' -t1 -o1 -g4096 \
    --pts-purge=trim --allow-raw-write -Rjson --output=text:purge.txt "$dev" \
    >purge.json 2>err.txt
  rc=$?
  if [ $rc = 0 ]; then
    ok
    schema_ok purge.json
    check "purge" purge.json purge.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["purge"]
if p["method"] != "trim" or not isinstance(p["seconds"], (int, float)) or p["seconds"] < 0:
    print("purge %r" % p)
if "purge:\t\ttrim (whole-device discard) in " not in open(sys.argv[2]).read():
    print("text report lacks the purge line")
PY
  elif grep -q "refused BLKDISCARD" err.txt; then
    echo "note: this kernel's loop device refuses BLKDISCARD: $(head -1 err.txt)"
  else
    bad "--pts-purge=trim on $dev exited $rc: $(head -2 err.txt)"
  fi
  losetup -d "$dev"
  dev=""
fi
finish pts

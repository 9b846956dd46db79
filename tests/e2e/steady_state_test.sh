#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of --steady-state on ordinary runs (docs/pts.md) with
# real runs of the binary:
#  - a throttled run (-g: the same I/O rate every interval) is steady at
#    the window's last round and stops measuring there, well before -d; its
#    round values are the sums of the --timeseries rows of each round
#    (rounds of two -D500 intervals), the window's mean, excursions and
#    fitted line recomputed from them match the JSON, the results' I/O
#    count is the sum of the measured rows, the text line and the
#    <SteadyState> XML element say the same;
#  - a limit no real run meets runs to -d and says so (stopped "duration");
#  - throughput and latency metrics;
#  - Ctrl-C keeps the verdict as "interrupted";
#  - refusals (exit 3) with their messages.
# Usage: steady_state_test.sh <iospd binary> <source dir>
set -u
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
if ! command -v python3 >/dev/null; then
  echo "skip: python3 is needed to read the reports"
  exit 77
fi
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # ok, bad, finish
work=$(mktemp -d "$PWD/steady_state_test.XXXXXX") || exit 1
bgpid=""
cleanup() {
  [ -n "$bgpid" ] && kill -9 "$bgpid" 2>/dev/null
  cd /
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
bad_detail() { echo "--- stderr"; head -20 err.txt 2>/dev/null; }
have_schema=1
python3 -c 'import jsonschema' 2>/dev/null || {
  have_schema=0
  echo "note: python3-jsonschema missing: the schema checks are skipped"
}
schema_ok() {
  [ $have_schema = 1 ] || return 0
  if python3 "$src/tests/json/validate_results.py" \
       "$src/schema/iospd-results.schema.json" "$1" >schema.txt 2>&1; then
    ok
  else
    bad "$1 does not match schema/iospd-results.schema.json: $(head -5 schema.txt)"
  fi
}
# check <file.py args>: runs a python check; its stdout lines are failures.
check() {
  local what=$1
  shift
  local msg
  msg=$(python3 - "$@" 2>&1)
  if [ -z "$msg" ]; then ok; else bad "$what: $msg"; fi
}

"$exe" -c16M -d1 -W0 -C0 f.dat >/dev/null 2>err.txt || { bad "cannot create f.dat"; finish steady_state; exit 1; }

# ---- 1. steady: -g4096 -b4K is 1000 I/O per s, rounds of two 500 ms
# intervals, window of 3 rounds; -d30 would take 30 s.
"$exe" -d30 -W0 -C0 -g4096 -b4K -t1 -o1 -r -D500 --timeseries=ts.jsonl \
  --steady-state=iops:20%,slope:10%,window:3x1s \
  --output=text:out.txt --output=xml:out.xml -Rjson f.dat >out.json 2>err.txt
rc=$?
[ $rc = 0 ] && ok || bad "steady run exited $rc"
schema_ok out.json
check "steady run" out.json ts.jsonl <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["timespans"][0]
s = t["steady_state"]
rows = [json.loads(l) for l in open(sys.argv[2])]
meas = [r for r in rows if r["phase"] == "measuring" and r["target"] == "total"]
def fail(m):
    print(m); sys.exit(0)
if s["metric"] != "iops" or s["interval_seconds"] != 1 or s["window_rounds"] != 3:
    fail("set-up keys %r" % s)
if not s["converged"] or s["stopped"] != "steady":
    fail("not steady: %r" % s)
w = s["window"]
if w["last_round"] != s["rounds"] or w["first_round"] != s["rounds"] - 2:
    fail("window rounds %r of %d" % (w, s["rounds"]))
# Round 3 on an idle machine; a loaded one may starve the throttle for a
# round or two.
if not 3 <= s["rounds"] <= 20:
    fail("a throttled run should hold soon after round 3, held at %d" % s["rounds"])
# Each round = the two 500 ms measured rows that start in it.
for i, v in enumerate(w["values"]):
    r = w["first_round"] + i
    part = [x for x in meas if (r - 1) * 1000 <= x["start_ms"] < r * 1000]
    if len(part) != 2:
        fail("round %d has %d rows" % (r, len(part)))
    ms = sum(x["end_ms"] - x["start_ms"] for x in part)
    want = sum(x["total"]["ios"] for x in part) / (ms / 1000.0)
    if abs(v - want) > 1e-6 * max(1, want):
        fail("round %d value %r, rows say %r" % (r, v, want))
vals = w["values"]; n = len(vals)
mean = sum(vals) / n
xm = (n - 1) / 2.0
slope = sum((i - xm) * (y - mean) for i, y in enumerate(vals)) / sum((i - xm) ** 2 for i in range(n))
exp = {"mean": mean, "data_excursion": max(vals) - min(vals), "slope": slope,
       "intercept": mean - slope * xm, "slope_excursion": abs(slope) * (n - 1),
       "data_excursion_pct": (max(vals) - min(vals)) / mean * 100,
       "slope_excursion_pct": abs(slope) * (n - 1) / mean * 100}
for k, e in exp.items():
    if abs(w[k] - e) > 1e-6 * max(1, abs(e)):
        fail("%s is %r, recomputed %r" % (k, w[k], e))
if not (w["data_ok"] and w["slope_ok"]):
    fail("flags %r" % w)
# Measuring stopped at an interval end (500 ms) just after the last round,
# not at -d30.
secs = t["test_time_seconds"]
last = s["rounds"] * 1.0
if not (last < secs <= last + 1.6) or secs >= 30:
    fail("measured %r s: should stop just after round %d, not at -d30" % (secs, s["rounds"]))
if abs(secs * 2 - round(secs * 2)) > 0.01:
    fail("measured %r s: not a whole number of 500 ms intervals" % secs)
ios = t["total"]["total"]["ios"]
rows_ios = sum(x["total"]["ios"] for x in meas)
if ios != rows_ios:
    fail("results count %r I/Os, the measured rows %r" % (ios, rows_ios))
PY
check "text line" out.json out.txt <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))["timespans"][0]["steady_state"]
text = open(sys.argv[2]).read()
w = s["window"]
want = ("timespan 1: steady at round %d (rounds of 1 s); measuring stopped there; "
        "window rounds %d-%d, mean %.2f IOPS, data excursion %.2f (%.2f %% <= 20 %%), "
        "slope excursion %.2f (%.2f %% <= 10 %%)\n") % (
    w["last_round"], w["first_round"], w["last_round"], w["mean"],
    w["data_excursion"], w["data_excursion_pct"], w["slope_excursion"],
    w["slope_excursion_pct"])
if "\nsteady state (--steady-state, SNIA PTS test):\n" + want not in text:
    print("text report lacks %r" % want)
PY
check "XML element" out.json out.xml <<'PY'
import json, sys
import xml.etree.ElementTree as ET
s = json.load(open(sys.argv[1]))["timespans"][0]["steady_state"]
root = ET.parse(sys.argv[2]).getroot()
e = root.find("./TimeSpan/SteadyState")
if e is None:
    print("no TimeSpan/SteadyState"); sys.exit(0)
got = {c.tag: c.text for c in e}
if got.get("Converged") != "true" or got.get("Stopped") != "steady" or got.get("Metric") != "iops" or got.get("Rounds") != str(s["rounds"]):
    print("SteadyState %r" % got)
win = e.find("Window")
if win is None or win.get("FirstRound") != str(s["window"]["first_round"]):
    print("Window element %r" % (win.attrib if win is not None else None))
else:
    vals = [float(v.text) for v in win.findall("Value")]
    if [round(v, 3) for v in vals] != [round(v, 3) for v in s["window"]["values"]]:
        print("XML values %r, JSON %r" % (vals, s["window"]["values"]))
    if abs(float(win.find("Mean").text) - s["window"]["mean"]) > 1e-5:
        print("XML mean %r" % win.find("Mean").text)
PY

# ---- 2. a limit no real run meets (1 I/O in a million): runs to -d.
"$exe" -d5 -W0 -C0 -b4K -t1 -o4 -r --steady-state=iops:0.0001%,window:3x1s \
  --output=text:out2.txt -Rjson f.dat >out2.json 2>err.txt
rc=$?
[ $rc = 0 ] && ok || bad "duration run exited $rc"
schema_ok out2.json
check "duration run" out2.json out2.txt <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["timespans"][0]
s = t["steady_state"]
if s["converged"] or s["stopped"] != "duration" or s["rounds"] != 5:
    print("verdict %r" % s); sys.exit(0)
w = s["window"]
if (w["first_round"], w["last_round"], len(w["values"])) != (3, 5, 3) or w["data_ok"]:
    print("window %r" % w)
if abs(t["test_time_seconds"] - 5.0) > 0.05:
    print("measured %r s, -d5" % t["test_time_seconds"])
if "timespan 1: NOT steady after 5 rounds of 1 s (-d ran out); window rounds 3-5" not in open(sys.argv[2]).read():
    print("text line missing")
PY

# ---- 3. throughput (MiB/s from the rows' bytes) and latency metrics.
"$exe" -d20 -W0 -C0 -g4096 -b4K -t1 -o1 -r --timeseries=ts3.jsonl \
  --steady-state=throughput:20%,window:2x1s -Rjson f.dat >out3.json 2>err.txt
[ $? = 0 ] && ok || bad "throughput run failed"
schema_ok out3.json
check "throughput" out3.json ts3.jsonl <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["timespans"][0]["steady_state"]
rows = [json.loads(l) for l in open(sys.argv[2])]
meas = [r for r in rows if r["phase"] == "measuring" and r["target"] == "total"]
if s["metric"] != "mib_per_s" or not s["converged"]:
    print("verdict %r" % s); sys.exit(0)
for i, v in enumerate(s["window"]["values"]):
    r = s["window"]["first_round"] + i
    x = [x for x in meas if x["start_ms"] == (r - 1) * 1000][0]
    want = x["total"]["bytes"] / 1048576.0 / ((x["end_ms"] - x["start_ms"]) / 1000.0)
    if abs(v - want) > 1e-9 * max(1, want):
        print("round %d %r MiB/s, row says %r" % (r, v, want))
PY
"$exe" -d20 -W0 -C0 -g4096 -b4K -t1 -o1 -r -L \
  --steady-state=latency:100%,window:2x1s -Rjson f.dat >out4.json 2>err.txt
[ $? = 0 ] && ok || bad "latency run failed"
schema_ok out4.json
check "latency" out4.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["timespans"][0]["steady_state"]
if s["metric"] != "mean_latency_us" or not s["window"] or min(s["window"]["values"]) <= 0:
    print("verdict %r" % s)
PY

# ---- 4. Ctrl-C: the verdict is kept, as interrupted.
"$exe" -d30 -W0 -C0 -b4K -t1 -o4 -r --steady-state=iops:0.0001%,window:3x1s \
  -Rjson f.dat >out5.json 2>err.txt &
bgpid=$!
sleep 4
kill -INT $bgpid
wait $bgpid
bgpid=""
check "Ctrl-C" out5.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["timespans"][0]["steady_state"]
if s["converged"] or s["stopped"] != "interrupted" or s["rounds"] < 2:
    print("verdict %r" % s)
PY

# ---- 5. refusals.
refuse() {
  local want=$1
  shift
  "$exe" "$@" f.dat >out.txt 2>err.txt
  local rc=$?
  if [ $rc = 3 ] && grep -qF -- "$want" err.txt; then ok; else
    bad "iospd $* exited $rc (want 3) with: $(head -2 err.txt) (want: $want)"
  fi
}
refuse "iospd: error: --steady-state: the window of 5 rounds of 60000 ms (300.0 s) is longer than -d10, so it could never be filled; give a longer -d or a shorter window:<n>x<time>" \
  -d10 --steady-state=iops:20%
refuse "iospd: error: --steady-state=latency needs the latencies: add -L" \
  -d10 --steady-state=latency:20%,window:2x1s
refuse "iospd: error: '--steady-state=bw:20%': unknown metric 'bw': use iops, throughput or latency" \
  -d10 --steady-state=bw:20%
refuse "iospd: error: --steady-state: a round of 1200 ms is not a whole number of the 500 ms intervals it is measured in (-D, else 1 s); make window:<n>x<time> a multiple of it" \
  -d10 -D500 --steady-state=iops:20%,window:2x1200ms
refuse "is not slope:<pct>% or window:<n>x<time> (each at most once)" \
  -d10 --steady-state=iops:20%,slope:5%,slope:6%
finish steady_state

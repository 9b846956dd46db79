#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of --timeseries=FILE (docs/time-series.md), natively and
# for iospd.exe under wine:
#  1. any extension but .csv/.jsonl is refused (exit 3) naming the option;
#  2. a real run -d3 -W1 -C1 -L: one row per interval per target and total in
#     each phase, measuring rows adding up to the I/O counts of the -Rxml
#     report of the same run, latency ordered min <= p50 <= ... <= max,
#     intervals end to end; the same for .JSONL (any letter case);
#  3. a run killed with SIGKILL keeps every finished interval: at least 2
#     complete rows per target after ~2.5 s of -d10, a clean parse, and a
#     file ending in a newline (under wine the iospd.exe process is killed).
# Usage: timeseries_test.sh <iospd binary> [--wine]
set -uo pipefail
exe=$1
wine=0
[ "${2:-}" = "--wine" ] && wine=1
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-ts.XXXXXX")
trap 'rm -rf "$work"' EXIT
bad_detail() { [ -s "$work/err" ] && sed 's/^/  stderr: /' "$work/err" | head -5; }
if ! command -v python3 >/dev/null; then
  echo "SKIP: python3 is needed to parse the time series"
  exit 77
fi

run() { run_exe "$@"; }
winpath() { if [ $wine = 1 ]; then winepath -w "$1" 2>/dev/null; else printf '%s' "$1"; fi; }
wdir=$(winpath "$work")
sep=/
[ $wine = 1 ] && sep='\'
target="$wdir${sep}t.dat"

# --- 1. the extension picks the format; anything else is bad input ----------
for arg in --timeseries="$wdir${sep}x.txt" --timeseries="$wdir${sep}x.json" \
           --timeseries= --timeseries; do
  run -d1 -W0 "$arg" "$target" >/dev/null 2>"$work/err"
  rc=$?
  [ $rc = 3 ] && ok || bad "$arg: exit $rc, expected 3"
  grep -q -- "--timeseries" "$work/err" && grep -q "\.csv" "$work/err" &&
    grep -q "\.jsonl" "$work/err" && ok ||
    bad "$arg: the message does not name --timeseries, .csv and .jsonl"
done
[ ! -e "$work/x.txt" ] && ok || bad "a refused --timeseries file was created"

# --- 2. a real run, checked against its own XML report ----------------------
check_series() { # format file xml
  python3 - "$1" "$2" "$3" <<'EOF'
import csv, json, sys
import xml.etree.ElementTree as ET
fmt, path, xml = sys.argv[1:4]
errors = []
def bad(m): errors.append(m)
rows = []
raw = open(path, newline="").read()
if not raw.endswith("\n"): bad("the file does not end with a newline")
if fmt == "csv":
    for r in csv.DictReader(open(path, newline="")):
        rows.append(r)
    def g(r, d, k): return r[f"{d}_{k}"]
    def lat(r, d):
        v = [r[f"{d}_lat_{n}_ms"] for n in ("min", "mean", "p50", "p90", "p99", "p99_9", "max")]
        return None if v[0] == "" else [float(x) for x in v]
else:
    for line in raw.splitlines():
        rows.append(json.loads(line))
    def g(r, d, k): return r[d][k]
    def lat(r, d):
        l = r[d]["lat_ms"]
        return None if l is None else [l[n] for n in ("min", "mean", "p50", "p90", "p99", "p99_9", "max")]
for r in rows:
    r["target"] = str(r["target"])
# Rows per phase: 1 s intervals, one target plus the total.
want = {"warm-up": 2, "measuring": 6, "cool-down": 2}
got = {}
for r in rows: got[r["phase"]] = got.get(r["phase"], 0) + 1
if got != want: bad(f"rows per phase {got}, expected {want}")
# Intervals follow each other: -1000..0, 0..1000, ... 3000..4000.
t0 = [r for r in rows if r["target"] == "0"]
starts = [int(r["start_ms"]) for r in t0]
ends = [int(r["end_ms"]) for r in t0]
if starts[1:] != [0, 1000, 2000, 3000] or ends != [0, 1000, 2000, 3000, 4000]:
    bad(f"interval bounds {list(zip(starts, ends))}")
if not -2000 < starts[0] <= -1000: bad(f"warm-up starts at {starts[0]} ms")
# Measuring rows add up to the XML's counts.
x = ET.parse(xml).getroot()
ts = x.find("TimeSpan")
tgt = [t for t in ts.iter("Target") if t.find("IOCount") is not None]
want_r = sum(int(t.find("ReadCount").text) for t in tgt)
want_w = sum(int(t.find("WriteCount").text) for t in tgt)
want_b = sum(int(t.find("BytesCount").text) for t in tgt)
meas = [r for r in t0 if r["phase"] == "measuring"]
s_r = sum(int(g(r, "read", "ios")) for r in meas)
s_w = sum(int(g(r, "write", "ios")) for r in meas)
s_b = sum(int(g(r, "total", "bytes")) for r in meas)
if (s_r, s_w, s_b) != (want_r, want_w, want_b):
    bad(f"measuring rows: reads {s_r} writes {s_w} bytes {s_b}; XML: {want_r} {want_w} {want_b}")
if want_r == 0 or want_w == 0: bad("the run should both read and write")
# The total rows equal the single target's rows.
tot = [r for r in rows if r["target"] == "total"]
for a, b in zip(t0, tot):
    for d in ("read", "write", "total"):
        if g(a, d, "ios") != g(b, d, "ios"): bad("total row differs from the target's")
# Latency of every row: ordered, the mean inside [min, max].
for r in rows:
    for d in ("read", "write", "total"):
        l = lat(r, d)
        n = int(g(r, d, "ios"))
        if (l is None) != (n == 0):
            bad(f"{r['phase']} {r['start_ms']} {d}: latency {l} with {n} I/Os"); continue
        if l is None: continue
        mn, mean, p50, p90, p99, p999, mx = l
        if not (mn <= p50 <= p90 <= p99 <= p999 <= mx and mn <= mean <= mx):
            bad(f"{r['phase']} {r['start_ms']} {d}: latency out of order {l}")
for e in errors[:10]: print("  " + e)
print(f"{len(rows)} rows, measured reads {s_r} writes {s_w}")
sys.exit(1 if errors else 0)
EOF
}

for ext in csv JSONL; do
  f="$work/s.$ext"
  run -c4M -d3 -W1 -C1 -L -o4 -b4K -r -w30 -Rxml --timeseries="$wdir${sep}s.$ext" \
      "$target" >"$work/out.xml" 2>"$work/err"
  rc=$?
  [ $rc = 0 ] && ok || bad "run with --timeseries=s.$ext: exit $rc"
  fmt=csv
  [ $ext = JSONL ] && fmt=jsonl
  if [ -f "$f" ] && check_series $fmt "$f" "$work/out.xml" >"$work/check" 2>&1; then
    ok
  else
    bad "--timeseries=s.$ext:"
    cat "$work/check" 2>/dev/null | head -12
  fi
done
# The XML report is the same document as without --timeseries (only the
# numbers of the run differ): same elements in the same order. <Warnings>
# is left out: what it holds depends on the run (a loaded machine can leave
# one run's queue short of -o, which the Little's-law warning reports).
run -c4M -d1 -W0 -Rxml "$target" >"$work/plain.xml" 2>"$work/err"
run -c4M -d1 -W0 -Rxml --timeseries="$wdir${sep}p.csv" "$target" >"$work/ts.xml" 2>"$work/err"
python3 - "$work/plain.xml" "$work/ts.xml" <<'EOF' && ok || bad "the XML report changes shape with --timeseries"
import sys, xml.etree.ElementTree as ET
def tags(p):
    root = ET.parse(p).getroot()
    for parent in root.iter():
        for w in parent.findall("Warnings"):
            parent.remove(w)
    return [e.tag for e in root.iter()]
sys.exit(0 if tags(sys.argv[1]) == tags(sys.argv[2]) else 1)
EOF

# --- 3. SIGKILL keeps every finished interval --------------------------------
f="$work/k.csv"
run -c4M -d10 -W0 -C0 -L -o2 -b4K -r --timeseries="$wdir${sep}k.csv" "$target" \
    >/dev/null 2>"$work/err" &
pid=$!
# From the moment the file exists (the run is set up), ~2.5 s; a loaded
# machine may need longer for two intervals, so then until they are there.
for _ in $(seq 50); do [ -s "$f" ] && break; sleep 0.1; done
sleep 2.5
for _ in $(seq 80); do
  [ "$(grep -c '^0,measuring,[0-9]*,[0-9]*,0,' "$f" 2>/dev/null)" -ge 2 ] && break
  sleep 0.1
done
if [ $wine = 1 ]; then
  # wine starts iospd.exe as a process of its own (not the shell's child):
  # find it by this test's unique folder in its arguments.
  tag="$(basename "$work")${sep}k.csv"
  wpid=$(ps -eo pid=,args= | awk -v t="$tag" \
    'index($0, t) && index($0, "iospd.exe") && !index($0, "start.exe") {print $1}')
  [ -n "$wpid" ] && kill -9 $wpid 2>/dev/null
fi
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
python3 - "$f" <<'EOF' && ok || bad "after kill -9 the time series is incomplete"
import csv, sys
raw = open(sys.argv[1], newline="").read()
if not raw.endswith("\n"): print("  no newline at the end"); sys.exit(1)
rows = list(csv.DictReader(raw.splitlines()))
hdr = raw.splitlines()[0].split(",")
for r in rows:
    if None in r.values() or len(r) != len(hdr): print("  a partial row"); sys.exit(1)
    n = int(r["read_ios"]); float(r["read_iops"])
    if (r["read_lat_max_ms"] == "") != (n == 0):
        print(f"  latency and I/O count disagree: {r}"); sys.exit(1)
t0 = [r for r in rows if r["target"] == "0"]
tot = [r for r in rows if r["target"] == "total"]
print(f"  {len(t0)} rows of target 0 after the kill")
# Killed well before the end of -d10: not all ten measuring rows.
sys.exit(0 if 2 <= len(t0) <= 6 and len(tot) == len(t0) else 1)
EOF

# --- 4. a target name that is not UTF-8: the JSON Lines stay valid JSON ----
# (the series had its own string writer, which passed the bytes through;
# iospd_json_append_str makes each bad byte U+FFFD, as -Rjson does)
if [ $wine = 0 ]; then
  bad_name="$work/t"$'\xff\xfe'"x.dat"
  run -c64K -d1 -W0 -C0 --timeseries="$work/u.jsonl" "$bad_name" >/dev/null 2>"$work/err"
  rc=$?
  python3 - "$work/u.jsonl" <<'EOF' && [ $rc = 0 ] && ok || bad "invalid UTF-8 in a target name: exit $rc, the JSON Lines do not parse strictly: $(cat "$work/err")"
import json, sys
lines = open(sys.argv[1], "rb").read().decode("utf-8").splitlines()  # strict UTF-8
paths = [json.loads(l)["path"] for l in lines if json.loads(l)["target"] != "total"]
sys.exit(0 if paths and all(p.endswith("t\ufffd\ufffdx.dat") for p in paths) else 1)
EOF
else
  echo "skip (wine): command lines are UTF-16 on Windows, so a name that is not UTF-8 cannot reach iospd.exe; the Linux run covers the writer"
fi

finish timeseries_test

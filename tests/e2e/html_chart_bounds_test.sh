#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --report on results whose charts have nothing to put on a log axis, or
# span +-1e308, ends (issue #30, docs/html-report.md "Charts with nothing
# to plot"): results crafted from tests/data/html/run-si-L-D500.json with
#  - every per-interval latency 0 (what iospd writes for sub-microsecond
#    intervals): the latency-over-time chart says why it is empty;
#  - every interval's IOPS +-1e308: the IOPS chart's axis runs from -1e308
#    to 1e308, ticks printed as 1e+308;
#  - latencies from 1e-300 to 1e308 ms (and denormals, left out): a log
#    axis of 608 decades, at most 16 ticks.
# Each --report runs under a 30 s timeout; before the fix each one hung.
# Usage: html_chart_bounds_test.sh <iospd binary> <tests/data dir> [--wine]
set -u
abs() { (cd "$(dirname "$1")" && printf '%s/%s' "$(pwd)" "$(basename "$1")"); }
exe=$(abs "$1")
data=$(abs "$2")/html
wine=0
[ "${3:-}" = "--wine" ] && wine=1
. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null; then
  echo "SKIP: python3 is needed to craft the results"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
bad_detail() { head -c 600 err; }
python3 - "$data/run-si-L-D500.json" <<'PY'
import json, sys
src = sys.argv[1]
def rows(d):
    for r in d["timeseries"]:
        for k in ("read", "write", "total"):
            if isinstance(r.get(k), dict):
                yield r[k]
d = json.load(open(src))
for x in rows(d):
    for k in x.get("lat_ms") or {}:
        x["lat_ms"][k] = 0.0
json.dump(d, open("zero.json", "w"))
d = json.load(open(src))
for i, x in enumerate(rows(d)):
    x["iops"] = 1e308 if i % 2 else -1e308
json.dump(d, open("huge.json", "w"))
d = json.load(open(src))
for i, x in enumerate(rows(d)):
    for k in x.get("lat_ms") or {}:
        x["lat_ms"][k] = 1e308 if i % 2 else (1e-300 if i % 4 else 5e-324)
json.dump(d, open("wide.json", "w"))
PY
# figure <file> <data-chart>: that chart's markup
figure() {
  python3 -c '
import sys
s = open(sys.argv[1]).read()
i = s.find("data-chart=\"%s\"" % sys.argv[2])
print(s[i:s.find("</figure>", i)] if i >= 0 else "")' "$1" "$2"
}
for f in zero huge wide; do
  if [ $wine = 1 ]; then
    timeout 30 wine "$exe" --report $f.json --output=html:$f.html >out 2>err
  else
    timeout 30 "$exe" --report $f.json --output=html:$f.html >out 2>err
  fi
  rc=$?
  [ $rc = 0 ] && ok || bad "--report $f.json: exit $rc (124: it hung)"
done
figure zero.html latency-time > zero.fig
grep -q '<text class="empty" x="464" y="154" text-anchor="middle">nothing to plot: no value above 0 for the logarithmic axis (latencies under 0.001 ms are recorded as 0)</text>' zero.fig \
  && ok || bad "zero: no 'nothing to plot' in the latency chart"
grep -q 'data-points="0"' zero.fig && ! grep -q 'data-points="[1-9]' zero.fig \
  && ok || bad "zero: points drawn"
figure huge.html iops-time > huge.fig
for t in -1e+308 -5e+307 0 5e+307 1e+308; do
  grep -q "text-anchor=\"end\">$t</text>" huge.fig && ok || bad "huge: no tick $t"
done
! grep -q 'nothing to plot' huge.fig && ok || bad "huge: said nothing to plot"
figure wide.html latency-time > wide.fig
n=$(grep -o 'text-anchor="end">' wide.fig | wc -l)
[ "$n" -ge 2 ] && [ "$n" -le 16 ] && ok || bad "wide: $n ticks"
grep -q 'data-points="[1-9]' wide.fig && ok || bad "wide: nothing drawn"
finish html_chart_bounds

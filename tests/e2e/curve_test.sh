#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of --curve (docs/curve.md), natively and under wine:
#  1. what a curve refuses, before any I/O: exit 3 and the exact message
#     naming the switch (--latency-limit or --expect without --curve,
#     --output=html, -Rxml, -g, a bad axis);
#  2. a short curve (-o 1..4, 1 s points) on a file: --progress says point k
#     of n, -Rjson is one curve document that validates (and each point's
#     results), its figures are its points' own, --output=text: holds the
#     table (one row per point) and the verdict;
#  3. --latency-limit that no point keeps: the curve stops at the first
#     point (limit_broken), then -g rate points, and the verdict says so;
#  4. SIGTERM (as Ctrl-C) during the third point: the two points done are
#     kept, the document says interrupted and the verdict that it was cut
#     short (natively only: wine has no signal to send it).
# Usage: curve_test.sh <source dir> <iospd binary> [--wine]
set -uo pipefail
src=$1
exe=$2
wine=0
[ "${3:-}" = "--wine" ] && wine=1
. "$src/tests/e2e/lib.sh"
py=${IOSPD_PYTHON:-python3}
if ! "$py" -c 'import jsonschema' 2>/dev/null; then
  echo "skipped: python3-jsonschema is not installed"; exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-curve.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
bad_detail() { [ -s err ] && sed 's/^/  stderr: /' err | head -5; }
expect_rc() { if [ "$1" = "$2" ]; then ok; else bad "$3: exit code $1, expected $2"; fi; }
expect_err() { if tr -d '\r' <err | grep -qxF -- "$1"; then ok; else bad "$2: stderr lacks the line '$1'"; fi; }
check() { "$py" "$src/tests/e2e/curve_check.py" "$src" "$@" >chk.log 2>&1 && ok ||
  { bad "curve_check $*"; sed 's/^/  /' chk.log | head -10; }; }

# --- 1. refusals: exit 3, before any I/O ---------------------------------
refused() { # <message> <args...>
  local msg=$1; shift
  run_exe "$@" >out 2>err
  expect_rc $? 3 "$*"
  expect_err "iospd: error: $msg" "$*"
  [ ! -e never.dat ] && ok || bad "$*: the target was created"
}
refused "--latency-limit needs --curve: the bound is searched along a curve (add --curve)" \
  '--latency-limit=p99<=1ms' -c1M never.dat
refused "--expect needs --curve: the verdict that reads it comes from a curve (add --curve)" \
  --expect=iops:5000 -c1M never.dat
refused "--curve writes a text or a JSON report: use -Rtext or -Rjson, not -Rxml" \
  --curve -Rxml -c1M never.dat
refused "--curve writes a text or a JSON report: use -Rtext or -Rjson, not -Rfio-json (fio's JSON holds one run)" \
  --curve -Rfio-json -c1M never.dat
refused "--output=fio-json cannot be used with --curve: the curve writes --output=text:, json: or html:" \
  --curve --output=fio-json:c.json -c1M never.dat
refused "--curve cannot be combined with -g: a rate limit caps the throughput the curve measures (with --latency-limit the curve sets -g itself)" \
  --curve -g100 -c1M never.dat
refused "'--curve=q': the axis must be o (outstanding I/Os), t (threads) or b (block size), not 'q'; use --curve, --curve=o|t|b, --curve=o:1..256 (doubling) or --curve=b:4K,8K,64K (a list)" \
  --curve=q -c1M never.dat
refused "'--latency-limit=p99<=1': the bound must be a time above 0 with us, ms or s (500us, 1ms, 0.5s), not '1'" \
  --curve '--latency-limit=p99<=1' -c1M never.dat

# --- 2. a short curve ------------------------------------------------------
run_exe -c16M -d1 -W0 -b4K -r --curve=o:1..4 --progress=always -Rjson \
  --output=text:c.txt --output=html:c.html t.dat >c.json 2>err
expect_rc $? 0 "--curve=o:1..4"
for k in 1 2 3; do
  q=$((1 << (k - 1)))
  grep -qF "curve: point $k of 3: QD $q" err && ok || bad "--progress: no 'point $k of 3: QD $q' line"
done
check c.json planned=1,2,4
# --output=html: the curve page of the same document (its verdict, a row
# per point; tests/e2e/html_pages_test.sh checks the drawing).
"$py" - c.json c.html <<'PY' >chk.log 2>&1 && ok || { bad "c.html is not the page of c.json"; cat chk.log; }
import html, json, sys
d = json.load(open(sys.argv[1]))
page = open(sys.argv[2], encoding="utf-8").read()
assert page.lstrip().lower().startswith("<!doctype html"), page[:80]
assert "<title>iospd curve:" in page, "no curve title"
for line in d["verdict"]:
    assert html.escape(line, quote=False)[:40] in page, "verdict line missing: " + line
assert page.count("<svg") >= 1, "no chart"
PY
"$py" - c.json c.txt <<'PY' >chk.log 2>&1 && ok || { bad "c.txt is not the table of c.json"; cat chk.log; }
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().replace("\r\n", "\n")
rows = [l for l in text.splitlines() if l[:5].strip().isdigit()]
assert len(rows) == len(d["points"]), (rows, len(d["points"]))
for row, p in zip(rows, d["points"]):
    f = row.split()
    assert int(f[0].rstrip("*")) == p["n"], row
    assert f[1] == p["phase"] and int(f[2]) == p["outstanding"], row
    assert abs(float(f[6]) - p["iops"]) < 0.01, (row, p["iops"])
assert "\nVerdict:\n" in text
for v in d["verdict"]:
    assert "  " + v + "\n" in text, v
PY

# --- 3. a bound no point keeps: limit_broken, then -g rate points ---------
run_exe -d1 -W0 -b4K -r --curve=o:1..4 '--latency-limit=max<=0.001us' \
  -Rjson t.dat >l.json 2>err
expect_rc $? 3 "max is no statistic"
run_exe -d1 -W0 -b4K -r --curve=o:1..4 '--latency-limit=p50<=0.001us' \
  -Rjson t.dat >l.json 2>err
expect_rc $? 0 "--latency-limit=p50<=0.001us"
check l.json stopped=limit_broken outstanding=1,1,1,1 phases=curve,rate,rate,rate \
  "verdict~No point kept p50 <= 0 us: even QD 1 gave p50 "
# --- 4. stopped during a point: the points done are kept ----------------
if [ $wine = 0 ]; then
  "$exe" -d2 -W0 -b4K -r --curve=o:1..16 -Rjson t.dat >i.json 2>err &
  pid=$!
  sleep 5
  kill -TERM $pid
  wait $pid
  expect_rc $? 0 "--curve stopped by SIGTERM"
  check i.json interrupted=true stopped=interrupted points=2 \
    "verdict~The curve was cut short (interrupted) after 2 points"
fi
finish curve_test

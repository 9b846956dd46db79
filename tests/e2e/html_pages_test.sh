#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --report dispatches on the document's "format" (docs/html-report.md):
# iospd-curve and iospd-pts documents (tests/data/curve-*.json, pts-*.json)
# get their own page; a curve or PTS document among others, a document of
# another format and a cut-off curve document are refused with exit 3,
# naming the file, and nothing is written. With --browser each page is
# opened in headless Chromium (tests/html/check_pages.py): the points,
# the limit line, the knee and answer, the window's mean and bands sit
# where the document's values say.
# Usage: html_pages_test.sh <iospd binary> <tests dir> [--wine|--browser]
set -u
abs() { (cd "$(dirname "$1")" && printf '%s/%s' "$(pwd)" "$(basename "$1")"); }
exe=$(abs "$1")
tests=$(abs "$2")
data=$tests/data
wine=0
browser=0
[ "${3:-}" = "--wine" ] && wine=1
[ "${3:-}" = "--browser" ] && browser=1
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-htmlp.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
bad_detail() { [ -s err ] && sed 's/^/  stderr: /' err | head -5; }
if [ $browser = 1 ] && ! command -v chromium >/dev/null; then
  echo "FAIL: chromium is not installed (Debian package chromium; scripts/deps.sh installs it)"
  exit 1
fi
cp "$data"/curve-*.json "$data"/pts-*.json "$data/html/run-si-L-D500.json" .
for f in curve-knee curve-nolimit curve-interrupted pts-converged pts-maxrounds; do
  run_exe --report $f.json --output=html:$f.html >out 2>err
  rc=$?
  [ $rc = 0 ] && [ ! -s err ] && ok || bad "--report $f.json: exit $rc"
  case $f in
    curve-*) want='data-chart="curve-latency"' ;;
    pts-*) want='data-chart="pts-convergence"' ;;
  esac
  grep -q "$want" $f.html && ok || bad "$f.html has no $want"
  grep -q '<h1>iospd report</h1>' $f.html && bad "$f.html is a results page" || ok
  if [ $browser = 1 ]; then
    python3 "$tests/html/check_pages.py" $f.html $f.json && ok || bad "check_pages.py $f"
  fi
done
grep -q 'data-banner="interrupted"' curve-interrupted.html && ok || bad "no interrupted banner"
grep -q '<h1>iospd PTS report</h1>' pts-maxrounds.html && ok || bad "no PTS title"
# refused: exit 3, the message, no file
refused() { # <expected stderr line> <args...>
  local want=$1
  shift
  rm -f x.html
  run_exe --report "$@" --output=html:x.html >out 2>err
  rc=$?
  [ $rc = 3 ] && ok || bad "--report $*: exit $rc, not 3"
  tr -d '\r' <err | grep -qxF "$want" && ok || bad "--report $*: stderr is not: $want"
  [ ! -e x.html ] && ok || bad "--report $*: x.html written"
}
refused "iospd: error: 'curve-knee.json' (--report): an iospd-curve document gets a page of its own: give it to --report alone (or with one other curve, to overlay them)" \
  run-si-L-D500.json curve-knee.json
refused "iospd: error: 'pts-converged.json' (--report): an iospd-pts document gets a page of its own: give it to --report alone" \
  pts-converged.json pts-maxrounds.json
printf '{"format": "iospd-ping", "format_version": 1, "hosts": []}\n' > ping.json
refused "iospd: error: 'ping.json' (--report): a \"format\": \"iospd-ping\" document; --report reads iospd-results (-Rjson), iospd-curve (--curve) and iospd-pts (--pts) documents" \
  ping.json
head -c 2000 curve-knee.json > cut.json
refused "iospd: error: 'cut.json' (--report): not JSON, although it starts as an iospd-curve document (a cut-off or damaged file?)" \
  cut.json
python3 -c '
import json; d = json.load(open("curve-knee.json")); d["format_version"] = 2
json.dump(d, open("v2.json", "w"))'
refused "iospd: error: 'v2.json' (--report): a curve document written by a newer iospd (format_version 2); this iospd reads 1" \
  v2.json
# two curves: --compare's text, --report's overlay
run_exe --compare curve-knee.json curve-knee-b.json >cmp.txt 2>err
rc=$?
[ $rc = 0 ] && ok || bad "--compare of two curves: exit $rc"
tr -d '\r' <cmp.txt | grep -qxF '         8 |    19900.0 |    29850.0 |  1.500 |      0.700 |      0.560 |  0.800' \
  && ok || bad "--compare: no row for -o8"
run_exe --compare curve-knee.json run-si-L-D500.json >out 2>err
rc=$?
[ $rc = 3 ] && tr -d '\r' <err | grep -qxF "iospd: error: 'run-si-L-D500.json' (--compare): not an iospd curve document; a curve is compared with another curve (--curve with --output=json:FILE)" \
  && ok || bad "--compare curve results: exit $rc"
run_exe --report curve-knee.json curve-knee-b.json --output=html:ab.html >out 2>err
rc=$?
[ $rc = 0 ] && grep -q 'data-mark="knee-B"' ab.html && grep -q '<h1>iospd curves compared</h1>' ab.html \
  && ok || bad "--report of two curves: exit $rc or no overlay"
finish html_pages

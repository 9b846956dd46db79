#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The HTML report opened in headless Chromium with the network off
# (tests/html/check_report.py): real runs of this iospd give
#  1. a report of one run with -L, -D and a target path holding
#     "</script>", and the fixed tests/data/html report;
#  2. a report of a run without -L (latency charts replaced by notes);
#  3. a comparison of two runs (one time series from a .jsonl beside the
#     JSON) and a --force comparison of runs of different profiles (banner);
#  4. a one-hour run at 1 s intervals with 8 targets (a real 8-target result
#     stretched by tests/html/gen_long_run.py): at most 1 MiB.
# Without chromium the test fails and says why: scripts/deps.sh installs it.
# Usage: html_browser_test.sh <iospd binary> <tests dir>
set -uo pipefail
exe=$1
tests=$2
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-htmlb.XXXXXX")
trap 'rm -rf "$work"' EXIT
bad_detail() { [ -s "$work/err" ] && sed 's/^/  stderr: /' "$work/err" | head -5; }
if ! command -v chromium >/dev/null; then
  echo "FAIL: chromium is not installed (Debian package chromium; scripts/deps.sh installs it): the HTML report cannot be tested in a browser"
  exit 1
fi
check() { python3 "$tests/html/check_report.py" "$@" && ok || bad "check_report.py $*"; }
cd "$work" || exit 1
mkdir -p 'p</script><b>'

# 1. one run, -L -D, a path that would end a <script> element
"$exe" -c2M -d2 -W1 -C1 -b4K -o2 -t2 -r -w30 -L -D500 --output=json:a.json \
  --output=html:a.html 'p</script><b>/t.dat' >/dev/null 2>err && ok || bad "run a"
check a.html a.json
check "$tests/data/html/run-si-L-D500.html" "$tests/data/html/run-si-L-D500.json"

# 2. no -L
"$exe" -c2M -d2 -W1 -C1 -b4K -o2 -t1 -r -w30 --output=json:n.json \
  --output=html:n.html t.dat >/dev/null 2>err && ok || bad "run n"
check n.html n.json

# 3. two runs compared; runs of different profiles with --force
"$exe" -c2M -d2 -W1 -C1 -b4K -o2 -t2 -r -w30 -L -D500 --output=json:b.json \
  --timeseries=b.jsonl 'p</script><b>/t.dat' >/dev/null 2>err && ok || bad "run b"
"$exe" --report a.json b.json b.jsonl --output=html:ab.html 2>err && ok || bad "report ab"
check ab.html a.json b.json b.jsonl
"$exe" --report a.json n.json --force --output=html:an.html 2>err && ok || bad "report an"
check an.html a.json n.json --expect-banner

# 4. an hour at 1 s with 8 targets: at most 1 MiB (check_report.py checks)
"$exe" -c1M -d2 -W0 -C0 -b4K -o2 -t1 -r -w30 -L -D1000 --output=json:e.json \
  --output=html:e.html f1 f2 f3 f4 f5 f6 f7 f8 >/dev/null 2>err && ok || bad "run e"
python3 "$tests/html/gen_long_run.py" e.json 3600 hour.json && ok || bad "gen_long_run"
"$exe" --report hour.json --output=html:hour.html 2>err && ok || bad "report hour"
echo "an hour, 8 targets: $(stat -c %s hour.json) bytes of JSON -> $(stat -c %s hour.html) bytes of HTML"
check hour.html hour.json

finish html_browser

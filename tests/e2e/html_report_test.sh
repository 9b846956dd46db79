#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of the HTML report (docs/html-report.md), natively and
# for iospd.exe under wine:
#  1. the fixed results tests/data/html/run-si-L-D500.json give exactly the
#     bytes of run-si-L-D500.html (so the Windows build writes what the
#     native one writes; IOSPD_UPDATE_GOLDEN=1 rewrites the .html);
#  2. a real run with --output=json and --output=html and --timeseries: the
#     report of its saved JSON is the same bytes as the run's own report;
#     the JSON's "timeseries" rows are the .jsonl rows; a .jsonl given after
#     the JSON is embedded with it;
#  3. bad input (not JSON, truncated, not iospd results, a newer
#     format_version, a missing file, a bad .jsonl, a misplaced .jsonl, no
#     or a wrong --output, the output being an input): exit 3, a message
#     naming the file, and the output path untouched (a file there before
#     keeps its bytes); runs of different profiles are overlaid without
#     --force (issue #31), the banner only with it.
# Usage: html_report_test.sh <iospd binary> <tests/data dir> [--wine]
set -uo pipefail
exe=$1
data=$2/html
wine=0
[ "${3:-}" = "--wine" ] && wine=1
. "$(dirname "$0")/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-html.XXXXXX")
trap 'rm -rf "$work"' EXIT
bad_detail() { [ -s "$work/err" ] && sed 's/^/  stderr: /' "$work/err" | head -5; }
if ! command -v python3 >/dev/null; then
  echo "SKIP: python3 is needed to read the reports"
  exit 77
fi
run() { run_exe "$@"; }
winpath() { if [ $wine = 1 ]; then winepath -w "$1" 2>/dev/null; else printf '%s' "$1"; fi; }
w=$(winpath "$work")
sep=/
[ $wine = 1 ] && sep='\'
W() { printf '%s%s%s' "$w" "$sep" "$1"; }

# --- 1. fixed results -> fixed bytes ------------------------------------------
cp "$data/run-si-L-D500.json" "$work/fx.json"
run --report "$(W fx.json)" --output=html:"$(W fx.html)" >/dev/null 2>"$work/err"
rc=$?
[ $rc = 0 ] && ok || bad "fixture: exit $rc"
if [ "${IOSPD_UPDATE_GOLDEN:-}" = 1 ] && [ $wine = 0 ]; then
  cp "$work/fx.html" "$data/run-si-L-D500.html"
fi
cmp -s "$work/fx.html" "$data/run-si-L-D500.html" && ok ||
  bad "fixture: the report differs from tests/data/html/run-si-L-D500.html"

# --- 2. a real run: its report == the report of its saved JSON ---------------
run -c2M -d2 -W1 -C1 -b4K -o2 -t1 -r -w30 -L -D500 \
    --timeseries="$(W r.jsonl)" --output=json:"$(W r.json)" \
    --output=html:"$(W r.html)" "$(W t.dat)" >/dev/null 2>"$work/err"
rc=$?
[ $rc = 0 ] && ok || bad "run: exit $rc"
head -c 15 "$work/r.html" | grep -q '<!DOCTYPE html>' && ok || bad "run: no HTML"
# The resolved profile as -Rptext shows it: the JSON's profile_text, shown
# (HTML-escaped) in the page's <pre data-profile-text>.
python3 - "$work/r.json" "$work/r.html" <<'PY' && ok || bad "profile_text missing from the JSON or the page"
import html, json, re, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
text = doc["profile_text"]
assert "number of outstanding I/O operations per thread: 2" in text, text
assert "performing mix test (read/write ratio: 70/30)" in text, text
page = open(sys.argv[2], encoding="utf-8").read()
m = re.search(r'<pre data-profile-text="0">(.*?)</pre>', page, re.S)
assert m and html.unescape(m.group(1)) == text, "page's profile text differs"
PY
run --report "$(W r.json)" --output=html:"$(W r2.html)" >/dev/null 2>"$work/err"
[ $? = 0 ] && cmp -s "$work/r.html" "$work/r2.html" && ok ||
  bad "the run's report and --report of its JSON differ"
python3 - "$work/r.json" "$work/r.jsonl" <<'PY' && ok || bad "JSON timeseries != .jsonl"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
assert rows and doc["timeseries"] == rows, (len(rows), len(doc.get("timeseries", [])))
assert any(r["phase"] == "warm-up" for r in rows) and any(r["phase"] == "cool-down" for r in rows)
PY
# the JSON with its "timeseries" and "warnings" keys still validates
if python3 -c 'import jsonschema' 2>/dev/null; then
  python3 - "$(dirname "$0")/../../schema/iospd-results.schema.json" "$work/r.json" <<'PY' && ok || bad "r.json does not validate"
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
fi
run --report "$(W r.json)" "$(W r.jsonl)" --output=html:"$(W r3.html)" >/dev/null 2>"$work/err"
rc=$?
[ $rc = 0 ] && grep -q 'id="iospd-timeseries-0" data-kind="timeseries"' "$work/r3.html" &&
  ok || bad "--report r.json r.jsonl: exit $rc or the .jsonl not embedded"

# --- 3. bad input: exit 3, the file named, nothing written -------------------
printf 'hello' >"$work/notjson.json"
head -c 3000 "$work/r.json" >"$work/trunc.json"
printf '{"a": 1}\n' >"$work/other.json"
sed 's/"format_version": 1/"format_version": 2/' "$work/r.json" >"$work/newer.json"
printf 'not a row\n' >"$work/bad.jsonl"
expect3() { # name-to-find description args...
  local name=$1 what=$2
  shift 2
  printf 'before' >"$work/out.html"
  run --report "$@" >/dev/null 2>"$work/err"
  local rc=$?
  [ $rc = 3 ] && ok || bad "$what: exit $rc, expected 3"
  grep -qF -- "$name" "$work/err" && ok || bad "$what: the message does not name '$name'"
  [ "$(cat "$work/out.html")" = before ] && ok || bad "$what: the output was touched"
  ! ls "$work"/out.html.* >/dev/null 2>&1 && ok || bad "$what: a temporary file was left"
}
O=--output=html:$(W out.html)
expect3 notjson.json "not JSON" "$(W notjson.json)" "$O"
expect3 trunc.json "truncated" "$(W trunc.json)" "$O"
grep -qi truncated "$work/err" && ok || bad "truncated: the message does not say so"
expect3 other.json "not iospd results" "$(W other.json)" "$O"
expect3 newer.json "newer format_version" "$(W newer.json)" "$O"
grep -q "format_version 2" "$work/err" && ok || bad "newer: the version is not named"
expect3 missing.json "missing file" "$(W missing.json)" "$O"
expect3 bad.jsonl "bad .jsonl" "$(W r.json)" "$(W bad.jsonl)" "$O"
expect3 r.jsonl "a .jsonl first" "$(W r.jsonl)" "$O"
expect3 "--output=html:FILE" "no --output" "$(W r.json)"
expect3 "--output=json:" "--output=json" "$(W r.json)" --output=json:"$(W out.html)"
expect3 "--force" "an unknown switch" "$(W r.json)" --forcee "$O"
cp "$work/r.json" "$work/keep.json"
run --report "$(W r.json)" --output=html:"$(W r.json)" >/dev/null 2>"$work/err"
rc=$?
[ $rc = 3 ] && cmp -s "$work/r.json" "$work/keep.json" && ok ||
  bad "output = input: exit $rc (expected 3) or the input changed"
run -c2M -d2 -W1 -C1 -b8K -o2 -t1 -r --output=json:"$(W p.json)" "$(W t.dat)" \
  >/dev/null 2>"$work/err" || bad "the second run failed"
# runs that differ on purpose are overlaid without --force (issue #31):
# the differing setting shown, no noise verdicts, no banner
run --report "$(W r.json)" "$(W p.json)" --output=html:"$(W d.html)" \
  >/dev/null 2>"$work/err"
rc=$?
[ $rc = 0 ] && grep -q 'data-note="comparison">These runs have different profiles' "$work/d.html" \
  && grep -q 'data-table="differences"' "$work/d.html" && ! grep -q 'data-banner' "$work/d.html" \
  && ! grep -q 'data-table="comparison"' "$work/d.html" && ok ||
  bad "different profiles without --force: exit $rc or not overlaid with the differences"
run --report "$(W r.json)" "$(W p.json)" --force --output=html:"$(W f.html)" \
  >/dev/null 2>"$work/err"
rc=$?
[ $rc = 0 ] && grep -q 'data-banner="forced"' "$work/f.html" && ok ||
  bad "--force: exit $rc or no banner"

finish html_report

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iospd --compare end to end.
#  - the committed runs in tests/data/compare (with their --timeseries
#    .jsonl) compare to the committed tables byte for byte, also with
#    --force against a copy of run 2 with another block size: natively and
#    (--wine) with iospd.exe, so both builds print the same table (but for
#    the CR LF line ends of Windows' stdout, checked and then removed);
#  - two real short runs (-d2 -D100 -L, with --timeseries) compared: exit
#    0, every value printed is the one in the JSON (IOPS, MiB/s, mean, p99,
#    p99.9 per direction), p99 decided from the time series;
#  - a run compared with itself: every metric 0.0 % and within noise
#    (p=1.000), but CPU per I/O (no per-interval values: unknown);
#  - another profile (-b8K): exit 3 naming block_size and both values,
#    nothing on stdout; with --force exit 0 and the table says so first;
#  - bad input: not JSON, truncated, another format, a newer format_version,
#    a missing file, one file only, a lone .jsonl: exit 3, the message
#    names the file and what is wrong, nothing on stdout.
# Usage: compare_test.sh <iospd binary> <source dir> [--wine]
set -u
exe=$1
src=$2
wine=0
[ "${3:-}" = "--wine" ] && wine=1
. "$src/tests/e2e/lib.sh"
run() { run_exe "$@"; }
if ! command -v python3 >/dev/null; then
  echo "skip: python3 is needed to check the values"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# Runs iospd; stdout without Windows' CRs (checked: every line has one).
run_lf() { # out-file args...
  local out=$1
  shift
  run "$@" >"$out.raw" 2>"$out.err"
  local rc=$?
  if [ $wine = 1 ] && [ -s "$out.raw" ]; then
    local lf crlf
    lf=$(tr -cd '\n' <"$out.raw" | wc -c)
    crlf=$(grep -c $'\r$' "$out.raw")
    if [ "$lf" = "$crlf" ]; then ok; else
      bad "iospd.exe $*: $crlf of $lf lines end in CR LF (want all)"
    fi
  fi
  tr -d '\r' <"$out.raw" >"$out"
  return $rc
}

# ---- the committed runs: the exact table, on every build ----------------
data="$src/tests/data/compare"
cp "$data"/run1.json "$data"/run1.jsonl "$data"/run2.json "$data"/run2.jsonl .
run_lf golden.txt --compare run1.json run1.jsonl run2.json run2.jsonl
rc=$?
if [ $rc = 0 ] && cmp -s golden.txt "$data/expected.txt"; then ok; else
  bad "--compare of tests/data/compare (rc $rc) differs from expected.txt: $(diff golden.txt "$data/expected.txt" | head -6) $(cat golden.txt.err)"
fi
python3 - <<'PY'
import json
d = json.load(open("run2.json"))
d["profile"]["timespans"][0]["targets"][0]["block_size"] = 8192
json.dump(d, open("run3.json", "w"), indent=1)
PY
run_lf forced.txt --compare run1.json run3.json --force
rc=$?
if [ $rc = 0 ] && cmp -s forced.txt "$data/expected_force.txt"; then ok; else
  bad "--compare --force (rc $rc) differs from expected_force.txt: $(diff forced.txt "$data/expected_force.txt" | head -6) $(cat forced.txt.err)"
fi

# ---- real runs -------------------------------------------------------------
prof=(-c1M -d2 -W0 -L -D100 -w30 -r -b4K)
run "${prof[@]}" --timeseries=a.jsonl -Rjson t1.dat >a.json 2>a.err || bad "run a failed: $(cat a.err)"
run "${prof[@]}" --timeseries=b.jsonl -Rjson t2.dat >b.json 2>b.err || bad "run b failed: $(cat b.err)"
run_lf ab.txt --compare a.json a.jsonl b.json b.jsonl
rc=$?
if [ $rc = 0 ] && [ ! -s ab.txt.err ]; then ok; else bad "--compare a b: exit $rc: $(cat ab.txt.err)"; fi
# Every printed value is the JSON's, formatted as the table does.
if out=$(python3 - <<'PY' 2>&1
import json, re
a, b = json.load(open("a.json")), json.load(open("b.json"))
lines = open("ab.txt").read().splitlines()
def val(doc, d, m):
    o = doc["timespans"][0]["total"][d]
    if m == "IOPS": return "%.2f" % o["iops"]
    if m == "MiB/s": return "%.2f" % o["mib_per_s"]
    lat = o["latency"]
    if m == "mean latency (ms)": return "%.4f" % lat["mean_ms"]
    label = {"p99 latency (ms)": "99", "p99.9 latency (ms)": "99.9"}[m]
    return "%.4f" % [p["ms"] for p in lat["percentiles"] if p["percentile"] == label][0]
seen = 0
for d in ("total", "read", "write"):
    for m in ("IOPS", "MiB/s", "mean latency (ms)", "p99 latency (ms)", "p99.9 latency (ms)"):
        row = [l for l in lines if re.match(r"^[ *] " + re.escape(m.ljust(19) + " " + d.ljust(9) + " "), l)]
        assert len(row) == 1, (m, d, row)
        want = [val(a, d, m), val(b, d, m)]
        cols = row[0][32:].split()   # run 1, run 2, diff, verdict...
        assert cols[:2] == want, (row[0], want)
        if m.startswith("p99"):
            assert "unknown" not in row[0], row[0]   # decided from the .jsonl
        seen += 1
assert seen == 15, seen
cpu = [l for l in lines if l[2:].startswith("CPU per I/O")]
assert len(cpu) == 1 and "unknown: no per-interval CPU values" in cpu[0], cpu
print("compare values: %d rows equal to the JSON" % seen)
PY
); then ok; echo "$out"; else bad "ab.txt: $out"; fi

# A run against itself: 0.0 % and within noise everywhere it can decide.
run_lf self.txt --compare a.json a.jsonl a.json a.jsonl
rc=$?
rows=$(grep -cE '^[ *] (IOPS|MiB/s|mean latency|p99 latency|p99.9 latency|CPU per I/O) ' self.txt)
same=$(grep -cE ' 0\.0%  within noise \(p=1\.000\)$' self.txt)
cpu=$(grep -cE '^  CPU per I/O \(us\) +total .* 0\.0%  unknown: no per-interval CPU values in the results$' self.txt)
if [ $rc = 0 ] && [ "$rows" = 16 ] && [ "$same" = 15 ] && [ "$cpu" = 1 ] &&
   grep -q '^Settings and environment: the same in every run\.$' self.txt; then ok; else
  bad "self-compare: exit $rc, $rows rows, $same within noise at 0.0%, cpu $cpu: $(cat self.txt self.txt.err)"
fi

# ---- another profile -------------------------------------------------------
run -c1M -d1 -W0 -L -D100 -w30 -r -b8K -Rjson t1.dat >c.json 2>c.err || bad "run c failed: $(cat c.err)"
expect_refusal() { # what  stderr-substring  args...
  local what=$1 want=$2
  shift 2
  run "$@" >out.txt 2>err.txt
  local rc=$?
  if [ $rc = 3 ] && grep -qF -- "$want" err.txt && [ ! -s out.txt ]; then ok; else
    bad "$what: exit $rc (want 3), stdout $(wc -c <out.txt) bytes, stderr: $(cat err.txt) (want: $want)"
  fi
}
expect_refusal "another profile" \
  "'c.json' (--compare) is a run of another profile than 'a.json': profile.timespans[0].duration_s is 1 in 'c.json' and 2 in 'a.json'; compare them anyway with --force" \
  --compare a.json c.json
run_lf forced2.txt --compare a.json c.json --force
rc=$?
if [ $rc = 0 ] && [ "$(head -1 forced2.txt)" = "NOTE: these runs are of different profiles (the settings listed below);" ] &&
   grep -qF '  ! setting      profile.timespans[0].targets[0].block_size: 4096 (run 1), 8192 (run 2)' forced2.txt &&
   grep -qF '  ! setting      profile.timespans[0].duration_s: 2 (run 1), 1 (run 2)' forced2.txt; then ok; else
  bad "--force: exit $rc: $(head -12 forced2.txt) $(cat forced2.txt.err)"
fi

# ---- text from the files reaches the terminal harmless -----------------------
# A computer_name with escape sequences (set the title, clear the screen), a
# C1 control (U+009B, CSI) and a value that parses as infinity (1e999).
python3 - <<'PY'
import re
t = open("a.json", encoding="utf-8").read()
t = t.replace('"computer_name": "', '"computer_name": "ev\\u001b]0;pwned\\u0007\\u001b[2J\\u009bil', 1)
t, n = re.subn(r'("mib_per_s": )[0-9.e+]+', r'\g<1>1e999', t, count=1)
assert n == 1
open("evil.json", "w", encoding="utf-8").write(t)
PY
run_lf evil.txt --compare a.json evil.json
rc=$?
if [ $rc = 0 ] && ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' evil.txt &&
   ! grep -q $'\xc2\x9b' evil.txt &&
   grep -qF '(ev\x1b]0;pwned\x07\x1b[2J\u009bil' evil.txt &&
   ! grep -qiE 'nan|inf' evil.txt &&
   grep -qE 'unknown: run 2: not a finite number$' evil.txt; then ok; else
  bad "control characters / infinity: exit $rc: $(head -4 evil.txt | od -c | head -5) $(grep -iE 'nan|inf|finite' evil.txt | head -3)"
fi

# ---- bad input ---------------------------------------------------------------
printf 'Total IO\nthread | bytes\n' >text.json
expect_refusal "not JSON" "'text.json' (--compare): not JSON: parsing stops near byte 1 (line 1, column 1)" --compare a.json text.json
head -c 5000 a.json >cut.json
expect_refusal "truncated" "'cut.json' (--compare): truncated: the JSON ends after byte 5000, before the document is complete" --compare cut.json a.json
printf '{"results": []}\n' >other.json
expect_refusal "another format" "'other.json' (--compare): JSON, but not iospd results" --compare a.json other.json
sed 's/"format_version": 1,/"format_version": 2,/' a.json >newer.json
expect_refusal "newer format" "'newer.json' (--compare): written by a newer iospd (format_version 2); this iospd reads 1" --compare a.json newer.json
expect_refusal "missing file" "cannot read 'missing.json' (--compare)" --compare a.json missing.json
expect_refusal "one file" "--compare needs two or more result files" --compare a.json
expect_refusal "lone .jsonl" "'a.jsonl' (--compare): a .jsonl time series goes right after the JSON results of its run" --compare a.jsonl a.json b.json
printf '{"timespan":0,"phase":"measuring"}\n{"timesp' >cut.jsonl
expect_refusal "cut .jsonl" "'cut.jsonl' (--compare): line 2 is not JSON" --compare a.json cut.jsonl b.json
expect_refusal "--compare not first" "'--compare' is a mode of its own and must be the first argument" -b4K --compare a.json b.json

finish compare_test

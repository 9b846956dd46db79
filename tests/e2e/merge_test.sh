#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iospd --merge end to end, with real runs.
#  - two short real runs of one profile (-d1 -L, on two target paths, as two
#    machines would have) -> --merge -> tests/e2e/merge_check.py checks, in
#    Python and independently of the C code, that counts are the sums of the
#    inputs and that every percentile, mean and stddev is the one of the
#    inputs' buckets added; every document validates against the schema;
#  - merging the merged file again equals merging all three at once, byte
#    for byte;
#  - a run of another profile (-b8K) is refused, exit 3, the message naming
#    the key and the two values; a missing file, a file that is not JSON and
#    JSON that is not iospd results: exit 3 naming the file;
#  - the committed runs in tests/data/merge merge to the committed
#    merged.json byte for byte: natively and (--wine) with iospd.exe, so the
#    two builds print identical bytes (but for the CR LF line ends of
#    Windows' text-mode stdout, which the test checks and then removes).
# Usage: merge_test.sh <iospd binary> <source dir> [--wine]
set -u
exe=$1
src=$2
wine=0
[ "${3:-}" = "--wine" ] && wine=1
. "$src/tests/e2e/lib.sh"
run() { run_exe "$@"; }
if ! python3 -c 'import jsonschema' 2>/dev/null; then
  echo "skip: python3-jsonschema is not installed (scripts/deps.sh installs it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
schema="$src/schema/iospd-results.schema.json"

# ---- the committed runs: the exact bytes, on every build ----------------
data="$src/tests/data/merge"
cp "$data/run1.json" "$data/run2.json" .
run --merge run1.json run2.json >golden.raw 2>golden.err
rc=$?
if [ $wine = 1 ]; then
  # Windows' stdout is in text mode: every report (text, XML, JSON) ends its
  # lines with CR LF there. That is the one difference allowed: every LF
  # must come after a CR, and without the CRs the bytes are the same.
  lf=$(tr -cd '\n' <golden.raw | wc -c)
  crlf=$(grep -c $'\r$' golden.raw)
  if [ "$lf" -gt 0 ] && [ "$lf" = "$crlf" ]; then ok; else
    bad "iospd.exe --merge: $crlf of $lf lines end in CR LF (want all)"
  fi
  tr -d '\r' <golden.raw >golden.json
else
  mv golden.raw golden.json
fi
if [ $rc = 0 ] && cmp -s golden.json "$data/merged.json"; then ok; else
  bad "--merge of tests/data/merge/run1.json run2.json (rc $rc) differs from tests/data/merge/merged.json: $(diff golden.json "$data/merged.json" | head -5) $(cat golden.err)"
fi

# ---- real runs -----------------------------------------------------------
prof=(-c1M -d1 -W0 -L -D500 -w30 -r -b4K)
run "${prof[@]}" -Rjson t1.dat >a.json 2>a.err || bad "run a failed: $(cat a.err)"
run "${prof[@]}" -Rjson t2.dat >b.json 2>b.err || bad "run b failed: $(cat b.err)"
run --merge a.json b.json >ab.json 2>ab.err
rc=$?
if [ $rc = 0 ]; then ok; else bad "--merge a.json b.json: exit $rc: $(cat ab.err)"; fi
if out=$(python3 "$src/tests/e2e/merge_check.py" "$schema" ab.json a.json b.json 2>&1); then
  ok
  echo "$out"
else
  bad "merge_check: $out"
fi

# merge(merge(a, b), a) == merge(a, b, a), byte for byte; the merged file
# lists the three original runs.
run --merge ab.json a.json >ab_a.json 2>/dev/null
run --merge a.json b.json a.json >aba.json 2>/dev/null
if [ -s aba.json ] && cmp -s ab_a.json aba.json; then ok; else
  bad "merge(merge(a,b),a) differs from merge(a,b,a): $(diff ab_a.json aba.json | head -5)"
fi
n=$(python3 -c 'import json,sys; print([e["file"] for e in json.load(open(sys.argv[1]))["merged_from"]])' ab_a.json 2>&1)
if [ "$n" = "['a.json', 'b.json', 'a.json']" ]; then ok; else bad "merged_from of merge(ab, a): $n"; fi

# ---- refusals ------------------------------------------------------------
expect_refusal() { # what  stderr-substring  args...
  local what=$1 want=$2
  shift 2
  run "$@" >out.json 2>err.txt
  local rc=$?
  if [ $rc = 3 ] && grep -qF -- "$want" err.txt && [ ! -s out.json ]; then ok; else
    bad "$what: exit $rc (want 3), stderr: $(cat err.txt) (want: $want)"
  fi
}
run -c1M -d1 -W0 -L -D500 -w30 -r -b8K -Rjson t1.dat >c.json 2>c.err || bad "run c failed: $(cat c.err)"
expect_refusal "another block size" \
  "'c.json' (--merge) is a run of another profile than 'a.json': profile.timespans[0].targets[0].block_size is 8192 in 'c.json' and 4096 in 'a.json'" \
  --merge a.json b.json c.json
expect_refusal "no file" "--merge needs the result files to merge" --merge
expect_refusal "missing file" "cannot read 'missing.json' (--merge)" --merge a.json missing.json
printf '{"format": "iospd-results",\n  "oops"\n' >broken.json
expect_refusal "truncated" "'broken.json' (--merge): truncated: the JSON ends after byte 37, before the document is complete" --merge a.json broken.json
printf '{"format": "iospd-results",\n  oops}\n' >notjson.json
expect_refusal "not JSON" "'notjson.json' (--merge): not JSON: parsing stops near byte 32 (line 2, column 4)" --merge a.json notjson.json
printf '{"results": []}\n' >other.json
expect_refusal "not iospd results" "'other.json' (--merge): JSON, but not iospd results" --merge other.json a.json
expect_refusal "--merge not first" "'--merge' is a mode of its own and must be the first argument" -b4K --merge a.json

# Whatever iospd writes it reads back: a results file past 64 MiB (a long
# -D1 run's -Rjson; here a.json padded with the white space JSON allows)
# merges, where it was refused as "larger than 64 MiB; not a profile".
python3 -c 'import sys; t = open("a.json").read(); open("big.json", "w").write(t + " " * (65 << 20))'
run --merge a.json big.json >big_merged.json 2>big.err
rc=$?
n=$(python3 -c 'import json,sys; print([e["file"] for e in json.load(open(sys.argv[1]))["merged_from"]])' big_merged.json 2>&1)
if [ $rc = 0 ] && [ "$n" = "['a.json', 'big.json']" ]; then ok; else bad "a 65 MiB results file: exit $rc, $n, $(cat big.err)"; fi
rm -f big.json big_merged.json

finish merge_test

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of JSON results and report files (issue #13):
#  1. one run, -Rxml on stdout and --output=json/xml/text files: the JSON
#     validates against the schema and holds the XML's numbers (I/O counts,
#     bytes, percentiles, ...); the XML and text files are byte-identical to
#     stdout of the same run; no .tmp file is left;
#  2. -Rjson on stdout stays one JSON document with -v (notices on stderr);
#  3. report-file safety, before any I/O (exit 3, naming the option and the
#     path, nothing created, truncated or written): a missing folder, a
#     folder, a read-only file, an output that is a target (same name,
#     another spelling, a hard link), two outputs to one file; bad --output
#     values; a folder removed during the run fails it (exit 1) without a
#     half file.
# Usage: json_test.sh <source dir> <iospd binary> [--wine]
set -uo pipefail
src=$1
exe=$2
wine=0
[ "${3:-}" = "--wine" ] && wine=1
. "$src/tests/e2e/lib.sh"
schema="$src/schema/iospd-results.schema.json"
py=${IOSPD_PYTHON:-python3} # tests/json.cmake: Debian's python3 when it has jsonschema
validate() { "$py" "$src/tests/json/validate_results.py" "$schema" "$@"; }
if ! "$py" -c 'import jsonschema' 2>/dev/null; then
  echo "skipped: python3-jsonschema is not installed"; exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-json.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
run() { run_exe "$@"; }
bad_detail() { [ -s err ] && sed 's/^/  stderr: /' err | head -5; }
expect_rc() { if [ "$1" = "$2" ]; then ok; else bad "$3: exit code $1, expected $2"; fi; }
expect_err() { if grep -qF -- "$1" err; then ok; else bad "$2: stderr lacks '$1'"; fi; }
absent() { if [ ! -e "$1" ]; then ok; else bad "$2: '$1' exists"; fi; }
no_tmp() { if ls ./*.tmp >/dev/null 2>&1; then bad "$1: a .tmp file was left: $(ls ./*.tmp)"; else ok; fi; }
sep=/
[ $wine = 1 ] && sep='\'
root=0
[ "$(id -u)" = 0 ] && root=1

# --- 1. one run, several outputs -------------------------------------------
run -c2M -d1 -W0 -L -D200 -t2 -o2 -w30 -vs -Rxml --output=json:o.json \
  --output=text:o.txt --output=xml:o.xml t1.dat t2.dat >s.xml 2>err
expect_rc $? 0 "-Rxml with three --output files"
validate o.json >v.log && ok || { bad "o.json does not validate"; cat v.log; }
"$py" "$src/tests/json/compare_xml.py" o.json s.xml --real >c.log && ok ||
  { bad "o.json differs from the XML of the same run"; head -20 c.log; }
grep -q " 0 differences" c.log && ok || bad "compare_xml printed no summary"
cmp -s s.xml o.xml && ok || bad "--output=xml differs from -Rxml stdout of the same run"
no_tmp "three outputs"
"$py" - o.json <<'PY' && ok || bad "o.json: counts, bytes or histograms do not add up"
import json, sys
d = json.load(open(sys.argv[1]))
ts = d["timespans"][0]
tot = ts["total"]
assert tot["total"]["ios"] > 0, "no I/O"
assert tot["read"]["ios"] + tot["write"]["ios"] == tot["total"]["ios"]
assert tot["read"]["bytes"] == tot["read"]["ios"] * 65536  # -b default 64 KiB
assert tot["write"]["bytes"] == tot["write"]["ios"] * 65536
for d3 in ("read", "write", "total"):
    h = tot[d3]["latency"]["histogram"]
    assert sum(c for _, _, c in h["buckets"]) == h["count"] == tot[d3]["ios"], d3
    assert [t["directions"][d3]["ios"] for t in ts["targets"]] and \
        sum(t["directions"][d3]["ios"] for t in ts["targets"]) == tot[d3]["ios"]
assert d["environment"]["command_line"]["argv"][-2:] == ["t1.dat", "t2.dat"]
assert [t["path"] for t in d["environment"]["targets"]] == ["t1.dat", "t2.dat"]
assert d["profile"]["result_format"] == "xml"
PY
run -c2M -d1 -W0 -Rtext --output=text:o2.txt t1.dat >s.txt 2>err
expect_rc $? 0 "-Rtext with --output=text"
cmp -s s.txt o2.txt && ok || bad "--output=text differs from stdout of the same run"

# --- 2. -Rjson on stdout -----------------------------------------------------
run -c2M -d1 -W0 -L -v -Rjson --output=xml:j.xml t1.dat >j.json 2>err
expect_rc $? 0 "-Rjson -v"
validate j.json >v.log && ok || { bad "-Rjson stdout does not validate"; cat v.log; }
"$py" "$src/tests/json/compare_xml.py" j.json j.xml --real >c.log && ok ||
  { bad "-Rjson differs from --output=xml of the same run"; head -20 c.log; }
grep -qE '[0-9]Z: ' err && ok || bad "-Rjson -v: no -v line on stderr"
# The commit is the source tree's, read when iospd was built (not when
# cmake configured it), with -dirty for uncommitted changes.
if git -C "$src" rev-parse --short HEAD >head.txt 2>/dev/null; then
  want=$(cat head.txt)
  git -C "$src" diff --quiet HEAD -- 2>/dev/null || want="$want-dirty"
  got=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["environment"]["iospd_commit"])' j.json)
  [ "$got" = "$want" ] && ok || bad "environment.iospd_commit is '$got', the tree is at '$want'"
else
  echo "not a git checkout: the commit stamp is not checked"
fi
run -Rp --output=json:p.json t1.dat >/dev/null 2>err
expect_rc $? 0 "-Rp with --output"
expect_err "the --output files are not written" "-Rp with --output: warning"
absent p.json "-Rp with --output"
run -Rpjson t1.dat >/dev/null 2>err
expect_rc $? 3 "-Rpjson"
expect_err "-Rptext or -Rpxml" "-Rpjson"

# --- 3. safety -----------------------------------------------------------------
mkdir sub
printf 'keep' >keep.json
cksum t1.dat >t1.sum
unchanged() { cksum t1.dat | cmp -s - t1.sum && ok || bad "$1: t1.dat changed"; }

run -c1M -d1 -W0 --output=json:nodir${sep}f.json new1.dat >out 2>err
expect_rc $? 3 "output in a missing folder"
expect_err "--output=json:nodir${sep}f.json: the file 'nodir${sep}f.json' cannot be written" \
  "missing folder: option and path"
expect_err "folder does not exist" "missing folder: reason"
absent new1.dat "missing folder (no I/O)"
[ -s out ] && bad "missing folder: stdout not empty" || ok

run -c1M -d1 -W0 --output=xml:sub new1.dat >/dev/null 2>err
expect_rc $? 3 "output that is a folder"
expect_err "'sub'" "folder: path"
expect_err "is a folder" "folder: reason"
absent new1.dat "folder (no I/O)"

run -c1M -d1 -W0 --output=json:keep.json --output=xml:nodir${sep}x.xml new1.dat >/dev/null 2>err
expect_rc $? 3 "one bad output of two"
[ "$(cat keep.json)" = keep ] && ok || bad "an existing output file was changed by a refused run"
absent keep.json.tmp "refused run"
absent new1.dat "one bad output (no I/O)"

printf 'ro' >ro.json
chmod 444 ro.json
if [ $root = 1 ] && [ $wine = 0 ]; then
  # Root may write anything: ask as the unprivileged user nobody.
  if command -v setpriv >/dev/null; then
    chmod 755 "$work"
    mkdir -m 1777 pub
    mkdir -m 555 rodir
    as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$exe" "$@"; }
    as_nobody -c1M -d1 -W0 --output=json:ro.json pub/new1.dat >/dev/null 2>err
    expect_rc $? 3 "read-only output file (as nobody)"
    expect_err "--output=json:ro.json: the file 'ro.json' cannot be written: the file cannot be written" \
      "read-only file: message"
    [ "$(cat ro.json)" = ro ] && ok || bad "read-only file changed"
    as_nobody -c1M -d1 -W0 --output=xml:rodir/r.xml pub/new1.dat >/dev/null 2>err
    expect_rc $? 3 "output in a read-only folder (as nobody)"
    expect_err "'rodir/r.xml' cannot be written: no file can be created in its folder" \
      "read-only folder: message"
    absent pub/new1.dat "read-only cases (no I/O)"
  else
    echo "note: running as root without setpriv; read-only cases skipped"
  fi
elif [ $root = 1 ]; then
  echo "note: wine runs as root here, so a read-only file is writable; read-only case skipped"
else
  run -c1M -d1 -W0 --output=json:ro.json new1.dat >/dev/null 2>err
  expect_rc $? 3 "read-only output file"
  expect_err "ro.json" "read-only: path"
  [ "$(cat ro.json)" = ro ] && ok || bad "read-only file changed"
  absent new1.dat "read-only (no I/O)"
fi
chmod 644 ro.json
rm -f new1.dat

for same in t1.dat ".${sep}t1.dat" "sub${sep}..${sep}t1.dat"; do
  run -d1 -W0 -w100 --output=xml:"$same" t1.dat >/dev/null 2>err
  expect_rc $? 3 "output = target ($same)"
  expect_err "is the target 't1.dat'" "output = target ($same): message"
  expect_err "--output=xml:$same: '$same' is the target" "output = target ($same): option"
  unchanged "output = target ($same)"
done
if [ $wine = 1 ]; then
  run -d1 -W0 -w100 --output=json:T1.DAT t1.dat >/dev/null 2>err
  expect_rc $? 3 "output = target, other case (Windows)"
  unchanged "other case"
fi
if ln t1.dat hard.dat 2>/dev/null; then
  run -d1 -W0 -w100 --output=json:hard.dat t1.dat >/dev/null 2>err
  expect_rc $? 3 "output = a hard link of the target"
  expect_err "'hard.dat' is the target 't1.dat'" "hard link: message"
  unchanged "hard link"
  # the target given as the link, the output as the name: the same
  run -d1 -W0 -w100 --output=json:t1.dat hard.dat >/dev/null 2>err
  expect_rc $? 3 "target = a hard link of the output"
  unchanged "hard link (reversed)"
  rm -f hard.dat
else
  echo "note: no hard links here; hard-link case skipped"
fi

run -c1M -d1 -W0 --output=json:a.out --output=xml:a.out new1.dat >/dev/null 2>err
expect_rc $? 3 "two outputs to one file"
expect_err "--output=json:a.out and --output=xml:a.out both write to the file 'a.out'" \
  "two outputs: message"
run -c1M -d1 -W0 --output=json:a.out --output=text:."${sep}"a.out new1.dat >/dev/null 2>err
expect_rc $? 3 "two outputs to one file, other spelling"
absent a.out "two outputs"
absent new1.dat "two outputs (no I/O)"

for v in --output=html: --output=yaml:r.y --output=json: --output \
         --output=json; do
  run -c1M -d1 -W0 "$v" new1.dat >/dev/null 2>err
  expect_rc $? 3 "$v"
  expect_err "'$v'" "$v: names the switch"
done
absent new1.dat "bad --output values (no I/O)"

# --timeseries=FILE (branch h-series) goes through the same checks; skipped
# while this binary does not have the option.
if run -Rp --timeseries=probe.csv t1.dat >/dev/null 2>&1; then
  cp t1.dat tt.csv
  run -d1 -W0 -w100 --timeseries=tt.csv tt.csv >/dev/null 2>err
  expect_rc $? 3 "--timeseries = target"
  expect_err "--timeseries=tt.csv: 'tt.csv' is the target" "--timeseries = target: message"
  run -d1 -W0 --timeseries=nodir${sep}s.csv t1.dat >/dev/null 2>err
  expect_rc $? 3 "--timeseries in a missing folder"
  expect_err "--timeseries=nodir${sep}s.csv: the file" "--timeseries missing folder: message"
  run -d1 -W0 --timeseries=s.csv --output=json:s.csv t1.dat >/dev/null 2>err
  expect_rc $? 3 "--timeseries and --output to one file"
  expect_err "both write to the file" "--timeseries and --output: message"
  absent s.csv "--timeseries refused"
  if ln t1.dat hl.csv 2>/dev/null; then
    run -d1 -W0 -w100 --timeseries=hl.csv t1.dat >/dev/null 2>err
    expect_rc $? 3 "--timeseries = a hard link of the target"
    unchanged "--timeseries hard link"
    rm -f hl.csv
  fi
  rm -f tt.csv
else
  echo "note: this iospd has no --timeseries; its output-path checks skipped"
fi

# A good output replaces an existing file whole.
run -c1M -d1 -W0 --output=json:keep.json t1.dat >/dev/null 2>err
expect_rc $? 0 "output over an existing file"
validate keep.json >/dev/null && ok || bad "the replaced keep.json does not validate"
no_tmp "output over an existing file"

# The output's folder vanishes during the run: exit 1, named, no half file.
mkdir gone
run -d3 -W0 --output=json:gone${sep}r.json t1.dat >/dev/null 2>err &
pid=$!
sleep 1.5
rm -rf gone
wait $pid
expect_rc $? 1 "output folder removed during the run"
expect_err "--output=json:gone${sep}r.json: the report was not written" "vanished folder: message"
absent gone "vanished folder"

finish json_test

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of --verify and --verify-only (docs/verify.md) with real
# files and real runs of the binary:
#  - a verified write run then --verify-only: every block checked, none failed;
#  - each corruption injected between a verified write run and --verify-only
#    (a flipped bit, an older copy of a block put back, a block copied to
#    another offset, a zeroed block, halves of two generations) is reported
#    with its kind and offset, exit 1; --verify-errors=N; a verified read run
#    reports them in text, XML and JSON (schema-valid);
#  - the round trip with each Linux engine and cache mode, -si and -T with
#    several threads, mixed -w50;
#  - kill -9 during a verified write run: only in-flight blocks are
#    indeterminate, nothing is corrupt;
#  - refusals (exit 3): offsets that are not multiples of -b, a small -b, a
#    state made for another -b, a disk without --verify-state.
# With --wine: iospd.exe under wine (round trip, injections, refusals).
# Usage: verify_test.sh <iospd binary> <source dir> [--wine]
set -u
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
shift 2
wine=0
for a in "$@"; do
  case "$a" in --wine) wine=1 ;; esac
done
iospd() {
  if [ $wine = 1 ]; then wine "$exe" "$@" </dev/null; else "$exe" "$@"; fi
}
if ! command -v python3 >/dev/null; then
  echo "skip: python3 is needed to inject corruptions and read reports"
  exit 77
fi
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # ok, bad, finish
# In the build tree, not /tmp: -Su needs a file system with O_DIRECT.
work=$(mktemp -d "$PWD/verify_test.XXXXXX") || exit 1
bgpid=""
cleanup() {
  [ -n "$bgpid" ] && kill -9 "$bgpid" 2>/dev/null
  cd /
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
out=""
bad_detail() { echo "--- stdout"; cat out.txt 2>/dev/null | tail -5; echo "--- stderr"; head -20 err.txt 2>/dev/null; }

# run <expected exit> <args...>: runs iospd, output in out.txt / err.txt.
run() {
  local want=$1
  shift
  iospd "$@" >out.txt 2>err.txt
  local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "iospd $* exited $rc, expected $want"; fi
}
# field <name>: a count from the verify-only summary line of out.txt.
field() {
  python3 - "$1" <<'PY'
import re, sys
text = open("out.txt").read()
m = re.search(r"(?:^|[ ,(])" + re.escape(sys.argv[1]) + r" (\d+)", text)
print(m.group(1) if m else "none")
PY
}
expect() { # expect <field> <value> <what>
  local got
  got=$(field "$1")
  if [ "$got" = "$2" ]; then ok; else bad "$3: $1 is $got, expected $2"; fi
}

# block <file> <index> [<out file>]: a copy of one 4 KiB block.
blk() { python3 -c "import sys;f=open(sys.argv[1],'rb');f.seek(int(sys.argv[2])*4096);open(sys.argv[3],'wb').write(f.read(4096))" "$@"; }
# put <file> <index> <data file> [<from> <len>]: writes data into the block.
put() { python3 -c "
import sys
d=open(sys.argv[3],'rb').read()
fr=int(sys.argv[4]) if len(sys.argv)>4 else 0
n=int(sys.argv[5]) if len(sys.argv)>5 else len(d)
f=open(sys.argv[1],'r+b');f.seek(int(sys.argv[2])*4096+fr);f.write(d[fr:fr+n])" "$@"; }

# ---- round trip ----------------------------------------------------------
dur=1
[ $wine = 1 ] && dur=2
run 0 -c256K -b4K -s -w100 -o4 -d$dur -W0 -C0 --verify t.dat
if [ -s t.dat.iospd-verify ]; then ok; else bad "no state file beside the target"; fi
grep -q "verify (--verify)" out.txt && ok || bad "no verify paragraph in the text report"
run 0 --verify-only -b4K t.dat
expect checked 64 "round trip"
expect failures 0 "round trip"
grep -q "100% (64 of 64 blocks)" err.txt && ok || bad "no progress line on stderr"

# ---- injections ------------------------------------------------------------
blk t.dat 10 old10
blk t.dat 40 old40
run 0 -b4K -s -w100 -o4 -d$dur -W0 -C0 --verify t.dat
python3 - <<'PY'
f = open("t.dat", "r+b")
f.seek(3 * 4096 + 1000); b = f.read(1); f.seek(3 * 4096 + 1000)
f.write(bytes([b[0] ^ 0x10]))          # block 3: one bit flipped
f.seek(20 * 4096); b20 = f.read(4096)
f.seek(21 * 4096); f.write(b20)        # block 21 := block 20
f.seek(30 * 4096); f.write(bytes(4096))  # block 30 zeroed
PY
put t.dat 10 old10                     # block 10: the older copy back
put t.dat 40 old40 0 2048              # block 40: old first half, new second
run 1 --verify-only -b4K t.dat
expect failures 5 "injections"
for kv in "bad checksum:1" "stale generation:1" "misdirected:1" "zeroed:1" "torn:1"; do
  expect "${kv%%:*}" "${kv##*:}" "injections"
done
chk() { # chk <offset> <kind words>
  if grep -q "offset $1 (block $(( $1 / 4096 ))): $2" err.txt; then ok
  else bad "no '$2' failure at offset $1"; fi
}
chk 12288 "bad checksum"
chk 40960 "stale generation (lost write): expected generation"
chk 86016 "wrong offset in header (misdirected write): expected offset 86016, found a block written for offset 81920"
chk 122880 "zeroed block"
chk 163840 "torn block"
run 1 --verify-only -b4K --verify-errors=2 t.dat
n=$(grep -c "^verify FAILED" err.txt)
[ "$n" = 2 ] && ok || bad "--verify-errors=2 printed $n failure lines"
grep -q "5 failures in all, 2 shown" err.txt && ok || bad "no 'in all' line"

# A verified read run finds them too, in every report format.
run 1 -b4K -s -w0 -o2 -d$dur -W0 -C0 --verify t.dat
grep -q "failures [1-9]" out.txt && ok || bad "text report counts no failure"
grep -q "^verify FAILED" err.txt && ok || bad "read run printed no failure line"
run 1 -b4K -s -w0 -o2 -d$dur -W0 -C0 --verify -Rjson t.dat
python3 - "$src" <<'PY' && ok || bad "JSON verify member"
import json, sys
doc = json.load(open("out.txt"))
v = doc["timespans"][0]["verify"]
t = v["targets"][0]
assert t["failures"] > 0 and t["blocks_checked"] > 0, t
kinds = {f["kind"] for f in v["failures"]}
assert kinds <= {"badChecksum", "staleGeneration", "misdirected", "zeroed", "torn"}, kinds
offs = {f["offset"] for f in v["failures"]}
assert offs <= {12288, 40960, 86016, 122880, 163840}, offs
try:
    import jsonschema
    schema = json.load(open(sys.argv[1] + "/schema/iospd-results.schema.json"))
    jsonschema.validate(doc, schema)
except ImportError:
    print("note: python3-jsonschema missing, schema not checked")
PY
run 1 -b4K -s -w0 -o2 -d$dur -W0 -C0 --verify -Rxml t.dat
python3 - <<'PY' && ok || bad "XML <Verify> element"
import xml.etree.ElementTree as ET
r = ET.parse("out.txt").getroot()
v = r.find("TimeSpan/Verify")
t = v.find("Target")
assert int(t.findtext("Failures")) > 0
assert int(t.findtext("BlocksChecked")) > 0
for f in v.findall("Failure"):
    assert int(f.get("Offset")) in (12288, 40960, 86016, 122880, 163840), f.attrib
PY
# --merge adds the verify counts of runs and keeps every failure printed.
run 1 -b4K -s -w0 -o2 -d$dur -W0 -C0 --verify -Rjson t.dat
cp out.txt a.json
run 1 -b4K -s -w0 -o2 -d$dur -W0 -C0 --verify -Rjson t.dat
cp out.txt b.json
run 0 --merge a.json b.json
python3 - <<'PY' && ok || bad "--merge of verify members"
import json
a, b, m = (json.load(open(f))["timespans"][0]["verify"] for f in ("a.json", "b.json", "out.txt"))
for k in ("blocks_written", "blocks_checked", "failures"):
    assert m["targets"][0][k] == a["targets"][0][k] + b["targets"][0][k], k
for k, v in m["targets"][0]["by_kind"].items():
    assert v == a["targets"][0]["by_kind"][k] + b["targets"][0]["by_kind"][k], k
assert len(m["failures"]) == len(a["failures"]) + len(b["failures"])
PY
# Rewriting every block makes the file good again.
run 0 -b4K -s -w100 -o1 -d$dur -W0 -C0 --verify t.dat
run 0 --verify-only -b4K t.dat
expect failures 0 "after rewriting"
# A machine that crashed loses the state's unsaved pages: blocks written
# after them are newer than the state says, indeterminate, not failures.
cp t.dat.iospd-verify saved.state
run 0 -b4K -s -w100 -o4 -d$dur -W0 -C0 --verify t.dat
cp saved.state t.dat.iospd-verify
run 0 --verify-only -b4K t.dat
expect failures 0 "state older than the data"
expect indeterminate 64 "state older than the data"

# ---- refusals (exit 3) -------------------------------------------------------
run 3 -b4K -r2K -w100 -d1 --verify t.dat
grep -q -- "-r alignment of 2048" err.txt && ok || bad "-r2K refusal does not name the switch"
run 3 -b4K -B1000 -w100 -d1 --verify t.dat
grep -q -- "-B1000" err.txt && ok || bad "-B refusal"
run 3 -b32 -w100 -d1 --verify t.dat
run 3 -b4K -T1000 -t2 -w100 -d1 --verify t.dat
run 3 --verify --verify-only t.dat
run 3 -b4K -w100 -d1 --verify --compress=50 t.dat
grep -q -- "--verify cannot be combined with --compress or --dedupe" err.txt && ok ||
  bad "--verify with --compress"
run 3 -b4K -w100 -d1 --verify --dedupe=30 t.dat
grep -q -- "--verify cannot be combined with --compress or --dedupe" err.txt && ok ||
  bad "--verify with --dedupe"
run 3 --verify-only -b4K -c1M t.dat
grep -q "never creates a file" err.txt && ok || bad "--verify-only with -c"
run 3 --verify-only -b4K --output=json:o.json t.dat
grep -q "writes no --output" err.txt && ok || bad "--verify-only with --output"
run 3 -b4K -d1 --verify-errors=3 t.dat
grep -q -- "--verify-errors and --verify-state need --verify" err.txt && ok ||
  bad "--verify-errors without --verify"
run 3 -b4K -w100 -d1 --verify --verify-state=s.state t.dat t2.dat
grep -q "several targets" err.txt && ok || bad "--verify-state with two targets"
run 3 --verify-only -b8K t.dat
grep -q "made for -b4096, not -b8192" err.txt && ok || bad "-b mismatch message"
cp t.dat nostate.dat
run 3 --verify-only -b4K nostate.dat
grep -q "no verify state file 'nostate.dat.iospd-verify'" err.txt && ok || bad "missing state message"
run 1 --verify-only -b4K missing.dat
grep -q "cannot look at target 'missing.dat'" err.txt && ok || bad "missing target message"
# A disk has no folder beside it for the state file.
run 3 -b4K -w0 -d1 --verify '#1'
grep -q -- "--verify-state=FILE" err.txt && ok || bad "disk refusal"

# ---- --verify-only is a workload of the controller ---------------------------
# -v lines and -P dots come from the controller as in any run; a target that
# cannot be checked leaves the others checked (and is the run's error).
run 0 -c256K -b4K -s -w100 -o4 -d$dur -W0 -C0 --verify v.dat
run 0 --verify-only -v -P16 -b4K v.dat
expect checked 64 "-v -P16"
grep -qE 'Z: starting measurements\.\.\.' out.txt && grep -qE 'Z: stopping threads\.\.\.' out.txt &&
  ok || bad "--verify-only -v: no verbose lines: $(head -5 out.txt)"
dots=$(grep -v '^target' out.txt | tr -cd '.' | wc -c)
# 64 blocks, a dot every 16; the verbose lines' own "..." are 3 each
# (iospd.exe ends its lines with CR LF).
vdots=$(tr -d '\r' <out.txt | grep -cE 'Z: .*\.\.\.$')
[ $((dots - 3 * vdots)) = 4 ] && ok || bad "--verify-only -P16: $((dots - 3 * vdots)) dots, want 4: $(cat out.txt)"
# What has no meaning for a checking pass is refused, naming it (exit 3);
# -o, -n, -Sm and the engine are taken.
for sw in "-d3:-d (the pass ends" "-W2:-W and -C" "-t2:-t and -F" "-w10:-w (the pass only reads)" \
          "-r:-r, -rs and -rd" "-g100:-g, -i and -j" "-T8K:-T, -p and -si" "-D:-D (the pass" "-L:-L (the pass"; do
  run 3 --verify-only -b4K "${sw%%:*}" v.dat
  grep -qF -- "error: --verify-only: ${sw#*:}" err.txt && ok || bad "--verify-only ${sw%%:*}: not refused by name: $(head -2 err.txt)"
done
run 0 --verify-only -b4K -o8 -n -Sm v.dat
expect checked 64 "--verify-only -o8 -n -Sm"
cp v.dat ns.dat
run 3 --verify-only -b4K v.dat ns.dat
grep -q "^target 'v.dat': .*checked 64, failures 0 " out.txt && ok ||
  bad "two targets, the second without a state: the first not checked: $(cat out.txt)"
grep -q "^target 'ns.dat': .*incomplete" out.txt && ok || bad "two targets: ns.dat not incomplete"
grep -q "no verify state file 'ns.dat.iospd-verify'" err.txt && ok || bad "two targets: no state message"

if [ $wine = 1 ]; then
  finish verify_test_wine
  exit
fi

# -yp set by another live run (its -ys, at the start of its measuring): the
# check stops before it reads, the target is incomplete and the run fails.
iospd -c1M -d6 -W0 -C0 -ysvonly_stop_$$ y.dat >/dev/null 2>&1 &
bgpid=$!
sleep 1.5
run 1 --verify-only -v -ypvonly_stop_$$ -b4K v.dat
grep -q "the stop event (-yp) is set: stopping" out.txt && ok || bad "-yp: not seen: $(cat out.txt)"
grep -q "^target 'v.dat': .*incomplete" out.txt && ok || bad "-yp: v.dat not incomplete: $(cat out.txt)"
grep -q "error: --verify-only: the check of 'v.dat' was stopped (Ctrl-C or -yp) after 0 blocks, before the end: not a pass" err.txt &&
  ok || bad "-yp: no error: $(cat err.txt)"
kill "$bgpid" 2>/dev/null
wait "$bgpid" 2>/dev/null
bgpid=""

# ---- engines, cache modes, threads ------------------------------------------
rm -f e.dat e.dat.iospd-verify
run 0 -c1M -b4K -s -w100 -o4 -d1 -W0 -C0 --verify e.dat
# "--engine=threads -n": not pinned, so a worker on two CPUs hands part of
# its cached I/Os to the threads engine's helper thread.
for cfg in "--engine=io_uring" "--engine=threads" "--engine=threads -n" \
           "--engine=psync -o1" \
           "--engine=libaio -Su" "--engine=io_uring -Su" "-Sw" "-Sh" "-Sm"; do
  # shellcheck disable=SC2086
  run 0 -b4K -r -w50 -o8 -d1 -W0 -C0 --verify $cfg e.dat
  if grep -q "written [1-9]" out.txt && grep -q "checked [1-9]" out.txt &&
     grep -q "failures 0 " out.txt; then ok
  else bad "$cfg: mixed verified run did not write, check, and pass"; fi
  run 0 --verify-only -b4K $cfg e.dat
  expect failures 0 "$cfg verify-only"
  expect checked 256 "$cfg verify-only"
done
# Several threads on one target: -si (one shared sequential cursor), -T.
run 0 -b4K -si -t4 -w100 -o4 -d1 -W0 -C0 --verify e.dat
grep -q "failures 0 " out.txt && ok || bad "-si -t4"
run 0 -b4K -s -T64K -t3 -w50 -o4 -d1 -W0 -C0 --verify e.dat
grep -q "failures 0 " out.txt && ok || bad "-T64K -t3 -w50"
run 0 -b4K -r -t4 -w50 -o16 -d1 -W0 -C0 --verify --engine=threads e.dat
grep -q "failures 0 " out.txt && ok || bad "-t4 -o16 random -w50 (overlapping writes)"
run 0 -b4K -r -t2 -w50 -o32 -n -d1 -W0 -C0 --verify --engine=threads e.dat
grep -q "failures 0 " out.txt && grep -q "checked [1-9]" out.txt && ok ||
  bad "-t2 -o32 -n threads (helper threads) random -w50"
# Mixed random/sequential (-rs) and a -rd distribution, with writes.
run 0 -b4K -rs50 -w50 -o8 -t2 -d1 -W0 -C0 --verify e.dat
grep -q "failures 0 " out.txt && grep -q "checked [1-9]" out.txt && ok || bad "-rs50 -w50"
run 0 -b4K -r -rdpct90/10:10/90 -w50 -o8 -d1 -W0 -C0 --verify e.dat
grep -q "failures 0 " out.txt && grep -q "checked [1-9]" out.txt && ok || bad "-rdpct -w50"
run 0 --verify-only -b4K e.dat
expect failures 0 "after the threaded runs"

# ---- kill -9 during a verified write run ----------------------------------
rm -f k.dat k.dat.iospd-verify
run 0 -c4M -b4K -s -w100 -o8 -d1 -W0 -C0 --verify k.dat
"$exe" -b4K -r -w100 -o8 -t2 -Sw -d30 -W0 -C0 --verify --engine=threads k.dat \
  >/dev/null 2>&1 &
bgpid=$!
sleep 1.5
kill -9 "$bgpid"
wait "$bgpid" 2>/dev/null
bgpid=""
run 0 --verify-only -b4K k.dat
expect failures 0 "after kill -9"
ind=$(field indeterminate)
if [ "$ind" -ge 1 ] && [ "$ind" -le 16 ]; then ok
else bad "after kill -9: $ind indeterminate blocks, expected 1 to 16 (-o8 -t2)"; fi
# The next verified run says so, rewrites, and all is well again.
run 0 -b4K -s -w100 -o8 -d1 -W0 -C0 --verify k.dat
grep -q "were being written when an earlier run ended" err.txt && ok ||
  bad "no note about blocks a killed run left in flight"
run 0 --verify-only -b4K k.dat
expect failures 0 "after the run that followed the kill"
expect indeterminate 0 "after the run that followed the kill"

finish verify_test

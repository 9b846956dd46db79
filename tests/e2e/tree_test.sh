#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The --tree file-tree mode (docs/tree.md) with the real binary: defaults
# and refusals, placement by --assign (exact, from the documented formulas,
# tests/e2e/tree_check.py), the hot/cold share within 2 points of --skew,
# re-use (no re-creation, mtimes unchanged), a different layout refused
# (exit 3, nothing touched), relocation (every file once, contents intact),
# append-only writes (old bytes unchanged, growth only), --cleanup (exactly
# the tree), metadata latency counts, and the XML/JSON reports.
# Usage: tree_test.sh <iospd binary> [--wine]   (--wine: a shorter set:
# creation, a short run, relocation, cleanup; the checks run natively).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
exe=$1
wine=0
[ "${2:-}" = "--wine" ] && wine=1
check="python3 $here/tree_check.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# run <args...>: stdout in out, stderr in err, exit code in rc.
run() {
  if [ $wine = 1 ]; then
    wine "$exe" "$@" >out 2>err
  else
    "$exe" "$@" >out 2>err
  fi
  rc=$?
}
bad_detail() { echo "--- rc=$rc stderr:"; head -c 1500 err; echo "--- stdout:"; head -c 1500 out; }
json() { python3 -c "import json,sys; d=json.load(open('out')); print($1)"; }
mtimes() { find "$@" -type f -printf '%p %T@ %s\n' | sort; }

# ---- creation, placement, a short run (also under wine) ----------------------
run --tree=ea,eb --files=40 -d1 -W0 -t2 -Rjson
[ $rc = 0 ] && ok || bad "even: exit $rc"
grep -q "creating the tree: 40 files of 4096 bytes in 2 directories" err && ok || bad "no creation note"
grep -q "created 40 of 40 files: done" err && ok || bad "no creation progress"
[ "$($check layout ea,eb 40 even 0 0 2)" = ok ] && ok || bad "even placement: $($check layout ea,eb 40 even 0 0 2)"
[ "$($check pattern ea/f00000000.dat 4096)" = ok ] && ok || bad "content of a created file"
[ "$(json "d['file_tree']['created'], d['file_tree']['metadata']['create']['latency']['count']")" = "True 40" ] && ok || bad "create count"
[ "$(json "d['file_tree']['metadata']['open']['latency']['count'] > 0 and d['file_tree']['metadata']['close']['latency'] is not None")" = True ] && ok || bad "open/close latencies missing"
[ -f ea/.iospd-tree ] && grep -q "^files=40$" ea/.iospd-tree && ok || bad "marker"

run --tree=oa,ob,oc,od --files=10 --assign=ordered -d0 -W0 -t1
[ $rc = 0 ] && [ "$($check layout oa,ob,oc,od 10 ordered 0 0 2)" = ok ] && ok || bad "ordered placement: $($check layout oa,ob,oc,od 10 ordered 0 0 2)"

run --tree=dt --files=8 --depth=2 --width=2 -d0 -W0 -t1
[ $rc = 0 ] && [ "$($check layout dt 8 even 0 2 2)" = ok ] && ok || bad "depth/width placement"
[ -f dt/d1/d1/f00000003.dat ] && [ -f dt/d0/d0/f00000004.dat ] && ok || bad "dt/d1/d1 holds file 3, dt/d0/d0 file 4"

# ---- relocation: every file once, contents intact (also under wine) ----------
run --tree=r1,r2,r3 --files=60 --relocate=200 -d2 -W0 -w50 -t4 -Rjson
[ $rc = 0 ] && ok || bad "relocate: exit $rc"
moved=$(json "d['file_tree']['relocations_total']")
[ "${moved:-0}" -gt 20 ] && ok || bad "relocate: only ${moved:-?} renames"
[ "$(json "d['file_tree']['metadata']['rename']['latency']['count'] == d['file_tree']['relocations']")" = True ] && ok || bad "rename latency count"
if $check where r1,r2,r3 60 0 2 >where.txt; then ok; else bad "relocate lost a file: $(tail -1 where.txt)"; fi
[ "$(awk '{print $2}' where.txt | sort | uniq -c | wc -l)" = 3 ] && ok || bad "relocate: files not spread"
[ "$($check layout r1,r2,r3 60 even 0 0 2)" != ok ] && ok || bad "relocate: no file left its home"
badc=0
while read -r i leaf; do
  [ "$($check pattern "$leaf/$(printf 'f%08u.dat' "$i")" 4096)" = ok ] || badc=$((badc + 1))
done <where.txt
[ $badc = 0 ] && ok || bad "relocate: $badc files with changed content"
run --tree=r1,r2,r3 --files=60 -d0 -W0 -t1
[ $rc = 0 ] && grep -q "re-using" err && ok || bad "a relocated tree is re-used"

# ---- cleanup: exactly the tree (also under wine) -----------------------------
mkdir keep && echo mine >keep/mine.txt
run --tree=keep,gone --files=10 --depth=1 --cleanup -d0 -W0 -t1
[ $rc = 0 ] && ok || bad "cleanup: exit $rc"
[ "$(cd keep && find . | sort | tr '\n' ' ')" = ". ./mine.txt " ] && ok || bad "cleanup left or took: $(cd keep && find . | tr '\n' ' ')"
[ ! -e gone ] && ok || bad "cleanup: the directory it made is still there"

if [ $wine = 1 ]; then
  finish tree_test_wine
  exit
fi

# ---- defaults and refusals ---------------------------------------------------
run --tree=x -Rp
grep -q "threads per file: 16" out && grep -q "outstanding I/O operations per thread: 1" out &&
  grep -q "block size: 4KiB" out && grep -q "using random I/O" out &&
  grep -q "skew: 7:1" out && grep -q "files: 1000 of 4096 bytes" out && ok || bad "-Rp defaults"
[ ! -e x ] && ok || bad "-Rp created something"
expect3() {
  local want=$1; shift
  run "$@"
  [ $rc = 3 ] && grep -q -- "$want" err && ok || bad "$* should exit 3 with '$want'"
}
expect3 "-o65 is more than 64" --tree=x -o65
expect3 "-c (the tree's files" --tree=x -c1M
expect3 "-s (offsets are random" --tree=x -s
expect3 "has one: give two directories" --tree=x --relocate
expect3 "smaller than the block size" --tree=x -b8K
expect3 "takes no targets" --tree=x t.dat
expect3 "--verify and --verify-only (they check" --tree=x --verify
expect3 "--verify and --verify-only (they check" --tree=x --verify-only
[ ! -e x ] && ok || bad "a refused run created something"

# ---- hot/cold share within 2 points ------------------------------------------
for skew in 7:1 3:1 1:1; do
  run --tree=sa,sb --files=200 --skew=$skew -d2 -W0 -t2 -Rjson
  h=${skew%:*} c=${skew#*:}
  v=$(json "abs(d['file_tree']['hot_io_percent'] - 100.0*$h/($h+$c)) <= 2")
  # the same from the per-class targets of the usual results
  v2=$(json "(lambda t: abs(100.0*t[0]/(t[0]+t[1]) - 100.0*$h/($h+$c)) <= 2)([sum(x['ios'] for th in d['timespans'][0]['threads'] for x in th['targets'] if x['target_index']==k) for k in (0,1)])" 2>&1)
  [ $rc = 0 ] && [ "$v" = True ] && [ "$v2" = True ] && ok || bad "skew $skew: $(json "d['file_tree']['hot_io_percent']") ($v2)"
  hf=$(json "d['file_tree']['hot_files']")
  want=$(( (200 * c * 2 + h + c) / (2 * (h + c)) ))
  [ "$hf" = "$want" ] && ok || bad "skew $skew: $hf hot files, expected $want"
  rm -rf sa sb
done

# ---- random placement: the documented shuffle of the -z seed ----------------
run --tree=za,zb,zc --files=50 --assign=random -z7 -d0 -W0 -t1
[ $rc = 0 ] && [ "$($check layout za,zb,zc 50 random 7 0 2)" = ok ] && ok || bad "random -z7 placement: $($check layout za,zb,zc 50 random 7 0 2)"
[ "$(ls za | grep -c dat) $(ls zb | grep -c dat) $(ls zc | grep -c dat)" = "17 17 16" ] && ok || bad "random: counts per directory"
[ "$($check layout za,zb,zc 50 random 8 0 2)" != ok ] && ok || bad "the seed makes no difference"
expect3 "-z (with --assign=random) is 7 there, 8" --tree=za,zb,zc --files=50 --assign=random -z8 -d0 -W0

# ---- re-use and different layouts --------------------------------------------
mtimes ea eb >before.txt
run --tree=ea,eb --files=40 -d1 -W0 -t2 -w0 -Rjson
[ $rc = 0 ] && grep -q "re-using the tree" err && ok || bad "re-use: exit $rc"
grep -q "creat" err && bad "re-use printed creation progress" || ok
[ "$(json "d['file_tree']['created'], d['file_tree']['metadata']['create']['latency']")" = "False None" ] && ok || bad "re-use: created/create count"
mtimes ea eb >after.txt
cmp -s before.txt after.txt && ok || bad "re-use changed mtimes or sizes"
expect3 "--files is 40 there, 50 in this run" --tree=ea,eb --files=50 -d0 -W0
expect3 "--file-size is 4096 there, 8192" --tree=ea,eb --files=40 --file-size=8K -d0 -W0
expect3 "--depth is 0 there, 1" --tree=ea,eb --files=40 --depth=1 -d0 -W0
rm ea/f00000002.dat
expect3 "1 of its 40 files are missing" --tree=ea,eb --files=40 -d0 -W0
mtimes ea eb >after3.txt
[ "$(grep -vc f00000002 before.txt)" = "$(wc -l <after3.txt)" ] && ok || bad "a refused run changed the tree"
mkdir fx && echo x >fx/f00000000.dat
expect3 "has no .iospd-tree marker" --tree=fx --files=4 -d0 -W0
[ "$(cat fx/f00000000.dat)" = x ] && [ "$(ls fx | wc -l)" = 1 ] && ok || bad "an unmarked directory was touched"
echo file >plain
expect3 "exists and is not a directory" --tree=plain --files=4 -d0 -W0

# ---- append: old bytes unchanged, growth only --------------------------------
run --tree=ap --files=8 --file-size=8K -d0 -W0 -t1
# -Z: appended bytes are zeros, so an overwrite of the first 8 KiB shows.
run --tree=ap --files=8 --file-size=8K --append -w100 -Z -d1 -W0 -t2 -Rjson
[ $rc = 0 ] && ok || bad "append: exit $rc"
written=$(json "sum(x['write_bytes'] for th in d['timespans'][0]['threads'] for x in th['targets'])")
grown=0 badc=0
for f in ap/f*.dat; do
  s=$(stat -c %s "$f")
  [ $((s % 4096)) = 0 ] && [ "$s" -ge 8192 ] || badc=$((badc + 1))
  [ "$($check pattern "$f" - 8192)" = ok ] || badc=$((badc + 1))
  python3 -c "import sys; d=open('$f','rb').read()[8192:]; sys.exit(0 if d.count(0)==len(d) else 1)" || badc=$((badc + 1))
  grown=$((grown + s - 8192))
done
[ $badc = 0 ] && ok || bad "append: $badc files overwritten or misshapen"
[ "$grown" -ge "$written" ] && [ "$written" -gt 0 ] && ok || bad "append: grew $grown bytes, wrote $written"
expect3 "files are not 8192 bytes" --tree=ap --files=8 --file-size=8K -d0 -W0
run --tree=ap --files=8 --file-size=8K --append -d0 -W0 -t1
[ $rc = 0 ] && ok || bad "append: a grown tree is re-used with --append"

# ---- Ctrl-C: while creating (what was made goes, exit 1), while running -----
"$exe" --tree=ci --files=300000 -d1 -W0 -t1 >out 2>err &
pid=$!
for _ in $(seq 50); do [ -e ci/f00000100.dat ] && break; sleep 0.1; done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 1 ] && grep -q "interrupted while creating the tree" err && [ ! -e ci ] && ok || bad "Ctrl-C while creating: rc=$rc, ci left: $(ls ci 2>/dev/null | wc -l)"
"$exe" --tree=oa,ob,oc,od --files=10 --assign=ordered -d30 -W0 -t2 -Rjson >out 2>err &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
[ $rc = 0 ] && [ "$(json "d['timespans'][0]['test_time_seconds'] < 10 and d['file_tree']['hot_ios'] > 0")" = True ] && ok || bad "Ctrl-C while running: rc=$rc"

# ---- --merge: the classes merge, file_tree (one run's) is left out ---------
run --tree=oa,ob,oc,od --files=10 --assign=ordered -d1 -W0 -t2 -Rjson
cp out m1.json
run --tree=oa,ob,oc,od --files=10 --assign=ordered -d1 -W0 -t2 -Rjson
cp out m2.json
run --merge m1.json m2.json
v=$(python3 -c "
import json
a, b, m = [json.load(open(f)) for f in ('m1.json', 'm2.json', 'out')]
t = lambda d, k: sum(x['ios'] for th in d['timespans'][0]['threads'] for x in th['targets'] if x['target_index'] == k)
print('file_tree' not in m and t(m, 0) == t(a, 0) + t(b, 0) and t(m, 1) == t(a, 1) + t(b, 1))")
[ $rc = 0 ] && [ "$v" = True ] && ok || bad "--merge of tree runs: $v"

# ---- XML report ------------------------------------------------------------
run --tree=oa,ob,oc,od --files=10 --assign=ordered -d1 -W0 -t2 -Rxml
[ $rc = 0 ] && xmllint --noout out 2>/dev/null && grep -q "<FileTree>" out &&
  grep -q '<Metadata Operation="rename">' out && ok || bad "XML report"
run --tree=oa,ob,oc,od --files=10 --assign=ordered -d1 -W0 -t2
grep -q "^Metadata latency (ms)" out && grep -q "^   open |" out && grep -q "hot I/Os:" out && ok || bad "text report"

# ---- the XML profile: written, valid against the schema, read back ---------
run --tree=pa,pb --files=50 --skew=3:1 --assign=random --relocate=5 --depth=1 --width=3 --append --cleanup -w20 -t4 -Rpxml
cp out p.xml
[ $rc = 0 ] && xmllint --noout --schema "$here/../../xml/profile.xsd" p.xml 2>/dev/null && ok || bad "-Rpxml not valid against xml/profile.xsd"
grep -q "<Assign>random</Assign>" p.xml && grep -q "<Width>3</Width>" p.xml && ok || bad "-Rpxml lacks the tree"
run -Xp.xml -Rptext
tail -n +3 out >x.txt
run --tree=pa,pb --files=50 --skew=3:1 --assign=random --relocate=5 --depth=1 --width=3 --append --cleanup -w20 -t4 -Rp
tail -n +3 out >c.txt
[ -s c.txt ] && cmp -s x.txt c.txt && ok || bad "-X of the written profile prints another profile"
grep -q "relocate: 5 renames per second" c.txt && ok || bad "-Rp: relocate"
[ ! -e pa ] && ok || bad "-Rp/-X created something"
sed 's#<Assign>random</Assign>#<Assign>spread</Assign>#' p.xml >bad1.xml
expect3 "<Assign> must be even, ordered or random" -Xbad1.xml -Rp
sed 's#<Directories>pa,pb</Directories>##' p.xml >bad2.xml
expect3 "<Tree> needs a <Directories> element" -Xbad2.xml -Rp
sed 's#<RequestCount>1</RequestCount>#<RequestCount>65</RequestCount>#' p.xml >bad3.xml
expect3 "-o65 is more than 64" -Xbad3.xml

# ---- cleanup of a deeper tree ------------------------------------------------
run --tree=cd1 --files=12 --depth=2 --width=3 --cleanup -d0 -W0 -t1
[ $rc = 0 ] && [ ! -e cd1 ] && ok || bad "cleanup of a depth-2 tree"

finish tree_test

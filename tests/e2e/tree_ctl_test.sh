#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The --tree mode on the one controller (iospd/workload.h): the switches
# the controller hosts now act on a tree run, each asserted by its effect:
# -v (the controller's verbose lines), -P (dots counted against the I/Os),
# -ys (the event is set: a waiting iospd -yr starts), --progress=always
# (the status line is drawn), --timeseries (rows with numbers that add up
# to the report), -g<n>i (at most 10 % over rate x threads x time, also
# with -o4), the issue's command with all of them at once,
# -i/-j (bursts and pauses bound the count) and -o4 (more files open at
# once, more issuers, one thread of depth 4 in the report).
# Usage: tree_ctl_test.sh <iospd binary>
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
run() { "$exe" "$@" >out 2>err; rc=$?; }
json() { python3 -c "import json,sys; d=json.load(open('out')); print($1)"; }
ios_total="sum(x['ios'] for th in d['timespans'][0]['threads'] for x in th['targets'])"

# ---- -v and -P: verbose lines and one dot per 10 completions ---------------
run --tree=D --files=20 -d1 -W0 -t1 -g500i -v -P10 -Rjson
[ $rc = 0 ] && ok || bad "-v -P: exit $rc: $(head -3 err)"
grep -q "starting measurements..." out err && grep -q "measurements finished" out err && ok || bad "-v: no controller lines"
# The dots: the runs of them, on stdout before the report.
dots=$(cat out err | grep -oE '\.{10,}' | tr -cd '.' | wc -c)
n=$(python3 -c "
import json
t=open('out').read(); d=json.loads(t[t.index('{'):])
print($ios_total)")
# Every completion of every phase counts for -P: the measured ones and the
# few of the stop.
[ -n "$n" ] && [ "$dots" -ge $((n / 10)) ] && [ "$dots" -le $((n / 10 + 5)) ] && ok || bad "-P10: $dots dots for $n measured I/Os"

# ---- --timeseries: rows with numbers adding up to the report ----------------
run --tree=D --files=20 -d2 -W0 -t2 --timeseries=t.csv -Rjson
[ $rc = 0 ] && ok || bad "--timeseries: exit $rc: $(head -3 err)"
rows=$(python3 - <<'PY'
import csv
r=[x for x in csv.DictReader(open('t.csv')) if x['phase']=='measuring' and x['target']=='total']
print(len(r), sum(int(x['total_ios']) for x in r))
PY
)
want=$(json "$ios_total")
[ "${rows% *}" = 2 ] && [ "${rows#* }" = "$want" ] && [ "$want" -gt 0 ] && ok || bad "--timeseries: rows/ios '$rows', report $want"

# ---- -g<n>i: 300 IOPS a thread, 2 threads, 2 s -------------------------------
run --tree=D --files=20 -d2 -W0 -t2 -g300i -Rjson
n=$(json "$ios_total")
b=$(json "sum(x['bytes'] for th in d['timespans'][0]['threads'] for x in th['targets'])")
# A limit: at most 10 % over; under it only by what a starved thread on
# a loaded machine could not catch up (the meter is cumulative).
[ $rc = 0 ] && [ "$n" -ge 900 ] && [ "$n" -le 1320 ] && [ "$b" = $((n * 4096)) ] && ok || bad "-g300i -t2 -d2: $n I/Os ($b bytes), want 1200, at most 10 % over"

# -g is the thread's with -o4 too: its four slots share the rate.
run --tree=D --files=20 -d2 -W0 -t2 -o4 -g300i -Rjson
n=$(json "$ios_total")
[ $rc = 0 ] && [ "$n" -ge 900 ] && [ "$n" -le 1320 ] && ok || bad "-g300i -t2 -o4 -d2: $n I/Os, want 1200, at most 10 % over"

# ---- all of them at once (the issue's command) -------------------------------
ev2="iospd_tree_ctl_all_$$"
"$exe" -c64K -d1 -W0 -yr"$ev2" f2.dat >w2.out 2>w2.err &
w2=$!
sleep 0.5
run --tree=D --files=20 -d2 -W0 -t2 -v -P10 -ys"$ev2" --progress=always --timeseries=all.csv -o4 -g1000i -Rjson
t=$(python3 -c "
import json
t=open('out').read(); d=json.loads(t[t.index('{'):]); ts=d['timespans'][0]
print(sum(x['bytes'] for th in ts['threads'] for x in th['targets']), ts['thread_count'], *[th['io_engine_depth'] for th in ts['threads']])")
b=${t%% *}
# 1000 I/Os of 4 KiB a second, 2 threads, 2 s: 16384000 bytes, at most
# 10 % over.
[ $rc = 0 ] && [ "$b" -ge 12288000 ] && [ "$b" -le 18022400 ] && [ "${t#* }" = "2 4 4" ] && ok || bad "all: exit $rc, bytes/threads/depths $t"
grep -q "starting measurements..." out err && grep -q "measuring | " err && [ "$(grep -c ',measuring,' all.csv)" -ge 6 ] && ok || bad "all: verbose, status or series missing"
[ "$(cat out err | grep -oE '\.{10,}' | tr -cd '.' | wc -c)" -gt 300 ] && ok || bad "all: too few -P dots"
for _ in $(seq 50); do kill -0 $w2 2>/dev/null || break; sleep 0.2; done
if kill -0 $w2 2>/dev/null; then kill $w2; bad "all: -ys not set"; else wait $w2 && ok || bad "all: waiter failed"; fi

# ---- -i/-j: 5 I/Os, then 100 ms of pause, one thread, 2 s -------------------
run --tree=D --files=20 -d2 -W0 -t1 -i5 -j100 -Rjson
n=$(json "$ios_total")
# The pauses bound the count from above; a loaded machine's late wake-ups
# only lengthen them.
[ $rc = 0 ] && [ "$n" -ge 40 ] && [ "$n" -le 110 ] && ok || bad "-i5 -j100: $n I/Os, want at most 110 (100 planned)"

# ---- --progress=always: the status line is drawn ----------------------------
run --tree=D --files=20 -d2 -W0 -t1 --progress=always
[ $rc = 0 ] && grep -q "measuring | " err && grep -q "left" err && ok || bad "--progress=always: no status line: $(head -c 300 err)"

# ---- -ys: a waiting iospd (-yr on the same event) starts when the tree's
# measuring starts -------------------------------------------------------------
ev="iospd_tree_ctl_$$"
"$exe" -c64K -d1 -W0 -yr"$ev" f.dat >w.out 2>w.err &
waiter=$!
sleep 1
kill -0 $waiter 2>/dev/null && ok || bad "-yr waiter did not wait"
run --tree=D --files=20 -d1 -W0 -t1 -ys"$ev"
[ $rc = 0 ] && ok || bad "-ys: exit $rc: $(head -3 err)"
for _ in $(seq 50); do kill -0 $waiter 2>/dev/null || break; sleep 0.2; done
if kill -0 $waiter 2>/dev/null; then
  kill $waiter; bad "-ys: the event was not set (the waiter still waits)"
else
  wait $waiter; wrc=$?
  [ $wrc = 0 ] && grep -Eq "^total: +[1-9]" w.out && ok || bad "-ys: the waiter ran with exit $wrc"
fi

# ---- -o4: four files in flight per thread ---------------------------------
# Each slot of a thread is a synchronous issuer with its own open files
# (docs/tree.md): seen from outside, the process holds more tree files open
# at once and has three more threads than with -o1; the report keeps one
# thread with depth 4.
# peak <pid>: the most tree files open at once, and the thread count.
peak() {
  local most=0 tasks=0 n i
  for i in $(seq 40); do
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
    n=$(ls -l /proc/$1/fd 2>/dev/null | grep -c "/O/f0")
    [ "$n" -gt "$most" ] && most=$n
    n=$(ls /proc/$1/task 2>/dev/null | wc -l)
    [ "$n" -gt "$tasks" ] && tasks=$n
  done
  echo "$most $tasks"
}
"$exe" --tree=O --files=64 -d3 -W0 -t1 -o1 >o1.out 2>o1.err &
p1=$!
sleep 0.5
got1=$(peak $p1)
wait $p1; r1=$?
"$exe" --tree=O --files=64 -d3 -W0 -t1 -o4 -Rjson >o4.out 2>o4.err &
p4=$!
sleep 0.5
got4=$(peak $p4)
wait $p4; r4=$?
f1=${got1% *} t1=${got1#* } f4=${got4% *} t4=${got4#* }
[ $r1 = 0 ] && [ $r4 = 0 ] && [ "$f1" -le 16 ] && [ "$f4" -gt 16 ] && ok || bad "-o4: $f4 files open at once (-o1: $f1), exits $r1 $r4"
[ $((t4 - t1)) = 3 ] && ok || bad "-o4: $t4 threads, -o1 $t1 (want 3 more)"
cp o4.out out
[ "$(json "d['timespans'][0]['thread_count'], [t['io_engine_depth'] for t in d['timespans'][0]['threads']]")" = "1 [4]" ] && ok || bad "-o4: report $(json "d['timespans'][0]['thread_count']")"

# ---- -yr and -yp: a tree run waits for its start event and ends on its
# stop event (the controller's -y handling; issue #26) -------------------------
evr="iospd_tree_ctl_r_$$"
"$exe" --tree=Y --files=20 -d1 -W0 -t1 -yr"$evr" -Rjson >yr.out 2>yr.err &
yr=$!
sleep 1.5
# Still waiting: no report yet.
kill -0 $yr 2>/dev/null && [ ! -s yr.out ] && ok || bad "-yr: the tree run did not wait for its event"
"$exe" -ye"$evr" >/dev/null 2>&1
for _ in $(seq 50); do kill -0 $yr 2>/dev/null || break; sleep 0.2; done
if kill -0 $yr 2>/dev/null; then kill $yr; bad "-yr: the tree run did not start once the event was set"
else
  wait $yr; yrc=$?
  cp yr.out out
  [ $yrc = 0 ] && [ "$(json "$ios_total")" -gt 0 ] && ok || bad "-yr: exit $yrc, ios $(json "$ios_total" 2>&1)"
fi
evp="iospd_tree_ctl_p_$$"
start=$(date +%s)
"$exe" --tree=Y --files=20 -d60 -W0 -t1 -yp"$evp" -Rjson >yp.out 2>yp.err &
yp=$!
sleep 2
"$exe" -ye"$evp" >/dev/null 2>&1
for _ in $(seq 75); do kill -0 $yp 2>/dev/null || break; sleep 0.2; done
if kill -0 $yp 2>/dev/null; then kill $yp; bad "-yp: the tree run of 60 s did not end on its stop event"
else
  wait $yp; ypc=$?
  cp yp.out out
  secs=$(json "d['timespans'][0]['duration_s'] if 'duration_s' in d['timespans'][0] else d['timespans'][0].get('seconds', -1)")
  [ $(( $(date +%s) - start )) -lt 30 ] && [ "$(json "$ios_total")" -gt 0 ] && ok || bad "-yp: exit $ypc after $(( $(date +%s) - start )) s, seconds $secs"
fi

# ---- what has no meaning for a tree is refused, naming the switch --------
for sw in "-fs:-fs, -fr and -ft" "-fr:-fs, -fr and -ft" "-l:-l (a tree" "-I1:-I (the tree" \
  "--compress=50:--compress and --dedupe" "--dedupe=20:--compress and --dedupe" \
  "--engine=psync:--engine (the tree" "-o65:-o65 is more than 64"; do
  run --tree=R "${sw%%:*}" -d1 -W0
  [ $rc = 3 ] && grep -qF -- "${sw#*:}" err && [ ! -e R ] && ok || bad "${sw%%:*} should be refused (exit $rc: $(head -c 200 err))"
done

finish tree_ctl_test

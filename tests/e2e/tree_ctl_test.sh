#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The --tree mode on the one controller (iospd/workload.h): the switches
# the controller hosts now act on a tree run, each asserted by its effect:
# -v (the controller's verbose lines), -P (dots counted against the I/Os),
# -ys (the event is set: a waiting iospd -yr starts), --progress=always
# (the status line is drawn), --timeseries (rows with numbers that add up
# to the report), -g<n>i (the total within 10 % of rate x threads x time)
# and -i/-j (bursts and pauses bound the count).
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
[ $rc = 0 ] && [ "$n" -ge 1080 ] && [ "$n" -le 1320 ] && [ "$b" = $((n * 4096)) ] && ok || bad "-g300i -t2 -d2: $n I/Os ($b bytes), want 1200 +-10 %"

# ---- -i/-j: 5 I/Os, then 100 ms of pause, one thread, 2 s -------------------
run --tree=D --files=20 -d2 -W0 -t1 -i5 -j100 -Rjson
n=$(json "$ios_total")
[ $rc = 0 ] && [ "$n" -ge 80 ] && [ "$n" -le 110 ] && ok || bad "-i5 -j100: $n I/Os, want about 100"

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

finish tree_ctl_test

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Report files never land where nobody asked (issue #30), end to end on
# Linux (the Windows side is in test_outfile under wine):
#  - --output and --timeseries naming a symbolic link: exit 3 before any
#    I/O, the message names what the link points to, the file it points to
#    keeps its bytes and the link stays a link;
#  - --output=json:/dev/stdout with stdout in a file: /dev/stdout is still
#    a symbolic link afterwards, the file holds the text report then the
#    JSON;
#  - --verify-state=<the target>: exit 3, the target keeps its bytes;
#  - an output that is the -X profile: exit 3, the profile keeps its bytes;
#  - an --output=json that fills its disk part-way: exit 1, the old report
#    kept, no temporary file left (root: a 1 MiB tmpfs);
#  - a third Ctrl-C while the --output JSON is being written: iospd ends
#    with SIGINT, the old report is kept and no temporary file is left.
# Usage: output_safety_test.sh <iospd binary>
set -uo pipefail
exe=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-outsafe.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; [ -s "$work/err" ] && sed 's/^/  stderr: /' "$work/err" | head -5; }
sum() { sha256sum "$1" | cut -d' ' -f1; }
cd "$work" || exit 1
head -c 65536 /dev/urandom >t.dat
printf 'precious\n' >victim.txt
v0=$(sum victim.txt)

# ---- links as report or series files ----------------------------------------
for opt in --output=json:l.json --output=text:l.json --timeseries=l.csv; do
  rm -f l.json l.csv
  name=${opt##*[:=]}
  ln -s "$work/victim.txt" "$name"
  "$exe" -d1 -W0 "$opt" t.dat >out.txt 2>err
  rc=$?
  if [ $rc = 3 ] && grep -qF "symbolic link to '$work/victim.txt'" err &&
     [ "$(sum victim.txt)" = "$v0" ] && [ -L "$name" ] && [ ! -s out.txt ]; then ok; else
    bad "$opt through a link: exit $rc, victim $( [ "$(sum victim.txt)" = "$v0" ] && echo kept || echo CHANGED)"
  fi
  rm -f "$name"
done

# ---- /dev/stdout with stdout in a file --------------------------------------
"$exe" -d1 -W0 --output=json:/dev/stdout t.dat >both.txt 2>err
rc=$?
if [ $rc = 0 ] && [ -L /dev/stdout ] && head -1 both.txt | grep -q '^$\|Command Line' &&
   python3 -c '
import json, sys
t = open(sys.argv[1]).read()
i = t.index("{\n")
assert "Command Line:" in t[:i]
json.loads(t[i:])' both.txt; then ok; else
  bad "--output=json:/dev/stdout: exit $rc, /dev/stdout $( [ -L /dev/stdout ] && echo 'still a link' || echo REPLACED)"
fi
# Put the system's link back should a regression have replaced it.
if [ ! -L /dev/stdout ] && [ -f /dev/stdout ] && [ -w /dev ]; then
  rm -f /dev/stdout && ln -s /proc/self/fd/1 /dev/stdout
fi

# ---- a state file that is the target ----------------------------------------
t0=$(sum t.dat)
"$exe" -d1 -W0 -w50 --verify --verify-state=t.dat t.dat >out.txt 2>err
rc=$?
if [ $rc = 3 ] && grep -qF "is the target 't.dat'" err && [ "$(sum t.dat)" = "$t0" ]; then ok; else
  bad "--verify-state=<target>: exit $rc, target $( [ "$(sum t.dat)" = "$t0" ] && echo kept || echo CHANGED)"
fi

# ---- an output that is the -X profile ---------------------------------------
"$exe" -d1 -W0 -Rpxml t.dat >prof.xml 2>/dev/null
p0=$(sum prof.xml)
"$exe" -Xprof.xml --output=xml:prof.xml >out.txt 2>err
rc=$?
if [ $rc = 3 ] && grep -qF "prof.xml" err && [ "$(sum prof.xml)" = "$p0" ]; then ok; else
  bad "--output over the -X profile: exit $rc, profile $( [ "$(sum prof.xml)" = "$p0" ] && echo kept || echo CHANGED)"
fi

# ---- a report that does not fit on its disk ----------------------------------
# The JSON is written in pieces (issue #30: memory bounded by the run, not a
# copy of the document), so the disk fills part-way through: exit 1, the
# old report keeps its bytes, no temporary file is left beside it, and the
# text report still reaches stdout. Needs root to mount a 1 MiB tmpfs.
if [ "$(id -u)" != 0 ]; then
  echo "skip: a report on a full disk: mounting a tmpfs needs root"
elif ! mkdir -p "$work/mnt" || ! mount -t tmpfs -o size=1M tmpfs "$work/mnt" 2>mount.err; then
  echo "skip: a report on a full disk: cannot mount a tmpfs: $(cat mount.err)"
else
  mnt="$work/mnt"
  printf 'old report\n' >"$mnt/r.json"
  r0=$(sum "$mnt/r.json")
  # -D1 for 2 s: thousands of interval objects, several MB of JSON.
  "$exe" -d2 -W0 -D1 -t2 -L --output=json:"$mnt/r.json" t.dat >out.txt 2>err
  rc=$?
  left=$(find "$mnt" -name 'r.json.*' | wc -l)
  if [ $rc = 1 ] && grep -qF -- "--output=json:$mnt/r.json: the report was not written" err &&
     grep -qiF "no space left on device" err && [ "$(sum "$mnt/r.json")" = "$r0" ] &&
     [ "$left" = 0 ] && grep -q "Command Line:" out.txt; then ok; else
    bad "--output=json on a full disk: exit $rc, old report $( [ "$(sum "$mnt/r.json")" = "$r0" ] && echo kept || echo CHANGED), $left temporary files left"
  fi
  umount "$mnt"
fi

# ---- a third Ctrl-C while a report is written ------------------------------
# The first Ctrl-C stops the I/O of a long -D1 run, whose JSON (tens of MB of
# intervals) takes a while to write; as soon as its temporary file appears,
# two more. The old report stays and nothing is left beside it.
printf 'old report\n' >big.json
b0=$(sum big.json)
"$exe" -d60 -W0 -D1 -t4 -o4 -L --output=json:big.json t.dat >out.txt 2>err &
pid=$!
sleep 6
kill -INT $pid
seen=0
for _ in $(seq 1 1500); do
  if compgen -G 'big.json.*.tmp' >/dev/null; then seen=1; break; fi
  kill -0 $pid 2>/dev/null || break
  sleep 0.01
done
if [ $seen = 1 ]; then
  kill -INT $pid; sleep 0.05; kill -INT $pid
  wait $pid; rc=$?
  left=$(compgen -G 'big.json.*.tmp' | wc -l)
  if [ $rc = 130 ] && [ "$(sum big.json)" = "$b0" ] && [ "$left" = 0 ]; then ok; else
    bad "third Ctrl-C while writing: exit $rc (want 130), old report $( [ "$(sum big.json)" = "$b0" ] && echo kept || echo CHANGED), $left temporary files left"
  fi
else
  wait $pid
  echo "skip: the JSON was written before a second Ctrl-C could reach it (machine too fast for this check)"
fi

echo "output_safety_test: $pass passed, $fail failed"
[ $fail = 0 ]

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
#  - an output that is the -X profile: exit 3, the profile keeps its bytes.
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

echo "output_safety_test: $pass passed, $fail failed"
[ $fail = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iospd.exe under wine (issue 11): the PE image (large-address-aware x86,
# the longPathAware manifest), long relative ".." targets created and run,
# one file written in two letter cases created once, a missing volume
# reported with its Win32 error number, -t1000 on the x86 build, and a -X
# profile, a --verify state file, an --output, --ping's temporary file and a
# --tree at a 600-character path (one converter, iospd_win_path).
# Usage: win_names_test.sh <iospd.exe> <objdump>
set -uo pipefail
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
objdump=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-names.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
run() { wine "$exe" "$@" >out 2>err; rc=$?; sed -i 's/\r$//' out err; }

# --- the image ---------------------------------------------------------------
pe=$("$objdump" -p "$exe")
if grep -q 'Magic.*(PE32)$' <<<"$pe"; then
  x86=1
  grep -q 'large address aware' <<<"$pe" && ok ||
    bad "the x86 iospd.exe is not large-address-aware (link with --large-address-aware)"
else
  x86=0
fi
# The manifest: resource type 24 (RT_MANIFEST), id 1, with longPathAware.
rsrc=$(sed -n '/The .rsrc Resource Directory section/,/^$/p' <<<"$pe")
if grep -q 'Entry: ID: 0x000018' <<<"$rsrc" && grep -q 'Entry: ID: 0x000001' <<<"$rsrc"; then ok
else bad "no RT_MANIFEST resource 1 in iospd.exe"; fi
grep -aq '<ws2:longPathAware>true</ws2:longPathAware>' "$exe" && ok ||
  bad "the manifest does not declare longPathAware"
grep -aq 'requestedExecutionLevel level="asInvoker"' "$exe" && ok ||
  bad "the manifest does not ask for asInvoker"

# --- a 600-character relative target with "..", parents created by -c ------
dirs=""
for i in $(seq -w 0 11); do dirs+="d${i}$(printf '%047d' 0)\\"; done
target="up\\..\\deep\\${dirs}f.dat"
run -c64K -b4K -d1 -W0 -C0 -Sh "$target"
[ "$rc" = 0 ] && ok || { bad "long relative target: exit $rc"; head -3 err; }
made="deep/$(tr '\\' '/' <<<"$dirs")f.dat"
[ "$(stat -c %s "$made" 2>/dev/null)" = 65536 ] && ok ||
  bad "long relative target: $made is not a 64 KiB file"
[ ! -e up ] && ok || bad "'up\\..' left a folder 'up' behind"
grep -q "total:" out && ok || bad "long relative target: no results"

# --- every other file iospd opens at a long path (issue #24: one converter)
# The folder made above is 600+ characters deep: a -X profile read from it,
# a --verify state file kept in it, --ping's temporary file made (and
# removed) in it, an --output written into it and a --tree made in it.
deepdir="deep\\${dirs%\\}"
deepunix="deep/$(tr '\\' '/' <<<"${dirs%\\}")"
cat >"$deepunix/p.xml" <<'XML'
<Profile><TimeSpans><TimeSpan><Duration>1</Duration><Warmup>0</Warmup><Cooldown>0</Cooldown>
<Targets><Target><Path>x.dat</Path><BlockSize>4096</BlockSize><FileSize>65536</FileSize>
<RequestCount>1</RequestCount></Target></Targets></TimeSpan></TimeSpans></Profile>
XML
run -X"$deepdir\\p.xml"
[ "$rc" = 0 ] && ok || { bad "-X from a long path: exit $rc"; head -3 err; }
grep -q "x.dat" out && ok || bad "-X from a long path: the profile's target is not in the report"
run -c64K -b4K -w50 -d1 -W0 -C0 --verify --verify-state="$deepdir\\v.state" \
  "--output=json:$deepdir\\r.json" v.dat
[ "$rc" = 0 ] && ok || { bad "--verify-state and --output at a long path: exit $rc"; head -3 err; }
[ -s "$deepunix/v.state" ] && ok || bad "no --verify state file at the long path"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["timespans"][0]["targets"]' \
  "$deepunix/r.json" 2>/dev/null && ok || bad "--output at a long path: no JSON with targets"
run --ping=3 --interval=0 -b4K "$deepdir"
[ "$rc" = 0 ] && ok || { bad "--ping in a long folder: exit $rc"; head -3 err; }
[ "$(grep -c 'request=' out)" = 3 ] && ok || bad "--ping in a long folder: $(grep -c 'request=' out) requests, want 3"
left=$(find "$deepunix" -maxdepth 1 -name 'ipg*.tmp' | wc -l)
[ "$left" = 0 ] && ok || bad "--ping left $left temporary files in the long folder"
run "--tree=$deepdir\\t" --files=8 --file-size=8K -b4K -d1 -W0 -C0
[ "$rc" = 0 ] && ok || { bad "--tree in a long folder: exit $rc"; head -3 err; }
[ "$(find "$deepunix/t" -type f -name '*.dat' 2>/dev/null | wc -l)" -ge 8 ] && ok ||
  bad "--tree in a long folder: the files were not made"

# --- one file, two spellings: created once, both run -------------------------
wdir=$(wine cmd /c cd 2>/dev/null | tr -d '\r')
lower="${wdir}\\case.dat"
upper="$(tr 'a-z' 'A-Z' <<<"${wdir:0:1}")${wdir:1}\\CASE.DAT"
run -v -c64K -b4K -d1 -W0 -C0 "$lower" "$upper"
[ "$rc" = 0 ] && ok || { bad "two spellings: exit $rc"; head -3 err; }
n=$(grep -c "Creating file '" out err | awk -F: '{s+=$2} END {print s}')
[ "$n" = 1 ] && ok || bad "two spellings of one file: created $n times, want once"
[ "$(stat -c %s case.dat 2>/dev/null)" = 65536 ] && ok || bad "case.dat is not 64 KiB"

# --- a volume that does not exist: the Win32 number, no -c advice -------------
run -d1 -W0 -C0 Q:
[ "$rc" = 1 ] && ok || bad "missing volume: exit $rc, want 1"
grep -Eq "^iospd: error: .*'Q:'.*no such disk or volume \(error [0-9]+\)" err && ok ||
  bad "missing volume: '$(head -1 err)' lacks the Win32 error number"
grep -q -- "-c<size>" err && bad "missing volume: advises -c" || ok

# --- x86: 1000 threads fit the address space ----------------------------------
if [ $x86 = 1 ]; then
  run -c1M -t1000 -o1 -b4K -d1 -W0 -C0 -Sh many.dat
  [ "$rc" = 0 ] && ok || { bad "-t1000 on x86: exit $rc"; tail -2 err; }
  # One line per thread in each of the three tables.
  n=$(grep -cE '^ +[0-9]+ \|' out)
  [ "$n" = 3000 ] && ok || bad "-t1000 on x86: $n thread lines, want 3000"
else
  echo "skip: -t1000 address-space check is for the x86 (PE32) build only"
fi

echo "win_names_test: $pass passed, $fail failed"
[ $fail = 0 ]

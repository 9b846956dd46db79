#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iospd --ping end to end with the binary (tests/e2e/ping_check.py reads
# the outputs):
#  - a file: --ping=N and --count=N make N lines in ioping's shape (the
#    first marked warmup), the summary counts N-1, and its min/avg/max
#    are the ones of the printed times;
#  - a directory: the temporary file is made there and gone afterwards
#    (reads, and --write);
#  - -d2 stops after two seconds; --quiet prints the summary only; --batch
#    one line whose ten numbers agree with each other;
#  - -Rjson: stdout validates against schema/iospd-ping.schema.json, the
#    request lines go to stderr and the summary's min/max/count are theirs;
#    -Rxml is well-formed;
#  - Ctrl-C (SIGINT, native only): the summary, exit 0, the temporary file
#    gone; SIGTERM too (-Rjson says "interrupted");
#  - bad input exits 3 (a missing path, COUNT not a number, a working set
#    larger than the file, -w50, a write to a device without
#    --allow-raw-write on a loop device when we may make one);
#  - failures exit 1: a folder where no file can be made (/proc), and a
#    file cut to nothing while probed (the failed request's line, then the
#    summary of the requests before it).
# With --wine the Windows build runs (lines, summary, the temporary file
# removed, JSON, exit codes); SIGINT and devices are native only.
# Usage: ping_test.sh <iospd binary> <source dir> [--wine]
set -u
exe=$1
src=$2
wine=0
[ "${3:-}" = "--wine" ] && wine=1
. "$src/tests/e2e/lib.sh"
run() { run_exe "$@"; }
check="$src/tests/e2e/ping_check.py"
work=$(mktemp -d)
loopdev=""
cleanup() {
  [ -n "$loopdev" ] && losetup -d "$loopdev" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
# Windows' stdout turns LF into CR LF; the checks read LF lines.
unix() { tr -d '\r'; }
# wait_lines <file> <n>: waits (up to 30 s) until <file> holds n request
# lines, so the signal tests do not depend on how fast the machine starts
# a process.
wait_lines() {
  local i
  for i in $(seq 300); do
    [ "$(grep -c 'request=' "$1" 2>/dev/null)" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 1
}

head -c 1048576 /dev/urandom >f.dat
mkdir dir

# ---- a file: the lines and the summary ------------------------------------
run --ping=5 --interval=0 f.dat >out.txt 2>err.txt
rc=$?
unix <out.txt >o.txt
if [ $rc = 0 ] && python3 "$check" text o.txt f.dat 5 read >chk.txt 2>&1; then ok; else
  bad "--ping=5 f.dat (rc $rc): $(cat chk.txt err.txt; head -12 o.txt)"
fi
run --ping --count=3 --interval=1ms -b8K -s f.dat >out.txt 2>err.txt
rc=$?
unix <out.txt >o.txt
if [ $rc = 0 ] && python3 "$check" text o.txt f.dat 3 read 8 >chk.txt 2>&1; then ok; else
  bad "--count=3 -b8K -s f.dat (rc $rc): $(cat chk.txt err.txt; head -8 o.txt)"
fi

# ---- a directory: the temporary file comes and goes -----------------------
run --ping=3 --interval=0 dir >out.txt 2>err.txt
rc=$?
unix <out.txt >o.txt
if [ $rc = 0 ] && python3 "$check" text o.txt dir 3 read >chk.txt 2>&1; then ok; else
  bad "--ping=3 dir (rc $rc): $(cat chk.txt err.txt; head -8 o.txt)"
fi
if [ -z "$(ls -A dir)" ]; then ok; else bad "left in dir after --ping: $(ls -A dir)"; fi
run --ping=3 --interval=0 --write --working-set=64K dir >out.txt 2>err.txt
rc=$?
unix <out.txt >o.txt
if [ $rc = 0 ] && python3 "$check" text o.txt dir 3 write >chk.txt 2>&1; then ok; else
  bad "--ping=3 --write dir (rc $rc): $(cat chk.txt err.txt; head -8 o.txt)"
fi
if [ -z "$(ls -A dir)" ]; then ok; else bad "left in dir after --ping --write: $(ls -A dir)"; fi

# ---- -d, --quiet, --batch -------------------------------------------------
run --ping --interval=500ms -d2 --batch dir >out.txt 2>err.txt
rc=$?
unix <out.txt >o.txt
if [ $rc = 0 ] && python3 "$check" batch o.txt 4096 d2 >chk.txt 2>&1; then ok; else
  bad "--ping -d2 --batch (rc $rc): $(cat chk.txt err.txt o.txt)"
fi
# --interval: from one request's start to the next's, so four requests
# with 200 ms take three pauses (at least 600 ms).
run --ping=4 --interval=200ms --batch f.dat >out.txt 2>err.txt
rc=$?
unix <out.txt >o.txt
if [ $rc = 0 ] && python3 "$check" batch o.txt 4096 n4:w600-1500 >chk.txt 2>&1; then ok; else
  bad "--interval=200ms (rc $rc): $(cat chk.txt err.txt o.txt)"
fi
run --ping=4 --interval=0 --quiet f.dat >out.txt 2>err.txt
rc=$?
unix <out.txt >o.txt
if [ $rc = 0 ] && ! grep -q 'request=' o.txt &&
   grep -q '^3 requests completed in ' o.txt &&
   grep -q '^generated 4 requests in ' o.txt &&
   [ "$(grep -c . o.txt)" = 4 ]; then ok; else
  bad "--quiet (rc $rc): $(cat o.txt err.txt)"
fi
run --ping=6 --interval=0 --batch f.dat >out.txt 2>err.txt
rc=$?
unix <out.txt >o.txt
if [ $rc = 0 ] && python3 "$check" batch o.txt 4096 n6 >chk.txt 2>&1; then ok; else
  bad "--batch (rc $rc): $(cat chk.txt err.txt o.txt)"
fi

# ---- -Rjson and -Rxml -----------------------------------------------------
run --ping=5 --interval=0 -L -Rjson f.dat >out.txt 2>err.txt
rc=$?
unix <out.txt >o.json
unix <err.txt >e.txt
if [ $rc = 0 ] && python3 "$check" json o.json e.txt "$src/schema/iospd-ping.schema.json" 5 >chk.txt 2>&1; then ok; else
  bad "-Rjson (rc $rc): $(cat chk.txt; head -c 600 o.json; cat e.txt)"
fi
run --ping=3 --interval=0 -Rxml dir >out.txt 2>err.txt
rc=$?
unix <out.txt >o.xml
if [ $rc = 0 ] && xmllint --noout o.xml 2>chk.txt &&
   grep -q '<Counted>2</Counted>' o.xml && grep -q '<Kind>directory</Kind>' o.xml &&
   [ "$(grep -c 'request=' err.txt)" = 3 ] && [ -z "$(ls -A dir)" ]; then ok; else
  bad "-Rxml (rc $rc): $(cat chk.txt o.xml err.txt)"
fi

# ---- bad input: exit 3 ----------------------------------------------------
expect3() {
  local want=$1
  shift
  run "$@" >out.txt 2>err.txt
  local rc=$?
  if [ $rc = 3 ] && grep -q -- "$want" err.txt && [ ! -s out.txt ]; then ok; else
    bad "iospd $* (rc $rc, want 3 and '$want'): $(cat err.txt out.txt)"
  fi
}
expect3 "does not exist" --ping=1 no-such-file
expect3 "'--ping=abc': the count must be a whole number" --ping=abc f.dat
expect3 "larger than 'f.dat'" --ping=1 --working-set=2M f.dat
expect3 "'-w50': --ping makes one kind of request" --ping=1 -w50 f.dat
expect3 "is a mode and must be the first argument" -b4K --ping f.dat

if [ $wine = 1 ]; then
  finish ping_test_wine
  exit
fi

# ---- failures: exit 1, with the summary of what was measured ------------
# A folder where no file can be made (/proc): the set-up fails.
run --ping=2 --interval=0 /proc >out.txt 2>err.txt
rc=$?
if [ $rc = 1 ] && grep -q "cannot create a temporary file in '/proc'" err.txt; then ok; else
  bad "--ping /proc (rc $rc, want 1): $(cat err.txt out.txt)"
fi
# A file cut to nothing while it is probed: the next read gets no bytes.
head -c 1048576 /dev/urandom >shrink.dat
"$exe" --ping --interval=100ms shrink.dat >out.txt 2>err.txt &
pid=$!
wait_lines out.txt 4
: >shrink.dat
wait $pid
rc=$?
n=$(grep -c 'time=' out.txt)
if [ $rc = 1 ] && [ "$n" -ge 3 ] &&
   grep -q "request=$((n + 1)) failed: fewer bytes than asked" out.txt &&
   grep -q "^$((n - 1)) requests completed in " out.txt &&
   grep -q "^iospd: error: request $((n + 1)) (read of 4096 bytes at offset [0-9]*) failed" err.txt; then ok; else
  bad "a file cut while probed (rc $rc, want 1; $n lines): $(cat out.txt err.txt)"
fi

# ---- Ctrl-C (SIGINT) -------------------------------------------------------
"$exe" --ping --interval=100ms dir >out.txt 2>err.txt &
pid=$!
wait_lines out.txt 6
kill -INT $pid
wait $pid
rc=$?
n=$(grep -c 'request=' out.txt)
if [ $rc = 0 ] && [ "$n" -ge 5 ] &&
   grep -q "^$((n - 1)) requests completed in " out.txt &&
   grep -q "^generated $n requests in " out.txt &&
   grep -q '^min/avg/max/mdev = ' out.txt && [ -z "$(ls -A dir)" ]; then ok; else
  bad "SIGINT (rc $rc, $n lines): $(cat out.txt err.txt; ls -A dir)"
fi
# SIGTERM (a service manager's stop) ends it the same way.
"$exe" --ping --interval=100ms -Rjson dir >out.txt 2>err.txt &
pid=$!
wait_lines err.txt 4
kill -TERM $pid
wait $pid
rc=$?
n=$(grep -c 'request=' err.txt)
if [ $rc = 0 ] && [ "$n" -ge 3 ] && [ -z "$(ls -A dir)" ] &&
   python3 -c 'import json,sys; d=json.load(open("out.txt")); sys.exit(not (d["interrupted"] and d["summary"]["requests"]=='"$n"'))'; then ok; else
  bad "SIGTERM (rc $rc, $n lines): $(cat out.txt err.txt; ls -A dir)"
fi

# ---- the cache mode the file is really opened with ------------------------
# Unbuffered by default (O_DIRECT among the open file's flags), not with
# --cached; read from /proc/PID/fdinfo while the probe waits.
direct_flag() { # <pid> <file>: prints 1 if that open file has O_DIRECT, 0 if not
  python3 - "$1" "$2" <<'PY'
import os, sys
pid, name = sys.argv[1], os.path.realpath(sys.argv[2])
for fd in os.listdir("/proc/%s/fd" % pid):
    try:
        if os.readlink("/proc/%s/fd/%s" % (pid, fd)) != name:
            continue
    except OSError:
        continue
    for line in open("/proc/%s/fdinfo/%s" % (pid, fd)):
        if line.startswith("flags:"):
            print(1 if int(line.split()[1], 8) & os.O_DIRECT else 0)
            sys.exit(0)
print("none")
PY
}
for mode in default --cached; do
  if [ $mode = default ]; then args=(); want=1; else args=(--cached); want=0; fi
  "$exe" --ping --interval=1s "${args[@]}" f.dat >out.txt 2>err.txt &
  pid=$!
  wait_lines out.txt 1 # opened: the first request was made
  got=$(direct_flag $pid f.dat)
  kill -INT $pid
  wait $pid
  rc=$?
  if [ $rc = 0 ] && [ "$got" = $want ]; then ok; else
    bad "--ping $mode: O_DIRECT on the open file is '$got', want $want (rc $rc): $(cat err.txt)"
  fi
done

# ---- devices: reads only unless --allow-raw-write --------------------------
# /dev/null is no block device: the probe refuses it before any I/O.
expect3 "neither a regular file nor a block device" --ping=1 --write /dev/null
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null &&
   head -c 1048576 /dev/zero >img && printf 'keep' | dd of=img conv=notrunc status=none &&
   loopdev=$(losetup -f --show img 2>/dev/null) && [ -b "$loopdev" ]; then
  before=$(md5sum <img)
  expect3 "pass --allow-raw-write\|unless --allow-raw-write" --ping=2 --interval=0 --write "$loopdev"
  run --ping=3 --interval=0 "$loopdev" >out.txt 2>err.txt
  rc=$?
  if [ $rc = 0 ] && grep -q "^4 KiB <<< $loopdev (device 1 MiB): request=3 " out.txt; then ok; else
    bad "--ping a loop device (rc $rc): $(cat out.txt err.txt)"
  fi
  if [ "$(md5sum <img)" = "$before" ]; then ok; else bad "the loop device's data changed"; fi
  run --ping=2 --interval=0 --write --allow-raw-write "$loopdev" >out.txt 2>err.txt
  rc=$?
  if [ $rc = 0 ] && grep -q "^4 KiB >>> $loopdev (device 1 MiB): request=2 " out.txt; then ok; else
    bad "--write --allow-raw-write on a loop device (rc $rc): $(cat out.txt err.txt)"
  fi
else
  echo "note: not root or no loop device could be made; the device write refusal is checked on /dev/null only"
fi

finish ping_test

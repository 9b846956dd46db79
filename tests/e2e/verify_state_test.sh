#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of the --verify state file's safety (docs/verify.md,
# "The state file: what iospd refuses, and why"), with real files and real
# runs of the binary:
#  - a file that is not a state file (--verify-state=FILE naming another
#    file, the target itself, a planted <target>.iospd-verify symbolic link)
#    is refused with exit 3 and left byte for byte as it was, -w0 or not;
#    no temporary file is left behind;
#  - target paths of 511 and over 512 bytes: the state file is
#    <target>.iospd-verify in full, the target's bytes are intact;
#  - two concurrent --verify runs on one file through a symbolic link or a
#    hard link: the second is refused (exit 3), the first finds no failure;
#    a symbolic link shares the file's state file;
#  - a tampered block_count (2^61, 2^64-1) is a clear exit 3, not SIGBUS;
#    a state file on a full file system (tmpfs size=, root only) fails with
#    exit 1 before any I/O; a state file truncated during a run fails the
#    run with exit 1 and a message, not SIGBUS (exit 135);
#  - each kind of damaged state file (wrong magic, unknown version,
#    truncated, empty) is named exactly and left as it was; an empty one
#    under the default name is made anew with a NOTE.
# With --wine: iospd.exe under wine, all but what Windows cannot meet or
# wine does not show as Windows would: a Unix symbolic link is no reparse
# point to wine, a tmpfs and a truncation by a Unix process are not
# Windows's (a mapped section keeps Windows processes from shrinking it).
# Usage: verify_state_test.sh <iospd binary> <source dir> [--wine]
set -u
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift 2
wine=0
for a in "$@"; do
  case "$a" in --wine) wine=1 ;; esac
done
export WINEDEBUG=${WINEDEBUG:--all}
if ! command -v python3 >/dev/null; then
  echo "skip: python3 is needed to edit state files"
  exit 77
fi
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # ok, bad, finish, run_exe
work=$(mktemp -d "$PWD/verify_state_test.XXXXXX") || exit 1
bgpid=""
mnt=""
cleanup() {
  [ -n "$bgpid" ] && kill -9 "$bgpid" 2>/dev/null
  [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
  cd /
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
bad_detail() { echo "--- stdout"; tail -5 out.txt 2>/dev/null; echo "--- stderr"; head -20 err.txt 2>/dev/null; }

# run <expected exit> <args...>: runs iospd, output in out.txt / err.txt.
run() {
  local want=$1
  shift
  run_exe "$@" >out.txt 2>err.txt </dev/null
  local rc=$?
  if [ "$rc" = "$want" ]; then ok; else bad "iospd $* exited $rc, expected $want"; fi
}
# has <fixed string> <what>: err.txt holds the string.
has() { if grep -qF -- "$1" err.txt; then ok; else bad "$2: no '$1'"; fi; }
sum() { sha256sum "$1" | cut -d' ' -f1; }
# same <file> <sum> <what>: the file's bytes are still those.
same() { if [ -e "$1" ] && [ "$(sum "$1")" = "$2" ]; then ok; else bad "$3: '$1' changed"; fi; }
# mkdata <file> <MiB>: random bytes.
mkdata() { head -c $(($2 * 1048576)) /dev/urandom >"$1"; }
# poke <file> <offset> <format> <value>: writes a little-endian field.
poke() {
  python3 - "$@" <<'PY'
import struct, sys
path, off, fmt, val = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4], 0)
with open(path, "r+b") as f:
    f.seek(off)
    f.write(struct.pack("<" + fmt, val))
PY
}
no_tmp() {
  local left
  left=$(find . -name '*.tmp-*' | head -3)
  if [ -z "$left" ]; then ok; else bad "$1: temporary files left: $left"; fi
}
common=(-b4K -W0 -o2 -t1 -Sh -r)

# ---- 1. never damage a file that is not a state file -------------------
mkdata t.dat 4
printf 'precious text, not a state file\n%.0s' $(seq 200) >victim.txt
vsum=$(sum victim.txt)
tsum=$(sum t.dat)
for w in 0 100; do
  run 3 "${common[@]}" -w$w -d1 --verify --verify-state=victim.txt t.dat
  has "'victim.txt' is not an iospd verify state file (it does not start with IOSPDVS1), and iospd leaves it as it is: name another state file with --verify-state=FILE, or delete it if it is a damaged state file (its verification history goes with it)" "-w$w victim"
  same victim.txt "$vsum" "--verify-state=victim.txt -w$w"
done
run 3 "${common[@]}" -w0 -d1 --verify --verify-state=t.dat t.dat
same t.dat "$tsum" "--verify-state=<the target>"
if [ $wine = 0 ]; then
  ln -s victim.txt t.dat.iospd-verify
  run 3 "${common[@]}" -w100 -d1 --verify t.dat
  has "--verify state file 't.dat.iospd-verify': 't.dat.iospd-verify' is a symbolic link: iospd does not follow one to a state file (name the file itself)" "planted link"
  same victim.txt "$vsum" "planted <target>.iospd-verify link"
  same t.dat "$tsum" "target behind a refused state link"
  rm -f t.dat.iospd-verify
fi
no_tmp "refusals"

# A new state file appears complete under its name, made by the run.
run 0 "${common[@]}" -w100 -d1 --verify t.dat
magic=$(head -c 8 t.dat.iospd-verify 2>/dev/null)
[ "$magic" = IOSPDVS1 ] && ok || bad "new state file has no magic: '$magic'"
want=$((4096 + 1024 * 8))
[ "$(stat -c %s t.dat.iospd-verify)" = $want ] && ok || bad "state size not $want"
no_tmp "a created state"

# ---- 2. long target paths ------------------------------------------------
for total in 511 600; do
  d=$(printf 'd%.0s' $(seq 200))/$(printf 'e%.0s' $(seq 200))
  mkdir -p "$d"
  name=$(printf 'f%.0s' $(seq $((total - ${#d} - 1))))
  long="$d/$name"
  [ ${#long} = $total ] || bad "test setup: path of ${#long} bytes, not $total"
  mkdata "$long" 1
  lsum=$(sum "$long")
  run 0 "${common[@]}" -w0 -d1 --verify "$long"
  same "$long" "$lsum" "a $total-byte target path"
  [ "$(head -c 8 "$long.iospd-verify" 2>/dev/null)" = IOSPDVS1 ] && ok ||
    bad "no state file '<the $total-byte path>.iospd-verify'"
  n=$(find "$d" -type f | wc -l)
  [ "$n" = 2 ] && ok || bad "$total-byte path: $n files in its folder, not 2"
  rm -rf "$(dirname "$d")"
done

# ---- 3. one run per file, whatever its name -------------------------------
# concurrent <name of the second spelling>: a run on f.dat, then one on the
# other name while the first holds it.
concurrent() {
  local other=$1
  rm -f f.dat.iospd-verify "$other.iospd-verify"
  run_exe "${common[@]}" -w100 -d4 --verify f.dat >bg.txt 2>bgerr.txt </dev/null &
  bgpid=$!
  for _ in $(seq 100); do [ -e f.dat.iospd-verify ] && break; sleep 0.05; done
  sleep 0.3
  run 3 "${common[@]}" -w100 -d1 --verify "$other"
  has "--verify: target '$other' is being verified by another iospd run (under this name or through a link to the same file), or this run names the file twice through links: wait for it to end, or name the file once; two runs on one file would each count the other's writes as failures" "second run through $other"
  wait "$bgpid"
  local rc=$?
  bgpid=""
  [ $rc = 0 ] && ok || { bad "first run (beside $other) exited $rc"; cat bgerr.txt; }
  if grep -qi "misdirected" bgerr.txt || grep -E "misdirected [1-9]" bg.txt >/dev/null; then
    bad "misdirected failures beside $other"
  else ok; fi
  run 0 -b4K --verify-only f.dat
  grep -q "failures 0 " out.txt && ok || bad "--verify-only after the runs beside $other"
}
mkdata f.dat 8
ln f.dat hard.dat
concurrent hard.dat
# One run that names the file twice, through a hard link.
fsum=$(sum f.dat)
run 3 "${common[@]}" -w100 -d1 --verify f.dat hard.dat
has "--verify: target 'hard.dat' is being verified by another iospd run (under this name or through a link to the same file), or this run names the file twice through links" "f.dat and hard.dat in one run"
same f.dat "$fsum" "a run refused for naming a file twice"
if [ $wine = 0 ]; then
  ln -s f.dat sym.dat
  concurrent sym.dat
  [ -e sym.dat.iospd-verify ] && bad "a state file for the symbolic link's name" || ok
  # A symbolic link, alone, uses the file's own state.
  rm -f sym.dat.iospd-verify
  run 0 "${common[@]}" -w100 -d1 --verify sym.dat
  [ ! -e sym.dat.iospd-verify ] && [ -e f.dat.iospd-verify ] && ok ||
    bad "a run on the symbolic link did not use f.dat.iospd-verify"
  run 0 -b4K --verify-only sym.dat
  grep -q "failures 0 " out.txt && ok || bad "--verify-only through the link"
fi

# ---- 4. no SIGBUS --------------------------------------------------------
cp t.dat.iospd-verify good.state
for count in 2305843009213693952 0xffffffffffffffff; do
  cp good.state t.dat.iospd-verify
  poke t.dat.iospd-verify 16 Q $count
  ssum=$(sum t.dat.iospd-verify)
  dec=$(python3 -c "print($count)")
  for mode in --verify-only --verify; do
    if [ $mode = --verify ]; then
      run 3 "${common[@]}" -w100 -d1 --verify t.dat
    else
      run 3 -b4K --verify-only t.dat
    fi
    has "verify state file 't.dat.iospd-verify' is damaged: its header says $dec blocks of 4096 bytes, which no target has; delete it to start afresh (its verification history is lost)" "$mode, block_count $count"
  done
  same t.dat.iospd-verify "$ssum" "state with block_count $count"
done
cp good.state t.dat.iospd-verify

if [ $wine = 1 ]; then
  echo "skip under wine: a full tmpfs and a truncation by a Unix process"
elif [ "$(id -u)" = 0 ] && mkdir tiny && mount -t tmpfs -o size=64k tmpfs tiny 2>/dev/null; then
  mnt=$PWD/tiny
  mkdata big.dat 64
  bsum=$(sum big.dat)
  run 1 "${common[@]}" -w100 -d1 --verify --verify-state=tiny/s.state big.dat
  has "--verify state file 'tiny/s.state': the file system of 'tiny/s.state' has no room for its 135168 bytes: free space there, or put the state file elsewhere with --verify-state=FILE" "full file system"
  same big.dat "$bsum" "target of a run whose state had no room"
  left=$(ls -A tiny)
  [ -z "$left" ] && ok || bad "full file system: left '$left'"
  umount tiny && mnt=""
else
  echo "skip: the full file system case needs root and a tmpfs mount"
fi

# Truncated by another process during the run.
if [ $wine = 0 ]; then
  rm -f t.dat.iospd-verify
  run_exe "${common[@]}" -w100 -d3 --verify t.dat >bg.txt 2>bgerr.txt &
  bgpid=$!
  for _ in $(seq 100); do [ -e t.dat.iospd-verify ] && break; sleep 0.05; done
  sleep 1
  truncate -s 0 t.dat.iospd-verify
  wait "$bgpid"
  rc=$?
  bgpid=""
  [ $rc = 1 ] && ok || bad "run whose state was truncated exited $rc, not 1"
  grep -qF "error: --verify state file 't.dat.iospd-verify': part of it could not be reached during the run (another process truncated it, or its storage failed): what this run recorded in it is lost, so the blocks it wrote cannot be checked; delete the state file and run again" bgerr.txt && ok ||
    { bad "no message for the truncated state"; cat bgerr.txt; }
fi

# ---- 5. damaged state files are named, never re-made ----------------------
# damaged <what> <expected message>: a --verify and a --verify-only run are
# refused with the message; the file stays as it was.
damaged() {
  local ssum
  ssum=$(sum t.dat.iospd-verify)
  run 3 "${common[@]}" -w100 -d1 --verify t.dat
  has "$2" "--verify, $1"
  run 3 -b4K --verify-only t.dat
  has "$2" "--verify-only, $1"
  same t.dat.iospd-verify "$ssum" "$1 state"
}
cp good.state t.dat.iospd-verify
poke t.dat.iospd-verify 0 B 0x58
damaged "wrong magic" "'t.dat.iospd-verify' is not an iospd verify state file (it does not start with IOSPDVS1)"
cp good.state t.dat.iospd-verify
poke t.dat.iospd-verify 8 I 2
damaged "version 2" "verify state file 't.dat.iospd-verify' has version 2, but this iospd reads version 1: use the iospd that made it, or delete it to start afresh"
cp good.state t.dat.iospd-verify
truncate -s 8192 t.dat.iospd-verify
damaged "truncated words" "verify state file 't.dat.iospd-verify' is truncated: 8192 bytes where its header (1024 blocks) needs 12288; delete it to start afresh (its verification history is lost)"
cp good.state t.dat.iospd-verify
truncate -s 100 t.dat.iospd-verify
damaged "truncated header" "verify state file 't.dat.iospd-verify' is truncated: 100 bytes where its header needs 4096; delete it to start afresh (its verification history is lost)"
cp good.state t.dat.iospd-verify
truncate -s 16384 t.dat.iospd-verify
damaged "too long" "verify state file 't.dat.iospd-verify' is damaged: 16384 bytes where its header (1024 blocks) needs 12288; delete it to start afresh (its verification history is lost)"
# Empty: no history. Under the default name --verify makes it anew (NOTE);
# --verify-only has nothing to check; a named one is the user's file.
: >t.dat.iospd-verify
run 3 -b4K --verify-only t.dat
has "--verify-only: verify state file 't.dat.iospd-verify' for target 't.dat' is empty: no --verify run recorded anything in it, so there is nothing to check against" "--verify-only, empty state"
run 0 "${common[@]}" -w100 -d1 --verify t.dat
grep -qF "NOTE: --verify: the state file 't.dat.iospd-verify' was empty (no verification history in it), so it was made anew" out.txt err.txt && ok ||
  bad "no NOTE for the empty default state"
[ "$(head -c 8 t.dat.iospd-verify)" = IOSPDVS1 ] && ok || bad "empty state not made anew"
: >empty.state
run 3 "${common[@]}" -w100 -d1 --verify --verify-state=empty.state t.dat
has "'empty.state' is empty, not an iospd verify state file: iospd makes the state file itself; give --verify-state= a name that does not exist yet, or delete the empty file" "named empty state"
[ ! -s empty.state ] && ok || bad "named empty state file was written"
no_tmp "the end"

if [ $wine = 1 ]; then finish verify_state_test_wine; else finish verify_state_test; fi

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --tree never writes through a symbolic link planted where a file of the
# tree belongs (issue #30, docs/tree.md "Links"): a link found when the
# tree is looked at is refused (exit 3, nothing changed), a link planted
# while the run goes ends the run (exit 1) at the next open; either way the
# link's target keeps its bytes and its mtime, and the message names the
# link. Also --tree=D,./D/ (one directory given twice) is refused naming it.
# Usage: tree_safety_test.sh <iospd binary> [--wine]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
exe=$1
wine=0
[ "${2:-}" = "--wine" ] && wine=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

run() { run_exe "$@" >out 2>err; rc=$?; }
bad_detail() { echo "--- rc=$rc stderr:"; head -c 1500 err; echo "--- stdout:"; head -c 600 out; }
# the outside file's bytes and mtime (nanoseconds)
fingerprint() { echo "$(sha256sum < "$1") $(stat -c %y "$1")"; }
plant() { # plant <tree file> <target>: replaced at once (rename over it)
  ln -s "$2" "$1.new" && mv -f "$1.new" "$1"
}

# ---- a link found when the tree is looked at ---------------------------------
run --tree=t1 --files=8 -d0 -W0 -t1
[ $rc = 0 ] && ok || bad "creating t1: exit $rc"
head -c 4096 /dev/urandom > outside1      # the size of a tree file
touch -d '2001-02-03 04:05:06.123456789' outside1
before=$(fingerprint outside1)
plant t1/f00000003.dat "$work/outside1"
run --tree=t1 --files=8 -d1 -W0 -t2 -w100
[ $rc = 3 ] && ok || bad "a link in the tree: exit $rc, expected 3"
grep -q "error: --tree: 't1/f00000003.dat' is a symbolic link where a file of the tree belongs (1 such link): iospd does not follow links in a tree, it would write into the link's target. Nothing was changed; remove the link or use another directory" err \
  && ok || bad "a link in the tree: message"
[ "$(fingerprint outside1)" = "$before" ] && ok || bad "the link's target changed (prepare)"
[ -L t1/f00000003.dat ] && ok || bad "the link itself was removed or replaced"
# --cleanup of a refused tree removes nothing, the target stays
run --tree=t1 --files=8 -d1 -W0 -t1 -w100 --cleanup
[ $rc = 3 ] && [ "$(fingerprint outside1)" = "$before" ] && ok \
  || bad "--cleanup with a link: exit $rc or the target changed"

# a link where a fresh tree's file goes (nothing else there yet)
mkdir t2
head -c 4096 /dev/urandom > outside2
before2=$(fingerprint outside2)
ln -s "$work/outside2" t2/f00000001.dat
run --tree=t2 --files=4 -d1 -W0 -t1 -w100
[ $rc = 3 ] && ok || bad "a link in a fresh tree: exit $rc, expected 3"
grep -q "'t2/f00000001.dat' is a symbolic link where a file" err && ok \
  || bad "a link in a fresh tree: message"
[ "$(fingerprint outside2)" = "$before2" ] && ok || bad "the target changed (fresh)"
[ ! -e t2/f00000000.dat ] && ok || bad "a fresh tree with a link was created anyway"

# ---- a link planted while the run goes ---------------------------------------
# 64 files and one thread: a worker keeps 16 files open, so every file is
# opened again and again; the planted link is met within milliseconds.
run --tree=t3 --files=64 -d0 -W0 -t1
[ $rc = 0 ] && ok || bad "creating t3: exit $rc"
head -c 4096 /dev/urandom > outside3
touch -d '2001-02-03 04:05:06.5' outside3
before3=$(fingerprint outside3)
run_exe --tree=t3 --files=64 -d4 -W0 -t1 -w100 >out 2>err &
pid=$!
sleep 1.5
plant t3/f00000005.dat "$work/outside3"
wait $pid
rc=$?
[ $rc = 1 ] && ok || bad "a link planted during the run: exit $rc, expected 1"
grep -q "'t3/f00000005.dat' is a symbolic link where a file of the tree belongs: iospd does not follow links in a tree (it would read or write the link's target); the link and its target were left as they are" err \
  && ok || bad "a link planted during the run: message"
[ "$(fingerprint outside3)" = "$before3" ] && ok || bad "the target changed (during the run)"

# ---- one directory given twice -----------------------------------------------
run --tree=t4,./t4/ --files=4 -d0 -W0 -t1
[ $rc = 3 ] && ok || bad "--tree=t4,./t4/: exit $rc, expected 3"
grep -q "error: --tree: './t4' is the same directory as 't4' (given twice); give each directory once" err \
  && ok || bad "--tree=t4,./t4/: message"
[ ! -e t4 ] && ok || bad "--tree=t4,./t4/ made something"
mkdir t5
run --tree=t5,t5 --files=4 -d0 -W0 -t1
[ $rc = 3 ] && grep -q "'t5' is the same directory as 't5'" err && ok \
  || bad "--tree=t5,t5: exit $rc or message"
[ -z "$(ls -A t5)" ] && ok || bad "--tree=t5,t5 wrote into t5"

finish tree_safety

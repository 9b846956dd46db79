#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Targets on /proc, /sys and the other kernel pseudo file systems are
# refused with exit 3 before anything is read, written or created (issue
# #30, src/posix/pseudo_fs.c): -c2M /proc/self/mem, a write or a read of a
# /proc or /sys file, -c of a new name in /sys, a link to /proc/self/mem
# (told by the file system, not the spelling), --ping and --verify-only;
# a plain file next to them still runs. Linux only.
# Usage: pseudo_target_test.sh <iospd binary>
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
exe=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
run() { timeout 60 "$exe" "$@" >out 2>err; rc=$?; }
bad_detail() { echo "--- rc=$rc stderr:"; head -c 1200 err; }
# refused <path> <file system words> <args...>
refused() {
  local path=$1 where=$2
  shift 2
  run "$@"
  [ $rc = 3 ] && ok || bad "$*: exit $rc, expected 3"
  grep -q "'$path' is on $where, a kernel pseudo file system, not storage: iospd does not read, write or create files there. Give a file on a real file system or a block device" err \
    && ok || bad "$*: message"
}

refused /proc/self/mem "/proc (procfs)" -c2M -d1 -w100 /proc/self/mem
grep -q "^iospd: error: cannot create target '/proc/self/mem' of 2097152 bytes (-c): " err \
  && ok || bad "-c2M /proc/self/mem: the message does not name -c"
refused /proc/self/mem "/proc (procfs)" -d1 -w100 /proc/self/mem
refused /proc/self/status "/proc (procfs)" -d1 -b512 /proc/self/status
# A read-only sysfs file (0444: the kernel has no store for it), so that
# even a build without the check cannot change anything with this test.
f=/sys/kernel/uevent_seqnum
refused "$f" "/sys (sysfs)" -d1 -w100 -b512 "$f"
refused "$f" "/sys (sysfs)" -d1 -b512 "$f"
refused /sys/iospd-new "/sys (sysfs)" -c1M -d1 /sys/iospd-new
[ ! -e /sys/iospd-new ] && ok || bad "/sys/iospd-new was made"
ln -s /proc/self/mem link
refused link "/proc (procfs)" -c2M -d1 link
[ -L link ] && ok || bad "the link was replaced"
run --ping=2 /proc/self/mem
[ $rc = 3 ] && grep -q "'/proc/self/mem' is on /proc (procfs), a kernel pseudo" err \
  && ok || bad "--ping /proc/self/mem: exit $rc"
# a file beside them still runs
run -c64K -b4K -d1 -w100 plain.dat
[ $rc = 0 ] && [ "$(stat -c %s plain.dat)" = 65536 ] && ok || bad "a plain file: exit $rc"
finish pseudo_target

#!/bin/bash
# SPDX-License-Identifier: MIT
# End-to-end checks of -c under faults and of stop signals (issue #10):
# - a -c larger than the free space, or than a file may be (EFBIG), fails
#   with exit 1 and a message naming the file, the size and the free space;
#   an existing file keeps its size and content, a new one is not left, and
#   the file system's free space is what it was (a 16 MiB tmpfs and an ext4
#   image, both mounted here: root only, skipped with the reason otherwise);
# - Ctrl-C or SIGTERM during -c stops within a second, says what was left
#   and removes what iospd made; a kill -9 leaves only a temporary file that
#   the next -c removes;
# - SIGTERM during a run prints the results, as Ctrl-C does (exit 0);
# - a run on a sparse or fallocated file warns on stderr.
set -u
bin="$1"
fail=0
scratch=$(mktemp -d "${TMPDIR:-/tmp}/iospd-csafe.XXXXXX") || exit 1
mnt="$scratch/mnt"
children=()
# Something may hold a fresh mount for a moment: retry, then detach lazily.
unmount() {
  while mountpoint -q "$mnt"; do
    for _ in 1 2 3 4 5 6 7 8 9 10; do umount "$mnt" 2>/dev/null && break; sleep 0.2; done
    mountpoint -q "$mnt" && umount -l "$mnt"
  done
}
cleanup() {
  for p in "${children[@]}"; do kill -9 "$p" 2>/dev/null; done
  [ -d "$mnt" ] && unmount
  rm -rf "$scratch"
}
trap cleanup EXIT

ok() { echo "ok $1"; }
bad() { echo "FAIL $1: $2"; fail=1; }
# Bytes an unprivileged writer may still allocate (statvfs f_bavail * f_frsize).
avail() { echo $(( $(stat -f -c '%a' "$1") * $(stat -f -c '%S' "$1") )); }
state() { [ -e "$1" ] && echo "$(stat -c %s "$1") $(sha256sum < "$1" | cut -c1-64)" || echo none; }
temps() { find "$1" -maxdepth 1 -name '*.iospd-creating-*' | wc -l; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
has() { grep -qF -- "$2" "$1"; }

# check_unchanged NAME FILE DIR WANT_RC CMD...: runs CMD, then asserts its
# exit code, that FILE (size and sha256) and DIR's free space (left in
# $free0) did not change, and that no temporary file is left in DIR.
# Output in $scratch/out, $scratch/err.
check_unchanged() {
  local name="$1" file="$2" dir="$3" want="$4"; shift 4
  local before rc
  before=$(state "$file"); free0=$(avail "$dir")
  "$@" >"$scratch/out" 2>"$scratch/err"; rc=$?
  [ "$rc" = "$want" ] || bad "$name" "exit $rc, want $want; stderr: $(cat "$scratch/err")"
  [ "$(state "$file")" = "$before" ] || bad "$name" "'$file' changed: $before -> $(state "$file")"
  [ "$(avail "$dir")" = "$free0" ] || bad "$name" "free space $free0 -> $(avail "$dir")"
  [ "$(temps "$dir")" = 0 ] || bad "$name" "temporary file left: $(ls "$dir")"
}

# ---- full disks (root) ------------------------------------------------------
if [ "$(id -u)" != 0 ]; then
  echo "skip full-disk checks: mounting a small tmpfs and an ext4 image needs root"
elif ! mkdir "$mnt" || ! mount -t tmpfs -o size=16M iospd-csafe "$mnt"; then
  echo "skip full-disk checks: cannot mount a tmpfs on $mnt"
else
  # An existing 4 MiB file and -c32M: refused before anything is touched.
  head -c 4M /dev/urandom >"$mnt/old.dat"
  check_unchanged full-old "$mnt/old.dat" "$mnt" 1 "$bin" -c32M -d1 "$mnt/old.dat"
  want="error: cannot create target '$mnt/old.dat' of 33554432 bytes (-c): not enough free space: its file system has $free0 bytes (12MiB) available, plus 4194304 bytes (4MiB) that the existing file holds; the existing file was left as it was. Free some space there or give -c a smaller size"
  has "$scratch/err" "$want" && ok full-old || bad full-old "message: $(cat "$scratch/err")"
  # A new file: nothing is created.
  check_unchanged full-new "$mnt/new.dat" "$mnt" 1 "$bin" -c32M -d1 "$mnt/new.dat"
  has "$scratch/err" "of 33554432 bytes (-c): not enough free space: its file system has $free0 bytes (12MiB) available; nothing was created." \
    && ok full-new || bad full-new "message: $(cat "$scratch/err")"
  # EFBIG from the reservation (the file size limit; ext4's own limit for
  # -c100T on a large disk gives the same error): old file as it was.
  check_unchanged efbig "$mnt/old.dat" "$mnt" 1 \
    bash -c 'ulimit -f 6144; trap "" XFSZ; exec "$@"' _ "$bin" -c8M -d1 "$mnt/old.dat"
  has "$scratch/err" "of 8388608 bytes (-c): the space could not be reserved (File too large): the file system, or this process's file size limit (ulimit -f), does not allow a file that large; the existing file was left as it was." \
    && ok efbig || bad efbig "message: $(cat "$scratch/err")"
  # Old 8 MiB, 8 MiB free, -c12M: no room for a side copy, so the file is
  # overwritten in place (as DISKSPD does), after the reservation. A failed
  # reservation there still leaves the old file exactly as it was...
  rm -f "$mnt/old.dat"; head -c 8M /dev/urandom >"$mnt/old.dat"
  check_unchanged efbig-in-place "$mnt/old.dat" "$mnt" 1 \
    bash -c 'ulimit -f 10240; trap "" XFSZ; exec "$@"' _ "$bin" -c12M -d1 "$mnt/old.dat"
  has "$scratch/err" "NOTE: -c: not enough free space for a side copy of '$mnt/old.dat', so it is overwritten in place" &&
    has "$scratch/err" "the existing file was left as it was." \
    && ok efbig-in-place || bad efbig-in-place "stderr: $(cat "$scratch/err")"
  # ... and a successful one gives what -c always gave: 12 MiB of pattern.
  "$bin" -c12M -d1 -W0 -w0 "$mnt/old.dat" >"$scratch/out" 2>"$scratch/err"; rc=$?
  byte=$(od -An -tx1 -j 300 -N1 "$mnt/old.dat" | tr -d ' ')
  if [ "$rc" = 0 ] && [ "$(stat -c %s "$mnt/old.dat")" = 12582912 ] && [ "$byte" = 2c ] &&
     has "$scratch/out" "Total IO"; then ok in-place; else bad in-place "rc $rc, byte $byte"; fi
  unmount

  # ext4 (an image on a loop device): -c100T, and the never-written checks
  # on a file system with unwritten extents.
  if ! command -v mkfs.ext4 >/dev/null; then
    echo "skip ext4 checks: no mkfs.ext4 (apt-get install e2fsprogs)"
  elif ! truncate -s 64M "$scratch/ext4.img" || ! mkfs.ext4 -q -F "$scratch/ext4.img" ||
       ! mount -o loop "$scratch/ext4.img" "$mnt" 2>"$scratch/err"; then
    echo "skip ext4 checks: cannot mount an ext4 image: $(cat "$scratch/err")"
  else
    head -c 4M /dev/urandom >"$mnt/old.dat"
    check_unchanged ext4-100T "$mnt/old.dat" "$mnt" 1 "$bin" -c100T -d1 "$mnt/old.dat"
    has "$scratch/err" "cannot create target '$mnt/old.dat' of 109951162777600 bytes (-c): not enough free space: its file system has " \
      && ok ext4-100T || bad ext4-100T "message: $(cat "$scratch/err")"
    fallocate -l 8M "$mnt/falloc.dat"
    "$bin" -d1 -W0 -w0 "$mnt/falloc.dat" >"$scratch/out" 2>"$scratch/err"; rc=$?
    has "$scratch/err" "WARNING: target '$mnt/falloc.dat': 8388608 of its 8388608 bytes (100.0 %) were never written (unwritten extents, as fallocate, SetEndOfFile or an interrupted -c leave); reads there return zeros without touching the device" &&
      [ "$rc" = 0 ] && ok ext4-unwritten || bad ext4-unwritten "rc $rc, stderr: $(cat "$scratch/err")"
    # After -c the same file is clean.
    "$bin" -c8M -d1 -W0 -w0 "$mnt/falloc.dat" >"$scratch/out" 2>"$scratch/err"
    has "$scratch/err" "never written" && bad ext4-recreated "$(cat "$scratch/err")" || ok ext4-recreated
  fi
fi

# ---- sparse file, on the scratch file system ---------------------------------
truncate -s 8M "$scratch/sparse.dat"
if [ "$(stat -c %b "$scratch/sparse.dat")" != 0 ]; then
  echo "skip sparse: the scratch file system does not keep holes"
else
  "$bin" -d1 -W0 -w0 "$scratch/sparse.dat" >"$scratch/out" 2>"$scratch/err"; rc=$?
  has "$scratch/err" "WARNING: target '$scratch/sparse.dat': 8388608 of its 8388608 bytes (100.0 %) were never written (holes of a sparse file)" &&
    [ "$rc" = 0 ] && has "$scratch/out" "Total IO" && ok sparse || bad sparse "rc $rc, stderr: $(cat "$scratch/err")"
fi

# ---- stop signals --------------------------------------------------------------
# A -c big enough to still be writing after half a second.
free=$(avail "$scratch")
size=$((4 << 30))
[ "$free" -lt $((16 << 30)) ] && size=$((free / 4 / 1048576 * 1048576))
if [ "$size" -lt $((1 << 30)) ]; then
  echo "skip -c interrupts: only $free bytes free in $scratch"
else
  # interrupt_c NAME SIGNAL TARGET: starts -c on TARGET, sends SIGNAL while
  # it writes; sets $rc and $ms (signal to exit).
  interrupt_c() {
    local sig="$2" t="$3" pid t0
    "$bin" -c"$size" -d30 -W0 "$t" >"$scratch/out" 2>"$scratch/err" &
    pid=$!; children+=("$pid")
    # The temporary file appears once the signal handlers are in place.
    for _ in $(seq 400); do [ "$(temps "$scratch")" != 0 ] && break; sleep 0.05; done
    sleep 0.3
    t0=$(now_ms); kill -s "$sig" "$pid"; wait "$pid" 2>/dev/null; rc=$?; ms=$(( $(now_ms) - t0 ))
  }
  for sig in INT TERM; do
    rm -f "$scratch/big.dat"
    interrupt_c "c-$sig" "$sig" "$scratch/big.dat"
    if [ "$rc" = 0 ] && [ "$ms" -le 1000 ] && [ ! -e "$scratch/big.dat" ] && [ "$(temps "$scratch")" = 0 ] &&
       has "$scratch/err" "NOTE: creating '$scratch/big.dat' (-c) stopped: interrupted after " &&
       has "$scratch/err" " were written; the unfinished file was removed" &&
       has "$scratch/out" "The test was interrupted before the measurements began."; then
      ok "c-$sig ($ms ms)"
    else
      bad "c-$sig" "rc $rc, $ms ms, left: $(ls "$scratch"); stderr: $(cat "$scratch/err")"
    fi
  done
  # Over an existing file: it stays as it was.
  head -c 1M /dev/urandom >"$scratch/keep.dat"
  before=$(state "$scratch/keep.dat")
  interrupt_c c-old TERM "$scratch/keep.dat"
  if [ "$rc" = 0 ] && [ "$ms" -le 1000 ] && [ "$(state "$scratch/keep.dat")" = "$before" ] &&
     [ "$(temps "$scratch")" = 0 ] && has "$scratch/err" "the unfinished copy was removed, and the existing file is as it was"; then
    ok "c-old ($ms ms)"
  else
    bad c-old "rc $rc, $ms ms, $(state "$scratch/keep.dat") vs $before; stderr: $(cat "$scratch/err")"
  fi
  # kill -9 (as a crash): only a temporary file named for what it is stays,
  # and the next -c of the target removes it.
  rm -f "$scratch/big.dat"
  interrupt_c c-KILL KILL "$scratch/big.dat"
  left=$(find "$scratch" -maxdepth 1 -name 'big.dat.iospd-creating-*')
  "$bin" -c1M -d1 -W0 -w0 "$scratch/big.dat" >"$scratch/out" 2>"$scratch/err"
  if [ -n "$left" ] && [ ! -e "$left" ] && [ "$(temps "$scratch")" = 0 ] &&
     has "$scratch/err" "NOTE: -c: removed '$left', left by an interrupted -c of process"; then
    ok c-KILL
  else
    bad c-KILL "left '$left'; stderr: $(cat "$scratch/err")"
  fi
  rm -f "$scratch/big.dat"
fi

# SIGTERM during a run: the results so far, exit 0, as Ctrl-C gives.
"$bin" -c16M -d1 -W0 -w0 "$scratch/run.dat" >/dev/null 2>&1
"$bin" -v -d20 -W0 -w0 "$scratch/run.dat" >"$scratch/out" 2>"$scratch/err" &
pid=$!; children+=("$pid")
# -v says when measuring starts (and the handlers are long in place).
for _ in $(seq 400); do has "$scratch/out" "starting measurements" && break; sleep 0.05; done
sleep 0.5
t0=$(now_ms); kill -TERM "$pid"; wait "$pid" 2>/dev/null; rc=$?; ms=$(( $(now_ms) - t0 ))
if [ "$rc" = 0 ] && [ "$ms" -le 1000 ] && has "$scratch/out" "Total IO" &&
   has "$scratch/out" "*** Ctrl-C: stopping I/O; the results measured so far follow. ***"; then
  ok "run-TERM ($ms ms)"
else
  bad run-TERM "rc $rc, $ms ms, stdout $(wc -c <"$scratch/out") bytes; stderr: $(cat "$scratch/err")"
fi
exit $fail

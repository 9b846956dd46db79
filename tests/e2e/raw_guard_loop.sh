#!/bin/bash
# SPDX-License-Identifier: MIT
# End-to-end check of the raw-device write guard on a loop device: an md
# RAID super block (magic fc 4e 2b a9 at 4 KiB), unknown bytes, and a zeroed
# device. Needs root and losetup; skips (77) otherwise.
set -u
bin="$1"
if [ "$(id -u)" != 0 ]; then echo "skip: needs root for losetup"; exit 77; fi
if ! command -v losetup >/dev/null; then echo "skip: no losetup"; exit 77; fi
dir=$(mktemp -d) || exit 1
img="$dir/disk.img"
dev=""
cleanup() { [ -n "$dev" ] && losetup -d "$dev"; rm -rf "$dir"; }
trap cleanup EXIT
truncate -s 8M "$img" || exit 1
if ! dev=$(losetup -f --show "$img" 2>"$dir/err"); then
  dev=""
  echo "skip: losetup cannot attach a loop device: $(cat "$dir/err")"
  exit 77
fi
fail=0
check() { # name want-rc want-substring args...
  local name="$1" want="$2" sub="$3"; shift 3
  local out rc
  out=$("$bin" "$@" 2>&1); rc=$?
  if [ "$rc" != "$want" ] || ! grep -qF -- "$sub" <<<"$out"; then
    echo "FAIL $name: rc $rc (want $want), output:"; echo "$out"; fail=1
  else
    echo "ok $name"
  fi
}
md_sum() { dd if="$dev" bs=4096 skip=1 count=1 2>/dev/null | od -An -tx1 -N4 | tr -d ' \n'; }
# md RAID 1.2 super block magic at 4096.
printf '\xfc\x4e\x2b\xa9' | dd of="$dev" bs=1 seek=4096 conv=notrunc 2>/dev/null
sync
check md 1 "refusing to write to '$dev': it holds an md RAID member" \
  -w100 -b4K -d1 "$dev"
[ "$(md_sum)" = "fc4e2ba9" ] || { echo "FAIL: the md magic was overwritten"; fail=1; }
# Reading is always allowed.
check md-read 0 "Total IO" -w0 -b4K -d1 -Sh "$dev"
# Unknown bytes in the last MiB only.
dd if=/dev/zero of="$dev" bs=1M count=8 2>/dev/null
printf 'hello' | dd of="$dev" bs=1 seek=$((8 * 1024 * 1024 - 3000)) conv=notrunc 2>/dev/null
sync
check tail 1 "data of an unknown kind (the last megabyte is not all zeros)" \
  -w100 -b4K -d1 "$dev"
# All zeros but held exclusively (as a mount or md/dm/LVM holds it): the
# O_EXCL open fails with EBUSY.
dd if=/dev/zero of="$dev" bs=1M count=8 2>/dev/null
sync
if command -v python3 >/dev/null; then
  python3 -c 'import os,sys,time; os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL); print("held", flush=True); time.sleep(30)' "$dev" >"$dir/held" &
  holder=$!
  for _ in $(seq 50); do grep -q held "$dir/held" && break; sleep 0.1; done
  check busy 1 "it is in use by the system (mounted or part of a RAID/LVM)" \
    -w100 -b4K -d1 "$dev"
  kill "$holder"; wait "$holder" 2>/dev/null
else
  echo "skip busy: no python3 to hold the device"
fi
# All zeros: writing is allowed without --allow-raw-write.
check zero 0 "Total IO" -w100 -b4K -d1 -Sh "$dev"
exit $fail

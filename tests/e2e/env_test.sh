#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue #13: the Linux environment fingerprint (src/posix/envinfo.c, printed
# by tests/env_print) against what the system says through other tools:
# uname, getconf, lscpu, /proc/meminfo, os-release, findmnt, stat -f,
# lsblk and sysfs, for a file on the build's disk, /dev/shm (tmpfs) and a
# missing path; then, as root, a file system on a loop device, the raw loop
# device, a partition of one (resolved to the loop device) and a dm linear
# device over one (when device-mapper is there). Parts that need root, a
# tool or a kernel feature say why they are skipped.
# Usage: env_test.sh <env_print binary>
set -uo pipefail
. "$(dirname "$0")/lib.sh"
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d "$(dirname "$exe")/iospd-env.XXXXXX")
dev=""
mnt=""
dm=""
cleanup() {
  [ -n "$dm" ] && dmsetup remove "$dm" 2>/dev/null
  [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
  [ -n "$dev" ] && losetup -d "$dev"
  rm -rf "$work"
}
trap cleanup EXIT

out="$work/out"
val() { sed -n "s/^$1=//p" "$out" | head -n1; }
# eq <what> <got> <want>
eq() {
  if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}
# The scheduler in use, as queue/scheduler marks it.
active_sched() { sed -n 's/.*\[\(.*\)\].*/\1/p; t; s/^ *\([^ ]*\) *$/\1/p' "$1"; }
# Checks target t<N> against the sysfs directory of block device name.
check_queue() { # N name
  local q="/sys/block/$2/queue" want_qd
  eq "t$1 rotational" "$(val "t$1.rotational")" "$(cat "$q/rotational")"
  eq "t$1 scheduler" "$(val "t$1.scheduler")" "$(active_sched "$q/scheduler")"
  if [ -r "/sys/block/$2/device/queue_depth" ]; then
    want_qd=$(cat "/sys/block/$2/device/queue_depth")
  else
    want_qd=$(cat "$q/nr_requests")
  fi
  eq "t$1 queue depth" "$(val "t$1.queue_depth")" "$want_qd"
}

# ---- the machine ------------------------------------------------------------
echo data >"$work/file"
"$exe" "$work/file" /dev/shm "$work/missing" >"$out" || bad "env_print failed"
eq os_name "$(val os_name)" "$(uname -s)"
eq os_release "$(val os_release)" "$(uname -r)"
eq arch "$(val arch)" "$(uname -m)"
case "$(val os_version)" in
  *"$(uname -v)") ok ;;
  *) bad "os_version '$(val os_version)' does not end in uname -v" ;;
esac
if [ -r /etc/os-release ]; then
  pretty=$(. /etc/os-release && echo "${PRETTY_NAME:-}")
  case "$(val os_version)" in
    "$pretty; "*) ok ;;
    *) bad "os_version '$(val os_version)' does not start with '$pretty'" ;;
  esac
fi
eq logical_cpus "$(val logical_cpus)" "$(getconf _NPROCESSORS_ONLN)"
eq memory_bytes "$(val memory_bytes)" \
  "$(awk '/^MemTotal:/ {printf "%.0f", $2 * 1024}' /proc/meminfo)"
want_model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n1 |
  sed 's/[[:space:]]*$//')
if [ -n "$want_model" ]; then
  eq cpu_model "$(val cpu_model)" "$want_model"
else
  echo "note: /proc/cpuinfo names no model here; cpu_model='$(val cpu_model)'"
fi
if command -v lscpu >/dev/null; then
  eq sockets "$(val sockets)" \
    "$(lscpu -p=SOCKET | grep -v '^#' | sort -u | wc -l)"
  eq cores "$(val cores)" \
    "$(lscpu -p=SOCKET,CORE | grep -v '^#' | sort -u | wc -l)"
else
  echo "skip: sockets and cores: no lscpu (util-linux)"
fi
nodes=0
for n in /sys/devices/system/node/node[0-9]*; do
  [ -s "$n/cpulist" ] && [ -n "$(tr -d '\n' <"$n/cpulist")" ] && nodes=$((nodes + 1))
done
[ $nodes = 0 ] && nodes=1
eq numa_nodes "$(val numa_nodes)" $nodes
case "$(val build)" in
  "gcc "*|"clang "*) ok ;;
  *) bad "build '$(val build)' names no compiler" ;;
esac

# ---- a file on the build's disk ----------------------------------------------
eq "t1 fs_type" "$(val t1.fs_type)" "$(findmnt -n -o FSTYPE --target "$work/file")"
eq "t1 fs_block_bytes" "$(val t1.fs_block_bytes)" "$(stat -f -c %S "$work/file")"
src=$(findmnt -n -o SOURCE --target "$work/file")
if [ -b "$src" ] && command -v lsblk >/dev/null; then
  kind=$(lsblk -ndo TYPE "$src")
  disk=""
  case "$kind" in
    disk) disk=$(basename "$src") ;;
    part) disk=$(lsblk -ndo PKNAME "$src") ;;
    *) echo "note: the build's disk is a '$kind' device; its device is not compared" ;;
  esac
  if [ -n "$disk" ]; then
    eq "t1 device" "$(val t1.device)" "/dev/$disk"
    eq "t1 model" "$(val t1.model)" "$(lsblk -ndo MODEL "/dev/$disk" | sed 's/ *$//')"
    check_queue 1 "$disk"
    case "$(readlink -f "/sys/block/$disk")" in
      */virtio*/block/*) eq "t1 bus" "$(val t1.bus)" virtio ;;
      */nvme/*) eq "t1 bus" "$(val t1.bus)" NVMe ;;
      *) echo "note: t1 bus '$(val t1.bus)' not compared" ;;
    esac
  fi
else
  echo "note: the build's file system comes from '$src', not a block device"
fi

# ---- tmpfs and a missing path -------------------------------------------------
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
  eq "t2 fs_type" "$(val t2.fs_type)" tmpfs
  eq "t2 fs_block_bytes" "$(val t2.fs_block_bytes)" "$(stat -f -c %S /dev/shm)"
  eq "t2 device" "$(val t2.device)" ""
  eq "t2 bus" "$(val t2.bus)" ""
  eq "t2 rotational" "$(val t2.rotational)" -1
  eq "t2 queue depth" "$(val t2.queue_depth)" 0
else
  echo "skip: /dev/shm is not a tmpfs here"
fi
for f in fs_type fs_block_bytes device model bus scheduler queue_depth; do
  case "$(val t3.$f)" in ""|0) ok ;; *) bad "missing path: $f is '$(val t3.$f)'" ;; esac
done
eq "t3 rotational" "$(val t3.rotational)" -1

# ---- loop devices (root) ------------------------------------------------------
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null ||
   [ ! -e /dev/loop-control ]; then
  echo "skip: loop device checks need root and loop devices (losetup, /dev/loop-control)"
  finish env_test
  exit
fi
if ! command -v mkfs.ext4 >/dev/null; then
  echo "skip: loop device checks need mkfs.ext4 (apt-get install e2fsprogs)"
  finish env_test
  exit
fi
# A 64 MiB image with an MBR naming one partition from sector 2048 to the
# end, an ext4 file system inside it (1 KiB blocks: it is small).
img="$work/disk.img"
truncate -s 64M "$img"
printf '\x00\x00\x00\x00\x83\x00\x00\x00\x00\x08\x00\x00\x00\xf8\x01\x00' |
  dd of="$img" bs=1 seek=446 conv=notrunc 2>/dev/null
printf '\x55\xaa' | dd of="$img" bs=1 seek=510 conv=notrunc 2>/dev/null
if ! dev=$(losetup -f --show -P "$img" 2>"$work/lerr"); then
  dev=""
  echo "skip: losetup cannot attach a loop device: $(cat "$work/lerr")"
  finish env_test
  exit
fi
name=$(basename "$dev")
part="${dev}p1"
for _ in $(seq 20); do [ -b "$part" ] && break; sleep 0.1; done
if [ ! -b "$part" ]; then
  echo "skip: partition check: the kernel made no $part from the image's MBR" \
       "(a kernel without MBR support, CONFIG_MSDOS_PARTITION?); ext4 goes on $dev"
  part=""
fi
mkfs.ext4 -q -F "${part:-$dev}" >/dev/null 2>&1 || bad "mkfs.ext4 ${part:-$dev} failed"
mkdir "$work/mnt"
if mount "${part:-$dev}" "$work/mnt" 2>"$work/merr"; then
  mnt="$work/mnt"
  echo data >"$mnt/file"
else
  echo "skip: cannot mount ext4 from ${part:-$dev}: $(cat "$work/merr")"
fi
# t1 the raw device, t2 the file on it, t3 the partition when there is one.
"$exe" "$dev" ${mnt:+"$mnt/file"} $part >"$out" || bad "env_print failed"
targets=1
[ -n "$mnt" ] && targets="$targets 2"
[ -n "$part" ] && targets="$targets $((${mnt:+1} + 2))"
for n in $targets; do
  eq "t$n device" "$(val t$n.device)" "$dev"
  eq "t$n bus" "$(val t$n.bus)" loop
  eq "t$n backing file" "$(val t$n.backing_file)" "$(readlink -f "$img")"
  check_queue $n "$name"
done
eq "raw device fs_type" "$(val t1.fs_type)" ""
eq "raw device fs_block_bytes" "$(val t1.fs_block_bytes)" 0
if [ -n "$mnt" ]; then
  eq "t2 fs_type" "$(val t2.fs_type)" ext4
  eq "t2 fs_block_bytes" "$(val t2.fs_block_bytes)" "$(stat -f -c %S "$mnt/file")"
  # mke2fs.conf's "small" type: 1 KiB blocks below 512 MiB.
  if [ "$(val t2.fs_block_bytes)" = 1024 ]; then ok; else
    bad "a 64 MiB ext4 has 1 KiB blocks, got '$(val t2.fs_block_bytes)'"; fi
fi
# device-mapper over the one loop device: followed down to it.
if command -v dmsetup >/dev/null && dmsetup version >/dev/null 2>&1; then
  dm="iospd-env-$$"
  sectors=$(blockdev --getsz "$dev")
  if dmsetup create "$dm" --table "0 $sectors linear $dev 0" 2>"$work/derr"; then
    "$exe" "/dev/mapper/$dm" >"$out"
    eq "dm over one device" "$(val t1.device)" "$dev"
    eq "dm over one device: bus" "$(val t1.bus)" loop
  else
    echo "skip: dm check: dmsetup create failed: $(cat "$work/derr")"
    dm=""
  fi
else
  echo "skip: dm check: no device-mapper here (dmsetup version fails)"
fi
finish env_test

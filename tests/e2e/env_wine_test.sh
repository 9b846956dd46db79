#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue #13: the Windows environment fingerprint (src/win/envinfo.c, printed
# by tests/env_print.exe) under wine, against the Linux host: what wine can
# show. The machine: Windows, a release a.b.c, "Wine" in the version, the
# host's arch (x86_64 for the i686 build too, which says "under WoW64" in
# build), the host's online CPUs and CPU model, memory within 10% of
# MemTotal. Targets: a file on the prefix's C: (NTFS is what wine answers
# for its drive folders, whatever the Linux file system), the same file by
# a \\?\ path and one longer than MAX_PATH, a missing path (nothing), the
# raw-disk spellings #0, C: and \\.\PhysicalDrive0 (no file system; the
# device wine offers, if any), and a disk that does not exist (#99).
# Usage: env_wine_test.sh <env_print.exe> <wine>
set -uo pipefail
. "$(dirname "$0")/lib.sh"
exe="$1"
wine="${2:-wine}"
[ -n "${WINEPREFIX:-}" ] || { echo "skipped: WINEPREFIX is not set"; exit 77; }
[ -d "$WINEPREFIX/drive_c" ] || { echo "skipped: no wine prefix at $WINEPREFIX"; exit 77; }
work=$(mktemp -d "$WINEPREFIX/drive_c/iospd-env.XXXXXX")
trap 'rm -rf "$work"' EXIT
wdir="C:\\$(basename "$work")"
echo data >"$work/file"
# A path of more than 260 characters: 5 folders of 60.
long="$work"
wlong="$wdir"
seg=$(printf 'd%.0s' $(seq 60))
for i in 1 2 3 4 5; do long="$long/$seg$i"; wlong="$wlong\\$seg$i"; done
mkdir -p "$long" && echo data >"$long/file"
wlong="$wlong\\file"
[ ${#wlong} -gt 260 ] && ok || bad "the long path is only ${#wlong} characters"

out="$work/out"
# wine's own diagnostics go to stderr; only stdout is parsed.
"$wine" "$exe" "$wdir\\file" "\\\\?\\$wdir\\file" "$wlong" "$wdir\\missing" \
  '#0' 'C:' '\\.\PhysicalDrive0' '#99' >"$out" 2>"$work/err" </dev/null ||
  { bad "env_print.exe failed: $(head -3 "$work/err")"; finish env_wine_test; exit 1; }
tr -d '\r' <"$out" >"$out.unix" && mv "$out.unix" "$out"
val() { sed -n "s/^$1=//p" "$out" | head -n1; }
eq() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }

eq os_name "$(val os_name)" Windows
if [[ "$(val os_release)" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then ok; else
  bad "os_release '$(val os_release)' is not major.minor.build"; fi
case "$(val os_version)" in
  *"Wine "*) ok ;;
  *) bad "os_version '$(val os_version)' does not say Wine" ;;
esac
case "$(val os_version)" in
  *"build $(val os_release | cut -d. -f3)"*) ok ;;
  *) bad "os_version '$(val os_version)' names another build than os_release" ;;
esac
host_arch=$(uname -m)
eq arch "$(val arch)" "$host_arch"
eq logical_cpus "$(val logical_cpus)" "$(getconf _NPROCESSORS_ONLN)"
[ "$(val sockets)" -ge 1 ] && [ "$(val cores)" -ge 1 ] &&
  [ "$(val cores)" -le "$(val logical_cpus)" ] && [ "$(val numa_nodes)" -ge 1 ] && ok ||
  bad "sockets/cores/numa: $(val sockets)/$(val cores)/$(val numa_nodes)"
memtotal=$(awk '/^MemTotal:/ {printf "%.0f", $2 * 1024}' /proc/meminfo)
mem=$(val memory_bytes)
if [ "${mem:-0}" -gt 0 ] &&
   awk -v a="$mem" -v b="$memtotal" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b / 10) }'; then
  ok
else
  bad "memory_bytes $mem is not within 10% of MemTotal $memtotal"
fi
host_model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n1 | sed 's/[[:space:]]*$//')
if [ -n "$host_model" ]; then eq cpu_model "$(val cpu_model)" "$host_model"; fi
case "$(val build)" in
  *"x86 build under WoW64") [ "$host_arch" = x86_64 ] && ok || bad "WoW64 on $host_arch?" ;;
  *"x86_64 build") ok ;;
  *) bad "build '$(val build)' names no process architecture" ;;
esac
case "$(val build)" in "gcc "*"mingw-w64"*) ok ;; *) bad "build '$(val build)'" ;; esac

# A file, by three spellings: the same volume each time.
fs=$(val t1.fs_type)
eq "t1 fs_type (wine answers NTFS)" "$fs" NTFS
b=$(val t1.fs_block_bytes)
if [ "${b:-0}" -ge 512 ] && [ $((b & (b - 1))) = 0 ]; then ok; else
  bad "t1 cluster size '$b' is not a power of two >= 512"; fi
for n in 2 3; do
  for f in fs_type fs_block_bytes device bus; do
    eq "t$n $f (as t1)" "$(val t$n.$f)" "$(val t1.$f)"
  done
done
# Missing: nothing at all.
for f in fs_type device model firmware bus scheduler backing_file; do
  eq "missing $f" "$(val t4.$f)" ""
done
eq "missing fs_block_bytes" "$(val t4.fs_block_bytes)" 0
eq "missing rotational" "$(val t4.rotational)" -1
# Raw disks: no file system; a device only if wine has one.
for n in 5 6 7; do
  eq "t$n fs_type (raw)" "$(val t$n.fs_type)" ""
  eq "t$n fs_block_bytes (raw)" "$(val t$n.fs_block_bytes)" 0
  case "$(val t$n.device)" in
    ""|'\\.\PhysicalDrive'[0-9]*) ok ;;
    *) bad "t$n device '$(val t$n.device)'" ;;
  esac
  case "$(val t$n.rotational)" in -1|0|1) ok ;; *) bad "t$n rotational" ;; esac
done
eq "#0 and \\\\.\\PhysicalDrive0 agree" "$(val t5.device)" "$(val t7.device)"
eq "#99 device" "$(val t8.device)" ""
eq "#99 bus" "$(val t8.bus)" ""
eq "scheduler (Linux only)" "$(val t1.scheduler)" ""
eq "queue depth (not offered by Windows)" "$(val t1.queue_depth)" 0
echo "wine shows: os_version='$(val os_version)' C: device='$(val t1.device)'" \
     "bus='$(val t1.bus)' model='$(val t1.model)' rotational=$(val t1.rotational)"
finish env_wine_test

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that a Windows executable imports only Windows system DLLs (no
# libgcc, libwinpthread or zlib1.dll that a clean Windows box would lack).
# Usage: scripts/check-imports.sh <file.exe>...
set -euo pipefail
allowed=" kernel32.dll msvcrt.dll advapi32.dll powrprof.dll shell32.dll ntdll.dll user32.dll "
status=0
for exe in "$@"; do
  objdump=x86_64-w64-mingw32-objdump
  command -v "$objdump" >/dev/null || objdump=i686-w64-mingw32-objdump
  dlls=$("$objdump" -p "$exe" | awk '/DLL Name/ {print tolower($3)}' | sort -u)
  for d in $dlls; do
    case "$allowed" in
      *" $d "*) ;;
      *) echo "$exe imports $d, which is not a Windows system DLL" >&2; status=1 ;;
    esac
  done
  echo "$exe imports only system DLLs: $(echo $dlls)"
done
exit $status

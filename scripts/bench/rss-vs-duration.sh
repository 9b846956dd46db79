#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Shows that a run's peak memory does not grow with its duration: runs the
# same full-speed -L -D workload for a short and a long duration and prints
# each run's peak RSS (getrusage of the child) and the difference.
# Usage: scripts/bench/rss-vs-duration.sh [iospd binary] [short s] [long s]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=${1:-$root/build/linux/iospd}
short=${2:-10}
long=${3:-60}
dir="$root/build/rss"
mkdir -p "$dir"
file="$dir/rss.dat"
trap 'rm -f "$file"' EXIT
args=(-W1 -b4K -r -o32 -t2 -w30 -L -D)
peak() { # duration -> prints peak RSS in KiB
  python3 - "$exe" "-d$1" "${args[@]}" "$file" <<'PY'
import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
if os.waitstatus_to_exitcode(status) != 0:
    sys.exit("iospd failed")
print(ru.ru_maxrss)
PY
}
"$exe" -c256M -d0 -W0 "$file" >/dev/null
a=$(peak "$short")
b=$(peak "$long")
echo "iospd ${args[*]} on a 256 MiB file"
echo "peak RSS, ${short} s run: ${a} KiB"
echo "peak RSS, ${long} s run: ${b} KiB"
echo "difference: $((b - a)) KiB (limit 1024 KiB)"
[ $((b - a)) -lt 1024 ]

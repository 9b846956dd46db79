#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the build dependencies that are missing, builds iospd (Release),
# and runs a representative benchmark (8 KiB random 70/30 read/write, two
# threads, 16 outstanding I/Os each, unbuffered and write-through, latency
# and per-second IOPS on) on a temporary 1 GiB file that is removed after.
# Extra arguments replace the benchmark's switches, e.g.
#   scripts/quickstart.sh -b4K -r -o32 -t1 -w0 -Su -L
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" --build-only
cmake -S "$root" -B "$root/build/release" -DCMAKE_BUILD_TYPE=Release \
  -DIOSPD_BUILD_TESTS=OFF -DBUILD_TESTING=OFF >/dev/null
cmake --build "$root/build/release" -j"$(nproc)" >/dev/null
# Not /tmp: it may be tmpfs, which refuses unbuffered (O_DIRECT) I/O.
dir="$root/build/quickstart"
mkdir -p "$dir"
file="$dir/iospd-quickstart.dat"
trap 'rm -f "$file"' EXIT
if [ $# -gt 0 ]; then
  args=("$@")
else
  args=(-b8K -r -w30 -t2 -o16 -Sh -L -D -W2 -d10)
fi
echo "iospd ${args[*]} -c1G $file"
"$root/build/release/iospd" "${args[@]}" -c1G "$file"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cost of generated content (--compress, docs/content.md): 64 KiB
# sequential writes from the page cache, without and with --compress=50,
# in interleaved pairs (A B B A A B ...) so that drift in the machine's load
# hits both sides alike. Prints each run's IOPS, the median of each side
# and the ratio with/without; the target is >= 0.90 (issue #15: refilling
# buffers must not make writes CPU-bound, KDiskMark issue 175).
# Usage: scripts/bench/content-cost.sh [iospd binary] [pairs] [seconds]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=${1:-$root/build/linux/iospd}
pairs=${2:-5}
secs=${3:-5}
dir="$root/build/content-bench"
mkdir -p "$dir"
file="$dir/content.dat"
trap 'rm -f "$file" "$dir/r.json"' EXIT
"$exe" -c1G -d0 -W0 "$file" >/dev/null 2>&1
base=(-b64K -s -w100 -t1 -o2 "-d$secs" -W1 -Rjson)
iops() { # extra switches... -> prints the run's total IOPS
  "$exe" "${base[@]}" "$@" "$file" >"$dir/r.json"
  python3 - "$dir/r.json" "$secs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ts = d["timespans"][0]
ios = sum(t["ios"] for th in ts["threads"] for t in th["targets"])
print(f"{ios / ts['test_time_seconds']:.0f}")
PY
}
a=()
b=()
for ((i = 0; i < pairs; i++)); do
  if ((i % 2 == 0)); then
    a+=("$(iops)")
    b+=("$(iops --compress=50)")
  else
    b+=("$(iops --compress=50)")
    a+=("$(iops)")
  fi
  echo "pair $((i + 1)): without ${a[-1]} IOPS, --compress=50 ${b[-1]} IOPS"
done
python3 - "${a[*]}" "${b[*]}" <<'PY'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
ma, mb = statistics.median(a), statistics.median(b)
print(f"median without: {ma:.0f} IOPS, with --compress=50: {mb:.0f} IOPS, "
      f"ratio {mb / ma:.3f} (target >= 0.90)")
sys.exit(0 if mb / ma >= 0.90 else 1)
PY

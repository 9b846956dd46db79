#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Measures what a --compress/--dedupe run wrote (tests/e2e/content_test.sh):
# the blocks of FILE that differ from the -c creation pattern (byte i =
# i mod 256) are the written ones; each must compress with zlib (default
# level, per block) by PCT % +- 3, and of them DEDUPE % +- 1 must repeat an
# earlier written block exactly (hashing whole blocks). Also checks that at
# least MIN_BLOCKS were found. Prints the measured values; exit 1 on a miss.
# Usage: content_check.py FILE BS PCT DEDUPE MIN_BLOCKS
import hashlib
import sys
import zlib

path, bs, pct, dedupe, min_blocks = sys.argv[1], *map(int, sys.argv[2:6])
created = bytes(i & 0xFF for i in range(bs))
written = []
with open(path, "rb") as f:
    while True:
        b = f.read(bs)
        if len(b) < bs:
            break
        if b != created:
            written.append(b)
n = len(written)
if n < min_blocks:
    print(f"only {n} written blocks found, want at least {min_blocks}")
    sys.exit(1)
savings = [100.0 * (1 - len(zlib.compress(b)) / bs) for b in written]
seen = set()
dups = 0
for b in written:
    h = hashlib.sha256(b).digest()
    if h in seen:
        dups += 1
    seen.add(h)
share = 100.0 * dups / n
lo, hi = min(savings), max(savings)
mean = sum(savings) / n
print(f"blocks={n} saving mean={mean:.2f} min={lo:.2f} max={hi:.2f} "
      f"repeated={share:.2f}%")
ok = lo >= pct - 3 and hi <= pct + 3 and abs(share - dedupe) <= 1
sys.exit(0 if ok else 1)

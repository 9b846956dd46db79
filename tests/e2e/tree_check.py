#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks for tree_test.sh (the --tree file-tree mode, docs/tree.md).
#   tree_check.py layout DIRS FILES ASSIGN SEED DEPTH WIDTH
#       every file f%08u.dat is where docs/tree.md puts it, once, and
#       nothing else of that name is in the tree; prints "ok" or what differs.
#   tree_check.py where DIRS FILES DEPTH WIDTH
#       prints "i leaf" per file (wherever it is), fails on a missing or
#       doubled file.
#   tree_check.py pattern FILE [SIZE] [PREFIX_ONLY]
#       the file's bytes are k mod 256 (its first PREFIX_ONLY bytes only,
#       when given), and its size is SIZE.
import os
import sys

M64 = (1 << 64) - 1


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class Rand:
    """iospd_rand (src/run/rand.c): Bob Jenkins' small 64-bit PRNG."""

    def __init__(self, seed):
        self.a, self.b, self.c, self.d = 0xF1EA5EED, seed, seed, seed
        for _ in range(20):
            self.next()

    def next(self):
        e = (self.a - rotl(self.b, 7)) & M64
        self.a = self.b ^ rotl(self.c, 13)
        self.b = (self.c + rotl(self.d, 37)) & M64
        self.c = (self.d + e) & M64
        self.d = (e + self.a) & M64
        return self.d


def leaves(dirs, depth, width):
    out = []
    for d in dirs.split(","):
        level = [d]
        for _ in range(depth):
            level = [p + "/d%d" % k for p in level for k in range(width)]
        out += level
    return out


def homes(files, nleaves, assign, seed):
    if assign == "ordered":
        return [i * nleaves // files for i in range(files)]
    if assign == "even":
        return [i % nleaves for i in range(files)]
    r = Rand(seed)
    order = list(range(files))
    for i in range(files - 1, 0, -1):
        j = r.next() % (i + 1)
        order[i], order[j] = order[j], order[i]
    home = [0] * files
    for k, f in enumerate(order):
        home[f] = k % nleaves
    return home


def where(dirs, files, depth, width):
    lv = leaves(dirs, depth, width)
    found = {}
    for k, leaf in enumerate(lv):
        for name in os.listdir(leaf):
            if name.startswith("f") and name.endswith(".dat"):
                i = int(name[1:-4])
                found.setdefault(i, []).append(k)
    return lv, found


def main():
    cmd = sys.argv[1]
    if cmd == "layout":
        dirs, files, assign, seed = sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
        depth, width = int(sys.argv[6]), int(sys.argv[7])
        lv, found = where(dirs, files, depth, width)
        want = homes(files, len(lv), assign, seed)
        for i in range(files):
            if found.get(i) != [want[i]]:
                print("file %d: expected in %s, found in %s" % (
                    i, lv[want[i]], [lv[k] for k in found.get(i, [])]))
                return 1
        extra = sorted(set(found) - set(range(files)))
        if extra:
            print("unexpected files:", extra[:5])
            return 1
        print("ok")
        return 0
    if cmd == "where":
        dirs, files, depth, width = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        lv, found = where(dirs, files, depth, width)
        for i in range(files):
            if len(found.get(i, [])) != 1:
                print("file %d found %d times" % (i, len(found.get(i, []))))
                return 1
            print(i, lv[found[i][0]])
        if set(found) - set(range(files)):
            print("unexpected files")
            return 1
        return 0
    if cmd == "pattern":
        data = open(sys.argv[2], "rb").read()
        if len(sys.argv) > 3 and sys.argv[3] != "-" and len(data) != int(sys.argv[3]):
            print("%s: %d bytes, expected %s" % (sys.argv[2], len(data), sys.argv[3]))
            return 1
        n = int(sys.argv[4]) if len(sys.argv) > 4 else len(data)
        want = bytes(k & 0xFF for k in range(n))
        if data[:n] != want:
            k = next(k for k in range(n) if data[k] != want[k])
            print("%s: byte %d is %d, expected %d" % (sys.argv[2], k, data[k], want[k]))
            return 1
        print("ok")
        return 0
    print("unknown command", cmd)
    return 2


if __name__ == "__main__":
    sys.exit(main())

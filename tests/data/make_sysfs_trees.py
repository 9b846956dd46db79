#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the fake sysfs trees tests/data/sysfs-{hybrid,arm,server}: the
files iospd's Linux topology reader opens (src/posix/cpu.c, cpu_cache.c),
for three machines described below. Run from tests/data; the trees are
committed, this script says how they were made."""
import os
import shutil

def cpulist(cpus):
    cpus = sorted(cpus)
    out, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)

def put(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text + "\n")

def write(name, cpus, nodes, cpuinfo, extra):
    """cpus: id -> dict(pkg, core_id, siblings, caches=[(level, type, size,
    line, ways, shared)], capacity=None)."""
    root = "sysfs-" + name
    shutil.rmtree(root, ignore_errors=True)
    base = "sys/devices/system/cpu"
    ids = sorted(cpus)
    put(root, base + "/online", cpulist(ids))
    put(root, base + "/possible", cpulist(ids))
    for c in ids:
        d = cpus[c]
        t = "%s/cpu%d/topology/" % (base, c)
        put(root, t + "physical_package_id", str(d["pkg"]))
        put(root, t + "core_id", str(d["core_id"]))
        put(root, t + "core_cpus_list", cpulist(d["siblings"]))
        put(root, t + "thread_siblings_list", cpulist(d["siblings"]))
        if d.get("capacity") is not None:
            put(root, "%s/cpu%d/cpu_capacity" % (base, c), str(d["capacity"]))
        for k, (lvl, typ, size, line, ways, shared) in enumerate(d["caches"]):
            ci = "%s/cpu%d/cache/index%d/" % (base, c, k)
            put(root, ci + "level", str(lvl))
            put(root, ci + "type", typ)
            put(root, ci + "size", size)
            put(root, ci + "coherency_line_size", str(line))
            if ways is not None:
                put(root, ci + "ways_of_associativity", str(ways))
            put(root, ci + "shared_cpu_list", cpulist(shared))
    for n, members in nodes.items():
        put(root, "sys/devices/system/node/node%d/cpulist" % n, cpulist(members))
    for rel, text in extra.items():
        put(root, rel, text)
    put(root, "proc/cpuinfo", cpuinfo)

# A hybrid laptop: 8 P-cores with SMT (CPUs 0-15, siblings adjacent) and 8
# E-cores (16-23, L2 shared by clusters of four), one L3.
cpus = {}
for c in range(16):
    sib = [c & ~1, (c & ~1) + 1]
    cpus[c] = dict(pkg=0, core_id=(c // 2) * 4, siblings=sib, caches=[
        (1, "Data", "48K", 64, 12, sib), (1, "Instruction", "32K", 64, 8, sib),
        (2, "Unified", "2048K", 64, 16, sib),
        (3, "Unified", "30720K", 64, 12, range(24))])
for c in range(16, 24):
    cl = range(16 + (c - 16) // 4 * 4, 16 + (c - 16) // 4 * 4 + 4)
    cpus[c] = dict(pkg=0, core_id=32 + (c - 16), siblings=[c], caches=[
        (1, "Data", "32K", 64, 8, [c]), (1, "Instruction", "64K", 64, 8, [c]),
        (2, "Unified", "4096K", 64, 16, cl),
        (3, "Unified", "30720K", 64, 12, range(24))])
write("hybrid", cpus, {0: range(24)},
      "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: 13th Gen "
      "Intel(R) Core(TM) i7-13700HX\n",
      {"sys/devices/cpu_core/cpus": "0-15", "sys/devices/cpu_atom/cpus": "16-23"})

# An Arm big.LITTLE board: 4 little cores (0-3, capacity 414) and 4 big
# ones (4-7, 1024); core_id repeats per cluster, no SMT; the shared L3 has
# no ways file (device trees often leave it out).
cpus = {}
for c in range(8):
    big = c >= 4
    l1 = "64K" if big else "32K"
    cpus[c] = dict(pkg=0, core_id=c % 4, siblings=[c],
                   capacity=1024 if big else 414, caches=[
        (1, "Data", l1, 64, 4, [c]), (1, "Instruction", l1, 64, 4, [c]),
        (2, "Unified", "512K" if big else "128K", 64, 8 if big else 4, [c]),
        (3, "Unified", "3072K", 64, None, range(8))])
write("arm", cpus, {0: range(8)},
      "processor\t: 0\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd\n"
      "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x2\n"
      "CPU part\t: 0xd05\nCPU revision\t: 0\n", {})

# A 2-socket SMT server: 4 cores per socket; CPUs 0-3 socket 0, 4-7 socket
# 1, their SMT siblings 8-11 and 12-15; one NUMA node per socket.
cpus = {}
for c in range(16):
    sock = (c // 4) % 2
    first = c % 8
    sib = [first, first + 8]
    l3 = [x for x in range(16) if (x // 4) % 2 == sock]
    cpus[c] = dict(pkg=sock, core_id=c % 4, siblings=sib, caches=[
        (1, "Data", "32K", 64, 8, sib), (1, "Instruction", "32K", 64, 8, sib),
        (2, "Unified", "256K", 64, 8, sib), (3, "Unified", "10240K", 64, 20, l3)])
write("server", cpus, {0: [0, 1, 2, 3, 8, 9, 10, 11],
                       1: [4, 5, 6, 7, 12, 13, 14, 15]},
      "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) "
      "Xeon(R) CPU E5-2623 v4 @ 2.60GHz\n", {})

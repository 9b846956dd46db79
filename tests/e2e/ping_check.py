#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks the outputs of iospd --ping for tests/e2e/ping_test.sh, from the
# printed text alone (independently of the C code):
#   text  OUT PATH N read|write [SIZE_KIB]   request lines and the summary
#   batch OUT SIZE SPEC                       the --batch line; SPEC is
#         n<N> (requests), d<SECONDS> (-d), w<LO>-<HI> (wall ms), joined
#         with ':' 
#   json  OUT ERR SCHEMA N                    -Rjson against its lines
# Exit 0 when everything holds; else the first problem on stderr.
import json
import re
import sys

LINE = re.compile(r"^(\d+) (B|KiB|MiB) (<<<|>>>) (\S+) \(([^)]*)\): "
                  r"request=(\d+) time=([0-9.]+) (ns|us|ms|s)"
                  r"(?: \((warmup|fast|slow)\))?$")
UNIT = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def fmt_time(ns):
    """The probe's time format (src/ping/ping_format.c), redone here."""
    if ns < 999.5:
        return "%.0f ns" % ns
    v, u = ns / 1e3, 0
    while u < 2 and v >= 999.95:
        v, u = v / 1e3, u + 1
    return ("%.2f" if v < 9.995 else "%.1f") % v + " " + ["us", "ms", "s"][u]


def to_ns(text):
    num, unit = text.split()
    return float(num) * UNIT[unit]


def fail(msg):
    sys.stderr.write(msg + "\n")
    sys.exit(1)


def request_lines(lines, path, n, direction, size_kib):
    reqs = []
    for line in lines:
        if "request=" not in line:
            continue
        m = LINE.match(line)
        if not m:
            fail("not in ioping's shape: %r" % line)
        size, unit, arrow, p, where, num, t, tu, mark = m.groups()
        if "%s %s" % (size, unit) != "%d KiB" % size_kib:
            fail("size %s %s, want %d KiB: %r" % (size, unit, size_kib, line))
        if arrow != ("<<<" if direction == "read" else ">>>"):
            fail("direction %s for %s: %r" % (arrow, direction, line))
        if p != path or not where:
            fail("path %r (%r), want %r" % (p, where, path))
        if int(num) != len(reqs) + 1:
            fail("request=%s out of order: %r" % (num, line))
        if (mark == "warmup") != (len(reqs) == 0):
            fail("the warm-up mark belongs to request 1 only: %r" % line)
        reqs.append((t + " " + tu, mark))
    if len(reqs) != n:
        fail("%d request lines, want %d" % (len(reqs), n))
    return reqs


def check_text(out, path, n, direction, size_kib=4):
    lines = open(out).read().split("\n")
    reqs = request_lines(lines, path, n, direction, size_kib)
    counted = [to_ns(t) for t, _ in reqs[1:]]
    by_value = {to_ns(t): t for t, _ in reqs[1:]}
    i = lines.index("")
    head, done, gen, stats = lines[i + 1:i + 5]
    if not re.match(r"^--- %s \(.+\) iospd ping statistics ---$"
                    % re.escape(path), head):
        fail("summary head: %r" % head)
    m = re.match(r"^(\d+) requests completed in (\S+ \S+), (\d+) KiB (read|"
                 r"written), \S+( k| M)? iops, \S+ \S+/s$", done)
    if not m or int(m.group(1)) != n - 1 or m.group(4) != \
            ("read" if direction == "read" else "written") or \
            int(m.group(3)) != (n - 1) * size_kib:
        fail("summary line 1: %r" % done)
    total = to_ns(m.group(2))
    if abs(total - sum(counted)) > 0.01 * sum(counted) + 0.06 * n * 1000:
        fail("completed in %s, the lines add to %.0f ns" % (m.group(2),
                                                             sum(counted)))
    if not re.match(r"^generated %d requests in \S+ \S+, %d KiB, " % (
            n, n * size_kib), gen):
        fail("summary line 2: %r" % gen)
    m = re.match(r"^min/avg/max/mdev = (\S+ \S+) / (\S+ \S+) / (\S+ \S+) / "
                 r"(\S+ \S+)$", stats)
    if not m:
        fail("summary line 3: %r" % stats)
    lo, hi = by_value[min(by_value)], by_value[max(by_value)]
    if m.group(1) != lo or m.group(3) != hi:
        fail("min/max %s / %s, the lines' are %s / %s" % (
            m.group(1), m.group(3), lo, hi))
    avg = to_ns(m.group(2))
    want = sum(counted) / len(counted)
    if abs(avg - want) > 0.01 * want + 60:
        fail("avg %s, the lines' mean is %.0f ns" % (m.group(2), want))


def check_batch(out, size, spec):
    lines = [l for l in open(out).read().split("\n") if l]
    if len(lines) != 1:
        fail("--batch printed %d lines: %r" % (len(lines), lines))
    f = [int(x) for x in lines[0].split()]
    if len(f) != 10:
        fail("%d fields, want 10: %r" % (len(f), lines[0]))
    cnt, t, iops, bps, mn, avg, mx, mdev, reqs, wall = f
    if cnt != reqs - 1 or t <= 0:
        fail("counted %d of %d requests in %d ns" % (cnt, reqs, t))
    if iops != round(cnt * 1e9 / t) or abs(bps - cnt * size * 1e9 / t) > 1:
        fail("iops %d, bytes/s %d from %d requests in %d ns" % (
            iops, bps, cnt, t))
    if not mn <= avg <= mx or abs(avg - t / cnt) > 1 or wall < t:
        fail("min/avg/max %d/%d/%d, time %d, wall %d" % (mn, avg, mx, t, wall))
    if cnt > 1 and mdev > mx - mn:
        fail("mdev %d is larger than max - min" % mdev)
    for part in spec.split(":"):
        if part.startswith("n") and reqs != int(part[1:]):
            fail("%d requests, want %s" % (reqs, part[1:]))
        if part.startswith("d"):
            secs = int(part[1:])
            if not secs * 1e9 <= wall < (secs + 1.5) * 1e9 or \
                    not 3 <= reqs <= 5:
                fail("-d%d: %d requests in %d ns" % (secs, reqs, wall))
        if part.startswith("w"):  # wall time within lo-hi ms
            lo, hi = (int(x) * 1e6 for x in part[1:].split("-"))
            if not lo <= wall < hi:
                fail("wall time %d ns, want %d to %d" % (wall, lo, hi))


def check_json(out, err, schema_path, n):
    doc = json.load(open(out))
    try:
        import jsonschema
        jsonschema.validate(doc, json.load(open(schema_path)))
    except ImportError:
        print("note: python3-jsonschema missing; the schema is not checked")
    s = doc["summary"]
    reqs = request_lines(open(err).read().split("\n"), doc["target"]["path"],
                         n, doc["settings"]["direction"],
                         doc["settings"]["request_bytes"] // 1024)
    if s["requests"] != n or s["counted"] != n - 1:
        fail("requests %d counted %d, want %d and %d" % (
            s["requests"], s["counted"], n, n - 1))
    times = sorted(to_ns(t) for t, _ in reqs[1:])
    texts = {to_ns(t): t for t, _ in reqs[1:]}
    if fmt_time(s["min_ns"]) != texts[times[0]] or \
            fmt_time(s["max_ns"]) != texts[times[-1]]:
        fail("min_ns %d max_ns %d do not print as the lines' %s and %s" % (
            s["min_ns"], s["max_ns"], texts[times[0]], texts[times[-1]]))
    if abs(s["avg_ns"] - s["time_ns"] / s["counted"]) > 1e-6 * s["avg_ns"]:
        fail("avg_ns %r is not time_ns / counted" % s["avg_ns"])
    if abs(s["iops"] - s["counted"] * 1e9 / s["time_ns"]) > 1e-9 * s["iops"]:
        fail("iops %r is not counted / time" % s["iops"])
    if s["bytes"] != s["counted"] * doc["settings"]["request_bytes"]:
        fail("bytes %d" % s["bytes"])
    p = doc["percentiles"]
    if len(p) != 6 or not s["min_ns"] <= p[0]["ns"] + 500 or \
            p[-1]["ns"] > s["max_ns"] * 1.001 + 500:
        fail("percentiles %r" % p)
    if doc["interrupted"] or doc["error"] is not None:
        fail("interrupted %r error %r" % (doc["interrupted"], doc["error"]))


def main():
    mode = sys.argv[1]
    if mode == "text":
        check_text(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5],
                   int(sys.argv[6]) if len(sys.argv) > 6 else 4)
    elif mode == "batch":
        check_batch(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif mode == "json":
        check_json(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        fail("unknown mode " + mode)


main()

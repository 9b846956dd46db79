# SPDX-License-Identifier: MIT
"""Checks an `iospd --merge` output against its inputs, independently of
iospd's C code: usage: merge_check.py <schema> <merged.json> <input.json>...

- every document validates against the JSON Schema (python3-jsonschema);
- ios and bytes of every direction (timespan total, per target) and of every
  thread's target are the sums of the inputs'; iops and MiB/s the sums of
  the inputs' rates;
- the latency of every direction is recomputed here from the inputs'
  buckets, added in Python: count, min, max, mean, stddev and every
  percentile (nearest rank, the bucket's representative, as
  docs/results-json.md and src/stats/hist.c define them) must equal the
  merged document's exactly, as must the merged buckets and exact sums;
- merged_from names each input, with its target paths.
Prints what it checked; exits 1 on the first mismatch."""
import json
import sys

import jsonschema

LIN_COUNT = 10001
LIN_LIMIT = 10000500


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def representative(lo, hi):
    """The value a bucket reports, before clamping to [min, max]."""
    if hi is None:
        return None  # the open-ended bucket reports the exact maximum
    if lo < LIN_LIMIT:
        return float(0 if lo == 0 else lo + 500)  # k * 1000
    # 512 buckets per power of two; the first one (from 10,000,500 ns) is
    # cut short by the linear region but reports its full bucket's middle.
    w = 1 << (lo.bit_length() - 1 - 9)
    return float(lo // w * w) + float(w // 2)


def percentile_ns(buckets, n, mn, mx, label):
    p = float(label)
    if p <= 0:
        return float(mn)
    if p >= 100:
        return float(mx)
    frac = float(round(p * 1e7)) / 1e9
    target = frac * float(n)
    cum = 0
    for lo, hi, c in buckets:
        cum += c
        if float(cum) >= target:
            v = representative(lo, hi)
            if v is None:
                return float(mx)
            return min(max(v, float(mn)), float(mx))
    return float(mx)


def mean_ns(n, s):
    q, r = divmod(s, n)
    return float(q) + float(r) / float(n)


def u128_to_double(x):
    return float(x >> 64) * 18446744073709551616.0 + float(x & (2**64 - 1))


def stddev_ns(n, s, sq):
    """As hist.c: the integer part of n*M2 exactly, only r^2/n in doubles."""
    if n <= 1:
        return 0.0
    q, r = divmod(s, n)
    whole = q * q * n + 2 * q * r
    if whole > sq:
        return 0.0
    m2 = u128_to_double(sq - whole) - float(r) * (float(r) / float(n))
    if m2 <= 0:
        return 0.0
    return (m2 / float(n)) ** 0.5


def merged_hist(lats):
    buckets, n, mn, mx, s, sq = {}, 0, None, None, 0, 0
    for lat in lats:
        if lat is None:
            continue
        h = lat["histogram"]
        for lo, hi, c in h["buckets"]:
            old = buckets.get(lo, (hi, 0))
            buckets[lo] = (hi, old[1] + c)
        if h["count"] == 0:
            continue
        n += h["count"]
        s += int(h["sum_ns"])
        sq += int(h["sum_sq_ns2"])
        mn = h["min_ns"] if mn is None else min(mn, h["min_ns"])
        mx = h["max_ns"] if mx is None else max(mx, h["max_ns"])
    return [(lo, hi, c) for lo, (hi, c) in sorted(buckets.items())], n, mn, mx, s, sq


checked = {"directions": 0, "percentiles": 0, "thread targets": 0}


def check_latency(where, merged, inputs):
    if all(lat is None for lat in inputs):
        if merged is not None:
            fail(f"{where}: latency should be null")
        return
    buckets, n, mn, mx, s, sq = merged_hist(inputs)
    h = merged["histogram"]
    if [tuple(b) for b in h["buckets"]] != buckets:
        fail(f"{where}: merged buckets differ from the inputs' added in Python")
    if (h["count"], h["min_ns"], h["max_ns"], int(h["sum_ns"]), int(h["sum_sq_ns2"])) != (n, mn, mx, s, sq):
        fail(f"{where}: exact sums differ")
    want = {
        "count": n,
        "min_ms": mn / 1e6,
        "max_ms": mx / 1e6,
        "mean_ms": mean_ns(n, s) / 1e6,
        "stddev_ms": stddev_ns(n, s, sq) / 1e6,
    }
    for k, v in want.items():
        if merged[k] != v:
            fail(f"{where}.{k}: merged {merged[k]!r}, Python {v!r}")
    for e in merged["percentiles"]:
        v = percentile_ns(buckets, n, mn, mx, e["percentile"]) / 1e6
        if e["ms"] != v:
            fail(f"{where}: p{e['percentile']}: merged {e['ms']!r} ms, Python {v!r} ms")
        checked["percentiles"] += 1
    p = {e["percentile"]: e["ms"] for e in merged["percentiles"]}
    return p.get("50"), p.get("99")


def check_direction(where, merged, inputs):
    for k in ("ios", "bytes"):
        if merged[k] != sum(d[k] for d in inputs):
            fail(f"{where}.{k}: {merged[k]} is not the sum {[d[k] for d in inputs]}")
    for k in ("iops", "mib_per_s"):
        total = None
        for d in inputs:
            if d[k] is not None:
                total = d[k] if total is None else total + d[k]
        if merged[k] != total:
            fail(f"{where}.{k}: {merged[k]!r} is not the sum of the runs' rates {total!r}")
    checked["directions"] += 1
    return check_latency(where + ".latency", merged["latency"], [d["latency"] for d in inputs])


def main():
    schema_path, merged_path, input_paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    schema = json.load(open(schema_path))
    merged = json.load(open(merged_path))
    inputs = [json.load(open(p)) for p in input_paths]
    for path, doc in [(merged_path, merged)] + list(zip(input_paths, inputs)):
        try:
            jsonschema.validate(doc, schema)
        except jsonschema.ValidationError as e:
            fail(f"{path} does not validate against the schema: {e.message} at {list(e.absolute_path)}")
    froms = merged.get("merged_from", [])
    if [e["file"] for e in froms] != input_paths:
        fail(f"merged_from files {[e['file'] for e in froms]} are not the inputs {input_paths}")
    for e, doc in zip(froms, inputs):
        paths = [[t["path"] for t in ts["targets"]] for ts in doc["profile"]["timespans"]]
        if e["target_paths"] != paths:
            fail(f"merged_from target_paths {e['target_paths']} is not {paths}")
    summary = []
    for i, ts in enumerate(merged["timespans"]):
        its = [d["timespans"][i] for d in inputs]
        if not ts["measured"]:
            continue
        for dname in ("read", "write", "total"):
            r = check_direction(f"timespans[{i}].total.{dname}", ts["total"][dname],
                                [t["total"][dname] for t in its])
            if dname == "total" and r:
                summary.append(f"p50 {r[0]} ms, p99 {r[1]} ms")
        for k, tgt in enumerate(ts["targets"]):
            for dname in ("read", "write", "total"):
                check_direction(f"timespans[{i}].targets[{k}].{dname}", tgt["directions"][dname],
                                [t["targets"][k]["directions"][dname] for t in its])
        for j, th in enumerate(ts["threads"]):
            for k, tt in enumerate(th["targets"]):
                for key in ("bytes", "ios", "read_bytes", "read_ios", "write_bytes", "write_ios"):
                    want = sum(t["threads"][j]["targets"][k][key] for t in its)
                    if tt[key] != want:
                        fail(f"timespans[{i}].threads[{j}].targets[{k}].{key}: {tt[key]} is not {want}")
                checked["thread targets"] += 1
        total_ios = ts["total"]["total"]["ios"]
        summary.append(f"{total_ios} I/Os = " + " + ".join(str(t["total"]["total"]["ios"]) for t in its))
    print("merge_check: ok: " + ", ".join(f"{v} {k}" for k, v in checked.items()) + "; " + "; ".join(summary))


main()

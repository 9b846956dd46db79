#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validates iospd JSON results against schema/iospd-results.schema.json.

Usage: validate_results.py SCHEMA FILE...
Exit 0 when every file is valid, 1 otherwise (each error printed), 77 when
python3-jsonschema is missing (ctest reads 77 as skipped).
Beyond the schema it checks what a schema cannot say: the whole file is one
strict JSON document (no NaN/Infinity), and every histogram is consistent
(bucket counts add up to its count; min/max inside the first/last bucket;
buckets ascending and disjoint).
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("skipped: python3-jsonschema is not installed (apt-get install python3-jsonschema)")
    sys.exit(77)


def strict_constant(name):
    raise ValueError("not JSON: %s" % name)


def histograms(node, where="$"):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "histogram" and isinstance(v, dict):
                yield where + ".histogram", v
            else:
                yield from histograms(v, where + "." + k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from histograms(v, "%s[%d]" % (where, i))


def check_histogram(where, h):
    errs = []
    b = h["buckets"]
    total = sum(c for _, _, c in b)
    if total != h["count"]:
        errs.append("%s: bucket counts add up to %d, count is %d" % (where, total, h["count"]))
    prev_hi = 0
    for lo, hi, _ in b:
        if lo < prev_hi or (hi is not None and hi <= lo):
            errs.append("%s: bucket [%s, %s) out of order" % (where, lo, hi))
        prev_hi = hi if hi is not None else float("inf")
    if b:
        lo0, hi0, _ = b[0]
        lon, hin, _ = b[-1]
        if not (lo0 <= h["min_ns"] and (hi0 is None or h["min_ns"] < hi0)):
            errs.append("%s: min_ns %d not in the first bucket" % (where, h["min_ns"]))
        if not (lon <= h["max_ns"] and (hin is None or h["max_ns"] < hin)):
            errs.append("%s: max_ns %d not in the last bucket" % (where, h["max_ns"]))
    s, sq = int(h["sum_ns"]), int(h["sum_sq_ns2"])
    n = h["count"]
    if n and not (n * h["min_ns"] <= s <= n * h["max_ns"]):
        errs.append("%s: sum_ns %d outside count*[min, max]" % (where, s))
    if n and s * s > n * sq:  # Cauchy-Schwarz: (sum x)^2 <= n sum x^2
        errs.append("%s: sum_sq_ns2 too small for sum_ns" % where)
    return errs


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    bad = 0
    for path in sys.argv[2:]:
        try:
            with open(path, encoding="utf-8", errors="strict") as f:
                doc = json.load(f, parse_constant=strict_constant)
        except (ValueError, UnicodeDecodeError) as e:
            print("%s: not strict UTF-8 JSON: %s" % (path, e))
            bad += 1
            continue
        # Messages quote the failing value, which may be a whole histogram.
        errs = ["%s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message[:300])
                for e in validator.iter_errors(doc)]
        for where, h in histograms(doc):
            errs += check_histogram(where, h)
        for e in errs[:20]:
            print("%s: %s" % (path, e))
        if errs:
            bad += 1
        else:
            print("%s: valid (%d histograms checked)" % (path, sum(1 for _ in histograms(doc))))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

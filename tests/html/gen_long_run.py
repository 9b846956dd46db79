#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Stretches a real iospd -Rjson result (with "timeseries" and -D buckets)
into the shape of a longer run: SECONDS intervals of 1 s, every target,
thread and bucket list as long as such a run would make them, values
varied with a fixed seed. Used to check the HTML report's size bound.
Usage: gen_long_run.py TEMPLATE.json SECONDS OUT.json"""
import copy
import json
import random
import sys


def vary(v, rnd, spread=0.1):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return max(0, int(v * (1 + rnd.uniform(-spread, spread))))
    if isinstance(v, float):
        return round(max(0.0, v * (1 + rnd.uniform(-spread, spread))), 3)
    if isinstance(v, dict):
        return {k: vary(x, rnd, spread) if k not in ("sample_ms", "timespan",
                "target", "start_ms", "end_ms") else x for k, x in v.items()}
    if isinstance(v, list):
        return [vary(x, rnd, spread) for x in v]
    return v


def stretch_buckets(series, n, rnd):
    if not isinstance(series, dict) or not series.get("buckets"):
        return
    tpl = series["buckets"][0]
    series["buckets"] = [vary(tpl, rnd) for _ in range(n)]


def main():
    tpl_path, seconds, out_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rnd = random.Random(14)
    doc = json.load(open(tpl_path))
    ts = doc["timespans"][0]
    ts["test_time_seconds"] = seconds
    doc["profile"]["timespans"][0]["duration_s"] = seconds
    stretch_buckets(ts.get("iops_series"), seconds, rnd)
    for t in ts.get("targets", []):
        stretch_buckets(t.get("iops_series"), seconds, rnd)
    for th in ts.get("threads", []):
        for t in th.get("targets", []):
            stretch_buckets(t.get("iops_series"), seconds, rnd)
    rows = [r for r in doc["timeseries"] if r["phase"] == "measuring"]
    per = {}
    for r in rows:
        per.setdefault(r["target"], r)
    out = []
    for i in range(seconds):
        for key in sorted(per, key=lambda k: (k == "total", k)):
            r = vary(copy.deepcopy(per[key]), rnd)
            r["start_ms"], r["end_ms"] = i * 1000, (i + 1) * 1000
            out.append(r)
    doc["timeseries"] = out
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=2)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a curve document (--curve -Rjson): it validates against
schema/iospd-curve.schema.json, each point's results against
schema/iospd-results.schema.json, and each point's figures are those of its
own results (IOPS and MiB/s from the total I/O count and bytes over the
measured seconds, -o, -t and -b from its profile), the verdict holds the
knee's numbers. Optional key=value expectations after the file:
  points=N  planned=1,2,4  stopped=WORD  cap=WORD  phases=curve,curve,...
  outstanding=1,2,4  verdict~TEXT (a verdict line contains TEXT)
Usage: curve_check.py SRC_DIR FILE [expectation...]"""
import json
import sys

import jsonschema

src, path = sys.argv[1], sys.argv[2]
curve_schema = json.load(open(src + "/schema/iospd-curve.schema.json"))
results_schema = json.load(open(src + "/schema/iospd-results.schema.json"))
d = json.load(open(path))
jsonschema.validate(d, curve_schema)
errs = []
for p in d["points"]:
    r = p["results"]
    if r is None:
        if not p.get("failed"):
            errs.append("point %d has no results" % p["n"])
        continue
    jsonschema.validate(r, results_schema)
    ts = r["timespans"][0]
    tot = ts["total"]["total"]
    secs = ts["test_time_seconds"]
    if secs > 0:
        iops = tot["ios"] / secs
        if abs(iops - p["iops"]) > 1e-6 * max(1, iops):
            errs.append("point %d: iops %s, its results say %s" % (p["n"], p["iops"], iops))
        mib = tot["bytes"] / secs / 1048576
        if abs(mib - p["mib_per_s"]) > 1e-6 * max(1, mib):
            errs.append("point %d: mib_per_s %s, results %s" % (p["n"], p["mib_per_s"], mib))
    tgt = r["profile"]["timespans"][0]["targets"][0]
    for key, want in (("block_size", p["block_size"]), ("request_count", p["outstanding"])):
        if tgt.get(key) != want:
            errs.append("point %d: %s %s in its profile, %s in the point" % (p["n"], key, tgt.get(key), want))
    lat = p["latency_us"]
    if lat is not None and not (lat["p50"] <= lat["p99"] <= lat["p99.9"] <= lat["max"]):
        errs.append("point %d: percentiles out of order: %s" % (p["n"], lat))
if d["knee"] is not None:
    k = d["points"][d["knee"]["point"] - 1]
    if k["iops"] != d["knee"]["iops"]:
        errs.append("knee iops is not its point's")
    if not any("%s" % ("{:,.0f}".format(k["iops"])) in v for v in d["verdict"]):
        errs.append("no verdict line names the knee's %.0f IOPS: %s" % (k["iops"], d["verdict"]))
for e in sys.argv[3:]:
    if "~" in e and "=" not in e.split("~")[0]:
        key, want = e.split("~", 1)
        if not any(want in v for v in d["verdict"]):
            errs.append("no verdict line contains %r: %s" % (want, d["verdict"]))
        continue
    key, want = e.split("=", 1)
    if key == "points":
        got = str(len(d["points"]))
    elif key == "planned":
        got = ",".join(str(v) for v in d["axis"]["planned"])
    elif key == "stopped":
        got = d["stopped"]
    elif key == "cap":
        got = d["cap"]["kind"] if d["cap"] else "null"
    elif key == "phases":
        got = ",".join(p["phase"] for p in d["points"])
    elif key == "outstanding":
        got = ",".join(str(p["outstanding"]) for p in d["points"])
    elif key == "interrupted":
        got = str(d["interrupted"]).lower()
    else:
        errs.append("unknown expectation " + e)
        continue
    if got != want:
        errs.append("%s: %s, expected %s" % (key, got, want))
for e in errs:
    print("FAIL:", e)
sys.exit(1 if errs else 0)

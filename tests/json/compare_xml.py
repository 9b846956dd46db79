#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares iospd's JSON results with its XML results of the SAME run (or
the same report fixture): every number the XML prints must be what the JSON
holds, as the XML rounds it.

Usage: compare_xml.py RESULTS.json RESULTS.xml [--real]
--real: a real run, where every I/O has a latency with -L, so each
histogram's count must equal the I/O count of its direction.
Prints each difference; exit 0 when none, 1 otherwise.
"""
import json
import sys
import xml.etree.ElementTree as ET

errors = []
checks = 0


def eq(what, got, want):
    global checks
    checks += 1
    if got != want:
        errors.append("%s: JSON %r, XML %r" % (what, got, want))


def f3(v):
    return "%.3f" % (v if v is not None else 0.0)


def f2(v):
    return "%.2f" % (v if v is not None else 0.0)


def f0(v):
    return "%.0f" % (v if v is not None else 0.0)


def text(el, name):
    c = el.find(name)
    return None if c is None else (c.text or "")


def xml_path(el):
    p = el.find("Path")
    return None if p is None or p.get("Escaped") else (p.text or "")


def compare_iops(where, js, xe):
    """A timespan's or a target's -D series against <Iops>."""
    if xe is None:
        eq(where + " iops_series present", js is not None, False)
        return
    if js is None:
        errors.append(where + ": XML has <Iops>, JSON has no iops_series")
        return
    for key, tag in (("read_iops_stddev", "ReadIopsStdDev"),
                     ("write_iops_stddev", "WriteIopsStdDev"),
                     ("iops_stddev", "IopsStdDev")):
        t = text(xe, tag)
        eq(where + " " + key, None if js[key] is None else f3(js[key]), t)
    xb = xe.findall("Bucket")
    eq(where + " interval count", len(js["buckets"]), len(xb))
    for i, (jb, b) in enumerate(zip(js["buckets"], xb)):
        w = "%s bucket %d" % (where, i)
        eq(w + " sample_ms", str(jb["sample_ms"]), b.get("SampleMillisecond"))
        eq(w + " read", f0(jb["read_iops"]), b.get("Read"))
        eq(w + " write", f0(jb["write_iops"]), b.get("Write"))
        eq(w + " total", f0(jb["total_iops"]), b.get("Total"))
        for d, D in (("read", "Read"), ("write", "Write")):
            lat = jb[d + "_latency"] or {}
            eq(w + " " + d + " min", f3(lat.get("min_ms")), b.get(D + "MinLatencyMilliseconds"))
            eq(w + " " + d + " max", f3(lat.get("max_ms")), b.get(D + "MaxLatencyMilliseconds"))
            eq(w + " " + d + " avg", f3(lat.get("mean_ms")), b.get(D + "AvgLatencyMilliseconds"))
            eq(w + " " + d + " stddev", f3(lat.get("stddev_ms")), b.get(D + "LatencyStdDev"))


def compare_distribution(where, jd, xt):
    xd = xt.find("Distribution")
    if xd is None:
        eq(where + " distribution present", jd is not None, False)
        return
    want = [(int(r.get("IO")), int(r.text)) for r in xd.find("Absolute").findall("Range")]
    got, prev_end = [], 0
    for i, r in enumerate(jd or []):
        if i > 0 and r["offset"] > prev_end:
            got.append((0, r["offset"] - prev_end))  # the hole the XML shows
        got.append((r["io_pct"], r["length"]))
        prev_end = r["offset"] + r["length"]
    eq(where + " distribution", got, want)


def compare_timespan(i, jt, xt, real):
    w = "timespan %d" % i
    measured = xt.find("TestTimeSeconds") is not None
    eq(w + " measured", jt["measured"], measured)
    if text(xt, "Error") is not None:
        eq(w + " error", jt["error"], text(xt, "Error"))
    if not measured:
        return
    eq(w + " test time", f2(jt["test_time_seconds"]), text(xt, "TestTimeSeconds"))
    eq(w + " thread count", str(jt["thread_count"]), text(xt, "ThreadCount"))
    eq(w + " request count", str(jt["request_count"]), text(xt, "RequestCount"))
    eq(w + " proc count", str(jt["proc_count"]), text(xt, "ProcCount"))

    cpu = xt.find("CpuUtilization")
    xc = cpu.findall("CPU")
    eq(w + " cpu count", len(jt["cpu"]["cpus"]), len(xc))
    for k, (jc, c) in enumerate(zip(jt["cpu"]["cpus"], xc)):
        for key, tag in (("id", "Id"), ("socket", "Socket"), ("node", "Node"),
                         ("group", "Group"), ("core", "Core"),
                         ("efficiency_class", "EfficiencyClass")):
            eq("%s cpu %d %s" % (w, k, key), str(jc[key]), text(c, tag))
        for key, tag in (("usage_percent", "UsagePercent"), ("user_percent", "UserPercent"),
                         ("kernel_percent", "KernelPercent"), ("idle_percent", "IdlePercent")):
            eq("%s cpu %d %s" % (w, k, key), f2(jc[key]), text(c, tag))
    avg = cpu.find("Average")
    for key, tag in (("usage_percent", "UsagePercent"), ("idle_percent", "IdlePercent")):
        eq(w + " cpu average " + key, f2(jt["cpu"]["average"][key]), text(avg, tag))

    # Threads and their targets, in order: every count and byte.
    xthreads = xt.findall("Thread")
    eq(w + " threads", len(jt["threads"]), len(xthreads))
    sums = {"read": [0, 0], "write": [0, 0]}
    per_target = {}
    for th, (jth, xth) in enumerate(zip(jt["threads"], xthreads)):
        tw = "%s thread %d" % (w, th)
        eq(tw + " id", str(jth["id"]), text(xth, "Id"))
        if text(xth, "IoEngine") is not None:
            eq(tw + " engine", jth["io_engine"], text(xth, "IoEngine"))
            eq(tw + " engine depth", str(jth["io_engine_depth"]), text(xth, "IoEngineDepth"))
        xtargets = xth.findall("Target")
        eq(tw + " targets", len(jth["targets"]), len(xtargets))
        for k, (jtg, xtg) in enumerate(zip(jth["targets"], xtargets)):
            gw = "%s target %d" % (tw, k)
            if xml_path(xtg) is not None:
                eq(gw + " path", jtg["path"], xml_path(xtg))
            for key, tag in (("bytes", "BytesCount"), ("file_size", "FileSize"),
                             ("ios", "IOCount"), ("read_bytes", "ReadBytes"),
                             ("read_ios", "ReadCount"), ("write_bytes", "WriteBytes"),
                             ("write_ios", "WriteCount")):
                eq(gw + " " + key, str(jtg[key]), text(xtg, tag))
            for d, D in (("read", "Read"), ("write", "Write")):
                x_avg = text(xtg, "Average%sLatencyMilliseconds" % D)
                j = jtg.get(d + "_latency")
                eq(gw + " " + d + " latency present", j is not None, x_avg is not None)
                if j is not None and x_avg is not None:
                    eq(gw + " " + d + " mean", f3(j["mean_ms"]), x_avg)
                    eq(gw + " " + d + " stddev", f3(j["stddev_ms"]), text(xtg, D + "LatencyStdev"))
            compare_distribution(gw, jtg.get("distribution"), xtg)
            compare_iops(gw, jtg.get("iops_series"), xtg.find("Iops"))
            sums["read"][0] += int(text(xtg, "ReadCount"))
            sums["read"][1] += int(text(xtg, "ReadBytes"))
            sums["write"][0] += int(text(xtg, "WriteCount"))
            sums["write"][1] += int(text(xtg, "WriteBytes"))
            t = per_target.setdefault(jtg["target_index"], [0, 0, 0, 0])
            t[0] += int(text(xtg, "ReadCount"))
            t[1] += int(text(xtg, "ReadBytes"))
            t[2] += int(text(xtg, "WriteCount"))
            t[3] += int(text(xtg, "WriteBytes"))
        xw = xth.find("WaitStatistics")
        if xw is not None:
            jw = jth["wait_statistics"]
            eq(tw + " completion wait", str(jw["completion_wait"]), text(xw, "CompletionWait"))
            eq(tw + " lookaside hist", " ".join(str(v) for v in jw["lookaside_completion"]),
               text(xw, "LookasideCompletion"))

    # Totals: the XML's thread rows summed.
    tot = jt["total"]
    for d in ("read", "write"):
        eq(w + " total " + d + " ios", tot[d]["ios"], sums[d][0])
        eq(w + " total " + d + " bytes", tot[d]["bytes"], sums[d][1])
    eq(w + " total ios", tot["total"]["ios"], sums["read"][0] + sums["write"][0])
    eq(w + " total bytes", tot["total"]["bytes"], sums["read"][1] + sums["write"][1])
    for jtg in jt["targets"]:
        want = per_target.get(jtg["target_index"], [0, 0, 0, 0])
        d = jtg["directions"]
        eq("%s target total %d" % (w, jtg["target_index"]),
           [d["read"]["ios"], d["read"]["bytes"], d["write"]["ios"], d["write"]["bytes"]], want)

    # Latency: means, stddevs, histogram bucket counts and every percentile.
    xl = xt.find("Latency")
    if xl is None:
        for d in ("read", "write", "total"):
            eq(w + " " + d + " latency", tot[d]["latency"], None)
    else:
        cols = {"read": ("Read", "AverageReadMilliseconds", "ReadLatencyStdev", "ReadMilliseconds"),
                "write": ("Write", "AverageWriteMilliseconds", "WriteLatencyStdev", "WriteMilliseconds"),
                "total": ("Total", "AverageTotalMilliseconds", "LatencyStdev", "TotalMilliseconds")}
        for d, (D, avg_tag, sd_tag, col) in cols.items():
            lat = tot[d]["latency"]
            nb = len(lat["histogram"]["buckets"]) if lat else 0
            eq(w + " " + d + " histogram buckets", str(nb), xl.get(D + "HistoBuckets"))
            if text(xl, avg_tag) is None:
                eq(w + " " + d + " latency", lat, None)
                continue
            eq(w + " " + d + " mean", f3(lat["mean_ms"]), text(xl, avg_tag))
            eq(w + " " + d + " stddev", f3(lat["stddev_ms"]), text(xl, sd_tag))
            pj = {p["percentile"]: p["ms"] for p in lat["percentiles"]}
            xb = xl.findall("Bucket")
            eq(w + " " + d + " percentile count", len(pj), len(xb))
            for b in xb:
                label = text(b, "Percentile")
                eq("%s %s p%s" % (w, d, label), f3(pj.get(label)), text(b, col))
            if real:
                eq(w + " " + d + " histogram count = ios", lat["histogram"]["count"], tot[d]["ios"])
    compare_iops(w, jt.get("iops_series"), xt.find("Iops"))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    real = "--real" in sys.argv[3:]
    with open(sys.argv[1], encoding="utf-8") as f:
        js = json.load(f)
    x = ET.parse(sys.argv[2]).getroot()
    sysx = x.find("System")
    if "\ufffd" not in js["system"]["computer_name"]:
        eq("computer name", js["system"]["computer_name"], text(sysx, "ComputerName"))
    rt = js["system"]["run_time"]  # 2026-12-01T18:00:00Z vs 2026/12/01 18:00:00 UTC
    eq("run time", "%d/%s/%s %s UTC" % (int(rt[0:4]), rt[5:7], rt[8:10], rt[11:19]),
       text(sysx, "RunTime"))
    topo = sysx.find("ProcessorTopology")
    eq("topology groups", [(g["group"], g["active_mask"]) for g in js["system"]["processor_topology"]["groups"]],
       [(int(g.get("Group")), g.get("ActiveProcessorMask")) for g in topo.findall("Group")])
    eq("topology cores", [(c["core"], c["mask"]) for c in js["system"]["processor_topology"]["cores"]],
       [(int(c.get("Core")), c.get("Mask")) for c in topo.findall("Core")])
    prof = x.find("Profile")
    xts = prof.find("TimeSpans").findall("TimeSpan")
    jts = js["profile"]["timespans"]
    eq("profile timespans", len(jts), len(xts))
    for i, (jp, xp) in enumerate(zip(jts, xts)):
        for key, tag in (("duration_s", "Duration"), ("warmup_s", "Warmup"),
                         ("cooldown_s", "Cooldown"), ("thread_count", "ThreadCount"),
                         ("request_count", "RequestCount"), ("io_bucket_ms", "IoBucketDuration"),
                         ("rand_seed", "RandSeed")):
            eq("profile timespan %d %s" % (i, key), str(jp[key]), text(xp, tag))
        xtg = xp.find("Targets").findall("Target")
        eq("profile timespan %d targets" % i, len(jp["targets"]), len(xtg))
        for k, (jt, xg) in enumerate(zip(jp["targets"], xtg)):
            if xml_path(xg) is not None:
                eq("profile target %d.%d path" % (i, k), jt["path"], xml_path(xg))
            for key, tag in (("block_size", "BlockSize"), ("request_count", "RequestCount"),
                             ("write_ratio", "WriteRatio"), ("threads_per_file", "ThreadsPerFile"),
                             ("max_file_size", "MaxFileSize"), ("base_file_offset", "BaseFileOffset")):
                eq("profile target %d.%d %s" % (i, k, key), str(jt[key]), text(xg, tag))
    xspans = x.findall("TimeSpan")
    eq("timespans", len(js["timespans"]), len(xspans))
    for i, (jt, xt) in enumerate(zip(js["timespans"], xspans)):
        compare_timespan(i, jt, xt, real)
    for e in errors[:40]:
        print("DIFF: " + e)
    print("%s vs %s: %d checks, %d differences" % (sys.argv[1], sys.argv[2], checks, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

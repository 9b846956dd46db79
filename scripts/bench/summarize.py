#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Summariser for scripts/bench/vs-fio.sh: reads the raw iospd XML, fio JSON
# and rusage files of one benchmark run, computes medians, per-pair ratios and
# CPU seconds per million I/Os, checks the issue #5 targets and writes
# results.md / results.csv / runs.csv. Python 3 standard library only.
"""usage: summarize.py RESULTS_DIR

RESULTS_DIR holds what vs-fio.sh wrote: meta.tsv (key<TAB>value),
workloads.tsv (id<TAB>title) and runs.tsv (one line per run:
workload pair tool engine output rusage warmup seconds command)."""

import csv
import json
import math
import os
import statistics
import sys
import xml.etree.ElementTree as ET

# ---------------------------------------------------------------------------
# Targets of issue #5. IOPS: median per-pair ratio iospd/fio; CPU: ratio of
# the median CPU seconds per million I/Os; latency: ratio of the median mean
# latency (QD1); -L cost: 1 - median per-pair ratio iospd(-L)/iospd(no -L).
IOPS_TARGET = {"1": 1.00, "2": 1.00, "3": 1.10, "4": 1.10, "5": 1.00,
               "6": 1.00, "7": 1.00}
CPU_TARGET = {"1": 0.90, "3": 0.90, "4": 0.90}
LAT_MEAN_TARGET = {"2": 1.02}
L_COST_TARGET = 0.03
L_WORKLOAD = "L"
# Cost checks: iospd against itself in pairs. id -> (tool of the run with the
# feature, tool of the run without, largest accepted cost, what it measures,
# the row's name for the baseline). S (issue #13): live status plus time
# series (with -L) against -L alone.
COST_CHECKS = {
    "L": ("iospd", "iospd_nolat", L_COST_TARGET, "-L cost",
          "-L cost (workload 3, iospd with -L vs without", "iospd without -L"),
    "S": ("iospd_series", "iospd", 0.01, "status+series cost",
          "status + time series cost (workload 3 with -L, iospd with "
          "--progress=always --timeseries vs without", "iospd -L only"),
}


class ParseError(Exception):
    pass


# ---------------------------------------------------------------------------
# Parsers. Each returns a dict: iops, ios, lat_mean_ms, lat_p99_ms (the last
# two None when the tool measured no latency).

def parse_iospd_xml(text):
    """IOPS = sum of Thread/Target/IOCount over TestTimeSeconds; mean from
    Latency/AverageTotalMilliseconds, p99 from the Latency/Bucket whose
    Percentile is 99 (TotalMilliseconds)."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise ParseError("iospd XML does not parse: %s" % e)
    ts = root.find("TimeSpan")
    if ts is None or ts.find("TestTimeSeconds") is None:
        raise ParseError("iospd XML has no TimeSpan/TestTimeSeconds")
    secs = float(ts.findtext("TestTimeSeconds"))
    ios = 0
    for tgt in ts.findall("Thread/Target"):
        ios += int(tgt.findtext("IOCount", "0"))
    if secs <= 0:
        raise ParseError("iospd XML: TestTimeSeconds is %s" % secs)
    res = {"iops": ios / secs, "ios": ios, "seconds": secs,
           "lat_mean_ms": None, "lat_p99_ms": None}
    lat = ts.find("Latency")
    if lat is not None:
        mean = lat.findtext("AverageTotalMilliseconds")
        if mean is not None:
            res["lat_mean_ms"] = float(mean)
        for b in lat.findall("Bucket"):
            if float(b.findtext("Percentile", "-1")) == 99.0:
                val = b.findtext("TotalMilliseconds")
                if val is not None:
                    res["lat_p99_ms"] = float(val)
    return res


def fio_percentile_from_bins(bins_list, pct):
    """fio's own method (stat.c calc_clat_percentiles): walk the merged
    histogram and return the first bucket value whose cumulative count
    reaches pct% of all samples."""
    merged = {}
    for bins in bins_list:
        for val, n in bins.items():
            merged[int(val)] = merged.get(int(val), 0) + int(n)
    total = sum(merged.values())
    if total == 0:
        return None
    need = pct / 100.0 * total
    run = 0
    for val in sorted(merged):
        run += merged[val]
        if run >= need:
            return val
    return max(merged)


def parse_fio_json(text):
    """IOPS = sum of read.iops + write.iops over all jobs; mean latency is
    lat_ns (submission to completion, the span iospd measures) weighted by
    sample count; p99 is fio's clat p99 (its default percentiles). With
    several directions/jobs the p99 is merged exactly from the json+ bins
    when present; otherwise the largest p99 is taken (marked approximate)."""
    start = text.find("{")
    if start < 0:
        raise ParseError("fio output holds no JSON")
    try:
        doc = json.loads(text[start:])
    except ValueError as e:
        raise ParseError("fio JSON does not parse: %s" % e)
    jobs = doc.get("jobs") or []
    if not jobs:
        raise ParseError("fio JSON has no jobs")
    iops = 0.0
    ios = 0
    lat_sum = 0.0
    lat_n = 0
    clat_sum = 0.0
    p99s = []
    bins = []
    for job in jobs:
        if job.get("error"):
            raise ParseError("fio job %s failed: error %s"
                             % (job.get("jobname"), job.get("error")))
        for d in ("read", "write"):
            s = job.get(d)
            if not s or not s.get("total_ios"):
                continue
            iops += float(s["iops"])
            ios += int(s["total_ios"])
            lat = s.get("lat_ns", {})
            clat = s.get("clat_ns", {})
            n = int(lat.get("N", 0))
            lat_sum += float(lat.get("mean", 0.0)) * n
            clat_sum += float(clat.get("mean", 0.0)) * n
            lat_n += n
            pct = clat.get("percentile", {})
            for key, val in pct.items():
                if float(key) == 99.0:
                    p99s.append(float(val))
            if "bins" in clat:
                bins.append(clat["bins"])
    res = {"iops": iops, "ios": ios, "lat_mean_ms": None,
           "clat_mean_ms": None, "lat_p99_ms": None, "p99_approx": False}
    if lat_n:
        res["lat_mean_ms"] = lat_sum / lat_n / 1e6
        res["clat_mean_ms"] = clat_sum / lat_n / 1e6
    if len(p99s) == 1:
        res["lat_p99_ms"] = p99s[0] / 1e6
    elif p99s and len(bins) == len(p99s):
        res["lat_p99_ms"] = fio_percentile_from_bins(bins, 99.0) / 1e6
    elif p99s:
        res["lat_p99_ms"] = max(p99s) / 1e6
        res["p99_approx"] = True
    return res


def cpu_per_mio(rusage, result, warmup):
    """CPU seconds (user+sys of the whole process) per million I/Os. Neither
    tool counts the I/Os of its warm-up, but both spend CPU on them, so the
    I/Os done are estimated as the counted ones plus IOPS x warm-up."""
    cpu = float(rusage["user"]) + float(rusage["sys"])
    done = result["ios"] + result["iops"] * float(warmup)
    if done <= 0:
        return None
    return cpu / done * 1e6


# ---------------------------------------------------------------------------
# Aggregation.

def median(values):
    vals = [v for v in values if v is not None]
    return statistics.median(vals) if vals else None


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def load_tsv(path):
    with open(path, newline="") as f:
        return [row for row in csv.reader(f, delimiter="\t") if row]


def load_runs(resdir):
    """Reads runs.tsv and parses every run. A run that failed keeps its
    error text and no numbers, so the summary can say what is missing."""
    runs = []
    for row in load_tsv(os.path.join(resdir, "runs.tsv")):
        if row[0] == "workload":
            continue
        wl, pair, tool, engine, out, rus, warm, secs = row[:8]
        cmd = row[8] if len(row) > 8 else ""
        run = {"workload": wl, "pair": int(pair), "tool": tool,
               "engine": engine, "warmup": float(warm),
               "seconds": float(secs), "command": cmd, "error": None,
               "result": None, "cpu_per_mio": None, "cpu_s": None}
        outp = os.path.join(resdir, out)
        rusp = os.path.join(resdir, rus)
        try:
            with open(rusp) as f:
                ru = json.load(f)
            run["cpu_s"] = float(ru["user"]) + float(ru["sys"])
            if int(ru.get("status", 0)) != 0:
                raise ParseError("exit code %s%s" % (
                    ru.get("status"),
                    " (timed out)" if ru.get("timed_out") else ""))
            with open(outp, errors="replace") as f:
                text = f.read()
            if tool.startswith("iospd"):
                res = parse_iospd_xml(text)
            else:
                res = parse_fio_json(text)
            run["result"] = res
            run["cpu_per_mio"] = cpu_per_mio(ru, res, warm)
        except (OSError, ValueError, KeyError, ParseError) as e:
            run["error"] = str(e)
        runs.append(run)
    return runs


def tool_stats(runs):
    ok = [r for r in runs if r["result"]]
    return {
        "runs": len(runs),
        "ok": len(ok),
        "iops": median(r["result"]["iops"] for r in ok),
        "cpu_per_mio": median(r["cpu_per_mio"] for r in ok),
        "lat_mean_ms": median(r["result"]["lat_mean_ms"] for r in ok),
        "lat_p99_ms": median(r["result"]["lat_p99_ms"] for r in ok),
        "p99_approx": any(r["result"].get("p99_approx") for r in ok),
    }


def pair_ratios(a_runs, b_runs):
    """Per-pair IOPS ratios a/b, pairing runs by their pair number."""
    b_by_pair = {r["pair"]: r for r in b_runs if r["result"]}
    out = []
    for r in sorted(a_runs, key=lambda r: r["pair"]):
        other = b_by_pair.get(r["pair"])
        if r["result"] and other and other["result"]["iops"] > 0:
            out.append(r["result"]["iops"] / other["result"]["iops"])
    return out


def median_interval(values, conf=0.95):
    """A distribution-free interval for the median of the per-pair ratios
    (the sign test's): the k-th smallest and k-th largest ratio, with the
    largest k whose coverage, 1 - 2 P(Bin(n, 1/2) < k), is still at least
    conf. Fewer than 6 pairs cannot reach 95 %: then the whole range, with
    the coverage it really has. Returns (low, high, coverage) or None."""
    vals = sorted(v for v in values if v is not None)
    n = len(vals)
    if n < 2:
        return None

    def coverage(k):
        below = sum(math.comb(n, i) for i in range(k)) / 2.0 ** n
        return 1.0 - 2.0 * below

    k = 1
    while k + 1 <= n // 2 and coverage(k + 1) >= conf:
        k += 1
    return vals[k - 1], vals[n - k], coverage(k)


def sureness(interval, limit):
    """Whether the pairs tell the median ratio from the limit: "above" or
    "below" when the whole interval lies on one side, else "undecided"."""
    if interval is None or limit is None:
        return "undecided"
    lo, hi, _ = interval
    if lo >= limit:
        return "above"
    if hi < limit:
        return "below"
    return "undecided"


SURENESS_TEXT = {
    "above": "met: the whole interval is above the target",
    "below": "missed: the whole interval is below the target",
    "undecided": "not decided by these pairs: the interval straddles the "
                 "target",
}


def verdict(value, limit, higher_is_better):
    if value is None:
        return "NO DATA"
    ok = value >= limit if higher_is_better else value <= limit
    return "PASS" if ok else "MISS"


def summarize_workload(wl, runs):
    """One workload: picks the faster fio engine (highest median IOPS) as
    "fio", then computes medians, pair ratios and the target verdicts."""
    mine = [r for r in runs if r["workload"] == wl]
    if wl in COST_CHECKS:
        tool_with, tool_without, limit, name, _, _ = COST_CHECKS[wl]
        with_l = [r for r in mine if r["tool"] == tool_with]
        without = [r for r in mine if r["tool"] == tool_without]
        ratios = pair_ratios(with_l, without)
        med = median(ratios)
        cost = None if med is None else 1.0 - med
        return {"id": wl, "kind": "lcost",
                "iospd": tool_stats(with_l), "nolat": tool_stats(without),
                "ratios": ratios, "ratio_med": med,
                "interval": median_interval(ratios),
                "interval_limit": 1.0 - limit,
                "ratio_min": min(ratios) if ratios else None,
                "ratio_max": max(ratios) if ratios else None,
                "l_cost": cost,
                "targets": [("%s <= %g %%" % (name, limit * 100),
                             verdict(cost, limit, False))],
                "errors": [r for r in mine if r["error"]]}
    iospd_runs = [r for r in mine if r["tool"] == "iospd"]
    engines = {}
    for r in mine:
        if r["tool"] == "fio":
            engines.setdefault(r["engine"], []).append(r)
    engine_stats = {e: tool_stats(rs) for e, rs in engines.items()}
    best = None
    for e in sorted(engine_stats):
        st = engine_stats[e]
        if st["iops"] is not None and (
                best is None or st["iops"] > engine_stats[best]["iops"]):
            best = e
    fio_runs = engines.get(best, []) if best else []
    ist = tool_stats(iospd_runs)
    fst = tool_stats(fio_runs)
    ratios = pair_ratios(iospd_runs, fio_runs)
    s = {"id": wl, "kind": "vs", "iospd": ist, "fio": fst,
         "fio_engine": best, "engines": engine_stats,
         "ratios": ratios, "ratio_med": median(ratios),
         "ratio_min": min(ratios) if ratios else None,
         "ratio_max": max(ratios) if ratios else None,
         "interval": median_interval(ratios),
         "interval_limit": IOPS_TARGET.get(wl),
         "cpu_ratio": ratio(ist["cpu_per_mio"], fst["cpu_per_mio"]),
         "lat_mean_ratio": ratio(ist["lat_mean_ms"], fst["lat_mean_ms"]),
         "lat_p99_ratio": ratio(ist["lat_p99_ms"], fst["lat_p99_ms"]),
         "errors": [r for r in mine if r["error"]]}
    targets = []
    if wl in IOPS_TARGET:
        lim = IOPS_TARGET[wl]
        targets.append(("IOPS ratio >= %.2f" % lim,
                        verdict(s["ratio_med"], lim, True)))
    if wl in CPU_TARGET:
        lim = CPU_TARGET[wl]
        targets.append(("CPU/IO ratio <= %.2f" % lim,
                        verdict(s["cpu_ratio"], lim, False)))
    if wl in LAT_MEAN_TARGET:
        lim = LAT_MEAN_TARGET[wl]
        targets.append(("mean latency <= fio + %d %%" % round(
            (lim - 1) * 100), verdict(s["lat_mean_ratio"], lim, False)))
    s["targets"] = targets
    return s


# ---------------------------------------------------------------------------
# Output.

def fmt(v, spec="%.0f"):
    return "-" if v is None else spec % v


def fmt_ratio(v):
    return fmt(v, "%.3f")


def fmt_ms(v):
    return fmt(v, "%.4f")


def order_key(wl):
    return (1, wl) if not wl.isdigit() else (0, "%03d" % int(wl))


def build_markdown(meta, titles, sums, runs):
    lines = ["# iospd vs fio", ""]
    for key in ("date", "host", "cpu", "cores", "kernel", "fio", "iospd",
                "iospd_engine", "fs", "thp", "dir", "file_size", "seconds", "warmup", "pairs",
                "order", "affinity", "load_start", "load_end"):
        if key in meta:
            lines.append("- %s: %s" % (key, meta[key]))
    lines += ["",
              "IOPS: median over runs; ratio: iospd/fio per A-B pair "
              "(median [min..max]). CPU: user+sys seconds of the whole "
              "process per million I/Os (warm-up I/Os estimated as "
              "IOPS x warm-up). Latency in ms: iospd issue-to-completion; "
              "fio mean = lat (submit-to-completion), fio p99 = clat p99.",
              "",
              "| # | workload | iospd IOPS | fio IOPS (engine) | IOPS ratio "
              "med [min..max] | CPU s/MIO iospd | CPU s/MIO fio | CPU ratio "
              "| mean ms iospd / fio | p99 ms iospd / fio | targets |",
              "|---|---|---:|---:|---|---:|---:|---:|---|---|---|"]
    costs = []
    for s in sums:
        if s["kind"] == "lcost":
            costs.append(s)
            continue
        i, f = s["iospd"], s["fio"]
        tg = "; ".join("%s %s" % (v, n) for n, v in s["targets"]) or "-"
        p99f = fmt_ms(f["lat_p99_ms"]) + ("~" if f["p99_approx"] else "")
        lines.append(
            "| %s | %s | %s | %s (%s) | %s [%s..%s] | %s | %s | %s | %s / %s "
            "| %s / %s | %s |" % (
                s["id"], titles.get(s["id"], ""), fmt(i["iops"]),
                fmt(f["iops"]), s["fio_engine"] or "-",
                fmt_ratio(s["ratio_med"]), fmt_ratio(s["ratio_min"]),
                fmt_ratio(s["ratio_max"]), fmt(i["cpu_per_mio"], "%.2f"),
                fmt(f["cpu_per_mio"], "%.2f"), fmt_ratio(s["cpu_ratio"]),
                fmt_ms(i["lat_mean_ms"]), fmt_ms(f["lat_mean_ms"]),
                fmt_ms(i["lat_p99_ms"]), p99f, tg))
    for lcost in costs:
        lines += ["",
                  "%s, %d "
                  "pair%s): IOPS ratio median %s [%s..%s], cost %s -> %s" % (
                      COST_CHECKS[lcost["id"]][4],
                      len(lcost["ratios"]),
                      "" if len(lcost["ratios"]) == 1 else "s",
                      fmt_ratio(lcost["ratio_med"]),
                      fmt_ratio(lcost["ratio_min"]),
                      fmt_ratio(lcost["ratio_max"]),
                      fmt(None if lcost["l_cost"] is None
                          else lcost["l_cost"] * 100, "%.2f %%"),
                      lcost["targets"][0][1])]
    sure = [s for s in sums if s["interval"] and s["interval_limit"]]
    if sure:
        lines += ["", "How sure: the PASS/MISS above follow the issue's "
                  "rule, the median alone. Here each IOPS ratio median gets "
                  "a distribution-free interval (the sign test's, from the "
                  "per-pair ratios). Only when the whole interval lies on "
                  "one side of the target do the pairs show it met or "
                  "missed; otherwise it takes more pairs or a quieter "
                  "machine to tell.", ""]
        for s in sure:
            lo, hi, cov = s["interval"]
            lines.append("- workload %s: median %s, %.1f %% interval "
                         "%s..%s, target %.2f: %s" % (
                             s["id"], fmt_ratio(s["ratio_med"]), cov * 100,
                             fmt_ratio(lo), fmt_ratio(hi),
                             s["interval_limit"],
                             SURENESS_TEXT[sureness(s["interval"],
                                                    s["interval_limit"])]))
    multi = [s for s in sums if s["kind"] == "vs" and len(s["engines"]) > 1]
    if multi:
        lines += ["", "fio engines tried (median IOPS):"]
        for s in multi:
            lines.append("- workload %s: %s" % (s["id"], ", ".join(
                "%s %s" % (e, fmt(st["iops"]))
                for e, st in sorted(s["engines"].items()))))
    failed = [r for s in sums for r in s["errors"]]
    if failed:
        lines += ["", "Failed runs:"]
        for r in failed:
            lines.append("- workload %s pair %d %s %s: %s" % (
                r["workload"], r["pair"], r["tool"], r["engine"],
                r["error"]))
    lines += ["", "Command lines (pair 1):", "", "```"]
    seen = set()
    for r in sorted(runs, key=lambda r: (order_key(r["workload"]),
                                         r["pair"])):
        key = (r["workload"], r["tool"], r["engine"])
        if key in seen or not r["command"]:
            continue
        seen.add(key)
        lines.append("# %s %s%s" % (r["workload"], r["tool"],
                                    " " + r["engine"] if r["engine"] != "-"
                                    else ""))
        lines.append(r["command"])
    lines += ["```", ""]
    return "\n".join(lines)


CSV_FIELDS = ["workload", "title", "iospd_iops", "fio_iops", "fio_engine",
              "iops_ratio_median", "iops_ratio_min", "iops_ratio_max",
              "pairs", "iops_ratio_interval_low", "iops_ratio_interval_high",
              "interval_coverage", "interval_vs_target",
              "iospd_cpu_s_per_mio", "fio_cpu_s_per_mio",
              "cpu_ratio", "iospd_lat_mean_ms", "fio_lat_mean_ms",
              "lat_mean_ratio", "iospd_lat_p99_ms", "fio_lat_p99_ms",
              "lat_p99_ratio", "targets"]
# The machine and tool versions go on every row so one CSV line is
# self-describing when rows of several machines are pasted together.
META_FIELDS = ["date", "host", "cpu", "cores", "kernel", "fio", "iospd", "fs",
               "thp", "file_size", "seconds", "warmup"]


def csv_rows(meta, titles, sums):
    rows = []
    for s in sums:
        if s["kind"] == "lcost":
            i, f = s["iospd"], s["nolat"]
            engine = COST_CHECKS[s["id"]][5]
        else:
            i, f = s["iospd"], s["fio"]
            engine = s["fio_engine"] or ""
        iv = s["interval"]
        rows.append({
            "workload": s["id"], "title": titles.get(s["id"], ""),
            "iospd_iops": i["iops"], "fio_iops": f["iops"],
            "fio_engine": engine, "iops_ratio_median": s["ratio_med"],
            "iops_ratio_min": s["ratio_min"],
            "iops_ratio_max": s["ratio_max"], "pairs": len(s["ratios"]),
            "iops_ratio_interval_low": iv[0] if iv else None,
            "iops_ratio_interval_high": iv[1] if iv else None,
            "interval_coverage": round(iv[2], 4) if iv else None,
            "interval_vs_target": (sureness(iv, s["interval_limit"])
                                   if iv and s["interval_limit"] else None),
            "iospd_cpu_s_per_mio": i["cpu_per_mio"],
            "fio_cpu_s_per_mio": f["cpu_per_mio"],
            "cpu_ratio": s.get("cpu_ratio"),
            "iospd_lat_mean_ms": i["lat_mean_ms"],
            "fio_lat_mean_ms": f["lat_mean_ms"],
            "lat_mean_ratio": s.get("lat_mean_ratio"),
            "iospd_lat_p99_ms": i["lat_p99_ms"],
            "fio_lat_p99_ms": f["lat_p99_ms"],
            "lat_p99_ratio": s.get("lat_p99_ratio"),
            "targets": "; ".join("%s %s" % (v, n) for n, v in s["targets"]),
        })
        rows[-1].update({k: meta.get(k) for k in META_FIELDS})
    return rows


def write_csv(path, fields, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for row in rows:
            w.writerow({k: ("" if row.get(k) is None else row.get(k))
                        for k in fields})


RUN_FIELDS = ["workload", "pair", "tool", "engine", "iops", "ios",
              "cpu_s", "cpu_s_per_mio", "lat_mean_ms", "lat_p99_ms",
              "error"]


def run_rows(runs):
    rows = []
    for r in runs:
        res = r["result"] or {}
        rows.append({"workload": r["workload"], "pair": r["pair"],
                     "tool": r["tool"], "engine": r["engine"],
                     "iops": res.get("iops"), "ios": res.get("ios"),
                     "cpu_s": r["cpu_s"], "cpu_s_per_mio": r["cpu_per_mio"],
                     "lat_mean_ms": res.get("lat_mean_ms"),
                     "lat_p99_ms": res.get("lat_p99_ms"),
                     "error": r["error"]})
    return rows


def summarize_dir(resdir):
    """Writes results.md, results.csv and runs.csv into resdir; returns
    (markdown text, list of workload summaries)."""
    meta = {}
    mpath = os.path.join(resdir, "meta.tsv")
    if os.path.exists(mpath):
        for row in load_tsv(mpath):
            meta[row[0]] = row[1] if len(row) > 1 else ""
    titles = {}
    wpath = os.path.join(resdir, "workloads.tsv")
    if os.path.exists(wpath):
        for row in load_tsv(wpath):
            titles[row[0]] = row[1] if len(row) > 1 else ""
    runs = load_runs(resdir)
    ids = sorted({r["workload"] for r in runs}, key=order_key)
    sums = [summarize_workload(wl, runs) for wl in ids]
    md = build_markdown(meta, titles, sums, runs)
    with open(os.path.join(resdir, "results.md"), "w") as f:
        f.write(md)
    write_csv(os.path.join(resdir, "results.csv"), CSV_FIELDS + META_FIELDS,
              csv_rows(meta, titles, sums))
    write_csv(os.path.join(resdir, "runs.csv"), RUN_FIELDS, run_rows(runs))
    return md, sums


def main(argv):
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 3
    md, sums = summarize_dir(argv[0])
    sys.stdout.write(md)
    print("Targets:")
    for s in sums:
        for name, v in s["targets"]:
            print("  workload %-2s %-28s %s" % (s["id"], name, v))
    print("Written: %s" % ", ".join(
        os.path.join(argv[0], n)
        for n in ("results.md", "results.csv", "runs.csv")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

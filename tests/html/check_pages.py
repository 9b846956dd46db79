#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Opens the HTML page of a curve or PTS document (iospd --report X.json)
in headless Chromium with the network off and checks that what the browser
lays out sits where the document's values say: every value is placed on
the chart's axes (read from the plot's data attributes: its pixel box and
the values at its ends) and compared with the centre of the circle, line or
band the browser drew, within 1.5 pixels. The values come from the JSON
document, not from the page.
  curve: each point at (IOPS, the limit's statistic or p99 in ms) on the
  hockey stick, the limit line at the limit, the knee and the answer at
  theirs, IOPS against the axis value;
  pts: the window's rounds at their values, the mean line, the +-10 % and
  +-20 % bands, the fitted line's ends, the convergence plot's tracked
  values, the matrix plot's last round.
Usage: check_pages.py PAGE.html DOC.json"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from check_report import png_colours  # noqa: E402

FAILS = []
TOL = 1.5


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL: " + what)


FACTS = r"""
(() => {
  const out = {};
  for (const f of document.querySelectorAll('figure[data-chart]')) {
    const g = f.querySelector('g[data-plot]');
    if (!g) continue;
    const a = k => g.getAttribute(k);
    const c = {plot: {px0: +a('data-px0'), px1: +a('data-px1'),
                      py0: +a('data-py0'), py1: +a('data-py1'),
                      xa: a('data-x-axis'), xlo: +a('data-x-lo'),
                      xhi: +a('data-x-hi'), ya: a('data-y-axis'),
                      ylo: +a('data-y-lo'), yhi: +a('data-y-hi')},
               dots: {}, hlines: {}, bands: {}, marks: {}, paths: {}};
    const centre = el => { const b = el.getBBox();
      return [b.x + b.width / 2, b.y + b.height / 2]; };
    for (const d of f.querySelectorAll('g[data-dots]'))
      c.dots[d.getAttribute('data-dots')] = Array.from(
        d.querySelectorAll('circle')).map(centre);
    for (const l of f.querySelectorAll('line[data-hline]'))
      c.hlines[l.getAttribute('data-hline')] = centre(l)[1];
    for (const b of f.querySelectorAll('rect[data-band]')) {
      const bb = b.getBBox();
      c.bands[b.getAttribute('data-band')] = [bb.y, bb.y + bb.height];
    }
    for (const m of f.querySelectorAll('g[data-mark]'))
      c.marks[m.getAttribute('data-mark')] = centre(m.querySelector('circle'));
    for (const p of f.querySelectorAll('path[data-series]')) {
      const n = p.getTotalLength();
      const s = p.getPointAtLength(0), e = p.getPointAtLength(n);
      c.paths[p.getAttribute('data-series')] = [[s.x, s.y], [e.x, e.y]];
    }
    out[f.getAttribute('data-chart')] = c;
  }
  return {charts: out, ready: document.documentElement.getAttribute('data-ready')};
})()
"""


def place(plot, axis, v):
    if axis == "x":
        kind, lo, hi, p0, p1 = plot["xa"], plot["xlo"], plot["xhi"], plot["px0"], plot["px1"]
    else:
        kind, lo, hi, p0, p1 = plot["ya"], plot["ylo"], plot["yhi"], plot["py0"], plot["py1"]
    if kind == "log":
        v, lo, hi = math.log10(v), math.log10(lo), math.log10(hi)
    return p0 + (v - lo) / (hi - lo) * (p1 - p0)


def near(a, b):
    return abs(a - b) <= TOL


def dots_at(chart, name, values, what):
    """Each (x, y) value has a drawn dot of series `name` at its place."""
    drawn = chart["dots"].get(name)
    check(drawn is not None, "%s: no dots %r" % (what, name))
    if drawn is None:
        return
    check(len(drawn) == len(values), "%s: %d dots for %d values" %
          (what, len(drawn), len(values)))
    plot = chart["plot"]
    for (x, y) in values:
        ex, ey = place(plot, "x", x), place(plot, "y", y)
        check(any(near(ex, dx) and near(ey, dy) for dx, dy in drawn),
              "%s: no dot at (%g, %g), expected at pixel (%.1f, %.1f)" %
              (what, x, y, ex, ey))


def y_at(chart, got, v, what):
    e = place(chart["plot"], "y", v)
    check(got is not None and near(got, e),
          "%s: drawn at y=%s, the value %g is at %.1f" % (what, got, v, e))


def curve(charts, doc):
    hs = charts.get("curve-latency")
    check(hs is not None, "no hockey stick")
    if hs is None:
        return
    lim = doc.get("latency_limit")
    stat = lim["stat"] if lim else "p99"

    def ystat(p):
        if p.get("limit_stat_us") is not None:
            return p["limit_stat_us"] / 1000
        return p["latency_us"][stat] / 1000
    groups = {"points of the curve": ("curve",),
              "bisection and rate points": ("bisect", "rate"),
              "second block size (probe)": ("block_size_probe",)}
    for name, phases in groups.items():
        vals = [(p["iops"], ystat(p)) for p in doc["points"] if p["phase"] in phases]
        if vals:
            dots_at(hs, name, vals, "hockey stick " + name)
    if lim:
        y_at(hs, hs["hlines"].get("limit"), lim["limit_us"] / 1000, "limit line")
    else:
        check("limit" not in hs["hlines"], "a limit line without a limit")
    plot = hs["plot"]
    if doc.get("knee"):
        p = [q for q in doc["points"] if q["n"] == doc["knee"]["point"]][0]
        m = hs["marks"].get("knee")
        check(m is not None and near(m[0], place(plot, "x", p["iops"]))
              and near(m[1], place(plot, "y", ystat(p))),
              "knee mark at %s, not at point %d's values" % (m, p["n"]))
    if doc.get("answer"):
        a = doc["answer"]
        m = hs["marks"].get("answer")
        check(m is not None and near(m[0], place(plot, "x", a["iops"]))
              and near(m[1], place(plot, "y", a["latency_us"] / 1000)),
              "answer mark at %s, not at (%g, %g)" % (m, a["iops"], a["latency_us"]))
    tp = charts.get("curve-throughput")
    sw = doc["axis"]["switch"]
    k = 1024 if sw == "b" else 1
    key = "mib_per_s" if sw == "b" else "iops"
    dots_at(tp, "MiB/s" if sw == "b" else "IOPS",
            [(p["axis_value"] / k, p[key]) for p in doc["points"] if p["phase"] == "curve"],
            "throughput against the axis")
    pc = charts.get("curve-p99")
    dots_at(pc, "p99", [(p["axis_value"] / k, p["latency_us"]["p99"] / 1000)
                        for p in doc["points"] if p["phase"] == "curve"],
            "p99 against the axis")


def pts(charts, doc):
    w = doc["window"]
    metric = doc["tracked"]["metric"]
    sc = 1000 if metric == "mean_latency_us" else 1
    cv = charts.get("pts-convergence")
    tr = doc["tracked"]
    kib = tr["block_size"] // 1024
    name = "tracked: %d KiB %d/%d" % (kib, tr["read_pct"], 100 - tr["read_pct"])
    dots_at(cv, name, [(r["n"], r["tracked_value"] / sc) for r in doc["rounds"]],
            "convergence, tracked")
    if w is None:
        check("pts-window" not in charts, "a window chart without a window")
    else:
        wc = charts.get("pts-window")
        check(wc is not None, "no window chart")
        if wc is None:
            return
        first, mean = w["first_round"], w["mean"] / sc
        dots_at(wc, "tracked value",
                [(first + i, v / sc) for i, v in enumerate(w["values"])], "window")
        y_at(wc, wc["hlines"].get("mean"), mean, "window mean")
        for band, f in (("20", 0.2), ("10", 0.1)):
            got = wc["bands"].get(band)
            check(got is not None, "no +-%s %% band" % band)
            if got:
                y_at(wc, got[1], mean * (1 - f), "band -%s %%" % band)
                y_at(wc, got[0], mean * (1 + f), "band +%s %%" % band)
        fit = wc["paths"].get("fitted line (least squares)")
        n = w["last_round"] - first
        plot = wc["plot"]
        ends = [(first, w["intercept"] / sc), (w["last_round"], (w["intercept"] + w["slope"] * n) / sc)]
        for (x, y), (dx, dy) in zip(ends, fit or []):
            check(abs(dx - place(plot, "x", x)) <= 1.0 + TOL and
                  abs(dy - place(plot, "y", y)) <= 1.0 + TOL,
                  "fitted line end (%g, %g) drawn at (%.1f, %.1f)" % (x, y, dx, dy))
    mp = charts.get("pts-matrix-plot")
    last = doc["rounds"][-1]
    test = doc["test"]
    key = {"throughput": "mib_per_s", "latency": None}.get(test, "iops")
    for m in doc["matrix"]["mixes"]:
        rp = m["read_pct"]
        vals = []
        for bs in doc["matrix"]["block_sizes"]:
            c = [c for c in last["cells"] if c["block_size"] == bs and c["read_pct"] == rp][0]
            vals.append((bs / 1024, c[key] if key else c["latency_us"]["mean"] / 1000))
        dots_at(mp, "%d/%d R/W" % (rp, 100 - rp), vals, "matrix plot %d/%d" % (rp, 100 - rp))


def main():
    page_path, doc_path = sys.argv[1], sys.argv[2]
    doc = json.load(open(doc_path))
    try:
        page = browser.Page()
    except browser.BrowserError as e:
        print("FAIL: cannot start headless chromium: %s" % e)
        return 1
    try:
        url = "file://" + os.path.abspath(page_path)
        page.open(url)
        facts = page.evaluate(FACTS)
        png = page.screenshot()
        errors = page.console_errors()
        requests = [u for u in page.requests() if u != url]
    finally:
        page.close()
    check(errors == [], "console errors: %s" % errors)
    check(requests == [], "requests made: %s" % requests)
    check(facts["ready"] == "1", "the page's script did not run")
    colours, w, h = png_colours(png)
    check(len(colours) >= 8, "screenshot looks blank: %d colours" % len(colours))
    charts = facts["charts"]
    if doc["format"] == "iospd-curve":
        curve(charts, doc)
    else:
        pts(charts, doc)
    print("%s: %d charts placed-checked, %d failures" %
          (os.path.basename(page_path), len(charts), len(FAILS)))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Opens an iospd HTML report in headless Chromium with the network off and
checks it against the JSON results it was made from: no console error, no
request, every chart with the expected series and points (or the note that
replaces it), the headline IOPS and p99 equal to the JSON, the embedded
documents decoding (in the browser) to the inputs, and a screenshot that
is not blank.
Usage: check_report.py REPORT.html RUN.json [RUN2.json ...]
       [--expect-banner] [--shot OUT.png]"""
import json
import math
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL: " + what)


DOM_FACTS = r"""
(() => {
  const charts = {};
  for (const f of document.querySelectorAll('figure[data-chart]')) {
    charts[f.getAttribute('data-chart')] = Array.from(
      f.querySelectorAll('[data-series]')).map(s => ({
        label: s.getAttribute('data-series'),
        points: +s.getAttribute('data-points'),
        drawn: s.tagName === 'path'
          ? (s.getAttribute('d').match(/-?\d+ -?\d+/g) || []).length
          : s.querySelectorAll('rect').length}));
  }
  const notes = Array.from(document.querySelectorAll('[data-note]')).map(
    n => n.getAttribute('data-note'));
  const cells = {};
  for (const c of document.querySelectorAll('td[data-metric]')) {
    cells[[c.dataset.run, c.dataset.timespan, c.dataset.dir,
           c.dataset.metric].join('/')] = c.textContent;
  }
  return {charts, notes, cells,
          ready: document.documentElement.getAttribute('data-ready'),
          scripts: document.querySelectorAll('script').length,
          banner: document.querySelectorAll('.banner').length,
          comparison: document.querySelectorAll('[data-table=comparison] tr').length,
          warnings: Array.from(document.querySelectorAll(
            '[data-list=warnings] li')).map(l => l.textContent),
          text: document.body.innerText};
})()
"""

DECODE = r"""
(async () => {
  const out = [];
  for (const el of document.querySelectorAll('script[data-encoding]')) {
    const bin = atob(JSON.parse(el.textContent));
    const u = Uint8Array.from(bin, c => c.charCodeAt(0));
    const s = new Blob([u]).stream().pipeThrough(
      new DecompressionStream('deflate'));
    out.push({id: el.id, kind: el.dataset.kind,
              text: await new Response(s).text()});
  }
  return out;
})()
"""


def png_colours(png):
    """Distinct RGB(A) pixel values of an 8-bit truecolour PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w, h, ctype = 8, b"", 0, 0, 0
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8, "bit depth %d" % depth
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = {2: 3, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        if y % 4 == 0:
            for i in range(0, stride, bpp * 2):
                colours.add(bytes(line[i:i + bpp]))
        prev = line
    return colours, w, h


def intervals(doc, rows=None):
    rows = doc.get("timeseries", []) if rows is None else rows
    seen, n = None, 0
    for r in rows:
        if r["timespan"] != 0:
            continue
        key = (r["start_ms"], r["end_ms"])
        if key != seen:
            n += 1
            seen = key
    return n, rows


def dirs_with_io(rows):
    return [d for d in ("read", "write")
            if any(r["timespan"] == 0 and r[d]["ios"] > 0 for r in rows)]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    banner = "--expect-banner" in sys.argv
    shot = None
    if "--shot" in sys.argv:
        shot = sys.argv[sys.argv.index("--shot") + 1]
        args.remove(shot)
    report, inputs = args[0], args[1:]
    docs, texts = [], []
    for path in inputs:
        if path.endswith(".jsonl"):
            rows = [json.loads(l) for l in open(path) if l.strip()]
            docs[-1]["timeseries"] = rows
            texts[-1] = (texts[-1][0], open(path, "rb").read())
            continue
        raw = open(path, "rb").read()
        docs.append(json.loads(raw))
        texts.append((raw, None))
    size = os.path.getsize(report)

    try:
        page = browser.Page()
    except browser.BrowserError as e:
        print("FAIL: cannot start headless chromium: %s" % e)
        return 1
    try:
        url = "file://" + os.path.abspath(report)
        page.open(url)
        facts = page.evaluate(DOM_FACTS)
        decoded = page.evaluate(DECODE, True)
        png = page.screenshot()
        errors = page.console_errors()
        requests = [u for u in page.requests() if u != url]
    finally:
        page.close()

    check(errors == [], "console errors: %s" % errors)
    check(requests == [], "requests made: %s" % requests)
    check(facts["ready"] == "1", "the page's script did not run")
    check(facts["banner"] == (1 if banner else 0),
          "banner count %d" % facts["banner"])
    multi = len(docs) > 1
    charts, notes = facts["charts"], facts["notes"]

    # expected series and points per chart
    def points_ok(cid, s, n):
        # up to 800 drawn as they are, longer ones thinned
        ok = s["points"] == n if n <= 800 else 2 <= s["points"] <= 800
        check(ok and s["drawn"] == s["points"],
              "%s %s: %d points (%d drawn) for %d intervals" %
              (cid, s["label"], s["points"], s["drawn"], n))

    info = []
    for doc in docs:
        n, rows = intervals(doc)
        ts0 = doc["timespans"][0]
        lat_dirs = [d for d in ("read", "write")
                    if ts0["total"][d].get("latency") is not None]
        info.append((n, dirs_with_io(rows), lat_dirs,
                     any(r["timespan"] == 0 and r["total"].get("lat_ms")
                         for r in rows)))
    with_ts = [i for i, x in enumerate(info) if x[0] > 0]
    if not with_ts:
        check("iops-time" in notes, "no time series but no note")
    for cid in ("iops-time", "mibs-time"):
        if not with_ts:
            check(cid not in charts, "%s drawn without a time series" % cid)
            continue
        got = charts.get(cid, [])
        if multi:
            want = len(with_ts)
        else:
            # one target: its lines are the total's, drawn once
            nt = len(docs[0]["timespans"][0]["targets"])
            want = (nt + 1 if nt > 1 else 1) * len(info[0][1])
        check(len(got) == want, "%s: %d series, want %d" % (cid, len(got), want))
        for s in got:
            r = ord(s["label"][4]) - 65 if multi else 0
            points_ok(cid, s, info[r][0])
    lat_ts = [i for i in with_ts if info[i][3]]
    if lat_ts:
        got = charts.get("latency-time", [])
        want = 3 * len(lat_ts) if multi else 3 * len(info[0][1])
        check(len(got) == want, "latency-time: %d series, want %d" %
              (len(got), want))
        for s in got:
            r = ord(s["label"][4]) - 65 if multi else 0
            points_ok("latency-time", s, info[r][0])
    elif with_ts:
        check("latency-time" not in charts, "latency-time drawn without -L")
        check("latency-time" in notes, "no note for latency-time: %s" % notes)
    want = sum(len(x[2]) for x in info)
    if want:
        got = charts.get("percentiles", [])
        check(len(got) == want, "percentiles: %d series, want %d" %
              (len(got), want))
        for s in got:
            check(s["points"] >= 50, "percentiles %s: only %d points" %
                  (s["label"], s["points"]))
    else:
        for cid in ("percentiles", "histogram"):
            check(cid not in charts, "%s drawn without -L" % cid)
        check("percentiles" in notes, "no note for percentiles: %s" % notes)
    if not multi:
        ts0 = docs[0]["timespans"][0]
        if info[0][2]:
            got = charts.get("histogram", [])
            check(len(got) == 2 and got[0]["points"] > 0, "histogram: %s" % got)
        bt = charts.get("balance-threads", [])
        check(len(bt) == 1 and bt[0]["points"] == len(ts0["threads"]),
              "balance-threads: %s" % bt)
        bg = charts.get("balance-targets", [])
        check(len(bg) == 1 and bg[0]["points"] == len(ts0["targets"]),
              "balance-targets: %s" % bg)
        cpu = charts.get("cpu", [])
        check(len(cpu) == 2 and cpu[0]["points"] == len(ts0["cpu"]["cpus"]),
              "cpu: %s" % cpu)

    for r, doc in enumerate(docs):
        ts0 = doc["timespans"][0]
        # text values equal to the JSON
        for d in ("read", "write", "total"):
            jd = ts0["total"][d]
            cell = facts["cells"].get("%d/0/%s/iops" % (r, d))
            check(cell is not None and abs(float(cell) - jd["iops"]) < 0.005,
                  "run %d %s IOPS: page %s, JSON %s" % (r, d, cell, jd["iops"]))
            cell = facts["cells"].get("%d/0/%s/p99_ms" % (r, d))
            if jd.get("latency"):
                want = [p["ms"] for p in jd["latency"]["percentiles"]
                        if p["percentile"] == "99"][0]
                # ms to 3 decimals (the page's rule for ms)
                check(cell is not None and abs(float(cell) - want) <= 5e-4 + 1e-9,
                      "run %d %s p99: page %s, JSON %s" % (r, d, cell, want))
            else:
                check(cell == "-", "run %d %s p99 without -L: %s" % (r, d, cell))
        for w in doc.get("warnings", []):
            check(any(w in li for li in facts["warnings"]),
                  "warning missing: %s" % w)

    # the embedded documents are the inputs (or, slimmed, say so)
    results = [d for d in decoded if d["kind"].startswith("results")]
    check(len(results) == len(docs), "%d embedded results, want %d" %
          (len(results), len(docs)))
    for i, d in enumerate(results[:len(texts)]):
        if d["kind"] == "results":
            check(d["text"].encode() == texts[i][0],
                  "embedded document %d differs from its file" % i)
        else:
            check(json.loads(d["text"])["format"] == "iospd-results",
                  "slim document %d is not iospd results" % i)
    check(facts["scripts"] == len(decoded) + 1,
          "%d <script> elements, want %d: a path broke out?" %
          (facts["scripts"], len(decoded) + 1))

    if multi:
        check(facts["comparison"] > 1, "no comparison table")

    colours, w, h = png_colours(png)
    check(len(colours) >= 8, "screenshot %dx%d looks blank: %d colours" %
          (w, h, len(colours)))
    if shot:
        open(shot, "wb").write(png)
    check(size <= 1 << 20, "report is %d bytes, over 1 MiB" % size)
    print("%s: %d bytes, %d charts (%s), %d notes, %d colours in a %dx%d "
          "screenshot, %d console errors, %d requests" %
          (report, size, len(charts), ", ".join(
              "%s:%d" % (k, len(v)) for k, v in charts.items()),
           len(notes), len(colours), w, h, len(errors), len(requests)))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())

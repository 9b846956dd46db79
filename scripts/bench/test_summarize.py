#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Self-test of scripts/bench/summarize.py: feeds it small made-up iospd XML and
# fio JSON documents (same structure as the real tools print) and checks the
# parsed numbers, medians, per-pair ratios, CPU per million I/Os and verdicts.
import contextlib
import csv
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import summarize  # noqa: E402


# ---- canned documents ------------------------------------------------------

def iospd_xml(ios_per_thread, secs, mean_ms=None, p99_ms=None):
    """An iospd/DISKSPD -Rxml document: a Profile (whose TimeSpans/TimeSpan
    must not be mistaken for the results), then the results TimeSpan with one
    Thread/Target per thread and, with -L, the Latency percentile table."""
    threads = "".join(
        "<Thread><Id>%d</Id><Target><Path>f.dat</Path>"
        "<BytesCount>%d</BytesCount><FileSize>1048576</FileSize>"
        "<IOCount>%d</IOCount><ReadBytes>%d</ReadBytes><ReadCount>%d</ReadCount>"
        "<WriteBytes>0</WriteBytes><WriteCount>0</WriteCount>"
        "</Target></Thread>" % (i, n * 4096, n, n * 4096, n)
        for i, n in enumerate(ios_per_thread))
    lat = ""
    if mean_ms is not None:
        lat = ("<Latency ReadHistoBuckets=\"3\" WriteHistoBuckets=\"0\" "
               "TotalHistoBuckets=\"3\">"
               "<AverageReadMilliseconds>%.3f</AverageReadMilliseconds>"
               "<ReadLatencyStdev>0.010</ReadLatencyStdev>"
               "<AverageTotalMilliseconds>%.3f</AverageTotalMilliseconds>"
               "<LatencyStdev>0.010</LatencyStdev>"
               "<Bucket><Percentile>50</Percentile>"
               "<ReadMilliseconds>0.001</ReadMilliseconds>"
               "<TotalMilliseconds>0.001</TotalMilliseconds></Bucket>"
               "<Bucket><Percentile>99</Percentile>"
               "<ReadMilliseconds>%.3f</ReadMilliseconds>"
               "<TotalMilliseconds>%.3f</TotalMilliseconds></Bucket>"
               "<Bucket><Percentile>99.9</Percentile>"
               "<ReadMilliseconds>9.999</ReadMilliseconds>"
               "<TotalMilliseconds>9.999</TotalMilliseconds></Bucket>"
               "</Latency>" % (mean_ms, mean_ms, p99_ms, p99_ms))
    return ("<Results><System><ComputerName>vm</ComputerName></System>"
            "<Profile><TimeSpans><TimeSpan><Duration>10</Duration>"
            "<Warmup>2</Warmup></TimeSpan></TimeSpans></Profile>"
            "<TimeSpan><TestTimeSeconds>%.2f</TestTimeSeconds>"
            "<ThreadCount>%d</ThreadCount><RequestCount>0</RequestCount>"
            "<ProcCount>2</ProcCount>%s%s</TimeSpan></Results>"
            % (secs, len(ios_per_thread), lat, threads))


def stat(n=0, mean=0.0):
    return {"min": 0, "max": 0, "mean": mean, "stddev": 0.0, "N": n}


def fio_dir(iops=0.0, ios=0, lat_ns=0.0, clat_ns=0.0, p99_ns=None,
            bins=None):
    """One direction ("read"/"write") of a fio job, as fio 3.33 prints it."""
    d = {"io_bytes": ios * 4096, "io_kbytes": ios * 4,
         "bw_bytes": int(iops * 4096), "bw": int(iops * 4), "iops": iops,
         "runtime": 10000 if ios else 0, "total_ios": ios, "short_ios": 0,
         "drop_ios": 0, "slat_ns": stat(ios, 500.0 if ios else 0.0),
         "clat_ns": stat(ios, clat_ns), "lat_ns": stat(ios, lat_ns),
         "bw_min": 0, "bw_max": 0, "bw_agg": 100.0 if ios else 0.0,
         "bw_mean": 0.0, "bw_dev": 0.0, "bw_samples": 0, "iops_min": 0,
         "iops_max": 0, "iops_mean": 0.0, "iops_stddev": 0.0,
         "iops_samples": 0}
    if p99_ns is not None:
        d["clat_ns"]["percentile"] = {"50.000000": 1000,
                                      "99.000000": p99_ns}
    if bins is not None:
        d["clat_ns"]["bins"] = {str(k): v for k, v in bins.items()}
    return d


def fio_json(read, write=None, prefix=""):
    job = {"jobname": "w1", "groupid": 0, "error": 0, "eta": 0,
           "elapsed": 13, "job options": {"name": "w1", "rw": "randread"},
           "read": read, "write": write or fio_dir(), "trim": fio_dir(),
           "sync": {"total_ios": 0, "lat_ns": stat()},
           "job_runtime": 10000, "usr_cpu": 3.0, "sys_cpu": 40.0,
           "ctx": 100, "majf": 0, "minf": 10}
    doc = {"fio version": "fio-3.33", "timestamp": 1795979851,
           "timestamp_ms": 1795979851137,
           "time": "Sun Nov 29 19:17:31 2026", "jobs": [job],
           "disk_util": [{"name": "vda", "read_ios": 1, "write_ios": 0,
                          "util": 50.0}]}
    return prefix + json.dumps(doc, indent=2)


# ---- parsers ---------------------------------------------------------------

class ParserTest(unittest.TestCase):
    def test_iospd_xml_sums_threads_and_reads_latency(self):
        r = summarize.parse_iospd_xml(iospd_xml([3000, 1000], 2.0,
                                                0.5, 1.25))
        self.assertEqual(r["ios"], 4000)
        self.assertEqual(r["iops"], 2000.0)
        self.assertEqual(r["lat_mean_ms"], 0.5)
        self.assertEqual(r["lat_p99_ms"], 1.25)  # not the 99.9 bucket

    def test_iospd_xml_without_latency(self):
        r = summarize.parse_iospd_xml(iospd_xml([500], 0.5))
        self.assertEqual(r["iops"], 1000.0)
        self.assertIsNone(r["lat_mean_ms"])
        self.assertIsNone(r["lat_p99_ms"])

    def test_iospd_xml_garbage_is_an_error(self):
        with self.assertRaises(summarize.ParseError):
            summarize.parse_iospd_xml("iospd: bad switch -Q")
        with self.assertRaises(summarize.ParseError):
            summarize.parse_iospd_xml("<Results></Results>")

    def test_fio_json_one_direction(self):
        text = fio_json(fio_dir(12345.5, 123455, lat_ns=81000.0,
                                clat_ns=80000.0, p99_ns=150528),
                        prefix="fio: note: some warning\n")
        r = summarize.parse_fio_json(text)
        self.assertEqual(r["iops"], 12345.5)
        self.assertEqual(r["ios"], 123455)
        self.assertAlmostEqual(r["lat_mean_ms"], 0.081, places=12)
        self.assertAlmostEqual(r["clat_mean_ms"], 0.080, places=12)
        self.assertAlmostEqual(r["lat_p99_ms"], 0.150528, places=12)
        self.assertFalse(r["p99_approx"])

    def test_fio_json_plus_merges_read_and_write_p99(self):
        # Merged bins: 1000 x60, 1500 x25, 2000 x10, 4000 x5 -> the 99th of
        # 100 samples is in the 4000 ns bucket; the 95th in the 2000 one.
        rd = fio_dir(700.5, 70, lat_ns=1100.0, clat_ns=1000.0, p99_ns=2000,
                     bins={1000: 60, 2000: 10})
        wr = fio_dir(300.25, 30, lat_ns=2000.0, clat_ns=1900.0, p99_ns=4000,
                     bins={1500: 25, 4000: 5})
        r = summarize.parse_fio_json(fio_json(rd, wr))
        self.assertEqual(r["iops"], 1000.75)
        self.assertEqual(r["ios"], 100)
        # (1100*70 + 2000*30) / 100 = 1370 ns
        self.assertAlmostEqual(r["lat_mean_ms"], 0.00137, places=12)
        self.assertAlmostEqual(r["lat_p99_ms"], 0.004, places=12)
        self.assertEqual(summarize.fio_percentile_from_bins(
            [rd["clat_ns"]["bins"], wr["clat_ns"]["bins"]], 95.0), 2000)
        self.assertEqual(summarize.fio_percentile_from_bins(
            [rd["clat_ns"]["bins"], wr["clat_ns"]["bins"]], 50.0), 1000)

    def test_fio_json_mixed_without_bins_is_marked_approximate(self):
        rd = fio_dir(70.0, 70, lat_ns=1.0, clat_ns=1.0, p99_ns=2000)
        wr = fio_dir(30.0, 30, lat_ns=1.0, clat_ns=1.0, p99_ns=3000)
        r = summarize.parse_fio_json(fio_json(rd, wr))
        self.assertAlmostEqual(r["lat_p99_ms"], 0.003, places=12)
        self.assertTrue(r["p99_approx"])

    def test_fio_job_error_is_an_error(self):
        doc = json.loads(fio_json(fio_dir(1.0, 1, 1.0, 1.0, 1)))
        doc["jobs"][0]["error"] = 5
        with self.assertRaises(summarize.ParseError):
            summarize.parse_fio_json(json.dumps(doc))

    def test_cpu_per_mio_counts_warmup_ios(self):
        res = {"ios": 4000, "iops": 2000.0}
        # 2 CPU s over 4000 counted + 2000 x 1 s warm-up I/Os
        self.assertAlmostEqual(summarize.cpu_per_mio(
            {"user": 1.5, "sys": 0.5}, res, 1), 2.0 / 6000 * 1e6, places=9)


# ---- a whole results folder ------------------------------------------------

class IntervalTest(unittest.TestCase):
    def test_seven_pairs_take_the_whole_range(self):
        # k = 2 would cover only 1 - 2 * 8/128 = 87.5 %.
        lo, hi, cov = summarize.median_interval(
            [1.3, 0.9, 1.1, 1.0, 1.5, 1.2, 1.4])
        self.assertEqual((lo, hi), (0.9, 1.5))
        self.assertAlmostEqual(cov, 1 - 2 / 128, places=12)

    def test_fifteen_pairs_drop_three_at_each_end(self):
        # P(Bin(15, 1/2) <= 3) = 576/32768: 96.5 %; k = 5 would be 88 %.
        vals = [i / 10 for i in range(15, 0, -1)]
        lo, hi, cov = summarize.median_interval(vals)
        self.assertEqual((lo, hi), (0.4, 1.2))
        self.assertAlmostEqual(cov, 1 - 2 * 576 / 32768, places=12)

    def test_five_pairs_say_what_they_cover(self):
        lo, hi, cov = summarize.median_interval([1, 2, 3, 4, 5])
        self.assertEqual((lo, hi), (1, 5))
        self.assertAlmostEqual(cov, 0.9375, places=12)

    def test_too_few_pairs(self):
        self.assertIsNone(summarize.median_interval([1.0, None]))
        self.assertIsNone(summarize.median_interval([]))

    def test_sureness(self):
        self.assertEqual(summarize.sureness((1.0, 1.2, 0.98), 1.0), "above")
        self.assertEqual(summarize.sureness((0.8, 0.99, 0.98), 1.0), "below")
        self.assertEqual(summarize.sureness((0.98, 1.05, 0.98), 1.0),
                         "undecided")
        self.assertEqual(summarize.sureness(None, 1.0), "undecided")


class FolderTest(unittest.TestCase):
    """Workload 2 with 3 pairs and two fio engines, workload 3 with a failed
    iospd run, and the -L check with 2 pairs."""

    def add_run(self, wl, pair, tool, engine, text, user, sys_s, status=0):
        base = "raw/w%s-p%d-%s-%s" % (wl, pair, tool, engine)
        ext = "xml" if tool.startswith("iospd") else "json"
        with open(os.path.join(self.dir, base + "." + ext), "w") as f:
            f.write(text)
        with open(os.path.join(self.dir, base + ".rusage"), "w") as f:
            json.dump({"user": user, "sys": sys_s, "wall": 12.0,
                       "status": status, "timed_out": False}, f)
        self.runs.append("\t".join([wl, str(pair), tool, engine,
                                    base + "." + ext, base + ".rusage",
                                    "2", "10", "%s -cmd %s" % (tool, wl)]))

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        os.mkdir(os.path.join(self.dir, "raw"))
        self.runs = []
        # Workload 2. iospd IOPS 10000, 11000, 9000 (10 s); CPU chosen so
        # every run costs 10 s per million I/Os incl. 2 s of warm-up.
        for pair, (ios, mean, p99) in enumerate(
                [(100000, 0.1, 0.2), (110000, 0.09, 0.3),
                 (90000, 0.11, 0.25)], 1):
            self.add_run("2", pair, "iospd", "-",
                         iospd_xml([ios], 10.0, mean, p99),
                         ios * 1.2 / 1e5 * 0.75, ios * 1.2 / 1e5 * 0.25)
        # fio io_uring: median 9200 IOPS; psync: median 10000 -> psync wins.
        for pair, iops in enumerate([9000.0, 9500.0, 9200.0], 1):
            self.add_run("2", pair, "fio", "io_uring",
                         fio_json(fio_dir(iops, int(iops * 10), 100000.0,
                                          99000.0, 200000)), 1.0, 1.0)
        psync = [(10000.0, 2.4, 98000.0, 200000),
                 (10000.0, 1.8, 100000.0, 220000),
                 (8000.0, 1.44, 125000.0, 240000)]
        for pair, (iops, cpu, lat, p99) in enumerate(psync, 1):
            self.add_run("2", pair, "fio", "psync",
                         fio_json(fio_dir(iops, int(iops * 10), lat,
                                          lat - 1000.0, p99)),
                         cpu / 2, cpu / 2)
        # Workload 3: the iospd run failed (exit code 1).
        self.add_run("3", 1, "iospd", "-", "iospd: bad switch", 0.0, 0.0,
                     status=1)
        self.add_run("3", 1, "fio", "io_uring",
                     fio_json(fio_dir(5000.0, 50000, 1.0, 1.0, 1)), 1, 1)
        # -L check: 980/1000 and 950/1000 -> median 0.965, cost 3.5 %.
        for pair, ios in enumerate([980, 950], 1):
            self.add_run("L", pair, "iospd", "-",
                         iospd_xml([ios], 1.0, 0.1, 0.2), 1, 0)
            self.add_run("L", pair, "iospd_nolat", "-",
                         iospd_xml([1000], 1.0), 1, 0)
        with open(os.path.join(self.dir, "runs.tsv"), "w") as f:
            f.write("\n".join(self.runs) + "\n")
        with open(os.path.join(self.dir, "meta.tsv"), "w") as f:
            f.write("cpu\tTest CPU\ncores\t2\nfio\tfio-3.33\n"
                    "thp\talways [madvise] never\n")
        with open(os.path.join(self.dir, "workloads.tsv"), "w") as f:
            f.write("2\t4K random read, QD1\n3\t4K cached\nL\t-L cost\n")
        with contextlib.redirect_stdout(io.StringIO()) as out:
            self.assertEqual(summarize.main([self.dir]), 0)
        self.stdout = out.getvalue()
        _, self.sums = summarize.summarize_dir(self.dir)
        self.by_id = {s["id"]: s for s in self.sums}

    def tearDown(self):
        self.tmp.cleanup()

    def test_workload_order(self):
        self.assertEqual([s["id"] for s in self.sums], ["2", "3", "L"])

    def test_faster_fio_engine_is_chosen(self):
        s = self.by_id["2"]
        self.assertEqual(s["fio_engine"], "psync")
        self.assertEqual(s["engines"]["io_uring"]["iops"], 9200.0)
        self.assertEqual(s["fio"]["iops"], 10000.0)
        self.assertEqual(s["iospd"]["iops"], 10000.0)

    def test_pair_ratios(self):
        s = self.by_id["2"]
        self.assertEqual(len(s["ratios"]), 3)
        self.assertAlmostEqual(s["ratios"][0], 1.0, places=12)
        self.assertAlmostEqual(s["ratios"][1], 1.1, places=12)
        self.assertAlmostEqual(s["ratios"][2], 1.125, places=12)
        self.assertAlmostEqual(s["ratio_med"], 1.1, places=12)
        self.assertAlmostEqual(s["ratio_min"], 1.0, places=12)
        self.assertAlmostEqual(s["ratio_max"], 1.125, places=12)

    def test_cpu_per_mio_and_ratio(self):
        s = self.by_id["2"]
        self.assertAlmostEqual(s["iospd"]["cpu_per_mio"], 10.0, places=9)
        # psync: 2.4/120000, 1.8/120000, 1.44/96000 -> 20, 15, 15 s/MIO
        self.assertAlmostEqual(s["fio"]["cpu_per_mio"], 15.0, places=9)
        self.assertAlmostEqual(s["cpu_ratio"], 10.0 / 15.0, places=9)

    def test_latency_medians(self):
        s = self.by_id["2"]
        self.assertAlmostEqual(s["iospd"]["lat_mean_ms"], 0.1, places=12)
        self.assertAlmostEqual(s["fio"]["lat_mean_ms"], 0.1, places=12)
        self.assertAlmostEqual(s["lat_mean_ratio"], 1.0, places=12)
        self.assertAlmostEqual(s["iospd"]["lat_p99_ms"], 0.25, places=12)
        self.assertAlmostEqual(s["fio"]["lat_p99_ms"], 0.22, places=12)

    def test_verdicts(self):
        self.assertEqual(self.by_id["2"]["targets"],
                         [("IOPS ratio >= 1.00", "PASS"),
                          ("mean latency <= fio + 2 %", "PASS")])
        self.assertEqual(self.by_id["3"]["targets"],
                         [("IOPS ratio >= 1.10", "NO DATA"),
                          ("CPU/IO ratio <= 0.90", "NO DATA")])
        self.assertEqual(self.by_id["L"]["targets"],
                         [("-L cost <= 3 %", "MISS")])
        self.assertEqual(summarize.verdict(1.10, 1.10, True), "PASS")
        self.assertEqual(summarize.verdict(0.91, 0.90, False), "MISS")

    def test_l_cost(self):
        s = self.by_id["L"]
        self.assertAlmostEqual(s["ratio_med"], 0.965, places=12)
        self.assertAlmostEqual(s["l_cost"], 0.035, places=12)
        self.assertAlmostEqual(s["ratio_min"], 0.95, places=12)
        self.assertAlmostEqual(s["ratio_max"], 0.98, places=12)

    def test_failed_run_is_reported(self):
        s = self.by_id["3"]
        self.assertEqual(len(s["errors"]), 1)
        self.assertEqual(s["errors"][0]["error"], "exit code 1")
        self.assertIsNone(s["iospd"]["iops"])
        self.assertEqual(s["fio"]["iops"], 5000.0)

    def test_markdown_and_csv(self):
        with open(os.path.join(self.dir, "results.md")) as f:
            md = f.read()
        self.assertIn("- cpu: Test CPU", md)
        self.assertIn("| 2 | 4K random read, QD1 | 10000 | 10000 (psync) | "
                      "1.100 [1.000..1.125] | 10.00 | 15.00 | 0.667 | "
                      "0.1000 / 0.1000 | 0.2500 / 0.2200 |", md)
        self.assertIn("IOPS ratio median 0.965 [0.950..0.980], "
                      "cost 3.50 % -> MISS", md)
        self.assertIn("- workload 2: io_uring 9200, psync 10000", md)
        self.assertIn("- workload 3 pair 1 iospd -: exit code 1", md)
        self.assertIn("iospd -cmd 2", md)
        # Ratios 1.0, 1.1, 1.125: the range covers 1 - 2/8 of the median.
        self.assertIn("- workload 2: median 1.100, 75.0 % interval "
                      "1.000..1.125, target 1.00: met: the whole interval "
                      "is above the target", md)
        self.assertIn("- workload L: median 0.965, 50.0 % interval "
                      "0.950..0.980, target 0.97: not decided by these "
                      "pairs", md)
        self.assertIn("workload 2  mean latency <= fio + 2 %    PASS",
                      self.stdout)
        with open(os.path.join(self.dir, "results.csv"),
                  newline="") as f:
            rows = {r["workload"]: r for r in csv.DictReader(f)}
        self.assertEqual(rows["2"]["fio_engine"], "psync")
        self.assertAlmostEqual(float(rows["2"]["iops_ratio_median"]), 1.1,
                               places=12)
        self.assertEqual(rows["2"]["pairs"], "3")
        self.assertEqual(rows["2"]["interval_vs_target"], "above")
        self.assertEqual(rows["2"]["interval_coverage"], "0.75")
        self.assertAlmostEqual(float(rows["2"]["iops_ratio_interval_low"]),
                               1.0, places=12)
        self.assertEqual(rows["L"]["interval_vs_target"], "undecided")
        self.assertEqual(rows["3"]["interval_vs_target"], "")
        self.assertAlmostEqual(float(rows["2"]["fio_cpu_s_per_mio"]), 15.0,
                               places=9)
        self.assertEqual(rows["3"]["iospd_iops"], "")
        self.assertEqual(rows["3"]["cpu"], "Test CPU")
        self.assertEqual(rows["L"]["cores"], "2")
        self.assertEqual(rows["L"]["thp"], "always [madvise] never")
        with open(os.path.join(self.dir, "runs.csv"), newline="") as f:
            runs = list(csv.DictReader(f))
        self.assertEqual(len(runs), 15)
        self.assertEqual(runs[0]["iops"], "10000.0")


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""iospd's fio JSON (--output=fio-json:FILE, -Rfio-json) against Debian's fio.

The same workload runs under both tools: 4 KiB random reads, one job, queue
depth 1, throttled to 1,000,000 bytes/s (fio rate=1000000, iospd -g1000) for
3 s, so both move the same bytes whatever the machine. Then:
  - the documents have the same keys and JSON types, field by field, except
    the keys iospd leaves out on purpose (docs/fio-json.md);
  - bytes, I/Os, bandwidth, IOPS and runtime agree within 15 % (the run's
    noise under the throttle), latencies within a factor of 20;
  - iospd's document is consistent in itself and validates against
    schema/iospd-fio-json.schema.json;
  - -t2 on two files gives four jobs with one file each, -F2 two jobs
    with both files as fio's "a:b".
Usage: fio_json_test.py IOSPD SCHEMA   (exit 77: fio or jsonschema missing)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

# What fio writes that iospd does not measure (docs/fio-json.md).
LEFT_OUT = {"ctx", "majf", "minf", "iodepth_level", "iodepth_submit",
            "iodepth_complete", "disk_util"}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def tname(v):
    return type(v).__name__


def same_shape(a, b, path, out):
    """Every key of fio's a in iospd's b with the same type (recursively)."""
    if isinstance(a, dict):
        if not isinstance(b, dict):
            out.append("%s: fio has an object, iospd %s" % (path, tname(b)))
            return
        for k, v in a.items():
            if k in LEFT_OUT:
                continue
            if k not in b:
                out.append("%s/%s: missing in iospd's document" % (path, k))
            else:
                same_shape(v, b[k], path + "/" + k, out)
        for k in b:
            if k not in a:
                out.append("%s/%s: iospd has a key fio does not" % (path, k))
    elif type(a) is not type(b):
        out.append("%s: fio's %s is %s, iospd's %r is %s"
                   % (path, a, tname(a), b, tname(b)))


def near(name, fio, ours, tol):
    if fio == 0 and ours == 0:
        return
    if abs(ours - fio) > tol * max(abs(fio), 1e-9):
        fail("%s: iospd %s vs fio %s (more than %d %% apart)"
             % (name, ours, fio, tol * 100))
    print("ok %s: iospd %s, fio %s" % (name, ours, fio))


def main():
    iospd, schema_path = sys.argv[1], sys.argv[2]
    fio = shutil.which("fio")
    if fio is None:
        print("SKIP: fio is not installed (scripts/deps.sh installs it)")
        return 77
    try:
        import jsonschema
    except ImportError:
        print("SKIP: python3-jsonschema is not installed")
        return 77
    d = tempfile.mkdtemp(prefix="iospd-fiojson-")
    try:
        # One file for both, made by iospd -c and read by fio afterwards: the
        # same bytes in the same page cache.
        fi = os.path.join(d, "target.dat")
        fout, iout = os.path.join(d, "fio.json"), os.path.join(d, "iospd.json")
        p = subprocess.run([iospd, "-c16M", "-b4K", "-r", "-w0", "-o1", "-t1",
                            "-d3", "-W0", "-g1000", "-D", "-L", "-Rfio-json",
                            "--output=fio-json:" + iout, fi],
                           stdout=subprocess.PIPE, check=True)
        subprocess.run([fio, "--name=job1", "--filename=" + fi, "--size=16M",
                        "--rw=randread", "--bs=4096", "--iodepth=1",
                        "--numjobs=1", "--ioengine=psync", "--time_based",
                        "--invalidate=0",  # fio drops the cache by default
                        "--runtime=3", "--rate=1000000",
                        "--output-format=json", "--output=" + fout],
                       check=True, stdout=subprocess.DEVNULL)
        ref = json.load(open(fout))
        ours = json.load(open(iout))
        if json.loads(p.stdout) .keys() != ours.keys():
            fail("-Rfio-json on stdout is not the --output document")
        if not ours["fio version"].startswith("iospd-"):
            fail("fio version does not name iospd: " + ours["fio version"])

        diffs = []
        same_shape({k: v for k, v in ref.items() if k != "jobs"},
                   {k: v for k, v in ours.items() if k != "jobs"}, "", diffs)
        if len(ref["jobs"]) != 1 or len(ours["jobs"]) != 1:
            fail("one job each expected: fio %d, iospd %d"
                 % (len(ref["jobs"]), len(ours["jobs"])))
        rj, oj = dict(ref["jobs"][0]), dict(ours["jobs"][0])  # copies
        # "job options" lists what was asked: compare the words fio's tools
        # read, not the key sets.
        ropt, oopt = rj.pop("job options"), oj.pop("job options")
        for k in ("rw", "bs", "iodepth", "numjobs", "runtime", "rate",
                  "filename"):
            if ropt.get(k) != oopt.get(k):
                fail("job options %s: fio %r, iospd %r"
                     % (k, ropt.get(k), oopt.get(k)))
        if not all(isinstance(v, str) for v in oopt.values()):
            fail("job options are fio's strings: %r" % oopt)
        same_shape(rj, oj, "/jobs[0]", diffs)
        if diffs:
            fail("shape differs from fio's:\n  " + "\n  ".join(diffs))
        print("ok same keys and types as fio %s" % ref["fio version"])

        r, o = rj["read"], oj["read"]
        for k in ("io_bytes", "total_ios", "bw_bytes", "bw", "iops"):
            near("read/" + k, r[k], o[k], 0.15)
        near("read/runtime", r["runtime"], o["runtime"], 0.10)
        near("job_runtime", rj["job_runtime"], oj["job_runtime"], 0.10)
        for k in ("clat_ns", "lat_ns"):
            rm, om = r[k]["mean"], o[k]["mean"]
            if not (rm / 20 <= om <= rm * 20):
                fail("read/%s/mean: iospd %s vs fio %s" % (k, om, rm))
            print("ok read/%s/mean: iospd %.0f, fio %.0f" % (k, om, rm))

        # In itself: the counts agree with each other.
        if o["io_bytes"] != o["total_ios"] * 4096:
            fail("io_bytes is not total_ios x 4096")
        if o["clat_ns"]["N"] != o["total_ios"] or oj["write"]["total_ios"]:
            fail("latency count or writes wrong: %r" % o["clat_ns"])
        pct = list(o["clat_ns"]["percentile"].values())
        if pct != sorted(pct) or pct[-1] > o["clat_ns"]["max"]:
            fail("percentiles not ordered within max: %r" % pct)
        bins = sum(oj[k][b] for k in ("latency_ns", "latency_us",
                                      "latency_ms") for b in oj[k])
        if abs(bins - 100.0) > 0.01:
            fail("latency bins sum to %f %%, not 100" % bins)
        if o["bw_samples"] != 3 or o["iops_samples"] != 3:
            fail("-D over 3 s gives 3 samples: %r" % o)
        print("ok iospd's document is consistent (%d I/Os)" % o["total_ios"])

        schema = json.load(open(schema_path))
        jsonschema.validate(ours, schema)

        # One job per thread, as fio reports numjobs without group_reporting.
        a, b = os.path.join(d, "a.dat"), os.path.join(d, "b.dat")
        for args, jobs, files in ((["-t2"], 4, 1), (["-F2"], 2, 2)):
            p = subprocess.run([iospd, "-c1M", "-b4K", "-d1", "-W0",
                                "-Rfio-json"] + args + [a, b],
                               stdout=subprocess.PIPE, check=True)
            doc = json.loads(p.stdout)
            jsonschema.validate(doc, schema)
            js = doc["jobs"]
            names = {j["jobname"] for j in js}
            fnames = [j["job options"]["filename"].split(":") for j in js]
            if len(js) != jobs or len(names) != jobs or \
                    any(len(f) != files for f in fnames) or \
                    any(j["job options"]["numjobs"] != str(jobs) for j in js):
                fail("%s: %d jobs expected with %d file(s) each: %r"
                     % (args, jobs, files, fnames))
            print("ok %s: %d jobs, files %r" % (args[0], jobs, fnames))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A console that blocks its writers must not stall the run (issue #26).

A selection in a Windows console (QuickEdit) or Ctrl-S on a terminal blocks
every write to it; so does a pipe nobody reads. The live status line is
drawn from a thread of its own, so the controller still ends each phase,
takes its CPU snapshots and writes the time-series rows on time. Here
stderr is a pipe shrunk to one page and filled before iospd starts, and
nobody reads it for a while: the first status write blocks at once. Once
the run's time is over, the time-series file must already hold every
measured interval. Before the line had its own thread the controller was
stuck in that first write and the file held no row. Then the pipe is
drained, and the run ends normally with its report.

usage: status_stall_test.py IOSPD   (exit 77: skipped)"""
import csv
import fcntl
import os
import subprocess
import sys
import tempfile
import threading
import time

exe = os.path.abspath(sys.argv[1])
F_SETPIPE_SZ = 1031
failed = 0


def bad(msg):
    global failed
    failed += 1
    print("FAIL: " + msg)


def measured_rows(path):
    try:
        with open(path, newline="") as f:
            return [r for r in csv.DictReader(f)
                    if r["phase"] == "measuring" and r["target"] == "total"]
    except (OSError, KeyError):
        return []


work = tempfile.mkdtemp(prefix="iospd-stall.")
os.chdir(work)
rd, wr = os.pipe()
try:
    fcntl.fcntl(wr, F_SETPIPE_SZ, 4096)
except OSError as e:
    print(f"skipped: cannot shrink a pipe (F_SETPIPE_SZ): {e}")
    sys.exit(77)
os.set_blocking(wr, False)
try:
    while True:
        os.write(wr, b"#" * 256)
except BlockingIOError:
    pass
os.set_blocking(wr, True)

subprocess.run([exe, "-c4M", "-d1", "-W0", "-C0", "--progress=never", "t.dat"],
               stdout=subprocess.DEVNULL, check=True)
t0 = time.monotonic()
p = subprocess.Popen([exe, "-w100", "-b4K", "-o2", "-W1", "-d3", "-C0",
                      "--progress=always", "--timeseries=ts.csv", "-Rxml",
                      "t.dat"], stdout=subprocess.PIPE, stderr=wr)
os.close(wr)
out = []
reader = threading.Thread(target=lambda: out.append(p.stdout.read()))
reader.start()
# The run takes 4 s (1 s warm-up, 3 s measured); look at 6 s.
time.sleep(6)
rows = measured_rows("ts.csv")
if len(rows) == 3:
    print("ok: every measured interval was written while stderr was blocked")
else:
    bad(f"{len(rows)} measured intervals in ts.csv after 6 s with stderr "
        f"blocked, want 3 (the controller waited on the status line)")
if p.poll() is not None:
    bad(f"iospd ended (exit {p.returncode}) while its stderr was blocked")
err = b""
with os.fdopen(rd, "rb") as f:
    err = f.read()
rc = p.wait(timeout=60)
reader.join(timeout=60)
report = out[0].decode(errors="replace") if out else ""
if rc != 0:
    bad(f"exit {rc}")
if "<Results>" not in report or "</Results>" not in report:
    bad("the -Rxml report is incomplete: " + report[:200])
if b"1/1 warm-up" not in err:
    bad("no status line reached stderr: " + repr(err[-300:]))
if time.monotonic() - t0 > 30:
    bad("the run took more than 30 s")
print(f"status_stall_test: {'FAIL' if failed else 'ok'}")
sys.exit(1 if failed else 0)

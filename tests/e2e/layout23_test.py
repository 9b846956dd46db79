#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layout of real iospd --diskspd=2.3 runs against real DISKSPD 2.3
output (tests/data/diskspd23, copied from the reference samples with their
command lines in index.json): the text from "System information:" on,
line by line in shape (numbers stand for any number, runs of spaces for
any run), and the -Rxml element tree (tags and attribute names, repeated
siblings folded), the <Profile> left out (its 2.3 form is the profile
writer's). iospd's own additions (engine lines and elements, warnings) are
dropped first; docs/compat-differences.md lists them.

usage: layout23_test.py SOURCE_DIR IOSPD [--wine]   (exit 77: skipped)"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

src, exe = sys.argv[1], os.path.abspath(sys.argv[2])
wine = "--wine" in sys.argv[3:]
data = os.path.join(src, "tests", "data", "diskspd23")
failed = 0
passed = 0


def bad(msg):
    global failed
    failed += 1
    print("FAIL: " + msg)


def run(args, cwd):
    cmd = (["wine", exe] if wine else [exe]) + args
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    out = p.stdout.decode("utf-8", "replace").replace("\r\n", "\n")
    return p.returncode, out, p.stderr.decode("utf-8", "replace")


# Ours-only lines of the text report (iospd additions).
OURS = re.compile(r"^(I/O engine|WARNING:|NOTE:)")


def text_shapes(text):
    i = text.find("System information:")
    lines = text[i:].split("\n") if i >= 0 else []
    out = []
    for ln in lines:
        if OURS.match(ln):
            continue
        s = re.sub(r"[0-9]+(\.[0-9]+)?", "#", ln)
        s = re.sub(r"(#[ ,/-]?)+#", "#", s)  # "0-1", "0,2", "1/0-3": a list
        s = re.sub(r" +", " ", s)
        s = re.sub(r"#(KiB|MiB|GiB|TiB)", "#U", s)  # this machine's sizes
        s = re.sub(r"(?<=: ).*$", "V", s) if s.startswith(("  computer name:", "  processor name:", "  active power scheme:")) else s
        s = re.sub(r"\| [^|]*\(#[^)]*\)$", "| #", s)  # sample paths "f.dat (1MiB)"
        s = re.sub(r"\| [^|]*\.dat$", "| F", s)
        out.append(s)
    return out


DROP_TAGS = {"IoEngine", "IoEngineDepth", "Warnings", "Profile"}


def tree_sig(e):
    kids = []
    for c in e:
        if c.tag in DROP_TAGS:
            continue
        sig = tree_sig(c)
        if kids and kids[-1] == sig:
            continue  # repeated siblings (CPUs, caches, threads) fold
        kids.append(sig)
    return (e.tag, tuple(sorted(e.attrib)), tuple(kids))


def show(sig, depth=0, out=None):
    out = [] if out is None else out
    out.append("  " * depth + sig[0] + (" " + " ".join(sig[1]) if sig[1] else ""))
    for k in sig[2]:
        show(k, depth + 1, out)
    return out


# Does this iospd know --diskspd=2.3? (the switch is the parser's part)
with tempfile.TemporaryDirectory() as probe:
    rc, out, err = run(["--diskspd=2.3", "-Rpxml", "x.dat"], probe)
if rc == 3 and "--diskspd" in err:
    print("SKIP: this iospd does not parse --diskspd=2.3 yet: " + err.strip().split("\n")[0])
    sys.exit(77)

cases = json.load(open(os.path.join(data, "index.json")))
for case in cases:
    name = case["file"]
    sample = open(os.path.join(data, name), encoding="utf-8").read()
    with tempfile.TemporaryDirectory() as d:
        rc, out, err = run(["--diskspd=2.3"] + case["argv"], d)
    if rc != case["rc"]:
        bad("%s: exit %d, DISKSPD %d: %s" % (name, rc, case["rc"], err.strip()))
        continue
    if name.endswith(".txt"):
        a, b = text_shapes(sample), text_shapes(out)
        if a != b:
            for k in range(max(len(a), len(b))):
                x = a[k] if k < len(a) else "<end>"
                y = b[k] if k < len(b) else "<end>"
                if x != y:
                    bad("%s: line %d of the results differs:\n  DISKSPD: %s\n  iospd:   %s" % (name, k + 1, x, y))
                    break
        else:
            passed += 1
    else:
        # DISKSPD 2.3 writes the power scheme's <unknown> unescaped.
        sample = sample.replace('Name="<unknown>"', 'Name="&lt;unknown&gt;"')
        try:
            a = show(tree_sig(ET.fromstring(sample)))
            b = show(tree_sig(ET.fromstring(out)))
        except ET.ParseError as e:
            bad("%s: not well-formed: %s" % (name, e))
            continue
        if a != b:
            import difflib
            bad("%s: element tree differs:\n%s" % (name, "\n".join(
                difflib.unified_diff(a, b, "DISKSPD", "iospd", lineterm="", n=2))))
        else:
            passed += 1
# -Rs / -Rsxml: the system section alone, exit 0.
with tempfile.TemporaryDirectory() as d:
    rc, out, err = run(["--diskspd=2.3", "-Rs"], d)
    if rc == 0 and out.startswith("System information:\n\n  computer name:") \
            and "\n  page size:" in out and "Results" not in out:
        passed += 1
    else:
        bad("-Rs: exit %d, output %r, stderr %r" % (rc, out[:80], err[:200]))
    rc, out, err = run(["--diskspd=2.3", "-Rsxml"], d)
    try:
        root = ET.fromstring(out.replace('Name="<unknown>"', 'Name="&lt;unknown&gt;"'))
        ok = rc == 0 and root.tag == "System" and root.find("ProcessorName") is not None \
            and root.find("Tool/Version").text == "2.3.0"
    except ET.ParseError:
        ok = False
    if ok:
        passed += 1
    else:
        bad("-Rsxml: exit %d, output %r" % (rc, out[:200]))
print("layout23%s: %d passed, %d failed" % (" (wine)" if wine else "", passed, failed))
sys.exit(1 if failed else 0)

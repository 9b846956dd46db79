#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The man page (<build>/iospd.1, target iospd_man) against `iospd -?`.

- Every switch and long option that -? lists is in the man page with the
  same syntax and help text, and the man page's OPTIONS and IOSPD LONG
  OPTIONS hold nothing else: the rendered sections, as words, equal -?'s
  topics (titles, syntax, help, Linux notes) in order. Words are compared
  after undoing formatting only: line wrapping, indentation, typographic
  dashes and quotes.
- Every option tag in the roff source writes its hyphens as \\- (minus).
- The roff renders without a warning (groff -ww at three widths, man
  --warnings) and lexgrog reads its NAME line.
- Every example's iospd line parses (run with -Rp: profile only, no I/O),
  and its fio line too (fio --parse-only) when fio is installed.

Usage: man_test.py <iospd> <iospd.1>   (exit 77: skipped, with the reason)
"""
import os
import re
import shutil
import subprocess
import sys

iospd, page = sys.argv[1], sys.argv[2]
failures = []


def bad(msg):
    failures.append(msg)
    print("FAIL: " + msg)


for tool in ("groff", "man", "lexgrog"):
    if shutil.which(tool) is None:
        print(f"SKIP: {tool} is not installed (scripts/deps.sh installs "
              "groff-base and man-db)")
        sys.exit(77)

TYPO = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2212": "-",
                      "\u2018": "'", "\u2019": "'", "\u201c": '"',
                      "\u201d": '"', "\u00a0": " "})


def words(text):
    """Words of text; a word ending in '|' joins the next (a syntax that -?
    splits over two lines is one unbroken word in the man page)."""
    out = []
    for w in text.translate(TYPO).split():
        if out and out[-1].endswith("|"):
            out[-1] += w
        else:
            out.append(w)
    return out


# ---- -? as topics of entries --------------------------------------------
usage = subprocess.run([iospd, "-?"], capture_output=True, text=True)
if usage.returncode != 0:
    bad(f"iospd -? exited {usage.returncode}")
lines = usage.stdout.splitlines()
try:
    first = lines.index("Block size, offsets and target size")
    last = lines.index("Examples")
except ValueError:
    print("FAIL: -? has no 'Block size, offsets and target size' or "
          "'Examples' heading")
    sys.exit(1)
topics = []  # [title, [(syntax, [lines of syntax and help])]]
for line in lines[first:last]:
    if not line.strip():
        continue
    if not line.startswith(" "):
        topics.append([line, []])
    elif re.match(r"^  -", line):
        topics[-1][1].append((line.strip(), [line]))
    else:
        topics[-1][1][-1][1].append(line)
long_topic = "iospd additions (long options)"
if not topics or topics[-1][0] != long_topic:
    bad(f"-?: the last topic is not '{long_topic}'")
entries = [e for t in topics for e in t[1]]
if len(entries) < 45:
    bad(f"-? lists only {len(entries)} switches")
for must in ("-b<size>", "--version", "--help", "-?"):
    if must not in [e[0] for e in entries]:
        bad(f"-? does not list {must}")

# The man page's OPTIONS: the topics but the last, with their titles; its
# IOSPD LONG OPTIONS: the last topic's entries (the heading is the title).
want_options = []
for title, es in topics[:-1]:
    want_options += words(title)
    for _, text in es:
        want_options += words("\n".join(text))
want_long = []
for _, text in topics[-1][1]:
    want_long += words("\n".join(text))

# ---- the man page, rendered with lines too long to wrap ------------------
render = subprocess.run(["groff", "-man", "-Tutf8", "-rLL=4000n", "-P-cbou",
                         page], capture_output=True, text=True)
if render.returncode != 0:
    bad(f"groff exited {render.returncode}: {render.stderr}")
sections = {}
name = None
for line in render.stdout.splitlines():
    if line and not line.startswith(" "):
        name = line.strip()
        sections.setdefault(name, [])
    elif name is not None:
        sections[name].append(line)
for need in ("NAME", "SYNOPSIS", "DESCRIPTION", "TARGETS", "SIZES", "OPTIONS",
             "IOSPD LONG OPTIONS", "EXIT STATUS", "SAFETY",
             "DIFFERENCES FROM DISKSPD", "EXAMPLES", "SEE ALSO"):
    if need not in sections:
        bad(f"the man page has no {need} section")
got_options = words("\n".join(sections.get("OPTIONS", [])))
got_long = words("\n".join(sections.get("IOSPD LONG OPTIONS", [])))


def first_difference(want, got):
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            return i
    return min(len(want), len(got))


def contains(seq, sub):
    n = len(sub)
    return any(seq[i:i + n] == sub for i in range(len(seq) - n + 1))


# Each -? entry, found whole in the man page.
for title, es in topics:
    target = got_long if title == long_topic else got_options
    for syntax, text in es:
        if not contains(target, words("\n".join(text))):
            bad(f"{syntax}: the man page lacks it or its help text differs "
                "from -?")
# Both ways: nothing more, nothing less, the same order.
for label, want, got in (("OPTIONS", want_options, got_options),
                         ("IOSPD LONG OPTIONS", want_long, got_long)):
    if want != got:
        i = first_difference(want, got)
        bad(f"{label} differs from -? at word {i}: -? has "
            f"'{' '.join(want[max(0, i - 5):i + 5])}', the man page "
            f"'{' '.join(got[max(0, i - 5):i + 5])}'")

# ---- the roff source ----------------------------------------------------
src = open(page, encoding="ascii").read()
tags = re.findall(r"^\.TP\n(.*)$", src, re.M)
option_tags = [t for t in tags if t.startswith("\\fB\\-") or
               t.startswith("\\fB-")]
if len(option_tags) < len(entries):
    bad(f"only {len(option_tags)} option tags in the roff source for "
        f"{len(entries)} entries of -?")
for t in option_tags:
    if re.search(r"(?<!\\)-", t.replace("\\-", "")):
        bad(f"a hyphen in the option tag '{t}' is not written \\-")
# A line starting with '.' or ' is a request: only the macros we write (a
# help line starting with '.' must have been escaped with \&).
MACROS = {"TH", "SH", "SS", "TP", "IP", "PP", "RS", "RE", "BR", "br", "nh",
          "ad", "nf", "fi", '\\"'}
for line in src.splitlines():
    if line[:1] in (".", "'") and line[1:].split(" ")[0] not in MACROS:
        bad(f"roff line '{line}' is not one of the page's macros")

# ---- no warnings ----------------------------------------------------------
for width in ("50n", "78n", "120n"):
    r = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z",
                        f"-rLL={width}", page], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr:
        bad(f"groff -ww at line length {width}: exit {r.returncode}, "
            f"{r.stderr.strip()}")
env = dict(os.environ, MANWIDTH="80")
r = subprocess.run(["man", "--warnings=all", "-l", "-Tutf8", page],
                   capture_output=True, text=True, env=env)
if r.returncode != 0 or r.stderr:
    bad(f"man --warnings: exit {r.returncode}, {r.stderr.strip()}")
r = subprocess.run(["lexgrog", page], capture_output=True, text=True)
if r.returncode != 0 or '"iospd - ' not in r.stdout:
    bad(f"lexgrog: exit {r.returncode}, {r.stdout.strip()} "
        f"{r.stderr.strip()}")

# ---- the examples -----------------------------------------------------------
cmds = []
joined = ""
for line in sections.get("EXAMPLES", []):
    s = line.strip()
    if s.endswith(" \\"):
        joined += s[:-2] + " "
        continue
    s = joined + s
    joined = ""
    if re.match(r"^(iospd|fio|ioping) ", s):
        cmds.append(s.translate(TYPO).split())
iospd_lines = [c for c in cmds if c[0] == "iospd"]
fio_lines = [c for c in cmds if c[0] == "fio"]
if len(iospd_lines) < 4 or len(fio_lines) != len(iospd_lines):
    bad(f"EXAMPLES: {len(iospd_lines)} iospd and {len(fio_lines)} fio "
        "lines (each iospd line needs its fio line)")
if not any(c[0] == "ioping" for c in cmds):
    bad("EXAMPLES: no ioping line")
for c in iospd_lines:
    r = subprocess.run([iospd, "-Rp"] + c[1:], capture_output=True,
                       text=True)
    if r.returncode != 0:
        bad(f"example '{' '.join(c)}' does not parse (-Rp): exit "
            f"{r.returncode}, {r.stderr.strip()}")
if shutil.which("fio"):
    for c in fio_lines:
        r = subprocess.run(["fio", "--parse-only"] + c[1:],
                           capture_output=True, text=True)
        if r.returncode != 0:
            bad(f"example '{' '.join(c)}': fio --parse-only exit "
                f"{r.returncode}, {r.stderr.strip()}")
else:
    print("note: fio is not installed, so its example lines are not parsed")
if shutil.which("ioping") is None:
    print("note: ioping is not installed; its example lines are checked "
          "against its manual by hand only")

print(f"man_test: {len(entries)} switches compared, {len(cmds)} example "
      f"lines, {len(failures)} failures")
sys.exit(1 if failures else 0)

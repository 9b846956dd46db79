#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of the iospd binary: exit codes, error messages, profile
# output against real DISKSPD 2.2 samples, XML round trips, and (with
# --run) short real runs. Runs the native binary, or iospd.exe under wine.
# Usage: cli_test.sh <iospd binary> <source dir> [--wine] [--run]
set -uo pipefail
exe=$1
src=$2
shift 2
wine=0
realrun=0
for a in "$@"; do
  case "$a" in --wine) wine=1 ;; --run) realrun=1 ;; esac
done
# Real DISKSPD 2.2 outputs, kept in the repository: tests/data/report-sample-*
# (see tests/data/README.md), so a fresh clone can run this test.
samples="$src/tests/data"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-e2e.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0

# DISKSPD 2.2's lines (the goldens are 2.2's) run at --diskspd=2.2, iospd's
# default being 2.3; a line naming its level or a sub-command is left as is.
at22() {
  case "${1-}" in --merge|--compare|--report|--ping|--version|-\?|'') return 1 ;; esac
  local a
  for a in "$@"; do case "$a" in --diskspd*) return 1 ;; esac; done
  return 0
}
iospd() { # runs the binary; stdout -> $work/out, stderr -> $work/err, sets rc
  if at22 "$@"; then set -- --diskspd=2.2 "$@"; fi
  if [ $wine = 1 ]; then
    wine "$exe" "$@" >"$work/out" 2>"$work/err"
  else
    "$exe" "$@" >"$work/out" 2>"$work/err"
  fi
  rc=$?
  # Windows text mode writes CRLF (as DISKSPD does); compare LF text here.
  sed -i 's/\r$//' "$work/out" "$work/err"
}
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; [ -s "$work/err" ] && sed 's/^/  stderr: /' "$work/err" | head -5; }
expect_rc() { # expected-rc description
  if [ "$rc" = "$1" ]; then ok; else bad "$2: exit code $rc, expected $1"; fi
}
expect_err() { # substring description
  if grep -qF -- "$1" "$work/err"; then ok; else bad "$2: stderr lacks '$1'"; fi
}

# --- usage and exit codes -------------------------------------------------
iospd
expect_rc 3 "no arguments"
grep -q "Usage" "$work/out" && ok || bad "no arguments: usage not printed"
iospd -?
expect_rc 0 "-?"
grep -q "Usage" "$work/out" && ok || bad "-?: usage not printed"
for sw in -b -o -t -w -S -r -rd -B -a -Z -f -g -I -R -v -X; do
  grep -qE -- "(^|[^a-zA-Z])$sw" "$work/out" && ok || bad "-?: usage does not mention $sw"
done

iospd -Q1 x.dat
expect_rc 3 "unknown switch"
expect_err "-Q1" "unknown switch"
iospd -o8x x.dat
expect_rc 3 "junk after a number"
expect_err "-o8x" "junk after a number"
iospd -b0 x.dat
expect_rc 3 "-b0"
expect_err "-b0" "-b0"
iospd -w101 x.dat
expect_rc 3 "-w101"
iospd $'\xe2\x80\x93b4K' x.dat
expect_rc 3 "en dash"
expect_err "dash" "en dash"
iospd x.dat -b4K
expect_rc 3 "switch after target"
expect_err "-b4K" "switch after target"
iospd -b4K
expect_rc 3 "no target"
iospd -X"$work/does-not-exist.xml"
expect_rc 3 "missing -X file"
expect_err "does-not-exist.xml" "missing -X file"
iospd -r -s x.dat
expect_rc 3 "-r with -s"
iospd -F2 -t2 -Rp x.dat
expect_rc 3 "-F with -t"
iospd --no-such-option x.dat
expect_rc 3 "unknown long option"
expect_err "--no-such-option" "unknown long option"
# DISKSPD parity: -? before an unknown switch is help; -Rp keeps -Rxml.
iospd -? -q
expect_rc 0 "-? before an unknown switch"
grep -q "Usage" "$work/out" && ok || bad "-? -q: usage not printed"
iospd -q -?
expect_rc 3 "unknown switch before -?"
iospd -Rxml -Rp -b4K x.dat
expect_rc 0 "-Rxml -Rp"
head -c 9 "$work/out" | grep -q '^<Profile>' && ok || bad "-Rxml -Rp: not an XML profile"
iospd -o2147483648 x.dat
expect_rc 3 "-o2147483648"
expect_err "from 1 to 2147483647" "-o2147483648"
iospd -T18446744073709551615 -t2 x.dat
expect_rc 3 "-T past the largest offset"
expect_err "9223372036854775807" "-T past the largest offset"

# --- -Rp names the engine a run would use (Linux) -----------------------------
if [ $wine = 0 ]; then
  iospd -c1M -d1 -W0 -o4 "$work/engine.dat"
  expect_rc 0 "short run for the engine line"
  engine_re=$'^\t\tusing (io_uring|libaio|threads|psync|the psync)'
  ran=$(grep -m1 -E "$engine_re" "$work/out")
  iospd -o4 -Rp "$work/engine.dat"
  expect_rc 0 "-Rp engine line"
  said=$(grep -m1 -E "$engine_re" "$work/out")
  [ -n "$ran" ] && [ "$said" = "$ran" ] && ok ||
    bad "-Rp says '$said' where a run says '$ran'"
  iospd --engine=psync -o4 -Rp "$work/engine.dat"
  grep -qF $'\t\tusing psync (pread/pwrite, chosen with --engine=psync)' "$work/out" &&
    ok || bad "--engine=psync -Rp: $(grep using "$work/out")"
else
  # Windows has its own engine table: a Linux engine's word is bad input
  # (exit 3, before any I/O), answered with this platform's words.
  ef=$(winepath -w "$work/engine.dat" 2>/dev/null)
  iospd -c1M -d1 -W0 -o4 "$ef"
  for e in io_uring libaio threads psync; do
    iospd --engine=$e -d1 -W0 -o4 "$ef"
    expect_rc 3 "--engine=$e on Windows"
    expect_err "'--engine=$e': unknown engine '$e'; use auto, iocp, routines, null or ioring" "--engine=$e on Windows"
  done
fi

# --- profile output against DISKSPD 2.2 samples ------------------------------
# Each sample's <Profile> element, less one indentation level, must equal our
# -Rpxml output for the same command line.
check_profile_xml() { # sample.xml args...
  local sample=$1
  shift
  sed -n '/^  <Profile>/,/^  <\/Profile>/p' "$samples/report-sample-$sample" | sed 's/^  //' >"$work/want"
  iospd -Rpxml "$@"
  if [ "$rc" != 0 ]; then bad "-Rpxml $*: exit $rc"; return; fi
  if diff -u "$work/want" "$work/out" >"$work/diff"; then ok; else
    bad "-Rpxml $* differs from $sample"; head -30 "$work/diff"; fi
}
# Each sample's profile echo (from the blank line before "Command Line" to the
# blank line before "System information") must equal our -Rptext output, with
# our program name in place of diskspd.exe.
check_profile_text() { # sample.txt args...
  local sample=$1
  shift
  # (The samples merged stderr into stdout: drop DISKSPD's warning lines.)
  awk '/^System information:/ {exit} {print}' "$samples/report-sample-$sample" | sed 's/\r$//' |
    grep -v '^WARNING:' >"$work/want"
  iospd -Rptext "$@"
  if [ "$rc" != 0 ]; then bad "-Rptext $*: exit $rc"; return; fi
  # The program's own name differs (and is a Windows path under wine), and
  # the --diskspd=2.2 the iospd() wrapper adds is not in the sample.
  sed -i "1,3s#^Command Line: diskspd.exe #Command Line: iospd -Rptext #" "$work/want"
  sed -i "1,3s#^Command Line: [^ ]* \(--diskspd=2.2 \)\{0,1\}#Command Line: iospd #" "$work/out"
  if [ $wine = 0 ]; then
    # On Linux the engine line names what would run instead of IOCP.
    sed -i '/using I\/O Completion Ports/d' "$work/want"
    sed -i '/using io_uring/d; /using the psync/d; /using libaio/d; /using threads/d' "$work/out"
  fi
  if diff -u "$work/want" "$work/out" >"$work/diff"; then ok; else
    bad "-Rptext $* differs from $sample"; head -30 "$work/diff"; fi
}
if [ -f "$samples/report-sample-mixed-random-4k-L-D.xml" ]; then
  check_profile_xml mixed-random-4k-L-D.xml -c64M -d3 -b4K -r -o8 -t2 -w25 -Sh -L -D testfile.dat
  check_profile_xml seq-write-64k-si-L.xml -c64M -d2 -W0 -b64K -si -o4 -t1 -w100 -Sh -L seq.dat
  check_profile_xml mixed-rs30-D500.xml -c64M -d2 -W0 -b4K -rs30 -o2 -t2 -w50 -Sb -L -D500 d.dat
  check_profile_text mixed-random-4k-L-D.txt -c64M -d3 -b4K -r -o8 -t2 -w25 -Sh -L -D testfile.dat
  check_profile_text seq-write-64k-si-L.txt -c64M -d2 -W0 -b64K -si -o4 -t1 -w100 -Sh -L seq.dat
  check_profile_text two-targets-F4-affinity.txt -c32M -d2 -W0 -b8K -F4 -r -o4 -w30 -Sh -a0,1 a.dat b.dat
  check_profile_text random-distribution-rdpct.txt -c64M -d2 -W0 -b4K -r -rdpct90/10:10/90 -o4 -t1 -L -z7 c.dat
else
  bad "DISKSPD samples not found: $samples/report-sample-*.xml (they are part of the repository; is the checkout complete?)"
fi

# --- round trips: command line -> XML -> profile -> XML ------------------------
roundtrip() {
  iospd -Rpxml "$@"
  if [ "$rc" != 0 ]; then bad "round trip $*: first -Rpxml exit $rc"; return; fi
  cp "$work/out" "$work/rt1.xml"
  local xml="$work/rt1.xml"
  [ $wine = 1 ] && xml=$(winepath -w "$xml" 2>/dev/null)
  iospd -X"$xml" -Rpxml
  if [ "$rc" != 0 ]; then bad "round trip $*: -X exit $rc"; return; fi
  if diff -u "$work/rt1.xml" "$work/out" >"$work/diff"; then ok; else
    bad "round trip $* changed the profile"; head -20 "$work/diff"; fi
}
roundtrip -b8K -r -o16 -t4 -w30 -Sh -L -D -d30 -W5 -C2 data.bin
roundtrip -b1M -s -o8 -t1 -w0 -Su -d60 data.bin
roundtrip -b64K -si -t4 -o2 -w100 -Sw -B1M:1G data.bin
roundtrip -b4K -r -rdpct90/10:10/90 -z7 -g100i -Z1M -c1G data.bin
roundtrip -b4K -rs40 -r8K -F4 -O16 -a0,1 data.bin
roundtrip -b4K -r -rdabs10/1G:10/1G:0/100G -f10G -i10 -j5 data.bin
roundtrip -b4K -r -w20 -Zr -fr -I2 -P100 -v a.bin b.bin

# --- XML example profiles ----------------------------------------------------
for ex in "$src"/xml/examples/*.xml; do
  [ -e "$ex" ] || { bad "no example profiles in xml/examples"; break; }
  x=$ex
  [ $wine = 1 ] && x=$(winepath -w "$ex" 2>/dev/null)
  iospd -X"$x" -Rpxml target.dat
  if [ "$rc" = 0 ]; then ok; else bad "example $(basename "$ex"): exit $rc"; fi
done

# --- short real runs ------------------------------------------------------------
if [ $realrun = 1 ]; then
  f="$work/run.dat"
  [ $wine = 1 ] && f=$(winepath -w "$f" 2>/dev/null)
  iospd -c8M -d1 -W0 -b4K -r -o4 -t2 -w25 -L -D -Rxml "$f"
  expect_rc 0 "real run -Rxml"
  if [ $rc = 0 ]; then
    python3 - "$work/out" <<'PY' && ok || bad "real run -Rxml: results inconsistent"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
ts = r.find("TimeSpan")
tot = ios = 0
for t in ts.iter("Target"):
    b, n = int(t.findtext("BytesCount")), int(t.findtext("IOCount"))
    rb, rn = int(t.findtext("ReadBytes")), int(t.findtext("ReadCount"))
    wb, wn = int(t.findtext("WriteBytes")), int(t.findtext("WriteCount"))
    assert b == rb + wb and n == rn + wn and b == n * 4096, (b, n)
    assert int(t.findtext("FileSize")) == 8 << 20
    tot += b; ios += n
assert ios > 0, "no I/O counted"
assert len(list(ts.iter("Thread"))) == 2
assert ts.find("Latency/Bucket") is not None and ts.find("Iops/Bucket") is not None
assert float(ts.findtext("TestTimeSeconds")) > 0.5
PY
  fi
  iospd -d1 -W0 -b4K -r -o4 -w0 -L "$f"
  expect_rc 0 "real run text"
  grep -q "^total:" "$work/out" && grep -q "Total latency distribution:" "$work/out" && ok ||
    bad "real run text: report sections missing"
  if [ $wine = 1 ]; then
    # Completion routines (ReadFileEx/WriteFileEx) instead of the port.
    iospd -d1 -W0 -b4K -r -o4 -w50 -x -Rxml "$f"
    expect_rc 0 "-x run"
    python3 - "$work/out" <<'PY' && ok || bad "-x run: no I/O counted or counts inconsistent"
import sys, xml.etree.ElementTree as ET
ts = ET.parse(sys.argv[1]).getroot().find("TimeSpan")
n = sum(int(t.findtext("IOCount")) for t in ts.iter("Target"))
r = sum(int(t.findtext("ReadCount")) for t in ts.iter("Target"))
w = sum(int(t.findtext("WriteCount")) for t in ts.iter("Target"))
assert n > 0 and n == r + w and r > 0 and w > 0, (n, r, w)
PY
  fi
  # A trimmed -rdabs range runs past the end of the target: the short I/Os
  # are counted as moved and named in a warning (DISKSPD 2.3).
  iospd -b64K -r -rdabs50/100000:50/67000000 -c64M -d1 -W0 "$f"
  expect_rc 0 "short transfers"
  expect_err "moved fewer bytes than asked" "short transfers"
  if [ $wine = 0 ]; then
    # Creating a large target writes every block: say so on stderr, keep
    # stdout (here XML) clean.
    iospd -c1G -d0 -W0 -Rxml "$work/big.dat"
    expect_rc 0 "-c1G"
    expect_err "NOTE: creating" "-c1G note"
    # The note does not promise how the file is made: Windows may create
    # it with SetFileValidData, writing nothing (the platform says so).
    grep -qx "NOTE: creating '.*big.dat' (1073741824 bytes, -c), which can take a while" \
      "$work/err" && ok || bad "-c1G: the note is not the plain creation note"
    # ... and how far it has got, a line per tenth.
    [ "$(grep -c "^NOTE: creating '.*big.dat': [0-9]* % written$" "$work/err")" = 10 ] &&
      grep -q "': 100 % written$" "$work/err" && ok ||
      bad "-c1G: expected ten progress lines on stderr"
    head -c 9 "$work/out" | grep -q '^<Results>' && ok || bad "-c1G: stdout is not the XML report"
    rm -f "$work/big.dat"
  fi
  m="$work/missing.dat"
  [ $wine = 1 ] && m=$(winepath -w "$m" 2>/dev/null)
  iospd -d1 -W0 -b4K "$m"
  expect_rc 1 "missing target without -c"
fi

echo "cli_test: $pass passed, $fail failed"
[ $fail = 0 ]

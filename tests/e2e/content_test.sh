#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --compress / --dedupe end to end (docs/content.md): real runs whose file
# is then measured with python3's zlib and exact block hashing
# (content_check.py): the zlib saving of every written block within 3 points
# of --compress, the share of written blocks that repeat an earlier one
# within 1 point of --dedupe; several block sizes, unbuffered (-Su), two
# threads, the engines; the profile in -Rp text, XML (round trip through
# -X) and JSON; bad values exit 3 naming the switch.
# -g<n>i bounds the writes so that the file is never wrapped: every block
# written stays in the file to be measured. At least 100 blocks must be
# found, so that one block is at most one point of the repeated share (a
# loaded machine may not reach the -g rate).
# Usage: content_test.sh <iospd binary> <source dir> [--wine]
set -uo pipefail
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
wine=0
[ "${3:-}" = --wine ] && wine=1
. "$src/tests/e2e/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-content.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
check="$src/tests/e2e/content_check.py"

iospd() {
  local run=("$exe")
  [ $wine = 1 ] && run=(wine "$exe")
  "${run[@]}" "$@" >out 2>err
  rc=$?
  sed -i 's/\r$//' out err
}
bad_detail() { sed 's/^/  err: /' err | head -5; }

# run <file size> <bs> <pct> <dedupe> <iops> <min blocks> [extra switches]
# A loaded machine may starve a throttled run of its writes: a run that
# wrote fewer than <min blocks> is tried again (three tries).
run() {
  local size=$1 bs=$2 pct=$3 dd=$4 iops=$5 min=$6
  shift 6
  local bytes msg try
  bytes=$(numfmt --from=iec "${bs^^}" 2>/dev/null || echo "$bs")
  for try in 1 2 3; do
    rm -f c.dat
    iospd -c"$size" -w100 -b"$bs" -d2 -W0 -g"${iops}i" --compress="$pct" \
      --dedupe="$dd" "$@" c.dat
    if [ "$rc" != 0 ]; then
      bad "--compress=$pct --dedupe=$dd -b$bs $*: exit $rc"
      return
    fi
    msg=$(python3 "$check" c.dat "$bytes" "$pct" "$dd" "$min") && break
    case "$msg" in "only "*) echo "note: try $try: $msg" ;; *) break ;; esac
  done
  if python3 "$check" c.dat "$bytes" "$pct" "$dd" "$min" >/dev/null; then
    ok
    echo "ok: -b$bs --compress=$pct --dedupe=$dd $*: $msg"
  else
    bad "-b$bs --compress=$pct --dedupe=$dd $*: $msg"
  fi
}

run 8M 4K 25 10 400 150
run 16M 8K 50 0 300 120
run 64M 64K 50 30 150 100
run 64M 64K 80 50 150 100
run 64M 64K 0 20 150 100
run 64M 256K 10 5 100 100
# Unbuffered: the sector-aligned buffers keep their content.
run 64M 64K 60 25 150 100 -Su
# Two threads, each in its own half (-T): both writers' blocks together.
run 64M 64K 40 20 150 100 -t2 -T32M
if [ $wine = 0 ]; then
  for e in psync threads io_uring; do
    run 32M 16K 70 15 200 100 --engine=$e -o4
  done
fi
# --dedupe alone: content that does not compress.
rm -f c.dat
iospd -c16M -w100 -b16K -d2 -W0 -g200i --dedupe=40 c.dat
if [ "$rc" = 0 ] && msg=$(python3 "$check" c.dat 16384 0 40 100); then ok; else
  bad "--dedupe alone: exit $rc ${msg:-}"; fi

# --- the profile shows the settings ---
iospd -b4K --compress=35 --dedupe=12 -Rp t.dat
grep -qF "write buffer content: generated, zlib saving 35%, 12% repeated blocks (--compress, --dedupe)" out && ok || bad "-Rp text line"
iospd -b4K --compress=35 --dedupe=12 -Rpxml t.dat
cp out p.xml
grep -qF "<CompressPercent>35</CompressPercent>" p.xml && ok || bad "-Rpxml CompressPercent"
grep -qF "<DedupePercent>12</DedupePercent>" p.xml && ok || bad "-Rpxml DedupePercent"
if command -v xmllint >/dev/null; then
  xmllint --noout --schema "$src/xml/profile.xsd" p.xml 2>/dev/null && ok || bad "-Rpxml does not validate against xml/profile.xsd"
fi
iospd -Xp.xml -Rpxml
if [ "$rc" = 0 ] && cmp -s out p.xml; then ok; else bad "XML round trip (exit $rc)"; fi
rm -f j.dat
iospd -c1M -b4K -w100 -d1 -W0 --compress=35 -Rjson j.dat
python3 - out <<'PY' && ok || bad "JSON write_buffer compress_pct/dedupe_pct"
import json, sys
d = json.load(open(sys.argv[1]))
wb = d["profile"]["timespans"][0]["targets"][0]["write_buffer"]
sys.exit(0 if wb["compress_pct"] == 35 and wb["dedupe_pct"] is None else 1)
PY

# --- bad values exit 3 and name the switch ---
expect_usage() { # description message switches...
  local d=$1 m=$2
  shift 2
  iospd "$@"
  if [ "$rc" = 3 ] && grep -qF -- "$m" err; then ok; else
    bad "$d: exit $rc, want 3 with '$m'"; fi
}
expect_usage "compress 101" "'--compress=101': --compress takes the zlib saving as a whole number from 0 to 100" --compress=101 t.dat
expect_usage "compress word" "--compress takes the zlib saving as a whole number from 0 to 100, not 'half'" --compress=half t.dat
expect_usage "dedupe negative" "'--dedupe=-5': --dedupe takes the share" --dedupe=-5 t.dat
expect_usage "dedupe empty" "'--dedupe': use --dedupe=PCT" --dedupe t.dat
expect_usage "with -Z" "cannot be combined with -Z (zeros)" -Z --compress=5 t.dat
expect_usage "with -Zr" "cannot be combined with -Zr" -Zr --dedupe=5 t.dat
expect_usage "with -X" "'--compress=5' cannot be combined with -X" -Xp.xml --compress=5
sed 's/<CompressPercent>35/<CompressPercent>135/' p.xml >bad.xml
expect_usage "XML 135" "CompressPercent" -Xbad.xml

finish content_test

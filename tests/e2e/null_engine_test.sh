#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# --engine=null (issue #24): every I/O completes at once and the target is
# never touched. A -w100 run over a file of random bytes leaves them as
# they were (checksum before and after), reports writes only, IOPS > 0, and
# counts that add up exactly: -t threads each keeping -o I/Os in flight,
# every I/O a -b block, the threads' I/Os summing to the total, and
# ios / seconds = IOPS. The engine is in --version, -?, the text report,
# the JSON (thread io_engine, profile engine) and the man page.
# Usage: null_engine_test.sh <iospd> [<man page>] [--wine]
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") man=${2:-}
wine=0
[ "${3:-}" = --wine ] || [ "$man" = --wine ] && wine=1
[ "$man" = --wine ] && man=
[ -n "$man" ] && man=$(cd "$(dirname "$man")" && pwd)/$(basename "$man")
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-null.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
run() { run_exe "$@" >out 2>err; rc=$?; sed -i 's/\r$//' out err; }

head -c 1048576 /dev/urandom >t.dat
before=$(sha256sum <t.dat)

run -w100 -d1 -W0 -C0 -o4 -t2 -b4K -Rjson --engine=null t.dat
[ "$rc" = 0 ] && ok || bad "json run: exit $rc: $(head -3 err)"
[ "$(sha256sum <t.dat)" = "$before" ] && ok || bad "-w100 with --engine=null changed t.dat"
[ "$(stat -c %s t.dat)" = 1048576 ] && ok || bad "t.dat changed size"
python3 - out <<'PY' && ok || bad "JSON figures (above)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["profile"]["engine"] == "null", d["profile"]["engine"]
ts = d["timespans"][0]
assert ts["thread_count"] == 2, ts["thread_count"]
th = ts["threads"]
assert len(th) == 2, len(th)
total = ts["total"]
assert total["read"]["ios"] == 0 and total["read"]["bytes"] == 0, total["read"]
w = total["write"]
assert w["ios"] > 0 and total["total"]["ios"] == w["ios"], total
assert w["bytes"] == w["ios"] * 4096, (w["bytes"], w["ios"])
assert total["total"]["iops"] > 0, total["total"]["iops"]
secs = ts["test_time_seconds"]
assert abs(total["total"]["iops"] - w["ios"] / secs) < 1e-6 * w["ios"] + 1, (total, secs)
s = 0
for t in th:
    assert t["io_engine"] == "null", t["io_engine"]
    assert t["io_engine_depth"] == 4 and t["io_engine_depth_asked"] == 4, t
    (tg,) = t["targets"]
    assert tg["read_ios"] == 0 and tg["write_ios"] == tg["ios"] > 0, tg
    assert tg["bytes"] == tg["ios"] * 4096, tg
    assert tg["errors"]["read"] == 0 and tg["errors"]["write"] == 0, tg
    s += tg["ios"]
assert s == w["ios"], (s, w["ios"])
PY
[ "$(sha256sum <t.dat)" = "$before" ] && ok || bad "t.dat changed"

# The text report names the engine and its depth.
run -w100 -d1 -W0 -C0 -o8 -t1 -b64K --engine=null t.dat
[ "$rc" = 0 ] && ok || bad "text run: exit $rc: $(head -3 err)"
grep -qx $'I/O engine:\t\tnull, 8 I/Os in flight per thread' out && ok \
  || bad "text report engine line: $(grep 'I/O engine' out)"
[ "$(sha256sum <t.dat)" = "$before" ] && ok || bad "text run changed t.dat"

run --version
grep -qE '^engines: (.*, )?null(, .*)?$' out && ok || bad "--version: $(grep engines out)"
run -?
grep -qE '^  --engine=<auto\|(.*\|)?null(\|[a-z_]+)*>$' out && ok || bad "-? syntax: $(grep -- '--engine=' out)"
grep -qE '^        null: ' out && ok || bad "-? has no null line"
if [ -n "$man" ]; then
  grep -qF -- '\-\-engine=<\fIauto|' "$man" && grep -qE '\|\\:null(\||\\fB>)' "$man" && ok \
    || bad "man page: $(grep -n -- 'engine=' "$man" | head -3)"
  grep -qE '^null: ' "$man" && ok || bad "man page has no null line"
fi
finish null_engine

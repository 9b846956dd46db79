#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end tests of what iospd writes on stdout (issue #10, "never report
# success on failure" and "output that is always well-formed"):
#  1. stdout that cannot be written (/dev/full, a closed pipe, a closed
#     handle) fails the run: exit 1 and a message on stderr;
#  2. with -Rxml, -v lines, -P dots and the Ctrl-C line go to stderr, so
#     stdout is one XML document (text output keeps DISKSPD's placement);
#  3. targets named with control characters, bytes that are not UTF-8 and
#     markup characters give XML that xmllint and -X accept, and -X of it
#     resolves the same profile.
# Usage: output_test.sh <iospd binary> [--wine]
set -uo pipefail
exe=$1
wine=0
[ "${2:-}" = "--wine" ] && wine=1
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-out.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
xmllint=$(command -v xmllint || true)

run() { # runs the binary with the caller's redirections
  if [ $wine = 1 ]; then wine "$exe" "$@"; else "$exe" "$@"; fi
}
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; [ -s "$work/err" ] && sed 's/^/  stderr: /' "$work/err" | head -5; }
winpath() { if [ $wine = 1 ]; then winepath -w "$1" 2>/dev/null; else printf '%s' "$1"; fi; }
expect_rc() { # rc expected description
  if [ "$1" = "$2" ]; then ok; else bad "$3: exit code $1, expected $2"; fi
}
expect_err() { # extended-regex description
  if grep -qE -- "$1" "$work/err"; then ok; else bad "$2: stderr lacks /$1/"; fi
}
well_formed() { # file description
  if [ -z "$xmllint" ]; then
    python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$1" 2>"$work/lint" &&
      ok || { bad "$2: not well-formed XML"; head -3 "$work/lint"; }
  elif "$xmllint" --noout "$1" 2>"$work/lint"; then ok; else
    bad "$2: xmllint rejects it"; head -3 "$work/lint"
  fi
}
wdir=$(winpath "$work") # $work as the binary sees it
sep=/
[ $wine = 1 ] && sep='\'
target="$wdir${sep}t.dat"

# --- 1. stdout that cannot be written ---------------------------------------
write_fails=("cannot write to standard output")
# /dev/full: ENOSPC (Linux) / ERROR_DISK_FULL (wine passes the fd through).
run -Rpxml "$target" >/dev/full 2>"$work/err"
expect_rc $? 1 "-Rpxml >/dev/full"
expect_err "${write_fails[0]}: (No space left on device|Disk full)" "-Rpxml >/dev/full"
run -c1M -d1 -W0 -Rxml "$target" >/dev/full 2>"$work/err"
expect_rc $? 1 "run -Rxml >/dev/full"
expect_err "${write_fails[0]}" "run -Rxml >/dev/full"
grep -qF "incomplete" "$work/err" && ok || bad "run >/dev/full: no word that the output is incomplete"
run -c1M -d1 -W0 "$target" >/dev/full 2>"$work/err"
expect_rc $? 1 "run text >/dev/full"
run '-?' >/dev/full 2>"$work/err"
expect_rc $? 1 "usage >/dev/full"

# A closed stdout (handle): Linux parks /dev/null on fd 1 so nothing else can
# take it, and fails the run (EBADF); wine reports an invalid handle.
run -c1M -d1 -W0 -Rxml "$target" >&- 2>"$work/err"
expect_rc $? 1 "run with stdout closed"
expect_err "${write_fails[0]}: (Bad file descriptor|Invalid handle)" "run with stdout closed"
if [ $wine = 0 ]; then
  # Nothing of the report may land in the target (it would have had fd 1).
  ! grep -qa "<Results>" "$work/t.dat" && ok || bad "stdout closed: the report went into the target"
fi

# A pipe whose reader is gone: EPIPE, not a silent death by SIGPIPE.
run -c1M -d1 -W0 -Rxml "$target" 2>"$work/err" | true
rc=${PIPESTATUS[0]}
expect_rc "$rc" 1 "run -Rxml | true"
expect_err "${write_fails[0]}: (Broken pipe|Pipe not connected|The pipe is being closed|No process is on the other end)" "run -Rxml | true"
# | head -c 100 on output larger than a pipe holds: the reader leaves while
# iospd still writes, so the run fails (a report that fits in the pipe's
# buffer is written in full before head exits, and that is a success).
many=()
for i in $(seq 300); do many+=("$wdir${sep}t$i.dat"); done
run -Rpxml "${many[@]}" 2>"$work/err" | head -c 100 >"$work/head"
rc=${PIPESTATUS[0]}
expect_rc "$rc" 1 "-Rpxml (300 targets) | head -c 100"
expect_err "${write_fails[0]}" "-Rpxml | head -c 100"
[ "$(head -c 9 "$work/head")" = "<Profile>" ] && ok || bad "| head -c 100: not the start of the profile"
# And a run that could write everything still exits 0.
run -Rpxml "$target" >"$work/out" 2>"$work/err"
expect_rc $? 0 "-Rpxml to a file"
[ ! -s "$work/err" ] && ok || bad "-Rpxml to a file: unexpected stderr"

# --- 2. notices off an XML stdout --------------------------------------------
run -c1M -d1 -W0 -t1 -o1 -Rxml -v -P100 "$target" >"$work/out" 2>"$work/err"
expect_rc $? 0 "-Rxml -v -P100"
sed -i 's/\r$//' "$work/out" "$work/err"
well_formed "$work/out" "-Rxml -v -P100 stdout"
[ "$(head -c 9 "$work/out")" = "<Results>" ] && ok || bad "-Rxml -v -P100: stdout does not start with <Results>"
expect_err '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z: ' "-Rxml -v: verbose lines on stderr"
expect_err '\.\.\.' "-Rxml -P100: progress dots on stderr"
# Text output: DISKSPD's placement, ahead of the report on stdout.
run -c1M -d1 -W0 -t1 -o1 -v -P100 "$target" >"$work/out" 2>"$work/err"
expect_rc $? 0 "text -v -P100"
sed -i 's/\r$//' "$work/out"
first_v=$(grep -nE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z: ' "$work/out" | head -1 | cut -d: -f1)
cmdline=$(grep -n '^Command Line:' "$work/out" | head -1 | cut -d: -f1)
[ -n "$first_v" ] && [ -n "$cmdline" ] && [ "$first_v" -lt "$cmdline" ] && ok ||
  bad "text -v: verbose lines not on stdout before the report ($first_v, $cmdline)"
grep -q '^\.\.\.' "$work/out" && ok || bad "text -P100: no progress dots on stdout"

# Ctrl-C (SIGINT) during an -Rxml run: the notice goes to stderr.
if [ $wine = 0 ]; then
  "$exe" -c1M -d30 -W0 -t1 -o1 -Rxml "$target" >"$work/out" 2>"$work/err" &
  pid=$!
  sleep 1.5
  kill -INT $pid
  wait $pid
  expect_rc $? 0 "-Rxml after SIGINT"
  well_formed "$work/out" "-Rxml after SIGINT, stdout"
  expect_err '\*\*\* Ctrl-C' "-Rxml after SIGINT: notice on stderr"
  ! grep -q 'Ctrl-C' "$work/out" && ok || bad "-Rxml after SIGINT: notice on stdout"
  # A second SIGINT while the results are being written no longer abandons
  # them (it was killed with exit 130 and wrote no --output file); it says
  # so on stderr. A third ends the process (killed by SIGINT: 130). The
  # report goes to a FIFO nobody reads yet, so iospd is held in the report
  # stage (the report is larger than the pipe's 64 KiB) while the signals
  # arrive.
  sig_run() { # json-out signals
    rm -f "$work/fifo"; mkfifo "$work/fifo"
    exec 3<>"$work/fifo"
    "$exe" -c1M -d30 -W0 -t128 -o1 -Rxml --output=json:"$1" "$target" "$target" >"$work/fifo" 2>"$work/err" &
    pid=$!
    sleep 2.5
    kill -INT $pid
    local i
    for i in $(seq 2 "$2"); do sleep 0.5; kill -INT $pid; done
    sleep 0.5
    timeout 20 cat <&3 >"$work/out" &
    local reader=$!
    wait $pid
    local rc=$?
    exec 3>&-
    wait $reader
    return $rc
  }
  sig_run "$work/two.json" 2
  expect_rc $? 0 "-Rxml after two SIGINTs"
  well_formed "$work/out" "-Rxml after two SIGINTs, stdout"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["timespans"][0]["total"]["total"]["ios"] > 0' "$work/two.json" &&
    ok || bad "two SIGINTs: --output=json file missing or without I/O"
  expect_err 'Ctrl-C again: the results measured so far are being written; a third Ctrl-C abandons them' \
    "two SIGINTs: the second says the results are still written"
  sig_run "$work/three.json" 3
  expect_rc $? 130 "three SIGINTs: killed by the third"
  [ ! -e "$work/three.json" ] && ok || bad "three SIGINTs: a --output file was still written"
else
  echo "skip (wine): SIGINT sent to a background wine process does not reach the program as Ctrl-C (the run goes on); the Linux run covers the routing"
fi

# --- 3. target names XML cannot carry ----------------------------------------
names=($'ctl\x01x' $'tab\tx' $'del\x7fx' $'esc\x1b[0m' $'cr\rlf\nx' '<&">'"'"
       $'ff\xffx' $'trunc\xe2\x82' $'over\xc0\xaf' $'surr\xed\xa0\x80' $'lit\xef\x80\x81\xff'
       $'nonchar\xef\xbf\xbe' $'\xc3\xa9t\xc3\xa9\xe2\x82\xac')
if [ $wine = 1 ]; then
  # Windows command lines are UTF-16: only the valid UTF-8 names arrive as
  # bytes; the others are covered by the Linux run and test_xml_escape.
  names=($'ctl\x01x' $'tab\tx' $'del\x7fx' '<&">'"'" $'\xc3\xa9t\xc3\xa9\xe2\x82\xac')
fi
i=0
for n in "${names[@]}"; do
  i=$((i + 1))
  label="name $i ($(printf '%q' "$n"))"
  run -b8K -r -t2 -o3 -Z1M,"$wdir${sep}src$n" -Rpxml "$wdir$sep$n" >"$work/p$i.xml" 2>"$work/err"
  expect_rc $? 0 "$label: -Rpxml"
  well_formed "$work/p$i.xml" "$label: -Rpxml"
  run "-X$wdir${sep}p$i.xml" -Rpxml >"$work/out" 2>"$work/err"
  expect_rc $? 0 "$label: -X of -Rpxml"
  cmp -s "$work/p$i.xml" "$work/out" && ok || bad "$label: -X then -Rpxml changed the profile"
  # The same profile: -Rptext from the command line and from -X agree from
  # the input parameters on (the command line echo differs by design).
  run -b8K -r -t2 -o3 -Z1M,"$wdir${sep}src$n" -Rptext "$wdir$sep$n" 2>"$work/err" |
    sed -n '/^Input parameters:/,$p' >"$work/text1"
  run "-X$wdir${sep}p$i.xml" -Rptext 2>"$work/err" |
    sed -n '/^Input parameters:/,$p' >"$work/text2"
  [ -s "$work/text1" ] && cmp -s "$work/text1" "$work/text2" && ok ||
    { bad "$label: -Rptext differs between the command line and -X"; diff "$work/text1" "$work/text2" | head -6 | cat -v; }
  grep -qF -- "$n" "$work/text2" && ok || bad "$label: -X lost the path's bytes"
done

# A short real run on such targets: the file has the exact name, and -Rxml
# of the run is well-formed with the path escaped (in the profile and in the
# results). Windows file names cannot hold controls: there a name with
# markup and non-ASCII characters, which needs no Escaped attribute.
real=($'ctl\x01x' $'ff\xffx')
want_escaped=2
if [ $wine = 1 ]; then
  real=($'a&b\'c\xc3\xa9')
  want_escaped=0
fi
for n in "${real[@]}"; do
  label="run on $(printf '%q' "$n")"
  run -c1M -d1 -W0 -t1 -o2 -Rxml "$wdir${sep}r$n" >"$work/out" 2>"$work/err"
  expect_rc $? 0 "$label"
  sed -i 's/\r$//' "$work/out"
  well_formed "$work/out" "$label: -Rxml"
  [ -f "$work/r$n" ] && ok || bad "$label: no file with that exact name"
  [ "$(grep -c '<Path Escaped="U+F0NN">' "$work/out")" = $want_escaped ] && ok ||
    bad "$label: expected $want_escaped escaped paths (profile and results)"
done

echo "output_test: $pass passed, $fail failed"
[ $fail = 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The live status line (--progress, issue #13), end to end:
#  - on a terminal (a pty from script(1)) it appears, says "measuring", fits
#    the terminal's width, and is erased before the report and around -v
#    lines, so the screen ends as it would without it;
#  - with stdout redirected the results file is clean (no CR, no escape),
#    and the same as with --progress=never but for the measured numbers;
#  - through a pipe, auto shows nothing at all and always shows it on
#    stderr only; -P (dots) turns auto off.
# With --wine (iospd.exe): stderr redirected to a file is "not a terminal"
# for auto, and always writes the line to stderr only.
# Usage: status_test.sh <iospd binary> <source dir> [--wine]
set -uo pipefail
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
wine=0
[ "${3:-}" = --wine ] && wine=1
screen="python3 $src/tests/e2e/status_screen.py"
. "$src/tests/e2e/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-status.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work" || exit 1

run=("$exe")
[ $wine = 1 ] && run=(wine "$exe")
# 1 s each of warm-up, measuring and cool-down; 70 % reads, -L, -v.
args=(-c1M -b4K -o2 -w30 -L -v -W1 -d1 -C1 t.dat)
if [ $wine = 1 ]; then args=(-c1M -b4K -o2 -w30 -L -W1 -d1 -C0 t.dat); fi

# The results with every number masked (and the padding that depends on
# their widths), the command line and the -v lines left out: two runs of
# one profile print the same text but for what they measured.
vline='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z: [A-Za-z]'
masked() {
  grep -v '^Command Line:' "$1" | grep -vE "$vline" |
    sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g'
}
same_results() { # file baseline description
  if diff <(masked "$1") <(masked "$2") >diff.txt; then ok; else
    bad "$3: $1 differs from $2 beyond the numbers:"; head -40 diff.txt
    diff "$1" "$2" | head -40; fi
}
clean() { # file description: no CR, no escape, no status text
  if grep -qP '\r|\x1b' "$1"; then bad "$2: $1 holds a CR or an escape byte"
  elif grep -qE '[0-9]+/[0-9]+ (warm-up|measuring|cool-down)' "$1"; then
    bad "$2: $1 holds a status line"
  else ok; fi
}

# iospd.exe writes CR LF to files and pipes, as DISKSPD does: back to LF
# (a CR anywhere else is then a status line's).
crlf() { [ $wine = 0 ] || sed -i 's/\r$//' "$@"; }

# --- a bad value: exit 3, naming the option and its words --------------------
"${run[@]}" --progress=yes t.dat >bad.txt 2>bad.err
rc=$?
[ $rc = 3 ] && ok || bad "--progress=yes: exit $rc, want 3"
grep -q "'--progress=yes': unknown --progress value 'yes'; use auto, always or never" bad.err &&
  ok || bad "--progress=yes: message: $(head -2 bad.err)"

"${run[@]}" --progress=never "${args[@]}" >never.txt 2>never.err
rc=$?
crlf never.txt never.err
[ $rc = 0 ] && ok || bad "--progress=never run: exit $rc: $(head -3 never.err)"
clean never.txt "--progress=never stdout"

# --- a pipe: auto shows nothing; stdout as with never --------------------------
"${run[@]}" "${args[@]}" 2>pipe.err | cat >pipe.txt
crlf pipe.txt pipe.err
clean pipe.err "auto with stderr not a terminal: stderr"
# What is left there is what --progress=never wrote too (-c's NOTE line).
if diff <(sed -E 's/[0-9]+/N/g' pipe.err) <(sed -E 's/[0-9]+/N/g' never.err) >/dev/null; then ok; else
  bad "auto through a pipe: stderr differs from --progress=never's: $(head -c 300 pipe.err | cat -v)"; fi
clean pipe.txt "auto through a pipe: stdout"
same_results pipe.txt never.txt "auto through a pipe"

# --- always through a pipe: on stderr only, erased at the end -----------------
"${run[@]}" --progress=always "${args[@]}" 2>always.err | cat >always.txt
crlf always.txt
clean always.txt "--progress=always: stdout"
same_results always.txt never.txt "--progress=always: stdout"
$screen lines always.err >always.lines
if grep -q '^1/1 measuring | ' always.lines; then ok; else
  bad "--progress=always: no 'measuring' status line on stderr: $(head -c 300 always.err | cat -v)"; fi
if [ "$(tail -c 4 always.err | od -An -c | tr -s ' ')" = ' \r 033 [ K' ]; then ok; else
  bad "--progress=always: stderr does not end with the erase (CR ESC [K): $(tail -c 40 always.err | cat -v)"; fi
# Not a terminal: the width is not known, so 80 columns (79 used).
long=$(awk 'length > 79' always.lines | head -1)
[ -z "$long" ] && ok || bad "--progress=always: a line wider than 79: '$long'"

if ! command -v script >/dev/null; then
  echo "script(1) (util-linux) not found: the terminal checks are skipped"
  finish status_test
  exit
fi

if [ $wine = 1 ]; then
  # --- a console: wine gives iospd.exe one on a terminal ----------------------
  # The line is drawn with CR and spaces over the previous one (wine's
  # console turns that into its own terminal output), fits the window less
  # a column, and the screen ends blank; stdout to a file stays clean.
  script -qec "stty cols 100; wine $exe ${args[*]} >con.txt" /dev/null >con.pty 2>&1
  crlf con.txt
  clean con.txt "console: stdout to a file"
  same_results con.txt never.txt "console: stdout to a file"
  $screen lines con.pty >con.lines
  grep -q '^1/1 measuring | ' con.lines && ok ||
    bad "console: no measuring line: $(head -c 400 con.pty | cat -v)"
  long=$(awk 'length > 99' con.lines | head -1)
  [ -z "$long" ] && ok || bad "console 100 columns wide: a line wider than 99: '$long'"
  if $screen screen con.pty >con.screen &&
     ! grep -qE '[0-9]+/[0-9]+ (warm-up|measuring|cool-down)' con.screen; then ok
  else bad "console: a status line is left on the screen: $(cat con.screen)"; fi
  finish status_test_wine
  exit
fi

# --- -P: its dots would share the line, so auto stays off ---------------------
script -qec "$exe -P1000 -W0 -d1 -C0 -b4K -o2 t.dat" /dev/null >dots.pty 2>&1
if grep -qaE '1/1 (warm-up|measuring)' dots.pty; then bad "-P on a terminal: auto drew a status line"
elif grep -qa '^\.\.\.' dots.pty; then ok; else bad "-P on a terminal: no dots: $(head -c 300 dots.pty | cat -v)"; fi

# --- a terminal for stderr, stdout to a file (iospd ... > result.xml) ---------
script -qec "stty cols 200; $exe -Rxml ${args[*]} >pty.xml" /dev/null >pty-err.pty 2>&1
"$exe" --progress=never -Rxml "${args[@]}" >never.xml 2>/dev/null
clean pty.xml "stderr on a terminal, -Rxml to a file"
same_results pty.xml never.xml "stderr on a terminal, -Rxml to a file"
if command -v xmllint >/dev/null; then
  xmllint --noout pty.xml 2>xmllint.err && ok || bad "pty.xml is not well-formed: $(head -3 xmllint.err)"
fi
$screen lines pty-err.pty >pty-err.lines
grep -q '^1/1 measuring | .* | R .* IOPS .* MiB/s mean .* p99 .* ms | W .* IOPS .* MiB/s mean .* p99 .* ms | 0 errors$' pty-err.lines &&
  ok || bad "terminal 200 columns wide: no full measuring line with -L latency: $(cat pty-err.lines)"
grep -q '^1/1 warm-up | ' pty-err.lines && grep -q '^1/1 cool-down | ' pty-err.lines &&
  ok || bad "terminal: warm-up and cool-down not shown: $(cat pty-err.lines)"
# The screen ends blank: the line was erased, and -v went to stderr (-Rxml).
if $screen screen pty-err.pty | grep -qE '[0-9]+/[0-9]+ (warm-up|measuring|cool-down)'; then
  bad "terminal: a status line is left on the screen: $($screen screen pty-err.pty)"
else ok; fi

# --- everything on one terminal 60 columns wide (-v lines and the report) -----
script -qec "stty cols 60; $exe ${args[*]}" /dev/null >both.pty 2>&1
$screen lines both.pty >both.lines
grep -q '^1/1 measuring | ' both.lines && ok || bad "terminal: no measuring line: $(head -c 400 both.pty | cat -v)"
long=$(awk 'length > 59' both.lines | head -1)
[ -z "$long" ] && ok || bad "terminal 60 columns wide: a line wider than 59: '$long'"
# The last line drawn is erased before anything else is written (a -v line
# or the report, which follows intact). The line comes from the drawer's
# own thread, so whether it was drawn again after the last -v line depends
# on timing; its erase does not.
if $screen last-erased both.pty >last-erased.txt 2>&1; then ok; else
  bad "terminal: the last status line is not erased before what follows: $(cat last-erased.txt)"; fi
grep -qa 'Command Line: ' both.pty && ok || bad "terminal: no report"
$screen after-erase both.pty >both-report.txt
clean both-report.txt "terminal: the report after the last erase"
same_results both-report.txt never.txt "terminal: the report after the last erase"
# What the terminal shows at the end: no status line left, every -v line on
# a row of its own, starting at column 0.
$screen screen both.pty >both.screen || bad "terminal: unexpected bytes: $(cat both.screen)"
if grep -qE '[0-9]+/[0-9]+ (warm-up|measuring|cool-down)' both.screen; then
  bad "terminal: a status line is left on the screen"; grep -nE '(warm-up|measuring|cool-down)' both.screen | head -3
else ok; fi
vlines=$(grep -cE "$vline"'[^|]*$' both.screen)
want=$(grep -cE "$vline" never.txt)
[ "$vlines" -gt 3 ] && [ "$vlines" = "$want" ] && ok ||
  bad "terminal: $vlines clean -v rows on the screen, the run without the line printed $want"

# --- -D2000: rates every 2 s, the clock still every second -------------------
script -qec "stty cols 200; $exe -b4K -o2 -W0 -d4 -C0 -D2000 t.dat >/dev/null" /dev/null >d2000.pty 2>&1
$screen lines d2000.pty >d2000.lines
secs=$(grep -oE '[0-9]+:[0-9]{2} elapsed' d2000.lines | sort -u | wc -l)
[ "$secs" -ge 4 ] && ok || bad "-D2000: the clock was drawn for $secs distinct seconds of 4: $(cat d2000.lines)"
grep -q '| R [0-9.kM]* IOPS ' d2000.lines && ok || bad "-D2000: no rates: $(cat d2000.lines)"

# --- Ctrl-C: the line is erased before the Ctrl-C line and the report --------
script -qec "sh -c '$exe -b4K -o2 -W0 -d10 -C0 t.dat & p=\$!; sleep 2; kill -INT \$p; wait \$p; echo rc=\$?'" \
  /dev/null >int.pty 2>&1
if grep -qaPz '\r\x1b\[K\r\n\*\*\* Ctrl-C: ' int.pty; then ok; else
  bad "Ctrl-C: its line does not follow an erase: $(grep -a -m1 Ctrl-C int.pty | cat -v)"; fi
grep -qa '^rc=0' int.pty && ok || bad "Ctrl-C: exit code not 0: $(tail -c 200 int.pty | cat -v)"
$screen screen int.pty >int.screen
if grep -qE '[0-9]+/[0-9]+ (warm-up|measuring|cool-down)' int.screen; then
  bad "Ctrl-C: a status line is left on the screen"
elif grep -q '^total: ' int.screen && grep -q '^\*\*\* Ctrl-C: ' int.screen; then ok
else bad "Ctrl-C: the screen lacks the Ctrl-C line or the report: $(head -5 int.screen)"; fi

finish status_test

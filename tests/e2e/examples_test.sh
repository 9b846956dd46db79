#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The example profiles in xml/examples must work exactly as their comments
# say, run from the source directory with the target replaced: the "Check:"
# line as written, and the "Run:" line with -Rptext added (profile only, no
# I/O), exit 0 and echo the profile; where a comment says "Same as: iospd
# <switches> <target>", those switches must resolve to the same <TimeSpans>
# as the profile.
# Usage: examples_test.sh <iospd binary> <source dir> [--wine]
set -uo pipefail
exe=$1
src=$2
wine=0
[ "${3:-}" = --wine ] && wine=1
work=$(mktemp -d "${TMPDIR:-/tmp}/iospd-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; [ -s "$work/err" ] && sed 's/^/  stderr: /' "$work/err" | head -5; }

iospd() { # runs the binary from the source dir; stdout/stderr to $work
  if [ $wine = 1 ]; then
    (cd "$src" && wine "$exe" "$@") >"$work/out" 2>"$work/err"
  else
    (cd "$src" && "$exe" "$@") >"$work/out" 2>"$work/err"
  fi
  rc=$?
  sed -i 's/\r$//' "$work/out" "$work/err"
}

target=example-target.dat # never opened: -Rp does no I/O
n=0
for ex in "$src"/xml/examples/*.xml; do
  [ -e "$ex" ] || { bad "no example profiles in xml/examples"; break; }
  n=$((n + 1))
  name=$(basename "$ex")
  runs=$(grep -cE '^ *Run: +iospd ' "$ex")
  if [ "$runs" != 1 ]; then bad "$name: expected one 'Run: iospd ...' line, found $runs"; continue; fi
  read -r -a words <<<"$(grep -E '^ *Run: +iospd ' "$ex" | sed -E 's/^ *Run: +iospd +//')"
  last=$((${#words[@]} - 1))
  if [ $last -lt 1 ]; then bad "$name: the Run line needs switches and a target"; continue; fi
  switches=("${words[@]:0:$last}")
  # The documented form itself: -X<file> glued, the file relative to the
  # source directory.
  case "${switches[0]}" in
    -Xxml/examples/"$name") ok ;;
    *) bad "$name: the Run line starts with '${switches[0]}', not -Xxml/examples/$name" ;;
  esac
  iospd "${switches[@]}" -Rptext "$target"
  if [ "$rc" = 0 ]; then ok; else bad "$name: 'iospd ${switches[*]} -Rptext $target' exit $rc"; continue; fi
  grep -qF "path: '$target'" "$work/out" && ok || bad "$name: -Rptext does not echo the target"
  iospd "${switches[@]}" -Rpxml "$target"
  cp "$work/out" "$work/x.xml"
  # The Check line, word for word but for the target.
  check=$(grep -E '^ *Check: +iospd ' "$ex" | sed -E 's/^ *Check: +iospd +//')
  read -r -a cw <<<"$check"
  if [ ${#cw[@]} -lt 2 ] || [ "${cw[*]:0:${#cw[@]}-1}" != "${switches[*]} -Rptext" ]; then
    bad "$name: expected 'Check: iospd ${switches[*]} -Rptext <target>', found '$check'"
  else
    iospd "${cw[@]:0:${#cw[@]}-1}" "$target"
    [ "$rc" = 0 ] && grep -qF "path: '$target'" "$work/out" && ok ||
      bad "$name: the Check line exits $rc or does not echo the target"
  fi

  same=$(grep -E '^ *Same as: +iospd .* <target>$' "$ex" | sed -E 's/^ *Same as: +iospd +//; s/ *<target>$//')
  [ -n "$same" ] || continue
  read -r -a same_sw <<<"$same"
  iospd "${same_sw[@]}" -Rpxml "$target"
  if [ "$rc" != 0 ]; then bad "$name: 'Same as' line exit $rc"; continue; fi
  sed -n '/<TimeSpans>/,/<\/TimeSpans>/p' "$work/x.xml" >"$work/want"
  sed -n '/<TimeSpans>/,/<\/TimeSpans>/p' "$work/out" >"$work/got"
  if [ -s "$work/want" ] && diff -u "$work/want" "$work/got" >"$work/diff"; then ok; else
    bad "$name: 'Same as: iospd $same' differs from the profile"; head -20 "$work/diff"
  fi
done

# The spaced form the examples used to show is refused, and the message
# gives the glued form.
iospd -X xml/examples/oltp.xml "$target"
[ "$rc" = 3 ] && ok || bad "'-X xml/examples/oltp.xml': exit $rc, expected 3"
grep -qF -- "with no space: -Xxml/examples/oltp.xml" "$work/err" && ok ||
  bad "'-X xml/examples/oltp.xml': message lacks the glued form"

# No documentation shows the spaced form as a command.
spaced=$(grep -nE 'iospd(\.exe)? +([^ ]+ +)*-X +[^ ]' "$src"/README.md "$src"/xml/README.md \
  "$src"/xml/examples/*.xml 2>/dev/null)
[ -z "$spaced" ] && ok || bad "documentation shows '-X <file>' with a space: $spaced"

echo "examples_test: $n examples, $pass passed, $fail failed"
[ $fail = 0 ]

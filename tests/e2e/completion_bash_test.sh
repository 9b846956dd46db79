#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Drives the bash completion function _iospd the way bash does: COMP_LINE,
# COMP_POINT, COMP_WORDS and COMP_CWORD as readline sets them (split at
# COMP_WORDBREAKS), then checks COMPREPLY exactly, and that iospd accepts
# the -S and -R words the completion offers (and refuses the ones it
# leaves out). Runs in `bash --norc`: no bash-completion package needed.
# Usage: completion_bash_test.sh <iospd.bash> <iospd binary>
set -u
comp_file=$1 iospd=$2
fail=0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
mkdir sub res
touch profile.xml prof2.xml notes.txt run.csv run.jsonl run.txt data.dat \
      res/a.json res/b.json res/c.txt 'sub/x.xml'

# shellcheck source=/dev/null
. "$comp_file" || { echo "FAIL: sourcing $comp_file"; exit 1; }
complete -p iospd | grep -q -- '-F _iospd iospd$' ||
  { echo "FAIL: 'complete -F _iospd iospd' is not registered"; fail=1; }

# comp <line>: completes at the end of <line> like bash would.
comp() {
  COMP_LINE=$1
  COMP_POINT=${#1}
  COMP_WORDS=()
  # bash's split: blanks separate words, and every run of
  # COMP_WORDBREAKS characters (= and : here) is a word of its own.
  local rest=$1 w
  while [[ $rest =~ ^[[:space:]]*([=:]+|[^[:space:]=:]+) ]]; do
    w=${BASH_REMATCH[1]}
    COMP_WORDS+=("$w")
    rest=${rest:${#BASH_REMATCH[0]}}
  done
  [[ $1 == *[[:space:]] ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _iospd
}

# expect <line> <nospace 0|1> <candidate>...: COMPREPLY is exactly these.
expect() {
  local line=$1 ns=$2
  shift 2
  comp "$line"
  local got want
  got=$(printf '[%s]' "${COMPREPLY[@]}")
  want=$(printf '[%s]' "$@")
  if [[ $got != "$want" ]]; then
    echo "FAIL: '$line<TAB>': COMPREPLY $got, expected $want"
    fail=1
  elif [[ $_iospd_nospace != "$ns" ]]; then
    echo "FAIL: '$line<TAB>': nospace $_iospd_nospace, expected $ns"
    fail=1
  else
    echo "ok: '$line<TAB>' -> $got"
  fi
}

# Switch letters, and the words of -S and -R.
expect 'iospd -S' 0 -S -Sb -Sh -Sm -Su -Sw
expect 'iospd -Su' 0 -Su -Suw
expect 'iospd -Suw' 0 -Suw
expect 'iospd -Sh' 0 -Sh
expect 'iospd -Sb' 0 -Sb -Sbm -Sbw
expect 'iospd -Sr' 0
expect 'iospd -R' 0 -R -Rtext -Rxml -Rjson -Rfio-json -Rp -Rptext -Rpxml
expect 'iospd -Rf' 0 -Rfio-json
expect 'iospd -Rp' 0 -Rp -Rptext -Rpxml
expect 'iospd -r' 0 -r -rs -rd
expect 'iospd -rd' 0 -rd -rdpct -rdabs
expect 'iospd -L' 0 -L
expect 'iospd -b' 0 -b -bs -b512 -b4K -b8K -b16K -b32K -b64K -b128K -b256K -b512K \
  -b1M -b2M -b4M -b8M
expect 'iospd -b6' 0 -b64K
expect 'iospd -b4K -o' 0 -o -oc
expect 'iospd -o8' 0
expect 'iospd -t4 -N' 0 -N -Nv
# Long options and their values; bash replaces only the text after the last
# '=' or ':', so the candidates are cut there.
expect 'iospd --eng' 1 --engine=
expect 'iospd --engine=' 0 auto io_uring libaio threads psync null
expect 'iospd --engine=io' 0 io_uring
expect 'iospd --pro' 1 --progress=
expect 'iospd --progress=' 0 auto always never
expect 'iospd --al' 0 --allow-raw-write
expect 'iospd --h' 0 --help
expect 'iospd --output=' 1 text: xml: json: html: fio-json:
expect 'iospd --output=j' 1 json:
expect 'iospd --output=h' 1 html:
expect 'iospd --output=f' 1 fio-json:
expect 'iospd --output=json:' 1 data.dat notes.txt prof2.xml profile.xml res/ run.csv \
  run.jsonl run.txt sub/
expect 'iospd --output=json:res/' 0 res/a.json res/b.json res/c.txt
expect 'iospd --timeseries=' 1 res/ run.csv run.jsonl sub/
expect 'iospd --timeseries=run.j' 0 run.jsonl
# --merge only as the first argument, then .json files (and directories).
expect 'iospd --m' 0 --merge
expect 'iospd -b4K --m' 0
expect 'iospd --merge ' 1 res/ sub/
expect 'iospd --merge res/' 0 res/a.json res/b.json
expect 'iospd --merge res/a.json res/' 0 res/a.json res/b.json
# -X: the file name is glued to the switch; .xml files and directories.
expect 'iospd -Xprof' 0 -Xprof2.xml -Xprofile.xml
expect 'iospd -Xprofi' 0 -Xprofile.xml
expect 'iospd -X' 1 -X -Xprof2.xml -Xprofile.xml -Xres/ -Xsub/
expect 'iospd -Xsub/' 0 -Xsub/x.xml
# Targets: any file.
expect 'iospd -b4K -Sh da' 0 data.dat
expect 'iospd -b4K r' 1 res/ run.csv run.jsonl run.txt
expect 'iospd -d1 run.txt no' 0 notes.txt

# The same through real readline: an interactive bash on a pseudo-terminal
# (completion_bash_pty.py) types <line><TAB>; the line it ends with.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
typed() { # <line> <line after TAB>
  local got
  got=$(timeout 20 python3 "$here/completion_bash_pty.py" "$comp_file" "$tmp" "$1")
  if [[ $got != "[$2]" ]]; then
    echo "FAIL: readline '$1<TAB>' gives $got, expected [$2]"
    fail=1
  else
    echo "ok: readline '$1<TAB>' -> $got"
  fi
}
if command -v python3 >/dev/null; then
  typed 'iospd --eng' 'iospd --engine='
  typed 'iospd --engine=io_' 'iospd --engine=io_uring '
  typed 'iospd -b4K --output=json:da' 'iospd -b4K --output=json:data.dat '
  typed 'iospd -Xprofi' 'iospd -Xprofile.xml '
  typed 'iospd -Suw' 'iospd -Suw '
  typed 'iospd -Rpx' 'iospd -Rpxml '
  typed 'iospd --merge res/a' 'iospd --merge res/a.json '
  # Names with blanks: readline quotes them, and an escaped blank already
  # typed stays inside the word.
  mkdir 'my dir' && touch 'my dir/p q.xml'
  typed 'iospd -d1 my' 'iospd -d1 my\ dir/'
  typed 'iospd -d1 my\ d' 'iospd -d1 my\ dir/'
  typed 'iospd -Xmy\ dir/p' 'iospd -Xmy\ dir/p\ q.xml '
  typed 'iospd --output=xml:my\ dir/' 'iospd --output=xml:my\ dir/p\ q.xml '
else
  echo "SKIPPED PART: python3 is missing, so completion is not typed through readline"
fi

# Every switch of the options table (from the generated lists) is offered
# after '-', and so is every long option.
comp 'iospd -'
n_offered=${#COMPREPLY[@]}
n_table=$((${#_iospd_flag_names[@]} + ${#_iospd_value_names[@]} + ${#_iospd_long_names[@]}))
for s in -b -S -R -X -rs -rd -? -: -L -y --engine= --merge --output= --timeseries=; do
  printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "$s" ||
    { echo "FAIL: 'iospd -<TAB>' does not offer $s"; fail=1; }
done
[[ $n_offered -eq $n_table ]] ||
  { echo "FAIL: 'iospd -<TAB>' offers $n_offered words, the table has $n_table"; fail=1; }
echo "ok: 'iospd -<TAB>' offers all $n_offered switches and long options"

# The completion offers exactly the -S words iospd accepts: every -S
# followed by up to three of the letters b h m r u w is accepted by iospd
# (-Rp: print the profile, no I/O) if and only if the completion of the
# word without its last letter offers it. -Sr is refused on Linux.
accepts() { "$iospd" -Rp "$1" -d1 data.dat >/dev/null 2>&1; }
n=0
check_s() { # <letters so far>
  local v=$1 l offered rc
  for l in b h m r u w; do
    comp "iospd -S$v"
    offered=0
    printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "-S$v$l" && offered=1
    accepts "-S$v$l" && rc=1 || rc=0
    n=$((n + 1))
    if [[ $offered != "$rc" ]]; then
      echo "FAIL: -S$v$l offered=$offered but iospd accepts=$rc"
      fail=1
    fi
    [[ ${#v} -lt 2 ]] && check_s "$v$l"
  done
}
check_s ""
echo "ok: $n -S words: offered exactly when iospd accepts them"
comp 'iospd -R'
for w in "${COMPREPLY[@]}"; do
  [[ $w == -R ]] && continue # bare -R only after an -Rp: not alone
  accepts "$w" || { echo "FAIL: iospd refuses the offered $w"; fail=1; }
done
accepts -Rpjson && { echo "FAIL: iospd accepts -Rpjson, which is not offered"; fail=1; }
echo "ok: iospd accepts every offered -R word and refuses -Rpjson"

# The switches it lists are the ones iospd knows: each is accepted as a
# switch (an error, if any, is about its value, never "unknown switch",
# which is what iospd says of a letter it does not know, e.g. -K).
"$iospd" -Rp -K data.dat 2>&1 | grep -q 'unknown switch' ||
  { echo "FAIL: iospd no longer says 'unknown switch' for -K; fix this test"; fail=1; }
for s in "${_iospd_flag_names[@]}" "${_iospd_value_names[@]}"; do
  out=$("$iospd" -Rp "$s" data.dat 2>&1)
  if grep -qi 'unknown switch\|not a switch\|unknown option' <<<"$out"; then
    echo "FAIL: iospd does not know the offered $s: $out"
    fail=1
  fi
done
echo "ok: iospd knows every offered switch"
exit $fail

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# zsh completion (scripts/completion/_iospd): parses, loads under `zsh -f`
# with compinit for the command iospd, and real completions (driven through
# zpty, tests/e2e/completion_zsh_capture.zsh) offer the switches with their
# descriptions, the -S/-R words, long option values and files.
# Usage: completion_zsh_test.sh <_iospd> <iospd.bash>
set -u
zfile=$1 bfile=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v zsh >/dev/null ||
  { echo "SKIP: zsh is not installed (scripts/deps.sh installs it)"; exit 77; }
fail=0
zsh -n "$zfile" || { echo "FAIL: zsh cannot parse $zfile"; exit 1; }
echo "ok: zsh parses $zfile"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/fp" "$tmp/w" "$tmp/w/res"
cp "$zfile" "$tmp/fp/_iospd"
cd "$tmp/w" || exit 1
touch profile.xml prof2.xml data.dat run.csv res/a.json

got=$(zsh -f -c 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -D
                 print -r -- ${_comps[iospd]}' zsh "$tmp/fp")
[[ $got == _iospd ]] || { echo "FAIL: compinit maps iospd to '$got', not _iospd"; fail=1; }
echo "ok: compinit loads _iospd for iospd"

# cands <line>: the candidates zsh offers, sorted, as "word|shown" lines.
cands() {
  rm -f "$tmp/out"
  timeout 20 zsh -f "$here/completion_zsh_capture.zsh" "$tmp/fp" "$1" "$tmp/out" >/dev/null 2>&1
  [[ -f $tmp/out ]] && LC_ALL=C sort -u "$tmp/out"
}
# expect <line> <word>...: exactly these words are offered.
expect() {
  local line=$1 got want
  shift
  got=$(cands "$line" | cut -d'|' -f1 | LC_ALL=C sort -u | tr '\n' ' ')
  want=$(printf '%s\n' "$@" | LC_ALL=C sort -u | tr '\n' ' ')
  if [[ $got != "$want" ]]; then
    echo "FAIL: zsh '$line<TAB>': offers [$got], expected [$want]"
    fail=1
  else
    echo "ok: zsh '$line<TAB>' -> [$got]"
  fi
}
expect 'iospd -S' -S -Sb -Sh -Sm -Su -Sw
expect 'iospd -Su' -Su -Suw
expect 'iospd -Rf' -Rfio-json
expect 'iospd -Rp' -Rp -Rptext -Rpxml
expect 'iospd --eng' --engine=
expect 'iospd --engine=' auto io_uring libaio threads psync null
expect 'iospd --progress=' auto always never
expect 'iospd --output=' text: xml: json: html: fio-json:
# zsh adds the '/' of a directory itself (an auto-removable suffix).
expect 'iospd --output=json:' data.dat prof2.xml profile.xml res run.csv
expect 'iospd --timeseries=' res run.csv
expect 'iospd -Xprof' prof2.xml profile.xml
expect 'iospd --merge ' res
expect 'iospd --merge res/' a.json
expect 'iospd -b6' -b64K
expect 'iospd da' data.dat

# 'iospd -<TAB>' shows every switch of the options table with its one-line
# description (the generated lists, the same in the bash file).
list=$(cands 'iospd -')
names=$(bash --norc -c '. "$1"; for ((i = 0; i < ${#_iospd_flag_names[@]}; i++)); do
  printf "%s|%s\n" "${_iospd_flag_names[i]}" "${_iospd_flag_descs[i]}"; done
  for ((i = 0; i < ${#_iospd_value_names[@]}; i++)); do
  printf "%s|%s\n" "${_iospd_value_names[i]}" "${_iospd_value_descs[i]}"; done' bash "$bfile")
n=0
while IFS='|' read -r sw desc; do
  n=$((n + 1))
  # The shown line is "<switch> -- <description>"; zsh quotes '?' as '\?'.
  if ! grep -qF -- "|$sw " <<<"$list" || ! grep -F -- "|$sw " <<<"$list" | grep -qF -- "-- $desc"; then
    echo "FAIL: zsh 'iospd -<TAB>' does not show '$sw -- $desc'"
    fail=1
  fi
done <<<"$names"
[[ $n -ge 30 ]] || { echo "FAIL: only $n switches in the generated lists"; fail=1; }
echo "ok: zsh 'iospd -<TAB>' shows all $n switches with their descriptions"
exit $fail

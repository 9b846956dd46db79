# SPDX-License-Identifier: MIT
# Runs zsh's real completion for a command line and prints every candidate
# offered, one per line as <word>|<shown line> (the shown line carries the
# description _describe adds). Used by completion_zsh_test.sh.
# Usage: zsh -f completion_zsh_capture.zsh <fpath dir> <line> <out file>
# An interactive zsh under zpty loads compinit with <fpath dir> first; a
# compadd wrapper records what each call adds; <TAB> completes <line>.
zmodload zsh/zpty || exit 2
zpty z zsh -f -i
zpty -w z "PS1=; PS2=; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () {
  local -a hits a dd; a=("$@")
  if (( ${a[(I)-(O|A|D)]} )); then builtin compadd "$@"; return; fi
  builtin compadd -A hits "$@"
  local i p= s=
  for ((i = 1; i <= $#a; i++)); do
    case $a[i] in (--) break;; (-P) p=$a[i+1];; (-S) s=$a[i+1];; (-d) dd=(${(P)a[i+1]});; esac
  done
  for ((i = 1; i <= $#hits; i++)); do print -r -- "$p$hits[i]$s|${dd[i]}" >>$CAPFILE; done
  builtin compadd "$@"
}'
zpty -w z "CAPFILE=${(q)3}; cd ${(q)PWD}; bindkey '^I' complete-word"
zpty -n -w z "$2"$'\t'
# Let the completion run before more input arrives (typed-ahead keys make
# zsh skip it): wait for its first candidate, then a little longer.
integer i
for ((i = 0; i < 100; i++)); do
  [[ -s $3 ]] && break
  sleep 0.1
done
sleep 0.5
# Clear the line, then wait for a marker (split so its echo differs).
zpty -w z $'\C-u'"print -r -- '<DO''NE>'"
zpty -r z line '*<DONE>*'
zpty -d z

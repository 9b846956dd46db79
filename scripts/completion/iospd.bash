# bash completion for iospd                                 -*- shell-script -*-
# SPDX-License-Identifier: MIT
#
# Installed as /usr/share/bash-completion/completions/iospd by the .deb;
# without the package: source this file (e.g. from ~/.bashrc). It needs
# nothing from the bash-completion package.
#
# iospd switches are one word with the value glued on (-b4K, -Sh, -Xp.xml,
# --output=json:r.json), so this completes the whole word under the cursor,
# taken from COMP_LINE: bash's own word list splits at '=' and ':'.
#
# scripts/completion/iospd.bash is generated from scripts/completion/
# iospd.bash.in: edit the template, then build iospd_completion_update.

# Generated from the options table (src/cli/options.c) by
# scripts/completion/gen_completion.c: edit the table or the
# template, then rebuild the target iospd_completion_update.
# Switches without a value, and their descriptions.
_iospd_flag_names=(
  '-p'
  '-h'
  '-l'
  '-n'
  '-L'
  '-?'
)
_iospd_flag_descs=(
  'parallel sequential'
  'cache mode'
  'large pages'
  'no affinity'
  'latency'
  'help'
)
# Switches whose value is glued to them (-b4K).
_iospd_value_names=(
  '-b'
  '-bs'
  '-B'
  '-c'
  '-f'
  '-T'
  '-r'
  '-rs'
  '-rd'
  '-s'
  '-w'
  '-Z'
  '-z'
  '-S'
  '-N'
  '-t'
  '-F'
  '-o'
  '-O'
  '-oc'
  '-u'
  '-a'
  '-I'
  '-d'
  '-W'
  '-C'
  '-g'
  '-i'
  '-j'
  '-D'
  '-R'
  '-v'
  '-P'
  '-:'
  '-X'
  '-y'
)
_iospd_value_descs=(
  'block size'
  'buffer separation'
  'base offset'
  'file size to create'
  'maximum offset or access hints'
  'thread stride'
  'random alignment'
  'random percentage'
  'random distribution'
  'sequential stride'
  'write percentage'
  'write buffer'
  'random seed'
  'cache mode'
  'memory-mapped flush mode'
  'threads per target'
  'total thread count'
  'outstanding I/O count'
  'outstanding I/Os per thread'
  'completion depth'
  'ring submission'
  'CPU affinity'
  'I/O priority'
  'test duration'
  'warm-up time'
  'cool-down time'
  'throughput limit'
  'burst size'
  'think time'
  'IOPS interval'
  'result format'
  'verbose mode'
  'progress interval'
  'experiment flags'
  'XML profile'
  'named event'
)
# Long options; a trailing '=' means the value follows it.
_iospd_long_names=(
  '--allow-raw-write'
  '--engine='
  '--diskspd='
  '--output='
  '--merge'
  '--report='
  '--compare'
  '--progress='
  '--timeseries='
  '--ping='
  '--verify'
  '--verify-only'
  '--verify-errors='
  '--verify-state='
  '--compress='
  '--dedupe='
  '--version'
  '--tree='
  '--files='
  '--file-size='
  '--skew='
  '--assign='
  '--relocate='
  '--depth='
  '--width='
  '--append'
  '--cleanup'
  '--help'
  '--steady-state='
  '--pts='
  '--pts-cell='
  '--pts-matrix='
  '--pts-purge='
  '--pts-resume='
  '--curve='
  '--latency-limit='
  '--expect='
)
_iospd_long_descs=(
  'raw write permission'
  'I/O engine'
  'DISKSPD level'
  'report file'
  'merge mode'
  'HTML report'
  'compare mode'
  'live status line'
  'time series'
  'latency probe'
  'verified writes'
  'verify pass'
  'failures printed'
  'verify state file'
  'compressible content'
  'duplicate blocks'
  'version'
  'file-tree workload'
  'number of files'
  'file size'
  'hot/cold skew'
  'file placement'
  'relocation rate'
  'sub-directory depth'
  'sub-directory width'
  'append-only writes'
  'remove the tree'
  'help'
  'steady state'
  'SNIA PTS test'
  'PTS cell length'
  'PTS reduced matrix'
  'PTS purge'
  'PTS resume'
  'queue-depth curve'
  'latency bound'
  'expected throughput'
)
# The --output formats (src/profile/formats.c), each with its ':'.
_iospd_output_formats=( text: xml: json: html: fio-json: )
# The -R words (the results, then the profile alone).
_iospd_r_words=( -Rtext -Rxml -Rjson -Rfio-json -Rp -Rptext -Rpxml )
# The values of long options that take one word of a list.
_iospd_words_engine=( auto io_uring libaio threads psync null )
_iospd_words_diskspd=( 2.2 2.3 )
_iospd_words_progress=( auto always never )
_iospd_words_verify_errors=( n )
_iospd_words_verify_state=( file )
_iospd_words_files=( n )
_iospd_words_file_size=( size )
_iospd_words_assign=( even ordered random )
_iospd_words_depth=( n )
_iospd_words_width=( n )
_iospd_words_pts=( iops throughput latency )
_iospd_words_pts_cell=( time )
_iospd_words_pts_purge=( trim secure )

# Offered after -b; any whole number with K, M, G, T or b works.
_iospd_sizes=(512 4K 8K 16K 32K 64K 128K 256K 512K 1M 2M 4M 8M)

# _iospd_files <prefix> [<suffix>...]: prints the files starting with
# <prefix> (only those ending with a <suffix> if any are given) and the
# directories, with a trailing '/', one per line.
_iospd_files() {
  local prefix=$1 f s
  shift
  local IFS=$'\n'
  # Sorted, so the order does not depend on the directory's.
  for f in $(compgen -f -- "$prefix" | LC_ALL=C sort); do
    if [[ -d $f ]]; then
      printf '%s/\n' "$f"
    elif (($# == 0)); then
      printf '%s\n' "$f"
    else
      for s in "$@"; do
        if [[ $f == *"$s" ]]; then
          printf '%s\n' "$f"
          break
        fi
      done
    fi
  done
}

# _iospd_cache_words <letters>: -S<letters> if iospd accepts it, and every
# -S<letters><one more> it accepts (the rules of sw_cache in cmdline.c:
# one cache mode of b u h, m not with u or h, w not twice nor with h; r is
# refused on Linux). Nothing if <letters> is already refused.
_iospd_cache_words() {
  local v=$1 cache=0 wt=0 mm=0 i l
  for ((i = 0; i < ${#v}; i++)); do
    l=${v:i:1}
    case $l in
      b) ((cache)) && return; cache=1 ;;
      u) ((cache || mm)) && return; cache=2 ;;
      w) ((wt)) && return; wt=1 ;;
      m) ((mm || cache == 2)) && return; mm=1 ;;
      h) ((cache || wt || mm)) && return; cache=2; wt=1 ;;
      *) return ;;
    esac
  done
  printf '%s\n' "-S$v"
  ((cache)) || printf '%s\n' "-S${v}b"
  ((cache || wt || mm)) || printf '%s\n' "-S${v}h"
  ((mm || cache == 2)) || printf '%s\n' "-S${v}m"
  ((cache || mm)) || printf '%s\n' "-S${v}u"
  ((wt)) || printf '%s\n' "-S${v}w"
}

# _iospd_value <switch> <value>: candidates for the whole word
# -<switch><value>, one per line.
_iospd_value() {
  local sw=$1 v=$2 w
  case $sw in
    b) for w in "${_iospd_sizes[@]}"; do printf '%s\n' "-b$w"; done ;;
    S) _iospd_cache_words "$v" ;;
    R) printf '%s\n' "${_iospd_r_words[@]}" ;;
    v) printf '%s\n' -v -vs ;;
    N) printf '%s\n' -Nv ;; # the only flush mode on Linux
    I) printf '%s\n' -I1 -I2 -I3 ;;
    rd) printf '%s\n' -rdpct -rdabs ;;
    y) printf '%s\n' -ys -yf -yr -yp -ye ;;
    X) _iospd_files "$v" .xml | while IFS= read -r w; do
         printf '%s\n' "-X$w"
       done ;;
  esac
}

# _iospd_long <word>: candidates for a word starting with "--".
_iospd_long() {
  local cur=$1 name v w
  if [[ $cur != *=* ]]; then
    for w in "${_iospd_long_names[@]}"; do
      [[ $w == --merge && $_iospd_argi -gt 1 ]] && continue # first only
      printf '%s\n' "$w"
    done
    return
  fi
  name=${cur%%=*}
  v=${cur#*=}
  case $name in
    --output)
      if [[ $v == *:* ]]; then
        _iospd_files "${v#*:}" | while IFS= read -r w; do
          printf '%s\n' "--output=${v%%:*}:$w"
        done
      else
        printf -- '--output=%s\n' "${_iospd_output_formats[@]}"
      fi ;;
    --timeseries)
      _iospd_files "$v" .csv .jsonl | while IFS= read -r w; do
        printf '%s\n' "--timeseries=$w"
      done ;;
    *)
      local words="_iospd_words_${name#--}[@]"
      words=${words//-/_}
      for w in "${!words}"; do printf '%s\n' "$name=$w"; done ;;
  esac
}

# _iospd_candidates <word>: every candidate for the whole word, one per line
# (the caller keeps those that start with the word).
_iospd_candidates() {
  local cur=$1 n best=
  if [[ $_iospd_argi -gt 1 && ${_iospd_args[1]} == --merge ]]; then
    _iospd_files "$cur" .json
  elif [[ $cur == --* ]]; then
    _iospd_long "$cur"
  elif [[ $cur == -* ]]; then
    printf '%s\n' "${_iospd_flag_names[@]}" "${_iospd_value_names[@]}"
    # The switch the word starts with: the longest name (-rs50 is -rs).
    for n in "${_iospd_value_names[@]}"; do
      [[ $cur == "$n"* && ${#n} -gt ${#best} ]] && best=$n
    done
    [[ -n $best ]] && _iospd_value "${best#-}" "${cur#"$best"}"
    _iospd_long "$cur" # "-<TAB>" lists the long options too
  else
    _iospd_files "$cur" # a target
  fi
}

_iospd() {
  local line=${COMP_LINE:0:COMP_POINT} cur c i keep=0
  local -a _iospd_args
  # The whole word under the cursor, and the words before it, with a
  # backslash-escaped character read as itself (my\ dir is "my dir").
  read -a _iospd_args <<<"$line"
  if [[ -z $line || $line == *[[:space:]] ]]; then
    cur=
  else
    cur=${_iospd_args[${#_iospd_args[@]} - 1]}
  fi
  local _iospd_argi=$(( ${#_iospd_args[@]} - (${#cur} > 0 ? 1 : 0) ))
  # bash replaces only the text after the last COMP_WORDBREAKS character of
  # the word (--output=json:r| replaces "r"), so every candidate is cut there.
  # A blank inside the word was escaped (my\ dir), so it breaks nothing.
  local brk=${COMP_WORDBREAKS-$'"\'@><=;|&(:'}
  brk=${brk//[[:space:]]/}
  for ((i = ${#cur} - 1; i >= 0; i--)); do
    if [[ $brk == *"${cur:i:1}"* ]]; then
      keep=$((i + 1))
      break
    fi
  done
  COMPREPLY=()
  _iospd_nospace=0
  local -A seen=()
  while IFS= read -r c; do
    [[ $c == "$cur"* && -z ${seen[$c]-} ]] || continue
    seen[$c]=1
    COMPREPLY+=("${c:keep}")
    # A value still to come (--engine=, -b, a directory): no space after it.
    [[ $c == *[=:/] ]] && _iospd_nospace=1
  done < <(_iospd_candidates "$cur")
  # File names: readline quotes them (a space becomes "\ "). Not for the
  # other words, where it would quote the '=' of --engine=.
  if [[ $cur != -* || $cur == -X* || $cur == --output=*:* ||
        $cur == --timeseries=* || ${_iospd_args[1]-} == --merge ]]; then
    compopt -o filenames 2>/dev/null
  fi
  if ((_iospd_nospace)); then
    compopt -o nospace 2>/dev/null
  fi
  return 0
}

complete -F _iospd iospd

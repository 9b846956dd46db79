#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue #12: iospd inside a container-like seccomp filter (io_uring refused
# with EPERM, as Docker's default profile does). --engine=auto must pick
# kernel AIO for unbuffered targets and the thread pool for buffered ones,
# say so in the report, keep -o I/Os in flight and warn about nothing; a
# forced engine the kernel refuses must fail with exit 1, the kernel's
# reason and the engine that would work; an engine that keeps fewer I/Os in
# flight than -o asks must say so. Every engine writes exactly the blocks
# it should through every cache mode.
# Usage: engines_test.sh <iospd binary> <no_uring_exec binary>
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
jail=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
# Test files live next to the build (a real file system: O_DIRECT works
# there, unlike on some tmpfs).
work=$(mktemp -d "$(dirname "$exe")/iospd-engines.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# bad_detail: after a FAIL, what the failed run printed.
bad_detail() {
  sed 's/^/  out: /' out | grep -E 'using|engine|WARNING' | head -6
  sed 's/^/  err: /' err | head -6
}
run() { "$@" >out 2>err; rc=$?; }
has() { # file fixed-text description
  if grep -qF -- "$2" "$1"; then ok; else bad "$3: '$2' not in $1"; fi
}
hasnt() { # file fixed-text description
  if grep -qF -- "$2" "$1"; then bad "$3: '$2' found in $1"; else ok; fi
}
code() { # want description
  if [ "$rc" = "$1" ]; then ok; else bad "$2: exit $rc, want $1"; fi
}

run "$jail" true
if [ "$rc" = 77 ]; then
  echo "skipped: $(cat err)"
  exit 77
fi
"$exe" -c1M -d1 -W0 -C0 -b4K t.dat >/dev/null 2>&1 || { echo "cannot create t.dat"; exit 1; }
direct=1
"$exe" -d1 -W0 -C0 -b4K -Su t.dat >/dev/null 2>&1 || direct=0
[ $direct = 1 ] || echo "note: O_DIRECT refused here; the -Su checks are skipped"

tab=$'\t'
# A target line of the input parameters at DISKSPD 2.3 (the default level):
# six spaces in.
tgt='      '
# --- auto inside the filter ----------------------------------------------
if [ $direct = 1 ]; then
  run "$jail" "$exe" -b4K -r -Su -o8 -t1 -d1 -W0 -C0 t.dat
  code 0 "auto -Su under seccomp"
  has out "${tgt}using libaio (Linux kernel AIO; io_uring unavailable), 8 I/Os in flight per thread" "auto -Su: engine line"
  has out "I/O engine:${tab}${tab}libaio, 8 I/Os in flight per thread" "auto -Su: results engine line"
  hasnt out "WARNING" "auto -Su: no depth warning in the report"
  hasnt err "WARNING" "auto -Su: no depth warning on stderr"
  run "$jail" "$exe" -b4K -r -Su -o8 -t1 -d1 -W0 -C0 -Rxml t.dat
  has out "<IoEngine>libaio</IoEngine>" "auto -Su -Rxml: engine"
  has out "<IoEngineDepth>8</IoEngineDepth>" "auto -Su -Rxml: depth"
  run "$jail" "$exe" -Rp -b4K -r -Su -o8 -t1 t.dat
  has out "using libaio (Linux kernel AIO; io_uring unavailable), 8 I/Os in flight per thread" "-Rp -Su under seccomp"
  # -Sh too (unbuffered and write-through).
  run "$jail" "$exe" -b4K -r -Sh -o4 -t1 -d1 -W0 -C0 -w100 t.dat
  has out "I/O engine:${tab}${tab}libaio, 4 I/Os in flight per thread" "auto -Sh"
fi
run "$jail" "$exe" -b4K -r -o8 -t1 -d1 -W0 -C0 t.dat
code 0 "auto buffered under seccomp"
has out "${tgt}using threads (a pool of blocking pread/pwrite threads; io_uring unavailable), 8 I/Os in flight per thread" "auto buffered: engine line"
has out "I/O engine:${tab}${tab}threads, 8 I/Os in flight per thread" "auto buffered: results engine line"
hasnt out "WARNING" "auto buffered: no depth warning"
hasnt err "WARNING" "auto buffered: no depth warning on stderr"
run "$jail" "$exe" -b4K -r -o1 -t2 -d1 -W0 -C0 t.dat
has out "I/O engine:${tab}${tab}psync (synchronous, queue depth 1), 1 I/O in flight per thread" "auto -o1: psync"
hasnt err "WARNING" "auto -o1: no warning"

# --- forced engines the kernel refuses -------------------------------------
run "$jail" "$exe" -b4K -r -o8 -d1 -W0 -C0 --engine=io_uring t.dat
code 1 "--engine=io_uring under seccomp"
has err "io_uring_setup: Operation not permitted" "--engine=io_uring: the kernel's reason"
has err "a seccomp policy refuses it" "--engine=io_uring: the cause"
has err "--engine=threads would work" "--engine=io_uring buffered: what works"
run "$jail" "$exe" -Rp -b4K -o8 --engine=io_uring t.dat
has out "${tgt}using io_uring, which cannot start here: io_uring is not available" "-Rp --engine=io_uring under seccomp"
if [ $direct = 1 ]; then
  run "$jail" "$exe" -b4K -r -Su -o8 -d1 -W0 -C0 --engine=io_uring t.dat
  code 1 "--engine=io_uring -Su under seccomp"
  has err "--engine=libaio would work" "--engine=io_uring -Su: what works"
  run "$jail" --no-aio "$exe" -b4K -r -Su -o8 -d1 -W0 -C0 --engine=io_uring t.dat
  code 1 "--engine=io_uring -Su without io_uring and kernel AIO"
  has err "--engine=threads would work" "--engine=io_uring -Su, no AIO: what works"
  run "$jail" --no-aio "$exe" -b4K -r -Su -o8 -d1 -W0 -C0 --engine=libaio t.dat
  code 1 "--engine=libaio without kernel AIO"
  has err "kernel AIO is not available (io_setup: Operation not permitted)" "--engine=libaio: the kernel's reason"
  has err "--engine=threads would work" "--engine=libaio: what works"
  run "$jail" --no-aio "$exe" -b4K -r -Su -o8 -d1 -W0 -C0 t.dat
  code 0 "auto -Su without io_uring and kernel AIO"
  has out "I/O engine:${tab}${tab}threads, 8 I/Os in flight per thread" "auto -Su falls back to threads"
fi

# --- a shortfall is never silent ---------------------------------------------
run "$exe" -b4K -r -o8 -d1 -W0 -C0 --engine=psync t.dat
code 0 "--engine=psync -o8"
has err "WARNING: thread 0: the psync engine keeps 1 I/O in flight, not the 8 asked for" "psync -o8: stderr"
has out "WARNING: thread 0: the psync engine kept 1 I/O in flight, not the 8 asked for" "psync -o8: report"
has out "I/O engine:${tab}${tab}psync, 1 I/O in flight per thread" "psync -o8: engine line"
run "$exe" -b4K -r -o8 -d1 -W0 -C0 --engine=libaio t.dat
has err "WARNING: thread 0: the libaio engine keeps 1 I/O in flight, not the 8 asked for" "libaio buffered: stderr"
# The warning comes before the results.
if [ "$(grep -n 'WARNING: thread 0' out | head -1 | cut -d: -f1)" -lt \
     "$(grep -n '^Total IO' out | head -1 | cut -d: -f1)" ]; then ok; else
  bad "libaio buffered: the warning is not before the results"; fi

# --- every engine writes what it should, through every cache mode --------
# A file of 0xAA bytes, written whole with -w100 -si (each 4 KiB block then
# holds the write buffer's pattern, byte i = i mod 256), compared byte for
# byte; a second run reads it all back.
python3 - <<'EOF'
open("want.bin", "wb").write(bytes(i & 0xff for i in range(4096)) * 64)
EOF
for e in io_uring libaio threads psync; do
  for mode in "" -Sw -Su -Sh; do
    case "$mode" in -Su | -Sh) [ $direct = 1 ] || continue ;; esac
    python3 -c 'open("w.dat","wb").write(b"\xaa" * 262144)'
    run "$exe" -b4K -si -o4 -w100 -d1 -W0 -C0 --engine=$e $mode w.dat
    if [ "$rc" = 2 ] || grep -q "io_uring is not available" err; then
      echo "note: $e unavailable here: $(head -1 err)"
      continue
    fi
    code 0 "$e $mode write"
    if cmp -s w.dat want.bin; then ok; else bad "$e $mode: the file does not hold what was written"; fi
    run "$exe" -b4K -si -o4 -d1 -W0 -C0 --engine=$e $mode w.dat
    code 0 "$e $mode read back"
    has out "I/O engine:${tab}${tab}$e" "$e $mode: engine used"
  done
done

finish engines_test

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# iospd vs fio on Linux (issue #5): runs both tools alternately (A B B A ...)
# with equivalent settings on the same file, then scripts/bench/summarize.py
# reports median IOPS, per-pair ratios, CPU per I/O, latency and PASS/MISS.
set -u

usage() {
  cat <<'EOF'
usage: scripts/bench/vs-fio.sh [options]
  --seconds N      measured seconds per run (default 10)
  --warmup N       warm-up seconds per run: iospd -W, fio --ramp_time (default 2)
  --pairs N        pairs per workload; iospd runs first in odd pairs, fio
                   in even ones (default 5)
  --size SIZE      test file size, e.g. 1G, 64M (default 1G)
  --dir DIR        folder for the test file; must not be tmpfs because
                   O_DIRECT needs a real file system (default build/bench-data)
  --workloads LIST comma-separated workloads 1-7, L (the -L cost check)
                   and S (live status + time series cost, with -L)
                   (default 1,2,3,4,5,6,7,L,S)
  --out DIR        results folder (default scripts/bench/results/<date>-<host>)
  --iospd PATH     iospd binary to use (default: build build/bench-linux Release)
  --pin CPU        pin both tools to this CPU (iospd -a<CPU>, fio
                   --cpus_allowed=<CPU>); default: both unpinned (iospd -n)
  --iospd-engine E iospd's --engine= for every run: auto (default), io_uring,
                   libaio, threads or psync
  --fio-engine E   fio's engine for the queued runs: io_uring (default),
                   libaio, or psync-jobs (psync with numjobs x iodepth jobs
                   of depth 1: the same I/Os in flight as iospd's threads)
  --quick          check the script itself: --seconds 2 --warmup 1 --pairs 1
                   --size 64M
  -h, --help       this text
EOF
}

die() { echo "vs-fio: $*" >&2; exit 1; }
log() { echo "vs-fio: $*" >&2; }

REPO=$(cd "$(dirname "$0")/../.." && pwd)
BENCH="$REPO/scripts/bench"
SECONDS_RUN=10
WARMUP=2
PAIRS=5
SIZE=1G
DIR=""
WORKLOADS="1,2,3,4,5,6,7,L,S"
OUT=""
IOSPD=""
PIN=""
IOSPD_ENGINE=auto
FIO_ENGINE=""

need_arg() { [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value (see --help)"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) need_arg "$@"; SECONDS_RUN=$2; shift 2 ;;
    --warmup) need_arg "$@"; WARMUP=$2; shift 2 ;;
    --pairs) need_arg "$@"; PAIRS=$2; shift 2 ;;
    --size) need_arg "$@"; SIZE=$2; shift 2 ;;
    --dir) need_arg "$@"; DIR=$2; shift 2 ;;
    --workloads) need_arg "$@"; WORKLOADS=$2; shift 2 ;;
    --out) need_arg "$@"; OUT=$2; shift 2 ;;
    --iospd) need_arg "$@"; IOSPD=$2; shift 2 ;;
    --pin) need_arg "$@"; PIN=$2; shift 2 ;;
    --iospd-engine) need_arg "$@"; IOSPD_ENGINE=$2; shift 2 ;;
    --fio-engine) need_arg "$@"; FIO_ENGINE=$2; shift 2 ;;
    --quick) SECONDS_RUN=2; WARMUP=1; PAIRS=1; SIZE=64M; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done
whole() { case "$2" in ''|*[!0-9]*) die "$1 must be a whole number, got '$2'" ;; esac; }
whole --seconds "$SECONDS_RUN"; whole --warmup "$WARMUP"; whole --pairs "$PAIRS"
case "$IOSPD_ENGINE" in
  auto|io_uring|libaio|threads|psync) ;;
  *) die "--iospd-engine '$IOSPD_ENGINE': use auto, io_uring, libaio, threads or psync" ;;
esac
case "$FIO_ENGINE" in
  ''|io_uring|libaio|psync-jobs) ;;
  *) die "--fio-engine '$FIO_ENGINE': use io_uring, libaio or psync-jobs" ;;
esac
[ "$SECONDS_RUN" -ge 1 ] || die "--seconds must be at least 1"
[ "$PAIRS" -ge 1 ] || die "--pairs must be at least 1"
# Where the threads run decides, on a VM, whether a completion wakes them on
# the CPU that took the interrupt; unpinned, that changes from run to run.
# --pin puts both tools on the same CPU, so neither gets the better place.
IOSPD_AFFINITY=(-n); FIO_AFFINITY=(); AFFINITY="both unpinned (iospd -n)"
if [ -n "$PIN" ]; then
  whole --pin "$PIN"
  [ "$PIN" -lt "$(nproc)" ] || die "--pin $PIN: this machine has CPUs 0 to $(($(nproc) - 1))"
  IOSPD_AFFINITY=(-a"$PIN"); FIO_AFFINITY=(--cpus_allowed="$PIN")
  AFFINITY="both pinned to CPU $PIN (iospd -a$PIN, fio --cpus_allowed=$PIN)"
fi

# Size in bytes; the same suffixes iospd and fio take (K, M, G, T = 1024^n).
size_bytes() {
  local s=${1^^} n mult=1
  s=${s%B}
  case "$s" in
    *K) mult=1024 ;; *M) mult=$((1024**2)) ;;
    *G) mult=$((1024**3)) ;; *T) mult=$((1024**4)) ;;
  esac
  n=${s%[KMGT]}
  case "$n" in ''|*[!0-9]*) return 1 ;; esac
  echo $((n * mult))
}
SIZE_BYTES=$(size_bytes "$SIZE") || die "--size '$SIZE' is not a size like 64M or 1G"
[ "$SIZE_BYTES" -ge $((1024*1024)) ] || die "--size must be at least 1M"

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "need root (or sudo) to run: $*"; fi
}
apt_install() {
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@" ||
    { as_root apt-get update && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"; }
}

# ---- tools -----------------------------------------------------------------
command -v python3 >/dev/null || die "python3 is needed (apt-get install python3)"
if ! command -v fio >/dev/null; then
  log "fio not found; installing it with apt-get"
  apt_install fio || die "could not install fio"
fi
FIO=$(command -v fio)
FIO_ASYNC=io_uring
if [ -n "$FIO_ENGINE" ]; then
  FIO_ASYNC=$FIO_ENGINE
elif ! "$FIO" --enghelp=io_uring >/dev/null 2>&1; then
  log "this fio has no io_uring engine; using libaio for fio's async runs"
  FIO_ASYNC=libaio
fi

if [ -z "$IOSPD" ]; then
  BUILD="$REPO/build/bench-linux"
  log "building iospd (Release) in $BUILD"
  cmake -S "$REPO" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
      -DIOSPD_BUILD_TESTS=OFF -DBUILD_TESTING=OFF >"$REPO/build/bench-cmake.log" 2>&1 &&
    cmake --build "$BUILD" -j"$(nproc)" >>"$REPO/build/bench-cmake.log" 2>&1 ||
    die "iospd build failed; see $REPO/build/bench-cmake.log (or pass --iospd PATH)"
  IOSPD="$BUILD/iospd"
fi
[ -x "$IOSPD" ] || die "iospd binary '$IOSPD' does not exist or is not executable"
IOSPD=$(cd "$(dirname "$IOSPD")" && pwd)/$(basename "$IOSPD")

# ---- test file -------------------------------------------------------------
[ -n "$DIR" ] || DIR="$REPO/build/bench-data"
mkdir -p "$DIR" || die "cannot create --dir '$DIR'"
DIR=$(cd "$DIR" && pwd)
FSTYPE=$(stat -f -c %T "$DIR")
case "$FSTYPE" in
  tmpfs|ramfs) die "--dir '$DIR' is on $FSTYPE, which has no O_DIRECT; pick a folder on a disk file system" ;;
esac
FILE="$DIR/iospd-bench-$SIZE_BYTES.dat"
if [ ! -f "$FILE" ] || [ "$(stat -c %s "$FILE")" != "$SIZE_BYTES" ]; then
  log "creating $FILE ($SIZE, random data)"
  rm -f "$FILE"
  dd if=/dev/urandom of="$FILE" bs=1M count=$((SIZE_BYTES / 1048576)) \
     conv=fsync status=none || die "cannot create $FILE"
fi
dd if="$FILE" of=/dev/null bs=4096 count=1 iflag=direct status=none ||
  die "O_DIRECT reads fail on $FSTYPE ($DIR); pick another --dir"

# ---- results folder --------------------------------------------------------
HOST=$(hostname -s 2>/dev/null || hostname)
[ -n "$OUT" ] || OUT="$BENCH/results/$(date -u +%Y%m%d-%H%M%S)-$HOST"
mkdir -p "$OUT/raw" || die "cannot create --out '$OUT'"
OUT=$(cd "$OUT" && pwd)
: >"$OUT/runs.tsv"
: >"$OUT/workloads.tsv"
{
  printf 'date\t%s\n' "$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  printf 'host\t%s\n' "$HOST"
  printf 'cpu\t%s\n' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
  printf 'cores\t%s\n' "$(nproc)"
  printf 'kernel\t%s\n' "$(uname -sr)"
  printf 'fio\t%s (async engine %s)\n' "$("$FIO" --version)" "$FIO_ASYNC"
  printf 'iospd_engine\t--engine=%s\n' "$IOSPD_ENGINE"
  # The commit the binary was built from (its --version), not the checkout's:
  # a --iospd binary may come from another tree.
  printf 'iospd\t%s (%s)\n' "$("$IOSPD" --version 2>/dev/null | sed -n 's/^commit: //p' | head -n1 | grep . || echo unknown)" "$IOSPD"
  printf 'fs\t%s\n' "$FSTYPE"
  # iospd advises buffers of 2 MiB and more as transparent huge pages; fio's
  # default buffers get them only when THP is "always" (workload 6 differs).
  printf 'thp\t%s\n' "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)"
  printf 'dir\t%s\n' "$DIR"
  printf 'file_size\t%s (%s bytes)\n' "$SIZE" "$SIZE_BYTES"
  printf 'seconds\t%s\n' "$SECONDS_RUN"
  printf 'warmup\t%s\n' "$WARMUP"
  printf 'pairs\t%s\n' "$PAIRS"
  printf 'order\t%s\n' "iospd first in odd pairs, fio first in even pairs"
  printf 'affinity\t%s\n' "$AFFINITY"
  # Other work on the machine skews the numbers: keep the load for the record.
  printf 'load_start\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/meta.tsv"

# A 1-second iospd run first, so a binary that cannot run yet is reported at
# once (its runs then show up as failed; the fio half is still measured).
if ! "$IOSPD" -d1 -W0 -b4K -r -o4 -L --engine="$IOSPD_ENGINE" -Rxml "$FILE" >"$OUT/raw/preflight.xml" \
     2>"$OUT/raw/preflight.err"; then
  log "WARNING: iospd's 1-second check run failed: $(head -c 300 "$OUT/raw/preflight.err")"
  log "WARNING: the iospd runs will be reported as failed"
fi

# ---- equivalent settings, one block per workload ---------------------------
# W<n>_IOSPD: iospd switches; W<n>_FIO: fio options; W<n>_ENGINES: fio engines
# to run (the faster one is reported as "fio"); W<n>_CACHED: read the file into
# the page cache before each run. Common to every run (see run_iospd/run_fio):
#   iospd -d<seconds> -W<warmup> -n -L -Rxml <file>     (--pin N: -aN)
# -n: no CPU affinity, as fio runs by default. DISKSPD's default pins thread
# i to CPU i; on this VM the disk interrupt lands on CPU 1, so a thread pinned
# to CPU 0 pays a cross-CPU wake-up per I/O (QD1 O_DIRECT: 12.4k IOPS pinned
# vs 17.7k with -a1). Both tools must be placed the same way to compare.
#   fio --name=w<n> --filename=<file> --size=<size> --time_based
#       --runtime=<seconds> --ramp_time=<warmup> --thread --norandommap
#       --randrepeat=0 --group_reporting --scramble_buffers=0
#       --percentile_list=50:99 --output-format=json
#       [io_uring: --fixedbufs=1 --registerfiles=1] [--pin N: --cpus_allowed=N]
# fio's fixedbufs/registerfiles are its fastest io_uring settings;
# scramble_buffers=0 because iospd does not touch buffers per write either.

# 1. 4K random read, 1 thread, QD32, unbuffered
W1_TITLE="4K random read, 1 thread, QD32, unbuffered"
W1_IOSPD="-b4K -r -o32 -t1 -w0 -Su"
W1_FIO="--rw=randread --bs=4k --iodepth=32 --numjobs=1 --direct=1"
W1_ENGINES="$FIO_ASYNC"
W1_CACHED=0

# 2. 4K random read, 1 thread, QD1, unbuffered (latency)
W2_TITLE="4K random read, 1 thread, QD1, unbuffered"
W2_IOSPD="-b4K -r -o1 -t1 -w0 -Su"
W2_FIO="--rw=randread --bs=4k --iodepth=1 --numjobs=1 --direct=1"
W2_ENGINES="$FIO_ASYNC psync"
W2_CACHED=0

# 3. 4K random read, 1 thread, QD32, page cache
W3_TITLE="4K random read, 1 thread, QD32, page cache"
W3_IOSPD="-b4K -r -o32 -t1 -w0"
W3_FIO="--rw=randread --bs=4k --iodepth=32 --numjobs=1 --direct=0 --invalidate=0"
W3_ENGINES="$FIO_ASYNC"
W3_CACHED=1

# 4. 4K random read, 1 thread, QD1, page cache
W4_TITLE="4K random read, 1 thread, QD1, page cache"
W4_IOSPD="-b4K -r -o1 -t1 -w0"
W4_FIO="--rw=randread --bs=4k --iodepth=1 --numjobs=1 --direct=0 --invalidate=0"
W4_ENGINES="$FIO_ASYNC psync"
W4_CACHED=1

# 5. 8K random 70/30 read/write, 2 threads, QD16, unbuffered (OLTP).
#    json+ adds fio's histogram bins so the read+write p99 is merged exactly.
W5_TITLE="8K random 70/30 read/write, 2 threads, QD16, unbuffered (OLTP)"
W5_IOSPD="-b8K -r -w30 -t2 -o16 -Su"
W5_FIO="--rw=randrw --rwmixread=70 --bs=8k --iodepth=16 --numjobs=2 --direct=1 --output-format=json+"
W5_ENGINES="$FIO_ASYNC"
W5_CACHED=0

# 6. 1M sequential read, 1 thread, QD8, unbuffered (OLAP)
W6_TITLE="1M sequential read, 1 thread, QD8, unbuffered (OLAP)"
W6_IOSPD="-b1M -s -o8 -t1 -w0 -Su"
W6_FIO="--rw=read --bs=1m --iodepth=8 --numjobs=1 --direct=1"
W6_ENGINES="$FIO_ASYNC"
W6_CACHED=0
# iospd's buffers of 2 MiB and more are transparent huge pages, so a 1 MiB
# read is one request; fio's default buffers are 4 KiB pages, and on
# virtio-blk (254 segments) each 1 MiB read becomes two requests. When the
# machine has free huge pages, fio also runs with --mem=shmhuge and the
# faster fio counts. The script never reserves huge pages itself; to
# include this run: echo 16 > /proc/sys/vm/nr_hugepages (and 0 after).
HUGE_FREE_KB=$(awk '/^HugePages_Free:/{f=$2} /^Hugepagesize:/{s=$2} END{print f*s+0}' /proc/meminfo)
if [ "$HUGE_FREE_KB" -ge $((16 * 1024)) ]; then
  W6_ENGINES="$W6_ENGINES $FIO_ASYNC+shmhuge"
else
  log "no free huge pages: workload 6 runs fio with its default 4 KiB-page buffers only"
fi

# 7. 64K sequential write, write-through (O_DIRECT|O_DSYNC), 1 thread, QD4
W7_TITLE="64K sequential write, write-through, 1 thread, QD4"
W7_IOSPD="-b64K -s -o4 -t1 -w100 -Sh"
W7_FIO="--rw=write --bs=64k --iodepth=4 --numjobs=1 --direct=1 --sync=dsync"
W7_ENGINES="$FIO_ASYNC"
W7_CACHED=0

# L. the cost of -L: workload 3, iospd with -L against iospd without -L
WL_TITLE="-L cost: workload 3, iospd with -L vs without -L"
# S. the cost of the live status line and the time series (issue #13):
# workload 3 with -L, iospd with --progress=always --timeseries=FILE.csv
# against the same run with -L only. The status line goes to the run's
# stderr file, the series to raw/ beside the XML.
WS_TITLE="status + time series cost: workload 3 -L, with --progress=always --timeseries vs without"

# ---- runners ---------------------------------------------------------------
# Reading the whole file through the page cache makes the cached workloads
# start hot (a no-op when it is already resident).
cache_file() { dd if="$FILE" of=/dev/null bs=1M status=none; }

TIMEOUT=$((SECONDS_RUN + WARMUP + 120))
FAILED=0

# run_tool <workload> <pair> <tool> <engine> <ext> <command...>
run_tool() {
  local wl=$1 pair=$2 tool=$3 engine=$4 ext=$5; shift 5
  local base="raw/w$wl-p$pair-$tool"
  [ "$engine" = "-" ] || base="$base-$engine"
  python3 "$BENCH/rusage_run.py" --stdout "$OUT/$base.$ext" \
    --stderr "$OUT/$base.err" --rusage "$OUT/$base.rusage" \
    --timeout "$TIMEOUT" -- "$@"
  local rc=$?
  if [ $rc != 0 ]; then
    FAILED=$((FAILED + 1))
    log "workload $wl pair $pair $tool $engine failed (exit $rc): $(head -c 300 "$OUT/$base.err")"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$wl" "$pair" "$tool" \
    "$engine" "$base.$ext" "$base.rusage" "$WARMUP" "$SECONDS_RUN" "$*" \
    >>"$OUT/runs.tsv"
}

# run_iospd <workload> <pair> <tool> <iospd switches...>
run_iospd() {
  local wl=$1 pair=$2 tool=$3; shift 3
  run_tool "$wl" "$pair" "$tool" - xml \
    "$IOSPD" -d"$SECONDS_RUN" -W"$WARMUP" "${IOSPD_AFFINITY[@]}" \
    --engine="$IOSPD_ENGINE" "$@" -Rxml "$FILE"
}

# run_fio <workload> <pair> <engine> <fio options...>
run_fio() {
  local wl=$1 pair=$2 engine=$3; shift 3
  local extra=() ioengine=${engine%+shmhuge} jobs=() a depth=1 nj=1
  [ "$ioengine" = io_uring ] && extra=(--fixedbufs=1 --registerfiles=1)
  [ "$ioengine" != "$engine" ] && extra+=(--mem=shmhuge)
  if [ "$ioengine" = psync-jobs ]; then
    # As many blocking jobs as the workload has I/Os in flight (iospd's
    # threads engine runs one pool thread per -o slot); given after the
    # workload's own options, which fio then overrides.
    for a in "$@"; do
      case "$a" in
        --iodepth=*) depth=${a#--iodepth=} ;;
        --numjobs=*) nj=${a#--numjobs=} ;;
      esac
    done
    ioengine=psync
    jobs=(--numjobs=$((depth * nj)) --iodepth=1)
  fi
  run_tool "$wl" "$pair" fio "$engine" json \
    "$FIO" --name="w$wl" --filename="$FILE" --size="$SIZE_BYTES" \
    --ioengine="$ioengine" "${extra[@]}" --time_based --runtime="$SECONDS_RUN" \
    --ramp_time="$WARMUP" --thread --norandommap --randrepeat=0 \
    --group_reporting --scramble_buffers=0 --percentile_list=50:99 \
    --output-format=json "${FIO_AFFINITY[@]}" "$@" "${jobs[@]}"
}

# shellcheck disable=SC2086 # the switch lists are meant to split
run_l_with() { cache_file; run_iospd L "$1" iospd $W3_IOSPD -L; }
# shellcheck disable=SC2086
run_l_without() { cache_file; run_iospd L "$1" iospd_nolat $W3_IOSPD; }
# shellcheck disable=SC2086
run_s_with() {
  cache_file
  run_iospd S "$1" iospd_series $W3_IOSPD -L "${S_PROGRESS[@]}" \
    --timeseries="$OUT/raw/wS-p$1-series.csv"
}
# A build without the live status (before issue #13 is complete) measures the
# time series alone, and says so.
S_PROGRESS=(--progress=always)
if ! "$IOSPD" --progress=always -Rp -d1 "$FILE" >/dev/null 2>&1; then
  S_PROGRESS=()
  case ",$WORKLOADS," in
    *,S,*) log "this iospd has no --progress: workload S measures --timeseries alone" ;;
  esac
fi
# shellcheck disable=SC2086
run_s_without() { cache_file; run_iospd S "$1" iospd $W3_IOSPD -L; }

run_workload() {
  local wl=$1 pair title iospd_args fio_args engines cached
  title="W${wl}_TITLE"; printf '%s\t%s\n' "$wl" "${!title}" >>"$OUT/workloads.tsv"
  if [ "$wl" = L ] || [ "$wl" = S ]; then
    local lc
    lc=$(echo "$wl" | tr LS ls)
    for pair in $(seq 1 "$PAIRS"); do
      # The same swap as below: the feature first in odd pairs, last in
      # even ones.
      log "workload $wl pair $pair/$PAIRS"
      if [ "$(pair_order "$pair")" = iospd ]; then
        "run_${lc}_with" "$pair"; "run_${lc}_without" "$pair"
      else
        "run_${lc}_without" "$pair"; "run_${lc}_with" "$pair"
      fi
    done
    return
  fi
  iospd_args="W${wl}_IOSPD"; fio_args="W${wl}_FIO"
  engines="W${wl}_ENGINES"; cached="W${wl}_CACHED"
  for pair in $(seq 1 "$PAIRS"); do
    log "workload $wl pair $pair/$PAIRS ($(pair_order "$pair") first): ${!title}"
    if [ "$(pair_order "$pair")" = iospd ]; then
      run_workload_iospd "$wl" "$pair"; run_workload_fio "$wl" "$pair"
    else
      run_workload_fio "$wl" "$pair"; run_workload_iospd "$wl" "$pair"
    fi
  done
}

# Which tool runs first in a pair: iospd in odd pairs, fio in even ones
# (A B, B A, A B ...). The device of a VM drifts over seconds and tends to be
# slower or faster right after a heavy run; with one fixed order that drift
# lands on the same tool in every pair and biases the median ratio. Swapping
# the order cancels a steady drift between the two positions.
pair_order() { if [ $(($1 % 2)) -eq 1 ]; then echo iospd; else echo fio; fi; }

# These two read run_workload's locals (cached, iospd_args, fio_args,
# engines): bash functions see their caller's locals.
run_workload_iospd() {
  [ "${!cached}" = 1 ] && cache_file
  # shellcheck disable=SC2086 # the switch lists are meant to split
  run_iospd "$1" "$2" iospd ${!iospd_args} -L
}

run_workload_fio() {
  local engine
  for engine in ${!engines}; do
    [ "${!cached}" = 1 ] && cache_file
    # shellcheck disable=SC2086
    run_fio "$1" "$2" "$engine" ${!fio_args}
  done
}

log "iospd: $IOSPD"
log "fio:   $FIO ($("$FIO" --version))"
log "file:  $FILE on $FSTYPE; ${SECONDS_RUN}s runs after ${WARMUP}s warm-up, $PAIRS pairs"
log "results: $OUT"
IFS=, read -r -a WL_LIST <<<"$WORKLOADS"
for wl in "${WL_LIST[@]}"; do
  case "$wl" in
    [1-7]|L|S) ;;
    *) die "--workloads: '$wl' is not a workload; use 1-7, L and S" ;;
  esac
done
RUNS=0
for wl in "${WL_LIST[@]}"; do
  if [ "$wl" = L ] || [ "$wl" = S ]; then RUNS=$((RUNS + 2)); continue; fi
  engines="W${wl}_ENGINES"; set -- ${!engines}
  RUNS=$((RUNS + 1 + $#))
done
RUNS=$((RUNS * PAIRS))
log "$RUNS runs, about $(( (RUNS * (SECONDS_RUN + WARMUP + 2) + 59) / 60 )) min"
for wl in "${WL_LIST[@]}"; do
  run_workload "$wl"
done

printf 'load_end\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/meta.tsv"
python3 "$BENCH/summarize.py" "$OUT" || die "summarize.py failed"
[ "$FAILED" = 0 ] || { log "$FAILED run(s) failed; see $OUT/raw/*.err"; exit 1; }
exit 0

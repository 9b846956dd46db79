/* SPDX-License-Identifier: MIT */
/* The DISKSPD 2.2 switch table (data only) plus iospd's long options. The
 * parser (cmdline.c) and the usage text (usage.c) both read it, so a switch's
 * range and its documentation cannot drift apart. */
#include "iospd/options.h"

#include <stdio.h>
#include <string.h>

#include "iospd/profile.h"
#include "iospd/units.h"
#include "opt_handlers.h"

#define TGT(f) IOSPD_SCOPE_TARGET, offsetof(iospd_target_t, f)
#define TS(f) IOSPD_SCOPE_TIMESPAN, offsetof(iospd_timespan_t, f)
#define PRF(f) IOSPD_SCOPE_PROFILE, offsetof(iospd_profile_t, f)
#define NOSCOPE IOSPD_SCOPE_NONE, 0
#define U32 UINT32_MAX
/* I32: DISKSPD reads these numbers with atoi, which in the Microsoft C
 * runtime saturates: every value from 2147483648 up becomes 2147483647.
 * iospd refuses what DISKSPD would change (docs/compat-differences.md). */
#define I32 IOSPD_COUNT_MAX
#define P1X (IOSPD_OPTF_PASS1 | IOSPD_OPTF_XML_OK)
/* --tree and its companions: long options, let past -X's pass-1 check so
 * that cmdline.c refuses them with the right advice (the profile's <Tree>). */
#define TREEF \
  (IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_XML_OK | IOSPD_OPTF_TREE)
/* The bare tree companions (--append, --cleanup) take no value. */
#define TREEB (TREEF & ~(unsigned)IOSPD_OPTF_VALUE)

const char* const iospd_topic_titles[IOSPD_TOPIC_COUNT] = {
    "Block size, offsets and target size",
    "I/O pattern (random, sequential, mix, writes)",
    "Caching and write-through",
    "Threads, queue depth and CPU affinity",
    "Timing",
    "Rate limits and bursts",
    "Output",
    "XML profiles",
    "Windows-only switches",
    "iospd additions (long options)",
};

/* The closed value sets (.posval), in the order the messages list them. */
static const iospd_opt_word_t k_dist_words[] = {
    {"pct", IOSPD_DIST_PERCENT}, {"abs", IOSPD_DIST_ABSOLUTE}, {NULL, 0}};
static const iospd_opt_word_t k_flush_words[] = {
    {"v", IOSPD_FLUSH_VIEW_OF_FILE},
    {"n", IOSPD_FLUSH_NON_VOLATILE},
    {"i", IOSPD_FLUSH_NON_VOLATILE_NO_DRAIN},
    {NULL, 0}};
/* -e: each word turns on the iospd_etw_t bool at its value (an offset). */
#define ETW(w, f) {w, (int)offsetof(iospd_etw_t, f)}
static const iospd_opt_word_t k_etw_words[] = {
    ETW("q", use_perf_timer),
    ETW("c", use_cycles_counter),
    ETW("s", use_system_timer),
    ETW("p", use_paged_memory),
    ETW("PROCESS", process),
    ETW("THREAD", thread),
    ETW("IMAGE_LOAD", image_load),
    ETW("DISK_IO", disk_io),
    ETW("MEMORY_PAGE_FAULTS", memory_page_faults),
    ETW("MEMORY_HARD_FAULTS", memory_hard_faults),
    ETW("NETWORK", network),
    ETW("REGISTRY", registry),
    {NULL, 0}};
/* -y: the letter picks the iospd_events_t name at its value (an offset). */
#define EVT(w, f) {w, (int)offsetof(iospd_events_t, f)}
static const iospd_opt_word_t k_event_words[] = {
    EVT("s", start_name), EVT("f", end_name), EVT("r", ready_name),
    EVT("p", stop_name),  EVT("e", set_name), {NULL, 0}};
/* --diskspd=: the DISKSPD releases iospd follows. */
static const iospd_opt_word_t k_diskspd_words[] = {
    {"2.2", IOSPD_DISKSPD_22}, {"2.3", IOSPD_DISKSPD_23}, {NULL, 0}};
/* -bs (DISKSPD 2.3): p thread-optimized, n the allocator's placement. */
static const iospd_opt_word_t k_bufsep_words[] = {
    {"p", IOSPD_BUFSEP_PDE_CACHE_LINE},
    {"n", IOSPD_BUFSEP_SYSTEM_DEFAULT},
    {NULL, 0}};
static const iospd_opt_word_t k_status_words[] = {
    {"auto", IOSPD_STATUS_AUTO},
    {"always", IOSPD_STATUS_ALWAYS},
    {"never", IOSPD_STATUS_NEVER},
    {NULL, 0}};

const iospd_opt_def_t iospd_options[IOSPD_OID_COUNT] = {
    /* ---- sizes and offsets ---- */
    [IOSPD_OID_b] =
    {"b", IOSPD_OPT_SPECIAL, TGT(block_size), IOSPD_OPTF_PASS1, 1,
     UINT32_MAX - 1, 0, sw_block, NULL, IOSPD_TOPIC_SIZES, "-b<size>",
     "block size",
     "Size of every I/O (default 64K). The last -b on the line also defines\n"
     "the 'b' suffix used by the other switches, wherever it appears.",
     NULL},
    [IOSPD_OID_bs] =
    {"bs", IOSPD_OPT_SPECIAL, TS(buffer_separation), IOSPD_OPTF_PASS1, 0, 0,
     0, sw_bufsep, k_bufsep_words, IOSPD_TOPIC_SIZES, "-bs<p|n>",
     "buffer separation",
     "DISKSPD 2.3: where each thread's I/O buffer starts. p (the 2.3\n"
     "default): on a boundary of its own, (cache line/8) x (page size/8) x\n"
     "page size bytes (16MiB with 64-byte lines and 4KiB pages); n: where\n"
     "the allocator puts it. Read before -b<size>: -bs is never a block size.",
     NULL},
    [IOSPD_OID_B] =
    {"B", IOSPD_OPT_SPECIAL, TGT(base_offset), 0, 0, 0, 0, sw_base, NULL,
     IOSPD_TOPIC_SIZES, "-B<base>[:<length>]", "base offset",
     "Start I/O at byte offset <base> of each target; with :<length> stop\n"
     "at <base>+<length>. Give it once.",
     NULL},
    [IOSPD_OID_c] =
    {"c", IOSPD_OPT_SPECIAL, TGT(file_size), 0, 0, 0, 0, sw_create, NULL,
     IOSPD_TOPIC_SIZES, "-c<size>", "file size to create",
     "Create every file target with this size before the run.\n"
     "Existing files are overwritten!",
     NULL},
    [IOSPD_OID_f] =
    {"f", IOSPD_OPT_SPECIAL, TGT(max_file_size), 0, 0, 0, 0,
     sw_f, NULL, IOSPD_TOPIC_SIZES, "-f<size> | -f[r][s][t]",
     "maximum offset or access hints",
     "-f<size>: use only the first <size> bytes of each target (cannot be\n"
     "combined with -B<base>:<length>).\n"
     "-fr, -fs, -ft (combinable): open with the random-access hint, the\n"
     "sequential-scan hint, or as a temporary file.",
     "On Linux the hints are advisory and may have no effect."},
    [IOSPD_OID_T] =
    {"T", IOSPD_OPT_SIZE, TGT(thread_stride), 0, 1, IOSPD_MAX_OFFSET, 0,
     NULL, NULL, IOSPD_TOPIC_SIZES, "-T<size>", "thread stride",
     "Start thread k of a target at <base> + k * <size> (sequential only).",
     NULL},

    /* ---- I/O pattern ---- */
    [IOSPD_OID_r] =
    {"r", IOSPD_OPT_SPECIAL, TGT(stride_align), 0, 0, 0, 0, sw_random, NULL,
     IOSPD_TOPIC_PATTERN, "-r[<align>]", "random alignment",
     "Random I/O, offsets aligned to <align> (default: the block size).",
     NULL},
    [IOSPD_OID_rs] =
    {"rs", IOSPD_OPT_SPECIAL, TGT(random_ratio), 0, 1, 100, 0,
     sw_mixed, NULL, IOSPD_TOPIC_PATTERN, "-rs<percent>", "random percentage",
     "Mix random and sequential I/O: <percent> (1-100) of the I/Os are\n"
     "random. Combine with -r<align> to set the alignment.",
     NULL},
    [IOSPD_OID_rd] =
    {"rd", IOSPD_OPT_SPECIAL, TGT(dist), 0, 0, 0, 0, sw_dist, k_dist_words,
     IOSPD_TOPIC_PATTERN,
     "-rdpct<io%>/<target%>[:...] | -rdabs<io%>/<size>[:...]",
     "random distribution",
     "Skew random I/O: each pair sends the next <io%> of the I/Os to the\n"
     "next <target%> (pct) or <size> bytes (abs) of the target. io% 0 makes\n"
     "a hole. Any I/O% left over goes to the rest of the target.",
     NULL},
    [IOSPD_OID_s] =
    {"s", IOSPD_OPT_SPECIAL, TGT(stride_align), 0, 0, 0, 0, sw_seq, NULL,
     IOSPD_TOPIC_PATTERN, "-s[i][<stride>]", "sequential stride",
     "Sequential I/O (the default) moving <stride> bytes per I/O (default:\n"
     "the block size). -si: all threads of a target share one offset.",
     NULL},
    [IOSPD_OID_p] =
    {"p", IOSPD_OPT_FLAG, TGT(parallel_async), 0, 0, 0, 0, NULL, NULL,
     IOSPD_TOPIC_PATTERN, "-p", "parallel sequential",
     "Every outstanding I/O of a thread walks the same sequential offsets.",
     NULL},
    [IOSPD_OID_w] =
    {"w", IOSPD_OPT_UINT, TGT(write_ratio), 0, 0, 100, 0, NULL, NULL,
     IOSPD_TOPIC_PATTERN, "-w<percent>", "write percentage",
     "Percentage of I/Os that are writes, 0-100 (default 0: read only).\n"
     "Writes destroy data on the target!",
     NULL},
    [IOSPD_OID_Z] =
    {"Z", IOSPD_OPT_SPECIAL, TGT(pattern), 0, 0, 0, 0, sw_writebuf, NULL,
     IOSPD_TOPIC_PATTERN, "-Z | -Zr | -Z<size>[,<file>]", "write buffer",
     "-Z: write zeros. -Zr: fill the buffer with new random bytes before\n"
     "every write. -Z<size>[,<file>]: take write data from a <size>-byte\n"
     "random buffer, filled from <file> if given. Default: bytes 0,1,2,...",
     NULL},
    [IOSPD_OID_z] =
    {"z", IOSPD_OPT_SPECIAL, TS(rand_seed), P1X, 0, U32, 0, sw_seed, NULL,
     IOSPD_TOPIC_PATTERN, "-z[<seed>]", "random seed",
     "Seed for the random number generator (default 0; no value: time\n"
     "since boot). Allowed with -X.",
     NULL},

    /* ---- caching ---- */
    [IOSPD_OID_S] =
    {"S", IOSPD_OPT_SPECIAL, TGT(cache_mode), 0, 0, 0, 0, sw_cache, NULL,
     IOSPD_TOPIC_CACHE, "-S[b|h|m|r|u|w|y|Y]...", "cache mode",
     "-S or -Su: bypass the OS cache. -Sw: write-through. -Sh: both (the\n"
     "usual choice for device tests). -Sb: cached (the default). -Sm: memory\n"
     "mapped I/O. -Sr: disable local caching of a remote file system.\n"
     "Letters combine (-Suw); each property may be set only once.\n"
     "DISKSPD 2.3: -Sy asks for BypassIO allowing a partial bypass, -SY\n"
     "requires a full one; both need u in the same -S (-Suy, -ShY), no\n"
     "writes and no -Sm.",
     "On Linux: -Sy and -SY are refused (BypassIO is a Windows file-system\n"
     "path; -Su already bypasses the page cache there).\n"
     "-Su opens with O_DIRECT, -Sw with O_DSYNC, -Sm maps the\n"
     "file with mmap; -Sr is refused (it only exists for Windows remote\n"
     "shares)."},
    [IOSPD_OID_h] =
    {"h", IOSPD_OPT_SPECIAL, TGT(cache_mode), 0, 0, 0, 0, sw_h, NULL,
     IOSPD_TOPIC_CACHE, "-h", "cache mode",
     "Old spelling of -Sh.", NULL},
    [IOSPD_OID_N] =
    {"N", IOSPD_OPT_SPECIAL, TGT(flush_type), 0, 0, 0, 0, sw_flush,
     k_flush_words,
     IOSPD_TOPIC_CACHE, "-N<v|n|i>", "memory-mapped flush mode",
     "Flush after each memory-mapped write (needs -Sm): v flush the view,\n"
     "n non-volatile memory flush, i the same without the drain (n and i\n"
     "need a file on persistent memory). With -Smw the copies bypass the\n"
     "CPU caches (non-temporal) and nothing is flushed.",
     "On Linux only -Nv is accepted: msync of the written range."},
    [IOSPD_OID_l] =
    {"l", IOSPD_OPT_FLAG, TGT(large_pages), 0, 0, 0, 0, NULL, NULL,
     IOSPD_TOPIC_CACHE, "-l", "large pages",
     "Allocate I/O buffers in large pages.",
     "On Linux this asks for huge pages."},

    /* ---- threads, queue depth, affinity ---- */
    [IOSPD_OID_t] =
    {"t", IOSPD_OPT_UINT, TGT(threads_per_file), 0, 1, I32, 0, NULL, NULL,
     IOSPD_TOPIC_THREADS, "-t<count>", "threads per target",
     "Threads per target (default 1).", NULL},
    [IOSPD_OID_F] =
    {"F", IOSPD_OPT_UINT, TS(thread_count), 0, 1, I32, 0, NULL, NULL,
     IOSPD_TOPIC_THREADS, "-F<count>", "total thread count",
     "Use <count> threads in total, each working on every target\n"
     "(instead of -t).",
     NULL},
    [IOSPD_OID_o] =
    {"o", IOSPD_OPT_UINT, TGT(request_count), 0, 1, I32, 0, NULL, NULL,
     IOSPD_TOPIC_THREADS, "-o<count>", "outstanding I/O count",
     "Outstanding I/Os per thread per target (queue depth, default 2).",
     NULL},
    [IOSPD_OID_O] =
    {"O", IOSPD_OPT_UINT, TS(request_count), 0, 1, I32, 0, NULL, NULL,
     IOSPD_TOPIC_THREADS, "-O<count>", "outstanding I/Os per thread",
     "Outstanding I/Os per thread shared by all its targets (with -F only).",
     NULL},
    [IOSPD_OID_oc] =
    {"oc", IOSPD_OPT_SPECIAL, TS(completion_depth), 0, 1,
     IOSPD_COMPLETION_DEPTH_MAX, 0, sw_completion_depth, NULL,
     IOSPD_TOPIC_THREADS, "-oc<count>", "completion depth",
     "DISKSPD 2.3: take at most <count> completions (1-16, default 16) per\n"
     "wait for completions. Not with -x.",
     NULL},
    [IOSPD_OID_u] =
    {"u", IOSPD_OPT_SPECIAL, TS(ioring), 0, 1, IOSPD_IORING_BATCH_MAX, 0,
     sw_ioring, NULL, IOSPD_TOPIC_THREADS, "-u[n][<batch>[p]]",
     "ring submission",
     "DISKSPD 2.3: submit I/O through a ring (IoRing on Windows, io_uring\n"
     "on Linux) with registered buffers, or without them with n. <batch>:\n"
     "I/Os queued per submit (1-65536), or with p a percentage (1-100) of\n"
     "the thread's outstanding I/Os (default 25%). Not with -x or -Sm.",
     NULL},
    [IOSPD_OID_a] =
    {"a", IOSPD_OPT_SPECIAL, TS(affinity), 0, 0, 0, 0, sw_affinity, NULL,
     IOSPD_TOPIC_THREADS, "-a[g<group>,]<cpu>[,<cpu>...]", "CPU affinity",
     "Pin threads round-robin to these CPUs; g<n> selects the processor\n"
     "group of the CPUs after it (default group 0). -a alone keeps the\n"
     "default: round-robin over all CPUs.\n"
     "DISKSPD 2.3 adds CPU ranges (-a0,2-5,7; CPUs 0-63), whole groups\n"
     "(-ag1), several -a switches in the order given, and letters glued to\n"
     "-a for the default placement: c one thread per core before SMT\n"
     "siblings, s spread over processor groups, and one of p (P-cores\n"
     "first in each pass, the 2.3 default), P (every P-core pass first),\n"
     "e, E (the same for E-cores); -aup: no P/E order. Not with -n.",
     NULL},
    [IOSPD_OID_n] =
    {"n", IOSPD_OPT_FLAG, TS(disable_affinity), 0, 0, 0, 0, NULL, NULL,
     IOSPD_TOPIC_THREADS, "-n", "no affinity", "Do not pin threads to CPUs.",
     NULL},
    [IOSPD_OID_I] =
    {"I", IOSPD_OPT_UINT, TGT(io_priority), 0, 1, 3, 0, NULL, NULL,
     IOSPD_TOPIC_THREADS, "-I<1|2|3>", "I/O priority",
     "I/O priority: 1 very low, 2 low, 3 normal (default).",
     "On Linux it is passed to the platform as an I/O priority hint."},

    /* ---- timing ---- */
    [IOSPD_OID_d] =
    {"d", IOSPD_OPT_UINT, TS(duration), P1X | IOSPD_OPTF_BARE_OK, 0, I32, 0,
     sw_duration, NULL, IOSPD_TOPIC_TIMING, "-d<seconds>", "test duration",
     "Measured duration in seconds (default 10). Allowed with -X.", NULL},
    [IOSPD_OID_W] =
    {"W", IOSPD_OPT_UINT, TS(warmup), P1X | IOSPD_OPTF_BARE_OK, 0, I32, 0,
     NULL, NULL, IOSPD_TOPIC_TIMING, "-W<seconds>", "warm-up time",
     "Warm-up before measuring, seconds (default 5). Allowed with -X.", NULL},
    [IOSPD_OID_C] =
    {"C", IOSPD_OPT_UINT, TS(cooldown), P1X | IOSPD_OPTF_BARE_OK, 0, I32, 0,
     NULL, NULL, IOSPD_TOPIC_TIMING, "-C<seconds>", "cool-down time",
     "Cool-down after measuring, seconds (default 0). Allowed with -X.",
     NULL},

    /* ---- rate limits ---- */
    [IOSPD_OID_g] =
    {"g", IOSPD_OPT_SPECIAL, TGT(throughput_bpms), 0, 1, I32, 0,
     sw_throughput, NULL, IOSPD_TOPIC_RATE, "-g<bytes/ms> | -g<iops>i",
     "throughput limit",
     "Limit each thread on each target to <bytes/ms>, or with a trailing\n"
     "'i' to <iops> I/Os per second.",
     NULL},
    [IOSPD_OID_i] =
    {"i", IOSPD_OPT_UINT, TGT(burst_size), 0, 1, I32, 0, NULL, NULL,
     IOSPD_TOPIC_RATE, "-i<count>", "burst size",
     "I/Os per burst; needs -j.", NULL},
    [IOSPD_OID_j] =
    {"j", IOSPD_OPT_UINT, TGT(think_time), 0, 1, I32, 0, NULL, NULL,
     IOSPD_TOPIC_RATE, "-j<ms>", "think time",
     "Pause <ms> milliseconds after each burst; needs -i.", NULL},

    /* ---- output ---- */
    [IOSPD_OID_L] =
    {"L", IOSPD_OPT_FLAG, TS(measure_latency), 0, 0, 0, 0, NULL, NULL,
     IOSPD_TOPIC_OUTPUT, "-L", "latency",
     "Measure latency: averages, standard deviation and percentiles.", NULL},
    [IOSPD_OID_D] =
    {"D", IOSPD_OPT_SPECIAL, TS(io_bucket_ms), 0, 0, I32, 0,
     sw_bucket, NULL, IOSPD_TOPIC_OUTPUT, "-D[<ms>]", "IOPS interval",
     "Record IOPS per interval of <ms> milliseconds (default 1000) and\n"
     "report their standard deviation.",
     NULL},
    [IOSPD_OID_R] =
    {"R", IOSPD_OPT_SPECIAL, PRF(format), P1X, 0, 0, 0, sw_format, NULL,
     IOSPD_TOPIC_OUTPUT, "-R[p]<text|xml|json|fio-json> | -Rs[text|xml]",
     "result format",
     "Results as text (default), XML or JSON (-Rjson, iospd's own:\n"
     "docs/results-json.md; -Rfio-json, fio's: docs/fio-json.md).\n"
     "-Rp, -Rptext, -Rpxml: print the profile only, do no I/O. -Rp\n"
     "alone keeps the format of an earlier -R.\n"
     "DISKSPD 2.3: -Rs, -Rstext, -Rsxml print the system information only\n"
     "(the only switch, no target; -Rps... is the same).",
     NULL},
    [IOSPD_OID_v] =
    {"v", IOSPD_OPT_SPECIAL, PRF(verbose), P1X, 0, 0, 0, sw_verbose, NULL,
     IOSPD_TOPIC_OUTPUT, "-v | -vs", "verbose mode",
     "-v: progress messages while running. -vs: add wait statistics to\n"
     "the results.",
     NULL},
    [IOSPD_OID_P] =
    {"P", IOSPD_OPT_SPECIAL, PRF(progress_dots), 0, 0, I32, 0, sw_progress,
     NULL,
     IOSPD_TOPIC_OUTPUT, "-P[<count>]", "progress interval",
     "Print a dot every <count> completed I/Os per thread (default 65536).",
     NULL},
    [IOSPD_OID_colon] =
    {":", IOSPD_OPT_UINT, PRF(experiment_flags), P1X | IOSPD_OPTF_BARE_OK, 0,
     I32, 0, NULL, NULL, IOSPD_TOPIC_OUTPUT, "-:<flags>",
     "experiment flags",
     "Experimental behaviour bits (1: allow rate-limit sleeps over 1 ms).",
     NULL},
    [IOSPD_OID_qmark] =
    {"?", IOSPD_OPT_SPECIAL, NOSCOPE, 0, 0, 0, 0, sw_help, NULL,
     IOSPD_TOPIC_OUTPUT, "-?", "help", "Show this text.", NULL},

    /* ---- XML ---- */
    [IOSPD_OID_X] =
    {"X", IOSPD_OPT_SPECIAL, PRF(xml_source), P1X, 0, 0, 0, sw_xml, NULL,
     IOSPD_TOPIC_XML, "-X<file>", "XML profile",
     "Run the XML profile in <file>. Targets on the command line replace\n"
     "its template paths *1, *2, ... in order. Only -d -W -C -z -R -v -vs\n"
     "-: and the iospd long options may be combined with -X.",
     NULL},

    /* ---- Windows-only ---- */
    [IOSPD_OID_x] =
    {"x", IOSPD_OPT_FLAG, TS(completion_routines), IOSPD_OPTF_WIN_ONLY, 0, 0,
     0, NULL, NULL, IOSPD_TOPIC_WINDOWS, "-x", "completion routines",
     "Use I/O completion routines instead of a completion port.",
     "Refused on Linux (use --engine= to choose how I/O is issued)."},
    [IOSPD_OID_e] =
    {"e", IOSPD_OPT_SPECIAL, PRF(etw), IOSPD_OPTF_WIN_ONLY, 0, 0, 0,
     sw_etw, k_etw_words, IOSPD_TOPIC_WINDOWS,
     "-e<q|c|s|p|PROCESS|THREAD|IMAGE_LOAD|DISK_IO|MEMORY_PAGE_FAULTS|\n"
     "   MEMORY_HARD_FAULTS|NETWORK|REGISTRY>",
     "ETW tracing",
     "Collect ETW kernel events during the measurement. q, c, s pick the\n"
     "clock (performance counter, cycle counter, system timer); p uses\n"
     "paged memory; the words select event providers. Repeatable.",
     "Refused on Linux: ETW does not exist there."},
    [IOSPD_OID_y] =
    {"y", IOSPD_OPT_SPECIAL, PRF(events), 0, 0, 0, 0, sw_event, k_event_words,
     IOSPD_TOPIC_WINDOWS, "-y<s|f|r|p|e><name>", "named event",
     "Named events: -ys set when measuring starts, -yf set when it ends,\n"
     "-yr wait for it before starting, -yp stop when it is set (Ctrl-C\n"
     "sets it), -ye set an existing one and exit with code 1 (as DISKSPD).\n"
     "Events are created if absent; once set they stay set.",
     "On Linux an event is the POSIX named semaphore /iospd-<name>\n"
     "(/dev/shm/sem.iospd-<name>); every waiter sees it set. It is\n"
     "removed when the last run that holds it ends; one that a killed run\n"
     "left set is reset, with a warning. Names may not hold '/'."},

    /* ---- iospd long options ---- */
    [IOSPD_OID_allow_raw_write] =
    {"allow-raw-write", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_PASS1 | IOSPD_OPTF_XML_OK, 0, 0, 0,
     sw_allow_raw_write, NULL, IOSPD_TOPIC_IOSPD, "--allow-raw-write",
     "raw write permission",
     "Allow writes to disks and volumes that hold a partition table or a\n"
     "file system (refused otherwise, to protect data).",
     NULL},
    [IOSPD_OID_engine] =
    {"engine", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_PASS1 |
         IOSPD_OPTF_XML_OK,
     0, 0, 0,
     sw_engine, NULL, IOSPD_TOPIC_IOSPD,
     "--engine=<engine>", "I/O engine",
     "How I/O is issued; auto is the default. This platform's engines:",
     NULL},
    [IOSPD_OID_diskspd] =
    {"diskspd", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_PASS1 |
         IOSPD_OPTF_XML_OK,
     0, 0, 0, sw_diskspd, k_diskspd_words, IOSPD_TOPIC_IOSPD,
     "--diskspd=<2.2|2.3>", "DISKSPD level",
     "The DISKSPD release to follow: its switches, defaults, limits, profile\n"
     "elements and layouts (2.2 by default while the 2.3 layouts are being\n"
     "completed). The 2.3 switches (-u, -Sy, -SY, the -a letters and ranges,\n"
     "-bs, -oc, -Rs) need --diskspd=2.3. Read before every other switch.",
     NULL},
    [IOSPD_OID_output] =
    {"output", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_PASS1 |
         IOSPD_OPTF_XML_OK,
     0, 0, 0,
     sw_output, NULL, IOSPD_TOPIC_IOSPD,
     "--output=<text|xml|json|html|fio-json>:<file>",
     "report file",
     "Also write the results in that format to <file> (repeatable);\n"
     "standard output keeps the -R format. Each file is written whole\n"
     "(to <file>.tmp, then renamed). A path that cannot be written, that\n"
     "is a target, or that another output uses is refused before any I/O.\n"
     "html: one self-contained page with charts (docs/html-report.md).\n"
     "fio-json: fio's JSON for fio's tools (docs/fio-json.md).",
     NULL},
    [IOSPD_OID_merge] =
    {"merge", IOSPD_OPT_SPECIAL, NOSCOPE, IOSPD_OPTF_LONG, 0, 0, 0,
     sw_merge, NULL, IOSPD_TOPIC_IOSPD, "--merge <a.json> <b.json>...",
     "merge mode",
     "Merge -Rjson results of runs of the same profile (repetitions, or\n"
     "machines that ran at once) into one JSON document on stdout: counts\n"
     "add, percentiles come from the added histograms. Must be the first\n"
     "argument; every argument after it is a file. See docs/merging.md.",
     NULL},
    [IOSPD_OID_report] =
    {"report", IOSPD_OPT_SPECIAL, NOSCOPE, IOSPD_OPTF_LONG, 0, 0, 0,
     sw_report, NULL, IOSPD_TOPIC_IOSPD,
     "--report <a.json> [<b.json>...] --output=html:<file>", "HTML report",
     "Build the HTML report from saved -Rjson results: one run, or several\n"
     "overlaid with a comparison table (--force for runs of different\n"
     "profiles). A .jsonl time series after a JSON file belongs to it.\n"
     "Must be the first argument. See docs/html-report.md.",
     NULL},
    [IOSPD_OID_compare] =
    {"compare", IOSPD_OPT_SPECIAL, NOSCOPE, IOSPD_OPTF_LONG, 0, 0, 0,
     sw_compare, NULL, IOSPD_TOPIC_IOSPD,
     "--compare <a.json> <b.json>... [--force]", "compare mode",
     "Compare -Rjson results of runs with the first one: per metric both\n"
     "values, the difference in % and whether it is within the runs' noise\n"
     "(a stated test on the -D intervals), and every setting and\n"
     "environment field that differs. Runs of different profiles only with\n"
     "--force. Must be the first argument; exit 0 whatever the differences.\n"
     "See docs/compare.md.",
     NULL},
    [IOSPD_OID_progress] =
    {"progress", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_PASS1 |
         IOSPD_OPTF_XML_OK,
     0, 0, 0,
     sw_status, k_status_words, IOSPD_TOPIC_IOSPD,
     "--progress=<auto|always|never>",
     "live status line",
     "A status line on stderr, redrawn every second while the test runs:\n"
     "timespan, phase, elapsed and remaining time, the last second's IOPS\n"
     "and MiB/s (and mean and p99 latency with -L), errors. auto (the\n"
     "default) shows it when stderr is a terminal and -P is not given.\n"
     "Never on stdout: the results there are the same either way.",
     NULL},
    [IOSPD_OID_timeseries] =
    {"timeseries", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_PASS1 |
         IOSPD_OPTF_XML_OK,
     0, 0, 0,
     sw_timeseries, NULL, IOSPD_TOPIC_IOSPD,
     "--timeseries=<file.csv|file.jsonl>",
     "time series",
     "Write one row per interval (the -D interval, else 1 s) per target and\n"
     "for the total, in every phase, as CSV or JSON Lines (by the extension),\n"
     "each interval as soon as it ends. See docs/time-series.md.",
     NULL},
    [IOSPD_OID_ping] =
    {"ping", IOSPD_OPT_SPECIAL, NOSCOPE, IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE,
     0, 0, 0,
     sw_ping, NULL, IOSPD_TOPIC_IOSPD, "--ping[=<count>] [switches] <path>",
     "latency probe",
     "Latency probe as ioping: one request at a time, a line per request\n"
     "and min/avg/max/mdev at the end (Ctrl-C, the count or -d). A folder\n"
     "gets a temporary file, removed at the end; a device is only read\n"
     "unless --allow-raw-write. Unbuffered unless --cached or -Sb. Must be\n"
     "the first argument. Its switches: --count=N --interval=TIME (1s)\n"
     "--size=SIZE or -b (4K) --direct or -Su --cached or -Sb --write or\n"
     "-w100 --sequential or -s --working-set=SIZE or -f --quiet --batch\n"
     "-d<s> -L -Rxml|json --allow-raw-write. See docs/ping.md.",
     NULL},
    [IOSPD_OID_verify] =
    {"verify", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_PASS1 | IOSPD_OPTF_XML_OK, 0, 0, 0,
     sw_verify, NULL, IOSPD_TOPIC_IOSPD, "--verify", "verified writes",
     "Every block written carries a header (target, offset, generation,\n"
     "seed, time) and a crc32; every block read that a --verify run wrote\n"
     "is checked. Blocks are -b bytes at offsets that are multiples of -b.\n"
     "What was written last is kept in <target>.iospd-verify. Failures\n"
     "make the exit code 1. See docs/verify.md.",
     NULL},
    [IOSPD_OID_verify_only] =
    {"verify-only", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_PASS1 | IOSPD_OPTF_XML_OK, 0, 0, 0,
     sw_verify_only, NULL, IOSPD_TOPIC_IOSPD, "--verify-only", "verify pass",
     "Read each target once (the -B/-f range) in -b blocks, check every\n"
     "block a --verify run wrote, print the failures and their counts, and\n"
     "exit (1 if any failed). Blocks whose writes were in flight when a\n"
     "run was killed are indeterminate, not failures.",
     NULL},
    [IOSPD_OID_verify_errors] =
    {"verify-errors", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_PASS1 |
         IOSPD_OPTF_XML_OK,
     0, 0, 0,
     sw_verify_errors, NULL, IOSPD_TOPIC_IOSPD, "--verify-errors=<n>",
     "failures printed",
     "How many verify failures to print one by one (default 10); all are\n"
     "counted in the reports.",
     NULL},
    [IOSPD_OID_verify_state] =
    {"verify-state", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_PASS1 |
         IOSPD_OPTF_XML_OK,
     0, 0, 0,
     sw_verify_state, NULL, IOSPD_TOPIC_IOSPD, "--verify-state=<file>",
     "verify state file",
     "Where --verify keeps what it wrote (one target only), instead of\n"
     "<target>.iospd-verify; needed for disks and volumes.",
     NULL},
    [IOSPD_OID_compress] =
    {"compress", IOSPD_OPT_SPECIAL, NOSCOPE, IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE,
     0, 0, 0,
     sw_compress, NULL, IOSPD_TOPIC_IOSPD, "--compress=<0..100>",
     "compressible content",
     "Write content that zlib (deflate, default level, per block) shrinks\n"
     "by this percentage, within 3 points for blocks of 4 KiB and more. The\n"
     "content is built before the run (a pool of calibrated blocks; -Z<size>\n"
     "sets the pool size) and each write only stamps a counter into it.\n"
     "Cannot be combined with -Z, -Zr or a -Z source file. See\n"
     "docs/content.md.",
     NULL},
    [IOSPD_OID_dedupe] =
    {"dedupe", IOSPD_OPT_SPECIAL, NOSCOPE, IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE,
     0, 0, 0,
     sw_dedupe, NULL, IOSPD_TOPIC_IOSPD, "--dedupe=<0..100>",
     "duplicate blocks",
     "Make this percentage of the blocks a thread writes (within 1 point)\n"
     "repeat a block it wrote earlier in the run, byte for byte; every\n"
     "other block is unique in every 4 KiB (a per-run stamp). Alone, the\n"
     "content does not compress (--compress=0). See docs/content.md.",
     NULL},
    [IOSPD_OID_version] =
    {"version", IOSPD_OPT_SPECIAL, NOSCOPE, IOSPD_OPTF_LONG, 0, 0, 0,
     sw_version, NULL, IOSPD_TOPIC_IOSPD, "--version", "version",
     "Print the version, the commit and date of the build, the I/O engines\n"
     "compiled in and the platform, then exit. Must be the only argument.",
     NULL},
    /* ---- the file-tree workload (docs/tree.md) ---- */
    [IOSPD_OID_tree] =
    {"tree", IOSPD_OPT_SPECIAL, NOSCOPE, TREEF, 0, 0, 0,
     sw_tree_dirs, NULL, IOSPD_TOPIC_IOSPD, "--tree=<dir>[,<dir>...]",
     "file-tree workload",
     "File-tree mode (no targets): random -b I/Os over --files files spread\n"
     "over the directories, with a hot/cold skew; metadata latencies\n"
     "(create, open, close, rename) reported apart. -t defaults to 16,\n"
     "-o must be 1. The tree is created first, re-used if its layout\n"
     "matches, refused if it differs. See docs/tree.md.",
     NULL},
    [IOSPD_OID_files] =
    {"files", IOSPD_OPT_SPECIAL, NOSCOPE, TREEF, 1, 10000000, 0,
     sw_tree_files, NULL, IOSPD_TOPIC_IOSPD, "--files=<n>", "number of files",
     "--tree: how many files (default 1000).", NULL},
    [IOSPD_OID_file_size] =
    {"file-size", IOSPD_OPT_SPECIAL, NOSCOPE, TREEF, 1,
     IOSPD_MAX_OFFSET, 0, sw_tree_file_size, NULL, IOSPD_TOPIC_IOSPD,
     "--file-size=<size>", "file size",
     "--tree: the size of each file (default 4K; at least -b).", NULL},
    [IOSPD_OID_skew] =
    {"skew", IOSPD_OPT_SPECIAL, NOSCOPE, TREEF, 0, 0, 0,
     sw_tree_skew, NULL, IOSPD_TOPIC_IOSPD, "--skew=<hot>:<cold>",
     "hot/cold skew",
     "--tree: with k = hot/cold (default 7:1), the first N/(1+k) files\n"
     "(rounded, at least 1) are hot and get hot/(hot+cold) of the I/Os;\n"
     "the rest are cold. 1:1 is uniform.",
     NULL},
    [IOSPD_OID_assign] =
    {"assign", IOSPD_OPT_SPECIAL, NOSCOPE, TREEF, 0, 0, 0,
     sw_tree_assign, NULL, IOSPD_TOPIC_IOSPD, "--assign=<even|ordered|random>",
     "file placement",
     "--tree: file i goes to leaf directory i mod M (even, the default),\n"
     "floor(i*M/N) (ordered), or as even after a shuffle of the files by\n"
     "the -z seed (random).",
     NULL},
    [IOSPD_OID_relocate] =
    {"relocate", IOSPD_OPT_SPECIAL, NOSCOPE, TREEF, 1, 100000, 0,
     sw_tree_relocate, NULL, IOSPD_TOPIC_IOSPD, "--relocate[=<rate>]",
     "relocation rate",
     "--tree: while running, rename random files into another leaf\n"
     "directory, <rate> per second (default 10).",
     NULL},
    [IOSPD_OID_depth] =
    {"depth", IOSPD_OPT_SPECIAL, NOSCOPE, TREEF, 0, 8, 0,
     sw_tree_depth, NULL, IOSPD_TOPIC_IOSPD,
     "--depth=<n>", "sub-directory depth",
     "--tree: levels of generated sub-directories under each directory\n"
     "(default 0: the files go in the directories themselves).",
     NULL},
    [IOSPD_OID_width] =
    {"width", IOSPD_OPT_SPECIAL, NOSCOPE, TREEF, 1, 1000, 0,
     sw_tree_width, NULL, IOSPD_TOPIC_IOSPD,
     "--width=<n>", "sub-directory width",
     "--tree: sub-directories per level with --depth (default 2).", NULL},
    [IOSPD_OID_append] =
    {"append", IOSPD_OPT_SPECIAL, NOSCOPE, TREEB, 0, 0, 0,
     sw_tree_append, NULL, IOSPD_TOPIC_IOSPD, "--append", "append-only writes",
     "--tree: every write extends its file at the end; nothing written\n"
     "before is overwritten.",
     NULL},
    [IOSPD_OID_cleanup] =
    {"cleanup", IOSPD_OPT_SPECIAL, NOSCOPE, TREEB, 0, 0, 0,
     sw_tree_cleanup, NULL, IOSPD_TOPIC_IOSPD, "--cleanup", "remove the tree",
     "--tree: at the end remove the files and the directories this run\n"
     "created (nothing else).",
     NULL},
    [IOSPD_OID_help] =
    {"help", IOSPD_OPT_SPECIAL, NOSCOPE, IOSPD_OPTF_LONG, 0, 0, 0,
     sw_help, NULL, IOSPD_TOPIC_IOSPD, "--help", "help", "Same as -?.", NULL},
    /* issue #28: steady state and PTS (src/cli/opt_pts.c, docs/pts.md) */
    [IOSPD_OID_steady_state] =
    {"steady-state", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_XML_OK, 0, 0, 0,
     sw_steady_state, NULL, IOSPD_TOPIC_IOSPD,
     "--steady-state=<metric>:<pct>%[,slope:<pct>%][,window:<n>x<time>]",
     "steady state",
     "Stop measuring once the SNIA PTS steady-state test holds over the last\n"
     "n rounds of <time> (default 5x60s) of the timespan's <metric> (iops,\n"
     "throughput or latency, the mean latency, which needs -L): max - min\n"
     "within <pct> % of their mean and the least-squares line's rise within\n"
     "the slope's % (default 10 %). Ends at -d if it never holds; the\n"
     "reports say which. See docs/pts.md.",
     NULL},
    [IOSPD_OID_pts] =
    {"pts", IOSPD_OPT_SPECIAL, NOSCOPE, IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE,
     0, 0, 0, sw_pts, NULL, IOSPD_TOPIC_IOSPD,
     "--pts=<iops|throughput|latency>",
     "SNIA PTS test",
     "Run SNIA SSS PTS 2.0.2's test on the one target: preconditioning\n"
     "(128 KiB sequential writes over twice its capacity), then rounds of the\n"
     "test's matrix (one minute a cell) until the steady-state test holds\n"
     "over 5 rounds, or 25 rounds. Writes the whole target: a disk or\n"
     "volume that holds data needs --allow-raw-write. -t and -o are used\n"
     "as given and reported. See docs/pts.md.",
     NULL},
    [IOSPD_OID_pts_cell] =
    {"pts-cell", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE, 0, 0, 0, sw_pts_cell, NULL,
     IOSPD_TOPIC_IOSPD, "--pts-cell=<time>", "PTS cell length",
     "With --pts: each cell lasts <time> (whole seconds) instead of PTS's\n"
     "60 s, for trials; the report then says the run is not conformant.",
     NULL},
    [IOSPD_OID_pts_matrix] =
    {"pts-matrix", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE, 0, 0, 0, sw_pts_matrix, NULL,
     IOSPD_TOPIC_IOSPD, "--pts-matrix=bs:<size>,...;read:<pct>,...",
     "PTS reduced matrix",
     "With --pts: run only these block sizes and read percentages (either\n"
     "part may be left out: the test's own), e.g. 'bs:4K,64K;read:0,100';\n"
     "'/' may stand for ';'. Must hold the tracked cell. Not conformant.",
     NULL},
    [IOSPD_OID_pts_purge] =
    {"pts-purge", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE, 0, 0, 0, sw_pts_purge, NULL,
     IOSPD_TOPIC_IOSPD, "--pts-purge=<trim|secure>", "PTS purge",
     "With --pts on a disk and --allow-raw-write: discard the whole device\n"
     "first (Linux BLKDISCARD, or BLKSECDISCARD for secure), as PTS's\n"
     "purge. Everything on it is gone. Not yet on Windows.",
     NULL},
    [IOSPD_OID_pts_resume] =
    {"pts-resume", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE, 0, 0, 0, sw_pts_resume, NULL,
     IOSPD_TOPIC_IOSPD, "--pts-resume=<file.json>", "PTS resume",
     "With --pts: continue the interrupted run whose PTS JSON document is\n"
     "<file.json> (-Rjson or --output=json:): its rounds are kept, the next\n"
     "one runs. The same test, target and settings are required.",
     NULL},
    /* ---- the curve (docs/curve.md) ---- */
    [IOSPD_OID_curve] =
    {"curve", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_XML_OK, 0, 0, 0,
     sw_curve, NULL, IOSPD_TOPIC_IOSPD, "--curve[=<o|t|b>[:<list|a..b>]]",
     "queue-depth curve",
     "Run the profile again and again along one switch: -o (default:\n"
     "1, 2, 4 ... 1024), -t (1 ... 64) or -b (4K ... 1M), a..b doubling or\n"
     "a list. Each point is a timespan of -d seconds after -W of warm-up\n"
     "(10 and 2 unless given), with -L. Stops when throughput grew less\n"
     "than 5 % over two points or the --latency-limit broke, then prints\n"
     "the table, the knee and a verdict on what caps the run (an IOPS or a\n"
     "bandwidth cap, or iospd itself). See docs/curve.md.",
     NULL},
    [IOSPD_OID_latency_limit] =
    {"latency-limit", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_XML_OK, 0, 0, 0,
     sw_latency_limit, NULL, IOSPD_TOPIC_IOSPD,
     "--latency-limit=[r:|w:]<stat><=<time>", "latency bound",
     "--curve: find the highest throughput whose latency <stat> (mean or a\n"
     "percentile: p50, p99, p99.9 ...; of reads r:, writes w: or all I/Os)\n"
     "stays within <time> (500us, 1ms, 2s); quote it in a shell:\n"
     "'--latency-limit=p99<=1ms'. Searched\n"
     "along the curve, then by bisection of -o (or -t) and a -g rate\n"
     "between the last good and the first bad point.",
     NULL},
    [IOSPD_OID_expect] =
    {"expect", IOSPD_OPT_SPECIAL, NOSCOPE,
     IOSPD_OPTF_LONG | IOSPD_OPTF_VALUE | IOSPD_OPTF_XML_OK, 0, 0, 0,
     sw_expect, NULL, IOSPD_TOPIC_IOSPD, "--expect=<iops|mibs>:<n>",
     "expected throughput",
     "--curve: the IOPS or MiB/s the device or cloud disk promises; the\n"
     "verdict says how far the run got.",
     NULL},
};

const size_t iospd_options_count = IOSPD_ARRAY_SIZE(iospd_options);
IOSPD_STATIC_ASSERT(IOSPD_OID_COUNT <= 64 * IOSPD_OPT_GIVEN_WORDS,
                    "the profile's opt_given bitmap needs more words");

const iospd_opt_def_t* iospd_options_find(const char* sw) {
  const iospd_opt_def_t* best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < iospd_options_count; i++) {
    const iospd_opt_def_t* o = &iospd_options[i];
    if (o->flags & IOSPD_OPTF_LONG) continue;
    size_t n = strlen(o->name);
    if (n > best_len && strncmp(sw, o->name, n) == 0) {
      best = o;
      best_len = n;
    }
  }
  return best;
}

const iospd_opt_def_t* iospd_options_find_long(const char* name) {
  size_t n = strcspn(name, "=");
  for (size_t i = 0; i < iospd_options_count; i++) {
    const iospd_opt_def_t* o = &iospd_options[i];
    if (!(o->flags & IOSPD_OPTF_LONG)) continue;
    if (strlen(o->name) == n && strncmp(name, o->name, n) == 0) return o;
  }
  return NULL;
}

bool iospd_opt_given(const iospd_profile_t* p, iospd_opt_id_t id) {
  unsigned i = (unsigned)id;
  return i < IOSPD_OID_COUNT && ((p->opt_given[i / 64] >> (i % 64)) & 1u);
}

void iospd_opt_set_given(iospd_profile_t* p, iospd_opt_id_t id) {
  unsigned i = (unsigned)id;
  if (i < IOSPD_OID_COUNT) p->opt_given[i / 64] |= (uint64_t)1 << (i % 64);
}

const iospd_opt_word_t* iospd_opt_words_find(const iospd_opt_word_t* list,
                                             const char* s, size_t n,
                                             bool icase) {
  for (const iospd_opt_word_t* w = list; w != NULL && w->word != NULL; w++) {
    if (strlen(w->word) != n) continue;
    size_t k = 0;
    while (k < n && (icase ? lower(s[k]) == lower(w->word[k])
                           : s[k] == w->word[k]))
      k++;
    if (k == n) return w;
  }
  return NULL;
}

void iospd_opt_words_join(const iospd_opt_word_t* list, const char* sep,
                          const char* last_sep, char* buf, size_t cap) {
  if (cap == 0) return;
  buf[0] = '\0';
  size_t len = 0;
  for (const iospd_opt_word_t* w = list; w != NULL && w->word != NULL; w++) {
    const char* before = w == list ? "" : (w[1].word == NULL ? last_sep : sep);
    int n = snprintf(buf + len, cap - len, "%s%s", before, w->word);
    if (n < 0 || (size_t)n >= cap - len) {
      buf[len] = '\0'; /* no room: end at the last whole word */
      return;
    }
    len += (size_t)n;
  }
}

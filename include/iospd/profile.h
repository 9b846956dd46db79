/* SPDX-License-Identifier: MIT */
/* The workload model shared by every part of iospd: a profile holds
 * timespans, a timespan holds targets (DISKSPD's Profile -> TimeSpan ->
 * Target). The command-line parser and the XML profile reader both fill this
 * model; iospd_profile_validate checks it; the engine and the reporters read
 * it. Defaults are DISKSPD 2.2's. */
#ifndef IOSPD_PROFILE_H
#define IOSPD_PROFILE_H

#include "iospd/common.h"
#include "iospd/error.h"
#include "iospd/formats.h" /* iospd_result_format_t */
#include "iospd/strbuf.h"

#define IOSPD_DEFAULT_BLOCK_SIZE 65536u
#define IOSPD_DEFAULT_REQUEST_COUNT 2u
#define IOSPD_DEFAULT_DURATION 10u
#define IOSPD_DEFAULT_WARMUP 5u
#define IOSPD_DEFAULT_BUCKET_MS 1000u
#define IOSPD_DEFAULT_PROGRESS_PERIOD 65536u
#define IOSPD_IO_PRIORITY_NORMAL 3u
/* The largest count a command line or a -X profile may give for -t, -F,
 * -o, -O, -d, -W, -C, -i, -j, -D and -P (<ThreadsPerFile>, <ThreadCount>,
 * <RequestCount>, ...): DISKSPD reads these switches with atoi, which
 * saturates there; both readers refuse more (docs/compat-differences.md). */
#define IOSPD_COUNT_MAX INT32_MAX

typedef enum iospd_cache_mode {
  IOSPD_CACHE_CACHED = 0,        /* default / -Sb */
  IOSPD_CACHE_DISABLE_OS,        /* -Su, -S, -Sh: FILE_FLAG_NO_BUFFERING / O_DIRECT */
  IOSPD_CACHE_DISABLE_LOCAL      /* -Sr: remote file systems only */
} iospd_cache_mode_t;

typedef enum iospd_flush_type {
  IOSPD_FLUSH_NONE = 0,
  IOSPD_FLUSH_VIEW_OF_FILE,          /* -Nv */
  IOSPD_FLUSH_NON_VOLATILE,          /* -Nn */
  IOSPD_FLUSH_NON_VOLATILE_NO_DRAIN  /* -Ni */
} iospd_flush_type_t;

typedef enum iospd_pattern {
  IOSPD_PATTERN_SEQUENTIAL = 0, /* byte i = i mod 256 (default) */
  IOSPD_PATTERN_ZERO,           /* -Z */
  IOSPD_PATTERN_RANDOM          /* -Z<size>[,file]: random source buffer */
} iospd_pattern_t;

/* -Sy / -SY (DISKSPD 2.3): BypassIO on Windows (FSCTL_MANAGE_BYPASS_IO). */
typedef enum iospd_bypass_io {
  IOSPD_BYPASS_NONE = 0,
  IOSPD_BYPASS_PARTIAL, /* -Sy: a partial bypass is allowed */
  IOSPD_BYPASS_FULL     /* -SY: the run fails unless fully bypassed */
} iospd_bypass_io_t;

typedef enum iospd_dist_type {
  IOSPD_DIST_NONE = 0,
  IOSPD_DIST_PERCENT, /* -rdpct: span is a percentage of the target */
  IOSPD_DIST_ABSOLUTE /* -rdabs: span is a byte length (0 = to the end) */
} iospd_dist_type_t;

/* One stated range of a -rd distribution, after tail completion. */
typedef struct iospd_dist_range_s {
  uint32_t io_base;   /* cumulative IO% before this range */
  uint32_t io_pct;    /* IO% of this range (0 = hole) */
  uint64_t span_base; /* percent or bytes, cumulative */
  uint64_t span;      /* percent or bytes; absolute 0 = to end of target */
} iospd_dist_range_t;

typedef struct iospd_thread_target_s {
  uint32_t thread;
  uint32_t weight; /* 0 = use the target's weight */
} iospd_thread_target_t;

typedef enum iospd_precreate {
  IOSPD_PRECREATE_NONE = 0,
  IOSPD_PRECREATE_USE_MAX_SIZE,
  IOSPD_PRECREATE_CONSTANT_SIZES,
  IOSPD_PRECREATE_CONSTANT_OR_ZERO_SIZES
} iospd_precreate_t;

/* Target kinds, from the path form (how DISKSPD opens targets). */
typedef enum iospd_target_kind {
  IOSPD_TARGET_FILE = 0,
  IOSPD_TARGET_PHYSICAL_DRIVE, /* "#<n>" */
  IOSPD_TARGET_VOLUME          /* "<letter>:" */
} iospd_target_kind_t;

typedef struct iospd_target_s {
  char* path;             /* owned; UTF-8 */
  uint32_t block_size;    /* -b, default 65536 */
  uint64_t base_offset;   /* -B */
  uint64_t max_file_size; /* -f or -B:len, 0 = none */
  bool create;            /* -c given (even -c0) */
  uint64_t file_size;     /* -c size */

  /* Access pattern (DISKSPD's -r/-s/-rs rules). random_ratio: 0 sequential, 100 random, 1..99
   * mixed. stride_align: the -s stride or -r alignment; 0 = not stated,
   * meaning the block size. */
  uint32_t random_ratio;
  uint64_t stride_align;
  bool interlocked;     /* -si */
  bool parallel_async;  /* -p */
  uint64_t thread_stride; /* -T */

  uint32_t request_count; /* -o, default 2 */
  uint32_t write_ratio;   /* -w, 0..100 */
  uint32_t throughput_bpms; /* -g: bytes per ms, 0 = unlimited */
  uint32_t throughput_iops; /* -g<n>i: the IOPS figure as given, 0 = not IOPS */
  uint32_t threads_per_file; /* -t, default 1 */
  uint32_t io_priority;   /* -I: 1 very low, 2 low, 3 normal */
  uint32_t weight;        /* XML <Weight>, default 1 */

  bool sequential_scan; /* -fs */
  bool random_access;   /* -fr */
  bool temporary;       /* -ft */
  bool large_pages;     /* -l */

  iospd_cache_mode_t cache_mode;
  bool write_through;   /* -Sw */
  bool memory_mapped;   /* -Sm */
  iospd_flush_type_t flush_type; /* -N */
  iospd_bypass_io_t bypass_io;   /* -Sy / -SY (2.3), XML <BypassIO> */

  iospd_pattern_t pattern;      /* write buffer content */
  uint64_t random_data_size;    /* -Z<size> */
  char* random_data_path;       /* -Z<size>,<file>; owned, NULL if none */
  /* --compress=PCT / --dedupe=PCT (iospd): pre-built content whose zlib
   * saving is PCT % and of whose written blocks PCT % repeat an earlier
   * one (iospd/content.h). -1 = not given. Either given turns the content
   * generator on; the other then defaults to 0. */
  int32_t compress_pct;
  int32_t dedupe_pct;

  bool burst_set;   /* -i given */
  uint32_t burst_size;
  bool think_set;   /* -j given */
  uint32_t think_time; /* ms */

  iospd_dist_type_t dist_type;
  iospd_dist_range_t* dist; /* owned array */
  uint32_t dist_count;

  iospd_thread_target_t* thread_targets; /* owned array (XML only) */
  uint32_t thread_target_count;
} iospd_target_t;

typedef struct iospd_affinity_s {
  uint16_t group;
  uint16_t cpu; /* 0..255, or IOSPD_AFFINITY_WHOLE_GROUP */
} iospd_affinity_t;
/* An -ag# item with no CPU (2.3): every CPU of the group (XML Mask="0x0"). */
#define IOSPD_AFFINITY_WHOLE_GROUP 0xFFFFu

/* -u[n][<batch>[p]] (DISKSPD 2.3): submit through a ring (Windows IoRing,
 * Linux io_uring). XML <IoRing>. */
typedef struct iospd_ioring_s {
  bool enabled;            /* -u given */
  bool registered_buffers; /* true unless -un */
  uint32_t batch;          /* I/Os queued per submit, or a percentage */
  bool batch_percent;      /* batch is a % of the thread's outstanding I/Os */
} iospd_ioring_t;
#define IOSPD_IORING_DEFAULT_BATCH_PCT 25u
#define IOSPD_IORING_BATCH_MAX 65536u

/* -a modifiers (DISKSPD 2.3): how threads are laid over CPUs when no
 * explicit list is given. XML <AffinityTraversal Group= Efficiency=>. */
typedef enum iospd_aff_efficiency {
  IOSPD_AFF_P_FIRST = 0,  /* -ap, the 2.3 default: P-cores first in each pass */
  IOSPD_AFF_UNORDERED,    /* -aup: no efficiency order (2.2's order) */
  IOSPD_AFF_E_FIRST,      /* -ae */
  IOSPD_AFF_FILL_P_FIRST, /* -aP: every P-core pass before any E-core */
  IOSPD_AFF_FILL_E_FIRST  /* -aE */
} iospd_aff_efficiency_t;

/* -bs<n|p> (DISKSPD 2.3): where each thread's I/O buffer starts. */
typedef enum iospd_buffer_separation {
  IOSPD_BUFSEP_LEVEL_DEFAULT = 0, /* not stated: PDE at 2.3, none at 2.2 */
  IOSPD_BUFSEP_SYSTEM_DEFAULT,    /* -bsn: the allocator's placement */
  IOSPD_BUFSEP_PDE_CACHE_LINE     /* -bsp: (line/8) x (page/8) x page bytes */
} iospd_buffer_separation_t;
/* -oc<n>: completions one wait may return; 0 = not given (16). */
#define IOSPD_COMPLETION_DEPTH_DEFAULT 16u
#define IOSPD_COMPLETION_DEPTH_MAX 16u

typedef struct iospd_timespan_s {
  uint32_t duration;  /* -d seconds, default 10 */
  uint32_t warmup;    /* -W seconds, default 5 */
  uint32_t cooldown;  /* -C seconds */
  uint32_t rand_seed; /* -z */
  bool rand_seed_from_clock; /* bare -z: resolved to a value at parse time */
  bool random_write_data;    /* -Zr */
  uint32_t thread_count;     /* -F, 0 = per-target threads (-t) */
  uint32_t request_count;    /* -O, 0 = per-target -o */
  bool disable_affinity;     /* -n */
  bool completion_routines;  /* -x */
  bool measure_latency;      /* -L */
  bool calc_iops_stddev;     /* -D */
  uint32_t io_bucket_ms;     /* -D<ms>, default 1000 */
  iospd_affinity_t* affinity; /* owned array; explicit -a list */
  uint32_t affinity_count;
  /* DISKSPD 2.3 (zero = its defaults; a 2.2 profile leaves them so). */
  iospd_ioring_t ioring;            /* -u */
  bool affinity_core_aware;         /* -ac: one thread per core first */
  bool affinity_span_groups;        /* -as: interleave processor groups */
  iospd_aff_efficiency_t affinity_efficiency; /* -ap -aP -ae -aE -aup */
  iospd_buffer_separation_t buffer_separation; /* -bs */
  uint32_t completion_depth;        /* -oc, 0 = not given */
  iospd_target_t* targets;   /* owned array */
  uint32_t target_count;
} iospd_timespan_t;

typedef struct iospd_etw_s {
  bool enabled;
  bool process, thread, image_load, disk_io, memory_page_faults,
      memory_hard_faults, network, registry;
  bool use_paged_memory, use_perf_timer, use_system_timer, use_cycles_counter;
} iospd_etw_t;

/* -y named events (Windows; POSIX: see the platform notes). */
typedef struct iospd_events_s {
  char* start_name;  /* -ys: set when measurement starts */
  char* end_name;    /* -yf: set when measurement ends */
  char* ready_name;  /* -yr: wait for it before starting */
  char* stop_name;   /* -yp: stop the run when set */
  char* set_name;    /* -ye: set this event and exit */
} iospd_events_t;

/* --output=FORMAT:FILE (repeatable): one more report of the run, to a file. */
typedef struct iospd_output_spec_s {
  iospd_result_format_t format;
  char* path; /* owned; UTF-8 */
} iospd_output_spec_t;

/* --assign: how the files of a --tree spread over its leaf directories
 * (docs/tree.md gives the exact mapping). */
typedef enum iospd_tree_assign {
  IOSPD_ASSIGN_EVEN = 0, /* file i -> leaf i mod M */
  IOSPD_ASSIGN_ORDERED,  /* file i -> leaf floor(i * M / N) */
  IOSPD_ASSIGN_RANDOM    /* the even counts, files shuffled by the -z seed */
} iospd_tree_assign_t;
/* --tree: the file-tree workload (docs/tree.md). dirs == NULL: not this
 * mode. The I/O switches (-b, -w, -o, -t, -S...) stay in the timespan's one
 * target, whose path is the --tree value. */
typedef struct iospd_tree_opts_s {
  char* dirs;             /* --tree=DIR[,DIR...] as given (owned), or NULL */
  uint32_t files;         /* --files, default 1000 */
  uint64_t file_size;     /* --file-size, default 4 KiB */
  uint32_t skew_hot;      /* --skew=HOT:COLD, default 7:1 */
  uint32_t skew_cold;
  iospd_tree_assign_t assign; /* --assign, default even */
  uint32_t relocate_rate; /* --relocate[=RATE]: renames per second, 0 = off */
  uint32_t depth;         /* --depth: levels of sub-directories, default 0 */
  uint32_t width;         /* --width: sub-directories per level, default 2 */
  bool append;            /* --append: writes only extend files */
  bool cleanup;           /* --cleanup: remove what was created at the end */
} iospd_tree_opts_t;
#define IOSPD_TREE_DEFAULT_FILES 1000u
#define IOSPD_TREE_DEFAULT_FILE_SIZE 4096u
#define IOSPD_TREE_DEFAULT_THREADS 16u
#define IOSPD_TREE_DEFAULT_RELOCATE 10u
/* --diskspd=: the DISKSPD release whose defaults, profile elements and
 * layouts iospd follows. The value is the version times ten. */
typedef enum iospd_diskspd_level {
  IOSPD_DISKSPD_22 = 22,
  IOSPD_DISKSPD_23 = 23
} iospd_diskspd_level_t;
/* DISKSPD 2.3 is what users download now; --diskspd=2.2 keeps 2.2's
 * defaults and layouts for baselines made with it. */
#define IOSPD_DISKSPD_LEVEL_DEFAULT IOSPD_DISKSPD_23

/* --steady-state= (docs/pts.md): the PTS steady-state test on rounds of
 * round_ms of consecutive measured intervals of each timespan; the run
 * stops measuring when it holds. Off when !on. */
typedef struct iospd_ss_opts_s {
  bool on;
  int metric;             /* iospd_ss_metric_t (iospd/steady_state.h) */
  bool needs_latency;     /* the metric is a latency: -L is needed */
  double data_pct;        /* data excursion limit, % of the window's mean */
  double slope_pct;       /* slope excursion limit, % of the mean */
  uint32_t window_rounds; /* rounds in the window */
  uint32_t round_ms;      /* one round */
} iospd_ss_opts_t;

/* --pts=, --pts-cell=, --pts-matrix= (iospd/pts.h, docs/pts.md). */
#define IOSPD_PTS_MAX_BS 16u
#define IOSPD_PTS_MAX_MIX 8u
typedef struct iospd_pts_opts_s {
  int test;        /* IOSPD_PTS_* (iospd/pts.h); 0: no --pts */
  uint32_t cell_s; /* --pts-cell seconds; 0: PTS's 60 s */
  /* --pts-matrix: block sizes and read percentages; 0 entries: the
   * test's own. */
  uint32_t bs[IOSPD_PTS_MAX_BS];
  uint32_t nbs;
  uint32_t read_pct[IOSPD_PTS_MAX_MIX];
  uint32_t nmix;
  int purge; /* --pts-purge: 0 none, 1 trim, 2 secure (iospd/pts.h) */
  char* resume_path; /* --pts-resume=FILE (owned, UTF-8), or NULL */
} iospd_pts_opts_t;
/* --curve, --latency-limit, --expect (docs/curve.md): the axis the curve
 * walks, its values, the latency bound and the data-sheet figure. Fixed
 * arrays: nothing for iospd_profile_destroy to free. */
#define IOSPD_CURVE_MAX_VALUES 32u
typedef enum iospd_curve_axis {
  IOSPD_CURVE_AXIS_O = 0, /* -o: outstanding I/Os per thread */
  IOSPD_CURVE_AXIS_T,     /* -t (or -F): threads */
  IOSPD_CURVE_AXIS_B      /* -b: block size */
} iospd_curve_axis_t;
typedef enum iospd_curve_op {
  IOSPD_CURVE_OP_TOTAL = 0,
  IOSPD_CURVE_OP_READ,
  IOSPD_CURVE_OP_WRITE
} iospd_curve_op_t;
typedef struct iospd_curve_opts_s {
  bool on;                  /* --curve given */
  iospd_curve_axis_t axis;
  uint64_t values[IOSPD_CURVE_MAX_VALUES]; /* the planned axis values */
  uint32_t value_count;
  bool limit_on;            /* --latency-limit given */
  iospd_curve_op_t limit_op;
  double limit_pct;         /* the percentile, or 0 for the mean */
  double limit_us;          /* the bound in microseconds */
  char limit_stat[16];      /* "mean", "p99", "p99.9" as typed */
  int expect_kind;          /* 0 none, 1 iops, 2 mibs (--expect) */
  double expect_value;
} iospd_curve_opts_t;

/* iospd's own additions (long options). */
typedef struct iospd_ext_s {
  bool allow_raw_write; /* --allow-raw-write: write to disks/volumes that
                           hold a partition table or file system */
  int engine;           /* --engine=: index into iospd_plat_engines */
  iospd_output_spec_t* outputs; /* owned array (--output=) */
  uint32_t output_count;
  int status_line;      /* IOSPD_STATUS_* (--progress=): the live status
                           line (not -P, which is progress_dots) */
  char* timeseries_path; /* --timeseries=FILE (owned, UTF-8), or NULL */
  iospd_tree_opts_t tree; /* --tree mode */
  /* --verify, --verify-only, --verify-errors=N, --verify-state=FILE
   * (docs/verify.md). */
  bool verify;
  bool verify_only;
  uint32_t verify_errors; /* failures printed (when verify_errors_set) */
  bool verify_errors_set; /* else IOSPD_VERIFY_ERRORS_DEFAULT */
  char* verify_state;     /* owned, UTF-8, or NULL: <target>.iospd-verify */
  iospd_diskspd_level_t diskspd; /* --diskspd=2.2|2.3 */
  iospd_ss_opts_t steady; /* --steady-state= */
  iospd_pts_opts_t pts;   /* --pts= and its companions */
  iospd_curve_opts_t curve; /* --curve, --latency-limit, --expect */
} iospd_ext_t;

#define IOSPD_VERIFY_ERRORS_DEFAULT 10u
static inline uint32_t iospd_verify_errors(const iospd_ext_t* x) {
  return x->verify_errors_set ? x->verify_errors : IOSPD_VERIFY_ERRORS_DEFAULT;
}

/* --progress=: the live status line on stderr (iospd/status.h). */
enum {
  IOSPD_STATUS_AUTO = 0, /* when stderr is a terminal (and no -P dots) */
  IOSPD_STATUS_ALWAYS,
  IOSPD_STATUS_NEVER
};

/* --engine=: an index into the platform's engine table
 * (iospd_plat_engines in iospd/platform.h), which the core does not
 * interpret; entry 0 is always the platform's auto policy. */
enum { IOSPD_ENGINE_AUTO = 0 };
/* The --engine= word of a table index, or NULL when out of range; and
 * back: the index of a word, or -1 when this platform has no such engine.
 * Both read the platform's table. */
const char* iospd_engine_choice_name(int engine);
int iospd_engine_choice_parse(const char* name);
/* This platform's words for messages, sep between them and last_sep
 * before the last ("auto, io_uring, ... or psync"). */
void iospd_engine_choice_list(iospd_strbuf_t* out, const char* sep,
                              const char* last_sep);
/* For -?, the man page and completion: syntax with IOSPD_ENGINE_PLACEHOLDER
 * replaced by "<auto|...>" (the words), and one "word: summary" line per
 * engine (no newline after the last). */
#define IOSPD_ENGINE_PLACEHOLDER "<engine>"
void iospd_engine_choice_syntax(iospd_strbuf_t* out, const char* syntax);
void iospd_engine_choice_help(iospd_strbuf_t* out);

/* 64-bit words of the "was it given" bitmap: room for 128 switches. */
#define IOSPD_OPT_GIVEN_WORDS 2

typedef struct iospd_profile_s {
  char* cmdline;           /* owned: argv joined with spaces */
  bool verbose;            /* -v */
  bool verbose_stats;      /* -vs */
  uint32_t experiment_flags; /* -: */
  uint32_t progress_dots;  /* -P: a dot every N I/Os, 0 = off (not
                              --progress=, which is ext.status_line) */
  iospd_result_format_t format; /* -R */
  bool profile_only;       /* -Rp */
  bool system_only;        /* -Rs[text|xml] (DISKSPD 2.3): print the system
                              information only; format says text or xml */
  iospd_precreate_t precreate;  /* XML only */
  iospd_etw_t etw;         /* -e */
  iospd_events_t events;   /* -y */
  iospd_ext_t ext;
  char* xml_source;        /* owned: -X path, NULL for command-line profiles */
  /* Which switches were on the command line: bit i for the option-table
   * entry i (iospd/options.h: iospd_opt_given). Set by the parse only. */
  uint64_t opt_given[IOSPD_OPT_GIVEN_WORDS];
  iospd_timespan_t* timespans; /* owned array */
  uint32_t timespan_count;
} iospd_profile_t;

/* Initialises an empty profile (no timespans) with DISKSPD defaults. */
void iospd_profile_init(iospd_profile_t* p);
/* Frees everything the profile owns; safe on a half-filled profile and on a
 * zeroed one. Leaves p re-initialised. */
void iospd_profile_destroy(iospd_profile_t* p);
/* Defaults for a new timespan / target (DISKSPD's constructors). */
void iospd_timespan_init(iospd_timespan_t* ts);
void iospd_target_init(iospd_target_t* t);
/* Appends a default timespan / target and returns it, or NULL on ENOMEM. */
iospd_timespan_t* iospd_profile_add_timespan(iospd_profile_t* p);
iospd_target_t* iospd_timespan_add_target(iospd_timespan_t* ts);
/* Deep copy of a target (strings and arrays). 0 or IOSPD_ENOMEM. */
int iospd_target_copy(iospd_target_t* dst, const iospd_target_t* src);
void iospd_target_destroy(iospd_target_t* t);
/* Replaces a target's path with a copy of path. */
int iospd_target_set_path(iospd_target_t* t, const char* path);

/* Effective stride / alignment: stride_align, or block size when 0. */
uint64_t iospd_target_align(const iospd_target_t* t);
iospd_target_kind_t iospd_target_kind(const char* path);

/* True when --compress or --dedupe gave the target generated content. */
static inline bool iospd_target_has_content(const iospd_target_t* t) {
  return t->compress_pct >= 0 || t->dedupe_pct >= 0;
}

/* Structural equality (for round-trip tests): every field that the profile
 * XML carries. Returns true if equal. */
bool iospd_profile_equal(const iospd_profile_t* a, const iospd_profile_t* b);
/* The --tree defaults (dirs NULL: not tree mode). */
void iospd_tree_opts_init(iospd_tree_opts_t* t);
/* The --assign word of a value ("even", "ordered", "random"), or NULL; and
 * back: the value of a word, or -1. */
const char* iospd_tree_assign_name(int assign);
int iospd_tree_assign_parse(const char* word);

/* Validation (DISKSPD's profile validation). Checks every timespan and target. Errors go into
 * diag as one line each ("error: ..."), warnings as "warning: ..."; returns
 * 0, or IOSPD_EUSAGE if there was at least one error. A target whose
 * checked parameters equal the previous target's is skipped (command-line
 * targets all share parameters, so messages are not repeated per target);
 * template paths (*N) are checked on every target. diag may be NULL. The
 * CPU affinity check against the machine is the run's job. */
struct iospd_strbuf_s;
int iospd_profile_validate(const iospd_profile_t* p,
                           struct iospd_strbuf_s* diag);
/* The --verify / --verify-only rules (src/profile/verify_validate.c), part
 * of iospd_profile_validate. */
/* --steady-state's rules and --pts's companions without --pts
 * (src/profile/steady_validate.c): errors appended
 * to diag; returns the number of errors. */
int iospd_profile_validate_steady(const iospd_profile_t* p,
                                  struct iospd_strbuf_s* diag);
int iospd_profile_validate_verify(const iospd_profile_t* p,
                                  struct iospd_strbuf_s* diag);

#endif

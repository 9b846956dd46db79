/* SPDX-License-Identifier: MIT */
/* iospd --ping: the ioping-style latency probe. One request at a time, a
 * line per request, a summary at the end (docs/ping.md).
 *
 * The parts, each in its own file under src/ping/:
 *   ping_args.c    the command line after --ping (its own small grammar)
 *   ping_stats.c   the running statistics and the fast/slow marks
 *   ping_format.c  numbers with units, the request line, the summary,
 *                  the --batch line, the -Rjson and -Rxml documents
 *   ping_run.c     the probe itself, through platform.h
 *   ping_mode.c    the mode's entry: parse, run, print, exit code */
#ifndef IOSPD_PING_H
#define IOSPD_PING_H

#include "iospd/common.h"
#include "iospd/error.h"
#include "iospd/hist.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

#define IOSPD_PING_DEFAULT_SIZE 4096u
#define IOSPD_PING_DEFAULT_INTERVAL_US 1000000u
/* The temporary file made in a directory, when --working-set is not given
 * (as ioping: 1 MiB). */
#define IOSPD_PING_DEFAULT_TEMP_SET (1024u * 1024u)

typedef struct iospd_ping_opts_s {
  const char* path;     /* the one PATH (borrowed from argv) */
  uint64_t count;       /* requests to make; 0: until -d or Ctrl-C */
  uint64_t interval_us; /* time from one request's start to the next's */
  uint32_t size;        /* bytes per request */
  uint64_t working_set; /* 0: the whole file or device, 1 MiB in a folder */
  uint32_t duration_s;  /* -d; 0: no deadline */
  bool write;           /* --write / -w100 */
  bool sequential;      /* --sequential / -s */
  /* The cache mode. Unlike a run, a probe is unbuffered by default, so it
   * times the device and not memory (ioping drops the cache before each
   * read for the same reason); -Sb / --cached put the OS cache back. As
   * in DISKSPD each -S switch sets the whole mode: -S/-Su unbuffered,
   * -Sh unbuffered and write-through, -Sw cached and write-through, -Sb
   * cached. */
  bool direct;          /* default, --direct, -S, -Su, -Sh */
  bool write_through;   /* -Sw, -Sh */
  bool quiet;           /* --quiet: summary only */
  bool batch;           /* --batch: one line of raw numbers only */
  bool percentiles;     /* -L */
  bool allow_raw_write; /* --allow-raw-write */
  iospd_result_format_t format; /* -Rtext (default), -Rxml, -Rjson */
} iospd_ping_opts_t;

void iospd_ping_opts_init(iospd_ping_opts_t* o);
/* Parses the arguments of `iospd --ping[=COUNT] ...`: argv[0] is the
 * "--ping" or "--ping=COUNT" argument itself. windows: '/' starts a switch
 * too, as in DISKSPD. Returns 0, or IOSPD_EUSAGE with err naming the
 * switch and saying what is allowed (bad input: exit 3). */
int iospd_ping_parse(int argc, const char* const* argv, bool windows,
                     iospd_ping_opts_t* o, iospd_err_t* err);
/* --interval's TIME: a decimal number with an optional unit us, ms, s (the
 * default) or m, at most a day; 0 or IOSPD_EUSAGE. */
int iospd_ping_parse_interval(const char* v, uint64_t* us);

/* ---- statistics ------------------------------------------------------- */

typedef enum iospd_ping_mark_e {
  IOSPD_PING_MARK_NONE = 0,
  IOSPD_PING_MARK_WARMUP, /* the first request: never counted */
  IOSPD_PING_MARK_FAST,   /* under half the mean of the counted ones before */
  IOSPD_PING_MARK_SLOW    /* over twice that mean */
} iospd_ping_mark_t;

typedef struct iospd_ping_stats_s {
  uint64_t requests;  /* made, warm-up included */
  uint64_t counted;   /* in the statistics (all but the warm-up) */
  uint64_t sum_ns;    /* of the counted */
  uint64_t wall_ns;   /* from the first request's start to the end */
  iospd_hist_t* hist; /* the counted times: min/max/mean/mdev, percentiles */
} iospd_ping_stats_t;

/* Allocates the histogram; IOSPD_ENOMEM. */
int iospd_ping_stats_init(iospd_ping_stats_t* s);
void iospd_ping_stats_destroy(iospd_ping_stats_t* s);
/* Records one request of ns nanoseconds and says how to mark it (decided
 * against the requests before it, then counted). No allocation. */
iospd_ping_mark_t iospd_ping_stats_add(iospd_ping_stats_t* s, uint64_t ns);

/* The summary's numbers, derived from the statistics. */
typedef struct iospd_ping_summary_s {
  uint64_t requests, counted;
  uint64_t time_ns;            /* sum of the counted requests' times */
  uint64_t wall_ns;
  uint64_t bytes, all_bytes;   /* counted, and all requests */
  double iops, bps;            /* counted / time_ns */
  double wall_iops, wall_bps;  /* all / wall_ns */
  uint64_t min_ns, max_ns;
  double avg_ns, mdev_ns;      /* mdev: population standard deviation */
} iospd_ping_summary_t;
void iospd_ping_summarize(const iospd_ping_stats_t* s, uint32_t size,
                          iospd_ping_summary_t* out);

/* ---- formatting ------------------------------------------------------- */

/* "104.4 us", "4.72 us", "1.25 ms", "3.00 s", "850 ns" (ASCII units). */
char* iospd_ping_fmt_time(double ns, char* buf, size_t n);
/* "4 KiB", "1.50 MiB", "53.3 KiB" (binary units; "512 B"). */
char* iospd_ping_fmt_bytes(double bytes, char* buf, size_t n);
/* "13", "1.33", "3.82 k", "1.20 M" (three significant digits). */
char* iospd_ping_fmt_count(double v, char* buf, size_t n);

/* What the lines say about the target: the path as given and "ext4
 * /dev/vda" (file system and device), "device 1 GiB", ... */
typedef struct iospd_ping_target_s {
  const char* path;
  char where[320];
  uint32_t size;
  bool write;
} iospd_ping_target_t;

/* "4 KiB <<< PATH (WHERE): request=N time=T[ (mark)]\n"; ">>>" for writes. */
void iospd_ping_line(iospd_strbuf_t* out, const iospd_ping_target_t* t,
                     uint64_t request, uint64_t ns, iospd_ping_mark_t mark);
/* The failure line of request N. */
void iospd_ping_error_line(iospd_strbuf_t* out, const iospd_ping_target_t* t,
                           uint64_t request, const char* what);
/* The text summary (a blank line first); with -L the percentile lines. */
void iospd_ping_summary_text(iospd_strbuf_t* out, const iospd_ping_target_t* t,
                             const iospd_ping_stats_t* s, bool percentiles);
/* --batch: the ten numbers of ioping -B, one line. */
void iospd_ping_batch_line(iospd_strbuf_t* out, const iospd_ping_stats_t* s,
                           uint32_t size);

/* Everything the documents hold beyond the statistics. */
typedef struct iospd_ping_report_s {
  const iospd_ping_opts_t* opts;
  const iospd_ping_target_t* target;
  const char* kind;       /* "file", "directory", "device" */
  const char* file;       /* the file read or written (the temporary one in
                             a folder) */
  const char* fs_type;    /* "" unknown */
  const char* device;     /* "" unknown */
  uint64_t working_set;   /* bytes, as used */
  const char* error;      /* the failure, or NULL */
  bool interrupted;       /* Ctrl-C ended it */
} iospd_ping_report_t;
void iospd_ping_json(iospd_strbuf_t* out, const iospd_ping_report_t* r,
                     const iospd_ping_stats_t* s);
void iospd_ping_xml(iospd_strbuf_t* out, const iospd_ping_report_t* r,
                    const iospd_ping_stats_t* s);

/* ---- the probe -------------------------------------------------------- */

/* Where the probe's output goes, so the probe itself never prints. */
typedef struct iospd_ping_sink_s {
  void (*line)(void* ctx, const char* text, size_t len); /* request lines */
  void* ctx;
} iospd_ping_sink_t;

typedef struct iospd_ping_result_s {
  iospd_ping_target_t target;
  iospd_ping_report_t report;
  char kind[16];
  char file[1024];
  char fs_type[32];
  char device[256];
  char error[IOSPD_ERR_MSG_MAX + 64];
  bool interrupted;
  bool started; /* requests were attempted: the summary follows */
} iospd_ping_result_t;

/* Runs the probe. Returns 0 (also after Ctrl-C or -d), IOSPD_EUSAGE or
 * IOSPD_EUNSAFE for bad input found on the target (err says what; nothing
 * was done), or another IOSPD_E* when a request or the set-up failed (err
 * says what; r->started tells whether a summary is due). s must be
 * initialised. */
int iospd_ping_run(const iospd_ping_opts_t* o, uint64_t ticks_per_second,
                   const iospd_ping_sink_t* sink,
                   iospd_ping_stats_t* s, iospd_ping_result_t* r,
                   iospd_err_t* err);

/* Where the mode prints: main.c hands over the console layer's writers
 * (iospd_plat_write_out / _err), so the mode prints through the one place
 * every iospd output goes through. */
typedef struct iospd_ping_print_s {
  void (*out)(const char* text, size_t len);
  void (*err)(const char* text, size_t len);
} iospd_ping_print_t;

/* The whole mode: argv as main has it, argv[1] being --ping[=COUNT].
 * Returns the exit code (0, 1, 3). */
int iospd_ping_main(int argc, const char* const* argv, bool windows,
                    uint64_t ticks_per_second, const iospd_ping_print_t* pr);

#endif

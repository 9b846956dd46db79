/* SPDX-License-Identifier: MIT */
/* --curve (docs/curve.md): the points a curve run measures, the choice of
 * the next point (along the axis, then bisection for --latency-limit, a -g
 * rate between the last good and the first bad point, one point at a
 * second block size), and the reading of the points: the knee, the cap
 * (IOPS, bandwidth, or iospd itself), Little's law and the verdict
 * sentences. Pure functions over numbers: no OS, no run; the mode
 * (src/app/app_curve.c) runs each point and fills it in. */
#ifndef IOSPD_CURVE_H
#define IOSPD_CURVE_H

#include "iospd/profile.h"
#include "iospd/strbuf.h"

#define IOSPD_CURVE_MAX_POINTS 64u
/* Growth below this over two steps is a plateau (the knee's rule). */
#define IOSPD_CURVE_GROWTH 0.05
#define IOSPD_CURVE_BISECT_MAX 6u /* bisection points at most */
#define IOSPD_CURVE_RATE_MAX 3u   /* -g rate points at most */
/* The block size probe: the same figure within this share. */
#define IOSPD_CURVE_SAME 0.15
/* A worker busy this much of a CPU is the limit (iospd_warn_busy's 95);
 * so is iospd's process (or a worker) using IOSPD_CURVE_STARVED_PCT of a
 * CPU while the machine's CPUs were IOSPD_CURVE_BUSY_PCT busy (it wanted
 * more CPU than it got). */
#define IOSPD_CURVE_BUSY_PCT 95.0
#define IOSPD_CURVE_STARVED_PCT 50.0
/* Little's law: measured mean this far from expected is called off. */
#define IOSPD_CURVE_LITTLE_OFF 0.20

typedef enum iospd_curve_phase {
  IOSPD_CURVE_PHASE_CURVE = 0, /* a point of the axis */
  IOSPD_CURVE_PHASE_BISECT,    /* between the last good and first bad */
  IOSPD_CURVE_PHASE_PROBE,     /* the second block size */
  IOSPD_CURVE_PHASE_RATE       /* a -g rate between good and bad */
} iospd_curve_phase_t;
/* "curve", "bisect", "block_size_probe", "rate". */
const char* iospd_curve_phase_word(iospd_curve_phase_t ph);

typedef enum iospd_curve_stop {
  IOSPD_CURVE_STOP_NONE = 0, /* the axis goes on */
  IOSPD_CURVE_STOP_PLATEAU,
  IOSPD_CURVE_STOP_LIMIT,
  IOSPD_CURVE_STOP_END,
  IOSPD_CURVE_STOP_INTERRUPTED,
  IOSPD_CURVE_STOP_FAILED
} iospd_curve_stop_t;
/* "plateau", "limit_broken", "end_of_axis", "interrupted", "failed";
 * NULL for NONE. */
const char* iospd_curve_stop_word(iospd_curve_stop_t s);

typedef enum iospd_curve_cap {
  IOSPD_CURVE_CAP_UNKNOWN = 0, /* not found (JSON null) */
  IOSPD_CURVE_CAP_NONE,        /* looked for: neither figure held */
  IOSPD_CURVE_CAP_IOPS,
  IOSPD_CURVE_CAP_BANDWIDTH,
  IOSPD_CURVE_CAP_TOOL         /* iospd's own CPU */
} iospd_curve_cap_t;
/* "none", "iops", "bandwidth", "tool"; NULL for UNKNOWN. */
const char* iospd_curve_cap_word(iospd_curve_cap_t c);
/* "outstanding I/Os per thread", "threads", "block size"; and the switch
 * letter "o", "t", "b". */
const char* iospd_curve_axis_name(iospd_curve_axis_t a);
const char* iospd_curve_axis_switch(iospd_curve_axis_t a);

typedef struct iospd_curve_point_s {
  /* What to run (iospd_curve_next fills these). */
  iospd_curve_phase_t phase;
  uint64_t axis_value;
  uint32_t block_size;  /* -b */
  uint32_t threads;     /* -t (or -F) */
  uint32_t outstanding; /* -o */
  double rate_iops;     /* the -g rate over the whole run, 0 = none */
  /* What it gave (the mode fills these). */
  uint64_t in_flight;   /* I/Os asked in flight over every thread */
  double seconds, iops, mib_per_s;
  bool has_latency;
  double mean_us, p50_us, p90_us, p99_us, p999_us, max_us;
  double limit_us;      /* the --latency-limit statistic, on its op */
  double cpu_percent;   /* the machine's CPU use */
  double busiest_cpu_percent; /* the busiest worker's share of a CPU */
  double process_cpu_percent; /* iospd's whole process, 100 = one CPU */
  uint32_t busiest_thread;
  bool failed;
  int within;           /* -1 no limit, 0 over it, 1 within */
} iospd_curve_point_t;

typedef struct iospd_curve_s {
  iospd_curve_opts_t opts;
  uint32_t block_size, threads, outstanding; /* the profile's own */
  iospd_curve_point_t points[IOSPD_CURVE_MAX_POINTS];
  uint32_t count;
  bool interrupted; /* Ctrl-C: the points done are all there is */
} iospd_curve_t;

/* The default values of an axis (o: 1, 2, 4 ... 1024; t: 1 ... 64; b: 4K
 * ... 1M, each doubling) into out (IOSPD_CURVE_MAX_VALUES); the count. */
uint32_t iospd_curve_default_values(iospd_curve_axis_t a, uint64_t* out);

/* Starts a curve of the options and the profile's own -b, -t, -o. */
void iospd_curve_init(iospd_curve_t* c, const iospd_curve_opts_t* o,
                      uint32_t block_size, uint32_t threads,
                      uint32_t outstanding);

/* The throughput the axis is judged by: IOPS for o and t, MiB/s for b. */
double iospd_curve_tput(const iospd_curve_t* c, const iospd_curve_point_t* p);

/* The knee of n throughputs: the first k with at least min_after points
 * after it, none of which grew by IOSPD_CURVE_GROWTH or more over tput[k];
 * -1 when there is none (still growing). */
int32_t iospd_curve_knee(const double* tput, uint32_t n, uint32_t min_after);

/* Why the axis stopped, from its points alone: NONE while it goes on. */
iospd_curve_stop_t iospd_curve_stopped(const iospd_curve_t* c);

/* The next point to run into next (what to run filled, the rest zero), or
 * false when the curve is done. */
bool iospd_curve_next(const iospd_curve_t* c, iospd_curve_point_t* next);

/* Whether a measured statistic keeps the bound (1), breaks it (0), or
 * there is no bound (-1). */
int iospd_curve_within(const iospd_curve_opts_t* o, double stat_us);

/* Whether iospd's own CPU limited the point (the rules above). */
bool iospd_curve_tool_bound(const iospd_curve_point_t* p);

/* The bisection's next -o between a good and a bad value, 0 when they are
 * next to each other. */
uint64_t iospd_curve_bisect(uint64_t good, uint64_t bad);

typedef struct iospd_curve_little_s {
  uint32_t point; /* index into points */
  double expected_us, measured_us;
} iospd_curve_little_t;

typedef struct iospd_curve_analysis_s {
  iospd_curve_stop_t stopped;
  int32_t knee;   /* index into points, -1 */
  int32_t cliff;  /* a point after the knee below 70 % of it, -1 */
  int32_t answer; /* the best point within the bound, -1 */
  bool have_good, have_bad;   /* the bracket of the answer */
  uint64_t good_axis, bad_axis;
  int32_t first_bad; /* the first point over the bound on the axis, -1 */
  int32_t probe;  /* the block size probe, -1 */
  int32_t busy;   /* the point whose worker was busiest (>= 95 %), -1 */
  iospd_curve_cap_t cap;
  double cap_value;
  char evidence[200];
  iospd_curve_little_t little[IOSPD_CURVE_MAX_POINTS];
  uint32_t little_count;
  int32_t best;   /* the highest throughput on the axis, -1 */
} iospd_curve_analysis_t;

void iospd_curve_analyse(const iospd_curve_t* c, iospd_curve_analysis_t* a);

/* The verdict, one sentence per line ('\n' after each), in the order the
 * text report prints them and the JSON "verdict" lists them. */
void iospd_curve_verdict(const iospd_curve_t* c,
                         const iospd_curve_analysis_t* a, iospd_strbuf_t* out);

/* "QD 16", "8 threads", "block 64K": a point's place on the axis. */
void iospd_curve_axis_label(iospd_curve_axis_t axis, uint64_t value,
                            iospd_strbuf_t* out);
/* 1920.4 -> "1,920"; a time in microseconds -> "950 us" / "8.33 ms". */
void iospd_curve_fmt_count(iospd_strbuf_t* out, double v);
void iospd_curve_fmt_time(iospd_strbuf_t* out, double us);

/* What a profile with --curve, --latency-limit or --expect refuses
 * (src/run/curve_check.c): 0, or IOSPD_EUSAGE with the one-line reason
 * (naming the switch) appended to msg. 0 too without any of the three. */
int iospd_curve_refusal(const iospd_profile_t* p, iospd_strbuf_t* msg);

#endif

/* SPDX-License-Identifier: MIT */
/* Comparing runs (iospd --compare, and the HTML report's comparison): for
 * runs 2..n against run 1 (the baseline), per timespan and metric, the two
 * values, the difference in % and whether it is within the runs' noise,
 * decided by the stated test below from per-interval values; plus every
 * setting and environment field that differs between the runs. The
 * comparison is data (iospd_compare_t); iospd_compare_text prints it and
 * the HTML report renders the same data. docs/compare.md says what is
 * compared and how to read it.
 *
 * Per-interval values: IOPS, MiB/s and mean latency from the -D intervals
 * (timespans[].iops_series), else from a time series; p99 and p99.9 from
 * a time series with -L only (the "timeseries" rows --output=html keeps
 * in the JSON, or a --timeseries .jsonl file attached with
 * iospd_results_doc_add_timeseries); CPU per I/O has none (unknown).
 *
 * The noise test (iospd_cmp_noise_test): Welch's two-sample t-test on the
 * two runs' per-interval values, each run's sample size replaced by its
 * effective size for lag-1 autocorrelation r1 (AR(1) approximation):
 * n_eff = n (1 - r1) / (1 + r1), r1 clamped to [0, 0.9]. A difference is
 * real when the two-sided p < IOSPD_CMP_ALPHA; within noise otherwise;
 * unknown without at least IOSPD_CMP_MIN_INTERVALS per-interval values in
 * both runs (never "within noise" without data). */
#ifndef IOSPD_COMPARE_H
#define IOSPD_COMPARE_H

#include "iospd/error.h"
#include "iospd/strbuf.h"

struct cJSON; /* cJSON.h */

#define IOSPD_CMP_ALPHA 0.01
#define IOSPD_CMP_MIN_INTERVALS 5
#define IOSPD_CMP_R1_MAX 0.9

typedef enum iospd_cmp_metric_e {
  IOSPD_CMP_IOPS,       /* I/O per second */
  IOSPD_CMP_MIBS,       /* MiB per second */
  IOSPD_CMP_LAT_MEAN,   /* mean latency, ms */
  IOSPD_CMP_LAT_P99,    /* 99th percentile latency, ms */
  IOSPD_CMP_LAT_P999,   /* 99.9th percentile latency, ms */
  IOSPD_CMP_CPU_PER_IO, /* CPU time per I/O (all CPUs), microseconds */
  IOSPD_CMP_METRIC_COUNT
} iospd_cmp_metric_t;

typedef enum iospd_cmp_dir_e {
  IOSPD_CMP_TOTAL, /* read and write together */
  IOSPD_CMP_READ,
  IOSPD_CMP_WRITE
} iospd_cmp_dir_t;

typedef enum iospd_cmp_verdict_e {
  IOSPD_CMP_UNKNOWN = 0, /* no decision; the row's why says why */
  IOSPD_CMP_NOISE,       /* within noise: p >= IOSPD_CMP_ALPHA */
  IOSPD_CMP_REAL         /* a real difference: p < IOSPD_CMP_ALPHA */
} iospd_cmp_verdict_t;

/* The noise test's result for two series of per-interval values. */
typedef struct iospd_cmp_test_s {
  iospd_cmp_verdict_t verdict;
  size_t n_a, n_b;          /* intervals */
  double mean_a, mean_b;    /* of the per-interval values */
  double r1_a, r1_b;        /* lag-1 autocorrelation used (clamped) */
  double n_eff_a, n_eff_b;  /* effective sample sizes */
  double t, df, p;          /* Welch's t, its degrees of freedom, two-sided p */
  char why[192];            /* for UNKNOWN: why (e.g. too few intervals) */
} iospd_cmp_test_t;

/* One metric of one direction (and target) of one timespan: run r against
 * the baseline. Values are in the metric's unit (iospd_cmp_metric_unit). */
typedef struct iospd_cmp_row_s {
  iospd_cmp_metric_t metric;
  iospd_cmp_dir_t dir;
  int target;          /* -1: all targets together; else the target index */
  bool has_base, has_value;
  double base, value;  /* run 1's and this run's value */
  bool has_diff;       /* base and value known, base != 0 */
  double diff_pct;     /* (value - base) / base * 100 */
  bool better;         /* when REAL: the change is an improvement */
  iospd_cmp_test_t test; /* verdict and statistics; why when UNKNOWN */
} iospd_cmp_row_t;

/* A timespan of run r against the same timespan of run 1. */
typedef struct iospd_cmp_span_s {
  int timespan;          /* index */
  iospd_cmp_row_t* rows; /* metrics in enum order, per direction */
  size_t n_rows;
} iospd_cmp_span_t;

/* Runs 2..n: runs[0] is the baseline itself (no spans). */
typedef struct iospd_cmp_run_s {
  char* name;            /* as the user gave it */
  char* run_time;        /* system.run_time or NULL */
  char* computer_name;   /* system.computer_name or NULL */
  /* Per-interval values of timespan 0 (all targets), by source: the -D
   * intervals (iops_series; IOPS, MiB/s, mean latency), and the measuring
   * rows of a time series (the document's "timeseries" key, or a .jsonl
   * given after it; also p99 and p99.9 with -L). 0: none. */
  size_t intervals;
  double interval_ms;
  size_t ts_intervals;
  double ts_interval_ms;
  iospd_cmp_span_t* spans;
  size_t n_spans;
} iospd_cmp_run_t;

typedef enum iospd_cmp_field_kind_e {
  IOSPD_CMP_SETTING,     /* a profile key the workload depends on */
  IOSPD_CMP_HOST_SETTING,/* a profile key naming host objects (a target's
                            path, -X/-Z paths) or presentation (-R, -v) */
  IOSPD_CMP_ENVIRONMENT  /* system and environment fields */
} iospd_cmp_field_kind_t;

/* A field whose value is not the same in every run. */
typedef struct iospd_cmp_field_s {
  iospd_cmp_field_kind_t kind;
  char* path;     /* "profile.timespans[0].targets[0].block_size" */
  char** values;  /* one per run, as short text ("absent" when missing) */
} iospd_cmp_field_t;

typedef struct iospd_compare_s {
  size_t n_runs;
  iospd_cmp_run_t* runs;
  bool profiles_differ;    /* a SETTING field differs (needs force) */
  bool forced;             /* compared anyway (opts.force) */
  /* The runs follow different DISKSPD releases (--diskspd=, the JSON's
   * system.tool.diskspd_version): 2.3 changed defaults, so its results
   * need rebaselining. That field then counts as a setting. */
  bool levels_differ;
  iospd_cmp_field_t* fields; /* SETTING first, then HOST_SETTING, then
                                ENVIRONMENT, each in document order */
  size_t n_fields;
} iospd_compare_t;

typedef struct iospd_compare_opts_s {
  bool force;       /* compare runs of different profiles */
  bool per_target;  /* also rows per target (when a timespan has > 1) */
  const char* mode; /* for messages, e.g. "--compare" or "--report" */
} iospd_compare_opts_t;

/* Builds the comparison of n >= 2 loaded documents (iospd_results_doc_parse)
 * named names[i]. Returns 0, or IOSPD_EUSAGE (fewer than 2 runs; different
 * profiles without opts->force: err names the file, the first differing
 * setting and both values) or IOSPD_ENOMEM. On error *out is left empty
 * (iospd_compare_free is still safe). */
int iospd_compare_build(const struct cJSON* const* docs,
                        const char* const* names, size_t n,
                        const iospd_compare_opts_t* opts,
                        iospd_compare_t* out, iospd_err_t* err);

/* Appends the comparison as text (the table --compare prints, with the
 * test stated in a footer). */
void iospd_compare_text(const iospd_compare_t* c, iospd_strbuf_t* sb);

void iospd_compare_free(iospd_compare_t* c);

/* Reads a whole file (the application passes iospd_app_read_whole_file;
 * *data is freed with iospd_free). */
typedef int (*iospd_cmp_read_fn)(const char* path, char** data, size_t* len,
                                 iospd_err_t* err);

/* iospd --compare: args are the arguments after --compare (result files,
 * and --force anywhere among them). Reads each file with read_file, loads
 * it (iospd_results_doc_parse), builds the comparison and appends its text
 * to out. Returns 0, IOSPD_EUSAGE (bad input: err names the file or the
 * argument and what is wrong; exit 3) or IOSPD_ENOMEM. */
int iospd_compare_mode(int nargs, const char* const* args,
                       iospd_cmp_read_fn read_file, iospd_strbuf_t* out,
                       iospd_err_t* err);

/* The noise test on two series of per-interval values (see the top). */
void iospd_cmp_noise_test(const double* a, size_t na, const double* b,
                          size_t nb, iospd_cmp_test_t* out);

/* Two-sided p-value of Student's t with df degrees of freedom. */
double iospd_cmp_t_pvalue(double t, double df);

/* Names for text and HTML: "IOPS", "MiB/s", "mean latency", "p99 latency",
 * "p99.9 latency", "CPU per I/O"; units "", "MiB/s", "ms", "ms", "ms", "us";
 * "total", "read", "write"; "within noise", "real difference", "unknown";
 * whether a higher value is better (IOPS, MiB/s) or worse. */
const char* iospd_cmp_metric_name(iospd_cmp_metric_t m);
const char* iospd_cmp_metric_unit(iospd_cmp_metric_t m);
bool iospd_cmp_metric_higher_is_better(iospd_cmp_metric_t m);
const char* iospd_cmp_dir_name(iospd_cmp_dir_t d);
const char* iospd_cmp_verdict_name(iospd_cmp_verdict_t v);
const char* iospd_cmp_field_kind_name(iospd_cmp_field_kind_t k);

/* Two curve documents (iospd-curve, --curve): B against A, the curve
 * points matched by axis value with IOPS and p99 and B/A for each, then
 * both knees, answers, caps and verdicts (docs/compare.md, "Two curves").
 * Returns 0, IOSPD_EUSAGE (a document that is not a curve, naming it) or
 * IOSPD_ENOMEM. */
int iospd_compare_curves(const struct cJSON* a, const struct cJSON* b,
                         const char* name_a, const char* name_b,
                         iospd_strbuf_t* out, iospd_err_t* err);
/* Its parts, shared with the HTML overlay: the check of one document
 * (name for the message), the curve-phase point at an axis value (NULL:
 * none), and the axis values of both curves (A's order, then B's others;
 * at most cap; returns the count). */
int iospd_compare_curve_check(const struct cJSON* d, const char* name,
                              iospd_err_t* err);
const struct cJSON* iospd_compare_curve_point(const struct cJSON* d, double v);
size_t iospd_compare_curve_values(const struct cJSON* a, const struct cJSON* b,
                                  double* v, size_t cap);

#endif

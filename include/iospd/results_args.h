/* SPDX-License-Identifier: MIT */
/* The "results files" grammar shared by the modes that read saved runs
 * (--compare, --report):
 *     a.json [a.jsonl] [b.json [b.jsonl]] ... [--force] [the mode's switches]
 * a results file (-Rjson or --output=json:FILE), optionally followed by the
 * .jsonl time series of the same run (--timeseries), any number of times.
 * One parser classifies each argument in turn; the mode acts on the class
 * (reads the file, takes its own switch, or refuses with its own words), so
 * each mode keeps the order of its messages. */
#ifndef IOSPD_RESULTS_ARGS_H
#define IOSPD_RESULTS_ARGS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum iospd_results_arg {
  IOSPD_RARG_RESULTS = 0, /* a results file: the next run */
  IOSPD_RARG_SERIES,      /* a .jsonl: the time series of the run before */
  IOSPD_RARG_FORCE,       /* --force */
  IOSPD_RARG_SWITCH,      /* another switch: the mode's own or one it refuses */
  IOSPD_RARG_SERIES_ALONE /* a .jsonl with no run before it to belong to */
} iospd_results_arg_t;

/* Where the modes' grammars differ (each mode's row is in its own file). */
typedef struct iospd_results_grammar_s {
  /* "-" alone is a switch (so refused; a file of that name is "./-"),
   * not a file name. */
  bool dash_is_switch;
  /* A .jsonl belongs to the argument right before it, which must be a
   * results file; otherwise to the last results file, if that has no time
   * series yet, whatever switches sit between them. */
  bool series_adjacent;
} iospd_results_grammar_t;

/* The parser's state between arguments. */
typedef struct iospd_results_args_s {
  const iospd_results_grammar_t* grammar;
  size_t runs;          /* results files so far */
  bool last_has_series; /* the last results file has its .jsonl */
  bool prev_results;    /* the argument before was a results file */
} iospd_results_args_t;

void iospd_results_args_init(iospd_results_args_t* st,
                             const iospd_results_grammar_t* grammar);

/* The class of the next argument. After IOSPD_RARG_RESULTS, st->runs counts
 * it; after IOSPD_RARG_SERIES, the series belongs to run st->runs - 1. */
iospd_results_arg_t iospd_results_args_next(iospd_results_args_t* st,
                                            const char* arg);

/* Does name end in ".jsonl" (any letter case, as --timeseries)? */
bool iospd_results_is_series(const char* name);

#endif

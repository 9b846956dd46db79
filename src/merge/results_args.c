/* SPDX-License-Identifier: MIT */
/* The "results files" grammar of --compare and --report
 * (iospd/results_args.h). */
#include "iospd/results_args.h"

#include <string.h>

bool iospd_results_is_series(const char* name) {
  static const char tail[] = ".jsonl";
  size_t n = strlen(name), m = sizeof tail - 1;
  if (n < m) return false;
  for (size_t i = 0; i < m; i++) {
    char c = name[n - m + i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != tail[i]) return false;
  }
  return true;
}

void iospd_results_args_init(iospd_results_args_t* st,
                             const iospd_results_grammar_t* grammar) {
  memset(st, 0, sizeof *st);
  st->grammar = grammar;
}

static iospd_results_arg_t classify(iospd_results_args_t* st,
                                    const char* arg) {
  if (strcmp(arg, "--force") == 0) return IOSPD_RARG_FORCE;
  if (strncmp(arg, "--", 2) == 0 ||
      (st->grammar->dash_is_switch && strcmp(arg, "-") == 0))
    return IOSPD_RARG_SWITCH;
  if (!iospd_results_is_series(arg)) {
    st->runs++;
    st->last_has_series = false;
    return IOSPD_RARG_RESULTS;
  }
  bool fits = st->grammar->series_adjacent
                  ? st->prev_results
                  : st->runs > 0 && !st->last_has_series;
  if (!fits) return IOSPD_RARG_SERIES_ALONE;
  st->last_has_series = true;
  return IOSPD_RARG_SERIES;
}

iospd_results_arg_t iospd_results_args_next(iospd_results_args_t* st,
                                            const char* arg) {
  iospd_results_arg_t k = classify(st, arg);
  st->prev_results = k == IOSPD_RARG_RESULTS;
  return k;
}

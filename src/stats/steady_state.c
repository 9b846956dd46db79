/* SPDX-License-Identifier: MIT */
/* The PTS steady-state test (iospd/steady_state.h). */
#include "iospd/steady_state.h"

#include <math.h>
#include <string.h>

void iospd_ss_limits_pts(iospd_ss_limits_t* lim) {
  lim->window_rounds = IOSPD_SS_WINDOW_PTS;
  lim->data_pct = IOSPD_SS_DATA_PCT_PTS;
  lim->slope_pct = IOSPD_SS_SLOPE_PCT_PTS;
  lim->max_rounds = IOSPD_SS_MAX_ROUNDS_PTS;
}

bool iospd_ss_test(const double* y, uint32_t rounds,
                   const iospd_ss_limits_t* lim, iospd_ss_window_t* w) {
  memset(w, 0, sizeof *w);
  uint32_t n = lim->window_rounds;
  if (n < 2 || n > IOSPD_SS_WINDOW_MAX || rounds < n) return false;
  const double* v = y + (rounds - n);
  w->valid = true;
  w->n = n;
  w->first_round = rounds - n + 1;
  w->last_round = rounds;
  double sum = 0, lo = v[0], hi = v[0];
  for (uint32_t i = 0; i < n; i++) {
    w->values[i] = v[i];
    sum += v[i];
    if (v[i] < lo) lo = v[i];
    if (v[i] > hi) hi = v[i];
  }
  double mean = sum / n;
  w->mean = mean;
  w->data_excursion = hi - lo;
  /* Least squares over x = 0 .. n-1. */
  double xm = (double)(n - 1) / 2.0, sxy = 0, sxx = 0;
  for (uint32_t i = 0; i < n; i++) {
    double dx = (double)i - xm;
    sxy += dx * (v[i] - mean);
    sxx += dx * dx;
  }
  w->slope = sxy / sxx;
  w->intercept = mean - w->slope * xm;
  w->slope_excursion = fabs(w->slope) * (double)(n - 1);
  if (!(mean > 0)) {
    w->data_excursion_pct = w->slope_excursion_pct = -1;
    return false;
  }
  w->data_excursion_pct = w->data_excursion / mean * 100.0;
  w->slope_excursion_pct = w->slope_excursion / mean * 100.0;
  /* Compared as 100 * excursion <= limit * mean: exact for whole
   * numbers, so a window exactly at its limit passes. */
  w->data_ok = w->data_excursion * 100.0 <= lim->data_pct * mean;
  w->slope_ok = w->slope_excursion * 100.0 <= lim->slope_pct * mean;
  return w->data_ok && w->slope_ok;
}

iospd_ss_next_t iospd_ss_after_round(const double* y, uint32_t rounds,
                                     const iospd_ss_limits_t* lim,
                                     iospd_ss_window_t* w) {
  if (iospd_ss_test(y, rounds, lim, w)) return IOSPD_SS_STEADY;
  if (lim->max_rounds > 0 && rounds >= lim->max_rounds)
    return IOSPD_SS_MAX_ROUNDS;
  return IOSPD_SS_CONTINUE;
}

static const iospd_ss_metric_def_t metrics[IOSPD_SS_METRIC_COUNT] = {
    {IOSPD_SS_METRIC_IOPS, "iops", "iops", "IOPS"},
    {IOSPD_SS_METRIC_THROUGHPUT, "throughput", "mib_per_s", "MiB/s"},
    {IOSPD_SS_METRIC_LATENCY, "latency", "mean_latency_us", "us"},
};

const iospd_ss_metric_def_t* iospd_ss_metric_def(iospd_ss_metric_t m) {
  return (unsigned)m < IOSPD_SS_METRIC_COUNT ? &metrics[m] : &metrics[0];
}

int iospd_ss_metric_find(const char* word, size_t len) {
  for (int i = 0; i < IOSPD_SS_METRIC_COUNT; i++)
    if (strlen(metrics[i].word) == len &&
        memcmp(metrics[i].word, word, len) == 0)
      return i;
  return -1;
}

void iospd_ss_metric_list(iospd_strbuf_t* out) {
  for (int i = 0; i < IOSPD_SS_METRIC_COUNT; i++)
    iospd_strbuf_appendf(out, "%s%s",
                         i == 0                          ? ""
                         : i + 1 == IOSPD_SS_METRIC_COUNT ? " or "
                                                          : ", ",
                         metrics[i].word);
}

const char* iospd_ss_stop_word(iospd_ss_stop_t s) {
  static const char* const words[] = {"steady", "duration", "interrupted"};
  return (unsigned)s < IOSPD_ARRAY_SIZE(words) ? words[s] : "duration";
}

/* SPDX-License-Identifier: MIT */
/* The noise test of iospd --compare (include/iospd/compare.h states it):
 * Welch's t-test on per-interval values, with each run's sample size cut
 * to its effective size for lag-1 autocorrelation. Throughput of adjacent
 * intervals is correlated (a device's cache fills, a background flush
 * spans intervals), so treating n intervals as n independent samples
 * would call small wobbles "real"; for an AR(1) series the variance of
 * the mean grows by (1 + r1) / (1 - r1), which is what n_eff undoes.
 * Everything here is plain arithmetic in a fixed order, so every build
 * prints the same decision for the same input. */
#include <math.h>
#include <stdio.h>

#include "iospd/compare.h"

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x) {
  const double tiny = 1e-300, eps = 1e-15;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m <= 1000; m++) {
    double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + aa * d;
    if (fabs(d) < tiny) d = tiny;
    c = 1.0 + aa / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    double step = d * c;
    h *= step;
    if (fabs(step - 1.0) < eps) break;
  }
  return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
                     b * log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_cf(a, b, x) / a;
  return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

double iospd_cmp_t_pvalue(double t, double df) {
  if (!(df > 0.0) || isnan(t)) return 1.0;
  if (isinf(t)) return 0.0;
  double p = beta_inc(df / 2.0, 0.5, df / (df + t * t));
  return p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
}

typedef struct moments_s {
  double mean, var, r1, n_eff;
} moments_t;

static moments_t moments(const double* x, size_t n) {
  moments_t m = {0, 0, 0, 0};
  double sum = 0.0;
  for (size_t i = 0; i < n; i++) sum += x[i];
  m.mean = sum / (double)n;
  double ss = 0.0, lag = 0.0;
  for (size_t i = 0; i < n; i++) {
    double d = x[i] - m.mean;
    ss += d * d;
    if (i + 1 < n) lag += d * (x[i + 1] - m.mean);
  }
  m.var = ss / (double)(n - 1);
  /* Negative autocorrelation would inflate n; we never claim more
   * independent samples than intervals. */
  m.r1 = ss > 0.0 ? lag / ss : 0.0;
  if (m.r1 < 0.0) m.r1 = 0.0;
  if (m.r1 > IOSPD_CMP_R1_MAX) m.r1 = IOSPD_CMP_R1_MAX;
  m.n_eff = (double)n * (1.0 - m.r1) / (1.0 + m.r1);
  if (m.n_eff < 2.0) m.n_eff = 2.0;
  return m;
}

void iospd_cmp_noise_test(const double* a, size_t na, const double* b,
                          size_t nb, iospd_cmp_test_t* out) {
  iospd_cmp_test_t r = {0};
  r.verdict = IOSPD_CMP_UNKNOWN;
  r.n_a = na;
  r.n_b = nb;
  r.p = 1.0;
  if (na < IOSPD_CMP_MIN_INTERVALS || nb < IOSPD_CMP_MIN_INTERVALS) {
    snprintf(r.why, sizeof r.why,
             "only %zu and %zu intervals (the test needs %d in each: run "
             "longer or with a shorter -D)", na, nb, IOSPD_CMP_MIN_INTERVALS);
    *out = r;
    return;
  }
  moments_t ma = moments(a, na), mb = moments(b, nb);
  r.mean_a = ma.mean;
  r.mean_b = mb.mean;
  r.r1_a = ma.r1;
  r.r1_b = mb.r1;
  r.n_eff_a = ma.n_eff;
  r.n_eff_b = mb.n_eff;
  double va = ma.var / ma.n_eff, vb = mb.var / mb.n_eff;
  double se2 = va + vb;
  if (!(se2 > 0.0)) {
    /* Both runs flat: equal means are the same, anything else is real. */
    r.t = 0.0;
    r.df = 0.0;
    r.p = ma.mean == mb.mean ? 1.0 : 0.0;
    r.verdict = ma.mean == mb.mean ? IOSPD_CMP_NOISE : IOSPD_CMP_REAL;
    *out = r;
    return;
  }
  r.t = (mb.mean - ma.mean) / sqrt(se2);
  double den = va * va / (ma.n_eff - 1.0) + vb * vb / (mb.n_eff - 1.0);
  r.df = se2 * se2 / den;
  r.p = iospd_cmp_t_pvalue(r.t, r.df);
  r.verdict = r.p < IOSPD_CMP_ALPHA ? IOSPD_CMP_REAL : IOSPD_CMP_NOISE;
  *out = r;
}

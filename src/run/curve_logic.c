/* SPDX-License-Identifier: MIT */
/* The curve's decisions (iospd/curve.h, docs/curve.md): which point runs
 * next, where the knee is, what caps the run, what the latency bound's
 * answer is. Numbers in, numbers out: the tests feed synthetic curves. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iospd/curve.h"

const char* iospd_curve_phase_word(iospd_curve_phase_t ph) {
  static const char* const w[] = {"curve", "bisect", "block_size_probe",
                                  "rate"};
  return (unsigned)ph < IOSPD_ARRAY_SIZE(w) ? w[ph] : "curve";
}

const char* iospd_curve_stop_word(iospd_curve_stop_t s) {
  static const char* const w[] = {NULL,          "plateau",     "limit_broken",
                                  "end_of_axis", "interrupted", "failed"};
  return (unsigned)s < IOSPD_ARRAY_SIZE(w) ? w[s] : NULL;
}

const char* iospd_curve_cap_word(iospd_curve_cap_t c) {
  static const char* const w[] = {NULL, "none", "iops", "bandwidth", "tool"};
  return (unsigned)c < IOSPD_ARRAY_SIZE(w) ? w[c] : NULL;
}

const char* iospd_curve_axis_name(iospd_curve_axis_t a) {
  return a == IOSPD_CURVE_AXIS_T   ? "threads"
         : a == IOSPD_CURVE_AXIS_B ? "block size"
                                   : "outstanding I/Os per thread";
}

const char* iospd_curve_axis_switch(iospd_curve_axis_t a) {
  return a == IOSPD_CURVE_AXIS_T ? "t" : a == IOSPD_CURVE_AXIS_B ? "b" : "o";
}

uint32_t iospd_curve_default_values(iospd_curve_axis_t a, uint64_t* out) {
  uint64_t v = a == IOSPD_CURVE_AXIS_B ? 4096 : 1;
  uint64_t last = a == IOSPD_CURVE_AXIS_B   ? 1048576
                  : a == IOSPD_CURVE_AXIS_T ? 64
                                            : 1024;
  uint32_t n = 0;
  for (; v <= last && n < IOSPD_CURVE_MAX_VALUES; v *= 2) out[n++] = v;
  return n;
}

void iospd_curve_init(iospd_curve_t* c, const iospd_curve_opts_t* o,
                      uint32_t block_size, uint32_t threads,
                      uint32_t outstanding) {
  memset(c, 0, sizeof *c);
  c->opts = *o;
  if (c->opts.value_count == 0)
    c->opts.value_count = iospd_curve_default_values(o->axis, c->opts.values);
  c->block_size = block_size;
  c->threads = threads;
  c->outstanding = outstanding;
}

double iospd_curve_tput(const iospd_curve_t* c, const iospd_curve_point_t* p) {
  return c->opts.axis == IOSPD_CURVE_AXIS_B ? p->mib_per_s : p->iops;
}

int32_t iospd_curve_knee(const double* tput, uint32_t n, uint32_t min_after) {
  uint32_t after = min_after ? min_after : 1;
  for (uint32_t k = 0; k + after < n; k++) {
    bool flat = true;
    for (uint32_t j = k + 1; j < n && flat; j++)
      flat = tput[j] < tput[k] * (1.0 + IOSPD_CURVE_GROWTH);
    if (flat) return (int32_t)k;
  }
  return -1;
}

/* The indexes of the axis points (phase CURVE), in order; their count. */
static uint32_t axis_points(const iospd_curve_t* c, uint32_t* idx) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < c->count; i++)
    if (c->points[i].phase == IOSPD_CURVE_PHASE_CURVE) idx[n++] = i;
  return n;
}

/* The knee among the axis points as an index into points, or -1. */
static int32_t axis_knee(const iospd_curve_t* c, uint32_t min_after) {
  uint32_t idx[IOSPD_CURVE_MAX_POINTS];
  double t[IOSPD_CURVE_MAX_POINTS];
  uint32_t n = axis_points(c, idx);
  for (uint32_t i = 0; i < n; i++) t[i] = iospd_curve_tput(c, &c->points[idx[i]]);
  int32_t k = iospd_curve_knee(t, n, min_after);
  return k < 0 ? -1 : (int32_t)idx[k];
}

iospd_curve_stop_t iospd_curve_stopped(const iospd_curve_t* c) {
  uint32_t idx[IOSPD_CURVE_MAX_POINTS];
  uint32_t n = axis_points(c, idx);
  if (c->interrupted) return IOSPD_CURVE_STOP_INTERRUPTED;
  if (n == 0) return IOSPD_CURVE_STOP_NONE;
  const iospd_curve_point_t* last = &c->points[idx[n - 1]];
  if (last->failed) return IOSPD_CURVE_STOP_FAILED;
  if (last->within == 0) return IOSPD_CURVE_STOP_LIMIT;
  /* The block size axis is not a doubling of load: it runs to its end. */
  if (c->opts.axis != IOSPD_CURVE_AXIS_B && axis_knee(c, 2) >= 0)
    return IOSPD_CURVE_STOP_PLATEAU;
  if (n >= c->opts.value_count) return IOSPD_CURVE_STOP_END;
  return IOSPD_CURVE_STOP_NONE;
}

int iospd_curve_within(const iospd_curve_opts_t* o, double stat_us) {
  if (!o->limit_on) return -1;
  return stat_us <= o->limit_us ? 1 : 0;
}

bool iospd_curve_tool_bound(const iospd_curve_point_t* p) {
  double own = IOSPD_MAX(p->busiest_cpu_percent, p->process_cpu_percent);
  return p->busiest_cpu_percent >= IOSPD_CURVE_BUSY_PCT ||
         (own >= IOSPD_CURVE_STARVED_PCT &&
          p->cpu_percent >= IOSPD_CURVE_BUSY_PCT);
}

uint64_t iospd_curve_bisect(uint64_t good, uint64_t bad) {
  return bad > good + 1 ? good + (bad - good) / 2 : 0;
}

static bool load_point(const iospd_curve_point_t* p) {
  return !p->failed && (p->phase == IOSPD_CURVE_PHASE_CURVE ||
                        p->phase == IOSPD_CURVE_PHASE_BISECT);
}

/* The bracket on the axis: the highest value within the bound and the
 * lowest over it above that (o and t points only). */
static void bracket(const iospd_curve_t* c, int32_t* good, int32_t* bad) {
  *good = *bad = -1;
  for (uint32_t i = 0; i < c->count; i++) {
    const iospd_curve_point_t* p = &c->points[i];
    if (load_point(p) && p->within == 1 &&
        (*good < 0 || p->axis_value > c->points[*good].axis_value))
      *good = (int32_t)i;
  }
  uint64_t floor = *good < 0 ? 0 : c->points[*good].axis_value;
  for (uint32_t i = 0; i < c->count; i++) {
    const iospd_curve_point_t* p = &c->points[i];
    if (load_point(p) && p->within == 0 && p->axis_value > floor &&
        (*bad < 0 || p->axis_value < c->points[*bad].axis_value))
      *bad = (int32_t)i;
  }
}

static uint32_t phase_count(const iospd_curve_t* c, iospd_curve_phase_t ph) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < c->count; i++) n += c->points[i].phase == ph;
  return n;
}

/* A point like base (its shape), at another place. */
static void like(iospd_curve_point_t* next, const iospd_curve_point_t* base,
                 iospd_curve_phase_t ph) {
  memset(next, 0, sizeof *next);
  next->phase = ph;
  next->axis_value = base->axis_value;
  next->block_size = base->block_size;
  next->threads = base->threads;
  next->outstanding = base->outstanding;
}

static void set_axis(const iospd_curve_t* c, iospd_curve_point_t* p,
                     uint64_t v) {
  p->axis_value = v;
  if (c->opts.axis == IOSPD_CURVE_AXIS_O) p->outstanding = (uint32_t)v;
  if (c->opts.axis == IOSPD_CURVE_AXIS_T) p->threads = (uint32_t)v;
  if (c->opts.axis == IOSPD_CURVE_AXIS_B) p->block_size = (uint32_t)v;
}

/* The -g rate between the good and the bad point: the measured IOPS of
 * the within points raise the floor, of the points over lower the top. */
static bool next_rate(const iospd_curve_t* c, int32_t good, int32_t bad,
                      iospd_curve_point_t* next) {
  if (phase_count(c, IOSPD_CURVE_PHASE_RATE) >= IOSPD_CURVE_RATE_MAX)
    return false;
  double lo = good < 0 ? 0.0 : c->points[good].iops;
  double hi = c->points[bad].iops;
  for (uint32_t i = 0; i < c->count; i++) {
    const iospd_curve_point_t* p = &c->points[i];
    if (p->phase != IOSPD_CURVE_PHASE_RATE || p->failed) continue;
    if (p->within == 1 && p->iops > lo) lo = p->iops;
    if (p->within == 0 && p->rate_iops < hi) hi = p->rate_iops;
  }
  if (!(hi > lo * (1.0 + IOSPD_CURVE_GROWTH)) || hi <= 1.0) return false;
  like(next, &c->points[bad], IOSPD_CURVE_PHASE_RATE);
  next->rate_iops = floor((lo + hi) / 2.0);
  return next->rate_iops >= 1.0;
}

/* The second block size: four times the first, or a quarter above 256K. */
static uint32_t probe_block(uint32_t b) {
  return b > 262144u ? b / 4u : b * 4u;
}

bool iospd_curve_next(const iospd_curve_t* c, iospd_curve_point_t* next) {
  if (c->count >= IOSPD_CURVE_MAX_POINTS || c->interrupted) return false;
  iospd_curve_stop_t s = iospd_curve_stopped(c);
  if (s == IOSPD_CURVE_STOP_FAILED) return false;
  if (s == IOSPD_CURVE_STOP_NONE) {
    uint32_t idx[IOSPD_CURVE_MAX_POINTS];
    uint32_t n = axis_points(c, idx);
    memset(next, 0, sizeof *next);
    next->phase = IOSPD_CURVE_PHASE_CURVE;
    next->block_size = c->block_size;
    next->threads = c->threads;
    next->outstanding = c->outstanding;
    set_axis(c, next, c->opts.values[n]);
    return true;
  }
  for (uint32_t i = 0; i < c->count; i++)
    if (c->points[i].failed) return false;
  bool integer_axis = c->opts.axis != IOSPD_CURVE_AXIS_B;
  if (c->opts.limit_on && integer_axis) {
    int32_t good, bad;
    bracket(c, &good, &bad);
    if (good >= 0 && bad >= 0 &&
        phase_count(c, IOSPD_CURVE_PHASE_BISECT) < IOSPD_CURVE_BISECT_MAX) {
      uint64_t mid = iospd_curve_bisect(c->points[good].axis_value,
                                        c->points[bad].axis_value);
      if (mid != 0) {
        like(next, &c->points[good], IOSPD_CURVE_PHASE_BISECT);
        set_axis(c, next, mid);
        return true;
      }
    }
    if (bad >= 0 && next_rate(c, good, bad, next)) return true;
  }
  int32_t knee = axis_knee(c, 1);
  if (integer_axis && knee >= 0 &&
      phase_count(c, IOSPD_CURVE_PHASE_PROBE) == 0 &&
      !iospd_curve_tool_bound(&c->points[knee])) {
    like(next, &c->points[knee], IOSPD_CURVE_PHASE_PROBE);
    next->block_size = probe_block(c->points[knee].block_size);
    return true;
  }
  return false;
}

static bool same(double a, double b) {
  return b > 0 && fabs(a / b - 1.0) <= IOSPD_CURVE_SAME;
}

/* IOPS cap, bandwidth cap or neither, from the knee and the probe. */
static void cap_from_probe(const iospd_curve_point_t* k,
                           const iospd_curve_point_t* p,
                           iospd_curve_analysis_t* a) {
  if (same(p->iops, k->iops)) {
    a->cap = IOSPD_CURVE_CAP_IOPS;
    a->cap_value = k->iops;
    snprintf(a->evidence, sizeof a->evidence,
             "%uK and %uK points gave the same IOPS (%.0f and %.0f)",
             k->block_size / 1024u, p->block_size / 1024u, k->iops, p->iops);
  } else if (same(p->mib_per_s, k->mib_per_s)) {
    a->cap = IOSPD_CURVE_CAP_BANDWIDTH;
    a->cap_value = k->mib_per_s;
    snprintf(a->evidence, sizeof a->evidence,
             "%uK and %uK points gave the same MiB/s (%.2f and %.2f)",
             k->block_size / 1024u, p->block_size / 1024u, k->mib_per_s,
             p->mib_per_s);
  } else {
    a->cap = IOSPD_CURVE_CAP_NONE;
    snprintf(a->evidence, sizeof a->evidence,
             "%uK: %.0f IOPS, %.2f MiB/s; %uK: %.0f IOPS, %.2f MiB/s",
             k->block_size / 1024u, k->iops, k->mib_per_s,
             p->block_size / 1024u, p->iops, p->mib_per_s);
  }
}

/* The block size axis is its own probe: the MiB/s stopped growing
 * (bandwidth), or the IOPS stayed the same over the last two points. */
static void cap_from_b_axis(const iospd_curve_t* c, const uint32_t* idx,
                            uint32_t n, iospd_curve_analysis_t* a) {
  if (n < 2) return;
  const iospd_curve_point_t* x = &c->points[idx[n - 2]];
  const iospd_curve_point_t* y = &c->points[idx[n - 1]];
  iospd_curve_analysis_t probe = *a;
  cap_from_probe(x, y, &probe);
  if (a->knee >= 0 || probe.cap == IOSPD_CURVE_CAP_BANDWIDTH) {
    const iospd_curve_point_t* k = a->knee >= 0 ? &c->points[a->knee] : x;
    a->cap = IOSPD_CURVE_CAP_BANDWIDTH;
    a->cap_value = k->mib_per_s;
    snprintf(a->evidence, sizeof a->evidence,
             "MiB/s stopped growing with the block size from %uK "
             "(%.2f MiB/s)", k->block_size / 1024u, k->mib_per_s);
    return;
  }
  *a = probe;
}

void iospd_curve_analyse(const iospd_curve_t* c, iospd_curve_analysis_t* a) {
  memset(a, 0, sizeof *a);
  a->knee = a->cliff = a->answer = a->first_bad = a->probe = a->busy =
      a->best = -1;
  a->stopped = iospd_curve_stopped(c);
  uint32_t idx[IOSPD_CURVE_MAX_POINTS];
  uint32_t n = axis_points(c, idx);
  a->knee = axis_knee(c, 1);
  for (uint32_t i = 0; i < n; i++) {
    const iospd_curve_point_t* p = &c->points[idx[i]];
    if (p->failed) continue;
    if (a->best < 0 || iospd_curve_tput(c, p) >
                           iospd_curve_tput(c, &c->points[a->best]))
      a->best = (int32_t)idx[i];
    if (a->first_bad < 0 && p->within == 0) a->first_bad = (int32_t)idx[i];
  }
  if (a->knee >= 0) {
    double kt = iospd_curve_tput(c, &c->points[a->knee]);
    for (uint32_t i = 0; i < n; i++)
      if (idx[i] > (uint32_t)a->knee && a->cliff < 0 &&
          iospd_curve_tput(c, &c->points[idx[i]]) < 0.7 * kt)
        a->cliff = (int32_t)idx[i];
  }
  /* iospd itself: a worker near a whole CPU at the knee or after it (or
   * anywhere, without a knee). */
  for (uint32_t i = 0; i < c->count; i++) {
    const iospd_curve_point_t* p = &c->points[i];
    if (!load_point(p) || !iospd_curve_tool_bound(p)) continue;
    if (a->knee >= 0 && p->axis_value < c->points[a->knee].axis_value)
      continue;
    if (a->busy < 0 ||
        p->busiest_cpu_percent > c->points[a->busy].busiest_cpu_percent)
      a->busy = (int32_t)i;
  }
  for (uint32_t i = 0; i < c->count; i++)
    if (c->points[i].phase == IOSPD_CURVE_PHASE_PROBE && !c->points[i].failed)
      a->probe = (int32_t)i;
  if (a->busy >= 0) {
    const iospd_curve_point_t* p = &c->points[a->busy];
    a->cap = IOSPD_CURVE_CAP_TOOL;
    a->cap_value = p->iops;
    snprintf(a->evidence, sizeof a->evidence,
             "thread %u was busy on a CPU for %.0f %% of the point, iospd "
             "used %.0f %% of a CPU, the machine's CPUs were %.0f %% busy",
             p->busiest_thread, p->busiest_cpu_percent,
             p->process_cpu_percent, p->cpu_percent);
  } else if (c->opts.axis == IOSPD_CURVE_AXIS_B) {
    cap_from_b_axis(c, idx, n, a);
  } else if (a->knee >= 0 && a->probe >= 0) {
    cap_from_probe(&c->points[a->knee], &c->points[a->probe], a);
  }
  /* Little's law on the axis from the knee on: a full queue of in_flight
   * I/Os at this IOPS waits in_flight / IOPS each. */
  if (a->knee >= 0)
    for (uint32_t i = 0; i < c->count; i++) {
      const iospd_curve_point_t* p = &c->points[i];
      if (!load_point(p) || !p->has_latency || p->iops <= 0 ||
          p->in_flight == 0 ||
          p->axis_value < c->points[a->knee].axis_value)
        continue;
      iospd_curve_little_t* l = &a->little[a->little_count++];
      l->point = i;
      l->expected_us = (double)p->in_flight / p->iops * 1e6;
      l->measured_us = p->mean_us;
    }
  /* The bound's answer: the highest IOPS within it, and its bracket. */
  if (c->opts.limit_on) {
    for (uint32_t i = 0; i < c->count; i++) {
      const iospd_curve_point_t* p = &c->points[i];
      if (p->failed || p->phase == IOSPD_CURVE_PHASE_PROBE || p->within != 1)
        continue;
      if (a->answer < 0 || p->iops > c->points[a->answer].iops)
        a->answer = (int32_t)i;
    }
    int32_t good, bad;
    bracket(c, &good, &bad);
    if (c->opts.axis == IOSPD_CURVE_AXIS_B) {
      good = a->answer;
      bad = a->first_bad;
    }
    a->have_good = good >= 0;
    a->have_bad = bad >= 0;
    if (good >= 0) a->good_axis = c->points[good].axis_value;
    if (bad >= 0) a->bad_axis = c->points[bad].axis_value;
  }
}

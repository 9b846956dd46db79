/* SPDX-License-Identifier: MIT */
/* The curve's verdict in words (docs/curve.md, "The verdict"): the knee,
 * what caps the run, Little's law past the knee, the latency bound's
 * answer and how far the run got against --expect, each with its
 * numbers. Reads an analysis (curve_logic.c); decides nothing itself. */
#include <math.h>
#include <stdio.h>

#include "iospd/curve.h"

void iospd_curve_fmt_count(iospd_strbuf_t* out, double v) {
  char digits[32];
  snprintf(digits, sizeof digits, "%.0f", v < 0 ? 0.0 : v);
  size_t n = 0;
  while (digits[n]) n++;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && (n - i) % 3 == 0) iospd_strbuf_putc(out, ',');
    iospd_strbuf_putc(out, digits[i]);
  }
}

void iospd_curve_fmt_time(iospd_strbuf_t* out, double us) {
  if (us < 1000.0)
    iospd_strbuf_appendf(out, "%.0f us", us);
  else if (us < 1e6)
    iospd_strbuf_appendf(out, "%.2f ms", us / 1000.0);
  else
    iospd_strbuf_appendf(out, "%.2f s", us / 1e6);
}

static void fmt_size(iospd_strbuf_t* out, uint64_t b) {
  if (b >= 1048576 && b % 1048576 == 0)
    iospd_strbuf_appendf(out, "%lluM", (unsigned long long)(b / 1048576));
  else if (b >= 1024 && b % 1024 == 0)
    iospd_strbuf_appendf(out, "%lluK", (unsigned long long)(b / 1024));
  else
    iospd_strbuf_appendf(out, "%llu bytes", (unsigned long long)b);
}

void iospd_curve_axis_label(iospd_curve_axis_t axis, uint64_t value,
                            iospd_strbuf_t* out) {
  if (axis == IOSPD_CURVE_AXIS_T)
    iospd_strbuf_appendf(out, "%llu thread%s", (unsigned long long)value,
                         value == 1 ? "" : "s");
  else if (axis == IOSPD_CURVE_AXIS_B) {
    iospd_strbuf_append(out, "block ");
    fmt_size(out, value);
  } else
    iospd_strbuf_appendf(out, "QD %llu", (unsigned long long)value);
}

static void label(const iospd_curve_t* c, const iospd_curve_point_t* p,
                  iospd_strbuf_t* out) {
  iospd_curve_axis_label(c->opts.axis, p->axis_value, out);
}

static void count(iospd_strbuf_t* out, double v) {
  iospd_curve_fmt_count(out, v);
}

static void tput(const iospd_curve_t* c, const iospd_curve_point_t* p,
                 iospd_strbuf_t* out) {
  if (c->opts.axis == IOSPD_CURVE_AXIS_B) {
    iospd_strbuf_appendf(out, "%.2f MiB/s (", p->mib_per_s);
    count(out, p->iops);
    iospd_strbuf_append(out, " IOPS)");
  } else {
    count(out, p->iops);
    iospd_strbuf_appendf(out, " IOPS (%.2f MiB/s)", p->mib_per_s);
  }
}

/* "p99 <= 1.00 ms" (and " on reads" / " on writes"). */
static void bound(const iospd_curve_t* c, iospd_strbuf_t* out) {
  iospd_strbuf_appendf(out, "%s <= ", c->opts.limit_stat);
  iospd_curve_fmt_time(out, c->opts.limit_us);
  if (c->opts.limit_op == IOSPD_CURVE_OP_READ)
    iospd_strbuf_append(out, " on reads");
  if (c->opts.limit_op == IOSPD_CURVE_OP_WRITE)
    iospd_strbuf_append(out, " on writes");
}

static void say_knee(const iospd_curve_t* c, const iospd_curve_analysis_t* a,
                     iospd_strbuf_t* out) {
  if (a->knee < 0) {
    if (a->best < 0) return;
    const iospd_curve_point_t* b = &c->points[a->best];
    iospd_strbuf_append(out, "Throughput was still growing at the highest "
                             "point measured (");
    label(c, b, out);
    iospd_strbuf_append(out, ": ");
    tput(c, b, out);
    iospd_strbuf_append(out, "): no knee on this axis.\n");
    return;
  }
  const iospd_curve_point_t* k = &c->points[a->knee];
  iospd_strbuf_append(out, "The knee is at ");
  label(c, k, out);
  iospd_strbuf_append(out, ": past it more ");
  iospd_strbuf_append(out, c->opts.axis == IOSPD_CURVE_AXIS_T ? "threads"
                           : c->opts.axis == IOSPD_CURVE_AXIS_B
                               ? "block size"
                               : "depth");
  iospd_strbuf_append(out, " buys less than 5 % more throughput; there it "
                           "gives ");
  tput(c, k, out);
  if (k->has_latency) {
    iospd_strbuf_append(out, " at a mean latency of ");
    iospd_curve_fmt_time(out, k->mean_us);
    iospd_strbuf_append(out, ", p99 ");
    iospd_curve_fmt_time(out, k->p99_us);
  }
  iospd_strbuf_append(out, ".\n");
  if (a->cliff >= 0) {
    const iospd_curve_point_t* f = &c->points[a->cliff];
    iospd_strbuf_append(out, "Past the knee throughput falls: ");
    label(c, f, out);
    iospd_strbuf_append(out, " gave ");
    tput(c, f, out);
    iospd_strbuf_appendf(out, ", %.0f %% below the knee.\n",
                         100.0 * (1.0 - iospd_curve_tput(c, f) /
                                            iospd_curve_tput(c, k)));
  }
}

static void say_cap(const iospd_curve_t* c, const iospd_curve_analysis_t* a,
                    iospd_strbuf_t* out) {
  switch (a->cap) {
    case IOSPD_CURVE_CAP_TOOL: {
      const iospd_curve_point_t* p = &c->points[a->busy];
      if (p->busiest_cpu_percent >= IOSPD_CURVE_BUSY_PCT)
        iospd_strbuf_appendf(out,
                             "iospd itself is the limit, not the storage: "
                             "thread %u was busy on a CPU for %.0f %% of the "
                             "point at ",
                             p->busiest_thread, p->busiest_cpu_percent);
      else
        iospd_strbuf_appendf(out,
                             "iospd itself is the limit, not the storage: "
                             "the machine's CPUs were %.0f %% busy and iospd "
                             "used %.0f %% of one at ",
                             p->cpu_percent,
                             IOSPD_MAX(p->process_cpu_percent,
                                       p->busiest_cpu_percent));
      label(c, p, out);
      iospd_strbuf_append(out, " (");
      count(out, p->iops);
      iospd_strbuf_append(out, " IOPS). Add threads (-t) to measure further: "
                               "this run does not show the storage "
                               "saturated.\n");
      return;
    }
    case IOSPD_CURVE_CAP_IOPS: {
      const iospd_curve_point_t* p = &c->points[a->probe];
      iospd_strbuf_append(out, "The plateau is an IOPS cap at about ");
      count(out, a->cap_value);
      iospd_strbuf_append(out, " IOPS: at ");
      fmt_size(out, p->block_size);
      iospd_strbuf_append(out, " blocks the run gave the same IOPS (");
      count(out, p->iops);
      iospd_strbuf_appendf(out, "), not the same MiB/s (%.2f against %.2f).\n",
                           p->mib_per_s, c->points[a->knee].mib_per_s);
      return;
    }
    case IOSPD_CURVE_CAP_BANDWIDTH:
      if (a->probe >= 0) {
        const iospd_curve_point_t* p = &c->points[a->probe];
        iospd_strbuf_appendf(out, "The plateau is a bandwidth cap at about "
                                  "%.2f MiB/s: at ", a->cap_value);
        fmt_size(out, p->block_size);
        iospd_strbuf_appendf(out, " blocks the run gave the same MiB/s "
                                  "(%.2f), not the same IOPS (",
                             p->mib_per_s);
        count(out, p->iops);
        iospd_strbuf_append(out, " against ");
        count(out, c->points[a->knee].iops);
        iospd_strbuf_append(out, ").\n");
      } else {
        iospd_strbuf_appendf(out, "The plateau is a bandwidth cap at about "
                                  "%.2f MiB/s: %s.\n",
                             a->cap_value, a->evidence);
      }
      return;
    case IOSPD_CURVE_CAP_NONE:
      iospd_strbuf_appendf(out, "Neither the IOPS nor the MiB/s stayed the "
                                "same at another block size (%s): no fixed "
                                "cap; the time each I/O takes sets the "
                                "limit.\n",
                           a->evidence);
      return;
    default: return;
  }
}

static void say_little(const iospd_curve_t* c, const iospd_curve_analysis_t* a,
                       iospd_strbuf_t* out) {
  if (a->little_count == 0 || a->cap == IOSPD_CURVE_CAP_TOOL) return;
  /* The deepest point says it best: the most queueing. */
  const iospd_curve_little_t* l = &a->little[0];
  for (uint32_t i = 1; i < a->little_count; i++)
    if (c->points[a->little[i].point].axis_value >
        c->points[l->point].axis_value)
      l = &a->little[i];
  const iospd_curve_point_t* p = &c->points[l->point];
  double off = l->expected_us > 0 ? l->measured_us / l->expected_us - 1.0 : 0;
  iospd_strbuf_append(out, "Past the knee latency grows with the queue, as "
                           "Little's law says: at ");
  label(c, p, out);
  iospd_strbuf_appendf(out, ", %llu I/Os in flight at ",
                       (unsigned long long)p->in_flight);
  count(out, p->iops);
  iospd_strbuf_append(out, " IOPS should each take ");
  iospd_curve_fmt_time(out, l->expected_us);
  iospd_strbuf_append(out, "; the mean measured was ");
  iospd_curve_fmt_time(out, l->measured_us);
  if (fabs(off) > IOSPD_CURVE_LITTLE_OFF)
    iospd_strbuf_appendf(out, " (%.0f %% off: not every I/O asked for was "
                              "in flight)", 100.0 * off);
  iospd_strbuf_append(out, ".\n");
}

static void say_limit(const iospd_curve_t* c, const iospd_curve_analysis_t* a,
                      iospd_strbuf_t* out) {
  if (!c->opts.limit_on) return;
  if (a->answer < 0) {
    iospd_strbuf_append(out, "No point kept ");
    bound(c, out);
    if (a->first_bad >= 0) {
      const iospd_curve_point_t* p = &c->points[a->first_bad];
      iospd_strbuf_append(out, ": even ");
      label(c, p, out);
      iospd_strbuf_appendf(out, " gave %s ", c->opts.limit_stat);
      iospd_curve_fmt_time(out, p->limit_us);
    }
    iospd_strbuf_append(out, ".\n");
    return;
  }
  const iospd_curve_point_t* p = &c->points[a->answer];
  iospd_strbuf_append(out, "Within ");
  bound(c, out);
  iospd_strbuf_append(out, " the highest throughput is ");
  count(out, p->iops);
  iospd_strbuf_append(out, " IOPS at ");
  label(c, p, out);
  if (p->phase == IOSPD_CURVE_PHASE_RATE) {
    iospd_strbuf_append(out, " held to -g ");
    count(out, p->rate_iops);
    iospd_strbuf_append(out, " IOPS");
  }
  iospd_strbuf_appendf(out, " (%s ", c->opts.limit_stat);
  iospd_curve_fmt_time(out, p->limit_us);
  iospd_strbuf_append(out, ")");
  if (a->have_good && a->have_bad) {
    iospd_strbuf_append(out, ", bracketed between ");
    iospd_curve_axis_label(c->opts.axis, a->good_axis, out);
    iospd_strbuf_append(out, " (within) and ");
    iospd_curve_axis_label(c->opts.axis, a->bad_axis, out);
    iospd_strbuf_append(out, " (over)");
  } else if (!a->have_bad) {
    iospd_strbuf_append(out, "; every point measured kept the bound");
  }
  iospd_strbuf_append(out, ".\n");
}

static void say_expect(const iospd_curve_t* c, const iospd_curve_analysis_t* a,
                       iospd_strbuf_t* out) {
  if (c->opts.expect_kind == 0 || a->best < 0) return;
  const iospd_curve_point_t* b = &c->points[a->best];
  bool iops = c->opts.expect_kind == 1;
  double got = iops ? b->iops : b->mib_per_s;
  double want = c->opts.expect_value;
  double pct = want > 0 ? 100.0 * got / want : 0;
  iospd_strbuf_append(out, "The run reached ");
  if (iops) {
    count(out, got);
    iospd_strbuf_append(out, " of the ");
    count(out, want);
    iospd_strbuf_append(out, " IOPS expected");
  } else {
    iospd_strbuf_appendf(out, "%.2f of the %.2f MiB/s expected", got, want);
  }
  iospd_strbuf_appendf(out, " (%.0f %%)", pct);
  if (a->cap == IOSPD_CURVE_CAP_TOOL)
    iospd_strbuf_append(out, ", but iospd was the limit: add threads before "
                             "comparing with the data sheet.\n");
  else if (pct >= 90.0)
    iospd_strbuf_append(out, ": the storage gives what it promises.\n");
  else if (a->knee < 0)
    iospd_strbuf_append(out, ": throughput was still growing, so extend the "
                             "curve before looking for a cap.\n");
  else
    iospd_strbuf_append(out, ": something else caps it, such as the VM, "
                             "the host or a QoS policy.\n");
}

void iospd_curve_verdict(const iospd_curve_t* c,
                         const iospd_curve_analysis_t* a,
                         iospd_strbuf_t* out) {
  if (c->interrupted || a->stopped == IOSPD_CURVE_STOP_INTERRUPTED)
    iospd_strbuf_appendf(out, "The curve was cut short (interrupted) after "
                              "%u point%s: what follows reads only those.\n",
                         c->count, c->count == 1 ? "" : "s");
  if (a->stopped == IOSPD_CURVE_STOP_FAILED)
    iospd_strbuf_append(out, "A point failed, so the curve stopped there: "
                             "what follows reads only the points before "
                             "it.\n");
  say_knee(c, a, out);
  say_cap(c, a, out);
  say_little(c, a, out);
  say_limit(c, a, out);
  say_expect(c, a, out);
}

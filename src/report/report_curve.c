/* SPDX-License-Identifier: MIT */
/* The text report of a curve run (docs/curve.md, "The text report"): what
 * was asked, one row per point (its phase, -o, -t, -b, the -g rate, IOPS,
 * MiB/s, mean, p50, p99 and p99.9 latency in ms, the machine's CPU and
 * the busiest worker's), the knee marked, then the verdict. */
#include <stdio.h>

#include "iospd/report_curve.h"

static void size_word(iospd_strbuf_t* out, uint32_t b) {
  char w[24];
  if (b % 1048576u == 0)
    snprintf(w, sizeof w, "%uM", b / 1048576u);
  else if (b % 1024u == 0)
    snprintf(w, sizeof w, "%uK", b / 1024u);
  else
    snprintf(w, sizeof w, "%u", b);
  iospd_strbuf_appendf(out, "%6s", w);
}

static void ms(iospd_strbuf_t* out, bool have, double us) {
  if (have)
    iospd_strbuf_appendf(out, " %9.3f", us / 1000.0);
  else
    iospd_strbuf_append(out, "         -");
}

static void heading(iospd_strbuf_t* out, const iospd_curve_t* c,
                    const iospd_curve_analysis_t* a) {
  const char* stop = iospd_curve_stop_word(a->stopped);
  iospd_strbuf_appendf(out, "\nCurve along -%s (%s): %u point%s, stopped: "
                            "%s\n",
                       iospd_curve_axis_switch(c->opts.axis),
                       iospd_curve_axis_name(c->opts.axis), c->count,
                       c->count == 1 ? "" : "s", stop ? stop : "-");
  if (c->opts.limit_on) {
    iospd_strbuf_appendf(out, "latency limit: %s%s <= ",
                         c->opts.limit_op == IOSPD_CURVE_OP_READ    ? "r:"
                         : c->opts.limit_op == IOSPD_CURVE_OP_WRITE ? "w:"
                                                                    : "",
                         c->opts.limit_stat);
    iospd_curve_fmt_time(out, c->opts.limit_us);
    iospd_strbuf_append(out, "\n");
  }
  if (c->opts.expect_kind == 1) {
    iospd_strbuf_append(out, "expected: ");
    iospd_curve_fmt_count(out, c->opts.expect_value);
    iospd_strbuf_append(out, " IOPS\n");
  } else if (c->opts.expect_kind == 2) {
    iospd_strbuf_appendf(out, "expected: %.2f MiB/s\n", c->opts.expect_value);
  }
}

void iospd_report_curve_text(iospd_strbuf_t* out, const iospd_curve_t* c,
                             const iospd_curve_analysis_t* a) {
  heading(out, c, a);
  iospd_strbuf_appendf(out,
                       "\n%5s  %-16s %5s %5s %6s %10s %11s %10s %9s %9s %9s "
                       "%9s %6s %7s %7s  %s\n",
                       "point", "phase", "o", "t", "b", "-g IOPS", "IOPS",
                       "MiB/s", "mean ms", "p50 ms", "p99 ms", "p99.9 ms",
                       "CPU %", "busy %", "iospd %", "limit");
  for (uint32_t i = 0; i < c->count; i++) {
    const iospd_curve_point_t* p = &c->points[i];
    iospd_strbuf_appendf(out, "%5u%s %-16s %5u %5u ", i + 1,
                         (int32_t)i == a->knee ? "*" : " ",
                         iospd_curve_phase_word(p->phase), p->outstanding,
                         p->threads);
    size_word(out, p->block_size);
    if (p->rate_iops > 0)
      iospd_strbuf_appendf(out, " %10.0f", p->rate_iops);
    else
      iospd_strbuf_append(out, "          -");
    if (p->failed) {
      iospd_strbuf_append(out, "  failed\n");
      continue;
    }
    iospd_strbuf_appendf(out, " %11.2f %10.2f", p->iops, p->mib_per_s);
    ms(out, p->has_latency, p->mean_us);
    ms(out, p->has_latency, p->p50_us);
    ms(out, p->has_latency, p->p99_us);
    ms(out, p->has_latency, p->p999_us);
    iospd_strbuf_appendf(out, " %6.1f %7.1f %7.1f  %s\n", p->cpu_percent,
                         p->busiest_cpu_percent, p->process_cpu_percent,
                         p->within < 0 ? "-" : p->within ? "within" : "over");
  }
  if (a->knee >= 0)
    iospd_strbuf_appendf(out, "(* the knee: point %d)\n", a->knee + 1);
  iospd_strbuf_append(out, "\nVerdict:\n");
  iospd_strbuf_t v;
  iospd_strbuf_init(&v);
  iospd_curve_verdict(c, a, &v);
  const char* s = iospd_strbuf_cstr(&v);
  while (*s) {
    const char* nl = s;
    while (*nl && *nl != '\n') nl++;
    iospd_strbuf_append(out, "  ");
    iospd_strbuf_append_n(out, s, (size_t)(nl - s));
    iospd_strbuf_append(out, "\n");
    s = *nl ? nl + 1 : nl;
  }
  iospd_strbuf_destroy(&v);
}

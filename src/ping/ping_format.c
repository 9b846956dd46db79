/* SPDX-License-Identifier: MIT */
/* What --ping prints: the request lines and the summary in ioping's shape
 * (our words), the --batch line with ioping -B's ten numbers, and the
 * -Rjson / -Rxml documents (docs/ping.md). Units are ASCII ("us", never
 * the micro sign), so every console and every log shows them alike. */
#include <stdio.h>
#include <string.h>

#include "iospd/json_write.h"
#include "iospd/ping.h"
#include "iospd/version.h"

/* Three significant digits at most, never more than two decimals:
 * 4.72, 63.6, 254.9 (times keep the decimal up to 999.9). */
static void fmt_num(char* buf, size_t n, double v, bool keep_decimal) {
  if (v < 9.995)
    snprintf(buf, n, "%.2f", v);
  else if (v < 99.95 || keep_decimal)
    snprintf(buf, n, "%.1f", v);
  else
    snprintf(buf, n, "%.0f", v);
}

char* iospd_ping_fmt_time(double ns, char* buf, size_t n) {
  char num[48];
  if (ns < 999.5) {
    snprintf(buf, n, "%.0f ns", ns);
    return buf;
  }
  static const char* const units[] = {"us", "ms", "s"};
  double v = ns / 1e3;
  int u = 0;
  /* 999.96 us prints as 1.00 ms, not 1000.0 us. */
  while (u < 2 && v >= 999.95) {
    v /= 1e3;
    u++;
  }
  fmt_num(num, sizeof num, v, true);
  snprintf(buf, n, "%s %s", num, units[u]);
  return buf;
}

char* iospd_ping_fmt_bytes(double bytes, char* buf, size_t n) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = bytes;
  int u = 0;
  while (u < 5 && v >= 1023.995) {
    v /= 1024;
    u++;
  }
  char num[48];
  if (v == (double)(uint64_t)v)
    snprintf(num, sizeof num, "%.0f", v);
  else
    fmt_num(num, sizeof num, v, true);
  snprintf(buf, n, "%s %s", num, units[u]);
  return buf;
}

char* iospd_ping_fmt_count(double v, char* buf, size_t n) {
  static const char* const units[] = {"", " k", " M", " G"};
  int u = 0;
  while (u < 3 && v >= 999.5) {
    v /= 1000;
    u++;
  }
  char num[48];
  if (u == 0 && v == (double)(uint64_t)v)
    snprintf(num, sizeof num, "%.0f", v);
  else
    fmt_num(num, sizeof num, v, false);
  snprintf(buf, n, "%s%s", num, units[u]);
  return buf;
}

static const char* mark_text(iospd_ping_mark_t m) {
  switch (m) {
    case IOSPD_PING_MARK_WARMUP: return " (warmup)";
    case IOSPD_PING_MARK_FAST: return " (fast)";
    case IOSPD_PING_MARK_SLOW: return " (slow)";
    default: return "";
  }
}

static void head(iospd_strbuf_t* out, const iospd_ping_target_t* t) {
  char size[48];
  iospd_strbuf_appendf(out, "%s %s %s (%s): ",
                       iospd_ping_fmt_bytes(t->size, size, sizeof size),
                       t->write ? ">>>" : "<<<", t->path, t->where);
}

void iospd_ping_line(iospd_strbuf_t* out, const iospd_ping_target_t* t,
                     uint64_t request, uint64_t ns, iospd_ping_mark_t mark) {
  char time[48];
  head(out, t);
  iospd_strbuf_appendf(out, "request=%llu time=%s%s\n",
                       (unsigned long long)request,
                       iospd_ping_fmt_time((double)ns, time, sizeof time),
                       mark_text(mark));
}

void iospd_ping_error_line(iospd_strbuf_t* out, const iospd_ping_target_t* t,
                           uint64_t request, const char* what) {
  head(out, t);
  iospd_strbuf_appendf(out, "request=%llu failed: %s\n",
                       (unsigned long long)request, what);
}

/* The percentiles -L adds, as in iospd's run reports' table (a subset). */
static const double pcts[] = {50, 90, 95, 99, 99.9, 99.99};
static const char* const pct_names[] = {"50",   "90",   "95",
                                        "99",   "99.9", "99.99"};
#define NPCTS (sizeof pcts / sizeof pcts[0])

void iospd_ping_summary_text(iospd_strbuf_t* out, const iospd_ping_target_t* t,
                             const iospd_ping_stats_t* s, bool percentiles) {
  iospd_ping_summary_t m;
  iospd_ping_summarize(s, t->size, &m);
  char a[48], b[48], c[48], d[48];
  iospd_strbuf_appendf(out, "\n--- %s (%s) iospd ping statistics ---\n",
                       t->path, t->where);
  iospd_strbuf_appendf(
      out, "%llu requests completed in %s, %s %s, %s iops, %s/s\n",
      (unsigned long long)m.counted,
      iospd_ping_fmt_time((double)m.time_ns, a, sizeof a),
      iospd_ping_fmt_bytes((double)m.bytes, b, sizeof b),
      t->write ? "written" : "read", iospd_ping_fmt_count(m.iops, c, sizeof c),
      iospd_ping_fmt_bytes(m.bps, d, sizeof d));
  iospd_strbuf_appendf(
      out, "generated %llu requests in %s, %s, %s iops, %s/s\n",
      (unsigned long long)m.requests,
      iospd_ping_fmt_time((double)m.wall_ns, a, sizeof a),
      iospd_ping_fmt_bytes((double)m.all_bytes, b, sizeof b),
      iospd_ping_fmt_count(m.wall_iops, c, sizeof c),
      iospd_ping_fmt_bytes(m.wall_bps, d, sizeof d));
  if (m.counted == 0) {
    iospd_strbuf_append(out, "min/avg/max/mdev: no request was counted (the "
                             "first one is the warm-up)\n");
    return;
  }
  iospd_strbuf_appendf(out, "min/avg/max/mdev = %s / %s / %s / ",
                       iospd_ping_fmt_time((double)m.min_ns, a, sizeof a),
                       iospd_ping_fmt_time(m.avg_ns, b, sizeof b),
                       iospd_ping_fmt_time((double)m.max_ns, c, sizeof c));
  iospd_strbuf_appendf(out, "%s\n",
                       iospd_ping_fmt_time(m.mdev_ns, d, sizeof d));
  if (!percentiles) return;
  iospd_strbuf_append(out, "percentiles:");
  for (size_t i = 0; i < NPCTS; i++)
    iospd_strbuf_appendf(
        out, "%s p%s = %s", i ? "," : "", pct_names[i],
        iospd_ping_fmt_time(iospd_hist_percentile_ns(s->hist, pcts[i]), a,
                            sizeof a));
  iospd_strbuf_putc(out, '\n');
}

static unsigned long long round_u64(double v) {
  return v > 0 ? (unsigned long long)(v + 0.5) : 0;
}

/* ioping -B's fields, in its order: counted requests, their time (ns),
 * iops, bytes per second, min, avg, max, mdev (ns), all requests, wall
 * time (ns). Rates and the mean rounded to whole numbers. */
void iospd_ping_batch_line(iospd_strbuf_t* out, const iospd_ping_stats_t* s,
                           uint32_t size) {
  iospd_ping_summary_t m;
  iospd_ping_summarize(s, size, &m);
  iospd_strbuf_appendf(out, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
                       (unsigned long long)m.counted,
                       (unsigned long long)m.time_ns, round_u64(m.iops),
                       round_u64(m.bps), (unsigned long long)m.min_ns,
                       round_u64(m.avg_ns), (unsigned long long)m.max_ns,
                       round_u64(m.mdev_ns), (unsigned long long)m.requests,
                       (unsigned long long)m.wall_ns);
}

/* ---- -Rjson ----------------------------------------------------------- */

static void jkey(iospd_strbuf_t* o, const char* k) {
  iospd_json_append_str(o, k);
  iospd_strbuf_putc(o, ':');
}
static void jstr(iospd_strbuf_t* o, const char* k, const char* v, bool comma) {
  jkey(o, k);
  iospd_json_append_str(o, v);
  if (comma) iospd_strbuf_putc(o, ',');
}
static void ju64(iospd_strbuf_t* o, const char* k, uint64_t v, bool comma) {
  jkey(o, k);
  iospd_strbuf_appendf(o, "%llu%s", (unsigned long long)v, comma ? "," : "");
}
static void jdbl(iospd_strbuf_t* o, const char* k, double v, bool comma) {
  jkey(o, k);
  iospd_json_append_double(o, v);
  if (comma) iospd_strbuf_putc(o, ',');
}
static void jbool(iospd_strbuf_t* o, const char* k, bool v, bool comma) {
  jkey(o, k);
  iospd_strbuf_appendf(o, "%s%s", v ? "true" : "false", comma ? "," : "");
}

void iospd_ping_json(iospd_strbuf_t* o, const iospd_ping_report_t* r,
                     const iospd_ping_stats_t* s) {
  const iospd_ping_opts_t* p = r->opts;
  iospd_ping_summary_t m;
  iospd_ping_summarize(s, p->size, &m);
  iospd_strbuf_putc(o, '{');
  jstr(o, "format", "iospd-ping", true);
  ju64(o, "format_version", 1, true);
  jstr(o, "iospd_version", IOSPD_VERSION, true);
  jkey(o, "target");
  iospd_strbuf_putc(o, '{');
  jstr(o, "path", r->target->path, true);
  jstr(o, "kind", r->kind, true);
  jstr(o, "file", r->file, true);
  jstr(o, "fs_type", r->fs_type, true);
  jstr(o, "device", r->device, false);
  iospd_strbuf_append(o, "},");
  jkey(o, "settings");
  iospd_strbuf_putc(o, '{');
  ju64(o, "request_bytes", p->size, true);
  jstr(o, "direction", p->write ? "write" : "read", true);
  jstr(o, "pattern", p->sequential ? "sequential" : "random", true);
  ju64(o, "working_set_bytes", r->working_set, true);
  ju64(o, "interval_us", p->interval_us, true);
  ju64(o, "count", p->count, true);
  ju64(o, "duration_s", p->duration_s, true);
  jbool(o, "direct", p->direct, true);
  jbool(o, "write_through", p->write_through, false);
  iospd_strbuf_append(o, "},");
  jkey(o, "summary");
  iospd_strbuf_putc(o, '{');
  ju64(o, "requests", m.requests, true);
  ju64(o, "counted", m.counted, true);
  ju64(o, "time_ns", m.time_ns, true);
  ju64(o, "wall_ns", m.wall_ns, true);
  ju64(o, "bytes", m.bytes, true);
  ju64(o, "all_bytes", m.all_bytes, true);
  jdbl(o, "iops", m.iops, true);
  jdbl(o, "bytes_per_second", m.bps, true);
  jdbl(o, "wall_iops", m.wall_iops, true);
  jdbl(o, "wall_bytes_per_second", m.wall_bps, true);
  ju64(o, "min_ns", m.min_ns, true);
  jdbl(o, "avg_ns", m.avg_ns, true);
  ju64(o, "max_ns", m.max_ns, true);
  jdbl(o, "mdev_ns", m.mdev_ns, false);
  iospd_strbuf_append(o, "},");
  jkey(o, "percentiles");
  iospd_strbuf_putc(o, '[');
  for (size_t i = 0; p->percentiles && m.counted > 0 && i < NPCTS; i++) {
    iospd_strbuf_appendf(o, "%s{", i ? "," : "");
    jdbl(o, "percentile", pcts[i], true);
    jdbl(o, "ns", iospd_hist_percentile_ns(s->hist, pcts[i]), false);
    iospd_strbuf_putc(o, '}');
  }
  iospd_strbuf_append(o, "],");
  jbool(o, "interrupted", r->interrupted, true);
  jkey(o, "error");
  iospd_json_append_str(o, r->error);
  iospd_strbuf_append(o, "}\n");
}

/* ---- -Rxml ------------------------------------------------------------ */

static void xel(iospd_strbuf_t* o, const char* name, const char* v) {
  iospd_strbuf_appendf(o, "<%s>", name);
  iospd_strbuf_append_xml(o, v);
  iospd_strbuf_appendf(o, "</%s>", name);
}

/* Under the results root every iospd XML report has (<Results>), one
 * <Ping> element; the run reports' elements are not there, so a reader of
 * run reports sees at once that this is not one. */
void iospd_ping_xml(iospd_strbuf_t* o, const iospd_ping_report_t* r,
                    const iospd_ping_stats_t* s) {
  const iospd_ping_opts_t* p = r->opts;
  iospd_ping_summary_t m;
  iospd_ping_summarize(s, p->size, &m);
  char num[64];
  iospd_strbuf_appendf(o, "<Results><Ping Version=\"1\"><Target>");
  xel(o, "Path", r->target->path);
  xel(o, "Kind", r->kind);
  xel(o, "File", r->file);
  xel(o, "FileSystem", r->fs_type);
  xel(o, "Device", r->device);
  iospd_strbuf_appendf(
      o,
      "</Target><Settings><RequestBytes>%u</RequestBytes>"
      "<Direction>%s</Direction><Pattern>%s</Pattern>"
      "<WorkingSetBytes>%llu</WorkingSetBytes><IntervalUs>%llu</IntervalUs>"
      "<Count>%llu</Count><DurationSeconds>%u</DurationSeconds>"
      "<Direct>%s</Direct><WriteThrough>%s</WriteThrough></Settings>",
      p->size, p->write ? "write" : "read",
      p->sequential ? "sequential" : "random",
      (unsigned long long)r->working_set, (unsigned long long)p->interval_us,
      (unsigned long long)p->count, p->duration_s, p->direct ? "true" : "false",
      p->write_through ? "true" : "false");
  iospd_strbuf_appendf(
      o,
      "<Summary><Requests>%llu</Requests><Counted>%llu</Counted>"
      "<TimeNs>%llu</TimeNs><WallNs>%llu</WallNs><Bytes>%llu</Bytes>"
      "<AllBytes>%llu</AllBytes>",
      (unsigned long long)m.requests, (unsigned long long)m.counted,
      (unsigned long long)m.time_ns, (unsigned long long)m.wall_ns,
      (unsigned long long)m.bytes, (unsigned long long)m.all_bytes);
  snprintf(num, sizeof num, "%.3f", m.iops);
  xel(o, "Iops", num);
  snprintf(num, sizeof num, "%.3f", m.bps);
  xel(o, "BytesPerSecond", num);
  snprintf(num, sizeof num, "%.3f", m.wall_iops);
  xel(o, "WallIops", num);
  snprintf(num, sizeof num, "%.3f", m.wall_bps);
  xel(o, "WallBytesPerSecond", num);
  iospd_strbuf_appendf(o, "<MinNs>%llu</MinNs>", (unsigned long long)m.min_ns);
  snprintf(num, sizeof num, "%.3f", m.avg_ns);
  xel(o, "AvgNs", num);
  iospd_strbuf_appendf(o, "<MaxNs>%llu</MaxNs>", (unsigned long long)m.max_ns);
  snprintf(num, sizeof num, "%.3f", m.mdev_ns);
  xel(o, "MdevNs", num);
  iospd_strbuf_append(o, "</Summary>");
  if (p->percentiles && m.counted > 0) {
    iospd_strbuf_append(o, "<Percentiles>");
    for (size_t i = 0; i < NPCTS; i++)
      iospd_strbuf_appendf(o, "<Percentile At=\"%s\" Ns=\"%.0f\"/>",
                           pct_names[i],
                           iospd_hist_percentile_ns(s->hist, pcts[i]));
    iospd_strbuf_append(o, "</Percentiles>");
  }
  iospd_strbuf_appendf(o, "<Interrupted>%s</Interrupted>",
                       r->interrupted ? "true" : "false");
  if (r->error != NULL) xel(o, "Error", r->error);
  iospd_strbuf_append(o, "</Ping></Results>\n");
}

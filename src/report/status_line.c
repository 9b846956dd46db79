/* SPDX-License-Identifier: MIT */
/* The live status line's text (iospd/status.h), for example
 *   1/2 measuring | 0:12 elapsed | 0:18 left | R 12.3k IOPS 48.2 MiB/s
 *   mean 0.123 p99 1.234 ms | W 5123 IOPS 20.0 MiB/s mean ... | 0 errors
 * on one line. Numbers keep three significant digits (a line that changes
 * every second is read at a glance, not copied; the final report has the
 * exact figures), and R / W are short so that both directions' rates fit
 * in 80 columns. */
#include <stdio.h>
#include <string.h>

#include "iospd/status.h"

/* The parts of a line, in display order. */
enum {
  PART_HEAD = 0,
  PART_ELAPSED,
  PART_LEFT,
  PART_READ,
  PART_READ_LAT,
  PART_WRITE,
  PART_WRITE_LAT,
  PART_ERRORS,
  PART_COUNT
};

/* Which part goes first when the line is too wide. */
static const int drop_order[] = {
    PART_ERRORS, /* only while 0; see part_rank */
    PART_ELAPSED, PART_WRITE_LAT, PART_READ_LAT, PART_WRITE,
    PART_READ,    PART_LEFT,
};

typedef struct part_s {
  char text[80];
  bool on;
} part_t;

/* x with three significant digits: 1.23, 12.3, 123, 1234. */
static void sig3(char* out, size_t n, double x, const char* suffix) {
  if (x < 9.995)
    snprintf(out, n, "%.2f%s", x, suffix);
  else if (x < 99.95)
    snprintf(out, n, "%.1f%s", x, suffix);
  else
    snprintf(out, n, "%.0f%s", x, suffix);
}

/* IOPS: whole numbers up to 9999, then 10.0k .. 999k, then 1.00M ... */
static void fmt_iops(char* out, size_t n, double x) {
  if (x < 9999.5)
    snprintf(out, n, "%.0f", x);
  else if (x < 999500.0)
    sig3(out, n, x / 1e3, "k");
  else
    sig3(out, n, x / 1e6, "M");
}

/* Milliseconds: 0.123, 12.34, 123.4, 1234 (the report's 3 decimals below
 * 10 ms, fewer above so the width stays put). */
static void fmt_ms(char* out, size_t n, double x) {
  if (x < 9.9995)
    snprintf(out, n, "%.3f", x);
  else if (x < 99.995)
    snprintf(out, n, "%.2f", x);
  else if (x < 999.95)
    snprintf(out, n, "%.1f", x);
  else
    snprintf(out, n, "%.0f", x);
}

/* m:ss, or h:mm:ss from an hour on. */
static void fmt_time(char* out, size_t n, uint64_t s) {
  if (s >= 3600)
    snprintf(out, n, "%llu:%02u:%02u", (unsigned long long)(s / 3600),
             (unsigned)(s / 60 % 60), (unsigned)(s % 60));
  else
    snprintf(out, n, "%u:%02u", (unsigned)(s / 60), (unsigned)(s % 60));
}

static void fmt_dir(part_t* p, const iospd_status_view_t* v, int op) {
  char iops[24], mib[24];
  fmt_iops(iops, sizeof iops, v->iops[op]);
  sig3(mib, sizeof mib, v->mib_s[op], "");
  snprintf(p->text, sizeof p->text, "%s %s IOPS %s MiB/s",
           op == 0 ? "R" : "W", iops, mib);
  p->on = true;
}

static void fmt_lat(part_t* p, const iospd_status_view_t* v, int op) {
  if (v->lat_known[op]) {
    char mean[24], p99[24];
    fmt_ms(mean, sizeof mean, v->lat_mean_ms[op]);
    fmt_ms(p99, sizeof p99, v->lat_p99_ms[op]);
    snprintf(p->text, sizeof p->text, "mean %s p99 %s ms", mean, p99);
  } else {
    /* No I/O of that kind ended in the window: nothing to average. */
    snprintf(p->text, sizeof p->text, "mean - p99 - ms");
  }
  p->on = true;
}

/* The separator written before part i (the latency stays with its rates). */
static const char* joiner(int i) {
  return i == PART_READ_LAT || i == PART_WRITE_LAT ? " " : " | ";
}

static size_t line_len(const part_t* parts) {
  size_t n = 0;
  for (int i = 0; i < PART_COUNT; i++) {
    if (!parts[i].on) continue;
    if (n > 0) n += strlen(joiner(i));
    n += strlen(parts[i].text);
  }
  return n;
}

size_t iospd_status_line_format(char* buf, size_t cap,
                                const iospd_status_view_t* v, uint32_t width) {
  if (cap == 0) return 0;
  part_t parts[PART_COUNT];
  memset(parts, 0, sizeof parts);

  snprintf(parts[PART_HEAD].text, sizeof parts[PART_HEAD].text, "%u/%u %s",
           v->timespan + 1, v->timespan_count, iospd_phase_name(v->phase));
  parts[PART_HEAD].on = true;
  char t[32];
  fmt_time(t, sizeof t, v->elapsed_ms / 1000);
  snprintf(parts[PART_ELAPSED].text, sizeof parts[PART_ELAPSED].text,
           "%s elapsed", t);
  parts[PART_ELAPSED].on = true;
  /* Rounded up: "0:00 left" only once nothing is left. */
  fmt_time(t, sizeof t, (v->remaining_ms + 999) / 1000);
  snprintf(parts[PART_LEFT].text, sizeof parts[PART_LEFT].text, "%s left", t);
  parts[PART_LEFT].on = true;
  if (v->has_rates) {
    for (int op = 0; op < 2; op++) {
      if (!v->show[op]) continue;
      fmt_dir(&parts[op == 0 ? PART_READ : PART_WRITE], v, op);
      if (v->latency)
        fmt_lat(&parts[op == 0 ? PART_READ_LAT : PART_WRITE_LAT], v, op);
    }
  }
  snprintf(parts[PART_ERRORS].text, sizeof parts[PART_ERRORS].text,
           "%llu error%s", (unsigned long long)v->errors,
           v->errors == 1 ? "" : "s");
  parts[PART_ERRORS].on = true;

  size_t limit = width;
  if (limit > cap - 1) limit = cap - 1;
  if (limit > IOSPD_STATUS_LINE_MAX) limit = IOSPD_STATUS_LINE_MAX;
  /* Errors, once there are some, outrank everything but the head. */
  size_t first = v->errors > 0 ? 1 : 0;
  for (size_t k = first; k < IOSPD_ARRAY_SIZE(drop_order); k++) {
    if (line_len(parts) <= limit) break;
    parts[drop_order[k]].on = false;
  }
  if (line_len(parts) > limit && v->errors > 0) parts[PART_ERRORS].on = false;

  size_t n = 0;
  for (int i = 0; i < PART_COUNT && n < limit; i++) {
    if (!parts[i].on) continue;
    const char* pieces[2] = {n > 0 ? joiner(i) : "", parts[i].text};
    for (int k = 0; k < 2; k++) {
      size_t len = strlen(pieces[k]);
      if (len > limit - n) len = limit - n; /* only the head is ever cut */
      memcpy(buf + n, pieces[k], len);
      n += len;
    }
  }
  buf[n] = '\0';
  return n;
}

/* SPDX-License-Identifier: MIT */
/* --pts's text report and JSON document (report_pts.h). */
#include "iospd/pts_report.h"

#include <stdio.h>
#include <string.h>

#include "iospd/json_write.h"
#include "report_json_writer.h"
#include "report_steady.h"

#define ap iospd_strbuf_appendf

static const char* test_title(int test) {
  switch (test) {
    case IOSPD_PTS_THROUGHPUT: return "throughput";
    case IOSPD_PTS_LATENCY: return "latency";
    default: return "IOPS";
  }
}

static const iospd_ss_metric_def_t* metric(const iospd_pts_result_t* r) {
  return iospd_ss_metric_def((iospd_ss_metric_t)(r->test - 1));
}

static void size_word(char* buf, size_t n, uint32_t bs) {
  if (bs % 1024 == 0)
    snprintf(buf, n, "%uK", bs / 1024);
  else
    snprintf(buf, n, "%u", bs);
}

/* The last round's cells as a table, block size by read %: the metric. */
static void matrix_table(iospd_strbuf_t* out, const iospd_pts_result_t* r,
                         const iospd_pts_round_t* rd) {
  ap(out, "\nround %u, %s by block size (rows) and read %% (columns):\n",
     rd->n, metric(r)->unit);
  ap(out, "%8s", "bs");
  for (uint32_t m = 0; m < r->matrix.nmix; m++)
    ap(out, " | %10u", r->matrix.read_pct[m]);
  ap(out, "\n");
  for (uint32_t b = 0; b < r->matrix.nbs; b++) {
    char w[16];
    size_word(w, sizeof w, r->matrix.bs[b]);
    ap(out, "%8s", w);
    for (uint32_t m = 0; m < r->matrix.nmix; m++) {
      const iospd_pts_cell_t* c = NULL;
      for (uint32_t i = 0; i < rd->ncells; i++)
        if (rd->cells[i].bs == r->matrix.bs[b] &&
            rd->cells[i].read_pct == r->matrix.read_pct[m])
          c = &rd->cells[i];
      double v = c == NULL                      ? -1
                 : r->test == IOSPD_PTS_THROUGHPUT ? c->mib_per_s
                 : r->test == IOSPD_PTS_LATENCY    ? c->lat_mean_us
                                                   : c->iops;
      if (v < 0)
        ap(out, " | %10s", "-");
      else
        ap(out, " | %10.2f", v);
    }
    ap(out, "\n");
  }
}

void iospd_report_pts_text(iospd_strbuf_t* out, const iospd_pts_result_t* r) {
  const iospd_ss_metric_def_t* m = metric(r);
  char tb[16];
  size_word(tb, sizeof tb, r->tracked_bs);
  ap(out, "\nSNIA SSS PTS 2.0.2 %s test (--pts=%s)\n", test_title(r->test),
     iospd_pts_test_word(r->test));
  ap(out, "target:\t\t%s (%s, %llu bytes)\n", r->path ? r->path : "",
     r->kind ? r->kind : "?", (unsigned long long)r->capacity);
  ap(out, "threads:\t%u, %u outstanding I/O%s each\n", r->threads,
     r->outstanding, r->outstanding == 1 ? "" : "s");
  ap(out, "cells:\t\t%u s each, %s access\n", r->cell_s,
     r->matrix.random ? "random" : "sequential");
  if (r->reasons.len == 0) {
    ap(out, "conformant:\tyes\n");
  } else {
    ap(out, "conformant:\tno:\n");
    const char* s = iospd_strbuf_cstr(&r->reasons);
    while (*s) {
      size_t n = strcspn(s, "\n");
      ap(out, "\t\t- %.*s\n", (int)n, s);
      s += n + (s[n] == '\n');
    }
  }
  if (r->purge != IOSPD_PTS_PURGE_NONE)
    ap(out, "purge:\t\t%s (whole-device discard) in %.2f s\n",
       iospd_pts_purge_word(r->purge), r->purge_seconds);
  ap(out, "preconditioning:\t%s%llu writes of 128 KiB, %llu bytes (2 x "
          "capacity) in %.2f s\n",
     r->wipc_done ? "" : "NOT FINISHED: ", (unsigned long long)r->wipc_writes,
     (unsigned long long)r->wipc_bytes, r->wipc_seconds);
  if (r->resumed_rounds > 0)
    ap(out, "resumed:\trounds 1-%u from --pts-resume, then round %u on\n",
       r->resumed_rounds, r->resumed_rounds + 1);
  ap(out, "tracked:\t%s %s, read %u %%: %s\n", tb,
     r->matrix.random ? "random" : "sequential", r->tracked_read, m->unit);
  ap(out, "\nround | tracked %s\n", m->unit);
  ap(out, "------+----------------\n");
  for (uint32_t i = 0; i < r->nrounds; i++)
    ap(out, "%5u | %14.2f\n", r->rounds[i].n, r->rounds[i].tracked);
  const iospd_ss_window_t* w = &r->window;
  if (w->valid) {
    ap(out, "\nmeasurement window: rounds %u-%u\n", w->first_round,
       w->last_round);
    ap(out, "round | value          | fitted line\n");
    for (uint32_t i = 0; i < w->n; i++)
      ap(out, "%5u | %14.2f | %14.2f\n", w->first_round + i, w->values[i],
         w->intercept + w->slope * i);
    ap(out, "mean %.2f %s; data excursion %.2f (%.2f %%, limit %g %%): %s; "
            "slope %.4f per round, slope excursion %.2f (%.2f %%, limit %g "
            "%%): %s\n",
       w->mean, m->unit, w->data_excursion, w->data_excursion_pct,
       r->limits.data_pct, w->data_ok ? "ok" : "too large", w->slope,
       w->slope_excursion, w->slope_excursion_pct, r->limits.slope_pct,
       w->slope_ok ? "ok" : "too large");
  } else {
    ap(out, "\nmeasurement window: none (fewer than %u rounds)\n",
       r->limits.window_rounds);
  }
  switch (r->stopped) {
    case IOSPD_PTS_STOP_STEADY:
      ap(out, "steady state: reached at round %u\n", w->last_round);
      break;
    case IOSPD_PTS_STOP_MAX_ROUNDS:
      ap(out, "steady state: NOT reached in %u rounds\n", r->nrounds);
      break;
    case IOSPD_PTS_STOP_INTERRUPTED:
      ap(out, "steady state: not known: interrupted (Ctrl-C) after %u whole "
              "round%s\n", r->nrounds, r->nrounds == 1 ? "" : "s");
      break;
    default:
      ap(out, "steady state: not known: the run failed after %u round%s: %s\n",
         r->nrounds, r->nrounds == 1 ? "" : "s", r->error);
  }
  if (r->nrounds > 0) matrix_table(out, r, &r->rounds[r->nrounds - 1]);
}

static void dbl_or_null(iospd_jw_t* w, const char* k, double v) {
  if (v < 0)
    iospd_jw_null(w, k);
  else
    iospd_jw_dbl(w, k, v);
}

static void cell_json(iospd_jw_t* w, const iospd_pts_cell_t* c) {
  iospd_jw_obj(w, NULL);
  iospd_jw_u64(w, "block_size", c->bs);
  iospd_jw_u64(w, "read_pct", c->read_pct);
  iospd_jw_str(w, "access", c->random ? "random" : "sequential");
  iospd_jw_dbl(w, "seconds", c->seconds);
  iospd_jw_dbl(w, "iops", c->iops);
  iospd_jw_dbl(w, "mib_per_s", c->mib_per_s);
  iospd_jw_obj(w, "latency_us");
  dbl_or_null(w, "mean", c->lat_mean_us);
  dbl_or_null(w, "max", c->lat_max_us);
  dbl_or_null(w, "p99", c->p99_us);
  dbl_or_null(w, "p99.9", c->p999_us);
  dbl_or_null(w, "p99.99", c->p9999_us);
  iospd_jw_end_obj(w);
  iospd_jw_end_obj(w);
}

int iospd_report_pts_json(iospd_strbuf_t* out, const iospd_pts_result_t* r,
                          const iospd_results_t* sysr, const char* cmdline) {
  iospd_sink_t sink;
  iospd_sink_to_strbuf(&sink, out);
  iospd_jw_t w;
  iospd_jw_init(&w, &sink, false);
  iospd_jw_obj(&w, NULL);
  iospd_jw_str(&w, "format", "iospd-pts");
  iospd_jw_u64(&w, "format_version", 1);
  iospd_rpt_json_system(&w, sysr);
  iospd_jw_str(&w, "command_line", cmdline ? cmdline : "");
  iospd_jw_str(&w, "test", iospd_pts_test_word(r->test));
  iospd_jw_bool(&w, "conformant", r->reasons.len == 0);
  iospd_jw_arr(&w, "nonconformant_reasons");
  const char* s = iospd_strbuf_cstr(&r->reasons);
  while (*s) {
    size_t n = strcspn(s, "\n");
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)n, s);
    iospd_jw_str(&w, NULL, line);
    s += n + (s[n] == '\n');
  }
  iospd_jw_end_arr(&w);
  iospd_jw_dbl(&w, "cell_seconds", r->cell_s);
  iospd_jw_u64(&w, "max_rounds", r->limits.max_rounds);
  iospd_jw_u64(&w, "window_rounds", r->limits.window_rounds);
  iospd_jw_dbl(&w, "data_excursion_limit_pct", r->limits.data_pct);
  iospd_jw_dbl(&w, "slope_excursion_limit_pct", r->limits.slope_pct);
  iospd_jw_obj(&w, "target");
  iospd_jw_str(&w, "path", r->path ? r->path : "");
  iospd_jw_str(&w, "kind", r->kind ? r->kind : "file");
  iospd_jw_u64(&w, "capacity_bytes", r->capacity);
  iospd_jw_null(&w, "model");
  iospd_jw_null(&w, "firmware");
  iospd_jw_null(&w, "serial");
  iospd_jw_end_obj(&w);
  iospd_jw_u64(&w, "threads", r->threads);
  iospd_jw_u64(&w, "outstanding", r->outstanding);
  iospd_jw_obj(&w, "purge");
  iospd_jw_str(&w, "method", iospd_pts_purge_word(r->purge));
  if (r->purge == IOSPD_PTS_PURGE_NONE)
    iospd_jw_null(&w, "seconds");
  else
    iospd_jw_dbl(&w, "seconds", r->purge_seconds);
  iospd_jw_end_obj(&w);
  iospd_jw_obj(&w, "wipc");
  iospd_jw_u64(&w, "block_size", IOSPD_PTS_WIPC_BLOCK);
  iospd_jw_u64(&w, "bytes_written", r->wipc_bytes);
  iospd_jw_u64(&w, "writes", r->wipc_writes);
  iospd_jw_dbl(&w, "seconds", r->wipc_seconds);
  iospd_jw_bool(&w, "complete", r->wipc_done);
  iospd_jw_end_obj(&w);
  iospd_jw_obj(&w, "matrix");
  iospd_jw_arr(&w, "block_sizes");
  for (uint32_t i = 0; i < r->matrix.nbs; i++)
    iospd_jw_u64(&w, NULL, r->matrix.bs[i]);
  iospd_jw_end_arr(&w);
  iospd_jw_arr(&w, "mixes");
  for (uint32_t i = 0; i < r->matrix.nmix; i++) {
    iospd_jw_obj(&w, NULL);
    iospd_jw_u64(&w, "read_pct", r->matrix.read_pct[i]);
    iospd_jw_end_obj(&w);
  }
  iospd_jw_end_arr(&w);
  iospd_jw_str(&w, "access", r->matrix.random ? "random" : "sequential");
  iospd_jw_end_obj(&w);
  iospd_jw_obj(&w, "tracked");
  iospd_jw_u64(&w, "block_size", r->tracked_bs);
  iospd_jw_u64(&w, "read_pct", r->tracked_read);
  iospd_jw_str(&w, "access", r->matrix.random ? "random" : "sequential");
  iospd_jw_str(&w, "metric", metric(r)->json);
  iospd_jw_str(&w, "unit", metric(r)->unit);
  iospd_jw_end_obj(&w);
  iospd_jw_u64(&w, "resumed_rounds", r->resumed_rounds);
  iospd_jw_arr(&w, "rounds");
  for (uint32_t i = 0; i < r->nrounds; i++) {
    const iospd_pts_round_t* rd = &r->rounds[i];
    iospd_jw_obj(&w, NULL);
    iospd_jw_u64(&w, "n", rd->n);
    iospd_jw_dbl(&w, "tracked_value", rd->tracked);
    iospd_jw_arr(&w, "cells");
    for (uint32_t c = 0; c < rd->ncells; c++) cell_json(&w, &rd->cells[c]);
    iospd_jw_end_arr(&w);
    iospd_jw_end_obj(&w);
  }
  iospd_jw_end_arr(&w);
  iospd_rpt_ss_window_json(&w, "window", &r->window);
  iospd_jw_bool(&w, "converged", r->converged);
  iospd_jw_str(&w, "stopped", iospd_pts_stop_word(r->stopped));
  iospd_jw_bool(&w, "interrupted", r->interrupted);
  if (r->error[0])
    iospd_jw_str(&w, "error", r->error);
  else
    iospd_jw_null(&w, "error");
  iospd_jw_end_obj(&w);
  iospd_strbuf_putc(w.out, '\n');
  return iospd_jw_finish(&w);
}

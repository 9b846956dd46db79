/* SPDX-License-Identifier: MIT */
/* --pts (iospd/pts.h): the matrix of each test, the cell profiles, the
 * rounds and the stop rule. One iospd_run_in call per cell. */
#include "iospd/pts.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iospd/agg.h"
#include "iospd/alloc.h"
#include "iospd/platform.h"
#include "run_internal.h"

const char* iospd_pts_test_word(int test) {
  if (test <= IOSPD_PTS_OFF || test > IOSPD_PTS_LATENCY) return NULL;
  return iospd_ss_metric_def((iospd_ss_metric_t)(test - 1))->word;
}

const char* iospd_pts_purge_word(int purge) {
  static const char* const w[IOSPD_PTS_PURGE_COUNT] = {"none", "trim",
                                                       "secure"};
  return purge >= 0 && purge < IOSPD_PTS_PURGE_COUNT ? w[purge] : NULL;
}

const char* iospd_pts_stop_word(iospd_pts_stop_t s) {
  static const char* const w[] = {"steady", "max_rounds", "interrupted",
                                  "failed"};
  return (unsigned)s < IOSPD_ARRAY_SIZE(w) ? w[s] : "failed";
}

void iospd_pts_matrix_of(int test, iospd_pts_matrix_t* m,
                         uint32_t* tracked_bs, uint32_t* tracked_read) {
  memset(m, 0, sizeof *m);
  static const uint32_t iops_bs[] = {1048576, 131072, 65536, 32768,
                                     16384,   8192,   4096,  512};
  static const uint32_t iops_rd[] = {100, 95, 65, 50, 35, 5, 0};
  static const uint32_t tp_bs[] = {1048576, 131072};
  static const uint32_t tp_rd[] = {100, 0};
  static const uint32_t lat_bs[] = {8192, 4096, 512};
  static const uint32_t lat_rd[] = {100, 65, 0};
  const uint32_t *bs = iops_bs, *rd = iops_rd;
  size_t nbs = IOSPD_ARRAY_SIZE(iops_bs), nrd = IOSPD_ARRAY_SIZE(iops_rd);
  m->random = true;
  *tracked_bs = 4096;
  *tracked_read = 0;
  if (test == IOSPD_PTS_THROUGHPUT) {
    bs = tp_bs, rd = tp_rd;
    nbs = IOSPD_ARRAY_SIZE(tp_bs), nrd = IOSPD_ARRAY_SIZE(tp_rd);
    m->random = false;
    *tracked_bs = 1048576;
  } else if (test == IOSPD_PTS_LATENCY) {
    bs = lat_bs, rd = lat_rd;
    nbs = IOSPD_ARRAY_SIZE(lat_bs), nrd = IOSPD_ARRAY_SIZE(lat_rd);
  }
  memcpy(m->bs, bs, nbs * sizeof *bs);
  m->nbs = (uint32_t)nbs;
  memcpy(m->read_pct, rd, nrd * sizeof *rd);
  m->nmix = (uint32_t)nrd;
}

void iospd_pts_result_free(iospd_pts_result_t* r) {
  for (uint32_t i = 0; i < r->nrounds; i++) iospd_free(r->rounds[i].cells);
  r->nrounds = 0;
  iospd_strbuf_destroy(&r->reasons);
  iospd_strbuf_destroy(&r->seen);
}

static void say(const iospd_pts_hooks_t* h, iospd_msg_kind_t k,
                const char* fmt, ...) IOSPD_PRINTF(3, 4);
static void say(const iospd_pts_hooks_t* h, iospd_msg_kind_t k,
                const char* fmt, ...) {
  if (h == NULL || h->message == NULL) return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  h->message(h->ctx, k, line);
}

static void status(const iospd_pts_hooks_t* h, const char* fmt, ...)
    IOSPD_PRINTF(2, 3);
static void status(const iospd_pts_hooks_t* h, const char* fmt, ...) {
  if (h == NULL || h->status == NULL) return;
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  h->status(h->ctx, line);
}

/* One cell's profile: the user's target with this block size, mix and
 * access, for cell_s seconds, no warm-up or cool-down, latencies on. */
static int cell_profile(const iospd_profile_t* base, const iospd_pts_result_t* r,
                        uint32_t bs, uint32_t read_pct, iospd_profile_t* cp) {
  const iospd_timespan_t* bts = &base->timespans[0];
  iospd_profile_init(cp);
  cp->ext.engine = base->ext.engine;
  cp->ext.allow_raw_write = base->ext.allow_raw_write;
  cp->ext.diskspd = base->ext.diskspd;
  cp->ext.status_line = IOSPD_STATUS_NEVER;
  iospd_timespan_t* ts = iospd_profile_add_timespan(cp);
  if (ts == NULL) return IOSPD_ENOMEM;
  ts->duration = r->cell_s;
  ts->warmup = 0;
  ts->cooldown = 0;
  ts->measure_latency = true;
  ts->thread_count = bts->thread_count;
  ts->request_count = bts->request_count;
  ts->disable_affinity = bts->disable_affinity;
  ts->rand_seed = bts->rand_seed;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  if (t == NULL) return IOSPD_ENOMEM;
  iospd_target_destroy(t);
  if (iospd_target_copy(t, &bts->targets[0]) < 0) return IOSPD_ENOMEM;
  t->create = false; /* made once, before preconditioning */
  t->file_size = 0;
  t->block_size = bs;
  t->write_ratio = 100 - read_pct;
  t->random_ratio = r->matrix.random ? 100 : 0;
  t->stride_align = 0; /* random offsets on multiples of the block size */
  t->interlocked = !r->matrix.random; /* one sequential stream */
  if (r->test == IOSPD_PTS_LATENCY) {
    t->threads_per_file = 1;
    t->request_count = 1;
    ts->thread_count = 0;
    ts->request_count = 0;
  }
  return 0;
}

static double us(const iospd_hist_t* h, double pct) {
  if (h == NULL || iospd_hist_count(h) == 0) return -1;
  return iospd_hist_percentile_ns(h, pct) / 1000.0;
}

static void read_cell(const iospd_results_t* res, iospd_pts_cell_t* c) {
  c->iops = c->mib_per_s = 0;
  c->lat_mean_us = c->lat_max_us = c->p99_us = c->p999_us = c->p9999_us = -1;
  c->seconds = 0;
  if (res->timespan_count == 0) return;
  const iospd_timespan_result_t* tr = &res->timespans[0];
  c->seconds = tr->seconds;
  if (tr->seconds <= 0) return;
  iospd_agg_t scratch;
  iospd_agg_t* a = iospd_timespan_total(tr, &scratch);
  c->iops = (double)a->ios[2] / tr->seconds;
  c->mib_per_s = (double)a->bytes[2] / 1048576.0 / tr->seconds;
  const iospd_hist_t* h = a->lat[2];
  if (h != NULL && iospd_hist_count(h) > 0) {
    c->lat_mean_us = iospd_hist_mean_ns(h) / 1000.0;
    c->lat_max_us = us(h, 100.0);
    c->p99_us = us(h, 99.0);
    c->p999_us = us(h, 99.9);
    c->p9999_us = us(h, 99.99);
  }
  if (a == &scratch) iospd_agg_destroy(&scratch);
}

static double tracked_of(const iospd_pts_result_t* r, const iospd_pts_cell_t* c) {
  switch (r->test) {
    case IOSPD_PTS_THROUGHPUT: return c->mib_per_s;
    case IOSPD_PTS_LATENCY: return c->lat_mean_us > 0 ? c->lat_mean_us : 0;
    default: return c->iops;
  }
}

typedef struct cell_msgs_s {
  const iospd_pts_hooks_t* hooks;
  iospd_strbuf_t* seen; /* warnings told so far, one a line */
} cell_msgs_t;

/* A cell's warnings, each told once for the whole PTS run (every cell
 * would repeat them, with only a free-memory count changed); its -v lines
 * and notes are left out. */
static void run_message(void* ctx, iospd_msg_kind_t kind, const char* text) {
  cell_msgs_t* m = ctx;
  if (kind != IOSPD_MSG_WARNING && kind != IOSPD_MSG_DISKSPD_WARNING) return;
  /* The key: the text up to its first digit, so counts do not make it
   * new. */
  size_t k = strcspn(text, "0123456789");
  const char* s = iospd_strbuf_cstr(m->seen);
  for (const char* l = s; *l;) {
    size_t n = strcspn(l, "\n");
    if (n == k && memcmp(l, text, k) == 0) return;
    l += n + (l[n] == '\n');
  }
  iospd_strbuf_append_n(m->seen, text, k);
  iospd_strbuf_putc(m->seen, '\n');
  if (m->hooks->message != NULL) m->hooks->message(m->hooks->ctx, kind, text);
}

/* One cell: a run of its profile. */
static int run_cell(iospd_run_session_t* s, const iospd_profile_t* base,
                    const iospd_sysinfo_t* sys, const iospd_pts_hooks_t* hooks,
                    iospd_pts_result_t* r, uint32_t bs, uint32_t rd,
                    iospd_pts_cell_t* c, iospd_err_t* err) {
  iospd_profile_t cp;
  int rc = cell_profile(base, r, bs, rd, &cp);
  if (rc < 0) {
    iospd_profile_destroy(&cp);
    return iospd_err_set(err, rc, "out of memory for a --pts cell");
  }
  /* The target was checked before preconditioning (iospd_pts_run); what
   * it holds now is preconditioning's own data. */
  cp.ext.allow_raw_write = true;
  iospd_results_t res;
  memset(&res, 0, sizeof res);
  res.sys = *sys;
  cell_msgs_t cm = {hooks, &r->seen};
  iospd_run_hooks_t rh = {.message = run_message,
                          .ctx = &cm,
                          .cooperative = hooks->cooperative};
  memset(c, 0, sizeof *c);
  c->bs = bs;
  c->read_pct = rd;
  c->random = r->matrix.random;
  rc = iospd_run_in(s, &cp, &rh, &res, err);
  if (rc == 0 && res.timespan_count > 0 && res.timespans[0].error[0] != '\0')
    rc = iospd_err_set(err, IOSPD_EIO, "%s", res.timespans[0].error);
  read_cell(&res, c);
  if (res.engine_name != NULL) r->engine = res.engine_name; /* static */
  iospd_results_destroy(&res);
  iospd_run_release(&res, &cp);
  iospd_plat_cpu_topology_free(&res.topo);
  iospd_profile_destroy(&cp);
  return rc;
}

static bool in_list(const uint32_t* v, uint32_t n, uint32_t x) {
  for (uint32_t i = 0; i < n; i++)
    if (v[i] == x) return true;
  return false;
}

/* --pts-purge: a whole-disk discard, only on a disk and only with
 * --allow-raw-write (what it holds is gone). */
static int purge(const iospd_profile_t* p, const iospd_file_info_t* info,
                 iospd_target_kind_t kind, iospd_pts_result_t* r,
                 iospd_err_t* err) {
  const char* word = iospd_pts_purge_word(p->ext.pts.purge);
  if (!info->is_device || kind == IOSPD_TARGET_VOLUME)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--pts-purge=%s discards a whole disk; '%s' is %s: "
                         "drop --pts-purge", word, r->path,
                         info->is_device ? "a volume" : "a file");
  if (!p->ext.allow_raw_write)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--pts-purge=%s discards every block of '%s': pass "
                         "--allow-raw-write too", word, r->path);
  uint64_t t0 = iospd_plat_ticks();
  int rc = iospd_plat_discard_device(r->path,
                                     p->ext.pts.purge == IOSPD_PTS_PURGE_SECURE,
                                     r->capacity, err);
  /* Not built on this platform: refused before any I/O. */
  if (rc == IOSPD_ENOTSUP) return iospd_err_set(err, IOSPD_EUSAGE, "%s", err->msg);
  if (rc < 0) return rc;
  r->purge = p->ext.pts.purge;
  r->purge_seconds = (double)(iospd_plat_ticks() - t0) /
                     (double)(r->ticks_per_second ? r->ticks_per_second : 1);
  return 0;
}

static void on_interrupt(void* arg) {
  iospd_run_session_t* s = arg;
  atomic_store(&s->interrupted, 1);
}

static void list_text(char* buf, size_t n, const uint32_t* v, uint32_t c) {
  size_t len = 0;
  buf[0] = '\0';
  for (uint32_t i = 0; i < c && len + 12 < n; i++)
    len += (size_t)snprintf(buf + len, n - len, "%s%u", i ? "," : "", v[i]);
}

/* The saved run's set-up is this one's, or the first difference. */
static int check_resume(const iospd_pts_result_t* r,
                        const iospd_pts_result_t* s, iospd_err_t* err) {
  char a[160], b[160];
  const char* what = NULL;
  a[0] = b[0] = '\0';
  if (s->test != r->test) {
    what = "test";
    snprintf(a, sizeof a, "%s", iospd_pts_test_word(s->test) ? iospd_pts_test_word(s->test) : "?");
    snprintf(b, sizeof b, "%s", iospd_pts_test_word(r->test));
  } else if (strcmp(s->path ? s->path : "", r->path) != 0) {
    what = "target";
    snprintf(a, sizeof a, "%s", s->path ? s->path : "");
    snprintf(b, sizeof b, "%s", r->path);
  } else if (s->capacity != r->capacity) {
    what = "target capacity";
    snprintf(a, sizeof a, "%llu bytes", (unsigned long long)s->capacity);
    snprintf(b, sizeof b, "%llu bytes", (unsigned long long)r->capacity);
  } else if (s->cell_s != r->cell_s) {
    what = "cell time";
    snprintf(a, sizeof a, "%u s", s->cell_s);
    snprintf(b, sizeof b, "%u s", r->cell_s);
  } else if (s->matrix.nbs != r->matrix.nbs ||
             memcmp(s->matrix.bs, r->matrix.bs, r->matrix.nbs * 4) != 0) {
    what = "block sizes";
    list_text(a, sizeof a, s->matrix.bs, s->matrix.nbs);
    list_text(b, sizeof b, r->matrix.bs, r->matrix.nbs);
  } else if (s->matrix.nmix != r->matrix.nmix ||
             memcmp(s->matrix.read_pct, r->matrix.read_pct,
                    r->matrix.nmix * 4) != 0) {
    what = "read percentages";
    list_text(a, sizeof a, s->matrix.read_pct, s->matrix.nmix);
    list_text(b, sizeof b, r->matrix.read_pct, r->matrix.nmix);
  } else if (s->matrix.random != r->matrix.random) {
    what = "access";
    snprintf(a, sizeof a, "%s", s->matrix.random ? "random" : "sequential");
    snprintf(b, sizeof b, "%s", r->matrix.random ? "random" : "sequential");
  } else if (s->threads != r->threads) {
    what = "threads";
    snprintf(a, sizeof a, "%u", s->threads);
    snprintf(b, sizeof b, "%u", r->threads);
  } else if (s->outstanding != r->outstanding) {
    what = "outstanding I/Os";
    snprintf(a, sizeof a, "%u", s->outstanding);
    snprintf(b, sizeof b, "%u", r->outstanding);
  }
  if (what == NULL) return 0;
  return iospd_err_set(err, IOSPD_EUSAGE,
                       "--pts-resume: the saved run's %s is %s, this run's "
                       "is %s: resume with the same switches",
                       what, a, b);
}

int iospd_pts_run(const iospd_profile_t* p, const iospd_sysinfo_t* sys,
                  const iospd_pts_hooks_t* hooks, iospd_pts_result_t* resume,
                  iospd_pts_result_t* r, iospd_err_t* err) {
  static const iospd_pts_hooks_t none = {0};
  if (hooks == NULL) hooks = &none;
  memset(r, 0, sizeof *r);
  iospd_strbuf_init(&r->reasons);
  iospd_strbuf_init(&r->seen);
  const iospd_pts_opts_t* o = &p->ext.pts;
  r->test = o->test;
  r->ticks_per_second = sys->ticks_per_second;
  iospd_ss_limits_pts(&r->limits);
  r->stopped = IOSPD_PTS_STOP_FAILED;
  if (p->timespan_count != 1 || p->timespans[0].target_count != 1)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--pts runs on exactly one target in one timespan "
                         "(give one target, no -X profile of several)");
  const iospd_timespan_t* ts = &p->timespans[0];
  const iospd_target_t* t = &ts->targets[0];
  iospd_pts_matrix_of(o->test, &r->matrix, &r->tracked_bs, &r->tracked_read);
  if (o->nbs > 0) {
    memcpy(r->matrix.bs, o->bs, o->nbs * sizeof o->bs[0]);
    r->matrix.nbs = o->nbs;
  }
  if (o->nmix > 0) {
    memcpy(r->matrix.read_pct, o->read_pct, o->nmix * sizeof o->read_pct[0]);
    r->matrix.nmix = o->nmix;
  }
  if (!in_list(r->matrix.bs, r->matrix.nbs, r->tracked_bs) ||
      !in_list(r->matrix.read_pct, r->matrix.nmix, r->tracked_read))
    return iospd_err_set(
        err, IOSPD_EUSAGE,
        "--pts-matrix: the %s test tracks block size %u at read %u %%, "
        "which the matrix must hold (add bs:%uK / read:%u)",
        iospd_pts_test_word(o->test), r->tracked_bs, r->tracked_read,
        r->tracked_bs / 1024, r->tracked_read);
  if (t->create)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--pts writes the whole target; create a file first "
                         "(iospd -c<size> -d0 %s) and drop -c", t->path);
  r->cell_s = o->cell_s ? o->cell_s : IOSPD_PTS_CELL_S;
  r->path = t->path;
  r->threads = ts->thread_count ? ts->thread_count : t->threads_per_file;
  r->outstanding = ts->request_count ? ts->request_count : t->request_count;
  if (r->threads == 0) r->threads = 1;
  if (r->outstanding == 0) r->outstanding = 1;
  if (o->test == IOSPD_PTS_LATENCY) r->threads = r->outstanding = 1;
  if (o->cell_s != 0 && o->cell_s != IOSPD_PTS_CELL_S)
    iospd_strbuf_appendf(&r->reasons, "cells of %u s (PTS: 60 s)\n", r->cell_s);
  if (o->nbs > 0 || o->nmix > 0)
    iospd_strbuf_append(&r->reasons,
                        "a reduced matrix (--pts-matrix), not the test's "
                        "own\n");
  if (t->cache_mode != IOSPD_CACHE_DISABLE_OS)
    iospd_strbuf_append(&r->reasons,
                        "the OS cache is on (PTS measures the device: use "
                        "-Sh or -Su)\n");

  /* The target: -c is refused above; the run's own checks (a disk or
   * volume holding data needs --allow-raw-write; the size) with a write
   * profile, as preconditioning writes everywhere. */
  iospd_file_info_t info;
  memset(&info, 0, sizeof info);
  int rc = iospd_plat_path_info(t->path, &info, err);
  if (rc < 0) return rc;
  {
    iospd_profile_t wp;
    rc = cell_profile(p, r, IOSPD_PTS_WIPC_BLOCK, 0, &wp);
    iospd_timespan_result_t tsr;
    memset(&tsr, 0, sizeof tsr);
    cell_msgs_t cm = {hooks, &r->seen};
    iospd_run_hooks_t rh = {.message = run_message, .ctx = &cm};
    if (rc == 0)
      rc = iospd_run_prepare_targets(&wp, &wp.timespans[0], &rh, &tsr, err);
    for (uint32_t w = 0; w < tsr.warning_count; w++)
      iospd_free(tsr.warnings[w].text);
    iospd_free(tsr.warnings);
    iospd_profile_destroy(&wp);
    if (rc < 0) return rc;
  }
  iospd_target_kind_t kind = iospd_target_kind(t->path);
  r->kind = !info.is_device ? "file"
            : kind == IOSPD_TARGET_VOLUME ? "volume" : "disk";
  r->capacity = info.size;
  if (t->max_file_size != 0 && t->max_file_size < r->capacity)
    r->capacity = t->max_file_size;
  if (!info.is_device) {
    iospd_strbuf_append(&r->reasons,
                        "the target is a file: PTS measures devices\n");
    say(hooks, IOSPD_MSG_NOTE,
        "--pts on a file: PTS measures devices; the file system and its "
        "cache sit between iospd and the drive");
  }

  /* Static: the platform's Ctrl-C callback keeps its argument after this
   * call returns. */
  static iospd_run_session_t session;
  iospd_run_session_t* sp = &session;
  iospd_run_session_init(sp);
  (void)iospd_plat_on_interrupt(on_interrupt, sp, NULL);
  if (resume != NULL) {
    rc = check_resume(r, resume, err);
    if (rc < 0) return rc;
    for (uint32_t i = 0; i < resume->nrounds; i++) {
      r->rounds[i] = resume->rounds[i];
      resume->rounds[i].cells = NULL;
    }
    r->nrounds = r->resumed_rounds = resume->nrounds;
    resume->nrounds = 0;
    r->purge = resume->purge;
    r->purge_seconds = resume->purge_seconds;
    r->wipc_done = resume->wipc_done;
    r->wipc_bytes = resume->wipc_bytes;
    r->wipc_writes = resume->wipc_writes;
    r->wipc_seconds = resume->wipc_seconds;
    say(hooks, IOSPD_MSG_INFO,
        "--pts-resume: %u finished round%s kept; purge and preconditioning "
        "are not repeated", r->nrounds, r->nrounds == 1 ? "" : "s");
  } else if (o->purge != IOSPD_PTS_PURGE_NONE) {
    rc = purge(p, &info, kind, r, err);
    if (rc < 0) return rc;
  }
  if (resume == NULL) {
    status(hooks, "--pts: preconditioning (WIPC): %llu MiB of 128 KiB writes",
           (unsigned long long)(2 * r->capacity >> 20));
    rc = iospd_pts_wipc(sp, p, hooks, r, err);
    if (rc < 0) return rc;
    if (r->interrupted) {
      r->stopped = IOSPD_PTS_STOP_INTERRUPTED;
      return 0;
    }
    say(hooks, IOSPD_MSG_INFO,
        "--pts: preconditioned: %llu writes of 128 KiB (%llu bytes) in %.1f "
        "s",
        (unsigned long long)r->wipc_writes, (unsigned long long)r->wipc_bytes,
        r->wipc_seconds);
  }

  uint32_t ncells = r->matrix.nbs * r->matrix.nmix;
  double yv[IOSPD_SS_MAX_ROUNDS_PTS];
  for (uint32_t k = 0; k < r->nrounds; k++) yv[k] = r->rounds[k].tracked;
  for (uint32_t k = r->nrounds; k < r->limits.max_rounds; k++) {
    iospd_pts_round_t* rd = &r->rounds[k];
    rd->n = k + 1;
    rd->cells = iospd_calloc(ncells, sizeof *rd->cells);
    if (rd->cells == NULL)
      return iospd_err_set(err, IOSPD_ENOMEM, "out of memory for a PTS round");
    bool tracked_seen = false;
    for (uint32_t mi = 0; mi < r->matrix.nmix; mi++)
      for (uint32_t bi = 0; bi < r->matrix.nbs; bi++) {
        uint32_t bs = r->matrix.bs[bi], rdp = r->matrix.read_pct[mi];
        uint32_t left_cells = (r->limits.max_rounds - k) * ncells - rd->ncells;
        char ex[96] = "";
        if (r->window.valid)
          snprintf(ex, sizeof ex, ", window excursions %.1f %% / %.1f %%",
                   r->window.data_excursion_pct, r->window.slope_excursion_pct);
        status(hooks,
               "--pts: round %u of at most %u, cell %u/%u (%u KiB, read %u "
               "%%)%s, at most %u s left",
               k + 1, r->limits.max_rounds, rd->ncells + 1, ncells,
               bs / 1024, rdp, ex, left_cells * r->cell_s);
        iospd_pts_cell_t* c = &rd->cells[rd->ncells];
        rc = run_cell(sp, p, sys, hooks, r, bs, rdp, c, err);
        if (rc < 0) {
          snprintf(r->error, sizeof r->error, "%s", err->msg);
          r->nrounds = k; /* the round is not whole */
          iospd_free(rd->cells);
          rd->cells = NULL;
          r->stopped = IOSPD_PTS_STOP_FAILED;
          return 0;
        }
        if (iospd_run_session_interrupted(sp)) {
          /* A cut cell is no measurement: the round is dropped. */
          iospd_free(rd->cells);
          rd->cells = NULL;
          r->nrounds = k;
          r->interrupted = true;
          r->stopped = IOSPD_PTS_STOP_INTERRUPTED;
          return 0;
        }
        rd->ncells++;
        if (bs == r->tracked_bs && rdp == r->tracked_read && !tracked_seen) {
          rd->tracked = tracked_of(r, c);
          tracked_seen = true;
        }
      }
    r->nrounds = k + 1;
    yv[k] = rd->tracked;
    iospd_ss_next_t next =
        iospd_ss_after_round(yv, r->nrounds, &r->limits, &r->window);
    if (next == IOSPD_SS_STEADY) {
      r->converged = true;
      r->stopped = IOSPD_PTS_STOP_STEADY;
      return 0;
    }
    if (next == IOSPD_SS_MAX_ROUNDS) break;
  }
  r->stopped = IOSPD_PTS_STOP_MAX_ROUNDS;
  return 0;
}

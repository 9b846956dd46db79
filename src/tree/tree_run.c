/* SPDX-License-Identifier: MIT */
/* The file-tree workload (--tree, docs/tree.md, "How the I/O is issued"),
 * behind the controller's workload table (iospd/workload.h): src/run/run.c
 * runs the timespan (phases, deadlines, -y events, Ctrl-C, -v, -P, CPU
 * usage, affinity, the interval feed); this file prepares the tree, gives
 * each of the -t workers its loop of synchronous I/Os through the
 * platform's tree calls, and with --relocate runs one more thread that
 * renames files between leaves. The controller runs the profile the
 * reports show: the one target split into the hot class (target 0) and the
 * cold class (target 1); every worker issues to both, so the per-target
 * statistics, the time series and the status line are the classes'. The
 * metadata latencies go into iospd_tree_results_t (out->tree).
 *
 * Sharing between threads, all lock-free:
 *  - where each file is: loc[i] = leaf | MOVING bit | version << 33. The
 *    relocator sets MOVING before its rename and stores the new leaf with
 *    the next version after it; a worker whose open fails with "not found"
 *    while loc[i] changed (or is MOVING) opens again at the new place.
 *  - with --append the end of each file: end[i], advanced with fetch_add,
 *    so every append has its own range and none overwrites another. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/engine.h"
#include "iospd/platform.h"
#include "iospd/rand.h"
#include "iospd/run.h"
#include "iospd/stats.h"
#include "iospd/tree.h"
#include "iospd/workload.h"
#include "../run/interval_feed.h"

#define SLOTS 16u /* open handles a worker keeps: slot = file mod SLOTS */
#define MOVING (1ull << 32)
#define LEAF(v) ((uint32_t)((v) & 0xffffffffu))

/* One run's tree: made by prepare, freed by finish. */
typedef struct tree_state_s {
  const iospd_profile_t* p; /* the user's profile */
  iospd_profile_t* rp;      /* the classes' (out->profile) */
  const iospd_target_t* t;  /* the user's target: the settings */
  const iospd_tree_opts_t* o;
  iospd_tree_layout_t l;
  iospd_tree_state_t st;
  iospd_tree_results_t* tree;
  uint64_t tps;
  uint64_t seed;
  _Atomic uint64_t* loc;
  _Atomic uint64_t* end;
  unsigned open_flags;
  /* -g in bytes per ms for the tree's block size: -g<n>i is converted by
   * the command line with the block size it had then, and the tree's
   * default -b comes after. */
  uint64_t bpms;
  uint32_t slots; /* -o: slot workers per thread */
  uint32_t burst; /* -i for each slot worker */
  /* the timespan's controller block, seen by worker 0's set-up */
  iospd_engine_ctl_t* ctl;
  /* relocator */
  iospd_plat_thread_t* mover;
  _Atomic uint64_t go_ticks; /* worker 0 passed the start gate */
  _Atomic uint32_t mover_quit;
  iospd_hist_t* meta_rename;
  uint64_t relocations, relocations_total, retries;
  int mover_error;
  iospd_err_t mover_err;
} tree_state_t;

typedef struct slot_s {
  uint32_t file;
  bool open;
  iospd_tree_fh_t fh;
} slot_t;

/* One worker's own (w->wl_state). */
typedef struct tree_worker_s {
  tree_state_t* s;
  iospd_rand_t rng;
  uint8_t* buf;
  uint32_t buf_len;
  char path[IOSPD_TREE_PATH_MAX];
  slot_t slots[SLOTS];
  iospd_hist_t* meta_open;
  iospd_hist_t* meta_close;
  uint64_t ticks_per_ms;
  /* -g and -i/-j for the thread as a whole (both classes). */
  uint64_t meter_start, issued_bytes, think_until;
  uint32_t burst_count;
  uint64_t progress_left;
  int error;
  iospd_err_t err;
} tree_worker_t;

static uint64_t to_ns(uint64_t d, uint64_t tps) {
  if (tps == 1000000000u) return d;
  return d / tps * 1000000000u + d % tps * 1000000000u / tps;
}

/* The phase a worker is in at tick now: the controller's, with its
 * deadlines applied by the worker's own clock (iospd/engine.h). */
static uint32_t phase_now(const iospd_engine_ctl_t* ctl, uint64_t now) {
  uint32_t phase = atomic_load_explicit(&ctl->phase, memory_order_acquire);
  if (phase == IOSPD_PHASE_MEASURE || phase == IOSPD_PHASE_COOLDOWN) {
    if (now > atomic_load_explicit(&ctl->stop_ticks, memory_order_relaxed))
      return IOSPD_PHASE_STOP;
    if (phase == IOSPD_PHASE_MEASURE &&
        now > atomic_load_explicit(&ctl->measure_end_ticks,
                                   memory_order_relaxed))
      return IOSPD_PHASE_COOLDOWN;
  }
  return phase;
}

static bool mover_done(tree_state_t* r) {
  return atomic_load(&r->mover_quit) || atomic_load(&r->ctl->failed) ||
         phase_now(r->ctl, iospd_plat_ticks()) == IOSPD_PHASE_STOP;
}

static void fail_worker(iospd_worker_t* w, int rc, const char* what) {
  tree_worker_t* tw = w->wl_state;
  if (tw->error == 0) {
    tw->error = rc;
    if (tw->err.msg[0] == '\0')
      iospd_err_set(&tw->err, rc, "thread %" PRIu32 ": %s: %s", w->id, what,
                    iospd_strerror(rc));
  }
  atomic_store(&w->ctl->failed, 1);
}

/* Opens file f where it is now (see the top of the file). */
static int open_file(tree_worker_t* tw, uint32_t f, iospd_tree_fh_t* fh) {
  tree_state_t* r = tw->s;
  for (;;) {
    uint64_t v = atomic_load(&r->loc[f]);
    if (v & MOVING) {
      iospd_plat_sleep(0);
      continue;
    }
    iospd_tree_file_path(tw->path, sizeof tw->path, r->l.leaves[LEAF(v)], f);
    iospd_err_clear(&tw->err);
    int rc = iospd_plat_tree_open(tw->path, r->open_flags, fh, &tw->err);
    if (rc == 0) return 0;
    if (rc == IOSPD_ENOENT && atomic_load(&r->loc[f]) != v) continue;
    return rc;
  }
}

/* --relocate: RATE renames a second, from the start of the warm-up to the
 * end; a random file goes to another leaf, chosen at random. */
static void mover_main(void* arg) {
  tree_state_t* r = arg;
  const iospd_tree_layout_t* l = &r->l;
  iospd_rand_t rng;
  iospd_rand_seed(&rng, r->seed ^ 0x72656c6f63617465ull);
  char from[IOSPD_TREE_PATH_MAX], to[IOSPD_TREE_PATH_MAX];
  /* From the start of the warm-up (worker 0 is let go) to the stop. */
  uint64_t start;
  while ((start = atomic_load(&r->go_ticks)) == 0 && !mover_done(r))
    iospd_plat_sleep(1);
  uint64_t done = 0;
  while (!mover_done(r)) {
    uint64_t due = (iospd_plat_ticks() - start) / (r->tps / 1000u) *
                   r->o->relocate_rate / 1000u;
    if (done >= due) {
      iospd_plat_sleep(1);
      continue;
    }
    uint32_t f = (uint32_t)(iospd_rand64(&rng) % l->files);
    uint64_t v = atomic_load(&r->loc[f]);
    uint32_t a = LEAF(v);
    uint32_t b = (uint32_t)((a + 1 + iospd_rand64(&rng) % (l->leaf_count - 1)) %
                            l->leaf_count);
    atomic_store(&r->loc[f], v | MOVING);
    iospd_tree_file_path(from, sizeof from, l->leaves[a], f);
    iospd_tree_file_path(to, sizeof to, l->leaves[b], f);
    bool measuring = phase_now(r->ctl, iospd_plat_ticks()) == IOSPD_PHASE_MEASURE;
    iospd_err_clear(&r->mover_err);
    uint64_t t0 = iospd_plat_ticks();
    int rc = iospd_plat_rename_noreplace(from, to, &r->mover_err);
    uint64_t t1 = iospd_plat_ticks();
    uint64_t version = (v >> 33) + 1;
    if (rc == 0) {
      atomic_store(&r->loc[f], (version << 33) | b);
      done++;
      r->relocations_total++;
      if (measuring) {
        r->relocations++;
        iospd_hist_record(r->meta_rename, to_ns(t1 - t0, r->tps));
      }
    } else {
      atomic_store(&r->loc[f], (version << 33) | a);
      if (rc == IOSPD_EAGAIN) {
        /* Held by another process without delete sharing (Windows): the
         * file stays where it was; try another one. */
        r->retries++;
        done++;
        continue;
      }
      r->mover_error = rc;
      atomic_store(&r->ctl->failed, 1);
      break;
    }
  }
}



/* ---- the workload's calls -------------------------------------------- */

static int setup_worker(void* state, iospd_worker_t* w, iospd_err_t* err) {
  tree_state_t* s = state;
  const iospd_target_t* t = s->t;
  tree_worker_t* tw = iospd_calloc(1, sizeof *tw);
  if (tw == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  w->wl_state = tw;
  tw->s = s;
  tw->ticks_per_ms = s->tps >= 1000 ? s->tps / 1000 : 1;
  iospd_rand_seed(&tw->rng, s->seed + w->id);
  tw->buf_len = t->block_size;
  tw->buf = iospd_plat_buf_alloc(t->block_size, 4096, 0);
  tw->meta_open = iospd_hist_create();
  tw->meta_close = iospd_hist_create();
  if (tw->buf == NULL || tw->meta_open == NULL || tw->meta_close == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  /* The write content: DISKSPD's pattern (byte k = k mod 256), or zeros
   * with -Z. */
  for (uint32_t k = 0; k < t->block_size; k++)
    tw->buf[k] = t->pattern == IOSPD_PATTERN_ZERO ? 0 : (uint8_t)k;
  uint64_t duration_ms = (uint64_t)w->ts->duration * 1000u;
  for (uint32_t k = 0; k < w->target_count; k++) {
    iospd_wtarget_t* tg = &w->targets[k];
    uint32_t files = k == 0 ? s->l.hot_files : s->l.files - s->l.hot_files;
    tg->file_size = files * s->l.file_size;
    int rc = iospd_target_stats_init(tg->stats, w->ts->measure_latency,
                                     w->ts->calc_iops_stddev,
                                     w->ts->io_bucket_ms, duration_ms);
    if (rc < 0)
      return iospd_err_set(err, rc, "out of memory for the statistics");
  }
  if (w->id == 0) {
    s->ctl = w->ctl;
    atomic_store(&s->go_ticks, 0);
    atomic_store(&s->mover_quit, 0);
    if (s->o->relocate_rate > 0) {
      iospd_thread_opts_t topt = {.pin = false, .group = 0,
                                  .cpu = IOSPD_CPU_ANY};
      int rc = iospd_plat_thread_start(&s->mover, &topt, mover_main, s, err);
      if (rc < 0) return rc;
    }
  }
  return 0;
}

static int tree_setup(void* state, iospd_worker_t* w, iospd_err_t* err) {
  int rc = setup_worker(state, w, err);
  w->setup_rc = rc < 0 ? rc : 0;
  return rc;
}

static void tree_begin(iospd_worker_t* w) {
  tree_worker_t* tw = w->wl_state;
  uint64_t now = iospd_plat_ticks();
  tw->meter_start = now;
  tw->progress_left = w->ctl->progress;
  w->begun = true;
  if (w->id == 0) atomic_store(&tw->s->go_ticks, now ? now : 1);
}

/* -g and -i/-j for the thread (docs/tree.md): milliseconds to wait before
 * the next I/O, 0 to go. */
static uint32_t throttle_wait(const iospd_worker_t* w, tree_worker_t* tw,
                              uint64_t now) {
  const iospd_target_t* t = tw->s->t;
  uint64_t bpms = tw->s->bpms;
  if (bpms > 0) {
    uint64_t elapsed = (now - tw->meter_start) / tw->ticks_per_ms;
    uint64_t need = tw->issued_bytes + t->block_size;
    if (elapsed * bpms >= need) return 0;
    uint64_t due = need / bpms;
    uint64_t ms = due > elapsed ? due - elapsed : 1;
    (void)w;
    return ms > IOSPD_POLL_MS ? IOSPD_POLL_MS : (uint32_t)(ms ? ms : 1);
  }
  if (t->think_time > 0 && t->burst_size > 0 && now < tw->think_until) {
    uint64_t ms = (tw->think_until - now + tw->ticks_per_ms - 1) /
                  tw->ticks_per_ms;
    return ms > IOSPD_POLL_MS ? IOSPD_POLL_MS : (uint32_t)(ms ? ms : 1);
  }
  return 0;
}

static void throttle_issued(tree_worker_t* tw, uint64_t now) {
  const iospd_target_t* t = tw->s->t;
  tw->issued_bytes += t->block_size;
  if (tw->s->bpms == 0 && t->think_time > 0 && t->burst_size > 0 &&
      ++tw->burst_count >= tw->s->burst) {
    tw->burst_count = 0;
    tw->think_until = now + (uint64_t)t->think_time * tw->ticks_per_ms;
  }
}

/* One I/O (or one throttle wait). True once the worker has stopped. */
static bool tree_pass(iospd_worker_t* w) {
  tree_worker_t* tw = w->wl_state;
  tree_state_t* r = tw->s;
  if (w->finished) return true;
  const iospd_tree_layout_t* l = &r->l;
  const uint32_t bs = r->t->block_size;
  const uint64_t blocks = l->file_size / bs;
  const uint32_t hot = l->hot_files;
  const uint32_t cold = l->files - hot;
  const uint64_t sum = (uint64_t)r->o->skew_hot + r->o->skew_cold;
  const uint32_t wpct = r->t->write_ratio;
  uint64_t now = iospd_plat_ticks();
  uint32_t phase = phase_now(w->ctl, now);
  if (phase == IOSPD_PHASE_STOP ||
      atomic_load_explicit(&w->ctl->failed, memory_order_relaxed)) {
    w->finished = true;
    if (w->series != NULL)
      iospd_wseries_move(w->series, w->ctl, IOSPD_PHASE_STOP, now);
    return true;
  }
  uint32_t wait = throttle_wait(w, tw, now);
  if (wait > 0) {
    if (w->wait) w->wait->throttle_sleep++;
    iospd_plat_sleep(wait);
    return false;
  }
  /* The class (hot with probability hot/(hot+cold) when there are cold
   * files), then a file of that class, uniformly. */
  bool is_hot = cold == 0 || iospd_rand64(&tw->rng) % sum < r->o->skew_hot;
  uint32_t f = is_hot ? (uint32_t)(iospd_rand64(&tw->rng) % hot)
                      : hot + (uint32_t)(iospd_rand64(&tw->rng) % cold);
  bool write = wpct == 100 || (wpct > 0 && iospd_rand_ratio(&tw->rng, wpct));
  bool measuring = phase == IOSPD_PHASE_MEASURE;
  slot_t* s = &tw->slots[f % SLOTS];
  if (!s->open || s->file != f) {
    if (s->open) {
      uint64_t c0 = iospd_plat_ticks();
      int crc = iospd_plat_tree_close(s->fh);
      uint64_t c1 = iospd_plat_ticks();
      s->open = false;
      if (crc < 0) {
        fail_worker(w, crc, "closing a file of the tree");
        return false;
      }
      if (measuring) iospd_hist_record(tw->meta_close, to_ns(c1 - c0, r->tps));
    }
    uint64_t o0 = iospd_plat_ticks();
    int orc = open_file(tw, f, &s->fh);
    uint64_t o1 = iospd_plat_ticks();
    if (orc < 0) {
      if (tw->error == 0) tw->error = orc;
      atomic_store(&w->ctl->failed, 1);
      return false;
    }
    s->open = true;
    s->file = f;
    if (measuring) iospd_hist_record(tw->meta_open, to_ns(o1 - o0, r->tps));
  }
  uint64_t off = write && r->o->append
                     ? atomic_fetch_add(&r->end[f], bs)
                     : (iospd_rand64(&tw->rng) % blocks) * bs;
  uint64_t t0 = iospd_plat_ticks();
  int64_t n = write ? iospd_plat_tree_write(s->fh, tw->buf, bs, off)
                    : iospd_plat_tree_read(s->fh, tw->buf, bs, off);
  uint64_t t1 = iospd_plat_ticks();
  if (r->bpms > 0 || r->t->think_time > 0)
    throttle_issued(tw, t0);
  if (n != (int64_t)bs) {
    iospd_tree_file_path(tw->path, sizeof tw->path,
                         l->leaves[LEAF(atomic_load(&r->loc[f]))], f);
    iospd_err_set(&tw->err, n < 0 ? (int)n : IOSPD_EIO,
                  "thread %" PRIu32 ": %s of %" PRIu32 " bytes at offset "
                  "%" PRIu64 " of '%s' %s",
                  w->id, write ? "write" : "read", bs, off, tw->path,
                  n < 0 ? iospd_strerror((int)n) : "came back short");
    fail_worker(w, n < 0 ? (int)n : IOSPD_EIO, "I/O");
    return false;
  }
  /* The phase of the completion decides where it counts, as in the block
   * loop. */
  phase = phase_now(w->ctl, t1);
  measuring = phase == IOSPD_PHASE_MEASURE;
  uint32_t k = is_hot ? 0 : 1;
  int op = write ? IOSPD_OP_WRITE : IOSPD_OP_READ;
  uint64_t lat = to_ns(t1 - t0, r->tps);
  if (w->series != NULL && phase != IOSPD_PHASE_STOP) {
    iospd_wseries_at(w->series, w->ctl, phase, t1);
    iospd_wseries_record(w->series, k, op, bs, lat);
  }
  if (measuring) {
    uint64_t m0 = w->ctl->measure_start_ticks;
    iospd_target_stats_record(w->targets[k].stats, op, bs, lat,
                              to_ns(t1 > m0 ? t1 - m0 : 0, r->tps));
  }
  if (w->ctl->progress != 0 && --tw->progress_left == 0) {
    tw->progress_left = w->ctl->progress;
    if (w->ctl->progress_dot != NULL)
      w->ctl->progress_dot(w->ctl->progress_ctx);
  }
  return false;
}

static void tree_worker_run(iospd_worker_t* w) {
  tree_begin(w);
  iospd_hot_enter();
  while (!tree_pass(w)) {
  }
  iospd_hot_leave();
  tree_worker_t* tw = w->wl_state;
  for (uint32_t k = 0; k < SLOTS; k++)
    if (tw->slots[k].open) {
      (void)iospd_plat_tree_close(tw->slots[k].fh);
      tw->slots[k].open = false;
    }
}

static void tree_teardown(iospd_worker_t* w) {
  tree_worker_t* tw = w->wl_state;
  if (tw == NULL) return;
  for (uint32_t k = 0; k < SLOTS; k++)
    if (tw->slots[k].open) (void)iospd_plat_tree_close(tw->slots[k].fh);
  if (w->id == 0 && tw->s->mover != NULL) {
    atomic_store(&tw->s->mover_quit, 1);
    iospd_plat_thread_join(tw->s->mover);
    tw->s->mover = NULL;
  }
  /* The metadata latencies join the run's (collect reads them after). */
  if (tw->meta_open != NULL)
    iospd_hist_merge(tw->s->tree->meta[IOSPD_TREE_META_OPEN], tw->meta_open);
  if (tw->meta_close != NULL)
    iospd_hist_merge(tw->s->tree->meta[IOSPD_TREE_META_CLOSE],
                     tw->meta_close);
  iospd_hist_destroy(tw->meta_open);
  iospd_hist_destroy(tw->meta_close);
  if (tw->buf != NULL) iospd_plat_buf_free(tw->buf, tw->buf_len);
  w->wl_state = NULL;
  /* The worker's error outlives its state: kept in the setup slot. */
  if (tw->error != 0 && w->setup_rc == 0) {
    w->setup_rc = tw->error;
    w->setup_err = tw->err;
    if (w->setup_err.msg[0] == '\0')
      iospd_err_set(&w->setup_err, tw->error, "thread %" PRIu32 ": %s",
                    w->id, iospd_strerror(tw->error));
  }
  iospd_free(tw);
}

/* After the teardown, which kept the loop's first failure in setup_rc. */
static int tree_error(const iospd_worker_t* w, iospd_err_t* err) {
  if (w->setup_rc >= 0) return 0;
  if (err != NULL) *err = w->setup_err;
  return w->setup_rc;
}

/* The profile the reports show: the one target split into the hot and
 * the cold class (paths "<dirs> [hot: N files]"). Freed by
 * report_profile_free. */
static iospd_profile_t* report_profile(const iospd_profile_t* p,
                                       const iospd_tree_layout_t* l) {
  iospd_profile_t* rp = iospd_calloc(1, sizeof *rp);
  iospd_timespan_t* ts = iospd_calloc(1, sizeof *ts);
  iospd_target_t* t = iospd_calloc(2, sizeof *t);
  if (rp == NULL || ts == NULL || t == NULL) goto oom;
  *rp = *p;
  *ts = p->timespans[0];
  rp->timespans = ts;
  rp->timespan_count = 1;
  ts->targets = t;
  ts->target_count = 0;
  for (int k = 0; k < 2; k++) {
    if (iospd_target_copy(&t[k], &p->timespans[0].targets[0]) != 0) goto oom;
    ts->target_count++;
    char name[IOSPD_TREE_PATH_MAX];
    uint32_t n = k == 0 ? l->hot_files : l->files - l->hot_files;
    snprintf(name, sizeof name, "%s [%s: %" PRIu32 " file%s]",
             p->ext.tree.dirs, k == 0 ? "hot" : "cold", n, n == 1 ? "" : "s");
    if (iospd_target_set_path(&t[k], name) != 0) goto oom;
  }
  return rp;
oom:
  if (ts != NULL)
    for (uint32_t k = 0; k < ts->target_count; k++)
      iospd_target_destroy(&t[k]);
  iospd_free(t);
  iospd_free(ts);
  iospd_free(rp);
  return NULL;
}

void iospd_tree_report_profile_free(const iospd_profile_t* rp) {
  if (rp == NULL) return;
  iospd_timespan_t* ts = rp->timespans;
  for (uint32_t k = 0; k < ts->target_count; k++)
    iospd_target_destroy(&ts->targets[k]);
  iospd_free(ts->targets);
  iospd_free(ts);
  iospd_free((void*)rp);
}


/* The creation's hooks (iospd_tree_hooks_t) on the run's: notes and
 * progress as lines for the user, Ctrl-C between files. */
typedef struct prep_ctx_s {
  const iospd_run_hooks_t* hooks;
  const iospd_run_session_t* session;
} prep_ctx_t;

static void prep_note(void* ctx, const char* text) {
  const prep_ctx_t* c = ctx;
  if (c->hooks != NULL && c->hooks->message != NULL)
    c->hooks->message(c->hooks->ctx, IOSPD_MSG_INFO, text);
}

static void prep_progress(void* ctx, uint64_t done, uint64_t total) {
  char line[96];
  snprintf(line, sizeof line, "created %llu of %llu files%s",
           (unsigned long long)done, (unsigned long long)total,
           done == total ? ": done" : "");
  prep_note(ctx, line);
}

static bool prep_stop(void* ctx) {
  const prep_ctx_t* c = ctx;
  return iospd_run_session_interrupted(c->session);
}

static int tree_prepare(const iospd_profile_t* p,
                        const iospd_run_hooks_t* hooks,
                        const iospd_run_session_t* session,
                        iospd_results_t* out,
                        const iospd_profile_t** run, void** state,
                        iospd_err_t* err) {
  tree_state_t* s = iospd_calloc(1, sizeof *s);
  if (s == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  *state = s;
  s->p = p;
  s->o = &p->ext.tree;
  s->t = &p->timespans[0].targets[0];
  s->seed = p->timespans[0].rand_seed;
  s->tps = out->sys.ticks_per_second;
  s->bpms = s->t->throughput_iops
                ? (uint64_t)s->t->throughput_iops * s->t->block_size / 1000u
                : s->t->throughput_bpms;
  /* -g and -i are the thread's, as in DISKSPD: each of its -o slot
   * workers takes its share. */
  s->slots = s->t->request_count ? s->t->request_count : 1;
  if (s->bpms > 0) s->bpms = s->bpms / s->slots ? s->bpms / s->slots : 1;
  s->burst = s->t->burst_size / s->slots ? s->t->burst_size / s->slots : 1;
  s->tree = iospd_calloc(1, sizeof *s->tree);
  if (s->tree == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  out->tree = s->tree;
  iospd_tree_results_t* tree = s->tree;
  for (int k = 0; k < IOSPD_TREE_META_COUNT; k++)
    if ((tree->meta[k] = iospd_hist_create()) == NULL)
      return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  s->meta_rename = tree->meta[IOSPD_TREE_META_RENAME];
  int rc = iospd_tree_layout_init(&s->l, s->o, s->seed, err);
  if (rc < 0) return rc;
  tree->files = s->l.files;
  tree->hot_files = s->l.hot_files;
  tree->dir_count = s->l.dir_count;
  tree->leaf_count = s->l.leaf_count;
  tree->file_size = s->l.file_size;
  prep_ctx_t pc = {hooks, session};
  iospd_tree_hooks_t th = {.note = prep_note,
                           .progress = prep_progress,
                           .stop = prep_stop,
                           .ctx = &pc};
  uint64_t c0 = iospd_plat_ticks();
  rc = iospd_tree_prepare(&s->l, s->o, s->seed, &th,
                          tree->meta[IOSPD_TREE_META_CREATE], &s->st, err);
  tree->created = s->st.created;
  tree->create_seconds = (double)(iospd_plat_ticks() - c0) / (double)s->tps;
  if (rc < 0) return rc;
  s->open_flags = s->t->write_ratio > 0 ? IOSPD_TREE_OPEN_WRITE : 0;
  if (s->t->cache_mode == IOSPD_CACHE_DISABLE_OS)
    s->open_flags |= IOSPD_TREE_OPEN_UNBUFFERED;
  if (s->t->write_through) s->open_flags |= IOSPD_TREE_OPEN_WRITE_THROUGH;
  s->loc = iospd_calloc(s->l.files, sizeof *s->loc);
  s->end = iospd_calloc(s->l.files, sizeof *s->end);
  s->rp = report_profile(p, &s->l);
  if (s->loc == NULL || s->end == NULL || s->rp == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < s->l.files; i++) {
    atomic_init(&s->loc[i], s->st.loc[i]);
    atomic_init(&s->end[i], s->st.size[i]);
  }
  *run = s->rp;
  return 0;
}

/* Folds each thread's -o slot workers (iospd/workload.h slot_workers)
 * into one thread result: thread i is workers i*o .. i*o+o-1. */
static int tree_collect(void* state, iospd_worker_t* const* w, uint32_t n,
                        iospd_timespan_result_t* tsr, iospd_err_t* err) {
  tree_state_t* s = state;
  (void)w;
  uint32_t o = s->t->request_count ? s->t->request_count : 1;
  if (n > tsr->thread_count) n = tsr->thread_count;
  uint32_t threads = n / o;
  int rc = 0;
  for (uint32_t i = 0; i < threads; i++) {
    iospd_thread_result_t th = tsr->threads[i * o];
    for (uint32_t j = 1; j < o; j++) {
      iospd_thread_result_t* src = &tsr->threads[i * o + j];
      for (uint32_t k = 0; k < th.target_count && k < src->target_count;
           k++) {
        if (rc == 0)
          rc = iospd_target_stats_merge(&th.targets[k].stats,
                                        &src->targets[k].stats);
        iospd_target_stats_destroy(&src->targets[k].stats);
        iospd_free(src->targets[k].dist);
      }
      th.wait.completion_wait += src->wait.completion_wait;
      th.wait.throttle_wait += src->wait.throttle_wait;
      th.wait.throttle_sleep += src->wait.throttle_sleep;
      iospd_free(src->targets);
      iospd_free(src->vfails);
      memset(src, 0, sizeof *src);
    }
    th.id = i;
    th.engine = "tree (synchronous)";
    th.depth_asked = o;
    th.depth_kept = o;
    tsr->threads[i] = th;
  }
  /* The folded entries are empty now: the results hold T threads. */
  tsr->thread_count = tsr->thread_count_alloc = threads;
  if (rc < 0)
    return iospd_err_set(err, rc, "out of memory merging the statistics");
  return 0;
}

static int tree_finish(void* state, const iospd_run_hooks_t* hooks,
                       iospd_results_t* out, int rc, iospd_err_t* err) {
  tree_state_t* s = state;
  if (s == NULL) return rc;
  out->engine_name = "tree (synchronous)";
  iospd_tree_results_t* tree = s->tree;
  if (tree != NULL) {
    tree->relocations = s->relocations;
    tree->relocations_total = s->relocations_total;
    tree->relocation_retries = s->retries;
  }
  /* The files are where the run left them: cleanup follows them. */
  if (s->st.loc != NULL && s->loc != NULL)
    for (uint32_t i = 0; i < s->l.files; i++)
      s->st.loc[i] = LEAF(atomic_load(&s->loc[i]));
  if (rc == 0 && s->mover_error != 0) {
    rc = s->mover_error;
    if (err != NULL) *err = s->mover_err;
  }
  if (s->o->cleanup && s->st.loc != NULL) {
    iospd_err_t cerr;
    iospd_err_clear(&cerr);
    int crc = iospd_tree_cleanup(&s->l, &s->st, &cerr);
    if (tree != NULL) tree->cleaned = crc == 0;
    if (crc < 0 && rc == 0) {
      rc = crc;
      if (err != NULL) *err = cerr;
    }
    if (hooks != NULL && hooks->message != NULL && crc == 0)
      hooks->message(hooks->ctx, IOSPD_MSG_INFO,
                     "--cleanup: the tree was removed");
  }
  if (out->timespan_count > 0 && rc < 0 && out->timespans[0].error[0] == '\0')
    snprintf(out->timespans[0].error, sizeof out->timespans[0].error, "%s",
             err != NULL && err->msg[0] ? err->msg : iospd_strerror(rc));
  iospd_free((void*)s->loc);
  iospd_free((void*)s->end);
  iospd_tree_state_free(&s->st);
  iospd_tree_layout_free(&s->l);
  /* out->profile (s->rp) and out->tree stay for the reports:
   * iospd_run_release frees them. */
  if (out->profile != s->rp) iospd_tree_report_profile_free(s->rp);
  iospd_free(s);
  return rc;
}

const iospd_workload_t iospd_workload_tree = {
    .name = "tree",
    .refuses = IOSPD_WL_NO_TARGET_FILES | IOSPD_WL_NO_MAPPED |
               IOSPD_WL_NO_VERIFY | IOSPD_WL_NO_SHARED_SLOTS |
               IOSPD_WL_NO_FLUSH | IOSPD_WL_NO_RANDOM_DATA,
    .block_targets = false,
    .every_target = true,
    .slot_workers = true,
    .prepare = tree_prepare,
    .setup = tree_setup,
    .begin = tree_begin,
    .pass = tree_pass,
    .run = tree_worker_run,
    .teardown = tree_teardown,
    .error = tree_error,
    .collect = tree_collect,
    .finish = tree_finish,
};

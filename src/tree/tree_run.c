/* SPDX-License-Identifier: MIT */
/* The --tree run (docs/tree.md, "How the I/O is issued"): a controller
 * like the one of src/run (warm-up, measuring, cool-down, CPU usage), -t
 * workers that each issue one synchronous I/O at a time through the
 * platform's tree calls, and with --relocate one more thread that renames
 * files between leaves. The results go into the usual results tree, with
 * the hot files as target 0 and the cold files as target 1, plus the
 * metadata latencies (iospd_tree_results_t).
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
#include "iospd/platform.h"
#include "iospd/rand.h"
#include "iospd/stats.h"
#include "iospd/tree.h"

#define SLOTS 16u /* open handles a worker keeps: slot = file mod SLOTS */
#define MOVING (1ull << 32)
#define LEAF(v) ((uint32_t)((v) & 0xffffffffu))

enum { PH_WARMUP = 0, PH_MEASURE, PH_COOLDOWN, PH_STOP };

typedef struct tree_run_s tree_run_t;

typedef struct slot_s {
  uint32_t file;
  bool open;
  iospd_tree_fh_t fh;
} slot_t;

typedef struct worker_s {
  tree_run_t* run;
  uint32_t id;
  iospd_rand_t rng;
  uint8_t* buf;
  char path[IOSPD_TREE_PATH_MAX];
  slot_t slots[SLOTS];
  iospd_target_stats_t cls[2]; /* 0 hot, 1 cold */
  iospd_hist_t* meta_open;
  iospd_hist_t* meta_close;
  iospd_plat_thread_t* thread;
  int error;
  iospd_err_t err;
} worker_t;

struct tree_run_s {
  const iospd_target_t* t;
  const iospd_tree_layout_t* l;
  const iospd_tree_opts_t* o;
  uint64_t tps;
  _Atomic uint64_t* loc;
  _Atomic uint64_t* end;
  _Atomic int phase;
  _Atomic int failed;
  _Atomic uint64_t measure_t0;
  iospd_plat_latch_t* gate;
  unsigned open_flags;
  /* relocator */
  iospd_plat_thread_t* mover;
  iospd_hist_t* meta_rename;
  uint64_t relocations, relocations_total, retries;
  int mover_error;
  iospd_err_t mover_err;
  uint64_t seed;
};

static _Atomic int g_tree_interrupted;

static void on_interrupt(void* arg) {
  (void)arg;
  atomic_store(&g_tree_interrupted, 1);
}

/* Creation stops between files on Ctrl-C. */
static bool stop_requested(void* ctx) {
  (void)ctx;
  return atomic_load(&g_tree_interrupted) != 0;
}

static uint64_t to_ns(uint64_t d, uint64_t tps) {
  if (tps == 1000000000u) return d;
  return d / tps * 1000000000u + d % tps * 1000000000u / tps;
}

static void fail_worker(worker_t* w, int rc, const char* what) {
  if (w->error == 0) {
    w->error = rc;
    if (w->err.msg[0] == '\0')
      iospd_err_set(&w->err, rc, "thread %" PRIu32 ": %s: %s", w->id, what,
                    iospd_strerror(rc));
  }
  atomic_store(&w->run->failed, 1);
}

/* Opens file f where it is now (see the top of the file). */
static int open_file(worker_t* w, uint32_t f, iospd_tree_fh_t* fh) {
  tree_run_t* r = w->run;
  for (;;) {
    uint64_t v = atomic_load(&r->loc[f]);
    if (v & MOVING) {
      iospd_plat_sleep(0);
      continue;
    }
    iospd_tree_file_path(w->path, sizeof w->path, r->l->leaves[LEAF(v)], f);
    iospd_err_clear(&w->err);
    int rc = iospd_plat_tree_open(w->path, r->open_flags, fh, &w->err);
    if (rc == 0) return 0;
    if (rc == IOSPD_ENOENT && atomic_load(&r->loc[f]) != v) continue;
    return rc;
  }
}

static void worker_main(void* arg) {
  worker_t* w = arg;
  tree_run_t* r = w->run;
  const iospd_tree_layout_t* l = r->l;
  const uint32_t bs = r->t->block_size;
  const uint64_t blocks = l->file_size / bs;
  const uint32_t hot = l->hot_files;
  const uint32_t cold = l->files - hot;
  const uint64_t sum = (uint64_t)r->o->skew_hot + r->o->skew_cold;
  const uint32_t wpct = r->t->write_ratio;
  const bool append = r->o->append;
  (void)iospd_plat_latch_wait(r->gate);
  iospd_hot_enter();
  while (atomic_load_explicit(&r->phase, memory_order_relaxed) != PH_STOP &&
         !atomic_load_explicit(&r->failed, memory_order_relaxed)) {
    /* The class (hot with probability hot/(hot+cold) when there are cold
     * files), then a file of that class, uniformly. */
    bool is_hot = cold == 0 || iospd_rand64(&w->rng) % sum < r->o->skew_hot;
    uint32_t f = is_hot ? (uint32_t)(iospd_rand64(&w->rng) % hot)
                        : hot + (uint32_t)(iospd_rand64(&w->rng) % cold);
    bool write = wpct == 100 || (wpct > 0 && iospd_rand_ratio(&w->rng, wpct));
    bool measuring =
        atomic_load_explicit(&r->phase, memory_order_relaxed) == PH_MEASURE;
    slot_t* s = &w->slots[f % SLOTS];
    if (!s->open || s->file != f) {
      if (s->open) {
        uint64_t c0 = iospd_plat_ticks();
        int crc = iospd_plat_tree_close(s->fh);
        uint64_t c1 = iospd_plat_ticks();
        s->open = false;
        if (crc < 0) {
          fail_worker(w, crc, "closing a file of the tree");
          break;
        }
        if (measuring) iospd_hist_record(w->meta_close, to_ns(c1 - c0, r->tps));
      }
      uint64_t o0 = iospd_plat_ticks();
      int orc = open_file(w, f, &s->fh);
      uint64_t o1 = iospd_plat_ticks();
      if (orc < 0) {
        w->error = orc;
        atomic_store(&r->failed, 1);
        break;
      }
      s->open = true;
      s->file = f;
      if (measuring) iospd_hist_record(w->meta_open, to_ns(o1 - o0, r->tps));
    }
    uint64_t off = write && append
                       ? atomic_fetch_add(&r->end[f], bs)
                       : (iospd_rand64(&w->rng) % blocks) * bs;
    uint64_t t0 = iospd_plat_ticks();
    int64_t n = write ? iospd_plat_tree_write(s->fh, w->buf, bs, off)
                      : iospd_plat_tree_read(s->fh, w->buf, bs, off);
    uint64_t t1 = iospd_plat_ticks();
    if (n != (int64_t)bs) {
      iospd_tree_file_path(w->path, sizeof w->path,
                           l->leaves[LEAF(atomic_load(&r->loc[f]))], f);
      iospd_err_set(&w->err, n < 0 ? (int)n : IOSPD_EIO,
                    "thread %" PRIu32 ": %s of %" PRIu32 " bytes at offset "
                    "%" PRIu64 " of '%s' %s",
                    w->id, write ? "write" : "read", bs, off, w->path,
                    n < 0 ? iospd_strerror((int)n) : "came back short");
      fail_worker(w, n < 0 ? (int)n : IOSPD_EIO, "I/O");
      break;
    }
    if (measuring) {
      uint64_t since =
          to_ns(t1 - atomic_load_explicit(&r->measure_t0,
                                          memory_order_relaxed), r->tps);
      iospd_target_stats_record(&w->cls[is_hot ? 0 : 1],
                                write ? IOSPD_OP_WRITE : IOSPD_OP_READ, bs,
                                to_ns(t1 - t0, r->tps), since);
    }
  }
  iospd_hot_leave();
  for (uint32_t k = 0; k < SLOTS; k++)
    if (w->slots[k].open) (void)iospd_plat_tree_close(w->slots[k].fh);
}

/* --relocate: RATE renames a second, from the start of the warm-up to the
 * end; a random file goes to another leaf, chosen at random. */
static void mover_main(void* arg) {
  tree_run_t* r = arg;
  const iospd_tree_layout_t* l = r->l;
  iospd_rand_t rng;
  iospd_rand_seed(&rng, r->seed ^ 0x72656c6f63617465ull);
  char from[IOSPD_TREE_PATH_MAX], to[IOSPD_TREE_PATH_MAX];
  (void)iospd_plat_latch_wait(r->gate);
  uint64_t start = iospd_plat_ticks();
  uint64_t done = 0;
  while (atomic_load(&r->phase) != PH_STOP && !atomic_load(&r->failed)) {
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
    bool measuring = atomic_load(&r->phase) == PH_MEASURE;
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
      atomic_store(&r->failed, 1);
      break;
    }
  }
}


/* Waits until ticks `until` or Ctrl-C, the run failing, or a stop: 1 if
 * cut short. */
static int wait_until(tree_run_t* r, uint64_t until) {
  for (;;) {
    if (atomic_load(&g_tree_interrupted) || atomic_load(&r->failed)) return 1;
    uint64_t now = iospd_plat_ticks();
    if (now >= until) return 0;
    uint64_t ms = (until - now) / (r->tps / 1000u) + 1;
    if (iospd_plat_wait(ms > 100 ? 100 : (uint32_t)ms) == 1) {
      atomic_store(&g_tree_interrupted, 1);
      return 1;
    }
  }
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

/* Worker results into the results tree (moved, not copied). */
static int publish(tree_run_t* r, worker_t* w, uint32_t n,
                   iospd_timespan_result_t* tsr, const iospd_target_t* t) {
  tsr->threads = iospd_calloc(n, sizeof *tsr->threads);
  if (tsr->threads == NULL) return IOSPD_ENOMEM;
  tsr->thread_count = tsr->thread_count_alloc = n;
  for (uint32_t i = 0; i < n; i++) {
    iospd_thread_result_t* th = &tsr->threads[i];
    th->id = i;
    th->engine = "tree (synchronous)";
    th->depth_asked = t->request_count;
    th->depth_kept = 1;
    th->targets = iospd_calloc(2, sizeof *th->targets);
    if (th->targets == NULL) return IOSPD_ENOMEM;
    th->target_count = 2;
    for (uint32_t k = 0; k < 2; k++) {
      th->targets[k].target_index = k;
      uint32_t files = k == 0 ? r->l->hot_files : r->l->files - r->l->hot_files;
      th->targets[k].file_size = files * r->l->file_size;
      th->targets[k].stats = w[i].cls[k];
      memset(&w[i].cls[k], 0, sizeof w[i].cls[k]);
    }
  }
  return 0;
}

int iospd_tree_run(const iospd_profile_t* p, const iospd_tree_hooks_t* hooks,
                   iospd_results_t* out, iospd_tree_results_t* tree,
                   iospd_err_t* err) {
  const iospd_tree_opts_t* o = &p->ext.tree;
  const iospd_timespan_t* ts = &p->timespans[0];
  const iospd_target_t* t = &ts->targets[0];
  uint64_t seed = ts->rand_seed;
  memset(tree, 0, sizeof *tree);
  out->timespans = NULL;
  out->timespan_count = 0;
  out->engine_name = "tree (synchronous)";
  atomic_store(&g_tree_interrupted, 0);
  for (int k = 0; k < IOSPD_TREE_META_COUNT; k++)
    if ((tree->meta[k] = iospd_hist_create()) == NULL)
      return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  iospd_tree_layout_t l;
  int rc = iospd_tree_layout_init(&l, o, seed, err);
  if (rc < 0) return rc;
  tree->files = l.files;
  tree->hot_files = l.hot_files;
  tree->dir_count = l.dir_count;
  tree->leaf_count = l.leaf_count;
  tree->file_size = l.file_size;
  if (out->topo.cpu_count == 0) {
    rc = iospd_plat_cpu_topology(&out->topo, err);
    if (rc < 0) {
      iospd_tree_layout_free(&l);
      return rc;
    }
  }
  (void)iospd_plat_on_interrupt(on_interrupt, NULL, NULL);

  iospd_tree_state_t st;
  uint64_t c0 = iospd_plat_ticks();
  iospd_tree_hooks_t ph = {0};
  if (hooks != NULL) ph = *hooks;
  ph.stop = stop_requested;
  rc = iospd_tree_prepare(&l, o, seed, &ph, tree->meta[IOSPD_TREE_META_CREATE],
                          &st, err);
  tree->created = st.created;
  tree->create_seconds =
      (double)(iospd_plat_ticks() - c0) / (double)out->sys.ticks_per_second;
  if (rc < 0) {
    iospd_tree_state_free(&st);
    iospd_tree_layout_free(&l);
    return rc;
  }

  uint32_t n = t->threads_per_file ? t->threads_per_file : 1;
  tree_run_t r;
  memset(&r, 0, sizeof r);
  r.t = t;
  r.l = &l;
  r.o = o;
  r.tps = out->sys.ticks_per_second;
  r.seed = seed;
  r.meta_rename = tree->meta[IOSPD_TREE_META_RENAME];
  r.open_flags = t->write_ratio > 0 ? IOSPD_TREE_OPEN_WRITE : 0;
  if (t->cache_mode == IOSPD_CACHE_DISABLE_OS)
    r.open_flags |= IOSPD_TREE_OPEN_UNBUFFERED;
  if (t->write_through) r.open_flags |= IOSPD_TREE_OPEN_WRITE_THROUGH;
  r.loc = iospd_calloc(l.files, sizeof *r.loc);
  r.end = iospd_calloc(l.files, sizeof *r.end);
  worker_t* w = iospd_calloc(n, sizeof *w);
  iospd_timespan_result_t* tsr = iospd_calloc(1, sizeof *tsr);
  iospd_cpu_times_t* cpu0 = iospd_calloc(out->topo.cpu_count + 1, sizeof *cpu0);
  iospd_cpu_times_t* cpu1 = iospd_calloc(out->topo.cpu_count + 1, sizeof *cpu1);
  if (r.loc == NULL || r.end == NULL || w == NULL || tsr == NULL ||
      cpu0 == NULL || cpu1 == NULL) {
    rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    goto done;
  }
  out->profile = report_profile(p, &l);
  if (out->profile == NULL) {
    rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    goto done;
  }
  tsr->ts = &out->profile->timespans[0];
  out->timespans = tsr;
  out->timespan_count = 1;
  for (uint32_t i = 0; i < l.files; i++) {
    atomic_init(&r.loc[i], st.loc[i]);
    atomic_init(&r.end[i], st.size[i]);
  }
  uint64_t duration_ms = (uint64_t)ts->duration * 1000u;
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    w[i].run = &r;
    w[i].id = i;
    iospd_rand_seed(&w[i].rng, seed + i);
    w[i].buf = iospd_plat_buf_alloc(t->block_size, 4096, 0);
    w[i].meta_open = iospd_hist_create();
    w[i].meta_close = iospd_hist_create();
    if (w[i].buf == NULL || w[i].meta_open == NULL || w[i].meta_close == NULL)
      rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    for (int k = 0; k < 2 && rc == 0; k++)
      rc = iospd_target_stats_init(&w[i].cls[k], ts->measure_latency,
                                   ts->calc_iops_stddev, ts->io_bucket_ms,
                                   duration_ms);
    if (rc < 0) {
      iospd_err_set(err, rc, "out of memory");
      break;
    }
    /* The write content: DISKSPD's pattern (byte k = k mod 256), or zeros
     * with -Z. */
    for (uint32_t k = 0; k < t->block_size; k++)
      w[i].buf[k] = t->pattern == IOSPD_PATTERN_ZERO ? 0 : (uint8_t)k;
  }
  if (rc == 0) rc = iospd_plat_latch_create(&r.gate, 1, err);
  uint32_t started = 0;
  iospd_thread_opts_t topt = {.pin = false, .group = 0, .cpu = IOSPD_CPU_ANY};
  for (; rc == 0 && started < n; started++)
    rc = iospd_plat_thread_start(&w[started].thread, &topt, worker_main,
                                 &w[started], err);
  if (rc == 0 && o->relocate_rate > 0)
    rc = iospd_plat_thread_start(&r.mover, &topt, mover_main, &r, err);
  if (rc < 0) {
    atomic_store(&r.phase, PH_STOP);
    if (r.gate != NULL) iospd_plat_latch_abort(r.gate);
  } else {
    iospd_plat_latch_arrive(r.gate);
    uint64_t now = iospd_plat_ticks();
    int cut = wait_until(&r, now + (uint64_t)ts->warmup * r.tps);
    if (cut) {
      tsr->interrupted_before_measure = true;
    } else {
      iospd_plat_cpu_times(cpu0, out->topo.cpu_count, NULL);
      uint64_t m0 = iospd_plat_ticks();
      atomic_store(&r.measure_t0, m0);
      atomic_store(&r.phase, PH_MEASURE);
      (void)wait_until(&r, m0 + (uint64_t)ts->duration * r.tps);
      atomic_store(&r.phase, PH_COOLDOWN);
      uint64_t m1 = iospd_plat_ticks();
      iospd_plat_cpu_times(cpu1, out->topo.cpu_count, NULL);
      tsr->seconds = (double)(m1 - m0) / (double)r.tps;
      tsr->cpu = iospd_calloc(out->topo.cpu_count + 1, sizeof *tsr->cpu);
      if (tsr->cpu != NULL)
        iospd_cpu_usage_compute(cpu0, cpu1, out->topo.cpu_count, tsr->cpu);
      if (ts->cooldown > 0)
        (void)wait_until(&r, m1 + (uint64_t)ts->cooldown * r.tps);
    }
    atomic_store(&r.phase, PH_STOP);
  }
  for (uint32_t i = 0; i < started; i++)
    if (w[i].thread != NULL) iospd_plat_thread_join(w[i].thread);
  if (r.mover != NULL) iospd_plat_thread_join(r.mover);
  if (atomic_load(&g_tree_interrupted) && hooks != NULL &&
      hooks->interrupted != NULL)
    hooks->interrupted(hooks->ctx);
  for (uint32_t i = 0; i < started && rc == 0; i++)
    if (w[i].error != 0) {
      rc = w[i].error;
      if (err != NULL) *err = w[i].err;
      if (err != NULL && err->msg[0] == '\0')
        iospd_err_set(err, rc, "thread %" PRIu32 ": %s", i,
                      iospd_strerror(rc));
    }
  if (rc == 0 && r.mover_error != 0) {
    rc = r.mover_error;
    if (err != NULL) *err = r.mover_err;
  }
  if (rc < 0 && tsr != NULL)
    snprintf(tsr->error, sizeof tsr->error, "%s",
             err != NULL && err->msg[0] ? err->msg : iospd_strerror(rc));
  tree->relocations = r.relocations;
  tree->relocations_total = r.relocations_total;
  tree->relocation_retries = r.retries;
  for (uint32_t i = 0; i < n; i++) {
    if (w[i].meta_open != NULL)
      iospd_hist_merge(tree->meta[IOSPD_TREE_META_OPEN], w[i].meta_open);
    if (w[i].meta_close != NULL)
      iospd_hist_merge(tree->meta[IOSPD_TREE_META_CLOSE], w[i].meta_close);
  }
  if (tsr->threads == NULL) {
    int prc = publish(&r, w, n, tsr, t);
    if (prc < 0 && rc == 0) rc = iospd_err_set(err, prc, "out of memory");
  }
  /* The files are where the run left them: cleanup follows them. */
  for (uint32_t i = 0; i < l.files && r.loc != NULL; i++)
    st.loc[i] = LEAF(atomic_load(&r.loc[i]));
  if (o->cleanup) {
    iospd_err_t cerr;
    iospd_err_clear(&cerr);
    int crc = iospd_tree_cleanup(&l, &st, &cerr);
    tree->cleaned = crc == 0;
    if (crc < 0 && rc == 0) {
      rc = crc;
      if (err != NULL) *err = cerr;
    }
    if (hooks != NULL && hooks->note != NULL && crc == 0)
      hooks->note(hooks->ctx, "--cleanup: the tree was removed");
  }
done:
  if (r.gate != NULL) iospd_plat_latch_destroy(r.gate);
  for (uint32_t i = 0; w != NULL && i < n; i++) {
    for (int k = 0; k < 2; k++) iospd_target_stats_destroy(&w[i].cls[k]);
    iospd_hist_destroy(w[i].meta_open);
    iospd_hist_destroy(w[i].meta_close);
    if (w[i].buf != NULL) iospd_plat_buf_free(w[i].buf, t->block_size);
  }
  iospd_free(w);
  iospd_free(cpu0);
  iospd_free(cpu1);
  iospd_free((void*)r.loc);
  iospd_free((void*)r.end);
  if (out->timespans == NULL) iospd_free(tsr);
  out->tree = tree;
  iospd_tree_state_free(&st);
  iospd_tree_layout_free(&l);
  iospd_plat_utc_now(&out->run_time);
  return rc;
}

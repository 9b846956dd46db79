/* SPDX-License-Identifier: MIT */
/* The controller (DISKSPD's timespan timeline): per timespan, prepare targets, lay out
 * threads and slots, start the workers (each sets itself up before the
 * start barrier), run warm-up / measure / cool-down on the clock, stop,
 * join, and fill the results tree. With hooks->cooperative (fake platform
 * tests) the same workers are stepped from this thread instead. */
#include "iospd/run.h"

#include <stdio.h>
#include <string.h>

#include "iospd/agg.h"
#include "iospd/alloc.h"
#include "iospd/engine.h"
#include "iospd/tree.h"
#include "iospd/workload.h"
#include "interval_feed.h"
#include "pts_steady.h"
#include "run_internal.h"
#include "run_verify.h"

/* -y named events of the run, opened (created if absent) once by iospd_run
 * and used by the controller thread only. */
typedef struct run_events_s {
  iospd_plat_event_t* ready; /* -yr: wait for it before starting I/O */
  iospd_plat_event_t* start; /* -ys: set when measurement starts */
  iospd_plat_event_t* end;   /* -yf: set when measurement ends */
  iospd_plat_event_t* stop;  /* -yp: stop the run when it is set */
} run_events_t;

/* What one call of iospd_run_in keeps across its timespans; nothing of it
 * outlives the call, so a second call starts clean. Only Ctrl-C, which is
 * the process's, lives in the session. */
typedef struct run_state_s {
  iospd_run_session_t* session;
  /* The -yp event was seen set: stops the run like Ctrl-C, without the
   * Ctrl-C line. Sticky for the rest of the call. */
  _Atomic uint32_t stopped_by_event;
  _Atomic uint32_t interrupt_told; /* hooks->interrupted was called */
  /* Failed I/Os so far in the run, all timespans (iospd_interval_t.errors). */
  uint64_t series_errors;
  run_events_t ev;
  const iospd_workload_t* wl;
  void* wl_state;
} run_state_t;

static void on_interrupt(void* arg) {
  iospd_run_session_t* s = arg;
  atomic_store(&s->interrupted, 1);
}

static bool session_interrupted(const run_state_t* st) {
  return atomic_load(&st->session->interrupted) != 0;
}

typedef struct run_s {
  run_state_t* st;
  const iospd_workload_t* wl;
  const iospd_profile_t* p;
  const iospd_timespan_t* ts;
  const iospd_run_hooks_t* hooks;
  iospd_results_t* res;
  iospd_timespan_result_t* tsr;
  iospd_engine_ctl_t* ctl;
  iospd_worker_t** workers;
  uint32_t nworkers;
  int ev_rc; /* first failure to set -ys/-yf, reported after the run */
  iospd_err_t ev_err;
  int grow_rc; /* no memory for more -D intervals, reported after the run */
  iospd_err_t grow_err;
  iospd_gen_shared_t* shared; /* one -si cursor per target */
  size_t shared_len;
  uint8_t** rnd_src; /* -Z<size> source per target, or NULL */
  iospd_content_pool_t* pools; /* --compress/--dedupe pool per target */
  /* Start gates. set_up opens when every worker has set itself up (or one
   * failed: it aborts the gate); go is opened by the controller to start
   * I/O, or aborted to send the workers home. Both let everybody sleep. */
  iospd_plat_latch_t* set_up;
  iospd_plat_latch_t* go;
  /* Workers whose run has returned (ends_itself: the phase ends when all
   * have). */
  _Atomic uint32_t workers_done;
  _Atomic uint32_t cancel; /* set before go is aborted: skip the set-up */
  iospd_cseries_t* series; /* hooks->interval's producer, or NULL */
  /* --steady-state (pts_steady.h): the tracker, the hooks the feed calls
   * (the tracker, then the caller's interval hook), and "it has just held:
   * end measuring" for wait_phase. */
  iospd_ss_track_t* ss;
  iospd_run_hooks_t ss_hooks;
  bool ss_stop;
  iospd_run_verify_t verify; /* --verify state files */
} run_t;

typedef struct worker_arg_s {
  run_t* run;
  iospd_worker_t* w;
} worker_arg_t;

static bool failed(const run_t* r) {
  return atomic_load_explicit(&r->ctl->failed, memory_order_acquire) != 0;
}

/* ---- layout ------------------------------------------------------------ */

static iospd_worker_t* new_worker(run_t* r, uint32_t id, uint32_t ntargets) {
  /* Separate, padded allocations keep workers off each other's lines. */
  iospd_worker_t* w = iospd_calloc(1, sizeof(*w) + 2 * IOSPD_CACHELINE);
  if (w == NULL) return NULL;
  w->id = id;
  w->wl = r->wl;
  w->profile = r->p;
  w->ts = r->ts;
  w->ctl = r->ctl;
  w->targets = iospd_calloc(ntargets ? ntargets : 1, sizeof(*w->targets));
  w->target_count = ntargets;
  iospd_thread_target_result_t* tt =
      iospd_calloc(ntargets ? ntargets : 1, sizeof(*tt));
  if (w->targets == NULL || tt == NULL) {
    iospd_free(w->targets);
    iospd_free(tt);
    iospd_free(w);
    return NULL;
  }
  iospd_thread_result_t* tr = &r->tsr->threads[id];
  tr->id = id;
  tr->targets = tt;
  tr->target_count = ntargets;
  w->wait = &tr->wait;
  w->cost = &tr->cost;
  if (r->p->ext.verify) {
    uint32_t cap = iospd_verify_errors(&r->p->ext);
    if (cap > 4096) cap = 4096; /* printed one by one: enough to see */
    tr->vfails = cap ? iospd_calloc(cap, sizeof(*tr->vfails)) : NULL;
    w->vfails = tr->vfails;
    w->vfail_cap = tr->vfails ? cap : 0;
  }
  return w;
}

static void bind_target(run_t* r, iospd_worker_t* w, uint32_t k, uint32_t ti,
                        uint32_t rel, uint32_t slots, uint32_t sharers,
                        uint32_t weight) {
  const iospd_target_t* t = &r->ts->targets[ti];
  iospd_wtarget_t* tg = &w->targets[k];
  tg->t = t;
  tg->target_index = ti;
  tg->relative_thread = rel;
  tg->slot_count = slots;
  tg->weight = weight;
  tg->burst = sharers ? t->burst_size / sharers : t->burst_size;
  tg->shared = &r->shared[ti];
  tg->rnd_src = r->rnd_src[ti];
  tg->rnd_src_size = r->rnd_src[ti] ? t->random_data_size : 0;
  tg->pool = r->pools[ti].blocks != NULL ? &r->pools[ti] : NULL;
  iospd_thread_target_result_t* res = &r->tsr->threads[w->id].targets[k];
  res->target_index = ti;
  tg->stats = &res->stats;
  iospd_run_verify_bind(&r->verify, tg, ti, r->ts->rand_seed, w->id,
                        &res->verify);
}

static bool thread_uses(const iospd_target_t* t, uint32_t thread,
                        uint32_t* weight) {
  *weight = t->weight;
  if (t->thread_target_count == 0) return true;
  for (uint32_t i = 0; i < t->thread_target_count; i++)
    if (t->thread_targets[i].thread == thread) {
      if (t->thread_targets[i].weight) *weight = t->thread_targets[i].weight;
      return true;
    }
  return false;
}

/* 2.2: -t gives each thread one target; -F gives each thread every target
 * (or those whose ThreadTargets list it), with -O slots shared. */
/* Workers per thread: the -o slots with slot_workers, else 1. */
static uint32_t workers_per_thread(const run_t* r) {
  if (!r->wl->every_target || !r->wl->slot_workers || r->ts->target_count == 0)
    return 1;
  uint32_t o = r->ts->targets[0].request_count;
  return o ? o : 1;
}

static uint32_t thread_count(const run_t* r) {
  if (r->wl->every_target)
    return (r->ts->target_count && r->ts->targets[0].threads_per_file
                ? r->ts->targets[0].threads_per_file
                : 1) *
           workers_per_thread(r);
  return iospd_run_thread_count(r->ts);
}

static int layout(run_t* r, iospd_err_t* err) {
  const iospd_timespan_t* ts = r->ts;
  uint32_t n = thread_count(r);
  r->tsr->threads = iospd_calloc(n ? n : 1, sizeof(*r->tsr->threads));
  r->workers = iospd_calloc(n ? n : 1, sizeof(*r->workers));
  if (r->tsr->threads == NULL || r->workers == NULL) goto oom;
  r->tsr->thread_count = r->tsr->thread_count_alloc = n;
  r->nworkers = n;
  if (r->wl->every_target) {
    /* Each thread issues to every target (the tree's classes), each with
     * its own -o slots. */
    for (uint32_t id = 0; id < n; id++) {
      iospd_worker_t* w = new_worker(r, id, ts->target_count);
      if (w == NULL) goto oom;
      r->workers[id] = w;
      uint32_t slots = 0;
      for (uint32_t ti = 0; ti < ts->target_count; ti++) {
        const iospd_target_t* t = &ts->targets[ti];
        bind_target(r, w, ti, ti, id, t->request_count, n, t->weight);
        slots += t->request_count;
      }
      w->slot_count = slots;
    }
    return 0;
  }
  if (ts->thread_count == 0) {
    uint32_t id = 0;
    for (uint32_t ti = 0; ti < ts->target_count; ti++) {
      const iospd_target_t* t = &ts->targets[ti];
      uint32_t per = t->threads_per_file ? t->threads_per_file : 1;
      for (uint32_t k = 0; k < per; k++, id++) {
        iospd_worker_t* w = new_worker(r, id, 1);
        if (w == NULL) goto oom;
        r->workers[id] = w;
        bind_target(r, w, 0, ti, k, t->request_count, per, t->weight);
        w->slot_count = t->request_count;
      }
    }
    return 0;
  }
  bool shared = ts->request_count > 0;
  for (uint32_t id = 0; id < n; id++) {
    uint32_t cnt = 0, weight;
    for (uint32_t ti = 0; ti < ts->target_count; ti++)
      cnt += thread_uses(&ts->targets[ti], id, &weight);
    iospd_worker_t* w = new_worker(r, id, cnt);
    if (w == NULL) goto oom;
    r->workers[id] = w;
    w->shared_slots = shared;
    uint32_t k = 0, slots = 0;
    for (uint32_t ti = 0; ti < ts->target_count; ti++) {
      const iospd_target_t* t = &ts->targets[ti];
      if (!thread_uses(t, id, &weight)) continue;
      uint32_t sharers = t->thread_target_count ? t->thread_target_count : n;
      uint32_t s = shared ? ts->request_count : t->request_count;
      bind_target(r, w, k++, ti, id, s, sharers, weight);
      slots += t->request_count;
    }
    w->slot_count = shared ? (cnt ? ts->request_count : 0) : slots;
  }
  return 0;
oom:
  return iospd_err_set(err, IOSPD_ENOMEM, "out of memory laying out threads");
}

/* -Z<size>[,file]: one source per target, shared by its threads, filled
 * from a generator seeded with 0 (so identical across runs) or a file. */
static int make_sources(run_t* r, iospd_err_t* err) {
  const iospd_timespan_t* ts = r->ts;
  r->rnd_src = iospd_calloc(ts->target_count ? ts->target_count : 1,
                            sizeof(*r->rnd_src));
  if (r->rnd_src == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  r->pools = iospd_calloc(ts->target_count ? ts->target_count : 1,
                          sizeof(*r->pools));
  if (r->pools == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  iospd_rand_t rng;
  iospd_rand_seed(&rng, 0);
  /* A per-run nonce for the content stamps (iospd/content.h): the clock
   * and the boot time, so a rerun's unique blocks differ from this run's. */
  iospd_utc_time_t now;
  iospd_plat_utc_now(&now);
  uint64_t nonce = iospd_plat_ticks() ^ (iospd_plat_uptime_ms() << 20) ^
                   ((uint64_t)now.year << 58) ^ ((uint64_t)now.day << 52) ^
                   ((uint64_t)now.hour << 46) ^ ((uint64_t)now.minute << 40) ^
                   ((uint64_t)now.second << 34);
  for (uint32_t i = 0; i < ts->target_count; i++) {
    const iospd_target_t* t = &ts->targets[i];
    if (iospd_target_has_content(t)) {
      /* Generated content replaces the -Z<size> source; its size, when
       * given, is the pool's. */
      if (t->write_ratio == 0) continue;
      int rc = iospd_content_pool_build(
          &r->pools[i], t->block_size, t->random_data_size,
          t->compress_pct > 0 ? (uint32_t)t->compress_pct : 0,
          t->dedupe_pct > 0 ? (uint32_t)t->dedupe_pct : 0,
          (uint64_t)ts->rand_seed + i, nonce + i * 0x100000000ull, err);
      if (rc < 0) return rc;
      continue;
    }
    if (t->random_data_size == 0) continue;
    if (t->random_data_size > (uint64_t)(SIZE_MAX / 2))
      return iospd_err_set(err, IOSPD_ENOMEM,
                           "the write source buffer (-Z) of target '%s' is "
                           "%llu bytes, more than this build can address; "
                           "use a smaller -Z size",
                           t->path, (unsigned long long)t->random_data_size);
    size_t size = (size_t)t->random_data_size;
    uint8_t* b = iospd_plat_buf_alloc(
        size, IOSPD_RND_SRC_ALIGN, t->large_pages ? IOSPD_BUF_LARGE_PAGES : 0);
    if (b == NULL)
      return iospd_err_set(err, IOSPD_ENOMEM,
                           "cannot allocate the %llu-byte write source "
                           "buffer (-Z) of target '%s'",
                           (unsigned long long)t->random_data_size, t->path);
    r->rnd_src[i] = b;
    if (t->random_data_path == NULL || t->random_data_path[0] == '\0') {
      iospd_rand_fill(&rng, b, size, false);
      continue;
    }
    size_t got = 0;
    char* data = NULL;
    iospd_err_t e;
    iospd_err_clear(&e);
    int rc = iospd_plat_read_file(t->random_data_path, size, &data, &got, &e);
    if (rc == 0 && got > 0) memcpy(b, data, got);
    iospd_free(data);
    /* The reader's message names the file. */
    if (rc < 0)
      return iospd_err_set(err, rc, "cannot read the write source file (-Z): %s",
                           e.msg[0] ? e.msg : iospd_strerror(rc));
    if (got == 0)
      return iospd_err_set(err, IOSPD_EIO,
                           "cannot read the write source file '%s' (-Z): it "
                           "is empty",
                           t->random_data_path);
    /* A short file is repeated to fill the buffer. */
    for (size_t j = got; j < size; j++) b[j] = b[j - got];
  }
  return 0;
}

/* ---- threads ------------------------------------------------------------ */

static void publish_setup(run_t* r, iospd_worker_t* w) {
  /* Effective distributions and sizes go into the results now, on the
   * worker's thread, while the generators exist. */
  iospd_thread_result_t* tr = &r->tsr->threads[w->id];
  for (uint32_t k = 0; k < w->target_count; k++) {
    iospd_wtarget_t* tg = &w->targets[k];
    iospd_thread_target_result_t* res = &tr->targets[k];
    res->file_size = tg->file_size;
    res->bypass_io = tg->bypass;
    if (tg->gen.dist_count > 0 && res->dist == NULL) {
      res->dist = iospd_calloc(tg->gen.dist_count, sizeof(*res->dist));
      if (res->dist != NULL) {
        memcpy(res->dist, tg->gen.dist,
               tg->gen.dist_count * sizeof(*res->dist));
        res->dist_count = tg->gen.dist_count;
      }
    }
  }
}

static void worker_main(void* arg) {
  worker_arg_t* a = arg;
  run_t* r = a->run;
  iospd_worker_t* w = a->w;
  int rc = 0;
  /* Ctrl-C during the set-up of many threads: the late ones skip it. */
  if (!atomic_load(&r->cancel) && !session_interrupted(r->st)) {
    rc = r->wl->setup(r->st->wl_state, w, &w->setup_err);
    if (rc < 0) {
      atomic_store_explicit(&r->ctl->failed, 1, memory_order_release);
      iospd_plat_latch_abort(r->set_up); /* no need to wait for the rest */
    } else {
      publish_setup(r, w);
    }
  }
  iospd_plat_latch_arrive(r->set_up);
  if (iospd_plat_latch_wait(r->go) == 0 && rc == 0 && !failed(r) &&
      !atomic_load(&r->cancel)) {
    uint64_t cpu0 = iospd_plat_thread_cpu_ns();
    uint64_t t0 = iospd_plat_ticks();
    r->wl->run(w);
    atomic_fetch_add(&r->workers_done, 1);
    uint64_t cpu1 = iospd_plat_thread_cpu_ns();
    uint64_t t1 = iospd_plat_ticks();
    uint64_t tps = r->ctl->ticks_per_second ? r->ctl->ticks_per_second : 1;
    if (cpu0 != 0 && cpu1 > cpu0 && t1 > t0) {
      w->cpu_ns = cpu1 - cpu0;
      w->wall_ns = (uint64_t)((double)(t1 - t0) * 1e9 / (double)tps);
    }
  }
  /* Nothing in flight: the controller tears down after the join, one
   * worker after another. A thousand threads unmapping rings and buffers
   * at once queue on the address-space lock for seconds (after Ctrl-C,
   * before anything is reported). */
  if (w->self_teardown) r->wl->teardown(w);
}

/* ---- phases -------------------------------------------------------------- */

static void say(const run_t* r, const char* text);

/* -yp: looks at the stop event (without waiting). */
static bool stop_event_set(const run_t* r) {
  if (atomic_load(&r->st->stopped_by_event)) return true;
  if (r->st->ev.stop == NULL || iospd_plat_event_wait(r->st->ev.stop, 0) != 1)
    return false;
  atomic_store(&r->st->stopped_by_event, 1);
  say(r, "the stop event (-yp) is set: stopping");
  return true;
}

/* Tells main once, from the controller's thread. Ctrl-C is bound to the
 * -yp event, as in DISKSPD: set it so that whoever else waits on it stops
 * too. */
static void tell_interrupted(run_state_t* st, const iospd_run_hooks_t* hooks) {
  if (atomic_exchange(&st->interrupt_told, 1) == 0) {
    if (hooks != NULL && hooks->interrupted != NULL)
      hooks->interrupted(hooks->ctx);
    if (st->ev.stop != NULL) (void)iospd_plat_event_set(st->ev.stop, NULL);
  }
}

static bool interrupted(const run_t* r) {
  if (!session_interrupted(r->st) && atomic_load(&r->ctl->interrupted) == 0)
    return stop_event_set(r);
  tell_interrupted(r->st, r->hooks);
  return true;
}

/* -ys/-yf: a failure is remembered and fails the timespan afterwards;
 * measuring goes on meanwhile, as the workers are already running. */
static void set_event(run_t* r, iospd_plat_event_t* ev, const char* name) {
  if (ev == NULL) return;
  iospd_err_t e;
  iospd_err_clear(&e);
  int rc = iospd_plat_event_set(ev, &e);
  if (rc < 0 && r->ev_rc == 0)
    r->ev_rc = iospd_err_set(&r->ev_err, rc, "cannot set the event '%s': %s",
                             name, e.msg[0] ? e.msg : iospd_strerror(rc));
}

/* -yr: once every worker is set up and before I/O starts, wait for the
 * event, with no time limit but in slices, so Ctrl-C and -yp still stop
 * the run (which then reads as interrupted before measuring). */
static void wait_ready_event(run_t* r) {
  if (r->st->ev.ready == NULL) return;
  say(r, "waiting for the start event (-yr)...");
  while (!interrupted(r) && !failed(r)) {
    int got = iospd_plat_event_wait(r->st->ev.ready, IOSPD_POLL_MS);
    if (got != 0) {
      if (got < 0) {
        /* No start signal can come: fail rather than start unasked. */
        if (r->ev_rc == 0)
          r->ev_rc = iospd_err_set(
              &r->ev_err, got, "waiting for the event '%s' (-yr) failed: %s",
              r->p->events.ready_name, iospd_strerror(got));
        atomic_store_explicit(&r->ctl->failed, 1, memory_order_release);
      }
      return;
    }
  }
}

/* Steps every live worker once (cooperative mode). Returns false if none
 * is left. */
static bool step_all(run_t* r) {
  bool any = false;
  for (uint32_t i = 0; i < r->nworkers; i++) {
    iospd_worker_t* w = r->workers[i];
    if (w->setup_rc < 0 || !w->begun || w->finished) continue;
    if (!r->wl->pass(w)) any = true;
  }
  return any;
}

/* While measuring, keeps every -D series' chunks ahead of the workers
 * (buckets.h says why the controller does this and not the workers). Runs
 * at every slice of wait_phase, so at least every IOSPD_POLL_MS. */
static void grow_buckets(run_t* r, uint64_t now) {
  uint64_t tps = r->ctl->ticks_per_second ? r->ctl->ticks_per_second : 1;
  uint64_t t = now > r->ctl->measure_start_ticks
                   ? now - r->ctl->measure_start_ticks
                   : 0;
  uint64_t ns = t / tps * 1000000000u + t % tps * 1000000000u / tps;
  for (uint32_t i = 0; i < r->nworkers; i++) {
    iospd_worker_t* w = r->workers[i];
    for (uint32_t k = 0; k < w->target_count; k++)
      for (int op = 0; op < 2; op++) {
        if (iospd_buckets_grow(&w->targets[k].stats->iops[op], ns) == 0)
          continue;
        if (r->grow_rc == 0)
          r->grow_rc = iospd_err_set(
              &r->grow_err, IOSPD_ENOMEM,
              "out of memory for the per-interval IOPS records (-D) of "
              "thread %u after %.1f s; use a coarser -D or a shorter -d",
              w->id, (double)ns / 1e9);
        atomic_store_explicit(&r->ctl->failed, 1, memory_order_release);
        return;
      }
  }
}

static uint64_t ticks_to_ms(const run_t* r, uint64_t t) {
  uint64_t tps = r->ctl->ticks_per_second ? r->ctl->ticks_per_second : 1;
  return t / tps * 1000u + t % tps * 1000u / tps;
}

static uint64_t seconds_to_ticks(const run_t* r, uint32_t seconds);

/* The live status line's clock (hooks->tick), at every wait slice, from
 * the time the workers were let go (as the intervals count it). Until
 * measuring starts the end is the plan (warm-up + -d + cool-down from the
 * start); then it is the workers' own stop deadline. */
static void tell_tick(const run_t* r, uint64_t now) {
  if (r->hooks == NULL || r->hooks->tick == NULL) return;
  const iospd_timespan_t* ts = r->ts;
  uint64_t start = r->ctl->warmup_start_ticks;
  uint64_t stop = atomic_load(&r->ctl->stop_ticks);
  if (stop == UINT64_MAX)
    stop = start +
           seconds_to_ticks(r, ts->warmup) + seconds_to_ticks(r, ts->duration) +
           seconds_to_ticks(r, ts->cooldown);
  iospd_run_tick_t t = {
      .timespan = (uint32_t)(r->tsr - r->res->timespans),
      .timespan_count = r->p->timespan_count,
      .phase = (iospd_phase_t)atomic_load(&r->ctl->phase),
      .elapsed_ms = now > start ? ticks_to_ms(r, now - start) : 0,
      .remaining_ms = now < stop ? ticks_to_ms(r, stop - now) : 0,
  };
  r->hooks->tick(r->hooks->ctx, &t);
}

/* Waits until the tick `end`. Returns 1 if interrupted (Ctrl-C), 2 if a
 * worker failed, 3 when --steady-state has just held, 0 when the time is
 * up. */
static int wait_phase(run_t* r, uint64_t end) {
  uint64_t tpms = r->ctl->ticks_per_second / 1000;
  if (tpms == 0) tpms = 1;
  bool measuring = atomic_load(&r->ctl->phase) == IOSPD_PHASE_MEASURE &&
                   r->ts->calc_iops_stddev;
  for (;;) {
    if (interrupted(r)) return 1;
    if (failed(r)) return 2;
    uint64_t now = iospd_plat_ticks();
    if (measuring) grow_buckets(r, now);
    if (r->series != NULL) iospd_cseries_poll(r->series, now, false);
    if (r->ss_stop) {
      r->ss_stop = false;
      return 3;
    }
    if (now >= end) return 0;
    if (r->wl->ends_itself && !(r->hooks != NULL && r->hooks->cooperative) &&
        atomic_load(&r->workers_done) >= r->nworkers)
      return 0;
    tell_tick(r, now);
    uint64_t left = (end - now + tpms - 1) / tpms;
    uint32_t poll =
        r->series != NULL ? iospd_cseries_poll_ms(r->series) : IOSPD_POLL_MS;
    uint32_t slice = left > poll ? poll : (uint32_t)left;
    if (r->hooks != NULL && r->hooks->cooperative) {
      if (step_all(r)) continue;
      /* Nobody is running: the pass is over, or let the clock move on. */
      if (r->wl->ends_itself) return 0;
    }
    if (iospd_plat_wait(slice) == 1) {
      atomic_store(&r->ctl->interrupted, 1);
      atomic_store(&r->st->session->interrupted, 1);
      (void)interrupted(r);
      return 1;
    }
  }
}

static void say(const run_t* r, const char* text) {
  if (r->p->verbose && r->hooks != NULL && r->hooks->message != NULL)
    r->hooks->message(r->hooks->ctx, IOSPD_MSG_VERBOSE, text);
}

static void set_phase(run_t* r, uint32_t phase) {
  atomic_store_explicit(&r->ctl->phase, phase, memory_order_release);
}

/* One CPU snapshot; false (err says why) when the platform could not read
 * the processors' times. */
static bool snapshot_cpu(run_t* r, iospd_cpu_times_t* t, iospd_err_t* err) {
  uint32_t n = r->res->topo.cpu_count;
  if (t == NULL || n == 0) return true;
  if (iospd_plat_cpu_times(t, n, err) >= 0) return true;
  memset(t, 0, n * sizeof(*t));
  return false;
}

/* The measured CPU usage, or, when a snapshot failed, unknown: the reports
 * say so (tsr->cpu_unknown) and a warning names the failure, rather than a
 * table of 0 % busy that reads as an idle machine (issue #26). */
static void cpu_usage(run_t* r, const iospd_cpu_times_t* c0,
                      const iospd_cpu_times_t* c1, const iospd_err_t* e0,
                      const iospd_err_t* e1) {
  iospd_timespan_result_t* tsr = r->tsr;
  if (c0 == NULL || c1 == NULL || tsr->cpu == NULL) return;
  uint32_t n = r->res->topo.cpu_count;
  if (e0->code == 0 && e1->code == 0) {
    iospd_cpu_usage_compute(c0, c1, n, tsr->cpu);
    return;
  }
  tsr->cpu_unknown = true;
  memset(tsr->cpu, 0, n * sizeof(*tsr->cpu));
  const iospd_err_t* e = e0->code != 0 ? e0 : e1;
  iospd_run_warn(r->hooks, tsr, IOSPD_WARN_CPU_UNKNOWN, -1, -1,
                 "the CPU usage of this run is unknown: the processors' "
                 "times could not be read at the %s of measuring (%s); the "
                 "report's CPU table says unknown",
                 e0->code != 0 ? "start" : "end",
                 e->msg[0] ? e->msg : iospd_strerror(e->code));
}

static uint64_t seconds_to_ticks(const run_t* r, uint32_t seconds) {
  return (uint64_t)seconds * r->ctl->ticks_per_second;
}

/* --steady-state held: measuring ends on the next interval boundary at
 * least one poll ahead, so the workers (which stop counting by their own
 * clocks, engine.h) all see the new deadline before they reach it and the
 * results cover whole intervals; never later than planned. */
static uint64_t steady_end(const run_t* r, uint64_t start, uint64_t planned) {
  uint64_t tps = r->ctl->ticks_per_second ? r->ctl->ticks_per_second : 1;
  uint64_t lt = tps * iospd_series_interval_ms(r->ts) / 1000u;
  if (lt == 0) lt = 1;
  uint64_t soon = iospd_plat_ticks() + tps * IOSPD_POLL_MS / 1000u;
  uint64_t k = (soon - start + lt - 1) / lt;
  uint64_t end = start + k * lt;
  return end < planned ? end : planned;
}

static void run_phases(run_t* r, iospd_cpu_times_t* c0, iospd_cpu_times_t* c1) {
  const iospd_timespan_t* ts = r->ts;
  iospd_timespan_result_t* tsr = r->tsr;
  iospd_engine_ctl_t* ctl = r->ctl;
  bool open_ended = r->wl->ends_itself; /* no warm-up, no deadline */
  if (!open_ended) say(r, "starting warm up...");
  int w = open_ended ? 0
                     : wait_phase(r, iospd_plat_ticks() +
                                         seconds_to_ticks(r, ts->warmup));
  if (w != 0) {
    iospd_cseries_phase_end(r->series, IOSPD_PHASE_WARMUP, iospd_plat_ticks());
    /* Interrupted (or failed) before measuring: nothing to report. */
    tsr->interrupted_before_measure = w == 1;
    tsr->seconds = 0;
    return;
  }
  set_event(r, r->st->ev.start, r->p->events.start_name);
  iospd_err_t cpu_err0 = {0}, cpu_err1 = {0};
  if (!snapshot_cpu(r, c0, &cpu_err0) && cpu_err0.code == 0)
    cpu_err0.code = IOSPD_EIO;
  uint64_t start = iospd_plat_ticks();
  /* The workers leave the measured phase, and stop, by these deadlines on
   * their own clocks: with many busy threads on few CPUs this thread may
   * get the CPU seconds late (-t1000 on two cores), and must not stretch
   * the run or the measured window. Published before MEASURE (release). */
  uint64_t measure_end =
      open_ended ? UINT64_MAX : start + seconds_to_ticks(r, ts->duration);
  ctl->measure_start_ticks = start;
  atomic_store_explicit(&ctl->measure_end_ticks, measure_end,
                        memory_order_relaxed);
  atomic_store_explicit(&ctl->stop_ticks,
                        open_ended ? UINT64_MAX
                                   : measure_end +
                                         seconds_to_ticks(r, ts->cooldown),
                        memory_order_relaxed);
  iospd_cseries_phase_end(r->series, IOSPD_PHASE_WARMUP, start);
  iospd_cseries_phase_start(r->series, IOSPD_PHASE_MEASURE, start);
  set_phase(r, IOSPD_PHASE_MEASURE);
  say(r, "starting measurements...");
  int m = wait_phase(r, measure_end);
  if (m == 3) {
    measure_end = steady_end(r, start, measure_end);
    atomic_store_explicit(&ctl->measure_end_ticks, measure_end,
                          memory_order_relaxed);
    atomic_store_explicit(&ctl->stop_ticks,
                          measure_end + seconds_to_ticks(r, ts->cooldown),
                          memory_order_relaxed);
    say(r, "steady state (--steady-state): ending measurements");
    m = wait_phase(r, measure_end);
  }
  uint64_t end = iospd_plat_ticks();
  if (end > measure_end) end = measure_end; /* the workers stopped there */
  iospd_cseries_phase_end(r->series, IOSPD_PHASE_MEASURE, end);
  set_phase(r, IOSPD_PHASE_COOLDOWN);
  if (!snapshot_cpu(r, c1, &cpu_err1) && cpu_err1.code == 0)
    cpu_err1.code = IOSPD_EIO;
  set_event(r, r->st->ev.end, r->p->events.end_name);
  tsr->seconds = (double)(end - start) / (double)ctl->ticks_per_second;
  cpu_usage(r, c0, c1, &cpu_err0, &cpu_err1);
  say(r, "measurements finished");
  /* Cool-down is skipped after an interruption, and a workload that ends
   * itself has none. */
  if (m != 0 || open_ended) return;
  say(r, "starting cool down...");
  /* The workers count cool-down from the planned end of measuring. */
  uint64_t stop = atomic_load(&ctl->stop_ticks);
  iospd_cseries_phase_start(r->series, IOSPD_PHASE_COOLDOWN, measure_end);
  (void)wait_phase(r, stop);
  uint64_t now = iospd_plat_ticks();
  iospd_cseries_phase_end(r->series, IOSPD_PHASE_COOLDOWN,
                          now < stop ? now : stop);
}

/* The engine the report names: a worker with more than one slot if there is
 * one, because --engine=auto runs depth-1 workers synchronously and the
 * report's engine line describes the asynchronous ones. */
static void note_engine(run_t* r) {
  /* Each thread's engine and the depth it really keeps; a shortfall is
   * said on stderr now, before any result (the report says it again). */
  for (uint32_t i = 0; i < r->nworkers; i++) {
    const iospd_worker_t* w = r->workers[i];
    if (w->q == NULL) continue;
    iospd_thread_result_t* tr = &r->tsr->threads[w->id];
    tr->engine = iospd_plat_queue_engine(w->q);
    tr->depth_asked = w->slot_count;
    tr->depth_kept = iospd_plat_queue_depth(w->q);
    if (tr->depth_kept >= tr->depth_asked) continue;
    iospd_run_sayf(r->hooks, IOSPD_MSG_DISKSPD_WARNING,
                   "thread %u: the %s engine keeps %u I/O%s in "
                   "flight, not the %u asked for",
                   w->id, tr->engine, tr->depth_kept,
                   tr->depth_kept == 1 ? "" : "s", tr->depth_asked);
  }
  uint32_t first = 0;
  for (; first < r->nworkers; first++)
    if (r->workers[first]->q != NULL && r->workers[first]->slot_count > 1)
      break;
  if (first == r->nworkers) first = 0;
  for (uint32_t i = first; i < r->nworkers; i++) {
    if (r->workers[i]->q == NULL) continue;
    const char* name = iospd_plat_queue_engine(r->workers[i]->q);
    if (name == NULL) continue;
    /* The platform's names are static storage (iospd/platform.h). */
    r->res->engine_name = name;
    return;
  }
}

/* After the join: say which threads saw I/Os move fewer bytes than the block
 * size (end of a device, a trimmed -rdabs range). They are counted with the
 * bytes actually moved; the warning keeps that from passing unnoticed. */
static void warn_short_transfers(run_t* r) {
  if (r->hooks == NULL || r->hooks->message == NULL) return;
  for (uint32_t i = 0; i < r->nworkers; i++) {
    const iospd_worker_t* w = r->workers[i];
    if (w->short_count == 0) continue;
    iospd_run_sayf(
        r->hooks, IOSPD_MSG_DISKSPD_WARNING,
        "thread %u: %llu I/Os moved fewer bytes than asked "
        "(first: %u of %u bytes at offset %llu); they are counted with the "
        "bytes actually moved",
        w->id, (unsigned long long)w->short_count, w->short_first_bytes,
        w->short_first_length, (unsigned long long)w->short_first_offset);
  }
}

/* A worker stuck in a blocking I/O call (depth 1 on a hung device or a
 * paused CSV) cannot see the stop: once the drain time has passed, its
 * call is cancelled, and again each second until the thread ends. */
static void join_workers(iospd_plat_thread_t** th, uint32_t n, uint64_t tps) {
  uint64_t tpms = tps >= 1000 ? tps / 1000 : 1;
  uint64_t give_up = iospd_plat_ticks() + (uint64_t)IOSPD_DRAIN_MS * tpms;
  for (uint32_t i = 0; i < n; i++) {
    while (iospd_plat_thread_wait(th[i], 1000) == 0)
      if (iospd_plat_ticks() >= give_up) iospd_plat_thread_cancel_io(th[i]);
    iospd_plat_thread_join(th[i]);
  }
}

/* I/Os given up on after the stop are not errors of the run, but a device
 * that hung for the drain time must not pass unnoticed either. */
static void warn_abandoned(run_t* r) {
  if (r->hooks == NULL || r->hooks->message == NULL) return;
  for (uint32_t i = 0; i < r->nworkers; i++) {
    const iospd_worker_t* w = r->workers[i];
    if (w->abandoned == 0) continue;
    iospd_run_sayf(r->hooks, IOSPD_MSG_DISKSPD_WARNING,
                   "thread %u: %llu I/O%s still in flight %u s "
                   "after the run stopped (a hung or paused device?) "
                   "and cancelled",
                   w->id, (unsigned long long)w->abandoned,
                   w->abandoned == 1 ? " was" : "s were",
                   IOSPD_DRAIN_MS / 1000);
  }
}

/* Completions the engine dropped because no I/O of that slot was in flight
 * (engine.h, in_flight): the counts are right, but the platform or a
 * driver delivered an I/O twice, which must not pass unnoticed. */
static void warn_stray(run_t* r) {
  for (uint32_t i = 0; i < r->nworkers; i++) {
    const iospd_worker_t* w = r->workers[i];
    if (w->stray_completions == 0) continue;
    iospd_run_sayf(r->hooks, IOSPD_MSG_DISKSPD_WARNING,
                   "thread %u: %llu completion%s arrived for I/Os that were "
                   "no longer in flight (one I/O reported twice by the "
                   "platform or a driver); %s dropped, not counted",
                   w->id, (unsigned long long)w->stray_completions,
                   w->stray_completions == 1 ? "" : "s",
                   w->stray_completions == 1 ? "it was" : "they were");
  }
}

/* Right before the workers are let go: warm-up's intervals start here. */
static void start_series(run_t* r) {
  r->ctl->warmup_start_ticks = iospd_plat_ticks();
  iospd_cseries_phase_start(r->series, IOSPD_PHASE_WARMUP,
                            r->ctl->warmup_start_ticks);
}

/* Every worker has stopped: the last intervals are written. */
static void end_series(run_t* r) {
  if (r->series == NULL) return;
  iospd_cseries_poll(r->series, iospd_plat_ticks(), true);
  uint64_t left = iospd_cseries_left_out(r->series);
  if (left > 0)
    iospd_run_sayf(r->hooks, IOSPD_MSG_DISKSPD_WARNING,
                   "%llu completion%s could not be placed in the "
                   "time series (the controller thread got no CPU for a "
                   "whole interval, or a thread was blocked in one I/O "
                   "past its phase); the results count them",
                   (unsigned long long)left, left == 1 ? "" : "s");
}

/* Stops the start: no more set-ups, and the workers leave the gates. */
static void cancel_start(run_t* r) {
  atomic_store(&r->cancel, 1);
  iospd_plat_latch_abort(r->set_up);
  iospd_plat_latch_abort(r->go);
}

/* Every worker's set-up, in slices: Ctrl-C wakes the latch, but the -yp
 * event (another process's) does not, and a set-up may hang (a paused CSV,
 * a hung adapter's IOCTL). 0: all set up; else stop the start. */
static int wait_set_up(run_t* r) {
  for (;;) {
    int w = iospd_plat_latch_wait_ms(r->set_up, IOSPD_POLL_MS);
    if (w != 2) return w;
    if (interrupted(r) || failed(r)) return 1;
  }
}

/* Threads: start, gates, phases, stop, join. The threads sleep at the gates
 * (no polling): with -t1000 polling threads alone took seconds of CPU. */
static int run_threaded(run_t* r, iospd_cpu_times_t* c0, iospd_cpu_times_t* c1,
                        iospd_err_t* err) {
  int rc = 0;
  worker_arg_t* args =
      iospd_calloc(r->nworkers ? r->nworkers : 1, sizeof(*args));
  iospd_plat_thread_t** th =
      iospd_calloc(r->nworkers ? r->nworkers : 1, sizeof(*th));
  if (args == NULL || th == NULL) {
    iospd_free(args);
    iospd_free(th);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory starting threads");
  }
  rc = iospd_plat_latch_create(&r->set_up, r->nworkers, err);
  if (rc == 0) rc = iospd_plat_latch_create(&r->go, 1, err);
  if (rc < 0) {
    iospd_plat_latch_destroy(r->set_up);
    r->set_up = NULL;
    iospd_free(args);
    iospd_free(th);
    return rc;
  }
  uint32_t started = 0;
  bool stopped = false; /* Ctrl-C (or -yp) before every thread started */
  for (; started < r->nworkers; started++) {
    if (interrupted(r)) {
      stopped = true;
      break;
    }
    iospd_worker_t* w = r->workers[started];
    args[started].run = r;
    args[started].w = w;
    /* A thread's slot workers share its CPU. */
    w->affinity =
        iospd_run_affinity_at(r->ts, &r->res->topo, r->p->ext.diskspd,
                              w->id / workers_per_thread(r));
    iospd_err_t e;
    iospd_err_clear(&e);
    rc = iospd_plat_thread_start(&th[started], &w->affinity, worker_main,
                                 &args[started], &e);
    if (rc < 0) {
      rc = iospd_err_set(err, rc, "cannot start thread %u%s: %s", w->id,
                         w->affinity.pin ? " on its CPU" : "",
                         e.msg[0] ? e.msg : iospd_strerror(rc));
      atomic_store(&r->ctl->failed, 1);
      break;
    }
  }
  bool go = false;
  if (started < r->nworkers) {
    cancel_start(r);
  } else if (wait_set_up(r) == 0 && !failed(r) && !interrupted(r)) {
    /* Every worker is set up (its queue exists) before any starts I/O.
     * Read the engine name now: after the gate a worker whose first I/O
     * fails may already be tearing its queue down. */
    note_engine(r);
    /* -yr (DISKSPD's timespan timeline, step 5): the threads are set up and wait at the gate until
     * the event is set. */
    wait_ready_event(r);
    go = !failed(r) && !interrupted(r);
  }
  if (go) {
    start_series(r);
    iospd_plat_latch_arrive(r->go);
    run_phases(r, c0, c1);
  } else {
    cancel_start(r);
    if (stopped || interrupted(r)) {
      r->tsr->interrupted_before_measure = true;
      r->tsr->seconds = 0;
    }
  }
  set_phase(r, IOSPD_PHASE_STOP);
  say(r, "stopping threads...");
  join_workers(th, started, r->ctl->ticks_per_second);
  end_series(r);
  for (uint32_t i = 0; i < started; i++) r->wl->teardown(r->workers[i]);
  warn_short_transfers(r);
  warn_abandoned(r);
  warn_stray(r);
  if (!failed(r) && r->wl->block_targets)
    iospd_run_warn_bypass(r->hooks, r->tsr);
  /* The workers' run times join their results first: the generator
   * warnings read them there (iospd_thread_busy_ns), with the block loop's
   * queue figures. */
  for (uint32_t i = 0; i < started; i++)
    if (r->workers[i]->id < r->tsr->thread_count) {
      iospd_thread_result_t* tr = &r->tsr->threads[r->workers[i]->id];
      tr->cpu_ns = r->workers[i]->cpu_ns;
      tr->wall_ns = r->workers[i]->wall_ns;
    }
  if (!failed(r) && r->wl->block_targets)
    iospd_run_warn_generator(r->tsr, r->workers, started);
  iospd_plat_latch_destroy(r->set_up);
  iospd_plat_latch_destroy(r->go);
  r->set_up = r->go = NULL;
  iospd_free(args);
  iospd_free(th);
  return rc;
}

/* Cooperative: the same steps, from this thread, in worker order. */
static int run_cooperative(run_t* r, iospd_cpu_times_t* c0,
                           iospd_cpu_times_t* c1) {
  for (uint32_t i = 0; i < r->nworkers; i++) {
    iospd_worker_t* w = r->workers[i];
    if (r->wl->setup(r->st->wl_state, w, &w->setup_err) < 0) {
      atomic_store(&r->ctl->failed, 1);
      break;
    }
    publish_setup(r, w);
  }
  if (!failed(r)) wait_ready_event(r);
  if (!failed(r)) {
    start_series(r);
    for (uint32_t i = 0; i < r->nworkers; i++)
      r->wl->begin(r->workers[i]);
    note_engine(r);
    run_phases(r, c0, c1);
  }
  set_phase(r, IOSPD_PHASE_STOP);
  while (step_all(r)) {
  }
  end_series(r);
  for (uint32_t i = 0; i < r->nworkers; i++)
    r->wl->teardown(r->workers[i]);
  warn_abandoned(r);
  warn_stray(r);
  /* No generator warnings here: the fake platform's virtual clock moves in
   * lock-step passes, so its in-flight count and CPU times describe no
   * generator (test_warnings checks those rules on hand-made results). */
  return 0;
}

/* After the join: a worker that found no memory for an interval record
 * dropped completions from the -D series, so the series would understate
 * the rate; fail rather than print it. */
static int lost_buckets(const run_t* r, iospd_err_t* err) {
  for (uint32_t i = 0; i < r->nworkers; i++) {
    const iospd_worker_t* w = r->workers[i];
    for (uint32_t k = 0; k < w->target_count; k++)
      for (int op = 0; op < 2; op++) {
        uint64_t lost = w->targets[k].stats->iops[op].lost;
        if (lost > 0)
          return iospd_err_set(
              err, IOSPD_ENOMEM,
              "out of memory for the per-interval IOPS records (-D) of "
              "thread %u: %llu completions could not be recorded; use a "
              "coarser -D or a shorter -d",
              w->id, (unsigned long long)lost);
      }
  }
  return 0;
}

/* The feed's hook with --steady-state: the tracker first, then the
 * caller's. */
static void ss_interval(void* ctx, const iospd_interval_t* iv) {
  run_t* r = ctx;
  if (iospd_ss_track_interval(r->ss, iv)) r->ss_stop = true;
  if (r->hooks != NULL && r->hooks->interval != NULL)
    r->hooks->interval(r->hooks->ctx, iv);
}

static void free_run(run_t* r) {
  iospd_cseries_close(r->series);
  r->series = NULL;
  iospd_ss_track_close(r->ss);
  r->ss = NULL;
  if (r->workers != NULL) {
    for (uint32_t i = 0; i < r->nworkers; i++) {
      if (r->workers[i] == NULL) continue;
      iospd_free(r->workers[i]->targets);
      iospd_free(r->workers[i]);
    }
    iospd_free(r->workers);
  }
  if (r->rnd_src != NULL) {
    for (uint32_t i = 0; i < r->ts->target_count; i++)
      if (r->rnd_src[i] != NULL)
        iospd_plat_buf_free(r->rnd_src[i],
                            (size_t)r->ts->targets[i].random_data_size);
    iospd_free(r->rnd_src);
  }
  if (r->pools != NULL) {
    for (uint32_t i = 0; i < r->ts->target_count; i++)
      iospd_content_pool_free(&r->pools[i]);
    iospd_free(r->pools);
  }
  if (r->shared != NULL) iospd_plat_buf_free(r->shared, r->shared_len);
}

static int run_timespan(run_state_t* st, const iospd_profile_t* p,
                        const iospd_timespan_t* ts,
                        const iospd_run_hooks_t* hooks, iospd_results_t* res,
                        iospd_timespan_result_t* tsr, iospd_err_t* err) {
  iospd_engine_ctl_t ctl;
  memset(&ctl, 0, sizeof(ctl));
  atomic_store(&ctl.phase, IOSPD_PHASE_WARMUP);
  atomic_store(&ctl.measure_end_ticks, UINT64_MAX);
  atomic_store(&ctl.stop_ticks, UINT64_MAX);
  ctl.ticks_per_second = res->sys.ticks_per_second;
  ctl.experiment_flags = p->experiment_flags;
  ctl.progress = p->progress_dots;
  ctl.progress_dot = hooks ? hooks->progress_dot : NULL;
  ctl.progress_ctx = hooks ? hooks->ctx : NULL;

  run_t r;
  memset(&r, 0, sizeof(r));
  r.st = st;
  r.wl = st->wl;
  r.p = p;
  r.ts = ts;
  r.hooks = hooks;
  r.res = res;
  r.tsr = tsr;
  r.ctl = &ctl;
  tsr->ts = ts;

  int rc = iospd_run_check_affinity(ts, &res->topo, err);
  if (rc == 0 && r.wl->block_targets)
    rc = iospd_run_prepare_targets(p, ts, hooks, tsr, err);
  if (rc == 0 && r.wl->block_targets)
    iospd_run_warn_threads(hooks, tsr, ts, res->topo.cpu_count);
  if (rc == 0 && r.wl->block_targets)
    ctl.buffer_separation = iospd_run_bufsep(p, ts, hooks, &res->topo,
                                             res->sys.page_size);
  if (rc == IOSPD_EINTR) {
    /* Ctrl-C or SIGTERM while -c was writing: the timespan ends before it
     * measured anything, as after Ctrl-C during warm-up. */
    atomic_store(&st->session->interrupted, 1);
    tsr->interrupted_before_measure = true;
    tell_interrupted(st, hooks);
    return 0;
  }
  if (rc == 0 && r.wl->block_targets)
    rc = iospd_run_verify_open(&r.verify, p, ts, hooks, err);
  if (rc < 0) {
    (void)iospd_run_verify_close(&r.verify, NULL);
    return rc;
  }

  iospd_cpu_times_t* c0 = NULL;
  iospd_cpu_times_t* c1 = NULL;
  uint32_t ncpu = res->topo.cpu_count;
  if (ncpu > 0) {
    c0 = iospd_calloc(ncpu, sizeof(*c0));
    c1 = iospd_calloc(ncpu, sizeof(*c1));
    tsr->cpu = iospd_calloc(ncpu, sizeof(*tsr->cpu));
  }
  r.shared_len =
      (ts->target_count ? ts->target_count : 1) * sizeof(iospd_gen_shared_t);
  r.shared = iospd_plat_buf_alloc(r.shared_len, 4096, 0);
  if (r.shared == NULL || (ncpu > 0 && (!c0 || !c1 || !tsr->cpu))) {
    rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    goto out;
  }
  for (uint32_t i = 0; i < ts->target_count; i++)
    iospd_gen_shared_reset(&r.shared[i]);
  rc = make_sources(&r, err);
  if (rc == 0) rc = layout(&r, err);
  const iospd_run_hooks_t* feed = hooks;
  if (rc == 0 && p->ext.steady.on) {
    rc = iospd_ss_track_open(&r.ss, &p->ext.steady,
                             (uint32_t)(ts - p->timespans),
                             iospd_series_interval_ms(ts), err);
    if (hooks != NULL) r.ss_hooks = *hooks;
    r.ss_hooks.interval = ss_interval;
    r.ss_hooks.ctx = &r;
    feed = &r.ss_hooks;
  }
  if (rc == 0)
    rc = iospd_cseries_open(&r.series, feed, ts,
                            (uint32_t)(ts - p->timespans), p->timespan_count,
                            ctl.ticks_per_second, r.workers, r.nworkers,
                            &st->series_errors, err);
  if (rc < 0) goto out;

  if (hooks != NULL && hooks->cooperative)
    rc = run_cooperative(&r, c0, c1);
  else
    rc = run_threaded(&r, c0, c1, err);
  if (r.ss != NULL) {
    /* After the join: the feed has written its last intervals. */
    tsr->steady_state = iospd_ss_track_result(
        r.ss, session_interrupted(st) || atomic_load(&st->stopped_by_event));
    if (tsr->steady_state == NULL && rc == 0)
      rc = iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory for --steady-state's verdict");
  }
  for (uint32_t i = 0; i < r.nworkers; i++)
    if (r.workers[i] != NULL)
      tsr->threads[i].vfail_count = r.workers[i]->vfail_count;
  if (rc < 0) goto out;
  /* The first failure in thread order names the target and the call. */
  for (uint32_t i = 0; i < r.nworkers; i++) {
    rc = r.wl->error(r.workers[i], err);
    if (rc < 0) goto out;
  }
  rc = lost_buckets(&r, err);
  if (rc < 0) goto out;
  if (r.wl->collect != NULL) {
    rc = r.wl->collect(st->wl_state, r.workers, r.nworkers, tsr, err);
    if (rc < 0) goto out;
  }
  rc = r.grow_rc;
  if (rc < 0 && err != NULL) *err = r.grow_err;
  if (rc < 0) goto out;
  rc = r.ev_rc;
  if (rc < 0 && err != NULL) *err = r.ev_err;
out:
  iospd_free(c0);
  iospd_free(c1);
  free_run(&r);
  {
    /* After the workers are gone: their last marks are in the view. */
    iospd_err_t verr;
    iospd_err_clear(&verr);
    int vrc = iospd_run_verify_close(&r.verify, &verr);
    if (rc == 0 && vrc < 0) {
      rc = vrc;
      if (err != NULL) *err = verr;
    }
  }
  return rc;
}

static void close_events(run_events_t* ev) {
  iospd_plat_event_close(ev->ready);
  iospd_plat_event_close(ev->start);
  iospd_plat_event_close(ev->end);
  iospd_plat_event_close(ev->stop);
  memset(ev, 0, sizeof(*ev));
}

/* An event a killed run left set has been reset when we opened it (a state
 * never outlives every process that holds the event): say so, since a
 * waiter now waits for a live process and a -yp run does not stop at once. */
static void warn_stale_event(const iospd_run_hooks_t* hooks, const char* name,
                             const char* sw) {
  iospd_run_sayf(hooks, IOSPD_MSG_DISKSPD_WARNING,
                 "the event '%s' (%s) was left set by a "
                 "process that has ended (killed?); it was reset, so "
                 "only a running process can set it now",
                 name, sw);
}

/* All -y events are created (or opened, if they exist) before anything
 * else runs, as in DISKSPD; a failure fails the run. */
static int open_events(run_events_t* ev, const iospd_profile_t* p,
                       const iospd_run_hooks_t* hooks, iospd_err_t* err) {
  struct {
    const char* name;
    const char* sw;
    iospd_plat_event_t** slot;
  } want[] = {{p->events.ready_name, "-yr", &ev->ready},
              {p->events.start_name, "-ys", &ev->start},
              {p->events.end_name, "-yf", &ev->end},
              {p->events.stop_name, "-yp", &ev->stop}};
  memset(ev, 0, sizeof(*ev));
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(want); i++) {
    if (want[i].name == NULL) continue;
    iospd_err_t e;
    iospd_err_clear(&e);
    int rc = iospd_plat_event_open(want[i].name, true, want[i].slot, &e);
    if (rc < 0)
      return iospd_err_set(err, rc, "cannot create the event '%s' (%s): %s",
                           want[i].name, want[i].sw,
                           e.msg[0] ? e.msg : iospd_strerror(rc));
    if (iospd_plat_event_was_stale(*want[i].slot))
      warn_stale_event(hooks, want[i].name, want[i].sw);
  }
  return 0;
}

/* Large pages (-l) and millisecond waits (-g, -j) anywhere in the run are
 * asked of the platform once, before anything starts. */
static int run_begin(const iospd_profile_t* p, iospd_err_t* err) {
  iospd_run_needs_t needs = {false, false};
  for (uint32_t i = 0; i < p->timespan_count; i++)
    for (uint32_t k = 0; k < p->timespans[i].target_count; k++) {
      const iospd_target_t* t = &p->timespans[i].targets[k];
      if (t->large_pages) needs.large_pages = true;
      if (t->throughput_bpms > 0 || (t->think_time > 0 && t->burst_size > 0))
        needs.fine_waits = true;
    }
  return iospd_plat_run_begin(&needs, err);
}

/* The session of iospd_run: one a call, reset by each (Ctrl-C is the
 * process's, so its handler's target must outlive the call). */
static iospd_run_session_t g_default_session;

void iospd_run_session_init(iospd_run_session_t* s) {
  atomic_store(&s->interrupted, 0);
  s->workload = NULL;
}

bool iospd_run_session_interrupted(const iospd_run_session_t* s) {
  return atomic_load(&s->interrupted) != 0;
}

int iospd_run(const iospd_profile_t* p, const iospd_run_hooks_t* hooks,
              iospd_results_t* out, iospd_err_t* err) {
  iospd_run_session_init(&g_default_session);
  return iospd_run_in(&g_default_session, p, hooks, out, err);
}

int iospd_run_in(iospd_run_session_t* session, const iospd_profile_t* p,
                 const iospd_run_hooks_t* hooks, iospd_results_t* out,
                 iospd_err_t* err) {
  run_state_t st;
  memset(&st, 0, sizeof st);
  st.session = session;
  st.wl = session->workload != NULL ? session->workload : iospd_workload_of(p);
  out->profile = p;
  out->timespans = NULL;
  out->timespan_count = 0;
  if (out->engine_name == NULL) out->engine_name = "";
  if (out->sys.ticks_per_second == 0)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "internal error: results->sys must be filled by "
                         "iospd_plat_init before iospd_run");
  if (p->etw.enabled)
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "ETW tracing (-e) is not implemented in iospd; "
                         "run without -e (use an external tracer such as "
                         "WPR or perf alongside)");
  if (out->topo.cpu_count == 0) {
    int rc = iospd_plat_cpu_topology(&out->topo, err);
    if (rc < 0) return rc;
  }
  /* Ctrl-C is caught before the events exist, so that from then on every
   * way out of the run goes through close_events. A session already
   * interrupted (a mode of many runs between two of them) runs nothing. */
  (void)iospd_plat_on_interrupt(on_interrupt, session, NULL);
  if (session_interrupted(&st)) {
    tell_interrupted(&st, hooks);
    return 0;
  }
  int erc = open_events(&st.ev, p, hooks, err);
  if (erc == 0) erc = run_begin(p, err);
  if (erc < 0) {
    close_events(&st.ev);
    return erc;
  }
  /* The message is needed for the report even when the caller passes no
   * err. */
  iospd_err_t local;
  iospd_err_clear(&local);
  if (err == NULL) err = &local;
  /* The workload's own preparation (the tree: its layout and files) may
   * give the profile the timespans run and the reports show. */
  const iospd_profile_t* rp = p;
  if (st.wl->prepare != NULL) {
    /* Stopped while preparing (IOSPD_EINTR) is the workload's failure:
     * what it made is half made (the tree removes it and says so). */
    int prc = st.wl->prepare(p, hooks, session, out, &rp, &st.wl_state, err);
    if (prc == 0 && session_interrupted(&st)) tell_interrupted(&st, hooks);
    if (prc < 0 || session_interrupted(&st)) {
      if (st.wl->finish != NULL)
        prc = st.wl->finish(st.wl_state, hooks, out, prc, err);
      iospd_plat_run_end();
      close_events(&st.ev);
      iospd_plat_utc_now(&out->run_time);
      return prc;
    }
    out->profile = rp;
  }

  out->timespans = iospd_calloc(rp->timespan_count ? rp->timespan_count : 1,
                                sizeof(*out->timespans));
  if (out->timespans == NULL) {
    int frc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    if (st.wl->finish != NULL)
      frc = st.wl->finish(st.wl_state, hooks, out, frc, err);
    iospd_plat_run_end();
    close_events(&st.ev);
    return frc;
  }
  int rc = iospd_run_precreate(rp, hooks, err);
  bool stopped = false;
  if (rc == IOSPD_EINTR) {
    /* Stopped while <PrecreateFiles> was writing: no timespan starts, and
     * all read as interrupted (below). */
    atomic_store(&session->interrupted, 1);
    tell_interrupted(&st, hooks);
    stopped = true;
    rc = 0;
  }
  uint32_t i = 0;
  for (; rc == 0 && !stopped && i < rp->timespan_count; i++) {
    out->timespan_count = i + 1;
    rc = run_timespan(&st, rp, &rp->timespans[i], hooks, out,
                      &out->timespans[i], err);
    if (rc < 0) {
      /* DISKSPD prints a failed timespan as interrupted; we print why it
       * failed instead, and what was measured before the failure (the
       * statistics stay in the tree). */
      iospd_timespan_result_t* tsr = &out->timespans[i];
      snprintf(tsr->error, sizeof tsr->error, "%s",
               err->msg[0] ? err->msg : iospd_strerror(rc));
      tsr->interrupted_before_measure = !(tsr->seconds > 0);
      i++;
      break;
    }
    /* After Ctrl-C the later timespans are not started (no files are
     * created for them); they read as interrupted, as in DISKSPD. */
    if (session_interrupted(&st) || atomic_load(&st.stopped_by_event)) {
      i++;
      break;
    }
  }
  if (rc == 0 || i > 0) {
    for (; i < rp->timespan_count; i++) {
      out->timespans[i].ts = &rp->timespans[i];
      out->timespans[i].interrupted_before_measure = true;
    }
    out->timespan_count = rp->timespan_count;
  }
  iospd_run_precreate_free();
  if (st.wl->finish != NULL)
    rc = st.wl->finish(st.wl_state, hooks, out, rc, err);
  /* The statistics are final: each timespan's total, once, for every
   * reporter (iospd/agg.h). */
  iospd_results_totals(out);
  iospd_plat_run_end();
  close_events(&st.ev);
  iospd_plat_utc_now(&out->run_time);
  return rc;
}

const iospd_workload_t* iospd_workload_of(const iospd_profile_t* p) {
  if (p->ext.verify_only) return &iospd_workload_vonly;
  return p->ext.tree.dirs != NULL ? &iospd_workload_tree
                                  : &iospd_workload_block;
}

void iospd_run_release(iospd_results_t* out, const iospd_profile_t* p) {
  if (out->vonly != NULL) {
    iospd_vonly_free(out->vonly);
    iospd_free(out->vonly);
    out->vonly = NULL;
  }
  if (out->tree != NULL) {
    iospd_tree_results_free((iospd_tree_results_t*)out->tree);
    iospd_free((void*)out->tree);
    out->tree = NULL;
  }
  if (out->profile != NULL && out->profile != p)
    iospd_tree_report_profile_free(out->profile);
  out->profile = NULL;
}

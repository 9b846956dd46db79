/* SPDX-License-Identifier: MIT */
/* The worker: setup before the start barrier (handles, sizes, generators,
 * buffers, statistics, queue) and the batch loop of docs/design.md, 'The I/O loop':
 * issue what the throttle allows, submit and reap up to reap_max in
 * one platform call (one kernel entry on io_uring; where each I/O is its
 * own OS call, as on Windows, one submit and one issue stamp per I/O),
 * read the clock once for the reaped batch, record while measuring,
 * reissue.
 * Model: fio t/io_uring.c's submitter loop; written from scratch. */
#include "iospd/engine.h"

#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/workload.h"
#include "interval_feed.h"
#include "worker_ring.h"

#define BUF_ALIGN 4096u

unsigned iospd_open_flags(const iospd_target_t* t, uint32_t worker_slots) {
  unsigned f = 0;
  if (t->memory_mapped || (t->write_ratio > 0 && t->write_ratio < 100))
    f |= IOSPD_OPEN_READ | IOSPD_OPEN_WRITE;
  else if (t->write_ratio >= 100)
    f |= IOSPD_OPEN_WRITE;
  else
    f |= IOSPD_OPEN_READ;
  if (t->cache_mode == IOSPD_CACHE_DISABLE_OS) f |= IOSPD_OPEN_NO_BUFFERING;
  if (t->cache_mode == IOSPD_CACHE_DISABLE_LOCAL)
    f |= IOSPD_OPEN_DISABLE_LOCAL_CACHE;
  if (t->write_through) f |= IOSPD_OPEN_WRITE_THROUGH;
  if (t->sequential_scan) f |= IOSPD_OPEN_SEQ_HINT;
  if (t->random_access) f |= IOSPD_OPEN_RANDOM_HINT;
  if (t->temporary) f |= IOSPD_OPEN_TEMPORARY;
  if (worker_slots > 1) f |= IOSPD_OPEN_ASYNC;
  if (t->io_priority == 1) f |= IOSPD_OPEN_PRIORITY_VERY_LOW;
  if (t->io_priority == 2) f |= IOSPD_OPEN_PRIORITY_LOW;
  if (t->memory_mapped) {
    f |= IOSPD_OPEN_MAPPED;
    if (t->flush_type == IOSPD_FLUSH_VIEW_OF_FILE) f |= IOSPD_OPEN_FLUSH_VIEW;
    if (t->flush_type == IOSPD_FLUSH_NON_VOLATILE) f |= IOSPD_OPEN_FLUSH_NV;
    if (t->flush_type == IOSPD_FLUSH_NON_VOLATILE_NO_DRAIN)
      f |= IOSPD_OPEN_FLUSH_NV_NODRAIN;
  }
  return f;
}

static const char* tpath(const iospd_wtarget_t* tg) {
  return tg->t->path ? tg->t->path : "";
}

/* Byte i = i mod 256 across the whole allocation (DISKSPD's write buffers), so the write half
 * continues the read half's pattern as in DISKSPD. */
static void fill_pattern(uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i & 0xff);
}

uint32_t iospd_rnd_window_align(const iospd_file_info_t* info) {
  uint32_t a = info->buffer_align ? info->buffer_align : info->logical_sector;
  return a > 512u ? a : 512u;
}

static int setup_target(iospd_worker_t* w, iospd_wtarget_t* tg,
                        iospd_err_t* err) {
  const iospd_target_t* t = tg->t;
  iospd_err_t e;
  iospd_err_clear(&e);
  iospd_open_opts_t o = {tpath(tg), iospd_open_flags(t, w->slot_count)};
  int rc = iospd_plat_file_open(&tg->file, &o, &e);
  if (rc < 0) {
    tg->file = NULL;
    return iospd_err_set(err, rc, "cannot open target '%s' (thread %u): %s",
                         tpath(tg), w->id,
                         e.msg[0] ? e.msg : iospd_strerror(rc));
  }
  iospd_file_info_t info;
  memset(&info, 0, sizeof(info));
  rc = iospd_plat_file_info(tg->file, &info, &e);
  if (rc < 0)
    return iospd_err_set(
        err, rc, "cannot find the size of target '%s' (thread %u): %s",
        tpath(tg), w->id, e.msg[0] ? e.msg : iospd_strerror(rc));
  if (info.size == 0)
    return iospd_err_set(err, IOSPD_ETOOSMALL,
                         "target size could not be determined: '%s' is "
                         "empty; create it with -c<size>",
                         tpath(tg));
  tg->file_size = info.size;
  /* -Sy/-SY: BypassIO on this handle, before any I/O; -SY fails the run
   * unless the bypass is full (the platform's decision and message). */
  if (t->bypass_io != IOSPD_BYPASS_NONE) {
    rc = iospd_plat_file_bypass_io(
        tg->file, t->bypass_io == IOSPD_BYPASS_FULL, &tg->bypass, &e);
    if (rc < 0 && t->bypass_io == IOSPD_BYPASS_FULL)
      return iospd_err_set(err, rc, "%s (thread %u)",
                           e.msg[0] ? e.msg : iospd_strerror(rc), w->id);
    /* -Sy runs whatever the answer; the report says why nothing or only
     * part was bypassed (iospd_run_warn_bypass). */
    if (rc < 0 && tg->bypass.note[0] == '\0') {
      const char* why = e.msg[0] ? e.msg : iospd_strerror(rc);
      size_t n = 0;
      while (why[n] != '\0' && n + 1 < sizeof tg->bypass.note) n++;
      memcpy(tg->bypass.note, why, n);
      tg->bypass.note[n] = '\0';
    }
  }
  tg->rnd_align = t->cache_mode == IOSPD_CACHE_DISABLE_OS
                      ? iospd_rnd_window_align(&info)
                      : 1u;
  tg->throttled =
      t->throughput_bpms > 0 || (t->think_time > 0 && t->burst_size > 0);
  rc = iospd_gen_init(&tg->gen, t, tg->relative_thread, info.size, &w->rng,
                      tg->shared, err);
  if (rc < 0) return rc;

  uint64_t duration_ms = (uint64_t)w->ts->duration * 1000u;
  uint32_t bucket_ms =
      w->ts->io_bucket_ms ? w->ts->io_bucket_ms : IOSPD_DEFAULT_BUCKET_MS;
  rc = iospd_target_stats_init(tg->stats, w->ts->measure_latency,
                               w->ts->calc_iops_stddev, bucket_ms, duration_ms);
  if (rc < 0)
    return iospd_err_set(
        err, rc, "out of memory for the statistics of target '%s'", tpath(tg));

  /* Computed in 64 bits: on a 32-bit build the size_t product could wrap and
   * leave slots pointing past a short allocation. */
  uint64_t want = (uint64_t)t->block_size * tg->slot_count * 2u;
  if (want > (uint64_t)(SIZE_MAX / 2))
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "target '%s' needs %llu bytes of I/O buffers "
                         "(-b %u x %u outstanding I/Os x 2), more than this "
                         "build can address; lower -b or -o",
                         tpath(tg), (unsigned long long)want, t->block_size,
                         tg->slot_count);
  size_t half = (size_t)(want / 2);
  tg->buf_len = half * 2;
  /* -bs (iospd/bufsep.h): on its own separation boundary, else the page. */
  uint64_t sep = w->ctl->buffer_separation;
  size_t align = sep > BUF_ALIGN && sep <= (uint64_t)(SIZE_MAX / 4)
                     ? (size_t)sep
                     : BUF_ALIGN;
  tg->buf = iospd_plat_buf_alloc(tg->buf_len, align,
                                 t->large_pages ? IOSPD_BUF_LARGE_PAGES : 0);
  if (tg->buf == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "cannot allocate %llu bytes of I/O buffers for "
                         "target '%s'%s",
                         (unsigned long long)tg->buf_len, tpath(tg),
                         t->large_pages ? " with large pages (-l)" : "");
  /* Buffers come zeroed, which is -Z's content already. */
  if (t->write_ratio > 0 && t->pattern != IOSPD_PATTERN_ZERO)
    fill_pattern(tg->buf, tg->buf_len);
  /* Generated content: every slot's write half gets the writer's pool
   * block; writes then only stamp it (iospd/content.h). */
  if (tg->pool != NULL)
    iospd_content_writer_init(&tg->content, tg->pool, w->id, tg->target_index,
                              tg->slot_count, tg->buf + half);
  return 0;
}

int iospd_worker_setup(iospd_worker_t* w, iospd_err_t* err) {
  iospd_err_t e;
  iospd_err_clear(&e);
  uint64_t tps = w->ctl->ticks_per_second ? w->ctl->ticks_per_second : 1;
  w->ticks_per_ms = tps >= 1000 ? tps / 1000 : 1;
  if (tps <= 1000000000ull && 1000000000ull % tps == 0)
    w->ns_mult = 1000000000ull / tps;
  w->ns_per_tick = 1e9 / (double)tps;
  /* Per-thread seed = timespan seed + global thread number, in 32 bits as
   * DISKSPD adds them. */
  iospd_rand_seed(&w->rng, (uint32_t)(w->ts->rand_seed + w->id));

  int rc = 0;
  for (uint32_t k = 0; k < w->target_count && rc == 0; k++)
    rc = setup_target(w, &w->targets[k], err);
  if (rc < 0) return w->setup_rc = rc;

  uint32_t n = w->slot_count;
  w->slots = iospd_calloc(n ? n : 1, sizeof(*w->slots));
  w->ready = iospd_calloc(n ? n : 1, sizeof(*w->ready));
  w->pending = iospd_calloc(n ? n : 1, sizeof(*w->pending));
  if (w->slots == NULL || w->ready == NULL || w->pending == NULL)
    return w->setup_rc = iospd_err_set(err, IOSPD_ENOMEM,
                                       "out of memory for thread %u", w->id);

  if (n > 0) {
    unsigned qflags = 0;
    if (n == 1) qflags |= IOSPD_QUEUE_SYNC;
    if (w->ts->completion_routines) qflags |= IOSPD_QUEUE_COMPLETION_ROUTINES;
    /* All targets unbuffered: kernel AIO would be truly asynchronous. */
    bool all_direct = w->target_count > 0;
    for (uint32_t k = 0; k < w->target_count; k++)
      if (w->targets[k].t->cache_mode != IOSPD_CACHE_DISABLE_OS)
        all_direct = false;
    if (all_direct) qflags |= IOSPD_QUEUE_UNBUFFERED;
    /* -u: the platform's ring engine (worker_ring.c). */
    int engine = 0;
    rc = iospd_ring_engine(w->profile, w->ts, &engine, &e);
    if (rc == 0)
      rc = iospd_plat_queue_create(&w->q, n, qflags, engine, &e);
    if (rc < 0) {
      w->q = NULL;
      return w->setup_rc = iospd_err_set(
                 err, rc, "cannot create the I/O queue of thread %u: %s", w->id,
                 e.msg[0] ? e.msg : iospd_strerror(rc));
    }
    for (uint32_t k = 0; k < w->target_count; k++) {
      rc = iospd_plat_queue_attach(w->q, w->targets[k].file,
                                   &w->targets[k].file_index, &e);
      if (rc < 0)
        return w->setup_rc = iospd_err_set(
                   err, rc,
                   "cannot attach target '%s' to the I/O queue of "
                   "thread %u: %s",
                   tpath(&w->targets[k]), w->id,
                   e.msg[0] ? e.msg : iospd_strerror(rc));
    }
  }

  /* How many completions a pass takes before it issues their
   * replacements, and whether each I/O is its own OS call, are the
   * platform's (iospd_plat_queue_traits): io_uring reissues two at a time
   * for a device, Windows takes 16 per GetQueuedCompletionStatusEx as
   * DISKSPD does. */
  iospd_queue_traits_t tr = {false, IOSPD_REAP_MAX, IOSPD_REAP_MAX};
  if (w->q != NULL) iospd_plat_queue_traits(w->q, &tr);
  uint32_t batch = tr.reap_batch;
  for (uint32_t k = 0; k < w->target_count; k++)
    if (w->targets[k].t->cache_mode == IOSPD_CACHE_DISABLE_OS)
      batch = tr.reap_batch_unbuffered;
  /* -oc (DISKSPD 2.3): the completions one wait may return, on every
   * engine. */
  if (w->ts->completion_depth != 0) batch = w->ts->completion_depth;
  w->reap_max = batch == 0 ? 1 : IOSPD_MIN(batch, IOSPD_REAP_MAX);
  w->submit_each = tr.submit_each;
  /* -u: I/Os per submit call (worker_ring.c); an engine that makes one OS
   * call per I/O has no batches to make. */
  w->ring_batch = w->submit_each ? 0 : iospd_ring_batch(w->ts, n);

  /* One target (the -t layout): its buffer is the worker's only I/O
   * memory, so register it (io_uring fixed buffers), unless -un asks for
   * unregistered buffers. Optional: a refusal just means ordinary
   * buffers. */
  bool unregistered =
      w->ts->ioring.enabled && !w->ts->ioring.registered_buffers;
  if (w->q != NULL && !unregistered && w->target_count == 1 &&
      w->targets[0].buf != NULL)
    (void)iospd_plat_queue_register_buffers(w->q, w->targets[0].buf,
                                            w->targets[0].buf_len, NULL);

  /* Slots: bound to a target (-o), or shared and bound per I/O (-O). */
  uint32_t s = 0;
  if (w->shared_slots) {
    for (; s < n; s++) {
      w->slots[s].target = 0;
      w->slots[s].index = s;
    }
  } else {
    for (uint32_t k = 0; k < w->target_count; k++)
      for (uint32_t i = 0; i < w->targets[k].slot_count && s < n; i++, s++) {
        w->slots[s].target = k;
        w->slots[s].index = i;
      }
    n = w->slot_count = s;
  }
  for (s = 0; s < n; s++) {
    iospd_slot_t* sl = &w->slots[s];
    sl->io.tag = s;
    sl->cursor =
        w->target_count ? iospd_gen_slot_init(&w->targets[sl->target].gen) : 0;
    w->ready[s] = s;
  }
  w->ready_count = n;

  w->weight_total = 0;
  w->weights_equal = true;
  for (uint32_t k = 0; k < w->target_count; k++) {
    w->weight_total += w->targets[k].weight;
    if (w->targets[k].weight != w->targets[0].weight) w->weights_equal = false;
  }
  w->progress_left = w->ctl->progress;
  return w->setup_rc = 0;
}

void iospd_worker_begin(iospd_worker_t* w) {
  w->now = iospd_plat_ticks();
  for (uint32_t k = 0; k < w->target_count; k++)
    w->targets[k].meter_start = w->now;
  w->begun = true;
  if (w->slot_count == 0) w->stopping = true;
}

/* -O: a slot picks its target per I/O, uniformly when all weights are equal,
 * else by cumulative weight (DISKSPD's threads and request slots). */
static uint32_t pick_target(iospd_worker_t* w) {
  if (w->target_count <= 1) return 0;
  if (w->weights_equal || w->weight_total == 0)
    return iospd_rand32(&w->rng) % w->target_count;
  uint64_t x = iospd_rand64(&w->rng) % w->weight_total;
  for (uint32_t k = 0; k < w->target_count; k++) {
    if (x < w->targets[k].weight) return k;
    x -= w->targets[k].weight;
  }
  return w->target_count - 1;
}

/* 2.7: 0 if the target may issue now, else the milliseconds to wait. */
static uint32_t throttle_wait(const iospd_worker_t* w,
                              const iospd_wtarget_t* tg, uint64_t now) {
  const iospd_target_t* t = tg->t;
  if (t->throughput_bpms > 0) {
    uint64_t elapsed = (now - tg->meter_start) / w->ticks_per_ms;
    uint64_t need = tg->issued_bytes + t->block_size;
    if (elapsed * t->throughput_bpms >= need) return 0;
    if (w->ctl->experiment_flags & 1u) {
      uint64_t due = need / t->throughput_bpms;
      uint64_t ms = due > elapsed ? due - elapsed : 1;
      return ms > IOSPD_POLL_MS ? IOSPD_POLL_MS : (uint32_t)(ms ? ms : 1);
    }
    return 1;
  }
  /* Think time only applies without a rate (DISKSPD quirk). */
  if (t->think_time > 0 && t->burst_size > 0 && now < tg->think_until) {
    uint64_t ms =
        (tg->think_until - now + w->ticks_per_ms - 1) / w->ticks_per_ms;
    return ms > IOSPD_POLL_MS ? IOSPD_POLL_MS : (uint32_t)(ms ? ms : 1);
  }
  return 0;
}

static void throttle_issued(const iospd_worker_t* w, iospd_wtarget_t* tg,
                            uint64_t now) {
  const iospd_target_t* t = tg->t;
  tg->issued_bytes += t->block_size;
  if (t->throughput_bpms == 0 && t->think_time > 0 && t->burst_size > 0) {
    /* A per-thread burst of 0 pauses after every I/O (DISKSPD quirk). */
    uint32_t burst = tg->burst ? tg->burst : 1;
    if (++tg->burst_count >= burst) {
      tg->burst_count = 0;
      tg->think_until = now + (uint64_t)t->think_time * w->ticks_per_ms;
    }
  }
}

static void* write_buffer(iospd_worker_t* w, iospd_wtarget_t* tg,
                          const iospd_slot_t* s) {
  const iospd_target_t* t = tg->t;
  if (tg->pool != NULL) {
    uint8_t* b = tg->buf + tg->buf_len / 2 + (size_t)s->index * t->block_size;
    iospd_content_next(&tg->content, b);
    return b;
  }
  if (tg->rnd_src != NULL) {
    /* A random window of the shared source (DISKSPD's write buffers). */
    uint64_t span = tg->rnd_src_size - t->block_size + 1;
    uint64_t off = iospd_rand32(&w->rng) % span;
    off -= off % tg->rnd_align; /* 1 unless unbuffered (-Su/-Sh) */
    return (void*)(tg->rnd_src + off);
  }
  uint8_t* p = tg->buf + tg->buf_len / 2 + (size_t)s->index * t->block_size;
  if (w->ts->random_write_data && t->pattern != IOSPD_PATTERN_ZERO)
    iospd_rand_fill(&w->rng, p, t->block_size, true);
  return p;
}

/* --verify, at issue: a write marks its block in flight and gets its
 * header (in the slot's own buffer: a -Z source window is shared, so it is
 * copied first); a read notes the block's state word, to tell at completion
 * whether a write of the block overlapped it. */
static void verify_issue(iospd_worker_t* w, iospd_wtarget_t* tg,
                         iospd_slot_t* s) {
  const iospd_vstate_t* vs = tg->vstate;
  uint32_t bs = tg->t->block_size;
  uint64_t blk = s->io.offset / bs;
  if (blk >= vs->block_count) { /* not a whole block of the state: none */
    s->vword = 0;
    s->vgen = 0;
    return;
  }
  _Atomic uint64_t* e = &vs->words[blk];
  if (s->io.op == IOSPD_OP_READ) {
    if (tg->vreadonly)
      __builtin_prefetch((const void*)e); /* read at completion */
    else
      s->vword = atomic_load_explicit(e, memory_order_acquire);
    return;
  }
  uint8_t* own = tg->buf + tg->buf_len / 2 + (size_t)s->index * bs;
  if (s->io.buf != own) {
    memcpy(own, s->io.buf, bs);
    s->io.buf = own;
  }
  s->vgen = iospd_vw_issue_write(e, &vs->hdr->next_gen);
  uint64_t ticks = w->now > tg->vtime_ticks ? w->now - tg->vtime_ticks : 0;
  iospd_vblock_stamp(own, bs, &tg->vstamp, s->io.offset, s->vgen,
                     tg->vtime_ns + (uint64_t)((double)ticks * w->ns_per_tick));
}

/* --verify, at completion: a write records its generation; a read is
 * checked. Failures are counted, the first ones kept for the report. */
static void verify_complete(iospd_worker_t* w, iospd_wtarget_t* tg,
                            iospd_slot_t* s, bool failed) {
  const iospd_vstate_t* vs = tg->vstate;
  uint32_t bs = tg->t->block_size;
  uint64_t blk = s->io.offset / bs;
  if (blk >= vs->block_count) return;
  _Atomic uint64_t* e = &vs->words[blk];
  if (s->io.op == IOSPD_OP_WRITE) {
    iospd_vw_complete_write(e, s->vgen, !failed);
    if (!failed) tg->vcounts->written++;
    return;
  }
  if (failed) return;
  uint64_t now = atomic_load_explicit(e, memory_order_acquire);
  iospd_vfail_t f;
  iospd_vkind_t k = iospd_vblock_judge(s->io.buf, bs, vs->target_id,
                                       s->io.offset,
                                       tg->vreadonly ? now : s->vword, now, &f);
  tg->vcounts->kinds[k]++;
  if (k >= IOSPD_VK_FIRST_FAILURE) {
    f.kind = (uint8_t)k;
    f.target = tg->target_index;
    f.offset = s->io.offset;
    f.block = blk;
    iospd_vfail_keep(w->vfails, &w->vfail_count, w->vfail_cap, &f);
  }
}

/* Turns ready slots into pending I/Os as far as the throttles allow; the
 * throttled keep their place in the FIFO. Returns the shortest wait. */
static uint32_t fill(iospd_worker_t* w) {
  uint32_t kept = 0, min_wait = UINT32_MAX;
  uint64_t now = w->now;
  for (uint32_t i = 0; i < w->ready_count; i++) {
    iospd_slot_t* s = &w->slots[w->ready[i]];
    uint32_t k = w->shared_slots ? pick_target(w) : s->target;
    iospd_wtarget_t* tg = &w->targets[k];
    uint32_t wait = tg->throttled ? throttle_wait(w, tg, now) : 0;
    if (wait != 0) {
      w->ready[kept++] = w->ready[i];
      if (wait < min_wait) min_wait = wait;
      continue;
    }
    s->target = k;
    uint8_t op;
    uint64_t off;
    iospd_gen_next(&tg->gen, &s->cursor, &op, &off);
    s->io.op = op;
    s->io.offset = off;
    s->io.file_index = tg->file_index;
    s->io.length = tg->t->block_size;
    s->io.buf = op == IOSPD_OP_WRITE
                    ? write_buffer(w, tg, s)
                    : tg->buf + (size_t)s->index * tg->t->block_size;
    if (IOSPD_UNLIKELY(tg->vstate != NULL)) verify_issue(w, tg, s);
    if (tg->throttled) throttle_issued(w, tg, now);
    w->pending[w->pending_count++] = s->io;
  }
  w->ready_count = kept;
  return min_wait;
}

static bool fail(iospd_worker_t* w, int code, int in_io, uint8_t op,
                 uint32_t target, uint64_t offset) {
  bool first = w->fail.code == 0;
  if (first) {
    w->fail.code = code;
    w->fail.in_io = in_io;
    w->fail.op = op;
    w->fail.target = target;
    w->fail.offset = offset;
    /* The raw code says what the IOSPD_E* class cannot (a paused CSV, a
     * device that is not ready, an SMB session lost). */
    w->fail.os_code =
        w->q != NULL ? iospd_plat_queue_os_error(w->q, w->fail.os_text,
                                                 sizeof w->fail.os_text)
                     : 0;
  }
  w->stopping = true;
  atomic_store_explicit(&w->ctl->failed, 1, memory_order_release);
  return first;
}

/* Cold: for the first failure that may mean the target changed size (a
 * short transfer, a fault in a mapped view), what moved and how large the
 * target is now, for the message. */
static void note_sizes(iospd_worker_t* w, const iospd_slot_t* s,
                       const iospd_wtarget_t* tg, uint32_t bytes) {
  iospd_worker_fail_t* f = &w->fail;
  f->bytes = bytes;
  f->length = s->io.length;
  f->size_start = tg->file_size;
  iospd_file_info_t info;
  memset(&info, 0, sizeof(info));
  f->size_now_known = tg->file != NULL &&
                      iospd_plat_file_info(tg->file, &info, NULL) == 0;
  f->size_now = info.size;
}

/* A completion that moved fewer bytes than asked. It is accepted (counted
 * with the bytes moved, and named in a warning after the run) only when it
 * moved everything up to the end the target had at the start: an I/O that
 * starts inside the target and runs past its end, which a trimmed -rdabs
 * range issues as DISKSPD does. Anything else fails the run and is never
 * counted: a transfer of 0 bytes, or one that stopped short of that end
 * because the target was truncated under the run, or because the device or
 * file system returned a partial transfer. A partial transfer is not
 * retried: the retry would be a second I/O timed as part of the first. */
static bool short_is_failure(iospd_worker_t* w, const iospd_slot_t* s,
                             const iospd_wtarget_t* tg, uint32_t bytes) {
  uint64_t end = tg->file_size;
  uint64_t want = s->io.offset < end ? end - s->io.offset : 0;
  if (want > s->io.length) want = s->io.length;
  if (bytes > 0 && bytes >= want) return false;
  if (fail(w, IOSPD_EIO, IOSPD_FAIL_SHORT, s->io.op, s->target, s->io.offset))
    note_sizes(w, s, tg, bytes);
  return true;
}

/* One issue stamp for n pending I/Os from the first-th, taken right
 * before the platform call that hands them to the kernel at once. */
static void stamp_pending(iospd_worker_t* w, uint32_t first, uint32_t n) {
  uint64_t stamp = iospd_plat_ticks();
  for (uint32_t i = first; i < first + n; i++) {
    iospd_slot_t* s = &w->slots[w->pending[i].tag];
    s->issue_ticks = stamp;
    s->in_flight = true;
  }
}

/* The tool's own cost (iospd/cost.h): one submit call that handed n over. */
static inline void count_submit(iospd_worker_t* w, uint32_t n) {
  if (w->cost != NULL) {
    w->cost->submit_calls++;
    w->cost->submitted += n;
  }
}

static uint64_t to_ns(const iospd_worker_t* w, uint64_t ticks);

/* Measuring began (on) or ended (off) as this worker sees it: its CPU
 * times and clock then, so that the cost covers what the I/O counts
 * cover. Twice a run, never per I/O. */
static void cost_mark(iospd_worker_t* w, bool on, uint64_t now) {
  w->cost_measuring = on;
  if (w->cost == NULL) return;
  uint64_t u = 0, k = 0;
  bool known = iospd_plat_thread_cpu_split(&u, &k);
  if (on) {
    w->cost_user0 = known ? u : 0;
    w->cost_sys0 = known ? k : 0;
    w->cost_ticks0 = known ? now : 0;
    return;
  }
  if (!known || w->cost_ticks0 == 0 || now < w->cost_ticks0) return;
  w->cost->user_ns += u > w->cost_user0 ? u - w->cost_user0 : 0;
  w->cost->sys_ns += k > w->cost_sys0 ? k - w->cost_sys0 : 0;
  w->cost->wall_ns += to_ns(w, now - w->cost_ticks0);
}

/* -u: hands whole batches of ring_batch over, one submit call each, all but
 * the last; *taken says how many went, *last how many the combined
 * submit-and-wait call that follows hands over (one more whole batch, or
 * with nothing in flight whatever is left; 0 after a short submit, or when
 * fewer than a batch are pending and completions are still to come, which
 * bring more). Stops at the first refusal (rc < 0). */
static int ring_batches(iospd_worker_t* w, uint32_t* taken, uint32_t* last) {
  uint32_t b = w->ring_batch, n = w->pending_count;
  uint32_t send = w->inflight == 0 ? n : n / b * b;
  uint32_t pre = 0;
  *last = 0;
  while (send - pre > b) {
    uint32_t one = 0;
    stamp_pending(w, pre, b);
    int rc = iospd_plat_queue_submit(w->q, w->pending + pre, b, &one);
    if (one > b) one = b;
    count_submit(w, one);
    pre += one;
    *taken = pre;
    if (rc < 0) return rc;
    if (one < b) return 0; /* the queue is full: wait, then the rest */
  }
  *taken = pre;
  *last = send - pre;
  return 0;
}

/* Where each I/O is its own OS call (Windows ReadFile, a cached read that
 * copies inside it): one submit per I/O, each stamped right before its own
 * call, so the k-th is not charged for the k-1 calls before it. Stops at
 * the first refusal; *acc says how many were taken. */
static int submit_each(iospd_worker_t* w, uint32_t* acc) {
  uint32_t i = 0;
  int rc = 0;
  for (; i < w->pending_count; i++) {
    const iospd_io_t* io = &w->pending[i];
    uint32_t one = 0;
    w->slots[io->tag].issue_ticks = iospd_plat_ticks();
    w->slots[io->tag].in_flight = true;
    rc = iospd_plat_queue_submit(w->q, io, 1, &one);
    count_submit(w, one ? 1 : 0);
    if (rc < 0 || one == 0) break;
  }
  *acc = i;
  return rc;
}

/* After a submit: acc of the pending I/Os are in flight; a short submit
 * keeps the rest, in order, for the next pass. */
static void accepted(iospd_worker_t* w, uint32_t acc) {
  if (acc > w->pending_count) acc = w->pending_count;
  w->inflight += acc;
  /* Stamped but not taken: not the kernel's (their completions, if any
   * came, would be strays). */
  for (uint32_t i = acc; i < w->pending_count; i++)
    w->slots[w->pending[i].tag].in_flight = false;
  if (acc > 0 && acc < w->pending_count)
    memmove(w->pending, w->pending + acc,
            (w->pending_count - acc) * sizeof(*w->pending));
  w->pending_count -= acc;
}

/* How long a reap may wait, and which wait statistic it counts. */
static uint32_t reap_timeout(iospd_worker_t* w, uint32_t throttle_ms,
                             uint32_t pending) {
  w->wait_counted = false;
  if (w->stopping) return 10 * IOSPD_POLL_MS;
  if (w->ready_count > 0) {
    if (w->wait) w->wait->throttle_wait++;
    w->wait_counted = true;
    return throttle_ms < IOSPD_POLL_MS ? throttle_ms : IOSPD_POLL_MS;
  }
  if (pending > 0) return 1; /* the queue was full: come back soon */
  if (w->wait) w->wait->completion_wait++;
  w->wait_counted = true;
  return IOSPD_POLL_MS;
}

/* DISKSPD 2.3's -vs "Completion Wait": how many completions each counted
 * wait returned (0, 1, ..., 7 or more). One increment per wait. */
static inline void wait_done(iospd_worker_t* w, uint32_t got) {
  if (w->wait_counted && w->wait != NULL)
    w->wait->completion_wait_hist[got < 7 ? got : 7]++;
  if (w->wait_counted && w->cost != NULL) {
    w->cost->waits++;
    w->cost->wait_completions += got;
  }
}

static void reap_failed(iospd_worker_t* w, int rc) {
  fail(w, rc, IOSPD_FAIL_REAP, 0, 0, 0);
  /* The queue cannot tell us more; teardown cancels what is left. */
  w->inflight = 0;
  w->self_teardown = true;
}

/* The steady state: new I/Os to start and nothing stopping. Submit and reap
 * in one platform call (one kernel entry on io_uring). Its wait is the one
 * a full submit would have had, which is what almost always happens; after
 * a short submit (SQ full) waiting for a completion is right anyway. */
static uint32_t submit_and_reap(iospd_worker_t* w, uint32_t throttle_ms) {
  uint32_t timeout = reap_timeout(w, throttle_ms, 0);
  uint32_t n = w->pending_count, acc = 0, got = 0;
  int rc;
  bool handing_over; /* a failure is the submit's, not the wait's */
  if (w->submit_each) {
    rc = submit_each(w, &acc);
    handing_over = rc < 0;
    /* Like submit_and_reap, never wait when nothing is in flight. */
    if (rc == 0 && w->inflight + acc > 0) {
      rc = iospd_plat_queue_reap(w->q, w->cqe, w->reap_max, 1, timeout, &got);
      if (rc == 0) wait_done(w, got);
    }
  } else {
    uint32_t pre = 0, last = n;
    rc = w->ring_batch != 0 ? ring_batches(w, &pre, &last) : 0;
    if (rc < 0) {
      acc = pre;
      handing_over = true;
    } else if (last == 0) {
      /* -u: no whole batch to hand over; wait for the completions that
       * bring more. */
      acc = pre;
      if (w->inflight + pre > 0) {
        rc = iospd_plat_queue_reap(w->q, w->cqe, w->reap_max, 1, timeout,
                                   &got);
        if (rc == 0) wait_done(w, got);
      }
      handing_over = false;
    } else {
      stamp_pending(w, pre, last);
      rc = iospd_plat_queue_submit_and_reap(w->q, w->pending + pre, last,
                                            &acc, w->cqe, w->reap_max, 1,
                                            timeout, &got);
      if (acc > last) acc = last;
      count_submit(w, acc);
      handing_over = rc < 0 && acc < last;
      if (rc == 0) wait_done(w, got);
      acc += pre;
    }
  }
  if (handing_over) {
    /* Refused while handing the I/Os over. */
    const iospd_io_t* io = &w->pending[acc];
    fail(w, rc, IOSPD_FAIL_SUBMIT, io->op, w->slots[io->tag].target,
         io->offset);
    accepted(w, acc);
    return 0;
  }
  accepted(w, acc);
  if (rc < 0) {
    reap_failed(w, rc);
    return 0;
  }
  if (got > w->reap_max) got = w->reap_max;
  if (acc == 0 && got == 0 && w->inflight == 0) {
    /* Nothing taken and nothing to wait for: do not spin. */
    if (w->wait) w->wait->throttle_sleep++;
    iospd_plat_sleep(1);
  }
  return got;
}

static uint64_t to_ns(const iospd_worker_t* w, uint64_t ticks) {
  if (w->ns_mult) return ticks * w->ns_mult;
  return (uint64_t)((double)ticks * w->ns_per_tick);
}

static void complete(iospd_worker_t* w, const iospd_cqe_t* c, uint64_t now,
                     bool measuring, uint64_t measure_start, bool stopped) {
  if (c->tag >= w->slot_count) return; /* not ours: platform bug */
  iospd_slot_t* s = &w->slots[c->tag];
  if (IOSPD_UNLIKELY(!s->in_flight)) {
    w->stray_completions++;
    return;
  }
  s->in_flight = false;
  iospd_wtarget_t* tg = &w->targets[s->target];
  if (w->inflight > 0) w->inflight--;
  bool failed = c->result < 0;
  if (IOSPD_UNLIKELY(!failed && (uint32_t)c->result != s->io.length))
    failed = short_is_failure(w, s, tg, (uint32_t)c->result);
  if (IOSPD_UNLIKELY(tg->vstate != NULL))
    verify_complete(w, tg, s, failed || c->result < 0);
  if (c->result == IOSPD_ECANCELED && stopped) {
    /* The controller cancelled a call that outlived the drain time. */
    w->abandoned++;
  } else if (failed) {
    iospd_target_stats_t* st = tg->stats;
    int code = c->result < 0 ? c->result : IOSPD_EIO;
    st->errors[s->io.op]++;
    if (st->first_error == 0) {
      st->first_error = code;
      st->first_error_offset = s->io.offset;
    }
    if (c->result < 0 &&
        fail(w, c->result, IOSPD_FAIL_COMPLETION, s->io.op, s->target,
             s->io.offset) &&
        c->result == IOSPD_EMAPFAULT)
      note_sizes(w, s, tg, 0);
    if (IOSPD_UNLIKELY(w->series != NULL) && !stopped)
      iospd_wseries_error(w->series);
  } else {
    /* Converted once: the time series and the statistics take the same
     * latency. */
    uint64_t lat_ns =
        to_ns(w, now > s->issue_ticks ? now - s->issue_ticks : 0);
    if (IOSPD_UNLIKELY(w->series != NULL) && !stopped)
      /* Every phase, for the time series and the live status. */
      iospd_wseries_record(w->series, s->target, s->io.op,
                           (uint32_t)c->result, lat_ns);
    if (measuring) {
      if (IOSPD_UNLIKELY((uint32_t)c->result != s->io.length)) {
        if (w->short_count++ == 0) {
          w->short_first_bytes = (uint32_t)c->result;
          w->short_first_length = s->io.length;
          w->short_first_offset = s->io.offset;
        }
      }
      uint64_t since = now > measure_start ? now - measure_start : 0;
      iospd_target_stats_record(tg->stats, s->io.op, (uint32_t)c->result,
                                lat_ns, to_ns(w, since));
    }
  }
  if (w->ctl->progress != 0 && --w->progress_left == 0) {
    w->progress_left = w->ctl->progress;
    if (w->ctl->progress_dot != NULL)
      w->ctl->progress_dot(w->ctl->progress_ctx);
  }
  w->ready[w->ready_count++] = c->tag;
}

bool iospd_worker_pass(iospd_worker_t* w) {
  if (w->finished) return true;
  iospd_hot_enter();
  uint32_t throttle_ms = UINT32_MAX;
  uint32_t got = 0;
  bool reaped = false;
  if (!w->stopping) {
    throttle_ms = fill(w);
    if (w->pending_count > 0) {
      got = submit_and_reap(w, throttle_ms);
      reaped = true;
    }
  }
  if (!reaped && w->stopping) {
    /* Never submitted: these slots are simply idle again (and a verified
     * write that never went out is no longer in flight). */
    for (uint32_t i = 0; i < w->pending_count; i++) {
      iospd_slot_t* s = &w->slots[w->pending[i].tag];
      const iospd_wtarget_t* tg = &w->targets[s->target];
      if (IOSPD_UNLIKELY(tg->vstate != NULL) && s->io.op == IOSPD_OP_WRITE &&
          s->io.offset / tg->t->block_size < tg->vstate->block_count)
        iospd_vw_cancel_write(
            &tg->vstate->words[s->io.offset / tg->t->block_size]);
      w->ready[w->ready_count++] = w->pending[i].tag;
    }
    w->pending_count = 0;
    if (w->stop_ticks == 0) w->stop_ticks = w->now ? w->now : 1;
    /* An I/O that never completes must not hang the run: after the drain
     * timeout, teardown's queue destroy cancels what is left. */
    if (w->inflight > 0 &&
        w->now - w->stop_ticks >= (uint64_t)IOSPD_DRAIN_MS * w->ticks_per_ms) {
      w->abandoned += w->inflight;
      w->inflight = 0;
      w->self_teardown = true;
    }
    if (w->inflight == 0) {
      w->finished = true;
      if (w->cost_measuring) cost_mark(w, false, iospd_plat_ticks());
      /* Past every interval: nobody waits for this worker's rows. */
      if (w->series != NULL)
        iospd_wseries_move(w->series, w->ctl, IOSPD_PHASE_STOP, w->now);
      iospd_hot_leave();
      return true;
    }
  }

  if (reaped) {
    /* submit_and_reap did the waiting */
  } else if (w->inflight == 0) {
    /* Everything throttled (or refused) and nothing in flight: a plain
     * sleep, DISKSPD's "throttle sleep". */
    uint32_t ms = throttle_ms == UINT32_MAX ? 1 : throttle_ms;
    if (w->wait) w->wait->throttle_sleep++;
    iospd_plat_sleep(ms);
  } else {
    uint32_t timeout = reap_timeout(w, throttle_ms, w->pending_count);
    int rc = iospd_plat_queue_reap(w->q, w->cqe, w->reap_max, 1, timeout, &got);
    if (rc < 0) {
      reap_failed(w, rc);
      got = 0;
    } else {
      wait_done(w, got);
    }
  }

  /* One clock read and one phase read for the whole batch. */
  uint64_t now = iospd_plat_ticks();
  w->now = now;
  uint32_t phase = atomic_load_explicit(&w->ctl->phase, memory_order_acquire);
  if (phase == IOSPD_PHASE_MEASURE || phase == IOSPD_PHASE_COOLDOWN) {
    /* The controller's deadlines (engine.h), by this worker's clock; a
     * completion seen exactly at the end still counts, as when the
     * controller ends the phase on time. */
    if (now > atomic_load_explicit(&w->ctl->stop_ticks, memory_order_relaxed))
      phase = IOSPD_PHASE_STOP;
    else if (phase == IOSPD_PHASE_MEASURE &&
             now > atomic_load_explicit(&w->ctl->measure_end_ticks,
                                        memory_order_relaxed))
      phase = IOSPD_PHASE_COOLDOWN;
  }
  bool measuring = phase == IOSPD_PHASE_MEASURE;
  if (IOSPD_UNLIKELY(measuring != w->cost_measuring))
    cost_mark(w, measuring, now);
  /* Only read once MEASURE has been seen: the acquire above orders it. */
  uint64_t start = measuring ? w->ctl->measure_start_ticks : 0;
  bool stopped = phase == IOSPD_PHASE_STOP;
  /* The interval this batch belongs to (interval_feed.h). */
  if (IOSPD_UNLIKELY(w->series != NULL))
    iospd_wseries_at(w->series, w->ctl, phase, now);
  for (uint32_t i = 0; i < got; i++)
    complete(w, &w->cqe[i], now, measuring, start, stopped);
  if (phase == IOSPD_PHASE_STOP ||
      atomic_load_explicit(&w->ctl->failed, memory_order_relaxed))
    w->stopping = true;
  iospd_hot_leave();
  return false;
}

void iospd_worker_run(iospd_worker_t* w) {
  iospd_worker_begin(w);
  while (!iospd_worker_pass(w)) {
  }
}

void iospd_worker_teardown(iospd_worker_t* w) {
  /* The queue goes first: it cancels and drains what is in flight, and
   * only then may the buffers go (docs/design.md, 'Memory'). */
  bool drained = iospd_plat_queue_destroy(w->q) == 0;
  w->q = NULL;
  for (uint32_t k = 0; k < w->target_count; k++) {
    iospd_wtarget_t* tg = &w->targets[k];
    /* Not drained: the kernel may still write into the buffers, so they and
     * the handles are leaked on purpose (the process exits soon anyway). */
    if (drained) {
      if (tg->file != NULL) iospd_plat_file_close(tg->file);
      if (tg->buf != NULL) iospd_plat_buf_free(tg->buf, tg->buf_len);
    }
    tg->file = NULL;
    tg->buf = NULL;
    iospd_gen_destroy(&tg->gen);
  }
  iospd_free(w->slots);
  iospd_free(w->ready);
  iospd_free(w->pending);
  w->slots = NULL;
  w->ready = NULL;
  w->pending = NULL;
}

/* "now N bytes (M at the start)", or why the size is not known. */
static const char* size_change(const iospd_worker_fail_t* f, char* buf,
                               size_t n) {
  if (!f->size_now_known)
    snprintf(buf, n, "size now unknown, %llu bytes at the start",
             (unsigned long long)f->size_start);
  else
    snprintf(buf, n, "now %llu bytes, %llu at the start",
             (unsigned long long)f->size_now,
             (unsigned long long)f->size_start);
  return buf;
}

static bool shrank(const iospd_worker_fail_t* f) {
  return f->size_now_known && f->size_now < f->size_start &&
         f->size_now < f->offset + f->length;
}

static int short_error(const iospd_worker_t* w, const iospd_worker_fail_t* f,
                       const char* what, const char* path, iospd_err_t* err) {
  char sz[128];
  (void)size_change(f, sz, sizeof sz);
  if (shrank(f))
    return iospd_err_set(err, f->code,
                         "%s at offset %llu of target '%s' moved %u of %u "
                         "bytes (thread %u): the target now ends before "
                         "that I/O's end (%s); was it truncated during the "
                         "run?",
                         what, (unsigned long long)f->offset, path, f->bytes,
                         f->length, w->id, sz);
  return iospd_err_set(err, f->code,
                       "%s at offset %llu of target '%s' moved %u of %u "
                       "bytes (thread %u), short of the target's end "
                       "(%s): the device or file system returned a partial "
                       "transfer",
                       what, (unsigned long long)f->offset, path, f->bytes,
                       f->length, w->id, sz);
}

static int mapped_fault_error(const iospd_worker_t* w,
                              const iospd_worker_fail_t* f, const char* what,
                              const char* path, iospd_err_t* err) {
  char sz[128];
  (void)size_change(f, sz, sizeof sz);
  return iospd_err_set(err, f->code,
                       "%s at offset %llu of target '%s' through its "
                       "memory-mapped view (-Sm) failed (thread %u): the "
                       "page could not be read or written: %s (%s)",
                       what, (unsigned long long)f->offset, path, w->id,
                       shrank(f) ? "the file was truncated during the run"
                                 : "the storage behind the file failed",
                       sz);
}

int iospd_worker_error(const iospd_worker_t* w, iospd_err_t* err) {
  if (w->setup_rc < 0) {
    if (err != NULL) *err = w->setup_err;
    return w->setup_rc;
  }
  const iospd_worker_fail_t* f = &w->fail;
  if (f->code == 0) return 0;
  const char* path =
      f->target < w->target_count ? tpath(&w->targets[f->target]) : "";
  const char* what = f->op == IOSPD_OP_WRITE ? "write" : "read";
  const char* why = f->os_code != 0 && f->os_text[0] != '\0'
                        ? f->os_text
                        : iospd_strerror(f->code);
  switch (f->in_io) {
    case IOSPD_FAIL_COMPLETION:
      if (f->code == IOSPD_EMAPFAULT)
        return mapped_fault_error(w, f, what, path, err);
      return iospd_err_set(err, f->code,
                           "%s at offset %llu of target '%s' failed "
                           "(thread %u): %s",
                           what, (unsigned long long)f->offset, path, w->id,
                           why);
    case IOSPD_FAIL_SHORT:
      return short_error(w, f, what, path, err);
    case IOSPD_FAIL_SUBMIT:
      return iospd_err_set(err, f->code,
                           "submitting a %s at offset %llu of target '%s' "
                           "failed (thread %u): %s",
                           what, (unsigned long long)f->offset, path, w->id,
                           why);
    default:
      return iospd_err_set(err, f->code,
                           "waiting for I/O completions failed (thread %u): "
                           "%s",
                           w->id, why);
  }
}

/* ---- the block I/O workload (iospd/workload.h) ----------------------------
 * The controller calls these once per worker (threaded) or once per pass
 * (cooperative); the loop inside iospd_worker_run calls the pass directly. */
static int block_setup(void* state, iospd_worker_t* w, iospd_err_t* err) {
  (void)state;
  return iospd_worker_setup(w, err);
}

const iospd_workload_t iospd_workload_block = {
    .name = "block",
    .refuses = 0,
    .block_targets = true,
    .every_target = false,
    .prepare = NULL,
    .setup = block_setup,
    .begin = iospd_worker_begin,
    .pass = iospd_worker_pass,
    .run = iospd_worker_run,
    .teardown = iospd_worker_teardown,
    .error = iospd_worker_error,
    .collect = NULL,
    .finish = NULL,
};

/* SPDX-License-Identifier: MIT */
/* --verify-only (iospd/verify.h): one sequential pass over each target with
 * the platform's queue (so the cache mode and engine are the ones asked
 * for), each block checked against the state file. Nothing is written: not
 * the target, not the state.
 *
 * Not yet a workload of the controller (iospd/workload.h): the pass ends
 * when every block was read, not at a deadline, and its result is a
 * verify summary (iospd_vonly_t), not per-target statistics. Making it one
 * needs a phase without a deadline in run.c (the measured time ends when
 * every worker's pass is done) and a results slot like out->tree for the
 * summary; the block loop would then read the blocks and this file keep
 * only the judging of each. */
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/engine.h"
#include "iospd/profile.h"
#include "iospd/run.h"
#include "iospd/verify.h"
#include "run_internal.h"

#define VONLY_MAX_DEPTH 64u

typedef struct pass_s {
  const iospd_target_t* t;
  iospd_vonly_target_t* vt;
  iospd_vonly_t* out;
  iospd_vstate_t st;
  iospd_plat_file_t* file;
  iospd_plat_queue_t* q;
  uint8_t* buf;
  size_t buf_len;
  iospd_io_t* ios;
  uint32_t depth;
  uint64_t tps, next_note;
} pass_t;

static void check_one(pass_t* ps, const iospd_io_t* io, int32_t result) {
  uint32_t bs = ps->t->block_size;
  uint64_t blk = io->offset / bs;
  ps->vt->blocks++;
  uint64_t w = blk < ps->st.block_count
                   ? atomic_load_explicit(&ps->st.words[blk],
                                          memory_order_relaxed)
                   : 0;
  iospd_vfail_t f;
  memset(&f, 0, sizeof f);
  iospd_vkind_t k;
  if ((uint32_t)result != bs)
    k = IOSPD_VK_UNTRACKED; /* past the end: not a block */
  else
    k = iospd_vblock_judge(io->buf, bs, ps->st.target_id, io->offset, w, w,
                           &f);
  ps->vt->counts.kinds[k]++;
  iospd_vonly_t* o = ps->out;
  if (k >= IOSPD_VK_FIRST_FAILURE) {
    f.kind = (uint8_t)k;
    f.target = (uint32_t)(ps->vt - o->targets);
    f.offset = io->offset;
    f.block = blk;
    iospd_vfail_keep(o->fails, &o->fail_count, o->fail_cap, &f);
  }
}

static void progress(pass_t* ps, const iospd_run_hooks_t* hooks, bool last) {
  uint64_t now = iospd_plat_ticks();
  if (!last && now < ps->next_note) return;
  ps->next_note = now + ps->tps;
  uint64_t total = (ps->vt->end - ps->vt->start) / ps->t->block_size;
  uint64_t done = ps->vt->blocks;
  iospd_run_sayf(hooks, IOSPD_MSG_PROGRESS,
                 "verify-only: '%s': %llu%% (%llu of %llu blocks), %llu "
                 "failures so far",
                 ps->vt->path,
                 (unsigned long long)(total ? done * 100 / total : 100),
                 (unsigned long long)done, (unsigned long long)total,
                 (unsigned long long)iospd_vcounts_failures(&ps->vt->counts));
}

static int read_pass(pass_t* ps, const iospd_profile_t* p,
                     const iospd_run_hooks_t* hooks, iospd_err_t* err) {
  const iospd_target_t* t = ps->t;
  uint32_t bs = t->block_size;
  iospd_err_t e;
  iospd_err_clear(&e);
  iospd_target_t rt = *t;
  rt.write_ratio = 0;
  rt.memory_mapped = false; /* a read pass; -Sm maps read+write */
  iospd_open_opts_t o = {t->path, iospd_open_flags(&rt, ps->depth)};
  int rc = iospd_plat_file_open(&ps->file, &o, &e);
  if (rc < 0)
    return iospd_err_set(err, rc, "--verify-only: cannot open target '%s': %s",
                         t->path, e.msg[0] ? e.msg : iospd_strerror(rc));
  iospd_file_info_t info;
  memset(&info, 0, sizeof info);
  rc = iospd_plat_file_info(ps->file, &info, &e);
  if (rc < 0)
    return iospd_err_set(err, rc, "--verify-only: cannot find the size of "
                         "'%s': %s", t->path,
                         e.msg[0] ? e.msg : iospd_strerror(rc));
  uint64_t end = info.size - info.size % bs;
  if (t->max_file_size != 0 && t->base_offset + t->max_file_size < end)
    end = t->base_offset + t->max_file_size - (t->max_file_size % bs);
  ps->vt->start = t->base_offset < end ? t->base_offset : end;
  ps->vt->end = end;
  unsigned qf = ps->depth == 1 ? IOSPD_QUEUE_SYNC : 0;
  if (t->cache_mode == IOSPD_CACHE_DISABLE_OS) qf |= IOSPD_QUEUE_UNBUFFERED;
  rc = iospd_plat_queue_create(&ps->q, ps->depth, qf, p->ext.engine, &e);
  if (rc < 0) {
    ps->q = NULL;
    return iospd_err_set(err, rc, "--verify-only: cannot create an I/O "
                         "queue: %s", e.msg[0] ? e.msg : iospd_strerror(rc));
  }
  ps->out->engine = iospd_plat_queue_engine(ps->q);
  uint32_t fi = 0;
  rc = iospd_plat_queue_attach(ps->q, ps->file, &fi, &e);
  if (rc < 0)
    return iospd_err_set(err, rc, "--verify-only: cannot attach '%s': %s",
                         t->path, e.msg[0] ? e.msg : iospd_strerror(rc));
  ps->buf_len = (size_t)bs * ps->depth;
  ps->buf = iospd_plat_buf_alloc(ps->buf_len, 4096, 0);
  ps->ios = iospd_calloc(ps->depth, sizeof(*ps->ios));
  if (ps->buf == NULL || ps->ios == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");

  uint64_t next = ps->vt->start;
  uint32_t inflight = 0;
  uint32_t* free_slots = iospd_calloc(ps->depth, sizeof(uint32_t));
  if (free_slots == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "no memory");
  uint32_t nfree = ps->depth;
  for (uint32_t i = 0; i < ps->depth; i++) free_slots[i] = ps->depth - 1 - i;
  iospd_cqe_t cqe[IOSPD_REAP_MAX];
  rc = 0;
  while (rc == 0 && (next < ps->vt->end || inflight > 0)) {
    while (nfree > 0 && next < ps->vt->end) {
      uint32_t s = free_slots[--nfree];
      iospd_io_t* io = &ps->ios[s];
      io->tag = s;
      io->op = IOSPD_OP_READ;
      io->file_index = fi;
      io->offset = next;
      io->length = bs;
      io->buf = ps->buf + (size_t)s * bs;
      uint32_t acc = 0;
      rc = iospd_plat_queue_submit(ps->q, io, 1, &acc);
      if (rc < 0 || acc == 0) {
        free_slots[nfree++] = s;
        break;
      }
      inflight++;
      next += bs;
    }
    if (rc < 0) break;
    uint32_t got = 0;
    rc = iospd_plat_queue_reap(ps->q, cqe, IOSPD_REAP_MAX, 1, IOSPD_POLL_MS,
                               &got);
    for (uint32_t i = 0; rc == 0 && i < got; i++) {
      const iospd_io_t* io = &ps->ios[cqe[i].tag % ps->depth];
      inflight--;
      free_slots[nfree++] = io->tag;
      if (cqe[i].result < 0) {
        rc = iospd_err_set(err, cqe[i].result,
                           "--verify-only: reading offset %llu of '%s' "
                           "failed: %s",
                           (unsigned long long)io->offset, t->path,
                           iospd_strerror(cqe[i].result));
        break;
      }
      check_one(ps, io, cqe[i].result);
    }
    progress(ps, hooks, false);
  }
  iospd_free(free_slots);
  if (rc == 0) {
    progress(ps, hooks, true);
    ps->vt->complete = true;
  }
  return rc;
}

static void pass_free(pass_t* ps) {
  bool drained = iospd_plat_queue_destroy(ps->q) == 0;
  if (drained) {
    if (ps->file) iospd_plat_file_close(ps->file);
    if (ps->buf) iospd_plat_buf_free(ps->buf, ps->buf_len);
  }
  iospd_free(ps->ios);
  iospd_vstate_close(&ps->st);
}

int iospd_verify_only(const iospd_profile_t* p, const iospd_run_hooks_t* hooks,
                      uint64_t tps, iospd_vonly_t* out, iospd_err_t* err) {
  memset(out, 0, sizeof(*out));
  uint32_t n = 0;
  for (uint32_t i = 0; i < p->timespan_count; i++)
    n += p->timespans[i].target_count;
  out->targets = iospd_calloc(n ? n : 1, sizeof(*out->targets));
  out->fail_cap = iospd_verify_errors(&p->ext);
  if (out->fail_cap > 4096) out->fail_cap = 4096;
  out->fails = iospd_calloc(out->fail_cap ? out->fail_cap : 1,
                            sizeof(*out->fails));
  if (out->targets == NULL || out->fails == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < p->timespan_count; i++)
    for (uint32_t j = 0; j < p->timespans[i].target_count; j++) {
      const iospd_target_t* t = &p->timespans[i].targets[j];
      bool seen = false;
      for (uint32_t k = 0; k < out->target_count && !seen; k++)
        seen = iospd_plat_same_path(out->targets[k].path, t->path);
      if (seen) continue;
      iospd_vonly_target_t* vt = &out->targets[out->target_count++];
      vt->path = t->path;
      pass_t ps;
      memset(&ps, 0, sizeof ps);
      ps.t = t;
      ps.vt = vt;
      ps.out = out;
      ps.tps = tps ? tps : 1;
      ps.next_note = iospd_plat_ticks() + ps.tps;
      ps.depth = t->request_count ? t->request_count : 1;
      if (ps.depth > VONLY_MAX_DEPTH) ps.depth = VONLY_MAX_DEPTH;
      iospd_file_info_t info;
      memset(&info, 0, sizeof info);
      iospd_err_t e;
      iospd_err_clear(&e);
      int rc = iospd_plat_path_info(t->path, &info, &e);
      if (rc < 0)
        return iospd_err_set(err, rc, "--verify-only: cannot look at target "
                             "'%s': %s", t->path,
                             e.msg[0] ? e.msg : iospd_strerror(rc));
      if (info.is_device && p->ext.verify_state == NULL)
        return iospd_err_set(err, IOSPD_EUSAGE,
                             "--verify-only on disk or volume '%s': give the "
                             "state file the verified run used with "
                             "--verify-state=FILE", t->path);
      char* path = iospd_vstate_default_path(t->path, p->ext.verify_state);
      if (path == NULL)
        return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
      rc = iospd_vstate_open(&ps.st, path, t->path, info.size, t->block_size,
                             false, p->ext.verify_state != NULL, 0, err);
      iospd_free(path);
      if (rc == 0) rc = read_pass(&ps, p, hooks, err);
      pass_free(&ps);
      if (rc < 0) return rc;
    }
  return 0;
}

void iospd_vonly_free(iospd_vonly_t* v) {
  iospd_free(v->targets);
  iospd_free(v->fails);
  memset(v, 0, sizeof(*v));
}

/* SPDX-License-Identifier: MIT */
/* PTS's workload-independent preconditioning (iospd/pts.h): 128 KiB
 * sequential writes of random data from offset 0 over twice the target's
 * capacity, wrapping at its end, with the user's -o writes in flight and
 * the target's -S flags. Not a timed run: it ends when the bytes are
 * written, so it is its own loop on the platform's queue rather than a
 * workload of the controller (docs/design.md). */
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/engine.h"
#include "iospd/platform.h"
#include "iospd/pts.h"
#include "iospd/rand.h"

#define WIPC_MAX_DEPTH 64u

static void tell(const iospd_pts_hooks_t* h, const char* text) {
  if (h != NULL && h->status != NULL) h->status(h->ctx, text);
}

int iospd_pts_wipc(iospd_run_session_t* s, const iospd_profile_t* p,
                   const iospd_pts_hooks_t* hooks, iospd_pts_result_t* r,
                   iospd_err_t* err) {
  const iospd_timespan_t* ts = &p->timespans[0];
  iospd_target_t t = ts->targets[0]; /* shallow: for the open flags */
  t.write_ratio = 100;
  t.memory_mapped = false;
  uint32_t depth = r->outstanding < 1 ? 1 : r->outstanding;
  if (depth > WIPC_MAX_DEPTH) depth = WIPC_MAX_DEPTH;
  const uint32_t bs = IOSPD_PTS_WIPC_BLOCK;
  uint64_t cap = r->capacity;
  uint64_t total = 2 * cap;
  r->wipc_bytes = r->wipc_writes = 0;
  r->wipc_seconds = 0;
  r->wipc_done = false;
  if (cap < 512)
    return iospd_err_set(err, IOSPD_ETOOSMALL,
                         "--pts: target '%s' holds %llu bytes: too small to "
                         "precondition", t.path, (unsigned long long)cap);
  iospd_plat_file_t* f = NULL;
  iospd_plat_queue_t* q = NULL;
  uint8_t* buf = NULL;
  size_t buf_len = (size_t)depth * bs;
  iospd_open_opts_t oo = {.path = t.path,
                          .flags = iospd_open_flags(&t, depth)};
  int rc = iospd_plat_file_open(&f, &oo, err);
  if (rc < 0) goto out;
  unsigned qf = depth == 1 ? IOSPD_QUEUE_SYNC : 0;
  if (t.cache_mode == IOSPD_CACHE_DISABLE_OS) qf |= IOSPD_QUEUE_UNBUFFERED;
  rc = iospd_plat_queue_create(&q, depth, qf, p->ext.engine, err);
  uint32_t fi = 0;
  if (rc == 0) rc = iospd_plat_queue_attach(q, f, &fi, err);
  if (rc < 0) goto out;
  buf = iospd_plat_buf_alloc(buf_len, 4096, 0);
  if (buf == NULL) {
    rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory for --pts's "
                                          "preconditioning buffers");
    goto out;
  }
  /* Random data, as PTS asks: a drive that compresses or dedupes sees
   * nothing to gain. */
  iospd_rand_t rnd;
  iospd_rand_seed(&rnd, 0x50545357u);
  for (size_t i = 0; i + 8 <= buf_len; i += 8) {
    uint64_t x = iospd_rand64(&rnd);
    memcpy(buf + i, &x, 8);
  }
  iospd_io_t io[WIPC_MAX_DEPTH];
  iospd_cqe_t cqe[WIPC_MAX_DEPTH];
  bool busy[WIPC_MAX_DEPTH] = {false};
  uint32_t inflight = 0;
  uint64_t issued = 0, off = 0;
  uint64_t tps = r->ticks_per_second ? r->ticks_per_second : 1;
  uint64_t t0 = iospd_plat_ticks(), last_tell = t0;
  bool stop = false;
  while (!stop || inflight > 0) {
    if (!stop && iospd_run_session_interrupted(s)) {
      stop = true;
      r->interrupted = true;
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < depth && !stop && issued < total; k++) {
      if (busy[k]) continue;
      uint64_t len = bs;
      if (off + len > cap) len = cap - off;
      if (issued + len > total) len = total - issued;
      io[n] = (iospd_io_t){.tag = k, .op = IOSPD_OP_WRITE, .file_index = fi,
                           .offset = off, .length = (uint32_t)len,
                           .buf = buf + (size_t)k * bs};
      busy[k] = true;
      n++;
      issued += len;
      off += len;
      if (off >= cap) off = 0;
    }
    if (issued >= total) stop = true;
    uint32_t done_sub = 0;
    while (done_sub < n) {
      uint32_t acc = 0;
      rc = iospd_plat_queue_submit(q, io + done_sub, n - done_sub, &acc);
      if (rc < 0) {
        iospd_err_set(err, rc, "--pts preconditioning: cannot write to '%s': "
                               "%s", t.path, iospd_strerror(rc));
        goto out;
      }
      inflight += acc;
      done_sub += acc;
      if (acc == 0) break;
    }
    /* What was not taken is given back for the next pass. */
    for (uint32_t k = done_sub; k < n; k++) {
      busy[io[k].tag] = false;
      issued -= io[k].length;
      off = io[done_sub].offset;
      if (!r->interrupted) stop = false;
    }
    if (inflight == 0) {
      if (stop) break;
      continue;
    }
    uint32_t got = 0;
    rc = iospd_plat_queue_reap(q, cqe, depth, 1, 1000, &got);
    if (rc < 0) {
      iospd_err_set(err, rc, "--pts preconditioning: waiting for writes to "
                             "'%s' failed: %s", t.path, iospd_strerror(rc));
      goto out;
    }
    for (uint32_t i = 0; i < got; i++) {
      uint32_t k = cqe[i].tag;
      inflight--;
      busy[k] = false;
      if (cqe[i].result < 0) {
        rc = iospd_err_set(err, cqe[i].result,
                           "--pts preconditioning: a write to '%s' failed: %s",
                           t.path, iospd_strerror(cqe[i].result));
        goto out;
      }
      r->wipc_writes++;
      r->wipc_bytes += (uint64_t)cqe[i].result;
    }
    uint64_t now = iospd_plat_ticks();
    if (now - last_tell >= tps) {
      last_tell = now;
      char line[160];
      double secs = (double)(now - t0) / (double)tps;
      double frac = (double)r->wipc_bytes / (double)total;
      snprintf(line, sizeof line,
               "--pts: preconditioning (WIPC): %.1f of %.1f MiB written "
               "(%.0f %%), %.0f s, about %.0f s left",
               (double)r->wipc_bytes / 1048576.0, (double)total / 1048576.0,
               frac * 100.0, secs, frac > 0 ? secs / frac - secs : 0.0);
      tell(hooks, line);
    }
  }
  r->wipc_seconds = (double)(iospd_plat_ticks() - t0) / (double)tps;
  r->wipc_done = r->wipc_bytes == total;
  rc = 0;
out:
  if (q != NULL && iospd_plat_queue_destroy(q) < 0) buf = NULL; /* leak */
  if (buf != NULL) iospd_plat_buf_free(buf, buf_len);
  if (f != NULL) iospd_plat_file_close(f);
  return rc;
}

/* SPDX-License-Identifier: MIT */
/* --verify-only (iospd/verify.h), a workload of the controller
 * (iospd/workload.h): one worker per distinct target reads it once,
 * sequentially, with the platform's queue (so the cache mode and engine are
 * the ones asked for), and checks each block against the state file.
 * Nothing is written: not the target, not the state.
 *
 * The measured phase has no deadline (ends_itself): it ends when every
 * worker has read its target to the end, or on Ctrl-C or -yp, which stop
 * the reads and leave the targets incomplete. The controller brings -v,
 * -P, the -y events and the CPU snapshots, as for any run. A target that
 * cannot be checked (no state, unreadable) does not stop the others: it is
 * reported incomplete and the first such failure, in target order, is the
 * run's. */
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/engine.h"
#include "iospd/profile.h"
#include "iospd/run.h"
#include "iospd/verify.h"
#include "iospd/workload.h"
#include "run_internal.h"

#define VONLY_MAX_DEPTH 64u

typedef struct pass_s {
  const iospd_target_t* t; /* the target as the user's profile gives it */
  iospd_vonly_target_t* vt;
  iospd_vstate_t st;
  bool st_open;
  iospd_plat_file_t* file;
  iospd_plat_queue_t* q;
  uint32_t fi;
  uint8_t* buf;
  size_t buf_len;
  iospd_io_t* ios;
  uint32_t* free_slots;
  uint32_t depth, nfree, inflight;
  uint64_t next;         /* the next offset to read */
  uint64_t next_note;    /* ticks of the next progress line */
  uint64_t dots_left;    /* -P */
  iospd_vfail_t* fails;  /* this target's first failures */
  uint32_t fail_count;
  const char* engine;    /* its queue's (static storage) */
  int rc;                /* why the target could not be checked */
  iospd_err_t err;
  const struct vonly_state_s* s;
} pass_t;

typedef struct vonly_state_s {
  const iospd_profile_t* p;
  const iospd_run_hooks_t* hooks;
  uint64_t tps;
  iospd_vonly_t* out;
  iospd_profile_t* rp; /* the profile the controller runs */
  pass_t* passes;      /* one per distinct target, worker i is pass i */
  uint32_t n;
} vonly_state_t;

static int pass_fail(pass_t* ps, int rc, const char* fmt, const char* what) {
  if (ps->rc == 0) {
    ps->rc = rc;
    iospd_err_set(&ps->err, rc, fmt, ps->t->path, what);
  }
  return rc;
}

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
  if (k >= IOSPD_VK_FIRST_FAILURE) {
    f.kind = (uint8_t)k;
    f.target = (uint32_t)(ps->vt - ps->s->out->targets);
    f.offset = io->offset;
    f.block = blk;
    iospd_vfail_keep(ps->fails, &ps->fail_count, ps->s->out->fail_cap, &f);
  }
}

static void progress(pass_t* ps, bool last) {
  uint64_t now = iospd_plat_ticks();
  if (!last && now < ps->next_note) return;
  ps->next_note = now + ps->s->tps;
  uint64_t total = (ps->vt->end - ps->vt->start) / ps->t->block_size;
  uint64_t done = ps->vt->blocks;
  iospd_run_sayf(ps->s->hooks, IOSPD_MSG_PROGRESS,
                 "verify-only: '%s': %llu%% (%llu of %llu blocks), %llu "
                 "failures so far",
                 ps->vt->path,
                 (unsigned long long)(total ? done * 100 / total : 100),
                 (unsigned long long)done, (unsigned long long)total,
                 (unsigned long long)iospd_vcounts_failures(&ps->vt->counts));
}

/* ---- the controller, before the timespan --------------------------------- */

/* The target's state file, opened for reading: a device needs the one the
 * verified run was given. */
static int open_state(pass_t* ps, const iospd_profile_t* p) {
  const iospd_target_t* t = ps->t;
  iospd_file_info_t info;
  memset(&info, 0, sizeof info);
  iospd_err_t e;
  iospd_err_clear(&e);
  int rc = iospd_plat_path_info(t->path, &info, &e);
  if (rc < 0)
    return pass_fail(ps, rc, "--verify-only: cannot look at target '%s': %s",
                     e.msg[0] ? e.msg : iospd_strerror(rc));
  if (info.is_device && p->ext.verify_state == NULL)
    return pass_fail(ps, IOSPD_EUSAGE,
                     "--verify-only on disk or volume '%s'%s: give the "
                     "state file the verified run used with "
                     "--verify-state=FILE",
                     "");
  char* path = iospd_vstate_default_path(t->path, p->ext.verify_state);
  if (path == NULL)
    return pass_fail(ps, IOSPD_ENOMEM, "--verify-only: '%s': %s",
                     "out of memory");
  rc = iospd_vstate_open(&ps->st, path, t->path, info.size, t->block_size,
                         false, p->ext.verify_state != NULL, 0, &e);
  iospd_free(path);
  if (rc < 0) {
    /* The state's own message says what to do. */
    if (ps->rc == 0) {
      ps->rc = rc;
      ps->err = e;
    }
    return rc;
  }
  ps->st_open = true;
  return 0;
}

/* The profile the controller runs: the distinct targets, one thread each,
 * no warm-up or cool-down; -v, -P and the DISKSPD level as given. */
static int run_profile(vonly_state_t* s, iospd_err_t* err) {
  s->rp = iospd_calloc(1, sizeof *s->rp);
  if (s->rp == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  iospd_profile_init(s->rp);
  s->rp->verbose = s->p->verbose;
  s->rp->progress_dots = s->p->progress_dots;
  s->rp->format = s->p->format;
  s->rp->ext.diskspd = s->p->ext.diskspd;
  s->rp->ext.verify_only = true;
  iospd_timespan_t* ts = iospd_profile_add_timespan(s->rp);
  if (ts == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  ts->warmup = ts->duration = ts->cooldown = 0;
  ts->disable_affinity = s->p->timespans[0].disable_affinity;
  for (uint32_t i = 0; i < s->n; i++) {
    iospd_target_t* t = iospd_timespan_add_target(ts);
    if (t == NULL || iospd_target_set_path(t, s->passes[i].t->path) < 0)
      return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    t->block_size = s->passes[i].t->block_size;
    t->request_count = 1;
    t->threads_per_file = 1;
    t->write_ratio = 0;
  }
  return 0;
}

static int vonly_prepare(const iospd_profile_t* p,
                         const iospd_run_hooks_t* hooks,
                         const iospd_run_session_t* session,
                         iospd_results_t* out, const iospd_profile_t** run,
                         void** state, iospd_err_t* err) {
  (void)session;
  vonly_state_t* s = iospd_calloc(1, sizeof *s);
  if (s == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  *state = s;
  s->p = p;
  s->hooks = hooks;
  s->tps = out->sys.ticks_per_second ? out->sys.ticks_per_second : 1;
  s->out = iospd_calloc(1, sizeof *s->out);
  if (s->out == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  out->vonly = s->out;
  iospd_vonly_t* v = s->out;
  uint32_t n = 0;
  for (uint32_t i = 0; i < p->timespan_count; i++)
    n += p->timespans[i].target_count;
  v->targets = iospd_calloc(n ? n : 1, sizeof(*v->targets));
  s->passes = iospd_calloc(n ? n : 1, sizeof(*s->passes));
  v->fail_cap = iospd_verify_errors(&p->ext);
  if (v->fail_cap > 4096) v->fail_cap = 4096;
  v->fails = iospd_calloc(v->fail_cap ? v->fail_cap : 1, sizeof(*v->fails));
  if (v->targets == NULL || s->passes == NULL || v->fails == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < p->timespan_count; i++)
    for (uint32_t j = 0; j < p->timespans[i].target_count; j++) {
      const iospd_target_t* t = &p->timespans[i].targets[j];
      bool seen = false;
      for (uint32_t k = 0; k < v->target_count && !seen; k++)
        seen = iospd_plat_same_path(v->targets[k].path, t->path);
      if (seen) continue;
      pass_t* ps = &s->passes[s->n++];
      ps->vt = &v->targets[v->target_count++];
      ps->vt->path = t->path;
      ps->t = t;
      ps->s = s;
      ps->depth = t->request_count ? t->request_count : 1;
      if (ps->depth > VONLY_MAX_DEPTH) ps->depth = VONLY_MAX_DEPTH;
      ps->fails = iospd_calloc(v->fail_cap ? v->fail_cap : 1,
                               sizeof(*ps->fails));
      if (ps->fails == NULL)
        return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
      (void)open_state(ps, p);
    }
  int rc = run_profile(s, err);
  if (rc < 0) return rc;
  *run = s->rp;
  return 0;
}

/* ---- a worker ------------------------------------------------------------ */

static int vonly_setup(void* state, iospd_worker_t* w, iospd_err_t* err) {
  (void)err;
  vonly_state_t* s = state;
  pass_t* ps = &s->passes[w->id];
  w->wl_state = ps;
  w->setup_rc = 0;
  if (ps->rc < 0) return 0; /* reported incomplete; the others go on */
  const iospd_target_t* t = ps->t;
  uint32_t bs = t->block_size;
  iospd_err_t e;
  iospd_err_clear(&e);
  iospd_target_t rt = *t;
  rt.write_ratio = 0;
  rt.memory_mapped = false; /* a read pass; -Sm maps read+write */
  iospd_open_opts_t o = {t->path, iospd_open_flags(&rt, ps->depth)};
  int rc = iospd_plat_file_open(&ps->file, &o, &e);
  if (rc < 0) {
    ps->file = NULL;
    (void)pass_fail(ps, rc, "--verify-only: cannot open target '%s': %s",
                    e.msg[0] ? e.msg : iospd_strerror(rc));
    return 0;
  }
  iospd_file_info_t info;
  memset(&info, 0, sizeof info);
  rc = iospd_plat_file_info(ps->file, &info, &e);
  if (rc < 0) {
    (void)pass_fail(ps, rc, "--verify-only: cannot find the size of '%s': %s",
                    e.msg[0] ? e.msg : iospd_strerror(rc));
    return 0;
  }
  uint64_t end = info.size - info.size % bs;
  if (t->max_file_size != 0 && t->base_offset + t->max_file_size < end)
    end = t->base_offset + t->max_file_size - (t->max_file_size % bs);
  ps->vt->start = t->base_offset < end ? t->base_offset : end;
  ps->vt->end = end;
  unsigned qf = ps->depth == 1 ? IOSPD_QUEUE_SYNC : 0;
  if (t->cache_mode == IOSPD_CACHE_DISABLE_OS) qf |= IOSPD_QUEUE_UNBUFFERED;
  rc = iospd_plat_queue_create(&ps->q, ps->depth, qf, s->p->ext.engine, &e);
  if (rc < 0) {
    ps->q = NULL;
    (void)pass_fail(ps, rc, "--verify-only: '%s': cannot create an I/O "
                    "queue: %s", e.msg[0] ? e.msg : iospd_strerror(rc));
    return 0;
  }
  ps->engine = iospd_plat_queue_engine(ps->q);
  rc = iospd_plat_queue_attach(ps->q, ps->file, &ps->fi, &e);
  if (rc < 0) {
    (void)pass_fail(ps, rc, "--verify-only: cannot attach '%s': %s",
                    e.msg[0] ? e.msg : iospd_strerror(rc));
    return 0;
  }
  ps->buf_len = (size_t)bs * ps->depth;
  ps->buf = iospd_plat_buf_alloc(ps->buf_len, 4096, 0);
  ps->ios = iospd_calloc(ps->depth, sizeof(*ps->ios));
  ps->free_slots = iospd_calloc(ps->depth, sizeof(*ps->free_slots));
  if (ps->buf == NULL || ps->ios == NULL || ps->free_slots == NULL)
    (void)pass_fail(ps, IOSPD_ENOMEM, "--verify-only: '%s': %s",
                    "out of memory");
  return 0;
}

static void vonly_begin(iospd_worker_t* w) {
  pass_t* ps = w->wl_state;
  w->begun = true;
  ps->next = ps->vt->start;
  ps->nfree = ps->depth;
  for (uint32_t i = 0; ps->free_slots != NULL && i < ps->depth; i++)
    ps->free_slots[i] = ps->depth - 1 - i;
  ps->next_note = iospd_plat_ticks() + ps->s->tps;
  ps->dots_left = w->ctl->progress;
}

static bool told_to_stop(const iospd_worker_t* w) {
  return atomic_load(&w->ctl->phase) == IOSPD_PHASE_STOP ||
         atomic_load(&w->ctl->interrupted) != 0;
}

static void dot(iospd_worker_t* w, pass_t* ps) {
  if (w->ctl->progress == 0 || --ps->dots_left != 0) return;
  ps->dots_left = w->ctl->progress;
  if (w->ctl->progress_dot != NULL) w->ctl->progress_dot(w->ctl->progress_ctx);
}

/* One round: hand over what fits, wait for completions (at most
 * IOSPD_POLL_MS), judge them. True when the worker is done: the target
 * read to the end, or stopped, or failed, with nothing in flight. */
static bool vonly_pass(iospd_worker_t* w) {
  pass_t* ps = w->wl_state;
  if (w->finished) return true;
  bool stop = ps->rc < 0 || told_to_stop(w);
  while (!stop && ps->nfree > 0 && ps->next < ps->vt->end) {
    uint32_t s = ps->free_slots[--ps->nfree];
    iospd_io_t* io = &ps->ios[s];
    io->tag = s;
    io->op = IOSPD_OP_READ;
    io->file_index = ps->fi;
    io->offset = ps->next;
    io->length = ps->t->block_size;
    io->buf = ps->buf + (size_t)s * ps->t->block_size;
    uint32_t acc = 0;
    int rc = iospd_plat_queue_submit(ps->q, io, 1, &acc);
    if (rc < 0 || acc == 0) {
      ps->free_slots[ps->nfree++] = s;
      if (rc < 0)
        (void)pass_fail(ps, rc, "--verify-only: reading '%s' failed: %s",
                        iospd_strerror(rc));
      break;
    }
    ps->inflight++;
    ps->next += ps->t->block_size;
  }
  if (ps->inflight == 0) {
    if (ps->rc == 0 && !told_to_stop(w) && ps->next >= ps->vt->end) {
      progress(ps, true);
      ps->vt->complete = true;
    }
    w->finished = true;
    return true;
  }
  iospd_cqe_t cqe[IOSPD_REAP_MAX];
  uint32_t got = 0;
  int rc = iospd_plat_queue_reap(ps->q, cqe, IOSPD_REAP_MAX, 1, IOSPD_POLL_MS,
                                 &got);
  if (rc < 0) {
    (void)pass_fail(ps, rc, "--verify-only: waiting for reads of '%s' "
                    "failed: %s", iospd_strerror(rc));
    /* The queue cannot tell more: teardown cancels what is left. */
    ps->inflight = 0;
    w->finished = true;
    return true;
  }
  for (uint32_t i = 0; i < got; i++) {
    if (cqe[i].tag >= ps->depth) continue; /* not ours */
    const iospd_io_t* io = &ps->ios[cqe[i].tag];
    ps->inflight--;
    ps->free_slots[ps->nfree++] = io->tag;
    if (cqe[i].result < 0) {
      if (ps->rc == 0) {
        ps->rc = cqe[i].result;
        iospd_err_set(&ps->err, cqe[i].result,
                      "--verify-only: reading offset %llu of '%s' failed: %s",
                      (unsigned long long)io->offset, ps->t->path,
                      iospd_strerror(cqe[i].result));
      }
      continue;
    }
    if (ps->rc == 0) check_one(ps, io, cqe[i].result);
    dot(w, ps);
  }
  if (ps->rc == 0) progress(ps, false);
  return false;
}

static void vonly_run(iospd_worker_t* w) {
  vonly_begin(w);
  while (!vonly_pass(w)) {
  }
}

/* Safe twice. A queue that could not drain keeps the file and buffers it
 * may still write into. */
static void vonly_teardown(iospd_worker_t* w) {
  pass_t* ps = w->wl_state;
  if (ps == NULL) return;
  bool drained = ps->q == NULL || iospd_plat_queue_destroy(ps->q) == 0;
  ps->q = NULL;
  if (drained) {
    if (ps->file != NULL) iospd_plat_file_close(ps->file);
    if (ps->buf != NULL) iospd_plat_buf_free(ps->buf, ps->buf_len);
  }
  ps->file = NULL;
  ps->buf = NULL;
  iospd_free(ps->ios);
  iospd_free(ps->free_slots);
  ps->ios = NULL;
  ps->free_slots = NULL;
}

/* A target that could not be checked is that target's, reported by finish:
 * the others' passes are not a failure of the timespan. */
static int vonly_error(const iospd_worker_t* w, iospd_err_t* err) {
  (void)w;
  (void)err;
  return 0;
}

static int vonly_finish(void* state, const iospd_run_hooks_t* hooks,
                        iospd_results_t* out, int rc, iospd_err_t* err) {
  (void)hooks;
  vonly_state_t* s = state;
  if (s == NULL) return rc;
  iospd_vonly_t* v = s->out;
  for (uint32_t i = 0; i < s->n; i++) {
    pass_t* ps = &s->passes[i];
    if (v != NULL && v->engine == NULL) v->engine = ps->engine;
    if (v != NULL)
      for (uint32_t k = 0; k < ps->fail_count && v->fail_count < v->fail_cap;
           k++)
        v->fails[v->fail_count++] = ps->fails[k];
    if (rc == 0 && ps->rc < 0) {
      rc = ps->rc;
      if (err != NULL) *err = ps->err;
    }
    if (ps->st_open) iospd_vstate_close(&ps->st);
    iospd_free(ps->fails);
  }
  if (v != NULL) {
    v->run_profile = s->rp;
  } else if (s->rp != NULL) {
    iospd_profile_destroy(s->rp);
    iospd_free(s->rp);
  }
  /* The results name the user's profile; the run profile lives with v. */
  out->profile = s->p;
  iospd_free(s->passes);
  iospd_free(s);
  return rc;
}

const iospd_workload_t iospd_workload_vonly = {
    .name = "verify-only",
    .refuses = IOSPD_WL_NO_MAPPED,
    .block_targets = false,
    .every_target = false,
    .slot_workers = false,
    .ends_itself = true,
    .prepare = vonly_prepare,
    .setup = vonly_setup,
    .begin = vonly_begin,
    .pass = vonly_pass,
    .run = vonly_run,
    .teardown = vonly_teardown,
    .error = vonly_error,
    .finish = vonly_finish,
};

int iospd_verify_only(const iospd_profile_t* p, const iospd_run_hooks_t* hooks,
                      iospd_results_t* res, iospd_vonly_t* out,
                      iospd_err_t* err) {
  memset(out, 0, sizeof(*out));
  iospd_run_session_t session;
  iospd_run_session_init(&session);
  session.workload = &iospd_workload_vonly;
  int rc = iospd_run_in(&session, p, hooks, res, err);
  if (res->vonly != NULL) {
    *out = *res->vonly;
    iospd_free(res->vonly);
    res->vonly = NULL;
  }
  return rc;
}

void iospd_vonly_free(iospd_vonly_t* v) {
  iospd_free(v->targets);
  iospd_free(v->fails);
  if (v->run_profile != NULL) {
    iospd_profile_destroy(v->run_profile);
    iospd_free(v->run_profile);
  }
  memset(v, 0, sizeof(*v));
}

/* SPDX-License-Identifier: MIT */
/* --verify in a run (run_verify.h). */
#include "run_verify.h"

#include <string.h>

#include "iospd/alloc.h"
#include "run_internal.h"

/* Opens the state of target t into the next slot (v->states[v->count]);
 * -c's fresh file restarts it. */
static int open_state(iospd_run_verify_t* v, const char* path, bool named,
                      const iospd_target_t* t, uint64_t size, uint64_t seed,
                      const iospd_run_hooks_t* hooks, iospd_err_t* err) {
  iospd_vstate_t* s = &v->states[v->count];
  int rc = iospd_vstate_open(s, path, t->path, size, t->block_size, true,
                             named, seed, err);
  if (rc < 0) return rc;
  if (s->remade_empty)
    iospd_run_sayf(hooks, IOSPD_MSG_NOTE,
                   "--verify: the state file '%s' was empty (no "
                   "verification history in it), so it was made anew",
                   path);
  /* -c wrote the file afresh: what the state remembers is gone. */
  if (t->create && t->file_size > 0 && s->hdr->next_gen != 0) {
    iospd_vstate_reset(s, t->path, seed);
    iospd_run_sayf(hooks, IOSPD_MSG_NOTE,
                   "--verify: '%s' was created anew (-c), so its verify "
                   "state '%s' starts afresh",
                   t->path, path);
  }
  if (s->dead > 0)
    iospd_run_sayf(hooks, IOSPD_MSG_NOTE,
                   "--verify: %llu blocks of '%s' were being written "
                   "when an earlier run ended; they stay indeterminate "
                   "until written again",
                   (unsigned long long)s->dead, t->path);
  return 0;
}

/* One --verify run per target file: the lock is on the file, so a link to
 * it (another name, another default state file) meets it too. */
static int lock_target(iospd_run_verify_t* v, const char* path,
                       iospd_err_t* err) {
  iospd_err_t e;
  iospd_err_clear(&e);
  int rc = iospd_plat_target_lock(path, &v->locks[v->count], &e);
  if (rc == IOSPD_EAGAIN)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--verify: target '%s' is being verified by another "
                         "iospd run (under this name or through a link to "
                         "the same file), or this run names the file twice "
                         "through links: wait for it to end, or name the "
                         "file once; two runs on one file would each count "
                         "the other's writes as failures", path);
  if (rc < 0)
    return iospd_err_set(err, rc, "--verify: cannot lock target '%s': %s",
                         path, e.msg[0] ? e.msg : iospd_strerror(rc));
  return 0;
}

int iospd_run_verify_open(iospd_run_verify_t* v, const iospd_profile_t* p,
                          const iospd_timespan_t* ts,
                          const iospd_run_hooks_t* hooks, iospd_err_t* err) {
  memset(v, 0, sizeof(*v));
  if (!p->ext.verify || ts->target_count == 0) return 0;
  v->states = iospd_calloc(ts->target_count, sizeof(*v->states));
  v->of_target = iospd_calloc(ts->target_count, sizeof(*v->of_target));
  v->written = iospd_calloc(ts->target_count, sizeof(*v->written));
  v->locks = iospd_calloc(ts->target_count, sizeof(*v->locks));
  if (v->states == NULL || v->of_target == NULL || v->written == NULL ||
      v->locks == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  v->time_ns = iospd_plat_unix_ns();
  v->time_ticks = iospd_plat_ticks();
  for (uint32_t i = 0; i < ts->target_count; i++) {
    const iospd_target_t* t = &ts->targets[i];
    uint32_t j = 0;
    for (; j < i; j++)
      if (iospd_plat_same_path(ts->targets[j].path, t->path)) break;
    if (j < i) {
      if (ts->targets[j].block_size != t->block_size)
        return iospd_err_set(err, IOSPD_EUSAGE,
                             "--verify: target '%s' is named twice with "
                             "different block sizes (-b%u and -b%u); blocks "
                             "must be the same size to be checked",
                             t->path, ts->targets[j].block_size,
                             t->block_size);
      v->of_target[i] = v->of_target[j];
      continue;
    }
    iospd_file_info_t info;
    memset(&info, 0, sizeof info);
    iospd_err_t e;
    iospd_err_clear(&e);
    int rc = iospd_plat_path_info(t->path, &info, &e);
    if (rc < 0)
      return iospd_err_set(err, rc, "--verify: cannot look at target '%s': %s",
                           t->path, e.msg[0] ? e.msg : iospd_strerror(rc));
    if (info.is_device && p->ext.verify_state == NULL)
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "--verify on disk or volume '%s': there is no "
                           "folder beside it for the state file; give one "
                           "with --verify-state=FILE",
                           t->path);
    rc = lock_target(v, t->path, err);
    if (rc < 0) return rc;
    char* path = iospd_vstate_default_path(t->path, p->ext.verify_state);
    if (path == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    rc = open_state(v, path, p->ext.verify_state != NULL, t, info.size,
                    ts->rand_seed, hooks, err);
    iospd_free(path);
    if (rc < 0) {
      iospd_plat_target_unlock(v->locks[v->count]);
      v->locks[v->count] = NULL;
      return rc;
    }
    v->of_target[i] = v->count++;
  }
  for (uint32_t i = 0; i < ts->target_count; i++)
    if (ts->targets[i].write_ratio > 0) v->written[v->of_target[i]] = true;
  return 0;
}

void iospd_run_verify_bind(const iospd_run_verify_t* v, iospd_wtarget_t* tg,
                           uint32_t ti, uint32_t seed, uint32_t thread,
                           iospd_vcounts_t* counts) {
  if (v->states == NULL) return;
  iospd_vstate_t* s = &v->states[v->of_target[ti]];
  tg->vstate = s;
  tg->vstamp.target_id = s->target_id;
  tg->vstamp.seed = seed;
  tg->vstamp.thread = thread;
  tg->vcounts = counts;
  tg->vtime_ns = v->time_ns;
  tg->vtime_ticks = v->time_ticks;
  tg->vreadonly = !v->written[v->of_target[ti]];
}

int iospd_run_verify_close(iospd_run_verify_t* v, iospd_err_t* err) {
  int rc = 0;
  for (uint32_t i = 0; i < v->count; i++) {
    iospd_err_t e;
    iospd_err_clear(&e);
    int r = iospd_vstate_flush(&v->states[i], &e);
    if (r < 0 && rc == 0 && iospd_plat_map_lost(v->states[i].map))
      rc = iospd_err_set(err, r, "--verify state file '%s': %s: what this "
                         "run recorded in it is lost, so the blocks it "
                         "wrote cannot be checked; delete the state file "
                         "and run again", v->states[i].path, e.msg);
    else if (r < 0 && rc == 0)
      rc = iospd_err_set(err, r, "--verify state file '%s': %s",
                         v->states[i].path, e.msg);
    iospd_vstate_close(&v->states[i]);
    iospd_plat_target_unlock(v->locks[i]);
  }
  iospd_free(v->states);
  iospd_free(v->of_target);
  iospd_free(v->written);
  iospd_free(v->locks);
  memset(v, 0, sizeof(*v));
  return rc;
}

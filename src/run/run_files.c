/* SPDX-License-Identifier: MIT */
/* What the controller does to targets before starting threads: create -c
 * files (only when asked), and refuse early, with a message naming the
 * target, what would fail later or destroy data: a missing target, a write
 * to a disk holding a partition table or file system, unbuffered I/O that
 * is not sector aligned, a target too small for its threads. */
#include <stdarg.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/strbuf.h"
#include "run_internal.h"

static void say(const iospd_run_hooks_t* h, iospd_msg_kind_t k,
                const char* text) {
  if (h != NULL && h->message != NULL) h->message(h->ctx, k, text);
}

void iospd_run_sayf(const iospd_run_hooks_t* hooks, iospd_msg_kind_t k,
                    const char* fmt, ...) {
  if (hooks == NULL || hooks->message == NULL) return;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  va_list ap;
  va_start(ap, fmt);
  iospd_strbuf_vappendf(&sb, fmt, ap);
  va_end(ap);
  hooks->message(hooks->ctx, k, iospd_strbuf_cstr(&sb));
  iospd_strbuf_destroy(&sb);
}

uint32_t iospd_run_thread_count(const iospd_timespan_t* ts) {
  if (ts->thread_count > 0) return ts->thread_count;
  uint32_t n = 0;
  for (uint32_t i = 0; i < ts->target_count; i++)
    n += ts->targets[i].threads_per_file ? ts->targets[i].threads_per_file : 1;
  return n;
}

uint32_t iospd_run_max_relative_thread(const iospd_timespan_t* ts,
                                       const iospd_target_t* t) {
  if (ts->thread_count == 0)
    return t->threads_per_file ? t->threads_per_file - 1 : 0;
  if (t->thread_target_count == 0) return ts->thread_count - 1;
  uint32_t m = 0;
  for (uint32_t i = 0; i < t->thread_target_count; i++)
    if (t->thread_targets[i].thread > m) m = t->thread_targets[i].thread;
  return m;
}

/* Paths are compared as the OS compares names (on Windows "C:\x.dat" and
 * "c:\X.DAT" are one file), so one file is created once. */
static bool created_before(const iospd_timespan_t* ts, uint32_t i) {
  for (uint32_t j = 0; j < i; j++)
    if (ts->targets[j].create && ts->targets[j].file_size > 0 &&
        iospd_plat_same_path(ts->targets[j].path, ts->targets[i].path))
      return true;
  return false;
}

/* -c progress for the files that get the NOTE: one more line on stderr at
 * every tenth of the file written, so a long creation is visibly moving. */
typedef struct create_progress_s {
  const iospd_run_hooks_t* hooks;
  const char* path;
  bool noted;     /* progress lines wanted (-v, or a large file) */
  uint32_t shown; /* tenths reported so far */
} create_progress_t;

static void create_progress(void* ctx, uint64_t done, uint64_t total) {
  create_progress_t* cp = ctx;
  if (!cp->noted || total == 0) return;
  uint64_t tenth = total / 10 ? total / 10 : 1;
  uint32_t tenths = done >= total ? 10 : (uint32_t)(done / tenth);
  if (tenths > 10) tenths = 10;
  if (tenths <= cp->shown) return;
  cp->shown = tenths;
  iospd_run_sayf(cp->hooks, IOSPD_MSG_NOTE, "creating '%s': %u %% written",
                 cp->path,
                 tenths * 10);
}

/* A line the platform says while creating, on stderr: its WARNING lines
 * (DISKSPD's fallbacks, in DISKSPD's words) always; its NOTE lines (which
 * way the file was made) only beside the creation note, so a small -c
 * without -v prints what DISKSPD prints. */
static void create_warn(void* ctx, iospd_msg_kind_t kind, const char* text) {
  const create_progress_t* cp = ctx;
  if (!cp->noted && kind == IOSPD_MSG_NOTE) return;
  say(cp->hooks, kind, text);
}

/* Remarks of the platform during -c (a stale temporary file removed, an
 * in-place overwrite): always shown, on stderr. */
static void create_note(void* ctx, const char* text) {
  create_progress_t* cp = ctx;
  iospd_run_sayf(cp->hooks, IOSPD_MSG_NOTE, "-c: %s", text);
}

static int create_target(const iospd_profile_t* p, const iospd_target_t* t,
                         const iospd_run_hooks_t* hooks, iospd_err_t* err) {
  iospd_file_info_t info;
  iospd_err_t e;
  iospd_err_clear(&e);
  memset(&info, 0, sizeof(info));
  /* -c on a path that names a device would overwrite the device. */
  if (iospd_target_kind(t->path) != IOSPD_TARGET_FILE ||
      (iospd_plat_path_info(t->path, &info, NULL) == 0 && info.is_device))
    return iospd_err_set(err, IOSPD_EUNSAFE,
                         "target '%s' is a disk or volume; -c only creates "
                         "regular files, so remove -c for this target",
                         t->path);
  bool noted = hooks != NULL && hooks->message != NULL &&
               (p->verbose || t->file_size >= (UINT64_C(1) << 30));
  create_progress_t cp = {hooks, t->path, noted, 0};
  iospd_progress_t progress = {.fn = create_progress,
                               .ctx = &cp,
                               .warn = create_warn,
                               .note = create_note};
  if (noted) {
    /* Large files: creation may write every block (so later reads reach
     * the device) and can take minutes; say so even without -v (on stderr,
     * so -Rxml output stays clean). Whether it did is the platform's to
     * say (Windows: SetFileValidData writes nothing, and says so). */
    if (p->verbose)
      iospd_run_sayf(hooks, IOSPD_MSG_VERBOSE,
                     "Creating file '%s' of size %llu.", t->path,
                     (unsigned long long)t->file_size);
    else
      iospd_run_sayf(hooks, IOSPD_MSG_NOTE,
                     "creating '%s' (%llu bytes, -c), which can take a "
                     "while",
                     t->path, (unsigned long long)t->file_size);
  }
  int rc = iospd_plat_file_create_ex(
      t->path, t->file_size, t->pattern == IOSPD_PATTERN_ZERO, &progress, &e);
  if (rc == IOSPD_EINTR) {
    /* Ctrl-C or SIGTERM during the fill: not a failure of the run, which
     * ends as interrupted; say what became of the file. */
    iospd_run_sayf(hooks, IOSPD_MSG_NOTE, "creating '%s' (-c) stopped: %s",
                   t->path,
                   e.msg[0] ? e.msg : iospd_strerror(rc));
    return iospd_err_set(err, rc, "creating '%s' (-c) was interrupted",
                         t->path);
  }
  if (rc < 0)
    return iospd_err_set(err, rc,
                         "cannot create target '%s' of %llu bytes (-c): %s",
                         t->path, (unsigned long long)t->file_size,
                         e.msg[0] ? e.msg : iospd_strerror(rc));
  return 0;
}

/* unbuffered: -Su/-Sh asked for it; else cached I/O to a device that
 * needs whole sectors all the same (iospd_plat_cached_device_align): the
 * message says which, and only -Su/-Sh can be dropped. */
static int check_sector(const iospd_target_t* t, uint32_t sector,
                        const iospd_file_info_t* info, bool unbuffered,
                        iospd_err_t* err) {
  uint64_t size = info->size;
  const char* why = unbuffered ? "unbuffered I/O (-Su/-Sh)"
                               : "I/O to this disk or volume, cached or not,";
  const char* drop = unbuffered ? " or drop -Su/-Sh" : "";
  struct {
    const char* what;
    uint64_t v;
  } items[] = {
      {"block size (-b)", t->block_size},
      {"base offset (-B)", t->base_offset},
      {"alignment or stride (-r/-s)", iospd_target_align(t)},
      {"thread stride (-T)", t->thread_stride},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(items); i++)
    if (items[i].v % sector != 0)
      return iospd_err_set(
          err, IOSPD_EALIGN,
          "target '%s': the %s of %llu bytes is not a multiple of the "
          "logical sector size (%u bytes), which %s requires; use a "
          "multiple of %u%s",
          t->path, items[i].what, (unsigned long long)items[i].v, sector,
          why, sector, drop);
  /* -rdabs ranges keep their stated starts (DISKSPD's -rd ranges), and every offset in
   * a range is its start plus a multiple of the alignment: a start off the
   * sector would fail every I/O there. Ranges that take no I/O (holes) or
   * start past the end of the target (dropped) do not matter. */
  if (t->dist_type == IOSPD_DIST_ABSOLUTE)
    for (uint32_t i = 0; i < t->dist_count; i++) {
      const iospd_dist_range_t* d = &t->dist[i];
      if (d->io_pct == 0 || d->span_base % sector == 0) continue;
      if (size != 0 && d->span_base >= size) continue;
      return iospd_err_set(
          err, IOSPD_EALIGN,
          "target '%s': -rdabs range %u starts at %llu bytes, which is not "
          "a multiple of the logical sector size (%u bytes) that %s "
          "requires; make every range length a multiple of %u%s",
          t->path, i + 1, (unsigned long long)d->span_base, sector, why,
          sector, drop);
    }
  if (!unbuffered) return 0; /* buffer addresses: only unbuffered I/O */
  /* -Z windows are buffer addresses: they follow the device's buffer
   * alignment (engine.c), which the source's own alignment must cover. */
  uint32_t window = iospd_rnd_window_align(info);
  if (t->random_data_size > 0 &&
      ((window & (window - 1)) != 0 || window > IOSPD_RND_SRC_ALIGN))
    return iospd_err_set(
        err, IOSPD_EALIGN,
        "target '%s': unbuffered I/O (-Su/-Sh) on this target needs buffers "
        "aligned to %u bytes, which -Z<size> write windows cannot be (at "
        "most %u); drop -Z<size> or -Su/-Sh",
        t->path, window, IOSPD_RND_SRC_ALIGN);
  return 0;
}

static int check_target(const iospd_profile_t* p, const iospd_timespan_t* ts,
                        uint32_t ti, bool warn,
                        const iospd_run_hooks_t* hooks,
                        iospd_timespan_result_t* tsr, iospd_err_t* err) {
  const iospd_target_t* t = &ts->targets[ti];
  iospd_file_info_t info;
  iospd_err_t e;
  iospd_err_clear(&e);
  memset(&info, 0, sizeof(info));
  int rc = iospd_plat_path_info(t->path, &info, &e);
  /* A missing disk or volume is no file -c could make: the platform's
   * words (with the OS's code) say what is wrong. */
  bool file = iospd_target_kind(t->path) == IOSPD_TARGET_FILE;
  if (rc == IOSPD_ENOENT && file && t->create)
    return iospd_err_set(err, rc,
                         "target '%s' does not exist and -c0 creates "
                         "nothing; give -c a size (for example -c64M) to "
                         "create it",
                         t->path);
  if (rc == IOSPD_ENOENT && file)
    return iospd_err_set(err, rc,
                         "target '%s' does not exist; create it with "
                         "-c<size>",
                         t->path);
  if (rc < 0)
    return iospd_err_set(err, rc, "cannot examine target '%s': %s", t->path,
                         e.msg[0] ? e.msg : iospd_strerror(rc));
  if (t->memory_mapped && info.is_device)
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "target '%s' is a disk, volume or block device; "
                         "memory-mapped I/O (-Sm) works only on files",
                         t->path);
  if (t->write_ratio > 0 && info.is_device &&
      (info.has_partitions || info.has_filesystem) && !p->ext.allow_raw_write) {
    const char* what = info.content[0]       ? info.content
                       : info.has_filesystem ? "a file system"
                                             : "a partition table";
    /* "in use by the system ..." is a state, everything else a content. */
    bool in_use = strncmp(what, "in use", 6) == 0;
    return iospd_err_set(err, IOSPD_EUNSAFE,
                         "refusing to write to '%s': it %s %s, which "
                         "writing (-w%u) would destroy; pass "
                         "--allow-raw-write to write to it anyway",
                         t->path, in_use ? "is" : "holds", what,
                         t->write_ratio);
  }
  if (t->cache_mode == IOSPD_CACHE_DISABLE_OS) {
    uint32_t sector = info.logical_sector ? info.logical_sector : 512;
    rc = check_sector(t, sector, &info, true, err);
    if (rc < 0) return rc;
  } else if (info.is_device && !t->memory_mapped) {
    /* Cached I/O to a raw device (issue #26): Windows takes whole sectors
     * only, so -b512 on a 4Kn disk would fail every I/O with error 87
     * once warm-up has begun; refused here, before any thread starts. */
    uint32_t sector = iospd_plat_cached_device_align(&info);
    if (sector > 1) {
      rc = check_sector(t, sector, &info, false, err);
      if (rc < 0) return rc;
    }
  }
  if (t->max_file_size != 0 && info.size != 0 && info.size < t->max_file_size &&
      hooks != NULL && hooks->message != NULL) {
    /* DISKSPD's line (how DISKSPD opens targets), on stderr before the report: each of its
     * threads prints it when opening the target, so it comes once per
     * thread on the target. Then our note; the run goes on with the
     * smaller size. */
    uint32_t threads = ts->thread_count == 0 ? IOSPD_MAX(t->threads_per_file, 1u)
                       : t->thread_target_count ? t->thread_target_count
                                                : ts->thread_count;
    for (uint32_t k = 0; k < threads; k++)
      iospd_run_sayf(hooks, IOSPD_MSG_DISKSPD_WARNING,
                     "file size %llu is less than MaxFileSize "
                     "%llu",
                     (unsigned long long)info.size,
                     (unsigned long long)t->max_file_size);
    iospd_run_sayf(hooks, IOSPD_MSG_NOTE,
                   "target '%s' is smaller than its -f limit "
                   "(MaxFileSize); the I/O uses the whole target",
                   t->path);
  }
  if (info.size == 0)
    return iospd_err_set(err, IOSPD_ETOOSMALL,
                         "target size could not be determined: '%s' is "
                         "empty; create it with -c<size>",
                         t->path);
  /* Never-written or all-zero data, the page cache (run_warn.c). */
  if (warn) iospd_run_warn_target(hooks, tsr, ts, ti, &info);
  /* The thread with the highest start must fit one block (how DISKSPD opens targets); the
   * generator owns that rule and its message. */
  iospd_rand_t scratch;
  iospd_rand_seed(&scratch, 0);
  iospd_gen_t g;
  rc = iospd_gen_init(&g, t, iospd_run_max_relative_thread(ts, t), info.size,
                      &scratch, NULL, err);
  if (rc < 0) return rc;
  iospd_gen_destroy(&g);
  return 0;
}

int iospd_run_prepare_targets(const iospd_profile_t* p,
                              const iospd_timespan_t* ts,
                              const iospd_run_hooks_t* hooks,
                              iospd_timespan_result_t* tsr,
                              iospd_err_t* err) {
  for (uint32_t i = 0; i < ts->target_count; i++) {
    const iospd_target_t* t = &ts->targets[i];
    if (t->path == NULL || t->path[0] == '\0')
      return iospd_err_set(err, IOSPD_EINVAL, "target %u has no path", i + 1);
    /* Only -c ever creates or truncates; a zero size creates nothing. */
    if (t->create && t->file_size > 0 && !created_before(ts, i) &&
        !iospd_run_precreated(p, t->path)) {
      int rc = create_target(p, t, hooks, err);
      if (rc < 0) return rc;
    }
  }
  for (uint32_t i = 0; i < ts->target_count; i++) {
    /* One warning per file, however many targets name it. */
    bool first = true;
    for (uint32_t j = 0; j < i && first; j++)
      first = strcmp(ts->targets[j].path, ts->targets[i].path) != 0;
    int rc = check_target(p, ts, i, first, hooks, tsr, err);
    if (rc < 0) return rc;
  }
  return 0;
}

/* Paths created by <PrecreateFiles> in the current run. */
static char** g_pre;
static uint32_t g_pre_n;

static void pre_clear(void) {
  for (uint32_t i = 0; i < g_pre_n; i++) iospd_free(g_pre[i]);
  iospd_free(g_pre);
  g_pre = NULL;
  g_pre_n = 0;
}

bool iospd_run_precreated(const iospd_profile_t* p, const char* path) {
  if (p->precreate == IOSPD_PRECREATE_NONE) return false;
  for (uint32_t i = 0; i < g_pre_n; i++)
    if (iospd_plat_same_path(g_pre[i], path)) return true;
  return false;
}

/* Whether a smaller spelling of the same file (by the OS's rules) is among
 * the targets: then that spelling stands for the file in precreation. */
static bool spelled_before(const iospd_profile_t* p, const char* path) {
  for (uint32_t s = 0; s < p->timespan_count; s++)
    for (uint32_t i = 0; i < p->timespans[s].target_count; i++) {
      const char* x = p->timespans[s].targets[i].path;
      if (x != NULL && strcmp(x, path) < 0 &&
          iospd_target_kind(x) == IOSPD_TARGET_FILE &&
          iospd_plat_same_path(x, path))
        return true;
    }
  return false;
}

/* Smallest path greater than prev (NULL: the smallest), so paths are
 * visited once each, in order, without building a sorted copy. */
static const char* next_path(const iospd_profile_t* p, const char* prev) {
  const char* best = NULL;
  for (uint32_t s = 0; s < p->timespan_count; s++)
    for (uint32_t i = 0; i < p->timespans[s].target_count; i++) {
      const char* x = p->timespans[s].targets[i].path;
      if (x == NULL || iospd_target_kind(x) != IOSPD_TARGET_FILE) continue;
      if (prev != NULL && strcmp(x, prev) <= 0) continue;
      if (best == NULL || strcmp(x, best) < 0) best = x;
    }
  return best;
}

int iospd_run_precreate(const iospd_profile_t* p,
                        const iospd_run_hooks_t* hooks, iospd_err_t* err) {
  pre_clear();
  if (p->precreate == IOSPD_PRECREATE_NONE) return 0;
  for (const char* path = next_path(p, NULL); path != NULL;
       path = next_path(p, path)) {
    if (spelled_before(p, path)) continue;
    const iospd_target_t* first = NULL;
    uint64_t max = 0, nonzero = 0;
    bool zero_mixed = false, sizes_differ = false, has_zero = false;
    for (uint32_t s = 0; s < p->timespan_count; s++)
      for (uint32_t i = 0; i < p->timespans[s].target_count; i++) {
        const iospd_target_t* t = &p->timespans[s].targets[i];
        if (t->path == NULL || !iospd_plat_same_path(t->path, path)) continue;
        uint64_t size = t->create ? t->file_size : 0;
        if (first == NULL) first = t;
        if ((t->pattern == IOSPD_PATTERN_ZERO) !=
            (first->pattern == IOSPD_PATTERN_ZERO))
          zero_mixed = true;
        if (size == 0) {
          has_zero = true;
          continue;
        }
        if (nonzero != 0 && size != nonzero) sizes_differ = true;
        nonzero = size;
        if (size > max) max = size;
      }
    if (first == NULL || zero_mixed || max == 0) continue;
    bool make = p->precreate == IOSPD_PRECREATE_USE_MAX_SIZE ||
                (p->precreate == IOSPD_PRECREATE_CONSTANT_SIZES &&
                 !sizes_differ && !has_zero) ||
                (p->precreate == IOSPD_PRECREATE_CONSTANT_OR_ZERO_SIZES &&
                 !sizes_differ);
    if (!make) continue;
    iospd_target_t sized = *first;
    sized.file_size = max;
    int rc = create_target(p, &sized, hooks, err);
    if (rc < 0) return rc;
    char** grown = iospd_realloc(g_pre, (g_pre_n + 1) * sizeof(*g_pre));
    if (grown == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    g_pre = grown;
    g_pre[g_pre_n] = iospd_strdup(path);
    if (g_pre[g_pre_n] == NULL)
      return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    g_pre_n++;
  }
  return 0;
}

void iospd_run_precreate_free(void) { pre_clear(); }

/* SPDX-License-Identifier: MIT */
/* Profile validation (DISKSPD's profile validation), shared by command-line and
 * XML profiles: every rule is checked for every target and every message is
 * reported, one line each, "error: ..." in our words, or for DISKSPD's three
 * warnings its exact "WARNING: ..." line followed by a "note: ..." line of
 * ours that names the target. The CPU affinity check against the machine
 * happens at run time, not here. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "iospd/diskspd23.h"
#include "iospd/message.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

typedef struct diag_s {
  iospd_strbuf_t* sb;
  int errors;
} diag_t;

static void err(diag_t* d, const char* fmt, ...) IOSPD_PRINTF(2, 3);
static void wrn(diag_t* d, const char* diskspd_line, const char* fmt, ...)
    IOSPD_PRINTF(3, 4);

static void emit(diag_t* d, iospd_msg_kind_t kind, const char* fmt,
                 va_list ap) {
  if (d->sb != NULL) iospd_msg_vlinef(d->sb, kind, fmt, ap);
}

static void err(diag_t* d, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(d, IOSPD_MSG_ERROR, fmt, ap);
  va_end(ap);
  d->errors++;
}

/* A DISKSPD warning: its line (a DISKSPD_WARNING message, whose prefix is
 * "WARNING: ") exactly as DISKSPD prints it to stderr at
 * this point (scripts compare the two tools' output), then our detail. */
static void wrn(diag_t* d, const char* diskspd_line, const char* fmt, ...) {
  if (d->sb == NULL) return;
  iospd_msg_line(d->sb, IOSPD_MSG_DISKSPD_WARNING, diskspd_line);
  va_list ap;
  va_start(ap, fmt);
  emit(d, IOSPD_MSG_DETAIL, fmt, ap);
  va_end(ap);
}

/* Messages name the target by its path. */
static const char* tname(const iospd_target_t* t) {
  return t->path ? t->path : "(no path)";
}

static void check_dist(diag_t* d, const iospd_target_t* t) {
  uint32_t io_total = 0;
  uint64_t span_total = 0;
  bool io_over = false, span_over = false;
  for (uint32_t i = 0; i < t->dist_count; i++) {
    const iospd_dist_range_t* r = &t->dist[i];
    if (!io_over && r->io_pct > 100 - io_total) {
      err(d, "%s: random distribution I/O%% %" PRIu32 " is too much; at most "
             "%" PRIu32 " is left (the total must be 100%% or less)",
          tname(t), r->io_pct, 100 - io_total);
      io_over = true;
    }
    io_total += r->io_pct;
    if (t->dist_type == IOSPD_DIST_PERCENT) {
      if (!span_over && r->span > 100 - IOSPD_MIN(span_total, 100)) {
        err(d, "%s: random distribution target%% values add up to more than "
               "100%%", tname(t));
        span_over = true;
      }
      span_total += r->span;
    } else {
      bool last = i + 1 == t->dist_count;
      if (r->span == 0 && !last) {
        err(d, "%s: a zero-length (to the end) distribution range must be "
               "the last one", tname(t));
      } else if (r->span != 0 && r->span < t->block_size) {
        err(d, "%s: distribution range %" PRIu32 " is %" PRIu64 " bytes, "
               "smaller than the block size (%" PRIu32 ")",
            tname(t), i + 1, r->span, t->block_size);
      }
    }
  }
  if (t->dist_type == IOSPD_DIST_PERCENT && !span_over) {
    if (span_total == 100 && io_total < 100)
      err(d, "%s: the distribution covers the whole target but only %" PRIu32
             "%% of the I/O; give the remaining I/O%% a range",
          tname(t), io_total);
    else if (span_total != 100)
      err(d, "%s: distribution target%% values add up to %" PRIu64
             "%%; they must add up to exactly 100%%",
          tname(t), span_total);
  }
}

/* --compress / --dedupe (iospd/content.h): percentages, and no other
 * write-content switch that would say something else about the bytes. */
static void check_content(diag_t* d, const iospd_timespan_t* ts,
                          const iospd_target_t* t, const char* n) {
  if (t->compress_pct > 100)
    err(d, "%s: --compress=%" PRId32 " is out of range: give the zlib "
           "saving as a whole percentage from 0 to 100", n, t->compress_pct);
  if (t->dedupe_pct > 100)
    err(d, "%s: --dedupe=%" PRId32 " is out of range: give the share of "
           "repeated blocks as a whole percentage from 0 to 100", n,
        t->dedupe_pct);
  /* Each block carries a 16-byte stamp that must fit whole, with room for
   * content around it. */
  if (t->block_size < 512)
    err(d, "%s: --compress/--dedupe need blocks of at least 512 bytes "
           "(-b%" PRIu32 " is smaller)", n, t->block_size);
  if (t->pattern == IOSPD_PATTERN_ZERO)
    err(d, "%s: --compress/--dedupe generate the write content and cannot "
           "be combined with -Z (zeros)", n);
  if (t->random_data_path != NULL && t->random_data_path[0] != '\0')
    err(d, "%s: --compress/--dedupe generate the write content and cannot "
           "be combined with a -Z<size>,<file> source file; -Z<size> alone "
           "sets the size of the content pool", n);
  if (ts->random_write_data)
    err(d, "%s: --compress/--dedupe generate the write content and cannot "
           "be combined with -Zr (fresh random data per write)", n);
}

static void check_target(diag_t* d, const iospd_timespan_t* ts,
                         const iospd_target_t* t) {
  bool pool = ts->thread_count > 0 && ts->request_count > 0;
  bool multi = ts->thread_count > 1 || t->threads_per_file > 1;
  const char* n = tname(t);

  if (ts->thread_count > 0 && t->threads_per_file > 1)
    err(d, "%s: -F (total threads) and -t (threads per target) cannot be "
           "used together", n);
  if (t->throughput_bpms > 0 && ts->completion_routines)
    err(d, "%s: the throughput limit (-g) cannot be used with completion "
           "routines (-x)", n);
  if ((t->burst_size != 0) != (t->think_time != 0))
    err(d, "%s: -i (burst size) and -j (think time) must be given together",
        n);
  if (pool) {
    if (t->throughput_bpms > 0)
      err(d, "%s: the throughput limit (-g) cannot be used with -O "
             "(outstanding I/Os per thread)", n);
    if (t->think_time != 0)
      err(d, "%s: think time (-j) cannot be used with -O (outstanding I/Os "
             "per thread)", n);
    if (t->parallel_async)
      err(d, "%s: -p cannot be used with -O (outstanding I/Os per thread)", n);
    if (t->weight == 0)
      err(d, "%s: the target weight must not be 0 with -O", n);
    for (uint32_t i = 0; i < t->thread_target_count; i++)
      if (t->thread_targets[i].thread >= ts->thread_count)
        err(d, "%s: ThreadTarget names thread %" PRIu32 " but there are only "
               "%" PRIu32 " threads", n, t->thread_targets[i].thread,
            ts->thread_count);
  }
  if (t->thread_target_count > 0 && !pool)
    err(d, "%s: ThreadTargets need both ThreadCount and RequestCount in the "
           "timespan", n);

  if (t->random_ratio > 0) {
    if (t->thread_stride > 0)
      err(d, "%s: the thread stride (-T) cannot be used with random I/O (-r)",
          n);
    if (t->interlocked)
      err(d, "%s: interlocked sequential I/O (-si) cannot be used with random "
             "I/O (-r)", n);
    if (t->parallel_async)
      err(d, "%s: parallel sequential I/O (-p) cannot be used with random "
             "I/O (-r)", n);
  } else {
    if (t->dist_type != IOSPD_DIST_NONE)
      err(d, "%s: random distributions (-rd) need random I/O (-r or -rs)", n);
    if (t->parallel_async && t->request_count == 1)
      wrn(d, "-p does not have effect unless outstanding I/O count "
             "(-o) is > 1",
          "%s: with one I/O in flight (-o1), parallel sequential I/O (-p) is "
          "plain sequential I/O", n);
    if (t->interlocked) {
      if (t->thread_stride > 0)
        err(d, "%s: interlocked sequential I/O (-si) cannot be used with a "
               "thread stride (-T)", n);
      if (t->parallel_async)
        err(d, "%s: interlocked sequential I/O (-si) cannot be used with -p",
            n);
      if (!multi)
        wrn(d, "single-threaded test, -si ignored",
            "%s: with one thread, interlocked sequential I/O (-si) is plain "
            "sequential I/O", n);
    } else if (multi && t->thread_stride == 0) {
      wrn(d, "target access pattern will not be sequential, "
             "consider -si",
          "%s: the threads of this target all start at the same offset; "
          "-si makes them share one sequence, -T<size> gives each its own "
          "start", n);
    } else if (!multi && t->thread_stride > 0) {
      err(d, "%s: the thread stride (-T) needs more than one thread per "
             "target", n);
    }
  }
  if (t->dist_type != IOSPD_DIST_NONE) check_dist(d, t);

  if (t->random_data_size > 0 && t->random_data_size < t->block_size)
    err(d, "%s: the write buffer (-Z) of %" PRIu64 " bytes is smaller than "
           "the block size (%" PRIu32 ")", n, t->random_data_size,
        t->block_size);
  if (iospd_target_has_content(t)) check_content(d, ts, t, n);
  if (t->memory_mapped) {
    if (ts->completion_routines)
      err(d, "%s: completion routines (-x) cannot be used with memory-mapped "
             "I/O (-Sm)", n);
    if (t->cache_mode == IOSPD_CACHE_DISABLE_OS)
      err(d, "%s: unbuffered I/O (-Su, -Sh, -h) cannot be used with "
             "memory-mapped I/O (-Sm)", n);
  } else if (t->flush_type != IOSPD_FLUSH_NONE) {
    err(d, "%s: the flush mode (-N) needs memory-mapped I/O (-Sm)", n);
  }
  if (t->max_file_size > 0 && t->max_file_size <= t->base_offset)
    err(d, "%s: the maximum offset (%" PRIu64 ", -f or -B<base>:<length>) "
           "must be greater than the base offset (%" PRIu64 ", -B)",
        n, t->max_file_size, t->base_offset);
}

/* True if a and b agree on every field the checks above look at. */
static bool same_checked_params(const iospd_target_t* a,
                                const iospd_target_t* b) {
  if (a->block_size != b->block_size || a->base_offset != b->base_offset ||
      a->max_file_size != b->max_file_size ||
      a->random_ratio != b->random_ratio || a->interlocked != b->interlocked ||
      a->parallel_async != b->parallel_async ||
      a->thread_stride != b->thread_stride ||
      a->request_count != b->request_count ||
      a->throughput_bpms != b->throughput_bpms ||
      a->threads_per_file != b->threads_per_file || a->weight != b->weight ||
      a->cache_mode != b->cache_mode || a->memory_mapped != b->memory_mapped ||
      a->flush_type != b->flush_type || a->pattern != b->pattern ||
      a->random_data_size != b->random_data_size ||
      a->compress_pct != b->compress_pct || a->dedupe_pct != b->dedupe_pct ||
      a->burst_size != b->burst_size || a->think_time != b->think_time ||
      a->dist_type != b->dist_type || a->dist_count != b->dist_count ||
      a->thread_target_count != 0 || b->thread_target_count != 0)
    return false;
  for (uint32_t i = 0; i < a->dist_count; i++)
    if (a->dist[i].io_pct != b->dist[i].io_pct ||
        a->dist[i].span != b->dist[i].span)
      return false;
  return true;
}

/* --tree (docs/tree.md): one timespan with one target holding the I/O
 * switches; the switches that have no meaning for a file tree are refused
 * rather than ignored, and -o above 1 too (one I/O at a time per thread). */
static void check_tree(diag_t* d, const iospd_profile_t* p) {
  const iospd_tree_opts_t* tr = &p->ext.tree;
  if (p->timespan_count != 1 || p->timespans[0].target_count != 1) {
    err(d, "--tree: the file-tree workload takes one timespan with one "
           "target (its settings); this profile has %" PRIu32 " timespans",
        p->timespan_count);
    return;
  }
  const iospd_timespan_t* ts = &p->timespans[0];
  const iospd_target_t* t = &ts->targets[0];
  /* -o N: N synchronous issuers per thread, each with its own file in
   * flight (docs/tree.md); the thread count is bounded by the usual -t
   * checks, the product here. */
  if (t->request_count > 64)
    err(d, "--tree: -o%" PRIu32 " is more than 64: each slot of a thread is "
           "a synchronous issuer of its own in this mode (docs/tree.md); use "
           "more threads (-t)",
        t->request_count);
  if (tr->file_size < t->block_size)
    err(d, "--tree: the file size (--file-size=%" PRIu64 ") is smaller than "
           "the block size (-b%" PRIu32 "); every I/O must fit in a file",
        tr->file_size, t->block_size);
  struct {
    bool bad;
    const char* sw;
  } refused[] = {
      {ts->thread_count != 0, "-F"},
      {ts->request_count != 0, "-O"},
      {t->create, "-c (the tree's files are made with --file-size)"},
      {t->base_offset != 0 || t->max_file_size != 0, "-B and -f<size>"},
      {t->thread_stride != 0, "-T"},
      {t->random_ratio != 100 && t->random_ratio != 0, "-rs"},
      {t->random_ratio == 0 && t->stride_align != 0,
       "-s (offsets are random in this mode)"},
      {t->stride_align != 0 && t->stride_align != t->block_size,
       "-r<align> other than the block size"},
      {t->dist_count != 0, "-rd"},
      {t->memory_mapped, "-Sm"},
      {t->parallel_async || t->interlocked, "-p and -si"},
      {t->pattern == IOSPD_PATTERN_RANDOM || ts->random_write_data,
       "-Z<size> and -Zr"},
      {t->flush_type != IOSPD_FLUSH_NONE, "-N"},
      {t->thread_target_count != 0, "ThreadTargets"},
      {ts->completion_routines, "-x"},
      {p->ext.verify || p->ext.verify_only,
       "--verify and --verify-only (they check one target's blocks)"},
      {t->sequential_scan || t->random_access || t->temporary,
       "-fs, -fr and -ft (the tree's opens take no access hints)"},
      {t->large_pages, "-l (a tree thread's buffer is one block)"},
      {t->io_priority != IOSPD_IO_PRIORITY_NORMAL && t->io_priority != 0,
       "-I (the tree's calls set no I/O priority)"},
      {iospd_target_has_content(t),
       "--compress and --dedupe (the tree writes DISKSPD's pattern or "
       "zeros)"},
      {p->ext.engine != IOSPD_ENGINE_AUTO,
       "--engine (the tree issues synchronous calls, not through an "
       "engine)"},
      /* Issue #26: these two were accepted and ignored. */
      {p->etw.enabled,
       "-e (no ETW session is started for the tree's calls)"},
      {t->cache_mode == IOSPD_CACHE_DISABLE_LOCAL,
       "-Sr (the tree's opens do not disable remote local caching)"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    if (refused[i].bad)
      err(d, "--tree: %s cannot be used in the file-tree mode; see "
             "docs/tree.md for the switches it takes", refused[i].sw);
  uint32_t ndirs = 1;
  for (const char* c = tr->dirs; *c; c++) ndirs += *c == ',';
  uint64_t leaves = ndirs;
  for (uint32_t i = 0; i < tr->depth && leaves <= 1000000; i++)
    leaves *= tr->width ? tr->width : 1;
  if (leaves > 1000000)
    err(d, "--tree: %" PRIu32 " director%s with --depth=%" PRIu32
           " --width=%" PRIu32 " make more than 1000000 leaf directories",
        ndirs, ndirs == 1 ? "y" : "ies", tr->depth, tr->width);
  if (tr->relocate_rate != 0 && leaves < 2)
    err(d, "--relocate moves files between directories, and this tree has "
           "one: give two directories (--tree=A,B) or --depth=1");
}

int iospd_profile_validate(const iospd_profile_t* p,
                           struct iospd_strbuf_s* diag) {
  diag_t d = {diag, 0};
  if (p->timespan_count == 0) err(&d, "the profile has no timespans");
  for (uint32_t i = 0; i < p->timespan_count; i++) {
    const iospd_timespan_t* ts = &p->timespans[i];
    if (ts->target_count == 0)
      err(&d, "timespan %" PRIu32 " has no targets", i + 1);
    if (ts->disable_affinity && ts->affinity_count > 0)
      err(&d, "-n (no affinity) and -a (CPU list) cannot be used together");
    const iospd_target_t* prev = NULL;
    for (uint32_t j = 0; j < ts->target_count; j++) {
      const iospd_target_t* t = &ts->targets[j];
      if (t->path != NULL && t->path[0] == '*' && !p->profile_only)
        err(&d, "template target '%s' was not replaced: give one "
                "command-line target per template (*1, *2, ...) to run the "
                "profile", t->path);
      /* Command-line targets share every parameter and DISKSPD checks only
       * the first; skipping repeats keeps messages from repeating. An XML
       * profile's targets are each checked and reported, as DISKSPD does. */
      if (p->xml_source == NULL && prev != NULL &&
          same_checked_params(prev, t))
        continue;
      check_target(&d, ts, t);
      prev = t;
    }
  }
  if (p->ext.tree.dirs != NULL) check_tree(&d, p);
  d.errors += iospd_profile_validate_23(p, diag);
  if (iospd_profile_validate_verify(p, diag) < 0) d.errors++;
  d.errors += iospd_profile_validate_steady(p, diag);
  return d.errors ? IOSPD_EUSAGE : 0;
}

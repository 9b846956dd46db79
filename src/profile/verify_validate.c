/* SPDX-License-Identifier: MIT */
/* The --verify and --verify-only rules of a profile (docs/verify.md), checked
 * before anything runs (exit 3). A verified block is the -b bytes at an
 * offset that is a multiple of -b, so every switch that could make an I/O
 * start elsewhere is refused rather than redefining blocks. */
#include <inttypes.h>
#include <string.h>

#include "iospd/profile.h"
#include "iospd/strbuf.h"
#include "iospd/vblock_layout.h"
#include "validate_diag.h"

static const char* tname(const iospd_target_t* t) {
  return t->path ? t->path : "(no path)";
}

static void check_target(const iospd_profile_t* p, const iospd_target_t* t,
                         const char* sw, iospd_strbuf_t* d, int* n) {
  uint32_t bs = t->block_size;
  if (bs < IOSPD_VMIN_BLOCK) {
    iospd_validate_bad(
        d, n,
        "%s needs blocks of at least %u bytes (the block header); "
        "target '%s' has -b%" PRIu32,
        sw, IOSPD_VMIN_BLOCK, tname(t), bs);
    return;
  }
  /* A header in every block makes every block unique (no dedupe ratio can
   * hold) and changes what compresses. */
  if (iospd_target_has_content(t))
    iospd_validate_bad(
        d, n,
        "%s cannot be combined with --compress or --dedupe (target "
        "'%s'): a verified block carries a unique header, so its "
        "content cannot repeat or compress as asked; run them "
        "separately",
        sw, tname(t));
  if (t->base_offset % bs != 0)
    iospd_validate_bad(d, n,
                       "%s checks blocks at multiples of -b%" PRIu32
                       ", but target "
                       "'%s' starts at -B%" PRIu64
                       ": use a -B that is a multiple of "
                       "-b",
                       sw, bs, tname(t), t->base_offset);
  if (p->ext.verify_only) {
    if (t->create)
      iospd_validate_bad(
          d, n,
          "--verify-only reads what is there and never creates a "
          "file; leave -c out for target '%s'",
          tname(t));
    return; /* reads whole blocks from -B on */
  }
  uint64_t align = iospd_target_align(t);
  if (align % bs != 0)
    iospd_validate_bad(d, n,
                       "%s checks blocks at multiples of -b%" PRIu32
                       ", but target "
                       "'%s' has a %s of %" PRIu64
                       " bytes: use -r/-s with a multiple "
                       "of -b (or leave it out)",
                       sw, bs, tname(t),
                       t->random_ratio > 0 ? "-r alignment" : "-s stride",
                       align);
  if (t->thread_stride % bs != 0)
    iospd_validate_bad(d, n,
                       "%s checks blocks at multiples of -b%" PRIu32
                       ", but target "
                       "'%s' has -T%" PRIu64
                       ": use a -T that is a multiple of -b",
                       sw, bs, tname(t), t->thread_stride);
}

/* How many threads of the timespan do I/O to target j: -F's threads all
 * do (or those its XML ThreadTargets name), else the -t threads of every
 * target of the same path. */
static uint32_t threads_on(const iospd_timespan_t* ts, uint32_t j) {
  const iospd_target_t* t = &ts->targets[j];
  if (ts->thread_count > 0)
    return t->thread_target_count > 0 ? t->thread_target_count
                                      : ts->thread_count;
  uint32_t n = 0;
  for (uint32_t k = 0; k < ts->target_count; k++)
    if (strcmp(tname(&ts->targets[k]), tname(t)) == 0)
      n +=
          ts->targets[k].threads_per_file ? ts->targets[k].threads_per_file : 1;
  return n;
}

/* Whether a target of the same path as target j writes. */
static bool path_written(const iospd_timespan_t* ts, uint32_t j) {
  for (uint32_t k = 0; k < ts->target_count; k++)
    if (ts->targets[k].write_ratio > 0 &&
        strcmp(tname(&ts->targets[k]), tname(&ts->targets[j])) == 0)
      return true;
  return false;
}

/* -Sm copies each write into the shared mapping with memcpy, one thread's
 * I/Os one after another. Two threads copying into one block at once
 * interleave their bytes, which the check then reports as torn blocks
 * though the storage did nothing wrong; nothing in the mapping orders
 * them. So one writing thread per target. */
static void check_mapped_writers(const iospd_timespan_t* ts, uint32_t j,
                                 iospd_strbuf_t* d, int* n) {
  const iospd_target_t* t = &ts->targets[j];
  if (!t->memory_mapped || !path_written(ts, j)) return;
  uint32_t threads = threads_on(ts, j);
  if (threads < 2) return;
  iospd_validate_bad(
      d, n,
      "--verify with memory-mapped I/O (-Sm): target '%s' is written "
      "by %" PRIu32
      " threads (-t, -F or the same file named twice), "
      "whose copies into one block through the mapping can interleave "
      "and would read back as torn blocks on healthy storage; use one "
      "thread per target with -Sm (-t1, no -F), or leave -Sm out to "
      "verify several writing threads",
      tname(t), threads);
}

/* --verify-only reads each target once, in order, one thread each, as fast
 * as it can, and writes nothing: the switches of a workload have no meaning
 * for it and are refused rather than ignored. A value at its default reads
 * as not given (a profile cannot tell -d10 from nothing). */
static void check_vonly_switches(const iospd_timespan_t* ts, iospd_strbuf_t* d,
                                 int* n) {
  bool threads = ts->thread_count > 0, writes = false, random = false,
       rate = false, stride = false, shared = false, zdata = false,
       flush = false;
  for (uint32_t j = 0; j < ts->target_count; j++) {
    const iospd_target_t* t = &ts->targets[j];
    threads |= t->threads_per_file > 1;
    writes |= t->write_ratio > 0;
    random |= t->random_ratio > 0 || t->dist_count > 0;
    rate |= t->throughput_bpms > 0 || t->throughput_iops > 0 || t->burst_set ||
            t->think_set;
    stride |= t->thread_stride > 0;
    shared |= t->parallel_async || t->interlocked;
    zdata |= t->pattern == IOSPD_PATTERN_RANDOM;
    flush |= t->flush_type != IOSPD_FLUSH_NONE;
  }
  const struct {
    bool bad;
    const char* sw;
  } refused[] = {
      {ts->duration != IOSPD_DEFAULT_DURATION,
       "-d (the pass ends when every block has been read)"},
      {ts->warmup != IOSPD_DEFAULT_WARMUP || ts->cooldown != 0,
       "-W and -C (the pass has no warm-up or cool-down)"},
      {threads, "-t and -F (one thread reads each target)"},
      {ts->request_count > 0, "-O (each target keeps its own -o reads)"},
      {writes, "-w (the pass only reads)"},
      {random, "-r, -rs and -rd (the pass reads every block in order)"},
      {rate, "-g, -i and -j (the pass reads as fast as it can)"},
      {stride || shared, "-T, -p and -si (one thread reads each target)"},
      {zdata || ts->random_write_data, "-Z (nothing is written)"},
      {flush, "-N (nothing is written)"},
      {ts->calc_iops_stddev, "-D (the pass keeps no per-interval counts)"},
      {ts->measure_latency, "-L (the pass measures no latency)"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    if (refused[i].bad)
      iospd_validate_bad(
          d, n,
          "--verify-only: %s cannot be used with a checking pass; "
          "give it only -b, -o, -B, -f, the cache mode, --engine and "
          "the -v, -P, -y switches (docs/verify.md)",
          refused[i].sw);
}

int iospd_profile_validate_verify(const iospd_profile_t* p,
                                  iospd_strbuf_t* diag) {
  const iospd_ext_t* x = &p->ext;
  int n = 0;
  if (!x->verify && !x->verify_only) {
    if (x->verify_errors_set || x->verify_state != NULL)
      iospd_validate_bad(diag, &n,
                         "--verify-errors and --verify-state need --verify or "
                         "--verify-only");
    return n ? IOSPD_EUSAGE : 0;
  }
  const char* sw = x->verify_only ? "--verify-only" : "--verify";
  if (x->verify_only && (x->output_count > 0 || x->timeseries_path != NULL))
    iospd_validate_bad(diag, &n,
                       "--verify-only prints its own summary and writes no "
                       "--output or --timeseries file; leave those out");
  if (x->verify_only)
    for (uint32_t i = 0; i < p->timespan_count; i++)
      check_vonly_switches(&p->timespans[i], diag, &n);
  if (x->verify && x->verify_only)
    iospd_validate_bad(diag, &n,
                       "--verify and --verify-only cannot be used together: "
                       "--verify-only reads and checks, --verify runs the "
                       "workload with checked blocks");
  uint32_t paths = 0;
  const char* first = NULL;
  for (uint32_t i = 0; i < p->timespan_count; i++)
    for (uint32_t j = 0; j < p->timespans[i].target_count; j++) {
      const iospd_target_t* t = &p->timespans[i].targets[j];
      check_target(p, t, sw, diag, &n);
      if (x->verify) check_mapped_writers(&p->timespans[i], j, diag, &n);
      if (first == NULL || strcmp(first, tname(t)) != 0) paths++;
      if (first == NULL) first = tname(t);
      if (x->verify_state == NULL &&
          iospd_target_kind(tname(t)) != IOSPD_TARGET_FILE)
        iospd_validate_bad(
            diag, &n,
            "%s on disk or volume '%s': there is no folder beside "
            "it for the state file; give one with "
            "--verify-state=FILE",
            sw, tname(t));
    }
  if (x->verify_state != NULL && paths > 1)
    iospd_validate_bad(
        diag, &n,
        "--verify-state=%s names one state file, but the profile "
        "has several targets: leave it out (each file then keeps "
        "<target>.iospd-verify)",
        x->verify_state);
  return n ? IOSPD_EUSAGE : 0;
}

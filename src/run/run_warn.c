/* SPDX-License-Identifier: MIT */
/* The run's side of the warnings about misleading set-ups
 * (iospd/warnings.h): gathers the numbers before the run (extent map,
 * sampled blocks, available memory, CPUs) and after it (thread CPU time,
 * Little's law), prints each warning as one line on stderr and keeps it in
 * the timespan's results for the XML and JSON reports. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/cost.h"
#include "iospd/strbuf.h"
#include "run_internal.h"

void iospd_run_warn(const iospd_run_hooks_t* hooks,
                    iospd_timespan_result_t* tsr, iospd_warn_kind_t kind,
                    int32_t target, int32_t thread, const char* fmt, ...) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  va_list ap;
  va_start(ap, fmt);
  iospd_strbuf_vappendf(&sb, fmt, ap);
  va_end(ap);
  const char* text = iospd_strbuf_cstr(&sb);
  /* The never-written warning kept the capitals it had before the others
   * came; the others are iospd's own lower-case "warning: " lines, so that
   * a script looking for DISKSPD's WARNING lines sees only DISKSPD's. */
  iospd_run_sayf(hooks,
                 kind == IOSPD_WARN_UNWRITTEN ? IOSPD_MSG_DISKSPD_WARNING
                                              : IOSPD_MSG_WARNING,
                 "%s", text);
  /* Out of memory only loses the report entry; the line was said. */
  if (tsr != NULL)
    (void)iospd_timespan_warning_add(tsr, kind, target, thread, text);
  iospd_strbuf_destroy(&sb);
}

static bool reads(const iospd_target_t* t) { return t->write_ratio < 100; }

/* The bytes a target's I/O can touch: from -B to -f (or the end). */
static void span_of(const iospd_target_t* t, uint64_t size, uint64_t* base,
                    uint64_t* end) {
  *base = t->base_offset < size ? t->base_offset : size;
  *end = t->max_file_size != 0 && t->max_file_size < size ? t->max_file_size
                                                          : size;
  if (*end < *base) *end = *base;
}

/* Samples IOSPD_WARN_SAMPLES blocks across the range; true when every byte
 * read was zero (and something was read). */
static bool sampled_all_zero(const iospd_target_t* t, uint64_t base,
                             uint64_t end) {
  uint32_t len = (t->block_size + 4095u) & ~4095u;
  if (len == 0 || len > IOSPD_WARN_SAMPLE_MAX) len = IOSPD_WARN_SAMPLE_MAX;
  if (end - base < len) return false;
  uint32_t n = IOSPD_WARN_SAMPLES;
  uint64_t* off = iospd_malloc(n * sizeof *off);
  uint8_t* buf = iospd_malloc((size_t)n * len);
  bool zero = false;
  if (off != NULL && buf != NULL) {
    for (uint32_t k = 0; k < n; k++)
      off[k] = iospd_warn_sample_offset(base, end, len, k, n);
    uint32_t got = 0;
    if (iospd_plat_read_samples(t->path, off, n, len, buf, &got, NULL) == 0 &&
        got == n)
      zero = iospd_warn_all_zero(buf, (size_t)n * len);
  }
  iospd_free(off);
  iospd_free(buf);
  return zero;
}

static const char k_fix[] =
    "write it once first, e.g. a -w100 -Zr pass over the whole target "
    "(or a --verify write run)";

void iospd_run_warn_target(const iospd_run_hooks_t* hooks,
                           iospd_timespan_result_t* tsr,
                           const iospd_timespan_t* ts, uint32_t ti,
                           const iospd_file_info_t* info) {
  const iospd_target_t* t = &ts->targets[ti];
  uint64_t base, end;
  span_of(t, info->size, &base, &end);
  bool never = false;
  if (!info->is_device) {
    iospd_unwritten_t u;
    if (iospd_plat_file_unwritten(t->path, &u, NULL) == 0 && u.known &&
        u.hole_bytes + u.unwritten_bytes > 0) {
      never = true;
      uint64_t nb = u.hole_bytes + u.unwritten_bytes;
      const char* what = u.unwritten_bytes == 0 ? "holes of a sparse file"
                         : u.hole_bytes == 0
                             ? "unwritten extents, as fallocate, SetEndOfFile "
                               "or an interrupted -c leave"
                             : "holes and unwritten extents";
      iospd_run_warn(
          hooks, tsr, IOSPD_WARN_UNWRITTEN, (int32_t)ti, -1,
          "target '%s': %llu of its %llu bytes (%.1f %%) were never "
          "written (%s); reads there return zeros without touching the "
          "device and writes there first allocate, so the results are not "
          "the device's. Re-create the file with -c<size>, which writes "
          "every block%s%s",
          t->path, (unsigned long long)nb, (unsigned long long)info->size,
          100.0 * (double)nb / (double)info->size, what,
          reads(t) ? ", or " : "", reads(t) ? k_fix : "");
    }
  }
  if (reads(t) && !never && sampled_all_zero(t, base, end))
    iospd_run_warn(hooks, tsr, IOSPD_WARN_ZERO_DATA, (int32_t)ti, -1,
                   "target '%s': all %u blocks sampled across the range the "
                   "run reads are zeros; storage that skips or compresses "
                   "zeros (thin provisioning, a fresh SSD, deduplication) "
                   "answers such reads without real work. To measure real "
                   "reads, %s",
                   t->path, IOSPD_WARN_SAMPLES, k_fix);
  if (reads(t) && (t->cache_mode == IOSPD_CACHE_CACHED || t->memory_mapped)) {
    uint64_t mem = iospd_plat_mem_available();
    if (iospd_warn_page_cache(end - base, mem))
      iospd_run_warn(hooks, tsr, IOSPD_WARN_PAGE_CACHE, (int32_t)ti, -1,
                     "target '%s': buffered reads of %llu bytes, which fit "
                     "in the %llu bytes of free memory: after the first "
                     "pass the run measures the page cache, not the "
                     "storage. Use -Su (unbuffered) or a target larger "
                     "than memory",
                     t->path, (unsigned long long)(end - base),
                     (unsigned long long)mem);
  }
}

void iospd_run_warn_threads(const iospd_run_hooks_t* hooks,
                            iospd_timespan_result_t* tsr,
                            const iospd_timespan_t* ts, uint32_t cpus) {
  uint32_t n = iospd_run_thread_count(ts);
  if (cpus > 0 && n > cpus)
    iospd_run_warn(hooks, tsr, IOSPD_WARN_THREADS_OVER_CPUS, -1, -1,
                   "%u worker threads on %u logical CPUs: threads wait for "
                   "a CPU, which adds to the latency and may cap the IOPS; "
                   "use at most %u threads (-t, -F) and more outstanding "
                   "I/Os each (-o)",
                   n, cpus, cpus);
}

static bool throttled(const iospd_timespan_t* ts) {
  for (uint32_t i = 0; i < ts->target_count; i++) {
    const iospd_target_t* t = &ts->targets[i];
    if (t->throughput_bpms > 0 || (t->think_time > 0 && t->burst_size > 0))
      return true;
  }
  return false;
}

/* -Sy (DISKSPD 2.3): a target whose handles were not fully bypassed, said
 * once per target with what the platform answered (-SY already failed the
 * run in that case), so a run that asked for BypassIO never reads as one
 * that got it. */
void iospd_run_warn_bypass(const iospd_run_hooks_t* hooks,
                           iospd_timespan_result_t* tsr) {
  const iospd_timespan_t* ts = tsr->ts;
  for (uint32_t k = 0; k < ts->target_count; k++) {
    for (uint32_t t = 0; t < tsr->thread_count_alloc; t++) {
      const iospd_thread_result_t* th = &tsr->threads[t];
      const iospd_bypass_result_t* b = NULL;
      for (uint32_t j = 0; j < th->target_count; j++)
        if (th->targets[j].target_index == k) b = &th->targets[j].bypass_io;
      if (b == NULL || (b->state != IOSPD_BYPASS_STATE_NONE &&
                        b->state != IOSPD_BYPASS_STATE_PARTIAL))
        continue;
      iospd_run_warn(hooks, tsr, IOSPD_WARN_BYPASS_IO, (int32_t)k,
                     (int32_t)th->id,
                     "target '%s': -Sy asked for BypassIO, and %s%s%s",
                     ts->targets[k].path,
                     b->state == IOSPD_BYPASS_STATE_PARTIAL
                         ? "only the file system was bypassed (the storage "
                           "stack was not)"
                         : "nothing was bypassed: every I/O took the normal "
                           "path",
                     b->note[0] ? ": " : "", b->note);
      break;
    }
  }
}

/* A worker's busy share (iospd_thread_busy_ns: the measured phase's when
 * the worker took it, else its whole run's) and its cost figures (NaN when
 * not known). */
static void busy_of(const iospd_timespan_result_t* tsr,
                    const iospd_worker_t* w, uint64_t* cpu, uint64_t* wall,
                    iospd_cost_t* c) {
  const iospd_thread_result_t* th =
      w->id < tsr->thread_count_alloc && tsr->threads != NULL
          ? &tsr->threads[w->id]
          : NULL;
  if (!iospd_thread_busy_ns(th, cpu, wall)) {
    /* Not in the results (yet): the worker's own whole-run times. */
    *cpu = w->cpu_ns;
    *wall = w->wall_ns;
  }
  iospd_cost_raw_t none;
  memset(&none, 0, sizeof none);
  uint64_t ios = 0;
  for (uint32_t k = 0; th != NULL && k < th->target_count; k++)
    ios += th->targets[k].stats.ios[0] + th->targets[k].stats.ios[1];
  iospd_cost_compute(th != NULL ? &th->cost : &none, ios, c);
}

/* Kept only: main says these after the report (iospd_warn_after_run), so
 * that what comes before the report stays DISKSPD's layout. */
void iospd_run_warn_generator(iospd_timespan_result_t* tsr,
                              iospd_worker_t* const* workers, uint32_t n) {
  const iospd_run_hooks_t* hooks = NULL;
  const iospd_timespan_t* ts = tsr->ts;
  /* One line per busy thread up to a few; beyond that one line that
   * counts them (-t1000 on two CPUs would print hundreds). */
  enum { BUSY_LISTED = 3 };
  uint32_t busy = 0, first_id = 0;
  bool have_first = false;
  double low = 100.0;
  uint64_t cpu, wall;
  iospd_cost_t c;
  for (uint32_t i = 0; i < n; i++) {
    busy_of(tsr, workers[i], &cpu, &wall, &c);
    if (iospd_warn_busy(cpu, wall)) busy++;
  }
  for (uint32_t i = 0; i < n; i++) {
    const iospd_worker_t* w = workers[i];
    busy_of(tsr, w, &cpu, &wall, &c);
    if (!iospd_warn_busy(cpu, wall)) continue;
    /* The two clocks tick apart: never above 100 %. */
    double pct = IOSPD_MIN(100.0, 100.0 * (double)cpu / (double)wall);
    if (busy <= BUSY_LISTED) {
      char fig[128] = "";
      if (!isnan(c.cpu_us_per_io))
        snprintf(fig, sizeof fig,
                 " of the measured phase (%.3f us of CPU per I/O, %.0f IOPS "
                 "per busy core)",
                 c.cpu_us_per_io, c.iops_per_core);
      iospd_run_warn(hooks, tsr, IOSPD_WARN_GENERATOR_BUSY, -1, (int32_t)w->id,
                     "thread %u was busy on a CPU for %.0f %%%s: "
                     "the generator, not the storage, may be the limit. "
                     "Use more threads (-t, -F) or fewer outstanding I/Os "
                     "per thread",
                     w->id, pct, fig[0] ? fig : " of the run");
      continue;
    }
    if (!have_first) first_id = w->id;
    have_first = true;
    if (pct < low) low = pct;
  }
  if (busy > BUSY_LISTED)
    iospd_run_warn(hooks, tsr, IOSPD_WARN_GENERATOR_BUSY, -1, -1,
                   "%u of %u threads (the first: thread %u) were each busy "
                   "on a CPU for %.0f %% or more of the run: the generator, "
                   "not the storage, may be the limit. Use more threads "
                   "(-t, -F) or fewer outstanding I/Os per thread, or fewer "
                   "threads than CPUs if they outnumber them",
                   busy, n, first_id, low);
  /* Little's law needs a queue kept full on purpose: not with -g or -i/-j,
   * and not after a failure. */
  if (ts == NULL || throttled(ts) || tsr->seconds <= 0 || tsr->error[0])
    return;
  uint64_t asked = 0, ios = 0, lat_ns = 0;
  for (uint32_t i = 0; i < n; i++) asked += workers[i]->slot_count;
  for (uint32_t i = 0; i < tsr->thread_count; i++) {
    const iospd_thread_result_t* th = &tsr->threads[i];
    for (uint32_t k = 0; k < th->target_count; k++)
      for (int op = 0; op < 2; op++) {
        ios += th->targets[k].stats.ios[op];
        lat_ns += th->targets[k].stats.lat_sum_ns[op];
      }
  }
  double in_flight = 0;
  if (ios > 0 && iospd_warn_queue_not_full((double)lat_ns / 1e9, tsr->seconds,
                                           asked, &in_flight))
    iospd_run_warn(hooks, tsr, IOSPD_WARN_QUEUE_NOT_FULL, -1, -1,
                   "%.0f IOPS x %.1f us mean latency = %.2f I/Os in flight "
                   "on average, %.0f %% of the %llu outstanding I/Os asked "
                   "for (Little's law): the generator, not the storage, may "
                   "be the limit, or the storage answers faster than I/Os "
                   "are issued (the page cache)",
                   (double)ios / tsr->seconds,
                   (double)lat_ns / 1e3 / (double)ios, in_flight,
                   100.0 * in_flight / (double)asked,
                   (unsigned long long)asked);
}

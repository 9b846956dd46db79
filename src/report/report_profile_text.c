/* SPDX-License-Identifier: MIT */
/* The profile echo at the head of a text report and the whole of -Rp /
 * -Rptext output: "Command Line", "Input parameters", one block per timespan
 * and target, in DISKSPD 2.2's layout (tab-indented, conditional lines) or,
 * at --diskspd=2.3, in 2.3's: the same lines indented with spaces (2 for
 * the timespan heading, 4 for its lines and the paths, 6 for a target's
 * lines), "affinity disabled" after the random seed, the IoRing, affinity
 * assignment, buffer separation and completion depth lines, BypassIO among
 * the target lines, and no "I/O Completion Ports" line with -u. */
#include <string.h>

#include "iospd/diskspd23.h"
#include "iospd/units.h"
#include "report_internal.h"

#define ap iospd_strbuf_appendf

/* The line that says how I/O is issued. NULL or "" engine (nothing ran, or
 * -Rp): DISKSPD's own text (IOCP or completion routines). Otherwise the
 * engine that ran; a bare "psync" is the fallback for a kernel that refused
 * io_uring, while the platform names the psync it picks for depth-1 workers
 * itself ("psync (synchronous, queue depth 1)"), printed as it is. */
typedef struct engines_s {
  const char* name; /* the run's engine, for targets fn does not answer */
  iospd_engine_use_fn fn;
  void* ctx;
  uint32_t timespan, target;
  bool auto_chosen; /* --engine=auto (the default) picked it */
  const iospd_profile_t* profile;
  /* DISKSPD 2.3 layout (p->ext.diskspd); the -bsp size shown. */
  bool d23;
  uint64_t bufsep_bytes;
} engines_t;

static void engine_line(iospd_strbuf_t* out, const iospd_timespan_t* ts,
                        const engines_t* en) {
  iospd_engine_use_t use = {en->name, 0, 0};
  if (en->fn != NULL && !en->fn(en->ctx, en->timespan, en->target, &use))
    use = (iospd_engine_use_t){en->name, 0, 0};
  const char* engine = use.name;
  if (engine != NULL && strcmp(engine, "psync") == 0 && !en->auto_chosen)
    engine = "psync (pread/pwrite, chosen with --engine=psync)";
  bool linux_engine = true;
  if (engine == NULL || engine[0] == '\0' ||
      strcmp(engine, "I/O Completion Ports") == 0 ||
      strcmp(engine, "IOCP") == 0) {
    /* 2.3 with -u names IoRing among the timespan lines instead. */
    if (en->d23 && ts->ioring.enabled && !ts->completion_routines) return;
    if (ts->completion_routines)
      ap(out, "\t\tusing completion routines (ReadFileEx/WriteFileEx)");
    else
      ap(out, "\t\tusing I/O Completion Ports");
    linux_engine = false;
  } else if (strcmp(engine, "psync") == 0) {
    ap(out, "\t\tusing the psync fallback (io_uring unavailable)");
  } else if (strcmp(engine, "libaio") == 0 || strcmp(engine, "threads") == 0) {
    ap(out, "\t\tusing %s (%s%s)", engine,
       engine[0] == 'l' ? "Linux kernel AIO"
                        : "a pool of blocking pread/pwrite threads",
       en->auto_chosen ? "; io_uring unavailable" : "");
  } else {
    ap(out, "\t\tusing %s", engine);
  }
  if (linux_engine && use.asked > 0)
    ap(out, ", %u I/O%s in flight per thread", use.kept,
       use.kept == 1 ? "" : "s");
  ap(out, "\n");
  if (linux_engine && use.kept < use.asked)
    ap(out,
       "\t\tWARNING: the %s engine keeps %u I/O%s in flight, not the %u "
       "asked for\n",
       use.name, use.kept, use.kept == 1 ? "" : "s", use.asked);
}

static void stated_distribution(iospd_strbuf_t* out, const iospd_target_t* t) {
  ap(out, "\t\tIO Distribution:\n");
  for (uint32_t i = 0; i < t->dist_count; i++) {
    const iospd_dist_range_t* r = &t->dist[i];
    if (t->dist_type == IOSPD_DIST_PERCENT) {
      ap(out, "\t\t   %3u%% of IO => [%2u%% - %3u%%) of target\n", r->io_pct,
         (unsigned)r->span_base, (unsigned)(r->span_base + r->span));
    } else {
      char a[32], b[32];
      if (r->span_base == 0)
        strcpy(a, "     0   ");
      else
        iospd_rpt_size_w6(r->span_base, a, sizeof a);
      if (r->span == 0)
        strcpy(b, "      end");
      else
        iospd_rpt_size_w6(r->span_base + r->span, b, sizeof b);
      ap(out, "\t\t   %3u%% of IO => [%s - %s)\n", r->io_pct, a, b);
    }
  }
}

static void target_lines(iospd_strbuf_t* out, const iospd_timespan_t* ts,
                         const iospd_target_t* t, const engines_t* engine) {
  char sz[64];
  const char* path = t->path != NULL ? t->path : "";
  if (path[0] == '*')
    ap(out, "\tpath: template target '%s'\n", path + 1);
  else
    ap(out, "\tpath: '%s'\n", path);
  ap(out, "\t\tthink time: %ums\n", t->think_time);
  ap(out, "\t\tburst size: %u\n", t->burst_size);

  switch (t->cache_mode) {
    case IOSPD_CACHE_DISABLE_LOCAL:
      ap(out, "\t\tlocal software cache disabled, remote cache enabled\n");
      break;
    case IOSPD_CACHE_DISABLE_OS:
      ap(out, "\t\tsoftware cache disabled\n");
      break;
    default:
      ap(out, "\t\tusing software cache\n");
      break;
  }
  if (t->write_through && t->cache_mode != IOSPD_CACHE_DISABLE_OS)
    ap(out, "\t\thardware and software write caches disabled, "
            "writethrough on\n");
  else if (t->write_through)
    ap(out, "\t\thardware write cache disabled, writethrough on\n");
  else
    ap(out, "\t\tusing hardware write cache, writethrough off\n");
  const iospd_d23_word_t* by =
      iospd_d23_by_value(iospd_d23_bypass, (int)t->bypass_io);
  if (engine->d23 && t->bypass_io != IOSPD_BYPASS_NONE && by != NULL)
    ap(out, "\t\tusing BypassIO (%s)\n", by->text);

  if (t->memory_mapped) {
    ap(out, "\t\tmemory mapped I/O enabled");
    switch (t->flush_type) {
      case IOSPD_FLUSH_VIEW_OF_FILE:
        ap(out, ", flush mode: FlushViewOfFile");
        break;
      case IOSPD_FLUSH_NON_VOLATILE:
        ap(out, ", flush mode: FlushNonVolatileMemory");
        break;
      case IOSPD_FLUSH_NON_VOLATILE_NO_DRAIN:
        ap(out, ", flush mode: FlushNonVolatileMemory with no drain");
        break;
      default:
        break;
    }
    ap(out, "\n");
  }
  if (t->pattern == IOSPD_PATTERN_ZERO) ap(out, "\t\tzeroing write buffers\n");
  if (t->random_data_size > 0) {
    ap(out, "\t\twrite buffer size: %s\n",
       iospd_format_size(t->random_data_size, sz, sizeof sz));
    if (t->random_data_path != NULL)
      ap(out, "\t\twrite buffer source: '%s'\n", t->random_data_path);
    else if (!iospd_target_has_content(t))
      ap(out, "\t\twrite buffer source: random fill\n");
  }
  if (iospd_target_has_content(t))
    ap(out, "\t\twrite buffer content: generated, zlib saving %d%%, "
            "%d%% repeated blocks (--compress, --dedupe)\n",
       t->compress_pct > 0 ? (int)t->compress_pct : 0,
       t->dedupe_pct > 0 ? (int)t->dedupe_pct : 0);
  if (t->parallel_async) ap(out, "\t\tusing parallel async I/O\n");

  if (t->write_ratio == 0)
    ap(out, "\t\tperforming read test\n");
  else if (t->write_ratio == 100)
    ap(out, "\t\tperforming write test\n");
  else
    ap(out, "\t\tperforming mix test (read/write ratio: %u/%u)\n",
       100 - t->write_ratio, t->write_ratio);
  ap(out, "\t\tblock size: %s\n",
     iospd_format_size(t->block_size, sz, sizeof sz));

  iospd_format_size(iospd_target_align(t), sz, sizeof sz);
  if (t->random_ratio >= 100)
    ap(out, "\t\tusing random I/O (alignment: %s)\n", sz);
  else if (t->random_ratio > 0)
    ap(out, "\t\tusing mixed random/sequential I/O (%u%% random) "
            "(alignment/stride: %s)\n", t->random_ratio, sz);
  else if (t->interlocked)
    ap(out, "\t\tusing interlocked sequential I/O (stride: %s)\n", sz);
  else
    ap(out, "\t\tusing sequential I/O (stride: %s)\n", sz);

  if (ts->thread_count > 0 && ts->request_count > 0)
    ap(out, "\t\trelative IO weight in thread pool: %u\n", t->weight);
  else
    ap(out, "\t\tnumber of outstanding I/O operations per thread: %u\n",
       t->request_count);

  if (t->base_offset)
    ap(out, "\t\tbase file offset: %s\n",
       iospd_format_size(t->base_offset, sz, sizeof sz));
  if (t->max_file_size)
    ap(out, "\t\tmax file size: %s\n",
       iospd_format_size(t->max_file_size, sz, sizeof sz));
  if (t->thread_stride)
    ap(out, "\t\tthread stride size: %s\n",
       iospd_format_size(t->thread_stride, sz, sizeof sz));
  if (t->sequential_scan) ap(out, "\t\tusing FILE_FLAG_SEQUENTIAL_SCAN hint\n");
  if (t->random_access) ap(out, "\t\tusing FILE_FLAG_RANDOM_ACCESS hint\n");
  if (t->temporary) ap(out, "\t\tusing FILE_ATTRIBUTE_TEMPORARY hint\n");

  if (ts->thread_count == 0) {
    ap(out, "\t\tthreads per file: %u\n", t->threads_per_file);
    if (t->request_count > 1) engine_line(out, ts, engine);
  }
  switch (t->io_priority) {
    case 1: ap(out, "\t\tIO priority: very low\n"); break;
    case 2: ap(out, "\t\tIO priority: low\n"); break;
    default: ap(out, "\t\tIO priority: normal\n"); break;
  }
  if (t->throughput_iops > 0)
    ap(out, "\t\tthroughput rate-limited to %u IOPS\n", t->throughput_iops);
  else if (t->throughput_bpms > 0)
    ap(out, "\t\tthroughput rate-limited to %u B/ms\n", t->throughput_bpms);
  if (t->dist_type != IOSPD_DIST_NONE && t->dist_count > 0)
    stated_distribution(out, t);
}

/* DISKSPD 2.3's lines after the thread pool: IoRing, affinity, buffer
 * separation, completion depth. */
static void timespan_lines_23(iospd_strbuf_t* out, const iospd_timespan_t* ts,
                              const engines_t* en) {
  if (ts->ioring.enabled) {
    ap(out, "\tusing %s (batch size: %u%s) with%s registered buffers\n",
       iospd_ring_label(), ts->ioring.batch,
       ts->ioring.batch_percent ? "%" : "",
       ts->ioring.registered_buffers ? "" : "out");
  }
  if (ts->disable_affinity) {
    ap(out, "\taffinity disabled\n");
  } else {
    const iospd_d23_word_t* e = iospd_d23_by_value(
        iospd_d23_efficiency, (int)ts->affinity_efficiency);
    ap(out, "\taffinity assignment: %s, %s, %s\n",
       iospd_d23_by_value(iospd_d23_traversal, ts->affinity_core_aware)->text,
       iospd_d23_by_value(iospd_d23_group_order, ts->affinity_span_groups)
           ->text,
       e != NULL ? e->text : "P-cores first");
  }
  if (ts->affinity_count > 0) {
    iospd_group_mask_t masks[64];
    uint32_t n = iospd_affinity_masks(ts, masks, 64);
    bool one = n == 1 && masks[0].group == 0;
    ap(out, "\taffinity (%s): ", one ? "cpu" : "group/cpu");
    for (uint32_t i = 0; i < n; i++) {
      if (!one) ap(out, "%s%u/", i ? " " : "", (unsigned)masks[i].group);
      iospd_cpu_mask_text(out, masks[i].mask);
    }
    ap(out, "\n");
  }
  const iospd_d23_word_t* b = iospd_d23_by_value(
      iospd_d23_bufsep, (int)iospd_buffer_separation_of(en->profile, ts));
  if (b != NULL && b->value == IOSPD_BUFSEP_PDE_CACHE_LINE) {
    char sz[32];
    ap(out, "\tbuffer separation: %s (%s)\n", b->text,
       iospd_format_size(en->bufsep_bytes, sz, sizeof sz));
  } else if (b != NULL) {
    ap(out, "\tbuffer separation: %s\n", b->text);
  }
  if (ts->completion_depth != 0)
    ap(out, "\tcompletion depth: %u\n", ts->completion_depth);
}

static void timespan_lines(iospd_strbuf_t* out, const iospd_timespan_t* ts,
                           engines_t* engine) {
  ap(out, "\tduration: %us\n", ts->duration);
  ap(out, "\twarm up time: %us\n", ts->warmup);
  ap(out, "\tcool down time: %us\n", ts->cooldown);
  if (ts->disable_affinity && !engine->d23) ap(out, "\taffinity disabled\n");
  if (ts->measure_latency) ap(out, "\tmeasuring latency\n");
  if (ts->calc_iops_stddev)
    ap(out, "\tgathering IOPS at intervals of %ums\n", ts->io_bucket_ms);
  ap(out, "\trandom seed: %u\n", ts->rand_seed);
  if (ts->thread_count > 0) {
    ap(out, "\tthread pool with %u threads\n", ts->thread_count);
    /* DISKSPD prints the -O value here, 0 when -O was not given. */
    ap(out, "\tnumber of outstanding I/O operations per thread: %u\n",
       ts->request_count);
  }
  if (engine->d23) {
    timespan_lines_23(out, ts, engine);
  } else if (ts->affinity_count > 0) {
    ap(out, "\tadvanced affinity round robin (group/core): ");
    for (uint32_t i = 0; i < ts->affinity_count; i++)
      ap(out, "%s%u/%u", i ? ", " : "", ts->affinity[i].group,
         ts->affinity[i].cpu);
    ap(out, "\n");
  }
  if (ts->random_write_data) {
    ap(out, "\tgenerating random data for each write IO\n");
    ap(out, "\t  WARNING: this increases the CPU cost of issuing writes and "
            "should only\n");
    ap(out, "\t           be compared to other results using the -Zr flag\n");
  }
  for (uint32_t i = 0; i < ts->target_count; i++) {
    engine->target = i;
    target_lines(out, ts, &ts->targets[i], engine);
  }
}

/* 2.3's indentation: what timespan_lines wrote with tabs, with spaces. */
static void append_spaced(iospd_strbuf_t* out, const char* s) {
  while (*s) {
    if (s[0] == '\t' && s[1] == '\t') {
      iospd_strbuf_append(out, "      ");
      s += 2;
    } else if (s[0] == '\t') {
      iospd_strbuf_append(out, "    ");
      s++;
    }
    size_t n = strcspn(s, "\n");
    iospd_strbuf_append_n(out, s, n + (s[n] == '\n'));
    s += n + (s[n] == '\n');
  }
}

static uint32_t largest_line(const iospd_cpu_topology_t* topo) {
  uint32_t line = 0;
  for (uint32_t i = 0; topo != NULL && i < topo->cache_count; i++)
    if (topo->caches[i].line_size > line) line = topo->caches[i].line_size;
  return line;
}

void iospd_report_profile_text_sys(iospd_strbuf_t* out,
                                   const iospd_profile_t* p,
                                   const char* engine_name,
                                   iospd_engine_use_fn fn, void* ctx,
                                   const iospd_cpu_topology_t* topo,
                                   uint32_t page_size) {
  /* psync is a fallback only when the user did not ask for it. */
  if (engine_name != NULL && strcmp(engine_name, "psync") == 0 &&
      p->ext.engine != IOSPD_ENGINE_AUTO)
    engine_name = "psync (pread/pwrite, chosen with --engine=psync)";
  bool d23 = p->ext.diskspd >= IOSPD_DISKSPD_23;
  engines_t en = {engine_name, fn, ctx, 0, 0,
                  p->ext.engine == IOSPD_ENGINE_AUTO, p, d23,
                  iospd_buffer_separation_bytes(largest_line(topo),
                                                page_size)};
  /* Level-one lines: a tab at 2.2, two spaces at 2.3. */
  const char* i1 = d23 ? "  " : "\t";
  ap(out, "\nCommand Line: %s\n\n", p->cmdline != NULL ? p->cmdline : "");
  if (p->experiment_flags != 0)
    ap(out, "Experiment Flags: 0x%x (%u)\n\n", p->experiment_flags,
       p->experiment_flags);
  ap(out, "Input parameters:\n\n");
  if (p->verbose) ap(out, "%susing verbose mode\n", i1);
  if (p->ext.tree.dirs != NULL) {
    /* --tree (docs/tree.md): the tree, then its one target's switches. */
    const iospd_tree_opts_t* t = &p->ext.tree;
    ap(out, "\tfile tree: '%s'\n", t->dirs);
    ap(out, "\t\tfiles: %u of %llu bytes\n", (unsigned)t->files,
       (unsigned long long)t->file_size);
    ap(out, "\t\tskew: %u:%u (hot files get %u of every %u I/Os)\n",
       (unsigned)t->skew_hot, (unsigned)t->skew_cold, (unsigned)t->skew_hot,
       (unsigned)(t->skew_hot + t->skew_cold));
    ap(out, "\t\tassign: %s\n", iospd_tree_assign_name((int)t->assign));
    ap(out, "\t\tsub-directories: depth %u, width %u\n", (unsigned)t->depth,
       (unsigned)t->width);
    if (t->relocate_rate > 0)
      ap(out, "\t\trelocate: %u renames per second\n",
         (unsigned)t->relocate_rate);
    else
      ap(out, "\t\trelocate: off\n");
    ap(out, "\t\twrites: %s\n", t->append ? "append only" : "in place");
    ap(out, "\t\tcleanup: %s\n", t->cleanup ? "yes" : "no");
    ap(out, "\n");
  }
  for (uint32_t i = 0; i < p->timespan_count; i++) {
    ap(out, "%stimespan: %3u\n", i1, i + 1);
    ap(out, "%s-------------\n", i1);
    en.timespan = i;
    if (d23) {
      iospd_strbuf_t lines;
      iospd_strbuf_init(&lines);
      timespan_lines(&lines, &p->timespans[i], &en);
      append_spaced(out, iospd_strbuf_cstr(&lines));
      iospd_strbuf_destroy(&lines);
    } else {
      timespan_lines(out, &p->timespans[i], &en);
    }
    ap(out, "\n");
  }
}

void iospd_report_profile_text_uses(iospd_strbuf_t* out,
                                    const iospd_profile_t* p,
                                    const char* engine_name,
                                    iospd_engine_use_fn fn, void* ctx) {
  iospd_report_profile_text_sys(out, p, engine_name, fn, ctx, NULL, 0);
}

void iospd_report_profile_text_ex(iospd_strbuf_t* out,
                                  const iospd_profile_t* p,
                                  const char* engine_name) {
  iospd_report_profile_text_uses(out, p, engine_name, NULL, NULL);
}

void iospd_report_profile_text(iospd_strbuf_t* out, const iospd_profile_t* p) {
  iospd_report_profile_text_ex(out, p, NULL);
}

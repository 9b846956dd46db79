/* SPDX-License-Identifier: MIT */
/* Writes the <Profile> element exactly as DISKSPD 2.2 or 2.3 (the profile's
 * --diskspd level) prints it for -Rpxml
 * and inside -Rxml results: fixed element order, conditional elements, two
 * spaces per level.
 *
 * Deliberate differences from DISKSPD 2.2:
 * - All text is XML-escaped (DISKSPD writes Path and FilePath raw, so a path
 *   with '&' or '<' gives a document no parser accepts); only &, < and > as
 *   entities, so quotes read as DISKSPD prints them. A path with bytes XML
 *   cannot carry (control characters, bytes that are not UTF-8) is written
 *   with Escaped="U+F0NN" (iospd/xml_escape.h).
 * - <RandomWriteData>true</RandomWriteData> is written (after RandSeed, where
 *   the schema lists it) when -Zr is on; DISKSPD drops it, so -Zr was lost on
 *   an -Rpxml round trip.
 * DISKSPD 2.3 (p->ext.diskspd): <DisableAffinity> moves after <RandSeed>
 * (and <IoRing>), then <AffinityTraversal> (not with -n), the explicit CPUs
 * as <Affinity><Group Group= Mask=/>, <BufferSeparation>, and
 * <CompletionDepth> when given; <BypassIO> follows <FlushType>. At 2.2 none
 * of these is written, whatever the profile holds. */
#include <inttypes.h>

#include "iospd/diskspd23.h"
#include "iospd/formats.h"
#include "iospd/xml_escape.h"
#include "iospd/xml_profile.h"

typedef struct writer_s {
  iospd_strbuf_t* out;
  unsigned level;
} writer_t;

static void indent(writer_t* w) {
  for (unsigned i = 0; i < w->level; i++) iospd_strbuf_append(w->out, "  ");
}

static void open_tag(writer_t* w, const char* name) {
  indent(w);
  iospd_strbuf_appendf(w->out, "<%s>\n", name);
  w->level++;
}

static void close_tag(writer_t* w, const char* name) {
  w->level--;
  indent(w);
  iospd_strbuf_appendf(w->out, "</%s>\n", name);
}

static void text_el(writer_t* w, const char* name, const char* value) {
  indent(w);
  iospd_strbuf_appendf(w->out, "<%s>", name);
  iospd_xml_append_escaped(w->out, value != NULL ? value : "", 0);
  iospd_strbuf_appendf(w->out, "</%s>\n", name);
}

/* A path: bytes XML cannot carry are written as U+F0NN under
 * Escaped="U+F0NN", which the reader undoes (iospd/xml_escape.h). */
static void path_el(writer_t* w, const char* name, const char* path) {
  if (path == NULL || !iospd_xml_needs_byte_escape(path)) {
    text_el(w, name, path);
    return;
  }
  indent(w);
  iospd_strbuf_appendf(w->out, "<%s %s=\"%s\">", name, IOSPD_XML_ESCAPED_ATTR,
                       IOSPD_XML_ESCAPED_VALUE);
  iospd_xml_append_escaped(w->out, path, IOSPD_XML_ESC_BYTES);
  iospd_strbuf_appendf(w->out, "</%s>\n", name);
}

static void u64_el(writer_t* w, const char* name, uint64_t v) {
  indent(w);
  iospd_strbuf_appendf(w->out, "<%s>%" PRIu64 "</%s>\n", name, v, name);
}

static void bool_el(writer_t* w, const char* name, bool v) {
  text_el(w, name, v ? "true" : "false");
}

static void write_target(writer_t* w, const iospd_target_t* t, bool d23) {
  open_tag(w, "Target");
  path_el(w, "Path", t->path);
  u64_el(w, "BlockSize", t->block_size);
  u64_el(w, "BaseFileOffset", t->base_offset);
  bool_el(w, "SequentialScan", t->sequential_scan);
  bool_el(w, "RandomAccess", t->random_access);
  bool_el(w, "TemporaryFile", t->temporary);
  bool_el(w, "UseLargePages", t->large_pages);
  if (t->cache_mode == IOSPD_CACHE_DISABLE_LOCAL) {
    bool_el(w, "DisableLocalCache", true);
  } else if (t->cache_mode == IOSPD_CACHE_DISABLE_OS) {
    bool_el(w, "DisableOSCache", true);
  }
  if (t->write_through) bool_el(w, "WriteThrough", true);
  if (t->memory_mapped) bool_el(w, "MemoryMappedIo", true);
  switch (t->flush_type) {
    case IOSPD_FLUSH_VIEW_OF_FILE:
      text_el(w, "FlushType", "ViewOfFile");
      break;
    case IOSPD_FLUSH_NON_VOLATILE:
      text_el(w, "FlushType", "NonVolatileMemory");
      break;
    case IOSPD_FLUSH_NON_VOLATILE_NO_DRAIN:
      text_el(w, "FlushType", "NonVolatileMemoryNoDrain");
      break;
    case IOSPD_FLUSH_NONE:
      break;
  }
  const iospd_d23_word_t* by = iospd_d23_by_value(iospd_d23_bypass, (int)t->bypass_io);
  if (d23 && t->bypass_io != IOSPD_BYPASS_NONE && by != NULL)
    text_el(w, "BypassIO", by->xml);
  open_tag(w, "WriteBufferContent");
  if (t->pattern == IOSPD_PATTERN_RANDOM) {
    text_el(w, "Pattern", "random");
    open_tag(w, "RandomDataSource");
    u64_el(w, "SizeInBytes", t->random_data_size);
    if (t->random_data_path != NULL && t->random_data_path[0] != '\0') {
      path_el(w, "FilePath", t->random_data_path);
    }
    close_tag(w, "RandomDataSource");
  } else {
    text_el(w, "Pattern",
            t->pattern == IOSPD_PATTERN_ZERO ? "zero" : "sequential");
  }
  /* iospd's generated content (--compress / --dedupe). */
  if (t->compress_pct >= 0)
    u64_el(w, "CompressPercent", (uint64_t)t->compress_pct);
  if (t->dedupe_pct >= 0) u64_el(w, "DedupePercent", (uint64_t)t->dedupe_pct);
  close_tag(w, "WriteBufferContent");
  bool_el(w, "ParallelAsyncIO", t->parallel_async);
  if (t->burst_set) u64_el(w, "BurstSize", t->burst_size);
  if (t->think_set) u64_el(w, "ThinkTime", t->think_time);
  if (t->create) u64_el(w, "FileSize", t->file_size);
  if (t->random_ratio > 0) {
    u64_el(w, "Random", iospd_target_align(t));
    if (t->random_ratio != 100) u64_el(w, "RandomRatio", t->random_ratio);
    if (t->dist_count > 0 && t->dist_type != IOSPD_DIST_NONE) {
      const char* kind =
          t->dist_type == IOSPD_DIST_PERCENT ? "Percent" : "Absolute";
      open_tag(w, "Distribution");
      open_tag(w, kind);
      for (uint32_t i = 0; i < t->dist_count; i++) {
        indent(w);
        iospd_strbuf_appendf(w->out,
                             "<Range IO=\"%" PRIu32 "\">%" PRIu64 "</Range>\n",
                             t->dist[i].io_pct, t->dist[i].span);
      }
      close_tag(w, kind);
      close_tag(w, "Distribution");
    }
  } else {
    u64_el(w, "StrideSize", iospd_target_align(t));
    bool_el(w, "InterlockedSequential", t->interlocked);
  }
  u64_el(w, "ThreadStride", t->thread_stride);
  u64_el(w, "MaxFileSize", t->max_file_size);
  u64_el(w, "RequestCount", t->request_count);
  u64_el(w, "WriteRatio", t->write_ratio);
  indent(w);
  if (t->throughput_iops != 0) {
    iospd_strbuf_appendf(w->out,
                         "<Throughput unit=\"IOPS\">%" PRIu32 "</Throughput>\n",
                         t->throughput_iops);
  } else {
    iospd_strbuf_appendf(w->out, "<Throughput>%" PRIu32 "</Throughput>\n",
                         t->throughput_bpms);
  }
  u64_el(w, "ThreadsPerFile", t->threads_per_file);
  u64_el(w, "IOPriority", t->io_priority);
  u64_el(w, "Weight", t->weight);
  if (t->thread_target_count > 0) {
    open_tag(w, "ThreadTargets");
    for (uint32_t i = 0; i < t->thread_target_count; i++) {
      open_tag(w, "ThreadTarget");
      u64_el(w, "Thread", t->thread_targets[i].thread);
      if (t->thread_targets[i].weight != 0) {
        u64_el(w, "Weight", t->thread_targets[i].weight);
      }
      close_tag(w, "ThreadTarget");
    }
    close_tag(w, "ThreadTargets");
  }
  close_tag(w, "Target");
}

/* DISKSPD 2.3's elements after <RandSeed> (and iospd's <RandomWriteData>). */
static void write_timespan_23(writer_t* w, const iospd_profile_t* p,
                              const iospd_timespan_t* ts) {
  if (ts->ioring.enabled) {
    open_tag(w, "IoRing");
    indent(w);
    iospd_strbuf_appendf(w->out,
                         "<IoRingBatchSize Percent=\"%s\">%" PRIu32
                         "</IoRingBatchSize>\n",
                         ts->ioring.batch_percent ? "true" : "false",
                         ts->ioring.batch);
    bool_el(w, "UseRegBuffer", ts->ioring.registered_buffers);
    close_tag(w, "IoRing");
  }
  bool_el(w, "DisableAffinity", ts->disable_affinity);
  if (!ts->disable_affinity) {
    const iospd_d23_word_t* g =
        iospd_d23_by_value(iospd_d23_group_order, ts->affinity_span_groups);
    const iospd_d23_word_t* e = iospd_d23_by_value(
        iospd_d23_efficiency, (int)ts->affinity_efficiency);
    const iospd_d23_word_t* k =
        iospd_d23_by_value(iospd_d23_traversal, ts->affinity_core_aware);
    indent(w);
    iospd_strbuf_appendf(w->out,
                         "<AffinityTraversal Group=\"%s\" Efficiency=\"%s\">"
                         "%s</AffinityTraversal>\n",
                         g->xml, e != NULL ? e->xml : "PFirst", k->xml);
  }
  if (ts->affinity_count > 0) {
    iospd_group_mask_t masks[64];
    uint32_t n = iospd_affinity_masks(ts, masks, 64);
    open_tag(w, "Affinity");
    for (uint32_t i = 0; i < n; i++) {
      indent(w);
      iospd_strbuf_appendf(w->out, "<Group Group=\"%u\" Mask=\"0x%" PRIx64
                                   "\"/>\n",
                           (unsigned)masks[i].group, masks[i].mask);
    }
    close_tag(w, "Affinity");
  }
  const iospd_d23_word_t* b = iospd_d23_by_value(
      iospd_d23_bufsep, (int)iospd_buffer_separation_of(p, ts));
  if (b != NULL) text_el(w, "BufferSeparation", b->xml);
  if (ts->completion_depth != 0)
    u64_el(w, "CompletionDepth", ts->completion_depth);
}

static void write_timespan(writer_t* w, const iospd_profile_t* p,
                           const iospd_timespan_t* ts) {
  bool d23 = p->ext.diskspd >= IOSPD_DISKSPD_23;
  open_tag(w, "TimeSpan");
  bool_el(w, "CompletionRoutines", ts->completion_routines);
  bool_el(w, "MeasureLatency", ts->measure_latency);
  bool_el(w, "CalculateIopsStdDev", ts->calc_iops_stddev);
  if (!d23) bool_el(w, "DisableAffinity", ts->disable_affinity);
  u64_el(w, "Duration", ts->duration);
  u64_el(w, "Warmup", ts->warmup);
  u64_el(w, "Cooldown", ts->cooldown);
  u64_el(w, "ThreadCount", ts->thread_count);
  u64_el(w, "RequestCount", ts->request_count);
  u64_el(w, "IoBucketDuration", ts->io_bucket_ms);
  u64_el(w, "RandSeed", ts->rand_seed);
  if (ts->random_write_data) bool_el(w, "RandomWriteData", true);
  if (d23) {
    write_timespan_23(w, p, ts);
  } else if (ts->affinity_count > 0) {
    open_tag(w, "Affinity");
    for (uint32_t i = 0; i < ts->affinity_count; i++) {
      indent(w);
      iospd_strbuf_appendf(w->out,
                           "<AffinityGroupAssignment Group=\"%u\" "
                           "Processor=\"%u\"/>\n",
                           (unsigned)ts->affinity[i].group,
                           (unsigned)ts->affinity[i].cpu);
    }
    close_tag(w, "Affinity");
  }
  open_tag(w, "Targets");
  for (uint32_t i = 0; i < ts->target_count; i++) {
    write_target(w, &ts->targets[i], d23);
  }
  close_tag(w, "Targets");
  close_tag(w, "TimeSpan");
}

void iospd_xml_profile_write(iospd_strbuf_t* out, const iospd_profile_t* p,
                             unsigned level) {
  writer_t w = {out, level};
  open_tag(&w, "Profile");
  u64_el(&w, "Progress", p->progress_dots);
  if (p->experiment_flags != 0) {
    u64_el(&w, "ExperimentFlags", p->experiment_flags);
  }
  text_el(&w, "ResultFormat", iospd_format_profile_word(p->format));
  bool_el(&w, "Verbose", p->verbose);
  if (p->verbose_stats) bool_el(&w, "VerboseStats", true);
  switch (p->precreate) {
    case IOSPD_PRECREATE_USE_MAX_SIZE:
      text_el(&w, "PrecreateFiles", "UseMaxSize");
      break;
    case IOSPD_PRECREATE_CONSTANT_SIZES:
      text_el(&w, "PrecreateFiles", "CreateOnlyFilesWithConstantSizes");
      break;
    case IOSPD_PRECREATE_CONSTANT_OR_ZERO_SIZES:
      text_el(&w, "PrecreateFiles", "CreateOnlyFilesWithConstantOrZeroSizes");
      break;
    case IOSPD_PRECREATE_NONE:
      break;
  }
  if (p->etw.enabled) {
    const iospd_etw_t* e = &p->etw;
    open_tag(&w, "ETW");
    bool_el(&w, "Process", e->process);
    bool_el(&w, "Thread", e->thread);
    bool_el(&w, "ImageLoad", e->image_load);
    bool_el(&w, "DiskIO", e->disk_io);
    bool_el(&w, "MemoryPageFaults", e->memory_page_faults);
    bool_el(&w, "MemoryHardFaults", e->memory_hard_faults);
    bool_el(&w, "Network", e->network);
    bool_el(&w, "Registry", e->registry);
    bool_el(&w, "UsePagedMemory", e->use_paged_memory);
    bool_el(&w, "UsePerfTimer", e->use_perf_timer);
    bool_el(&w, "UseSystemTimer", e->use_system_timer);
    bool_el(&w, "UseCyclesCounter", e->use_cycles_counter);
    close_tag(&w, "ETW");
  }
  if (p->ext.tree.dirs != NULL) {
    /* iospd's file-tree mode (--tree, docs/tree.md). */
    const iospd_tree_opts_t* t = &p->ext.tree;
    open_tag(&w, "Tree");
    path_el(&w, "Directories", t->dirs);
    u64_el(&w, "Files", t->files);
    u64_el(&w, "FileSize", t->file_size);
    u64_el(&w, "SkewHot", t->skew_hot);
    u64_el(&w, "SkewCold", t->skew_cold);
    text_el(&w, "Assign", iospd_tree_assign_name((int)t->assign));
    u64_el(&w, "RelocateRate", t->relocate_rate);
    u64_el(&w, "Depth", t->depth);
    u64_el(&w, "Width", t->width);
    bool_el(&w, "Append", t->append);
    bool_el(&w, "Cleanup", t->cleanup);
    close_tag(&w, "Tree");
  }
  open_tag(&w, "TimeSpans");
  for (uint32_t i = 0; i < p->timespan_count; i++) {
    write_timespan(&w, p, &p->timespans[i]);
  }
  close_tag(&w, "TimeSpans");
  close_tag(&w, "Profile");
}

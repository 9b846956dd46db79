/* SPDX-License-Identifier: MIT */
/* The file-tree section of the reports (--tree, docs/tree.md): the tree,
 * the hot and cold share of the I/Os, relocations, and the latency of the
 * metadata operations with their own percentiles. Added after the usual
 * sections (text), as <FileTree> before </Results> (XML) and as the
 * "file_tree" member (JSON); nothing of the DISKSPD layouts changes. */
#include <inttypes.h>
#include <stdio.h>

#include "iospd/json_write.h"
#include "iospd/percentiles.h"
#include "iospd/tree.h"
#include "report_internal.h"
#include "report_json_writer.h"

/* The percentiles the metadata tables list: the rows of the one list
 * (iospd/percentiles.h) marked IOSPD_PCT_TREE. */
static bool tree_pct(const iospd_pct_t* row) {
  return (row->lists & IOSPD_PCT_TREE) != 0;
}

/* I/Os of the hot (target 0) and cold (target 1) class, all threads. */
static void class_ios(const iospd_results_t* r, uint64_t ios[2]) {
  ios[0] = ios[1] = 0;
  if (r->timespan_count == 0) return;
  const iospd_timespan_result_t* tr = &r->timespans[0];
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++)
    for (uint32_t k = 0; k < tr->threads[t].target_count; k++) {
      const iospd_thread_target_result_t* tt = &tr->threads[t].targets[k];
      if (tt->target_index < 2)
        ios[tt->target_index] += tt->stats.ios[0] + tt->stats.ios[1];
    }
}

static double pct_of(uint64_t a, uint64_t b) {
  return a + b > 0 ? 100.0 * (double)a / (double)(a + b) : 0.0;
}

void iospd_report_tree_text(iospd_strbuf_t* out, const iospd_results_t* r) {
  const iospd_tree_results_t* t = r->tree;
  if (t == NULL) return;
  uint64_t ios[2];
  class_ios(r, ios);
  iospd_strbuf_appendf(
      out,
      "\nFile tree:\n\n"
      "\tdirectories:\t%" PRIu32 " (%" PRIu32 " leaf director%s)\n"
      "\tfiles:\t\t%" PRIu32 " of %" PRIu64 " bytes (hot: %" PRIu32
      ", cold: %" PRIu32 ")\n"
      "\ttree:\t\t%s\n",
      t->dir_count, t->leaf_count, t->leaf_count == 1 ? "y" : "ies", t->files,
      t->file_size, t->hot_files, t->files - t->hot_files,
      t->created ? "created by this run" : "re-used");
  if (t->created)
    iospd_strbuf_appendf(out, "\tcreation time:\t%.2fs\n", t->create_seconds);
  iospd_strbuf_appendf(out,
                       "\thot I/Os:\t%" PRIu64 " (%.2f%%)\n"
                       "\tcold I/Os:\t%" PRIu64 " (%.2f%%)\n",
                       ios[0], pct_of(ios[0], ios[1]), ios[1],
                       pct_of(ios[1], ios[0]));
  iospd_strbuf_appendf(out,
                       "\trelocations:\t%" PRIu64 " while measuring, %" PRIu64
                       " in all, %" PRIu64 " retried\n",
                       t->relocations, t->relocations_total,
                       t->relocation_retries);
  if (t->cleaned)
    iospd_strbuf_append(out, "\tclean-up:\tthe tree was removed\n");
  iospd_strbuf_append(out, "\nMetadata latency (ms)\n     op |    count");
  size_t np, shown = 0;
  const iospd_pct_t* pct = iospd_pct_list(&np);
  for (size_t k = 0; k < np; k++)
    if (tree_pct(&pct[k])) {
      iospd_strbuf_appendf(out, " | %8s", pct[k].text);
      shown++;
    }
  iospd_strbuf_append(out, " |     mean\n");
  size_t width = 18 + 11 * (shown + 1);
  for (size_t k = 0; k < width; k++) iospd_strbuf_putc(out, '-');
  iospd_strbuf_putc(out, '\n');
  for (int m = 0; m < IOSPD_TREE_META_COUNT; m++) {
    const iospd_hist_t* h = t->meta[m];
    iospd_strbuf_appendf(out, "%7s | %8" PRIu64, iospd_tree_meta_name(m),
                         h ? iospd_hist_count(h) : 0);
    for (size_t k = 0; k < np; k++)
      if (tree_pct(&pct[k]))
        iospd_strbuf_appendf(out, " | %8.3f", iospd_rpt_pct_ms(h, pct[k].p));
    iospd_strbuf_appendf(out, " | %8.3f\n", iospd_rpt_mean_ms(h));
  }
}

void iospd_report_tree_xml(iospd_strbuf_t* out, const iospd_results_t* r) {
  const iospd_tree_results_t* t = r->tree;
  if (t == NULL) return;
  uint64_t ios[2];
  class_ios(r, ios);
  iospd_strbuf_appendf(
      out,
      "  <FileTree>\n"
      "    <Directories>%" PRIu32 "</Directories>\n"
      "    <LeafDirectories>%" PRIu32 "</LeafDirectories>\n"
      "    <Files>%" PRIu32 "</Files>\n"
      "    <FileSize>%" PRIu64 "</FileSize>\n"
      "    <HotFiles>%" PRIu32 "</HotFiles>\n"
      "    <Created>%s</Created>\n"
      "    <CreateSeconds>%.3f</CreateSeconds>\n"
      "    <HotIOCount>%" PRIu64 "</HotIOCount>\n"
      "    <ColdIOCount>%" PRIu64 "</ColdIOCount>\n"
      "    <HotIOPercent>%.3f</HotIOPercent>\n"
      "    <Relocations>%" PRIu64 "</Relocations>\n"
      "    <RelocationsTotal>%" PRIu64 "</RelocationsTotal>\n"
      "    <RelocationRetries>%" PRIu64 "</RelocationRetries>\n"
      "    <Cleaned>%s</Cleaned>\n",
      t->dir_count, t->leaf_count, t->files, t->file_size, t->hot_files,
      t->created ? "true" : "false", t->create_seconds, ios[0], ios[1],
      pct_of(ios[0], ios[1]), t->relocations, t->relocations_total,
      t->relocation_retries, t->cleaned ? "true" : "false");
  for (int m = 0; m < IOSPD_TREE_META_COUNT; m++) {
    const iospd_hist_t* h = t->meta[m];
    iospd_strbuf_appendf(out,
                         "    <Metadata Operation=\"%s\">\n"
                         "      <Count>%" PRIu64 "</Count>\n"
                         "      <AverageMilliseconds>%.3f"
                         "</AverageMilliseconds>\n"
                         "      <LatencyStdev>%.3f</LatencyStdev>\n",
                         iospd_tree_meta_name(m), h ? iospd_hist_count(h) : 0,
                         iospd_rpt_mean_ms(h), iospd_rpt_stddev_ms(h));
    size_t np;
    const iospd_pct_t* pct = iospd_pct_list(&np);
    for (size_t k = 0; k < np; k++)
      if (tree_pct(&pct[k]))
        iospd_strbuf_appendf(out,
                             "      <Bucket><Percentile>%g</Percentile>"
                             "<Milliseconds>%.3f</Milliseconds></Bucket>\n",
                             pct[k].p, iospd_rpt_pct_ms(h, pct[k].p));
    iospd_strbuf_append(out, "    </Metadata>\n");
  }
  iospd_strbuf_append(out, "  </FileTree>\n");
}

void iospd_rpt_tree_json(iospd_jw_t* w, const iospd_results_t* r,
                         void (*latency)(iospd_jw_t*, const iospd_hist_t*,
                                         bool)) {
  const iospd_tree_results_t* t = r->tree;
  if (t == NULL) return;
  uint64_t ios[2];
  class_ios(r, ios);
  iospd_jw_obj(w, "file_tree");
  iospd_jw_u64(w, "directories", t->dir_count);
  iospd_jw_u64(w, "leaf_directories", t->leaf_count);
  iospd_jw_u64(w, "files", t->files);
  iospd_jw_u64(w, "file_size", t->file_size);
  iospd_jw_u64(w, "hot_files", t->hot_files);
  iospd_jw_bool(w, "created", t->created);
  iospd_jw_dbl(w, "create_seconds", t->create_seconds);
  iospd_jw_u64(w, "hot_ios", ios[0]);
  iospd_jw_u64(w, "cold_ios", ios[1]);
  iospd_jw_dbl(w, "hot_io_percent", pct_of(ios[0], ios[1]));
  iospd_jw_u64(w, "relocations", t->relocations);
  iospd_jw_u64(w, "relocations_total", t->relocations_total);
  iospd_jw_u64(w, "relocation_retries", t->relocation_retries);
  iospd_jw_bool(w, "cleaned", t->cleaned);
  iospd_jw_obj(w, "metadata");
  for (int m = 0; m < IOSPD_TREE_META_COUNT; m++) {
    iospd_jw_obj(w, iospd_tree_meta_name(m));
    latency(w, t->meta[m], true);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_obj(w);
  iospd_jw_end_obj(w);
}

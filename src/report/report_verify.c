/* SPDX-License-Identifier: MIT */
/* --verify in the reports (report_verify.h). */
#include "report_verify.h"

#include <string.h>

#include "iospd/alloc.h"
#include "iospd/verify.h"
#include "iospd/xml_escape.h"

static bool verifying(const iospd_results_t* r) {
  return r->profile != NULL && r->profile->ext.verify;
}

void iospd_rpt_verify_sum(const iospd_timespan_result_t* tr, uint32_t target,
                          iospd_vcounts_t* out) {
  memset(out, 0, sizeof(*out));
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    for (uint32_t k = 0; k < th->target_count; k++)
      if (th->targets[k].target_index == target)
        iospd_vcounts_add(out, &th->targets[k].verify);
  }
}

uint64_t iospd_results_verify_failures(const iospd_results_t* r) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < r->timespan_count; i++) {
    const iospd_timespan_result_t* tr = &r->timespans[i];
    for (uint32_t t = 0; t < tr->thread_count_alloc; t++)
      for (uint32_t k = 0; k < tr->threads[t].target_count; k++)
        n += iospd_vcounts_failures(&tr->threads[t].targets[k].verify);
  }
  return n;
}

static uint32_t target_count(const iospd_timespan_result_t* tr) {
  return tr->ts != NULL ? tr->ts->target_count : 0;
}

/* The timespan ran to its end: its counts cover every block it read. A
 * failed one (a target or state that could not be opened, a failed I/O)
 * checked only part or nothing, so its zero failures are no pass. */
static bool timespan_complete(const iospd_timespan_result_t* tr) {
  return tr->error[0] == '\0';
}

static const char* tpath(const iospd_timespan_result_t* tr, uint32_t i) {
  const char* p = tr->ts->targets[i].path;
  return p ? p : "";
}

void iospd_rpt_verify_text(iospd_strbuf_t* out, const iospd_results_t* r) {
  if (!verifying(r)) return;
  iospd_strbuf_append(out, "\nverify (--verify): blocks written with a header "
                           "and blocks read and checked\n");
  for (uint32_t i = 0; i < r->timespan_count; i++) {
    const iospd_timespan_result_t* tr = &r->timespans[i];
    for (uint32_t t = 0; t < target_count(tr); t++) {
      iospd_vcounts_t c;
      iospd_rpt_verify_sum(tr, t, &c);
      iospd_strbuf_appendf(
          out,
          "timespan %u target '%s': written %llu, checked %llu, failures "
          "%llu (bad checksum %llu, stale generation %llu, misdirected %llu, "
          "zeroed %llu, torn %llu), indeterminate %llu, not written by a "
          "verified run %llu",
          i + 1, tpath(tr, t), (unsigned long long)c.written,
          (unsigned long long)c.kinds[IOSPD_VK_OK],
          (unsigned long long)iospd_vcounts_failures(&c),
          (unsigned long long)c.kinds[IOSPD_VK_CHECKSUM],
          (unsigned long long)c.kinds[IOSPD_VK_STALE],
          (unsigned long long)c.kinds[IOSPD_VK_MISPLACED],
          (unsigned long long)c.kinds[IOSPD_VK_ZEROED],
          (unsigned long long)c.kinds[IOSPD_VK_TORN],
          (unsigned long long)c.kinds[IOSPD_VK_INFLIGHT],
          (unsigned long long)c.kinds[IOSPD_VK_UNTRACKED]);
      if (!timespan_complete(tr))
        iospd_strbuf_append(out, ", incomplete: the timespan failed (see the "
                                 "error), not a pass");
      iospd_strbuf_putc(out, '\n');
    }
  }
}

static void ind(iospd_strbuf_t* out, unsigned n) {
  for (unsigned i = 0; i < n; i++) iospd_strbuf_putc(out, '\t');
}

static void xml_u(iospd_strbuf_t* out, unsigned lv, const char* name,
                  uint64_t v) {
  ind(out, lv);
  iospd_strbuf_appendf(out, "<%s>%llu</%s>\n", name, (unsigned long long)v,
                       name);
}

static const char* const k_xml[IOSPD_VK_COUNT] = {
    "BlocksChecked", "Untracked",  "Indeterminate", "BadChecksum",
    "StaleGeneration", "Misdirected", "Zeroed",     "Torn"};

void iospd_rpt_verify_xml(iospd_strbuf_t* out, const iospd_results_t* r,
                          const iospd_timespan_result_t* tr) {
  if (!verifying(r) || tr->ts == NULL) return;
  ind(out, 2);
  iospd_strbuf_append(out, "<Verify>\n");
  for (uint32_t t = 0; t < target_count(tr); t++) {
    iospd_vcounts_t c;
    iospd_rpt_verify_sum(tr, t, &c);
    ind(out, 3);
    iospd_strbuf_append(out, "<Target>\n");
    ind(out, 4);
    iospd_strbuf_append(out, "<Path>");
    iospd_xml_append_escaped(out, tpath(tr, t), 0);
    iospd_strbuf_append(out, "</Path>\n");
    xml_u(out, 4, "BlocksWritten", c.written);
    xml_u(out, 4, "Failures", iospd_vcounts_failures(&c));
    for (int k = 0; k < IOSPD_VK_COUNT; k++) xml_u(out, 4, k_xml[k], c.kinds[k]);
    ind(out, 3);
    iospd_strbuf_append(out, "</Target>\n");
  }
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    for (uint32_t i = 0; i < th->vfail_count; i++) {
      const iospd_vfail_t* f = &th->vfails[i];
      ind(out, 3);
      iospd_strbuf_appendf(
          out,
          "<Failure Target=\"%u\" Thread=\"%u\" Offset=\"%llu\" "
          "Block=\"%llu\" Kind=\"%s\" Expected=\"%llu\" Found=\"%llu\"/>\n",
          f->target, th->id, (unsigned long long)f->offset,
          (unsigned long long)f->block, iospd_vkind_key((iospd_vkind_t)f->kind),
          (unsigned long long)f->expected, (unsigned long long)f->found);
    }
  }
  ind(out, 2);
  iospd_strbuf_append(out, "</Verify>\n");
}

void iospd_rpt_verify_json(iospd_jw_t* w, const iospd_results_t* r,
                           const iospd_timespan_result_t* tr) {
  if (!verifying(r) || tr->ts == NULL) {
    iospd_jw_null(w, "verify");
    return;
  }
  iospd_jw_obj(w, "verify");
  iospd_jw_bool(w, "complete", timespan_complete(tr));
  iospd_jw_arr(w, "targets");
  for (uint32_t t = 0; t < target_count(tr); t++) {
    iospd_vcounts_t c;
    iospd_rpt_verify_sum(tr, t, &c);
    iospd_jw_obj(w, NULL);
    iospd_jw_str(w, "path", tpath(tr, t));
    iospd_jw_u64(w, "blocks_written", c.written);
    iospd_jw_u64(w, "blocks_checked", c.kinds[IOSPD_VK_OK]);
    iospd_jw_u64(w, "failures", iospd_vcounts_failures(&c));
    iospd_jw_obj(w, "by_kind");
    for (int k = IOSPD_VK_UNTRACKED; k < IOSPD_VK_COUNT; k++)
      iospd_jw_u64(w, iospd_vkind_key((iospd_vkind_t)k), c.kinds[k]);
    iospd_jw_end_obj(w);
    iospd_jw_end_obj(w);
  }
  iospd_jw_end_arr(w);
  iospd_jw_arr(w, "failures");
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    for (uint32_t i = 0; i < th->vfail_count; i++) {
      const iospd_vfail_t* f = &th->vfails[i];
      iospd_jw_obj(w, NULL);
      iospd_jw_u64(w, "target", f->target);
      iospd_jw_u64(w, "thread", th->id);
      iospd_jw_u64(w, "offset", f->offset);
      iospd_jw_u64(w, "block", f->block);
      iospd_jw_str(w, "kind", iospd_vkind_key((iospd_vkind_t)f->kind));
      iospd_jw_u64(w, "expected", f->expected);
      iospd_jw_u64(w, "found", f->found);
      iospd_jw_end_obj(w);
    }
  }
  iospd_jw_end_arr(w);
  iospd_jw_end_obj(w);
}

static void print_failure(iospd_strbuf_t* out,
                          const iospd_timespan_result_t* tr,
                          const iospd_thread_result_t* th,
                          const iospd_vfail_t* f) {
  iospd_strbuf_append(out, "verify FAILED: ");
  iospd_vfail_format(out, f,
                     f->target < target_count(tr) ? tpath(tr, f->target) : "");
  iospd_strbuf_appendf(out, " (thread %u)\n", th->id);
}

/* Whether block f of timespan ts is among the n printed first. */
static bool printed(const iospd_vfail_t* const* shown, const uint32_t* shown_ts,
                    uint32_t n, uint32_t ts, const iospd_vfail_t* f) {
  for (uint32_t i = 0; i < n; i++)
    if (shown_ts[i] == ts && shown[i]->block == f->block &&
        shown[i]->target == f->target)
      return true;
  return false;
}

/* Whether entry f itself is among the n printed first. */
static bool listed(const iospd_vfail_t* const* shown, uint32_t n,
                   const iospd_vfail_t* f) {
  for (uint32_t i = 0; i < n; i++)
    if (shown[i] == f) return true;
  return false;
}

/* The first --verify-errors failures, distinct blocks first: each thread
 * keeps its own distinct ones first (iospd_vfail_keep), and a block two
 * threads both found is printed once before any repeat. */
void iospd_report_verify_failures(iospd_strbuf_t* out,
                                  const iospd_results_t* r) {
  if (!verifying(r)) return;
  uint32_t cap = iospd_verify_errors(&r->profile->ext), shown = 0;
  uint64_t all = iospd_results_verify_failures(r);
  const iospd_vfail_t** first = cap ? iospd_calloc(cap, sizeof(*first)) : NULL;
  uint32_t* first_ts = cap ? iospd_calloc(cap, sizeof(*first_ts)) : NULL;
  if (cap > 0 && (first == NULL || first_ts == NULL)) {
    iospd_free(first);
    iospd_free(first_ts);
    first = NULL;
    first_ts = NULL;
    cap = 0; /* out of memory: the counts still say it all */
  }
  /* Pass 1: the first entry of each block; pass 2: the rest, in order. */
  uint32_t distinct = 0;
  for (int pass = 1; pass <= 2; pass++)
    for (uint32_t i = 0; i < r->timespan_count && shown < cap; i++) {
      const iospd_timespan_result_t* tr = &r->timespans[i];
      for (uint32_t t = 0; t < tr->thread_count_alloc && shown < cap; t++) {
        const iospd_thread_result_t* th = &tr->threads[t];
        for (uint32_t k = 0; k < th->vfail_count && shown < cap; k++) {
          const iospd_vfail_t* f = &th->vfails[k];
          if (pass == 1) {
            if (f->repeat || printed(first, first_ts, distinct, i, f))
              continue;
            first[distinct] = f;
            first_ts[distinct++] = i;
          } else if (listed(first, distinct, f)) {
            continue;
          }
          print_failure(out, tr, th, f);
          shown++;
        }
      }
    }
  iospd_free(first);
  iospd_free(first_ts);
  if (all > shown)
    iospd_strbuf_appendf(out, "verify: %llu failures in all, %u shown "
                         "(--verify-errors=N shows more); every one is "
                         "counted in the report\n",
                         (unsigned long long)all, shown);
}

/* ---- --verify-only ------------------------------------------------------- */

void iospd_report_vonly_summary(iospd_strbuf_t* out, const iospd_vonly_t* v) {
  iospd_strbuf_appendf(out, "verify-only (--verify-only): engine %s\n",
                       v->engine ? v->engine : "-");
  for (uint32_t i = 0; i < v->target_count; i++) {
    const iospd_vonly_target_t* t = &v->targets[i];
    const iospd_vcounts_t* c = &t->counts;
    iospd_strbuf_appendf(
        out,
        "target '%s': bytes %llu to %llu, blocks read %llu, checked %llu, "
        "failures %llu (bad checksum %llu, stale generation %llu, "
        "misdirected %llu, zeroed %llu, torn %llu), indeterminate %llu, not "
        "written by a verified run %llu",
        t->path, (unsigned long long)t->start, (unsigned long long)t->end,
        (unsigned long long)t->blocks,
        (unsigned long long)c->kinds[IOSPD_VK_OK],
        (unsigned long long)iospd_vcounts_failures(c),
        (unsigned long long)c->kinds[IOSPD_VK_CHECKSUM],
        (unsigned long long)c->kinds[IOSPD_VK_STALE],
        (unsigned long long)c->kinds[IOSPD_VK_MISPLACED],
        (unsigned long long)c->kinds[IOSPD_VK_ZEROED],
        (unsigned long long)c->kinds[IOSPD_VK_TORN],
        (unsigned long long)c->kinds[IOSPD_VK_INFLIGHT],
        (unsigned long long)c->kinds[IOSPD_VK_UNTRACKED]);
    /* Counts of a pass that could not run to the end look like a clean
     * target with nothing in it: say outright that they are no pass. */
    if (!t->complete)
      iospd_strbuf_append(out, ", incomplete: the check stopped before the "
                               "end (see the error), not a pass");
    iospd_strbuf_putc(out, '\n');
  }
}

uint64_t iospd_report_vonly_failures(iospd_strbuf_t* out,
                                     const iospd_vonly_t* v) {
  uint64_t failed = 0;
  for (uint32_t i = 0; i < v->target_count; i++)
    failed += iospd_vcounts_failures(&v->targets[i].counts);
  for (uint32_t i = 0; i < v->fail_count; i++) {
    iospd_strbuf_append(out, "verify FAILED: ");
    iospd_vfail_format(out, &v->fails[i], v->targets[v->fails[i].target].path);
    iospd_strbuf_putc(out, '\n');
  }
  if (failed > v->fail_count)
    iospd_strbuf_appendf(out, "verify: %llu failures in all, %u shown "
                         "(--verify-errors=N shows more)\n",
                         (unsigned long long)failed, v->fail_count);
  return failed;
}

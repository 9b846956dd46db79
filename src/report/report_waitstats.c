/* SPDX-License-Identifier: MIT */
/* -vs at --diskspd=2.3 (report_waitstats.h): the per-thread wait counts and
 * the histograms of completions per wait and per look-aside, in DISKSPD
 * 2.3's layout (diskspd-2.3-samples/results/04, 05, 14 and 20). */
#include "report_waitstats.h"

#include "iospd/profile.h"

#define ap iospd_strbuf_appendf

static bool level_23(const iospd_results_t* r) {
  return r->profile != NULL && r->profile->ext.diskspd >= IOSPD_DISKSPD_23;
}

static void dashes(iospd_strbuf_t* out, unsigned n) {
  for (unsigned i = 0; i < n; i++) iospd_strbuf_putc(out, '-');
  iospd_strbuf_putc(out, '\n');
}

static void hist(iospd_strbuf_t* out, const uint64_t h[8]) {
  for (int i = 0; i < 8; i++) ap(out, " %llu", (unsigned long long)h[i]);
  ap(out, "\n");
}

/* A rate limit (-g) or think time (-j with -i) on any target. */
static bool throttled(const iospd_timespan_t* ts) {
  if (ts == NULL) return false;
  for (uint32_t i = 0; i < ts->target_count; i++)
    if (ts->targets[i].throughput_bpms > 0 || ts->targets[i].throughput_iops > 0 ||
        ts->targets[i].think_time > 0)
      return true;
  return false;
}

bool iospd_rpt_waitstats_text(iospd_strbuf_t* out, const iospd_results_t* r,
                              const iospd_timespan_result_t* tr) {
  if (!level_23(r)) return false;
  bool thr = throttled(tr->ts);
  ap(out, "\nWait Statistics - Completion Wait\n");
  if (thr) {
    ap(out, "thread |         wait | throttle wait  -  sleep | "
            "0 - 7+ complete per wait\n");
    dashes(out, 74);
  } else {
    ap(out, "thread |         wait | 0 - 7+ complete per wait\n");
    dashes(out, 48);
  }
  bool lookaside = false;
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    const iospd_wait_stats_t* w = &th->wait;
    ap(out, "%6u | %12llu |", th->id, (unsigned long long)w->completion_wait);
    if (thr)
      ap(out, " %13llu  - %6llu |", (unsigned long long)w->throttle_wait,
         (unsigned long long)w->throttle_sleep);
    hist(out, w->completion_wait_hist);
    if (w->lookaside > 0) lookaside = true;
  }
  if (!lookaside) return true;
  ap(out, "\nWait Statistics - Lookaside\n");
  ap(out, "thread |    lookaside | 0 - 7+ complete per lookaside\n");
  dashes(out, 53);
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    ap(out, "%6u | %12llu |", th->id, (unsigned long long)th->wait.lookaside);
    hist(out, th->wait.lookaside_hist);
  }
  return true;
}

static void elem(iospd_strbuf_t* out, const char* name, uint64_t v) {
  ap(out, "        <%s>%llu</%s>\n", name, (unsigned long long)v, name);
}

static void elem_hist(iospd_strbuf_t* out, const char* name,
                      const uint64_t h[8]) {
  ap(out, "        <%s>", name);
  for (int i = 0; i < 8; i++)
    ap(out, "%s%llu", i ? " " : "", (unsigned long long)h[i]);
  ap(out, "</%s>\n", name);
}

bool iospd_rpt_waitstats_xml(iospd_strbuf_t* out, const iospd_results_t* r,
                             const iospd_wait_stats_t* w) {
  if (!level_23(r)) return false;
  ap(out, "      <WaitStatistics>\n");
  elem(out, "CompletionWait", w->completion_wait);
  elem(out, "ThrottleWait", w->throttle_wait);
  elem(out, "ThrottleSleep", w->throttle_sleep);
  elem(out, "Lookaside", w->lookaside);
  elem_hist(out, "WaitCompletion", w->completion_wait_hist);
  elem_hist(out, "LookasideCompletion", w->lookaside_hist);
  ap(out, "      </WaitStatistics>\n");
  return true;
}

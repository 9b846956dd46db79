/* SPDX-License-Identifier: MIT */
/* --steady-state's verdict in the text, XML and JSON reports
 * (report_steady.h). */
#include "report_steady.h"

#include <math.h>

#define ap iospd_strbuf_appendf

static bool any(const iospd_results_t* r) {
  for (uint32_t i = 0; i < r->timespan_count; i++)
    if (r->timespans[i].steady_state != NULL) return true;
  return false;
}

/* "15.00 % <= 20 %" or "unknown (mean 0)". */
static void pct_vs(iospd_strbuf_t* out, double pct, bool ok, double limit) {
  if (pct < 0)
    ap(out, "no %% (mean 0)");
  else
    ap(out, "%.2f %% %s %g %%", pct, ok ? "<=" : ">", limit);
}

void iospd_rpt_steady_text(iospd_strbuf_t* out, const iospd_results_t* r) {
  if (!any(r)) return;
  ap(out, "\nsteady state (--steady-state, SNIA PTS test):\n");
  for (uint32_t i = 0; i < r->timespan_count; i++) {
    const iospd_ss_result_t* s = r->timespans[i].steady_state;
    if (s == NULL) continue;
    const iospd_ss_metric_def_t* m =
        iospd_ss_metric_def((iospd_ss_metric_t)s->metric);
    const iospd_ss_window_t* w = &s->window;
    double round_s = (double)s->round_ms / 1000.0;
    ap(out, "timespan %u: ", i + 1);
    if (s->converged)
      ap(out, "steady at round %u (rounds of %g s); measuring stopped there",
         w->last_round, round_s);
    else
      ap(out, "NOT steady after %u round%s of %g s (%s)", s->rounds,
         s->rounds == 1 ? "" : "s", round_s,
         s->stopped == IOSPD_SS_STOPPED_INTERRUPTED ? "interrupted"
                                                    : "-d ran out");
    if (!w->valid) {
      ap(out, "; fewer rounds than the window of %u: no window to test\n",
         s->limits.window_rounds);
      continue;
    }
    ap(out, "; window rounds %u-%u, mean %.2f %s, data excursion %.2f (",
       w->first_round, w->last_round, w->mean, m->unit, w->data_excursion);
    pct_vs(out, w->data_excursion_pct, w->data_ok, s->limits.data_pct);
    ap(out, "), slope excursion %.2f (", w->slope_excursion);
    pct_vs(out, w->slope_excursion_pct, w->slope_ok, s->limits.slope_pct);
    ap(out, ")\n");
  }
}

static void ind(iospd_strbuf_t* out, unsigned n) {
  for (unsigned i = 0; i < n; i++) iospd_strbuf_append(out, "  ");
}

void iospd_rpt_steady_xml(iospd_strbuf_t* out,
                          const iospd_timespan_result_t* tr) {
  const iospd_ss_result_t* s = tr->steady_state;
  if (s == NULL) return;
  const iospd_ss_window_t* w = &s->window;
  ind(out, 2);
  ap(out, "<SteadyState>\n");
  ind(out, 3);
  ap(out, "<Metric>%s</Metric>\n",
     iospd_ss_metric_def((iospd_ss_metric_t)s->metric)->json);
  ind(out, 3);
  ap(out, "<RoundSeconds>%.3f</RoundSeconds>\n", (double)s->round_ms / 1000.0);
  ind(out, 3);
  ap(out, "<WindowRounds>%u</WindowRounds>\n", s->limits.window_rounds);
  ind(out, 3);
  ap(out, "<DataExcursionLimitPercent>%g</DataExcursionLimitPercent>\n",
     s->limits.data_pct);
  ind(out, 3);
  ap(out, "<SlopeExcursionLimitPercent>%g</SlopeExcursionLimitPercent>\n",
     s->limits.slope_pct);
  ind(out, 3);
  ap(out, "<Rounds>%u</Rounds>\n", s->rounds);
  ind(out, 3);
  ap(out, "<Converged>%s</Converged>\n", s->converged ? "true" : "false");
  ind(out, 3);
  ap(out, "<Stopped>%s</Stopped>\n", iospd_ss_stop_word(s->stopped));
  if (w->valid) {
    ind(out, 3);
    ap(out, "<Window FirstRound=\"%u\" LastRound=\"%u\">\n", w->first_round,
       w->last_round);
    for (uint32_t i = 0; i < w->n; i++) {
      ind(out, 4);
      ap(out, "<Value Round=\"%u\">%.6f</Value>\n", w->first_round + i,
         w->values[i]);
    }
    ind(out, 4);
    ap(out, "<Mean>%.6f</Mean>\n", w->mean);
    ind(out, 4);
    ap(out, "<DataExcursion Ok=\"%s\">%.6f</DataExcursion>\n",
       w->data_ok ? "true" : "false", w->data_excursion);
    ind(out, 4);
    ap(out, "<Slope>%.6f</Slope>\n", w->slope);
    ind(out, 4);
    ap(out, "<Intercept>%.6f</Intercept>\n", w->intercept);
    ind(out, 4);
    ap(out, "<SlopeExcursion Ok=\"%s\">%.6f</SlopeExcursion>\n",
       w->slope_ok ? "true" : "false", w->slope_excursion);
    ind(out, 3);
    ap(out, "</Window>\n");
  }
  ind(out, 2);
  ap(out, "</SteadyState>\n");
}

static void pct(iospd_jw_t* w, const char* key, double v) {
  if (v < 0)
    iospd_jw_null(w, key);
  else
    iospd_jw_dbl(w, key, v);
}

void iospd_rpt_ss_window_json(iospd_jw_t* w, const char* key,
                              const iospd_ss_window_t* win) {
  if (!win->valid) {
    iospd_jw_null(w, key);
    return;
  }
  iospd_jw_obj(w, key);
  iospd_jw_u64(w, "first_round", win->first_round);
  iospd_jw_u64(w, "last_round", win->last_round);
  iospd_jw_arr(w, "values");
  for (uint32_t i = 0; i < win->n; i++) iospd_jw_dbl(w, NULL, win->values[i]);
  iospd_jw_end_arr(w);
  iospd_jw_dbl(w, "mean", win->mean);
  iospd_jw_dbl(w, "data_excursion", win->data_excursion);
  pct(w, "data_excursion_pct", win->data_excursion_pct);
  iospd_jw_dbl(w, "slope", win->slope);
  iospd_jw_dbl(w, "intercept", win->intercept);
  iospd_jw_dbl(w, "slope_excursion", win->slope_excursion);
  pct(w, "slope_excursion_pct", win->slope_excursion_pct);
  iospd_jw_bool(w, "data_ok", win->data_ok);
  iospd_jw_bool(w, "slope_ok", win->slope_ok);
  iospd_jw_end_obj(w);
}

void iospd_rpt_steady_json(iospd_jw_t* w, const iospd_timespan_result_t* tr) {
  const iospd_ss_result_t* s = tr->steady_state;
  if (s == NULL) return;
  iospd_jw_obj(w, "steady_state");
  iospd_jw_str(w, "metric",
               iospd_ss_metric_def((iospd_ss_metric_t)s->metric)->json);
  iospd_jw_dbl(w, "interval_seconds", (double)s->round_ms / 1000.0);
  iospd_jw_u64(w, "window_rounds", s->limits.window_rounds);
  iospd_jw_dbl(w, "data_excursion_limit_pct", s->limits.data_pct);
  iospd_jw_dbl(w, "slope_excursion_limit_pct", s->limits.slope_pct);
  iospd_jw_u64(w, "rounds", s->rounds);
  iospd_rpt_ss_window_json(w, "window", &s->window);
  iospd_jw_bool(w, "converged", s->converged);
  iospd_jw_str(w, "stopped", iospd_ss_stop_word(s->stopped));
  iospd_jw_end_obj(w);
}

/* SPDX-License-Identifier: MIT */
/* The tool's own cost in the JSON, text (-vs) and XML (-vs) reports
 * (report_cost.h). The figures come from iospd_cost_compute only. */
#include "report_cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ap iospd_strbuf_appendf

static uint64_t thread_ios(const iospd_thread_result_t* th) {
  uint64_t n = 0;
  for (uint32_t k = 0; k < th->target_count; k++)
    n += th->targets[k].stats.ios[0] + th->targets[k].stats.ios[1];
  return n;
}

void iospd_rpt_cost_thread(const iospd_thread_result_t* th, iospd_cost_t* c) {
  iospd_cost_compute(&th->cost, thread_ios(th), c);
}

static void total_raw(const iospd_timespan_result_t* tr, iospd_cost_raw_t* raw,
                      uint64_t* ios, uint64_t hist[8]) {
  memset(raw, 0, sizeof *raw);
  *ios = 0;
  for (int i = 0; i < 8; i++) hist[i] = 0;
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    iospd_cost_add(raw, &th->cost);
    *ios += thread_ios(th);
    for (int i = 0; i < 8; i++) hist[i] += th->wait.completion_wait_hist[i];
  }
}

void iospd_rpt_cost_total(const iospd_timespan_result_t* tr, iospd_cost_t* c) {
  iospd_cost_raw_t raw;
  uint64_t ios, hist[8];
  total_raw(tr, &raw, &ios, hist);
  iospd_cost_compute(&raw, ios, c);
}

void iospd_rpt_cost_json(iospd_jw_t* w, const iospd_cost_t* c,
                         const iospd_cost_raw_t* raw,
                         const uint64_t wait_hist[8]) {
  iospd_jw_obj(w, "tool_cost");
  iospd_jw_u64(w, "io_count", c->ios);
  iospd_jw_u64(w, "cpu_user_ns", raw->user_ns);
  iospd_jw_u64(w, "cpu_system_ns", raw->sys_ns);
  iospd_jw_u64(w, "wall_ns", raw->wall_ns);
  iospd_jw_dbl(w, "cpu_us_per_io", c->cpu_us_per_io);
  iospd_jw_dbl(w, "cpu_user_us_per_io", c->user_us_per_io);
  iospd_jw_dbl(w, "cpu_system_us_per_io", c->sys_us_per_io);
  iospd_jw_dbl(w, "busy_cores", c->busy_cores);
  iospd_jw_dbl(w, "iops_per_busy_core", c->iops_per_core);
  iospd_jw_u64(w, "wait_calls", raw->waits);
  iospd_jw_dbl(w, "completions_per_wait", c->completions_per_wait);
  iospd_jw_arr(w, "completions_per_wait_histogram");
  for (int i = 0; i < 8; i++) iospd_jw_u64(w, NULL, wait_hist[i]);
  iospd_jw_end_arr(w);
  iospd_jw_u64(w, "submit_calls", raw->submit_calls);
  iospd_jw_dbl(w, "ios_per_submit", c->ios_per_submit);
  iospd_jw_end_obj(w);
}

void iospd_rpt_cost_total_json(iospd_jw_t* w,
                               const iospd_timespan_result_t* tr) {
  iospd_cost_raw_t raw;
  uint64_t ios, hist[8];
  total_raw(tr, &raw, &ios, hist);
  iospd_cost_t c;
  iospd_cost_compute(&raw, ios, &c);
  iospd_rpt_cost_json(w, &c, &raw, hist);
}

/* A figure, or n/a when unknown, in a column of width wd. */
static void fig(iospd_strbuf_t* out, int wd, int prec, double v) {
  if (isnan(v))
    ap(out, " %*s |", wd, "n/a");
  else
    ap(out, " %*.*f |", wd, prec, v);
}

static void text_row(iospd_strbuf_t* out, const char* who,
                     const iospd_cost_t* c) {
  ap(out, "%6s | %12llu |", who, (unsigned long long)c->ios);
  fig(out, 10, 3, c->user_us_per_io);
  fig(out, 10, 3, c->sys_us_per_io);
  fig(out, 10, 3, c->cpu_us_per_io);
  fig(out, 5, 2, c->busy_cores);
  fig(out, 12, 0, c->iops_per_core);
  fig(out, 10, 2, c->completions_per_wait);
  if (isnan(c->ios_per_submit))
    ap(out, " %11s\n", "n/a");
  else
    ap(out, " %11.2f\n", c->ios_per_submit);
}

void iospd_rpt_cost_text(iospd_strbuf_t* out,
                         const iospd_timespan_result_t* tr) {
  ap(out, "\nTool cost (iospd; CPU over the measured phase)\n");
  ap(out, "thread |         I/Os | user us/IO |  sys us/IO |  CPU us/IO | "
          "cores |    IOPS/core | compl/wait | I/Os/submit\n");
  for (int i = 0; i < 111; i++) iospd_strbuf_putc(out, '-');
  iospd_strbuf_putc(out, '\n');
  char id[16];
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    iospd_cost_t c;
    iospd_rpt_cost_thread(&tr->threads[t], &c);
    snprintf(id, sizeof id, "%u", tr->threads[t].id);
    text_row(out, id, &c);
  }
  iospd_cost_t all;
  iospd_rpt_cost_total(tr, &all);
  text_row(out, "total", &all);
}

static void xml_f(iospd_strbuf_t* out, const char* name, double v) {
  if (isnan(v)) return; /* unknown: absent */
  ap(out, "        <%s>%.3f</%s>\n", name, v, name);
}

static void xml_one(iospd_strbuf_t* out, const char* tag, int32_t id,
                    const iospd_cost_t* c, const iospd_cost_raw_t* raw) {
  if (id >= 0)
    ap(out, "      <%s Id=\"%d\">\n", tag, id);
  else
    ap(out, "      <%s>\n", tag);
  ap(out, "        <IoCount>%llu</IoCount>\n", (unsigned long long)c->ios);
  ap(out, "        <CpuUserNs>%llu</CpuUserNs>\n",
     (unsigned long long)raw->user_ns);
  ap(out, "        <CpuSystemNs>%llu</CpuSystemNs>\n",
     (unsigned long long)raw->sys_ns);
  xml_f(out, "CpuUsPerIo", c->cpu_us_per_io);
  xml_f(out, "CpuUserUsPerIo", c->user_us_per_io);
  xml_f(out, "CpuSystemUsPerIo", c->sys_us_per_io);
  xml_f(out, "BusyCores", c->busy_cores);
  xml_f(out, "IopsPerBusyCore", c->iops_per_core);
  xml_f(out, "CompletionsPerWait", c->completions_per_wait);
  xml_f(out, "IosPerSubmit", c->ios_per_submit);
  ap(out, "      </%s>\n", tag);
}

void iospd_rpt_cost_xml(iospd_strbuf_t* out,
                        const iospd_timespan_result_t* tr) {
  ap(out, "    <IospdToolCost>\n");
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++) {
    const iospd_thread_result_t* th = &tr->threads[t];
    iospd_cost_t c;
    iospd_rpt_cost_thread(th, &c);
    xml_one(out, "Thread", (int32_t)th->id, &c, &th->cost);
  }
  iospd_cost_raw_t raw;
  uint64_t ios, hist[8];
  total_raw(tr, &raw, &ios, hist);
  iospd_cost_t all;
  iospd_cost_compute(&raw, ios, &all);
  xml_one(out, "Total", -1, &all, &raw);
  ap(out, "    </IospdToolCost>\n");
}

/* SPDX-License-Identifier: MIT */
/* The HTML report's "Tool cost" section: each run's timespan totals of
 * "tool_cost" (docs/results-json.md): CPU per I/O, busy cores, IOPS per
 * busy core, completions per wait, I/Os per submit. Absent when no run
 * has the object (files from before it). */
#include <math.h>
#include <stdio.h>

#include "html_internal.h"
#include "html_sections.h"

static void cell(iospd_strbuf_t* out, double v, int decimals) {
  if (!isfinite(v))
    iospd_strbuf_append(out, "<td class=\"n\">-</td>");
  else
    iospd_strbuf_appendf(out, "<td class=\"n\">%.*f</td>", decimals, v);
}

void iospd_html_cost(iospd_strbuf_t* out, const html_run_t* runs, size_t nr) {
  bool any = false;
  for (size_t r = 0; r < nr && !any; r++) {
    const cJSON* ts;
    cJSON_ArrayForEach(ts, iospd_json_get(runs[r].doc, "timespans"))
      if (cJSON_IsObject(iospd_json_get(ts, "tool_cost"))) any = true;
  }
  if (!any) return;
  iospd_strbuf_append(
      out,
      "<section id=\"tool_cost\"><h2>Tool cost</h2>\n<p>What iospd itself "
      "spent over the measured phase (with --engine=null: its ceiling on "
      "this machine).</p>\n<table data-table=\"tool_cost\"><tr>");
  if (nr > 1) iospd_strbuf_append(out, "<th>run</th>");
  iospd_strbuf_append(out,
                      "<th>timespan</th><th>CPU us/IO user</th>"
                      "<th>CPU us/IO system</th><th>CPU us/IO</th>"
                      "<th>busy cores</th><th>IOPS per busy core</th>"
                      "<th>completions per wait</th><th>I/Os per submit</th>"
                      "</tr>\n");
  for (size_t r = 0; r < nr; r++) {
    const cJSON* ts;
    int ti = 0;
    cJSON_ArrayForEach(ts, iospd_json_get(runs[r].doc, "timespans")) {
      const cJSON* c = iospd_json_get(ts, "tool_cost");
      int n = ti++;
      if (!cJSON_IsObject(c)) continue;
      iospd_strbuf_append(out, "<tr>");
      if (nr > 1)
        iospd_strbuf_appendf(out, "<td>%c</td>", (char)('A' + r % 26));
      iospd_strbuf_appendf(out, "<td class=\"n\">%d</td>", n);
      cell(out, iospd_json_num(c, "cpu_user_us_per_io"), 3);
      cell(out, iospd_json_num(c, "cpu_system_us_per_io"), 3);
      cell(out, iospd_json_num(c, "cpu_us_per_io"), 3);
      cell(out, iospd_json_num(c, "busy_cores"), 2);
      cell(out, iospd_json_num(c, "iops_per_busy_core"), 0);
      cell(out, iospd_json_num(c, "completions_per_wait"), 2);
      cell(out, iospd_json_num(c, "ios_per_submit"), 2);
      iospd_strbuf_append(out, "</tr>\n");
    }
  }
  iospd_strbuf_append(out, "</table></section>\n");
}

/* SPDX-License-Identifier: MIT */
/* The comparison part of a report of several runs. */
#include "html_sections.h"

int iospd_html_compare(iospd_strbuf_t* out, const html_run_t* runs, size_t nr,
                       bool force, iospd_err_t* err) {
  (void)runs;
  (void)nr;
  (void)force;
  (void)err;
  iospd_strbuf_append(out, "<section id=\"comparison\"></section>\n");
  return 0;
}

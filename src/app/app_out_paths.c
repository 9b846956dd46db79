/* SPDX-License-Identifier: MIT */
/* The files a run will write, listed for the safety checks before any I/O
 * (iospd/output_paths.h does the checking). */
#include <stdio.h>
#include <string.h>

#include "app_internal.h"
#include "iospd/alloc.h"
#include "iospd/console.h"
#include "iospd/app.h"
#include "iospd/formats.h"
#include "iospd/output_paths.h"

/* list[n] = (the switch as written, "<opt><path>", path); false on ENOMEM. */
static bool push_path(iospd_out_path_t* list, int n, const char* opt,
                      const char* path) {
  size_t len = strlen(opt) + strlen(path) + 1;
  char* text = iospd_malloc(len);
  if (text == NULL) return false;
  snprintf(text, len, "%s%s", opt, path);
  list[n].option = text;
  list[n].path = path;
  return true;
}

/* Every file the run will write, as (switch as written, path), for the
 * safety checks: the --output files and the --timeseries file (the caller
 * leaves room for it). Returns the count, or -1 on ENOMEM; free each
 * option with iospd_free. */
int iospd_app_output_paths(const iospd_profile_t* p, iospd_out_path_t* list) {
  int n = 0;
  for (uint32_t i = 0; i < p->ext.output_count; i++) {
    const iospd_output_spec_t* o = &p->ext.outputs[i];
    char opt[32]; /* "--output=json:", the word from the format table */
    snprintf(opt, sizeof opt, "--output=%s:", iospd_format_word(o->format));
    if (!push_path(list, n++, opt, o->path)) return -1;
  }
  if (p->ext.timeseries_path != NULL &&
      !push_path(list, n++, "--timeseries=", p->ext.timeseries_path))
    return -1;
  return n;
}

/* Before any I/O: refuses report files that cannot be written, that are a
 * target or another file the run reads, or that two outputs share, and
 * --verify state files that are a target, an input or an output (exit 3).
 * outputs: false for --verify-only, which writes no report but keeps state
 * files. */
int iospd_app_check_output_paths(const iospd_profile_t* p, bool outputs) {
  size_t cap = (size_t)p->ext.output_count + 1;
  iospd_out_path_t* list = iospd_calloc(cap, sizeof *list);
  int n = list == NULL ? -1 : outputs ? iospd_app_output_paths(p, list) : 0;
  int rc = 0;
  iospd_err_t err;
  iospd_err_clear(&err);
  if (n < 0) {
    err_line("out of memory checking the output files");
    rc = EXIT_RUN_FAILED;
  } else if (iospd_output_paths_check(list, (size_t)n, p, &err) != 0) {
    err_line(err.msg);
    rc = err.code == IOSPD_ENOMEM ? EXIT_RUN_FAILED : EXIT_BAD_INPUT;
  }
  for (size_t i = 0; list != NULL && i < cap; i++)
    iospd_free((char*)list[i].option);
  iospd_free(list);
  return rc;
}


/* SPDX-License-Identifier: MIT */
/* The modes that read saved results: --merge (the merged JSON on stdout)
 * and --report (the HTML report of saved runs, written whole). */
#include <stdio.h>
#include <string.h>

#include "app_internal.h"
#include "iospd/alloc.h"
#include "iospd/console.h"
#include "iospd/app.h"
#include "iospd/html.h"
#include "iospd/merge.h"
#include "iospd/output_paths.h"
#include "iospd/results_args.h"

/* --merge a.json b.json ...: reads every file, merges, prints the merged
 * JSON on stdout. Anything wrong with an input is bad input (exit 3),
 * named with the file. */
int iospd_app_merge_files(int nfiles, const char* const* files) {
  iospd_merge_input_t* in =
      iospd_calloc(nfiles > 0 ? (size_t)nfiles : 1, sizeof *in);
  if (in == NULL) {
    err_line("out of memory (--merge)");
    return EXIT_RUN_FAILED;
  }
  int exit_code = EXIT_OK;
  iospd_err_t err;
  iospd_err_clear(&err);
  for (int i = 0; i < nfiles; i++) {
    char* data = NULL;
    size_t len = 0;
    in[i].name = files[i];
    if (iospd_app_read_whole_file(files[i], &data, &len, &err) < 0) {
      iospd_strbuf_t sb;
      iospd_strbuf_init(&sb);
      iospd_strbuf_appendf(&sb, "cannot read '%s' (--merge): %s", files[i],
                           err.msg[0] ? err.msg : iospd_strerror(err.code));
      err_line(iospd_strbuf_cstr(&sb));
      iospd_strbuf_destroy(&sb);
      exit_code = EXIT_BAD_INPUT;
      break;
    }
    in[i].text = data;
    in[i].len = len;
  }
  if (exit_code == EXIT_OK) {
    iospd_strbuf_t out;
    iospd_strbuf_init(&out);
    int rc = iospd_merge(in, (size_t)nfiles, &out, &err);
    if (rc < 0) {
      err_line(err.msg[0] ? err.msg : iospd_strerror(rc));
      exit_code = rc == IOSPD_ENOMEM ? EXIT_RUN_FAILED : EXIT_BAD_INPUT;
    } else {
      out_sb(&out);
    }
    iospd_strbuf_destroy(&out);
  }
  for (int i = 0; i < nfiles; i++) iospd_free((char*)in[i].text);
  iospd_free(in);
  return exit_code;
}

/* --report's row of the results-files grammar: "-" is a file name (it
 * cannot be read, and says so), and a .jsonl belongs to the last JSON file
 * whatever switches sit between. */
static const iospd_results_grammar_t report_grammar = {
    .dash_is_switch = false, .series_adjacent = false};

static int report_fail(const char* msg) {
  err_line(msg);
  return EXIT_BAD_INPUT;
}

/* Reads a whole input file of --report; false (with the message printed)
 * when it cannot be read. */
static bool report_read(const char* name, char** data, size_t* len) {
  iospd_err_t err;
  iospd_err_clear(&err);
  if (iospd_app_read_whole_file(name, data, len, &err) == 0) return true;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_strbuf_appendf(&sb, "cannot read '%s' (--report): %s", name,
                       err.msg[0] ? err.msg : iospd_strerror(err.code));
  err_line(iospd_strbuf_cstr(&sb));
  iospd_strbuf_destroy(&sb);
  return false;
}

/* iospd --report a.json [a.jsonl] [b.json ...] --output=html:FILE [--force]:
 * the HTML report of saved results, written whole; a .jsonl after a JSON
 * file is that run's time series. Bad input: exit 3, nothing written. */
int iospd_app_report_files(int nargs, const char* const* args) {
  size_t cap = nargs > 0 ? (size_t)nargs : 1;
  iospd_html_input_t* in = iospd_calloc(cap, sizeof *in);
  char** owned = iospd_calloc(cap, sizeof *owned); /* the files' bytes */
  size_t n_owned = 0;
  if (in == NULL || owned == NULL) {
    iospd_free(in);
    iospd_free(owned);
    err_line("out of memory (--report)");
    return EXIT_RUN_FAILED;
  }
  size_t n = 0;
  const char* out_path = NULL;
  iospd_html_opts_t opts = {.force = false};
  int exit_code = EXIT_OK;
  iospd_strbuf_t msg;
  iospd_strbuf_init(&msg);
  iospd_results_args_t ra;
  iospd_results_args_init(&ra, &report_grammar);
  for (int i = 0; i < nargs && exit_code == EXIT_OK; i++) {
    const char* a = args[i];
    iospd_strbuf_reset(&msg);
    iospd_results_arg_t kind = iospd_results_args_next(&ra, a);
    if (kind == IOSPD_RARG_FORCE) {
      opts.force = true;
    } else if (kind == IOSPD_RARG_SWITCH && strncmp(a, "--output=", 9) == 0) {
      if (strncmp(a + 9, "html:", 5) != 0 || a[14] == '\0') {
        iospd_strbuf_appendf(&msg, "'%s': --report writes only "
                             "--output=html:FILE", a);
        exit_code = report_fail(iospd_strbuf_cstr(&msg));
      } else if (out_path != NULL) {
        iospd_strbuf_appendf(&msg, "'%s': --report writes one HTML file; "
                             "--output is given twice", a);
        exit_code = report_fail(iospd_strbuf_cstr(&msg));
      } else {
        out_path = a + 14;
      }
    } else if (kind == IOSPD_RARG_SWITCH) {
      iospd_strbuf_appendf(&msg, "'%s': --report takes result files, "
                           "--output=html:FILE and --force", a);
      exit_code = report_fail(iospd_strbuf_cstr(&msg));
    } else if (kind == IOSPD_RARG_SERIES_ALONE) {
      iospd_strbuf_appendf(&msg, "'%s' (--report): a .jsonl time series "
                           "goes right after the JSON results of its run",
                           a);
      exit_code = report_fail(iospd_strbuf_cstr(&msg));
    } else if (kind == IOSPD_RARG_SERIES) {
      in[n - 1].jsonl_name = a;
      char* data = NULL;
      size_t len = 0;
      if (!report_read(a, &data, &len)) exit_code = EXIT_BAD_INPUT;
      owned[n_owned++] = data;
      in[n - 1].jsonl = data != NULL ? data : "";
      in[n - 1].jsonl_len = len;
    } else {
      char* data = NULL;
      size_t len = 0;
      in[n].name = a;
      if (!report_read(a, &data, &len)) exit_code = EXIT_BAD_INPUT;
      owned[n_owned++] = data;
      in[n].json = data != NULL ? data : "";
      in[n].json_len = len;
      n++;
    }
  }
  if (exit_code == EXIT_OK && out_path == NULL)
    exit_code = report_fail("--report needs the file to write: "
                            "--output=html:FILE");
  if (exit_code == EXIT_OK && n == 0)
    exit_code = report_fail("--report needs at least one -Rjson results file");
  /* The report never replaces one of its inputs. */
  for (size_t i = 0; exit_code == EXIT_OK && i < n; i++) {
    const char* names[2] = {in[i].name, in[i].jsonl_name};
    for (int k = 0; k < 2 && exit_code == EXIT_OK; k++)
      if (names[k] != NULL && iospd_plat_same_file(out_path, names[k])) {
        iospd_strbuf_reset(&msg);
        iospd_strbuf_appendf(&msg, "--output=html:%s is the input '%s'; "
                             "choose another file", out_path, names[k]);
        exit_code = report_fail(iospd_strbuf_cstr(&msg));
      }
  }
  iospd_err_t err;
  iospd_err_clear(&err);
  if (exit_code == EXIT_OK) {
    iospd_out_path_t o = {"--output=html:", out_path};
    if (iospd_output_paths_check(&o, 1, NULL, &err) != 0)
      exit_code = report_fail(err.msg);
  }
  if (exit_code == EXIT_OK) {
    iospd_strbuf_t page;
    iospd_strbuf_init(&page);
    int rc = iospd_html_report(in, n, &opts, &page, &err);
    if (rc == 0 && page.failed) rc = IOSPD_ENOMEM;
    if (rc == 0)
      rc = iospd_plat_write_file_whole_bytes(
          out_path, iospd_strbuf_cstr(&page), page.len, &err);
    else if (rc != IOSPD_ENOMEM)
      exit_code = EXIT_BAD_INPUT;
    if (rc < 0) {
      iospd_strbuf_reset(&msg);
      iospd_strbuf_appendf(&msg, "%s%s",
                           err.msg[0] ? err.msg : iospd_strerror(rc),
                           exit_code == EXIT_OK ? "; the report was not "
                                                  "written"
                                                : "");
      err_line(iospd_strbuf_cstr(&msg));
      if (exit_code == EXIT_OK) exit_code = EXIT_RUN_FAILED;
    }
    iospd_strbuf_destroy(&page);
  }
  for (size_t i = 0; i < n_owned; i++) iospd_free(owned[i]);
  iospd_free(owned);
  iospd_free(in);
  iospd_strbuf_destroy(&msg);
  return exit_code;
}


/* SPDX-License-Identifier: MIT */
/* iospd --compare a.json [a.jsonl] b.json [b.jsonl] ... [--force]: the mode's
 * arguments, reading (through the caller's read_file: the core opens no
 * file) and loading the documents, the comparison and its text. The
 * arguments follow the results-files grammar (iospd/results_args.h) that
 * --report shares; src/app prints what this returns. */
#include <stdio.h>
#include <string.h>

#include "cJSON.h"
#include "iospd/alloc.h"
#include "iospd/compare.h"
#include "iospd/results_args.h"
#include "iospd/results_doc.h"

#define MODE "--compare"

/* --compare's row of the results-files grammar: "-" is refused as a switch
 * (stdin holds no saved run), and a .jsonl must follow its run's JSON. */
static const iospd_results_grammar_t grammar = {.dash_is_switch = true,
                                                .series_adjacent = true};

/* Reads a file through the caller; a failure is bad input naming it. */
static int read_one(iospd_cmp_read_fn read_file, const char* path,
                    char** data, size_t* len, iospd_err_t* err) {
  int rc = read_file(path, data, len, err);
  if (rc >= 0) return 0;
  char why[IOSPD_ERR_MSG_MAX];
  snprintf(why, sizeof why, "%s", err->msg[0] ? err->msg : iospd_strerror(rc));
  return iospd_err_set(err, IOSPD_EUSAGE, "cannot read '%s' (" MODE "): %s",
                       path, why);
}

/* Two curve documents and nothing else (no .jsonl, no --force). */
static int curve_mode(int nargs, const char* const* args,
                      iospd_cmp_read_fn read_file, iospd_strbuf_t* out,
                      iospd_err_t* err) {
  const char* names[2] = {NULL, NULL};
  cJSON* docs[2] = {NULL, NULL};
  int n = 0, rc = 0;
  for (int i = 0; i < nargs && rc == 0; i++) {
    if (strcmp(args[i], "--force") == 0) continue;
    if (n == 2 || (strlen(args[i]) > 6 &&
                   strcmp(args[i] + strlen(args[i]) - 6, ".jsonl") == 0)) {
      rc = iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' (" MODE "): two curve documents are compared, "
                         "nothing else: iospd " MODE " a-curve.json "
                         "b-curve.json",
                         args[i]);
      break;
    }
    char* data = NULL;
    size_t len = 0;
    rc = read_one(read_file, args[i], &data, &len, err);
    if (rc == 0) {
      docs[n] = cJSON_ParseWithLength(data, len);
      if (docs[n] == NULL)
        rc = iospd_err_set(err, IOSPD_EUSAGE,
                           "'%s' (" MODE "): not JSON, although it starts as "
                           "a curve document (a cut-off or damaged file?)",
                           args[i]);
      names[n++] = args[i];
    }
    iospd_free(data);
  }
  if (rc == 0 && n != 2)
    rc = iospd_err_set(err, IOSPD_EUSAGE,
                       MODE " of curves needs exactly two curve documents: "
                       "iospd " MODE " a-curve.json b-curve.json");
  if (rc == 0)
    rc = iospd_compare_curves(docs[0], docs[1], names[0], names[1], out, err);
  /* (iospd_compare_curves checks each is a curve, naming the file) */
  cJSON_Delete(docs[0]);
  cJSON_Delete(docs[1]);
  return rc;
}

int iospd_compare_mode(int nargs, const char* const* args,
                       iospd_cmp_read_fn read_file, iospd_strbuf_t* out,
                       iospd_err_t* err) {
  iospd_compare_opts_t opts = {false, false, MODE};
  iospd_results_args_t ra;
  iospd_results_args_init(&ra, &grammar);
  for (int i = 0; i < nargs; i++) {
    iospd_results_arg_t kind = iospd_results_args_next(&ra, args[i]);
    if (kind == IOSPD_RARG_SWITCH) {
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "'%s': " MODE " takes result files (each "
                           "optionally followed by its .jsonl time series) "
                           "and --force: iospd " MODE " a.json [a.jsonl] "
                           "b.json ... [--force] (a file whose name starts "
                           "with '-': ./%s)",
                           args[i], args[i]);
    } else if (kind == IOSPD_RARG_SERIES_ALONE) {
      return iospd_err_set(err, IOSPD_EUSAGE, "'%s' (" MODE "): a .jsonl "
                           "time series goes right after the JSON results "
                           "of its run: iospd " MODE " a.json a.jsonl b.json "
                           "b.jsonl", args[i]);
    } else if (kind == IOSPD_RARG_FORCE) {
      opts.force = true;
    }
  }
  size_t n = ra.runs;
  if (n < 2)
    return iospd_err_set(err, IOSPD_EUSAGE, MODE " needs two or more result "
                         "files (-Rjson or --output=json:FILE): iospd " MODE
                         " a.json [a.jsonl] b.json ... [--force]; the first "
                         "is the baseline");
  /* The first document a curve: two curves compared (curve_mode). */
  int rc = 0;
  bool curves = false;
  iospd_results_args_init(&ra, &grammar);
  for (int i = 0; i < nargs && rc == 0; i++) {
    if (iospd_results_args_next(&ra, args[i]) != IOSPD_RARG_RESULTS) continue;
    char* data = NULL;
    size_t len = 0;
    char word[64];
    rc = read_one(read_file, args[i], &data, &len, err);
    curves = rc == 0 &&
             iospd_results_doc_format(data, len, word, sizeof word) &&
             strcmp(word, "iospd-curve") == 0;
    iospd_free(data);
    break;
  }
  if (rc < 0) return rc;
  if (curves) return curve_mode(nargs, args, read_file, out, err);
  const char** names = iospd_calloc(n, sizeof *names);
  cJSON** docs = iospd_calloc(n, sizeof *docs);
  rc = names == NULL || docs == NULL ? IOSPD_ENOMEM : 0;
  if (rc) iospd_err_set(err, rc, "out of memory (" MODE ")");
  size_t k = 0;
  iospd_results_args_init(&ra, &grammar);
  for (int i = 0; i < nargs && rc == 0; i++) {
    iospd_results_arg_t kind = iospd_results_args_next(&ra, args[i]);
    if (kind == IOSPD_RARG_FORCE) continue;
    char* data = NULL;
    size_t len = 0;
    rc = read_one(read_file, args[i], &data, &len, err);
    if (rc == 0 && kind == IOSPD_RARG_SERIES) {
      /* The time series of the run before it (checked above). */
      rc = iospd_results_doc_add_timeseries(docs[k - 1], args[i], data, len,
                                            MODE, err);
    } else if (rc == 0) {
      names[k] = args[i];
      rc = iospd_results_doc_parse(args[i], data, len, MODE, &docs[k], err);
      k++;
    }
    iospd_free(data);
  }
  iospd_compare_t c;
  memset(&c, 0, sizeof c);
  if (rc == 0)
    rc = iospd_compare_build((const cJSON* const*)docs, names, n, &opts, &c,
                             err);
  if (rc == 0) {
    iospd_compare_text(&c, out);
    if (out->failed) rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory (" MODE ")");
  }
  iospd_compare_free(&c);
  for (size_t i = 0; docs != NULL && i < n; i++) cJSON_Delete(docs[i]);
  iospd_free(docs);
  iospd_free(names);
  return rc;
}

/* SPDX-License-Identifier: MIT */
/* Handlers of the output switches: -R (result format), -v/-vs, -D (IOPS
 * intervals), -P (progress dots), -d (with its bare-value warning), -? and
 * --help, and the iospd outputs --output, --progress and --timeseries. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/series_out.h"
#include "opt_handlers.h"

/* DISKSPD (DISKSPD's switch rules): a leading 'p' only turns on profile-only; the format word,
 * if any, sets the format. So "-Rxml -Rp" keeps XML, and a bare -R is
 * accepted (changing nothing) once an earlier -Rp turned profile-only on. */
int sw_format(ctx_t* c) {
  const char* v = c->val;
  /* The words come from the format table (iospd/formats.h):
   * all = "-Rtext, -Rxml, -Rjson, -Rfio-json, -Rp, -Rptext or -Rpxml". */
  char all[160] = "", rp[80] = "";
  iospd_format_list(all, sizeof all, IOSPD_FMT_R, "-R", true);
  size_t l = strlen(all);
  snprintf(all + l, sizeof all - l, "-Rp, ");
  iospd_format_list(all, sizeof all, IOSPD_FMT_RP, "-Rp", false);
  iospd_format_list(rp, sizeof rp, IOSPD_FMT_RP, "-Rp", false);
  if (v[0] == '\0') {
    if (c->pp.profile_only) return 0;
    return fail(c, "'-R' needs a format: %s", all);
  }
  /* Case does not matter: "-RXML" is as clear as "-Rxml". */
  bool p = false;
  if (lower(v[0]) == 'p') {
    p = true;
    v++;
  }
  if (lower(v[0]) == 's') {
    /* -Rs[text|xml] (DISKSPD 2.3): the system information only. */
    if (!is_23(c)) return iospd_opt_needs_23(c, "-Rs (system information)");
    v++;
    const iospd_format_t* f =
        v[0] ? iospd_format_find(v, strlen(v), true) : NULL;
    if (v[0] != '\0' && (f == NULL || !(f->uses & IOSPD_FMT_RP)))
      return fail(c, "'%s': the system information is printed as text or "
                     "XML: use -Rs, -Rstext or -Rsxml", c->arg);
    c->pp.format = f != NULL ? f->format : IOSPD_FORMAT_TEXT;
    c->format_set = true;
    c->pp.system_only = true;
    if (p) c->pp.profile_only = true;
    return 0;
  }
  if (v[0] != '\0') {
    const iospd_format_t* f = iospd_format_find(v, strlen(v), true);
    if (f != NULL && (f->uses & (p ? IOSPD_FMT_RP : IOSPD_FMT_R))) {
      c->pp.format = f->format; /* json: iospd's, docs/results-json.md */
    } else if (f != NULL && (f->uses & IOSPD_FMT_R)) {
      return fail(c, "'%s': the profile alone is printed as text or XML "
                     "only; use %s (JSON holds results: -R%s)", c->arg, rp,
                  f->word);
    } else {
      return fail(c, "'%s': unknown result format; use %s", c->arg, all);
    }
    c->format_set = true;
  }
  if (p) c->pp.profile_only = true;
  return 0;
}

int sw_verbose(ctx_t* c) {
  if (c->val[0] == '\0') {
    c->pp.verbose = true;
  } else if (strcmp(c->val, "s") == 0) {
    c->pp.verbose_stats = true;
  } else {
    return fail(c, "'%s': unknown verbose mode; use -v (progress messages) "
                   "or -vs (wait statistics)", c->arg);
  }
  return 0;
}

int sw_bucket(ctx_t* c) {
  const iospd_opt_def_t* o = c->opt;
  c->ts.calc_iops_stddev = true;
  if (c->val[0] == '\0') return 0;
  uint64_t v = 0;
  int rc = get_uint(c, c->val, 0, o->max, "IOPS interval in ms", &v);
  if (rc) return rc;
  if (v > 0) c->ts.io_bucket_ms = (uint32_t)v;
  return 0;
}

int sw_progress(ctx_t* c) {
  const iospd_opt_def_t* o = c->opt;
  uint64_t v = 0;
  if (c->val[0] != '\0') {
    int rc = get_uint(c, c->val, 0, o->max, "progress interval", &v);
    if (rc) return rc;
  }
  c->pp.progress_dots = v ? (uint32_t)v : IOSPD_DEFAULT_PROGRESS_PERIOD;
  return 0;
}

/* --output=FORMAT:FILE. FORMAT ends at the first ':', so FILE may hold
 * colons ("json:C:\\r\\run.json"). */
int sw_output(ctx_t* c) {
  const char* v = c->val;
  /* "text, xml, json or html", from the format table (iospd/formats.h). */
  char words[80] = "";
  iospd_format_list(words, sizeof words, IOSPD_FMT_OUTPUT, "", false);
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --output=FORMAT:FILE with FORMAT %s", c->arg,
                words);
  v++;
  const char* colon = strchr(v, ':');
  size_t n = colon ? (size_t)(colon - v) : strlen(v);
  const iospd_format_t* row = iospd_format_find(v, n, false);
  if (row == NULL || !(row->uses & IOSPD_FMT_OUTPUT))
    return fail(c, "'%s': unknown output format '%.*s'; use "
                   "--output=FORMAT:FILE with FORMAT %s",
                c->arg, (int)n, v, words);
  iospd_result_format_t f = row->format;
  if (colon == NULL || colon[1] == '\0')
    return fail(c, "'%s': no file name; use --output=%.*s:FILE", c->arg,
                (int)n, v);
  iospd_ext_t* x = &c->pp.ext;
  iospd_output_spec_t* a =
      iospd_realloc(x->outputs, (x->output_count + 1) * sizeof *a);
  if (a == NULL) return nomem(c);
  x->outputs = a;
  a[x->output_count].format = f;
  a[x->output_count].path = iospd_strdup(colon + 1);
  if (a[x->output_count].path == NULL) return nomem(c);
  x->output_count++;
  return 0;
}

int sw_status(ctx_t* c) {
  const char* v = c->val;
  opt_words_t words;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --progress=%s", c->arg,
                opt_words(&words, c->opt));
  v++;
  const iospd_opt_word_t* w =
      iospd_opt_words_find(c->opt->posval, v, strlen(v), false);
  if (w == NULL)
    return fail(c, "'%s': unknown --progress value '%s'; use %s", c->arg, v,
                opt_words(&words, c->opt));
  c->pp.ext.status_line = w->value;
  return 0;
}

/* --timeseries=FILE: the extension picks the format (iospd/series_out.h). */
int sw_timeseries(ctx_t* c) {
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --timeseries=FILE with FILE ending in .csv or "
                   ".jsonl", c->arg);
  v++;
  if (iospd_series_format_of(v) == IOSPD_SERIES_NONE)
    return fail(c, "'%s': --timeseries takes a file ending in .csv or .jsonl "
                   "(the extension picks the format)", c->arg);
  /* One run writes one series: a second file would be silently dropped. */
  if (c->pp.ext.timeseries_path != NULL)
    return fail(c, "'%s': --timeseries is given twice (first '%s'); a run "
                   "writes one time series: keep one --timeseries=FILE",
                c->arg, c->pp.ext.timeseries_path);
  char* path = iospd_strdup(v);
  if (path == NULL) return nomem(c);
  c->pp.ext.timeseries_path = path;
  return 0;
}

int sw_help(ctx_t* c) {
  /* DISKSPD looks only at the '?': "-?x" is help too. */
  *c->action = IOSPD_ACTION_USAGE;
  return 0;
}

/* -d: a UINT; a bare -d is DISKSPD's 0-second test, said in a warning. */
int sw_duration(ctx_t* c) {
  if (c->val[0] == '\0') warn(c, "'-d' without a value means a 0-second test");
  return sw_uint(c);
}

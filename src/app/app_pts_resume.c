/* SPDX-License-Identifier: MIT */
/* --pts-resume=FILE (docs/pts.md): the PTS document of an interrupted run
 * read back into its set-up and finished rounds, for iospd_pts_run to
 * check against this run and continue. */
#include <string.h>

#include "app_internal.h"
#include "iospd/alloc.h"
#include "iospd/json_read.h"
#include "iospd/platform.h"
#include "iospd/pts.h"

/* The document of an IOPS run of 25 rounds of 56 cells is ~1 MiB. */
#define RESUME_MAX_BYTES ((size_t)64 << 20)

static int bad(iospd_err_t* err, const char* file, const char* what) {
  return iospd_err_set(err, IOSPD_EUSAGE, "--pts-resume=%s: %s", file, what);
}

static bool num(const cJSON* o, const char* key, double* out) {
  const cJSON* v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v)) return false;
  *out = v->valuedouble;
  return true;
}

static bool u32(const cJSON* o, const char* key, uint32_t* out) {
  double d;
  if (!num(o, key, &d) || d < 0 || d > 4294967295.0 || d != (double)(uint32_t)d)
    return false;
  *out = (uint32_t)d;
  return true;
}

static double opt_num(const cJSON* o, const char* key) {
  double d;
  return num(o, key, &d) ? d : -1;
}

static int word_index(const char* w, const char* (*word)(int), int from,
                      int to) {
  for (int i = from; i < to; i++)
    if (word(i) != NULL && strcmp(word(i), w) == 0) return i;
  return -1;
}

static int read_doc(const cJSON* d, const char* file, iospd_pts_result_t* r,
                    char** path_owned, iospd_err_t* err) {
  const char* f = iospd_json_str(d, "format");
  if (f == NULL || strcmp(f, "iospd-pts") != 0)
    return bad(err, file, "not an iospd PTS document (\"format\" is not "
                          "\"iospd-pts\"); give the -Rjson or --output=json: "
                          "file of the --pts run");
  const char* stopped = iospd_json_str(d, "stopped");
  if (stopped == NULL)
    return bad(err, file, "no \"stopped\": not a whole PTS document");
  if (strcmp(stopped, "steady") == 0 || strcmp(stopped, "max_rounds") == 0)
    return bad(err, file, "that run is finished (it stopped at steady state "
                          "or 25 rounds): nothing to resume");
  const char* test = iospd_json_str(d, "test");
  r->test = test ? word_index(test, iospd_pts_test_word, IOSPD_PTS_IOPS,
                              IOSPD_PTS_LATENCY + 1)
                 : -1;
  if (r->test < 0) return bad(err, file, "\"test\" is missing or unknown");
  const cJSON* t = cJSON_GetObjectItemCaseSensitive(d, "target");
  const char* path = iospd_json_str(t, "path");
  double cap = 0, cell = 0;
  if (path == NULL || !num(t, "capacity_bytes", &cap) ||
      !num(d, "cell_seconds", &cell) || !u32(d, "threads", &r->threads) ||
      !u32(d, "outstanding", &r->outstanding))
    return bad(err, file, "the target, cell_seconds, threads or outstanding "
                          "is missing");
  if ((*path_owned = iospd_strdup(path)) == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  r->path = *path_owned;
  r->capacity = (uint64_t)cap;
  r->cell_s = (uint32_t)cell;
  const cJSON* m = cJSON_GetObjectItemCaseSensitive(d, "matrix");
  const cJSON* bs = cJSON_GetObjectItemCaseSensitive(m, "block_sizes");
  const cJSON* mixes = cJSON_GetObjectItemCaseSensitive(m, "mixes");
  const char* access = iospd_json_str(m, "access");
  if (!cJSON_IsArray(bs) || !cJSON_IsArray(mixes) || access == NULL ||
      cJSON_GetArraySize(bs) > (int)IOSPD_PTS_MAX_BS ||
      cJSON_GetArraySize(mixes) > (int)IOSPD_PTS_MAX_MIX)
    return bad(err, file, "\"matrix\" is missing or too large");
  const cJSON* e;
  cJSON_ArrayForEach(e, bs) {
    if (!cJSON_IsNumber(e)) return bad(err, file, "a block size is no number");
    r->matrix.bs[r->matrix.nbs++] = (uint32_t)e->valuedouble;
  }
  cJSON_ArrayForEach(e, mixes) {
    uint32_t rd;
    if (!u32(e, "read_pct", &rd)) return bad(err, file, "a mix has no read_pct");
    r->matrix.read_pct[r->matrix.nmix++] = rd;
  }
  r->matrix.random = strcmp(access, "random") == 0;
  const cJSON* pu = cJSON_GetObjectItemCaseSensitive(d, "purge");
  const char* pm = iospd_json_str(pu, "method");
  r->purge = pm ? word_index(pm, iospd_pts_purge_word, 0, IOSPD_PTS_PURGE_COUNT)
                : 0;
  if (r->purge < 0) r->purge = 0;
  r->purge_seconds = opt_num(pu, "seconds");
  const cJSON* w = cJSON_GetObjectItemCaseSensitive(d, "wipc");
  double x;
  r->wipc_done = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(w, "complete"));
  r->wipc_bytes = num(w, "bytes_written", &x) ? (uint64_t)x : 0;
  r->wipc_writes = num(w, "writes", &x) ? (uint64_t)x : 0;
  r->wipc_seconds = num(w, "seconds", &x) ? x : 0;
  if (!r->wipc_done)
    return bad(err, file, "that run was stopped during preconditioning: "
                          "start it again without --pts-resume");
  const cJSON* rounds = cJSON_GetObjectItemCaseSensitive(d, "rounds");
  if (!cJSON_IsArray(rounds) ||
      cJSON_GetArraySize(rounds) >= (int)IOSPD_SS_MAX_ROUNDS_PTS)
    return bad(err, file, "\"rounds\" is missing or already 25 rounds long");
  const cJSON* rd;
  cJSON_ArrayForEach(rd, rounds) {
    iospd_pts_round_t* o = &r->rounds[r->nrounds];
    const cJSON* cells = cJSON_GetObjectItemCaseSensitive(rd, "cells");
    if (!u32(rd, "n", &o->n) || o->n != r->nrounds + 1 ||
        !num(rd, "tracked_value", &o->tracked) || !cJSON_IsArray(cells))
      return bad(err, file, "a round is not numbered in order or lacks its "
                            "tracked_value or cells");
    int nc = cJSON_GetArraySize(cells);
    o->cells = iospd_calloc(nc > 0 ? (size_t)nc : 1, sizeof *o->cells);
    if (o->cells == NULL)
      return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    r->nrounds++;
    const cJSON* c;
    cJSON_ArrayForEach(c, cells) {
      iospd_pts_cell_t* k = &o->cells[o->ncells++];
      const cJSON* lat = cJSON_GetObjectItemCaseSensitive(c, "latency_us");
      const char* ac = iospd_json_str(c, "access");
      if (!u32(c, "block_size", &k->bs) || !u32(c, "read_pct", &k->read_pct) ||
          !num(c, "seconds", &k->seconds) || !num(c, "iops", &k->iops) ||
          !num(c, "mib_per_s", &k->mib_per_s) || ac == NULL)
        return bad(err, file, "a cell lacks block_size, read_pct, seconds, "
                              "iops, mib_per_s or access");
      k->random = strcmp(ac, "random") == 0;
      k->lat_mean_us = opt_num(lat, "mean");
      k->lat_max_us = opt_num(lat, "max");
      k->p99_us = opt_num(lat, "p99");
      k->p999_us = opt_num(lat, "p99.9");
      k->p9999_us = opt_num(lat, "p99.99");
    }
  }
  return 0;
}

int iospd_app_pts_read(const char* file, iospd_pts_result_t* out,
                       char** path_owned, iospd_err_t* err) {
  char* data = NULL;
  size_t len = 0;
  iospd_err_t e;
  iospd_err_clear(&e);
  int rc = iospd_plat_read_file(file, RESUME_MAX_BYTES, &data, &len, &e);
  if (rc < 0)
    return iospd_err_set(err, IOSPD_EUSAGE, "--pts-resume=%s: %s", file,
                         e.msg[0] ? e.msg : iospd_strerror(rc));
  cJSON* d = cJSON_ParseWithLength(data, len);
  iospd_free(data);
  if (d == NULL) return bad(err, file, "not JSON");
  rc = read_doc(d, file, out, path_owned, err);
  cJSON_Delete(d);
  return rc;
}

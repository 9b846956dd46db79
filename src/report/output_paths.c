/* SPDX-License-Identifier: MIT */
/* Report-file safety checks before a run (iospd/output_paths.h). Files are
 * compared by identity (iospd_plat_same_file: device and inode, volume
 * serial and file id), so another spelling, a hard link or a symbolic link
 * to a file is that file. */
#include "iospd/output_paths.h"

#include <stdio.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"
#include "iospd/verify.h"

/* A file the run reads or keeps, as the messages name it. */
typedef struct {
  const char* option; /* "-Z", "-X", "the target", "--verify" */
  const char* path;
} input_t;

/* The state file of target path tp: allocated (iospd_vstate_path). */
static char* state_of(const iospd_profile_t* p, const char* tp) {
  return iospd_vstate_path(tp, p->ext.verify_state);
}

static bool verifies(const iospd_profile_t* p) {
  return p != NULL && (p->ext.verify || p->ext.verify_only);
}

/* The switch that named the state files, as written: "--verify-state=FILE"
 * when given, else "--verify" (whose state file is <target>.iospd-verify);
 * printed as "%s%s" with state_value. */
static const char* state_option(const iospd_profile_t* p) {
  return p->ext.verify_state != NULL ? "--verify-state="
         : p->ext.verify_only        ? "--verify-only"
                                     : "--verify";
}
static const char* state_value(const iospd_profile_t* p) {
  return p->ext.verify_state != NULL ? p->ext.verify_state : "";
}

/* The first output of outs that is the file in, or -1. */
static int output_is(const iospd_out_path_t* outs, size_t count,
                     const char* path) {
  for (size_t i = 0; i < count; i++)
    if (iospd_plat_same_file(outs[i].path, path)) return (int)i;
  return -1;
}

/* Outputs against what the run reads: the -Z source files and the -X
 * profile. */
static int outputs_vs_inputs(const iospd_out_path_t* outs, size_t count,
                             const iospd_profile_t* p, iospd_err_t* err) {
  int i;
  if (p->xml_source != NULL &&
      (i = output_is(outs, count, p->xml_source)) >= 0)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "%s: '%s' is the -X profile '%s' this run reads; a "
                         "report must never overwrite it: choose another file",
                         outs[i].option, outs[i].path, p->xml_source);
  for (uint32_t s = 0; s < p->timespan_count; s++)
    for (uint32_t t = 0; t < p->timespans[s].target_count; t++) {
      const char* z = p->timespans[s].targets[t].random_data_path;
      if (z != NULL && (i = output_is(outs, count, z)) >= 0)
        return iospd_err_set(
            err, IOSPD_EUSAGE,
            "%s: '%s' is the -Z source file '%s' the written data comes "
            "from; a report must never overwrite it: choose another file",
            outs[i].option, outs[i].path, z);
    }
  return 0;
}

/* One target's --verify state file st against every target, -Z source,
 * the -X profile and every output. */
static int state_vs_all(const char* st, const char* owner,
                        const iospd_out_path_t* outs, size_t count,
                        const iospd_profile_t* p, iospd_err_t* err) {
  const char* opt = state_option(p);
  const char* val = state_value(p);
  for (uint32_t s = 0; s < p->timespan_count; s++)
    for (uint32_t t = 0; t < p->timespans[s].target_count; t++) {
      const iospd_target_t* tg = &p->timespans[s].targets[t];
      if (tg->path != NULL && iospd_plat_same_file(st, tg->path))
        return iospd_err_set(
            err, IOSPD_EUSAGE,
            "%s%s: the state file '%s' (of the target '%s') is the target "
            "'%s'; the state would overwrite the data under test: name "
            "another file with --verify-state=FILE",
            opt, val, st, owner, tg->path);
      if (tg->random_data_path != NULL &&
          iospd_plat_same_file(st, tg->random_data_path))
        return iospd_err_set(
            err, IOSPD_EUSAGE,
            "%s%s and -Z: the state file '%s' (of the target '%s') is the -Z "
            "source file '%s'; name another file with --verify-state=FILE",
            opt, val, st, owner, tg->random_data_path);
    }
  if (p->xml_source != NULL && iospd_plat_same_file(st, p->xml_source))
    return iospd_err_set(
        err, IOSPD_EUSAGE,
        "%s%s and -X: the state file '%s' (of the target '%s') is the -X "
        "profile '%s'; name another file with --verify-state=FILE",
        opt, val, st, owner, p->xml_source);
  int i = output_is(outs, count, st);
  if (i >= 0)
    return iospd_err_set(
        err, IOSPD_EUSAGE,
        "%s%s and %s: '%s' is the state file of the target '%s'; choose "
        "another file for the report",
        opt, val, outs[i].option, outs[i].path, owner);
  return 0;
}

static int states_vs_all(const iospd_out_path_t* outs, size_t count,
                         const iospd_profile_t* p, iospd_err_t* err) {
  for (uint32_t s = 0; s < p->timespan_count; s++)
    for (uint32_t t = 0; t < p->timespans[s].target_count; t++) {
      const char* tp = p->timespans[s].targets[t].path;
      if (tp == NULL) continue;
      char* st = state_of(p, tp);
      if (st == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
      int rc = state_vs_all(st, tp, outs, count, p, err);
      iospd_free(st);
      if (rc != 0) return rc;
    }
  return 0;
}

int iospd_output_paths_check(const iospd_out_path_t* outs, size_t count,
                             const iospd_profile_t* p, iospd_err_t* err) {
  for (size_t i = 0; i < count; i++)
    for (size_t j = 0; j < i; j++)
      if (iospd_plat_same_file(outs[i].path, outs[j].path))
        return iospd_err_set(
            err, IOSPD_EUSAGE,
            "%s and %s both write to the file '%s'; give each output its "
            "own file",
            outs[j].option, outs[i].option, outs[i].path);

  for (size_t i = 0; i < count; i++)
    for (uint32_t s = 0; p != NULL && s < p->timespan_count; s++)
      for (uint32_t t = 0; t < p->timespans[s].target_count; t++) {
        const char* tp = p->timespans[s].targets[t].path;
        if (tp != NULL && iospd_plat_same_file(outs[i].path, tp))
          return iospd_err_set(
              err, IOSPD_EUSAGE,
              "%s: '%s' is the target '%s'; a report must never overwrite "
              "the data under test: choose another file",
              outs[i].option, outs[i].path, tp);
      }

  int rc = p != NULL ? outputs_vs_inputs(outs, count, p, err) : 0;
  if (rc == 0 && verifies(p)) rc = states_vs_all(outs, count, p, err);
  if (rc != 0) return rc;

  for (size_t i = 0; i < count; i++) {
    iospd_err_t why;
    iospd_err_clear(&why);
    if (iospd_plat_output_probe(outs[i].path, &why) != 0)
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "%s: the file '%s' cannot be written: %s", outs[i].option,
                           outs[i].path, why.msg);
  }
  return 0;
}

/* SPDX-License-Identifier: MIT */
/* Report-file safety checks before a run (iospd/output_paths.h). */
#include "iospd/output_paths.h"

#include "iospd/platform.h"

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

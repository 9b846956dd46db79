/* SPDX-License-Identifier: MIT */
/* iospd --version: what this binary is, where it came from and what it
 * can do. The platform says what it was compiled for (iospd_plat_build)
 * and which engines it has (iospd_plat_engines),
 * the build stamps the commit and the day (src/base/build_info.c). */
#include "iospd/cmdline.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "iospd/version.h"

void iospd_cmdline_version(iospd_strbuf_t* out,
                           const iospd_plat_build_t* build) {
  iospd_strbuf_appendf(out, "iospd %s\n", IOSPD_VERSION);
  iospd_strbuf_appendf(out, "commit: %s\n", iospd_build_commit());
  iospd_strbuf_appendf(out, "built: %s (UTC)\n", iospd_build_date());
  /* The engines compiled in, from the platform's table (not the policy). */
  iospd_strbuf_append(out, "engines: ");
  uint32_t n = 0, shown = 0;
  const iospd_engine_def_t* e = iospd_plat_engines(&n);
  for (uint32_t i = 0; i < n; i++) {
    if (e[i].caps & (IOSPD_ENGINE_CAP_POLICY | IOSPD_ENGINE_CAP_ABSENT))
      continue;
    iospd_strbuf_appendf(out, "%s%s", shown++ ? ", " : "", e[i].name);
  }
  iospd_strbuf_append(out, "\n");
  iospd_strbuf_appendf(out, "platform: %s%s%s\n", build->os,
                       build->arch[0] ? " " : "", build->arch);
  /* The DISKSPD releases --diskspd= chooses between, and the default. */
  bool d23 = IOSPD_DISKSPD_LEVEL_DEFAULT == IOSPD_DISKSPD_23;
  iospd_strbuf_appendf(out,
                       "command line: DISKSPD %s (--diskspd=2.2%s) and %s "
                       "(--diskspd=2.3%s)\n",
                       IOSPD_DISKSPD_VERSION, d23 ? "" : ", the default",
                       IOSPD_DISKSPD23_VERSION, d23 ? ", the default" : "");
}

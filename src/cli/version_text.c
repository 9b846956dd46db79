/* SPDX-License-Identifier: MIT */
/* iospd --version: what this binary is, where it came from and what it
 * can do. The platform says what it was compiled for (iospd_plat_build),
 * the build stamps the commit and the day (src/base/build_info.c). */
#include "iospd/cmdline.h"
#include "iospd/platform.h"
#include "iospd/version.h"

void iospd_cmdline_version(iospd_strbuf_t* out,
                           const iospd_plat_build_t* build) {
  iospd_strbuf_appendf(out, "iospd %s\n", IOSPD_VERSION);
  iospd_strbuf_appendf(out, "commit: %s\n", iospd_build_commit());
  iospd_strbuf_appendf(out, "built: %s (UTC)\n", iospd_build_date());
  iospd_strbuf_appendf(out, "engines: %s\n", build->engines);
  iospd_strbuf_appendf(out, "platform: %s%s%s\n", build->os,
                       build->arch[0] ? " " : "", build->arch);
  iospd_strbuf_appendf(out, "command line: DISKSPD %s\n",
                       IOSPD_DISKSPD_VERSION);
}

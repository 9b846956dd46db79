/* SPDX-License-Identifier: MIT */
/* -Rs, -Rstext, -Rsxml (DISKSPD 2.3): the machine's system information,
 * as a 2.3 results report would show it, and nothing else. */
#include <string.h>

#include "app_internal.h"
#include "iospd/report.h"

int iospd_app_system_info(const iospd_profile_t* p,
                          const iospd_sysinfo_t* sys) {
  iospd_results_t r;
  memset(&r, 0, sizeof r);
  r.profile = p;
  r.sys = *sys;
  iospd_err_t err;
  iospd_err_clear(&err);
  int rc = iospd_plat_cpu_topology(&r.topo, &err);
  if (rc < 0) {
    err_line(err.msg[0] ? err.msg : iospd_strerror(rc));
    return EXIT_RUN_FAILED;
  }
  iospd_plat_utc_now(&r.run_time);
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  if (p->format == IOSPD_FORMAT_XML) {
    iospd_report_system_xml(&out, &r);
  } else {
    iospd_report_system_text(&out, &r);
  }
  int code = EXIT_OK;
  if (out.failed) {
    err_line("out of memory formatting the system information");
    code = EXIT_RUN_FAILED;
  } else {
    out_sb(&out);
  }
  iospd_strbuf_destroy(&out);
  iospd_plat_cpu_topology_free(&r.topo);
  return code;
}

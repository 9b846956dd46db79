/* SPDX-License-Identifier: MIT */
/* The environment fingerprint on Windows (iospd/envinfo.h). */
#include <stdio.h>
#include <string.h>

#include "iospd/envinfo.h"
#include "win/internal.h"

void iospd_plat_env_query(iospd_env_t* env) {
  memset(env, 0, sizeof *env);
  snprintf(env->os_name, sizeof env->os_name, "Windows");
  SYSTEM_INFO si;
  GetNativeSystemInfo(&si);
  const char* arch = si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_AMD64
                         ? "x86_64"
                     : si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_INTEL
                         ? "x86"
                         : "";
  snprintf(env->arch, sizeof env->arch, "%s", arch);
}

void iospd_plat_env_target(const char* path, iospd_env_target_t* t) {
  (void)path;
  memset(t, 0, sizeof *t);
  t->rotational = -1;
}

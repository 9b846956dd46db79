/* SPDX-License-Identifier: MIT */
/* The environment fingerprint on Linux (iospd/envinfo.h). */
#include <string.h>
#include <sys/utsname.h>

#include "iospd/envinfo.h"
#include "posix/internal.h"

void iospd_plat_env_query(iospd_env_t* env) {
  memset(env, 0, sizeof *env);
  struct utsname u;
  snprintf(env->os_name, sizeof env->os_name, "Linux");
  if (uname(&u) == 0) {
    snprintf(env->os_release, sizeof env->os_release, "%.127s", u.release);
    snprintf(env->arch, sizeof env->arch, "%.15s", u.machine);
  }
}

void iospd_plat_env_target(const char* path, iospd_env_target_t* t) {
  (void)path;
  memset(t, 0, sizeof *t);
  t->rotational = -1;
}

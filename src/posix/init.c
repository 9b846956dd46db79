/* SPDX-License-Identifier: MIT */
/* Linux platform start-up: the system description printed in the report
 * (host name, cpufreq governor as the "power scheme", clock rate, page size)
 * and the one-time set-up of the wake-up descriptor used by waits. */
#include <stdio.h>
#include <string.h>

#include "posix/internal.h"

/* Reads the first line of a small sysfs/procfs file into buf, without the
 * newline. Returns false if the file cannot be read. */
static bool read_line(const char* path, char* buf, size_t size) {
  FILE* f = fopen(path, "re");
  if (f == NULL) return false;
  bool ok = fgets(buf, (int)size, f) != NULL;
  fclose(f);
  if (!ok) return false;
  buf[strcspn(buf, "\r\n")] = '\0';
  return true;
}

int iospd_plat_init(iospd_sysinfo_t* out, iospd_err_t* err) {
  int rc = iospd_posix_wake_init(err);
  if (rc < 0) return rc;
  if (out == NULL) return 0;
  memset(out, 0, sizeof *out);

  if (gethostname(out->computer_name, sizeof out->computer_name - 1) != 0)
    snprintf(out->computer_name, sizeof out->computer_name, "localhost");
  out->computer_name[sizeof out->computer_name - 1] = '\0';

  /* Linux has no power scheme; the cpufreq governor is the closest thing
   * (performance, powersave, schedutil, ...). Guests often have none. */
  char gov[64];
  if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", gov,
                sizeof gov) &&
      gov[0] != '\0') {
    snprintf(out->power_scheme_name, sizeof out->power_scheme_name,
             "cpufreq governor: %s", gov);
  }
  out->power_scheme_guid[0] = '\0';

  out->ticks_per_second = 1000000000u; /* iospd_plat_ticks is nanoseconds */
  long page = sysconf(_SC_PAGESIZE);
  out->page_size = page > 0 ? (uint32_t)page : 4096u;
  out->os_name = "linux";
  return 0;
}

void iospd_plat_shutdown(void) {
  iospd_posix_wake_shutdown();
  iospd_posix_cpu_shutdown();
}

/* SPDX-License-Identifier: MIT */
/* What the warnings about misleading set-ups need from Linux
 * (iospd/warnings.h): available memory, a thread's CPU time, and sample
 * reads of a target before the run. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "posix/internal.h"

uint64_t iospd_plat_mem_available(void) {
  char text[8192];
  if (!iospd_posix_read_text("/proc/meminfo", text, sizeof text)) return 0;
  const char* p = strstr(text, "MemAvailable:");
  if (p == NULL) return 0;
  unsigned long long kib = strtoull(p + strlen("MemAvailable:"), NULL, 10);
  return (uint64_t)kib * 1024u;
}

uint64_t iospd_plat_thread_cpu_ns(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t iospd_plat_process_cpu_ns(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool iospd_plat_thread_cpu_split(uint64_t* user_ns, uint64_t* sys_ns) {
  struct rusage ru;
  *user_ns = *sys_ns = 0;
  if (getrusage(RUSAGE_THREAD, &ru) != 0) return false;
  *user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
             (uint64_t)ru.ru_utime.tv_usec * 1000u;
  *sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
            (uint64_t)ru.ru_stime.tv_usec * 1000u;
  return true;
}

int iospd_plat_read_samples(const char* path, const uint64_t* offsets,
                            uint32_t n, uint32_t len, uint8_t* buf,
                            uint32_t* got, iospd_err_t* err) {
  *got = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return iospd_posix_err(err, errno, "cannot open '%s'", path);
  int rc = 0;
  for (uint32_t i = 0; i < n; i++) {
    size_t done = 0;
    while (done < len) {
      ssize_t r = pread(fd, buf + (size_t)i * len + done, len - done,
                        (off_t)(offsets[i] + done));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) rc = iospd_posix_err(err, errno, "cannot read '%s'", path);
      if (r <= 0) break;
      done += (size_t)r;
    }
    if (done < len) break;
    (*got)++;
  }
  close(fd);
  return rc;
}

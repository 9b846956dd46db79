/* SPDX-License-Identifier: MIT */
/* Linux clock: CLOCK_MONOTONIC nanoseconds as ticks, wall clock in UTC and
 * uptime. */
#include "posix/internal.h"

uint64_t iospd_plat_ticks(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void iospd_plat_utc_now(iospd_utc_time_t* out) {
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  out->year = (uint32_t)tm.tm_year + 1900;
  out->month = (uint32_t)tm.tm_mon + 1;
  out->day = (uint32_t)tm.tm_mday;
  out->hour = (uint32_t)tm.tm_hour;
  out->minute = (uint32_t)tm.tm_min;
  out->second = (uint32_t)tm.tm_sec;
}

uint64_t iospd_plat_uptime_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* SPDX-License-Identifier: MIT */
/* Windows clock: QueryPerformanceCounter ticks (frequency read once at init),
 * wall clock in UTC and uptime. */
#include "win/internal.h"

uint64_t iospd_win_qpc_freq;

uint64_t iospd_plat_ticks(void) {
  LARGE_INTEGER now;
  QueryPerformanceCounter(&now);
  return (uint64_t)now.QuadPart;
}

void iospd_plat_utc_now(iospd_utc_time_t* out) {
  SYSTEMTIME st;
  GetSystemTime(&st);
  out->year = st.wYear;
  out->month = st.wMonth;
  out->day = st.wDay;
  out->hour = st.wHour;
  out->minute = st.wMinute;
  out->second = st.wSecond;
}

uint64_t iospd_plat_uptime_ms(void) { return GetTickCount64(); }

/* SPDX-License-Identifier: MIT */
/* The rules behind the warnings about misleading set-ups
 * (iospd/warnings.h); the run gathers the numbers. */
#include "iospd/warnings.h"

static const char* const k_names[IOSPD_WARN_KIND_COUNT] = {
    "unwritten_target", "zero_data",      "page_cache",
    "generator_busy",   "queue_not_full", "threads_over_cpus",
    "cpu_unknown",      "bypass_io"};

const char* iospd_warn_kind_name(iospd_warn_kind_t k) {
  return (unsigned)k < IOSPD_WARN_KIND_COUNT ? k_names[k] : "unknown";
}

bool iospd_warn_busy(uint64_t cpu_ns, uint64_t wall_ns) {
  if (cpu_ns == 0 || wall_ns == 0) return false;
  return (double)cpu_ns * 100.0 >= (double)wall_ns * IOSPD_WARN_BUSY_PCT;
}

bool iospd_warn_queue_not_full(double latency_sum_s, double seconds,
                               uint64_t asked, double* in_flight) {
  if (asked == 0 || seconds <= 0 || latency_sum_s <= 0) return false;
  *in_flight = latency_sum_s / seconds;
  return *in_flight * 100.0 < (double)asked * IOSPD_WARN_QUEUE_PCT;
}

bool iospd_warn_page_cache(uint64_t span, uint64_t mem_available) {
  return mem_available > 0 && span > 0 && span <= mem_available;
}

bool iospd_warn_all_zero(const uint8_t* b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (b[i] != 0) return false;
  return true;
}

uint64_t iospd_warn_sample_offset(uint64_t base, uint64_t end, uint32_t len,
                                  uint32_t k, uint32_t n) {
  uint64_t first = (base + 4095u) & ~(uint64_t)4095u;
  if (end < first + len || n == 0) return first;
  uint64_t room = end - len - first; /* last start minus first start */
  uint64_t at = n > 1 ? first + room / (n - 1) * k : first;
  return at & ~(uint64_t)4095u;
}

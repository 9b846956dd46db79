/* SPDX-License-Identifier: MIT */
/* The tool's own cost figures (iospd/cost.h): plain arithmetic on what
 * the workers counted, shared by every report and the busy warning. */
#include "iospd/cost.h"
#include "iospd/stats.h"

#include <math.h>
#include <string.h>

void iospd_cost_add(iospd_cost_raw_t* dst, const iospd_cost_raw_t* src) {
  dst->user_ns += src->user_ns;
  dst->sys_ns += src->sys_ns;
  if (src->wall_ns > dst->wall_ns) dst->wall_ns = src->wall_ns;
  dst->submit_calls += src->submit_calls;
  dst->submitted += src->submitted;
  dst->waits += src->waits;
  dst->wait_completions += src->wait_completions;
}

static double ratio(double a, double b) { return b > 0 ? a / b : NAN; }

void iospd_cost_compute(const iospd_cost_raw_t* raw, uint64_t ios,
                        iospd_cost_t* out) {
  memset(out, 0, sizeof *out);
  out->ios = ios;
  uint64_t cpu = raw->user_ns + raw->sys_ns;
  bool known = cpu > 0;
  double n = (double)ios;
  out->user_us_per_io = known ? ratio((double)raw->user_ns / 1e3, n) : NAN;
  out->sys_us_per_io = known ? ratio((double)raw->sys_ns / 1e3, n) : NAN;
  out->cpu_us_per_io = known ? ratio((double)cpu / 1e3, n) : NAN;
  out->busy_cores = known ? ratio((double)cpu, (double)raw->wall_ns) : NAN;
  out->iops_per_core = known ? n / ((double)cpu / 1e9) : NAN;
  out->completions_per_wait =
      ratio((double)raw->wait_completions, (double)raw->waits);
  out->ios_per_submit = ratio((double)raw->submitted, (double)raw->submit_calls);
}

bool iospd_thread_busy_ns(const iospd_thread_result_t* th, uint64_t* cpu_ns,
                          uint64_t* wall_ns) {
  *cpu_ns = *wall_ns = 0;
  if (th == NULL) return false;
  uint64_t cost_cpu = th->cost.user_ns + th->cost.sys_ns;
  if (th->cost.wall_ns > 0 && cost_cpu > 0) {
    *cpu_ns = cost_cpu;
    *wall_ns = th->cost.wall_ns;
  } else {
    *cpu_ns = th->cpu_ns;
    *wall_ns = th->wall_ns;
  }
  return *cpu_ns > 0 && *wall_ns > 0;
}

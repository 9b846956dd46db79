/* SPDX-License-Identifier: MIT */
/* Names shared by the per-interval outputs (time series, status line). */
#include "iospd/series.h"

const char* iospd_phase_name(iospd_phase_t phase) {
  switch (phase) {
    case IOSPD_PHASE_WARMUP: return "warm-up";
    case IOSPD_PHASE_MEASURE: return "measuring";
    case IOSPD_PHASE_COOLDOWN: return "cool-down";
    case IOSPD_PHASE_STOP: return "stopping";
  }
  return "unknown";
}

/* SPDX-License-Identifier: MIT */
/* The controller: creates files (-c), starts one worker per thread, runs the
 * phases (warm-up, measure, cool-down) of every timespan, stops, joins and
 * merges statistics into a results tree. */
#ifndef IOSPD_RUN_H
#define IOSPD_RUN_H

#include <stdatomic.h>

#include "iospd/message.h"
#include "iospd/profile.h"
#include "iospd/series.h"
#include "iospd/stats.h"

/* The clock of the running timespan, for the live status line. */
typedef struct iospd_run_tick_s {
  uint32_t timespan;       /* 0-based index of the timespan */
  uint32_t timespan_count; /* timespans in the profile */
  iospd_phase_t phase;
  uint64_t elapsed_ms;     /* since the timespan started (warm-up included) */
  uint64_t remaining_ms;   /* until it ends as planned (cool-down included) */
} iospd_run_tick_t;

typedef struct iospd_run_hooks_s {
  /* Called from the controller thread with a message for the user: its
   * kind (iospd/message.h: a -v line, a DISKSPD or iospd warning, a note,
   * a workload's account of what it prepares, verify-only progress) and
   * its text without the kind's prefix, which the printer adds
   * (iospd_app_message). May be NULL. */
  void (*message)(void* ctx, iospd_msg_kind_t kind, const char* text);
  /* Called from worker threads for -P progress dots; must be cheap and
   * lock-free for the caller (main.c writes one '.'). May be NULL. */
  void (*progress_dot)(void* ctx);
  void* ctx;
  /* Tests with the fake platform (tests/fake_plat.c): no threads are
   * started; the calling thread sets up every worker and steps them in turn
   * against the platform's virtual clock, so runs are deterministic. Leave
   * false for real runs. */
  bool cooperative;
  /* Called once, from the controller thread, when the run notices Ctrl-C
   * (main.c prints DISKSPD's "*** Interrupted by Ctrl-C ..." line). May be
   * NULL. iospd_run installs its own iospd_plat_on_interrupt callback. */
  void (*interrupted)(void* ctx);
  /* Called from the controller thread when an interval ends (see
   * iospd/series.h), in every phase, for the time series and the live
   * status. May be NULL; when NULL and the profile needs no time series,
   * the run keeps no per-interval data beyond what -D asks. */
  void (*interval)(void* ctx, const iospd_interval_t* iv);
  /* Called from the controller thread while a timespan runs (warm-up,
   * measuring, cool-down), at each of its waits: at least every
   * IOSPD_POLL_MS (10 times a second), more often while intervals are
   * collected. For the live status line's clock between intervals
   * (-D5000). Must be cheap. May be NULL. */
  void (*tick)(void* ctx, const iospd_run_tick_t* t);
} iospd_run_hooks_t;

/* Runs every timespan of a validated profile. Fills out (caller frees with
 * iospd_results_destroy). Returns 0 on success; on failure a negative
 * IOSPD_E* with err set, and out still holds whatever was measured.
 *
 * Who fills what: the caller fills out->sys (main: iospd_plat_init(&out->sys,
 * ...), which must run first anyway) and may fill out->topo; iospd_run
 * fetches the topology itself when out->topo.cpu_count is 0. The caller
 * frees out->topo with iospd_plat_cpu_topology_free after
 * iospd_results_destroy. iospd_run fills everything else: profile,
 * timespans, engine_name (static storage) and run_time (taken after the
 * run). hooks may be NULL. */
int iospd_run(const iospd_profile_t* p, const iospd_run_hooks_t* hooks,
              iospd_results_t* out, iospd_err_t* err);

/* Frees what the workload added to out beyond iospd_results_destroy's
 * share (the tree's report profile in out->profile when it is not p, and
 * out->tree). Call after iospd_results_destroy. */
void iospd_run_release(iospd_results_t* out, const iospd_profile_t* p);

/* ---- many runs in one process (a mode that decides its next run) --------
 * One run = one call of iospd_run_in: it runs every timespan of the
 * profile with whatever workload the profile names (iospd/workload.h) and
 * returns the results as data in out, as iospd_run does. Nothing of one
 * call is left for the next (events, latches, engine names, counters live
 * in the call) except what the caller's session holds: Ctrl-C, which is
 * the process's. Once it was pressed, the running call ends as after
 * Ctrl-C (its results kept) and every later call with the same session
 * returns 0 at once with no timespans, so the mode stops between runs and
 * keeps everything so far. iospd_run is iospd_run_in with a session of
 * its own, reset at each call.
 *
 *   iospd_run_session_t s;
 *   iospd_run_session_init(&s);
 *   while (more && !iospd_run_session_interrupted(&s)) {
 *     build profile; iospd_run_in(&s, &profile, &hooks, &results[k], &err);
 *     look at results[k]; decide the next profile;
 *   } */
struct iospd_workload_s;
typedef struct iospd_run_session_s {
  _Atomic uint32_t interrupted; /* Ctrl-C or SIGTERM seen */
  /* The workload the runs use; NULL (what init sets): the one the profile
   * names (iospd_workload_of). A test puts its own here to hold a worker
   * in a state no real target reaches on demand (a set-up that hangs). */
  const struct iospd_workload_s* workload;
} iospd_run_session_t;
void iospd_run_session_init(iospd_run_session_t* s);
bool iospd_run_session_interrupted(const iospd_run_session_t* s);
int iospd_run_in(iospd_run_session_t* s, const iospd_profile_t* p,
                 const iospd_run_hooks_t* hooks, iospd_results_t* out,
                 iospd_err_t* err);

#endif

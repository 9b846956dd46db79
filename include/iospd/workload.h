/* SPDX-License-Identifier: MIT */
/* What a worker does, behind one small table. The controller (src/run/run.c)
 * is the only host of a timespan: it runs the phases and their deadlines,
 * the start gates, the -y events, Ctrl-C and SIGTERM, -v, -P, the CPU
 * snapshots, affinity, the interval feed (--timeseries, --progress, the
 * HTML report) and the warnings. A workload only says how a worker sets
 * itself up, what it does between the start gate and the stop, and how it
 * tears down, plus what the controller prepares before and collects after.
 *
 * Dispatch is per worker run (threaded) or per pass (cooperative, the fake
 * platform's tests), never per I/O: the block loop's hot path is the same
 * direct code it always was.
 *
 * The workloads: block I/O on the targets (src/run/engine.c, the default),
 * the file tree (--tree, src/tree/tree_run.c), the checking pass
 * (--verify-only, src/run/verify_only.c). */
#ifndef IOSPD_WORKLOAD_H
#define IOSPD_WORKLOAD_H

#include "iospd/common.h"
#include "iospd/error.h"
#include "iospd/profile.h"
#include "iospd/stats.h"

struct iospd_worker_s;
struct iospd_run_hooks_s;
struct iospd_run_session_s;
struct iospd_timespan_result_s;

/* Switch classes a workload refuses, because they have no meaning for it
 * (the profile check names the switch and the reason; docs/tree.md lists
 * the tree's). */
enum {
  IOSPD_WL_NO_TARGET_FILES = 1u << 0, /* -c, -B, -f, -T, -rs, -rd: a target's
                                         own byte ranges */
  IOSPD_WL_NO_MAPPED = 1u << 1,       /* -Sm */
  IOSPD_WL_NO_VERIFY = 1u << 2,       /* --verify, --verify-only */
  IOSPD_WL_NO_SHARED_SLOTS = 1u << 3, /* -F, -O, ThreadTargets */
  IOSPD_WL_NO_FLUSH = 1u << 4,        /* -N */
  IOSPD_WL_NO_RANDOM_DATA = 1u << 5,  /* -Z<size>, -Zr */
};

typedef struct iospd_workload_s {
  const char* name;
  /* IOSPD_WL_NO_*: what the workload refuses, for the modes and docs.
   * The messages naming each switch are the profile check's
   * (src/profile/profile_validate.c, a layer below this one). */
  uint32_t refuses;
  /* The timespan's targets are files or devices the controller prepares:
   * -c, the existence and safety checks, --verify state files, -Z sources,
   * the set-up warnings. False: the workload prepares its own. */
  bool block_targets;
  /* Every worker binds every target of the timespan (the tree's hot and
   * cold classes), threads_per_file of the first target being the thread
   * count; false: DISKSPD's -t / -F layout. */
  bool every_target;
  /* Each -o slot of a thread is a worker of its own (a synchronous
   * workload keeps one I/O in flight per worker): -t T -o N runs T x N
   * workers, worker i being slot i mod N of thread i / N (its CPU by -a),
   * and collect folds each thread's workers into one thread result. Only
   * with every_target. */
  bool slot_workers;
  /* The measured phase has no deadline: it ends when every worker's run
   * has returned (a pass over its targets: --verify-only), or on Ctrl-C,
   * -yp or a failure. No warm-up, no cool-down; -d is not read. */
  bool ends_itself;

  /* Controller, once per run before the first timespan. May put in *run
   * the profile the timespans run and the reports show (the tree's hot and
   * cold classes); *state is the workload's, passed to every other call
   * (also when prepare fails: finish frees it). A long preparation stops
   * when the session is interrupted (IOSPD_EINTR). NULL: nothing to
   * prepare. */
  int (*prepare)(const iospd_profile_t* p,
                 const struct iospd_run_hooks_s* hooks,
                 const struct iospd_run_session_s* session, iospd_results_t* out,
                 const iospd_profile_t** run, void** state, iospd_err_t* err);
  /* Worker thread, before the start gate: its own handles, buffers and
   * statistics; it may keep its per-worker data in w->wl_state (NULL for
   * the block loop, whose data is the worker itself). */
  int (*setup)(void* state, struct iospd_worker_s* w, iospd_err_t* err);
  /* After the start gate: begin, then one pass at a time (cooperative). A
   * pass returns true once the worker has stopped and nothing is in
   * flight. */
  void (*begin)(struct iospd_worker_s* w);
  bool (*pass)(struct iospd_worker_s* w);
  /* After the start gate, threaded: the whole loop until the stop. */
  void (*run)(struct iospd_worker_s* w);
  /* Releases what setup took; the statistics stay. Safe twice. */
  void (*teardown)(struct iospd_worker_s* w);
  /* The worker's first failure as a message; 0 if none. */
  int (*error)(const struct iospd_worker_s* w, iospd_err_t* err);
  /* Controller, after the join of every timespan: adds what the workload
   * measured beyond the per-target statistics. NULL: nothing. */
  int (*collect)(void* state, struct iospd_worker_s* const* w, uint32_t n,
                 struct iospd_timespan_result_s* tsr, iospd_err_t* err);
  /* Controller, after the last timespan, whatever happened (rc is the run's
   * result so far): fills the workload's report section in out (the tree's
   * out->tree) and frees state. Returns rc or a later failure. */
  int (*finish)(void* state, const struct iospd_run_hooks_s* hooks,
                iospd_results_t* out, int rc, iospd_err_t* err);
} iospd_workload_t;

/* The block I/O workload (src/run/engine.c). */
extern const iospd_workload_t iospd_workload_block;
/* The file tree (--tree, src/tree/tree_run.c). */
extern const iospd_workload_t iospd_workload_tree;
/* One checking pass over each target (--verify-only, src/run/verify_only.c):
 * its summary is out->vonly. */
extern const iospd_workload_t iospd_workload_vonly;

/* The workload a profile runs. */
const iospd_workload_t* iospd_workload_of(const iospd_profile_t* p);

#endif

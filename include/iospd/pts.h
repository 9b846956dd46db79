/* SPDX-License-Identifier: MIT */
/* --pts=iops|throughput|latency (issue #28, docs/pts.md): SNIA SSS PTS
 * 2.0.2's procedure on one target: workload-independent preconditioning
 * (WIPC: 128 KiB sequential writes over twice the capacity), then rounds
 * of the test's matrix of cells (block size x read/write mix), the
 * steady-state test (iospd/steady_state.h) after every round from the
 * fifth, until steady state or 25 rounds. A mode of many runs
 * (docs/design.md, "A mode that runs many timespans"): each cell is one
 * iospd_run_in call of a profile built from the user's. */
#ifndef IOSPD_PTS_H
#define IOSPD_PTS_H

#include "iospd/profile.h"
#include "iospd/run.h"
#include "iospd/steady_state.h"
#include "iospd/strbuf.h"

/* The tests (profile->ext.pts.test; 0 = no --pts). */
enum {
  IOSPD_PTS_OFF = 0,
  IOSPD_PTS_IOPS,
  IOSPD_PTS_THROUGHPUT,
  IOSPD_PTS_LATENCY
};
#define IOSPD_PTS_CELL_S 60u           /* PTS: one minute per cell */
#define IOSPD_PTS_WIPC_BLOCK 131072u   /* WIPC: 128 KiB writes */

/* --pts-purge (profile->ext.pts.purge): the words "none", "trim",
 * "secure" (the switch's and the JSON's), or NULL out of range. */
enum { IOSPD_PTS_PURGE_NONE = 0, IOSPD_PTS_PURGE_TRIM, IOSPD_PTS_PURGE_SECURE,
       IOSPD_PTS_PURGE_COUNT };
const char* iospd_pts_purge_word(int purge);

/* "iops", "throughput", "latency" (the --pts= words), or NULL. */
const char* iospd_pts_test_word(int test);

/* The matrix a test runs: block sizes (bytes) and read percentages in the
 * order PTS runs them (mix outer, block size inner). */
typedef struct iospd_pts_matrix_s {
  uint32_t bs[IOSPD_PTS_MAX_BS];
  uint32_t nbs;
  uint32_t read_pct[IOSPD_PTS_MAX_MIX];
  uint32_t nmix;
  bool random; /* random or sequential access */
} iospd_pts_matrix_t;

/* The test's own matrix and the cell whose value is tracked. */
void iospd_pts_matrix_of(int test, iospd_pts_matrix_t* m,
                         uint32_t* tracked_bs, uint32_t* tracked_read);

typedef struct iospd_pts_cell_s {
  uint32_t bs, read_pct;
  bool random;
  double seconds;
  double iops, mib_per_s;
  double lat_mean_us, lat_max_us, p99_us, p999_us, p9999_us; /* < 0: none */
} iospd_pts_cell_t;

typedef struct iospd_pts_round_s {
  uint32_t n; /* 1-based */
  double tracked;
  iospd_pts_cell_t* cells; /* owned */
  uint32_t ncells;
} iospd_pts_round_t;

typedef enum iospd_pts_stop {
  IOSPD_PTS_STOP_STEADY = 0,
  IOSPD_PTS_STOP_MAX_ROUNDS,
  IOSPD_PTS_STOP_INTERRUPTED,
  IOSPD_PTS_STOP_FAILED
} iospd_pts_stop_t;
/* "steady", "max_rounds", "interrupted", "failed". */
const char* iospd_pts_stop_word(iospd_pts_stop_t s);

typedef struct iospd_pts_result_s {
  int test;
  uint32_t cell_s;
  iospd_pts_matrix_t matrix;
  uint32_t tracked_bs, tracked_read;
  iospd_ss_limits_t limits;
  /* Why the run is not a conformant PTS run, one reason a line (each
   * line ends in '\n'); empty: conformant. */
  iospd_strbuf_t reasons;
  /* The target. */
  const char* path;   /* borrowed from the profile */
  const char* kind;   /* "disk", "volume", "file" */
  uint64_t capacity;  /* bytes */
  uint32_t threads, outstanding;
  uint64_t ticks_per_second; /* the platform clock's */
  const char* engine;        /* the cells' engine (static storage) */
  /* The purge before preconditioning (--pts-purge). */
  int purge;
  double purge_seconds;
  /* WIPC */
  bool wipc_done;
  uint64_t wipc_bytes, wipc_writes;
  double wipc_seconds;
  /* Rounds */
  iospd_pts_round_t rounds[IOSPD_SS_MAX_ROUNDS_PTS];
  uint32_t nrounds;
  uint32_t resumed_rounds; /* rounds taken from --pts-resume's document */
  iospd_ss_window_t window; /* the last window (!valid before round 5) */
  bool converged;
  iospd_pts_stop_t stopped;
  bool interrupted;
  char error[IOSPD_ERR_MSG_MAX]; /* why it failed ("" if it did not) */
  iospd_strbuf_t seen; /* the cells' warnings already told */
} iospd_pts_result_t;

/* What the mode tells the user while it runs (the status line, notes):
 * text is one line without a newline. May be NULL. */
typedef struct iospd_pts_hooks_s {
  void (*status)(void* ctx, const char* text);
  void (*message)(void* ctx, iospd_msg_kind_t kind, const char* text);
  void* ctx;
  bool cooperative; /* the fake platform (tests) */
} iospd_pts_hooks_t;

/* WIPC alone: 128 KiB sequential writes from offset 0 over twice the
 * capacity of the target (wrapping at its end), depth outstanding, the
 * target's -S cache flags; progress through hooks->status; stops between
 * batches once the session is interrupted. Fills r->wipc_*. */
int iospd_pts_wipc(iospd_run_session_t* s, const iospd_profile_t* p,
                   const iospd_pts_hooks_t* hooks, iospd_pts_result_t* r,
                   iospd_err_t* err);

/* The whole procedure on the profile's one target. r is initialised here
 * and freed with iospd_pts_result_free. Returns 0 (r->stopped says how it
 * ended) or a negative IOSPD_E* with err set (IOSPD_EUSAGE: bad input).
 * resume (may be NULL): an interrupted run read back (--pts-resume; the
 * app reads the document): its set-up must be this run's (else
 * IOSPD_EUSAGE naming what differs); its rounds move into r, purge and
 * preconditioning are not repeated, and the next round runs. */
int iospd_pts_run(const iospd_profile_t* p, const iospd_sysinfo_t* sys,
                  const iospd_pts_hooks_t* hooks, iospd_pts_result_t* resume,
                  iospd_pts_result_t* r, iospd_err_t* err);
void iospd_pts_result_free(iospd_pts_result_t* r);

#endif

/* SPDX-License-Identifier: MIT */
/* One worker: its targets, request slots, buffers and queue, and the hot
 * loop that keeps the slots busy (docs/design.md, 'The I/O loop'). run.c fills the
 * layout (which targets, how many slots, where the statistics go); the
 * worker allocates everything itself in iospd_worker_setup, on its own
 * thread, before the start barrier. The loop allocates nothing, takes no
 * lock and formats nothing. */
#ifndef IOSPD_ENGINE_H
#define IOSPD_ENGINE_H

#include <stdatomic.h>

#include "iospd/common.h"
#include "iospd/content.h"
#include "iospd/series.h"
#include "iospd/error.h"
#include "iospd/gen.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "iospd/rand.h"
#include "iospd/stats.h"
#include "iospd/verify.h"

/* Room for the completions of one reap: DISKSPD dequeues up to 16 per
 * GetQueuedCompletionStatusEx. How many a pass takes is the platform's
 * iospd_queue_traits_t reap_batch, at most this. */
#define IOSPD_REAP_MAX 16u
#define IOSPD_POLL_MS 100u       /* longest wait before the phase is re-read */
#define IOSPD_DRAIN_MS 10000u    /* stop waiting for in-flight I/O after this */

/* The phases (enum iospd_phase) are in iospd/series.h. */

/* Written by the controller, read by every worker once per reaped batch.
 * measure_start_ticks and the deadlines are stored before phase becomes
 * MEASURE (release), so a worker that sees MEASURE (acquire) sees them. */
typedef struct iospd_engine_ctl_s {
  _Alignas(IOSPD_CACHELINE) _Atomic uint32_t phase;
  _Atomic uint32_t failed;      /* a worker failed: all stop issuing */
  _Atomic uint32_t interrupted; /* Ctrl-C seen (set from any thread) */
  uint64_t measure_start_ticks;
  /* Once MEASURE is set, a worker whose clock passes measure_end_ticks
   * counts no more (cool-down), and past stop_ticks stops, whether or not
   * the controller has woken up to say so. UINT64_MAX until then. */
  _Atomic uint64_t measure_end_ticks;
  _Atomic uint64_t stop_ticks;
  uint64_t ticks_per_second;
  uint32_t experiment_flags; /* -: (bit 0: longer throttle waits) */
  uint32_t progress;         /* -P: a dot every n completions, 0 = off */
  void (*progress_dot)(void* ctx);
  void* progress_ctx;
  /* When warm-up began, stored before the workers are let go: the origin
   * of the warm-up's intervals (src/run/interval_feed.h). */
  uint64_t warmup_start_ticks;
  /* -bs (DISKSPD 2.3): each target buffer of a worker starts on a multiple
   * of this many bytes (iospd/bufsep.h); 0 = the allocator's placement. */
  uint64_t buffer_separation;
} iospd_engine_ctl_t;

/* One target as one worker sees it. */
typedef struct iospd_wtarget_s {
  /* Layout, filled by run.c. */
  const iospd_target_t* t;
  uint32_t target_index;      /* in the timespan */
  uint32_t relative_thread;   /* DISKSPD's relative thread number */
  uint32_t slot_count;        /* -o, or -O for shared slots (buffer size) */
  uint32_t weight;            /* -O target choice weight */
  uint32_t burst;             /* -i divided among the target's threads */
  iospd_gen_shared_t* shared; /* -si cursor of the target */
  const uint8_t* rnd_src;     /* -Z<size> source buffer, or NULL */
  uint64_t rnd_src_size;
  uint32_t rnd_align; /* -Z windows start at multiples of this (setup) */
  const iospd_content_pool_t* pool; /* --compress/--dedupe, or NULL */
  iospd_content_writer_t content;   /* set up with the buffers */
  iospd_target_stats_t* stats; /* results entry; init by setup */
  /* Set up by iospd_worker_setup. */
  iospd_plat_file_t* file;
  uint32_t file_index;
  uint64_t file_size;
  iospd_bypass_result_t bypass; /* -Sy/-SY: what BypassIO bypassed */
  iospd_gen_t gen;
  uint8_t* buf; /* read half, then write half; bs * slot_count each */
  size_t buf_len;
  /* Throttle (-g, -i/-j), 2.7. */
  uint64_t meter_start;
  uint64_t issued_bytes;
  uint64_t think_until;
  uint32_t burst_count;
  bool throttled; /* -g or -i/-j in force; false skips the throttle */
  /* --verify (layout, run.c): the target's state, shared by every thread
   * of the target, or NULL when off; what goes into each header; where the
   * counts go; and the clock origin of the headers' time stamps. */
  iospd_vstate_t* vstate;
  iospd_vstamp_t vstamp;
  iospd_vcounts_t* vcounts;
  uint64_t vtime_ns, vtime_ticks;
  /* Nothing in this run writes the target (every target on this state
   * file is -w0, and the state file admits one process): a read needs no
   * snapshot at issue, only a prefetch of its word. */
  bool vreadonly;
} iospd_wtarget_t;

typedef struct iospd_slot_s {
  iospd_io_t io;        /* tag = slot index */
  uint64_t issue_ticks; /* right before the OS call that took it */
  uint64_t cursor;      /* -p: this slot's own sequential cursor */
  uint32_t target;      /* index into the worker's targets */
  uint32_t index;       /* position of its buffers in the target's buffer */
  uint64_t vword;       /* --verify read: the block's state word at issue */
  uint64_t vgen;        /* --verify write: the generation stamped */
  /* Set right before the OS call that takes the I/O, cleared by its
   * completion: a completion for a slot without it is a stray (a second
   * packet for one I/O) and is dropped, so the slot cannot be counted or
   * queued in ready[] twice. */
  bool in_flight;
} iospd_slot_t;

/* Where a worker's first failure happened (iospd_worker_fail_t.in_io). */
enum {
  IOSPD_FAIL_COMPLETION = 1, /* a completion failed */
  IOSPD_FAIL_SUBMIT = 2,     /* handing I/Os to the queue failed */
  IOSPD_FAIL_REAP = 3,       /* waiting for completions failed */
  IOSPD_FAIL_SHORT = 4       /* a completion moved too few bytes */
};

/* First failure of a worker; formatted into a message after the loop. */
typedef struct iospd_worker_fail_s {
  int code;  /* IOSPD_E*, 0 if none */
  int in_io; /* IOSPD_FAIL_* */
  uint8_t op;
  uint32_t target; /* worker target index */
  uint64_t offset;
  /* IOSPD_FAIL_SHORT and a failed mapped access: what moved, and the target's
   * size at the start and when the failure was seen (size_now_known false if it
   * could not be read). */
  uint32_t bytes, length;
  uint64_t size_start, size_now;
  bool size_now_known;
  int64_t os_code;   /* the queue's native code for it, or 0 */
  char os_text[192]; /* its system text and number (platform's words) */
} iospd_worker_fail_t;

typedef struct iospd_worker_s {
  /* Layout, filled by run.c. */
  uint32_t id; /* global thread number */
  const iospd_profile_t* profile;
  const iospd_timespan_t* ts;
  iospd_engine_ctl_t* ctl;
  iospd_thread_opts_t affinity;
  iospd_wtarget_t* targets;
  uint32_t target_count;
  bool shared_slots;        /* -O: slot_count slots, target picked per I/O */
  uint32_t slot_count;      /* total slots */
  iospd_wait_stats_t* wait; /* results entry */
  /* The tool's own cost (iospd/cost.h), results entry; the worker reads
   * its CPU times as it sees measuring begin (cost_*0) and end. */
  iospd_cost_raw_t* cost;
  bool cost_measuring;
  uint64_t cost_user0, cost_sys0, cost_ticks0;
  /* Set up by iospd_worker_setup. */
  iospd_rand_t rng;
  iospd_slot_t* slots;
  uint32_t* ready; /* FIFO of slot indices ready to issue */
  uint32_t ready_count;
  iospd_io_t* pending; /* generated, not yet accepted by the queue */
  uint32_t pending_count;
  iospd_plat_queue_t* q;
  iospd_cqe_t cqe[IOSPD_REAP_MAX];
  uint32_t reap_max; /* completions per pass (see iospd_worker_setup) */
  bool submit_each;  /* hand I/Os over one per call (queue traits) */
  /* -u (DISKSPD 2.3): I/Os handed over per submit call, 0 without -u
   * (src/run/worker_ring.c). */
  uint32_t ring_batch;
  /* The wait about to be made is counted in wait->completion_wait or
   * throttle_wait, so its completions go into completion_wait_hist. */
  bool wait_counted;
  uint32_t inflight;
  uint64_t now; /* tick of the last reaped batch */
  uint64_t ticks_per_ms;
  uint64_t ns_mult; /* ns = ticks * ns_mult when exact, else by ns_per_tick */
  double ns_per_tick;
  uint32_t weight_total;
  bool weights_equal;
  uint64_t progress_left;
  bool begun, stopping, finished;
  /* I/O may still be in the kernel (drain timeout, broken queue): only
   * this thread may cancel and drain it, so it tears down itself. */
  bool self_teardown;
  uint64_t stop_ticks; /* when stopping began (drain timeout) */
  iospd_worker_fail_t fail;
  /* I/Os given up after the stop: still in flight at the drain timeout,
   * or cancelled out of a blocking call by the controller (warned about
   * after the run; not a failure of the run). */
  uint64_t abandoned;
  /* Completions for a slot with no I/O in flight (a platform or driver
   * delivering one I/O twice): dropped and warned about after the run. */
  uint64_t stray_completions;
  /* I/Os that moved fewer bytes than asked but all the bytes up to the
   * end the target had at the start (an I/O that runs past it, as a
   * trimmed -rdabs range allows): counted with the bytes moved and reported
   * after the run, as DISKSPD's "transferred n bytes instead of" warning.
   * Any other short transfer fails the run (see complete() in engine.c). */
  uint64_t short_count;
  uint32_t short_first_bytes, short_first_length;
  uint64_t short_first_offset;
  /* The thread's CPU time and wall time over iospd_worker_run, for the
   * "generator busy" warning (iospd/warnings.h); 0 when unknown. */
  uint64_t cpu_ns, wall_ns;
  iospd_err_t setup_err; /* why setup failed */
  int setup_rc;
  /* Per-interval accounting for hooks->interval (src/run/interval_feed.h),
   * or NULL when nobody asked for it: then the hot path pays one branch. */
  struct iospd_wseries_s* series;
  /* --verify: the first failures this worker met (vfail_cap of them, in
   * its results entry; the rest are only counted). */
  iospd_vfail_t* vfails;
  uint32_t vfail_cap, vfail_count;
  /* What this worker does (iospd/workload.h) and that workload's state
   * for it (NULL for the block loop, which keeps everything above). */
  const struct iospd_workload_s* wl;
  void* wl_state;
} iospd_worker_t;

/* On the worker's thread, before the start barrier: opens the targets (one
 * handle per target), finds their sizes, sets up generators (seed = -z +
 * id), buffers, statistics, slots and the queue. On failure returns a
 * negative IOSPD_E* with err naming the target and the failing call; what
 * was set up is released by iospd_worker_teardown. */
int iospd_worker_setup(iospd_worker_t* w, iospd_err_t* err);

/* After the start barrier: starts the throttle meters and fills every slot
 * that may issue. */
void iospd_worker_begin(iospd_worker_t* w);

/* Hot path. One pass: issue what the throttle allows, submit, reap one
 * batch, record it. Returns true once the worker has stopped (phase STOP or
 * a failure) and nothing is in flight. */
bool iospd_worker_pass(iospd_worker_t* w);

/* The thread body after the barrier: begin, then pass until done. */
void iospd_worker_run(iospd_worker_t* w);

/* Releases the queue (which cancels and drains), handles, buffers and
 * generators. Statistics stay (they belong to the results). Safe after a
 * failed setup, and a second call does nothing. With nothing in flight
 * (!self_teardown) any thread may call it once the worker's thread is done. */
void iospd_worker_teardown(iospd_worker_t* w);

/* Formats the worker's first failure into err (target, call, offset).
 * Returns the code, or 0 if the worker did not fail. */
int iospd_worker_error(const iospd_worker_t* w, iospd_err_t* err);

/* Open flags for a target (how DISKSPD opens targets): access from -w, caching, hints, priority;
 * async when the worker has more than one slot. */
unsigned iospd_open_flags(const iospd_target_t* t, uint32_t worker_slots);

/* The engine index a worker's queue is created with: the profile's
 * (--engine=) without -u; with -u the platform's ring engine (the row with
 * IOSPD_ENGINE_CAP_RING: io_uring on Linux, IoRing on Windows), which an
 * --engine= naming another engine contradicts (IOSPD_EINVAL, naming both),
 * and which a platform without one cannot give (IOSPD_ENOTSUP). The
 * worker and -Rp ask it (src/run/worker_ring.c). */
int iospd_ring_engine(const iospd_profile_t* p, const iospd_timespan_t* ts,
                      int* engine, iospd_err_t* err);

/* -Z<size> write sources are allocated at this alignment (run.c). */
#define IOSPD_RND_SRC_ALIGN 4096u
/* Where -Z windows may start under unbuffered I/O (-Su/-Sh): the buffer
 * alignment the device asks for (the logical sector when it does not
 * say), never less than DISKSPD's 512 bytes. Windows checks buffer
 * addresses against the device's alignment requirement, not the sector
 * size, so a 4Kn disk usually still takes 512-byte windows. */
uint32_t iospd_rnd_window_align(const iospd_file_info_t* info);

#endif

/* SPDX-License-Identifier: MIT */
/* Test controls of tests/fake_plat.c, the in-memory platform: files,
 * a virtual clock in nanoseconds, scripted latencies, errors, short
 * submits and Ctrl-C, and the log of every I/O the engine issued. */
#ifndef IOSPD_FAKE_PLAT_H
#define IOSPD_FAKE_PLAT_H

#include "iospd/platform.h"

typedef struct fake_io_s {
  uint32_t queue; /* queue number in creation order (= worker order) */
  uint32_t tag;
  uint8_t op;
  uint32_t file; /* fake file number */
  uint64_t offset;
  uint32_t length;
  const void* buf; /* the buffer the engine handed over */
  uint64_t submit_ns;
  uint64_t done_ns;   /* when it completes */
  uint64_t reaped_ns; /* when the engine reaped it; 0 = never */
  int32_t result;
  bool measured; /* reaped between the two CPU snapshots */
} fake_io_t;

/* Forget everything (files, log, scripts); clock back to 1 s. */
void fake_reset(void);

/* Files. Returns the file number. Content pattern: byte i = fill ? i&0xff : 0.
 */
int fake_add_file(const char* path, uint64_t size, bool pattern);
void fake_set_device(const char* path, bool has_partitions, bool has_filesystem,
                     const char* content);
void fake_set_sector(const char* path, uint32_t logical);
/* The buffer alignment the file reports (iospd_file_info_t.buffer_align). */
void fake_set_buffer_align(const char* path, uint32_t align);
const uint8_t* fake_file_data(const char* path, uint64_t* size);
int fake_file_creates(const char* path); /* times file_create was called */
/* iospd_plat_discard_device calls on path (--pts-purge), and whether the
 * last was secure. */
int fake_discards(const char* path, bool* secure);
/* File creation reports this warning line, as Windows does its fallbacks. */
void fake_set_create_warning(iospd_msg_kind_t kind, const char* text);
unsigned fake_file_open_flags(const char* path); /* last open's flags */
/* What iospd_plat_file_unwritten says of path (an existing fake file; a
 * new or re-created one is fully written and known). */
void fake_set_unwritten(const char* path, bool known, uint64_t holes,
                        uint64_t unwritten);
/* The next -c of path (an existing fake file) passes note (if not NULL or
 * empty) to progress->note and, with interrupt, plays Ctrl-C during the
 * fill: IOSPD_EINTR, the file left as it was. */
void fake_create_script(const char* path, bool interrupt, const char* note);

/* What iospd_plat_mem_available and iospd_plat_thread_cpu_ns answer (0,
 * the default: unknown). */
void fake_set_mem_available(uint64_t bytes);
void fake_set_thread_cpu_ns(uint64_t ns);
/* iospd_plat_thread_cpu_split: user and system time grow by user_ppm and
 * sys_ppm nanoseconds per virtual millisecond (0, 0: off). */
void fake_set_thread_cpu_rates(uint32_t user_ppm, uint32_t sys_ppm);

/* The nth call of iospd_plat_cpu_times since fake_reset (1-based: 1 the
 * snapshot at the start of measuring, 2 the one at its end) fails with
 * IOSPD_EACCES; 0 (the default) = none fails. */
void fake_fail_cpu_times(uint32_t nth);

/* Devices answer iospd_plat_cached_device_align as Windows does (their
 * logical sector) when on, as Linux does (0) when off, the default. */
void fake_set_cached_device_align(bool on);

/* What iospd_plat_queue_os_error answers for every queue (0: none). */
void fake_set_os_error(int64_t code, const char* text);

/* Latency of the n-th submitted I/O (0-based) = lat[n % count] ns. */
void fake_set_latencies(const uint64_t* lat, uint32_t count);
/* The n-th submitted I/O completes with result instead of its length: a
 * negative IOSPD_E*, or a byte count (0 or short) that moves nothing. */
void fake_fail_io(uint64_t n, int32_t result);
/* The nth I/O (0-based, in submission order) completes twice: a second
 * completion with the same tag and result follows it in the same reap. */
void fake_duplicate_completion(uint64_t n);
/* Each submit call accepts at most max I/Os (0 = no limit); the first
 * refuse_calls calls accept none. */
void fake_short_submits(uint32_t max, uint32_t refuse_calls);
/* Another process truncates (or extends) the file to size when the virtual
 * clock reaches at_ns; later I/Os see the new end as pread/pwrite would. */
void fake_truncate_at(const char* path, uint64_t size, uint64_t at_ns);
/* Ctrl-C when the virtual clock reaches at_ns. */
void fake_interrupt_at(uint64_t at_ns);

/* Named events (-y): the event becomes set when the virtual clock reaches
 * at_ns (0 = now), whoever created it. */
void fake_event_set_at(const char* name, uint64_t at_ns);
/* Virtual time the event was first set (by the run or by
 * fake_event_set_at), 0 if never; -1 as uint64 if it was never opened. */
uint64_t fake_event_set_time(const char* name);
/* The next open of the event reports that it found the event left set by
 * dead processes and reset it (iospd_plat_event_was_stale). */
void fake_event_left_stale(const char* name);

/* iospd_plat_queue_traits of every queue (default: false, 16, 2). */
void fake_set_queue_traits(bool submit_each, uint32_t reap_batch,
                           uint32_t reap_batch_unbuffered);
/* Each submitted I/O moves the clock on by ns inside the submit call, as
 * a Windows ReadFile that copies from the cache does; its latency starts
 * when its call ends. */
void fake_set_submit_cost(uint64_t ns_per_io);
/* What the last iospd_plat_run_begin was asked, and how often run_begin
 * and run_end were called since fake_reset. */
void fake_run_needs(iospd_run_needs_t* needs, uint32_t* begins,
                    uint32_t* ends);
/* The next run_begin fails with rc (0 = succeeds). */
void fake_fail_run_begin(int rc);

uint64_t fake_now(void);
const fake_io_t* fake_log(uint32_t* count);
/* The depth queues report as really kept (iospd_plat_queue_depth): 0 (the
 * default) = the depth asked, else at most this many. */
void fake_set_kept_depth(uint32_t kept);
uint32_t fake_queues_created(void);
uint32_t fake_queue_depth(uint32_t queue);
uint32_t fake_submit_calls(void);
/* The engine index queue q was created with (-u picks the ring row,
 * "fake-ring", index 2). */
int fake_queue_engine(uint32_t queue);
/* How many I/Os each submit call was handed, in call order (the first
 * 65536 calls since fake_reset). */
const uint32_t* fake_submit_sizes(uint32_t* count);
/* Calls of iospd_plat_queue_register_buffers since fake_reset. */
uint32_t fake_register_calls(void);
/* The largest max completions a reap was asked for since fake_reset. */
uint32_t fake_reap_max_seen(void);

#endif

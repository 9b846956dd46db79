/* SPDX-License-Identifier: MIT */
/* The real platform layer through platform.h only, so the same file runs
 * natively on Linux and under wine against src/win: file creation, queue
 * round trips in every caching mode, threads, start gates, waits, topology and
 * CPU times. Uses no OS API, only platform.h and the C library. */
#include <stdatomic.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "plat_test_util.h"
#include "test_util.h"

#define BLOCK 4096u
#define NBLOCKS 16u
#define DEPTH 8u
#define TMP_NAME "iospd_test_plat.tmp"

static iospd_sysinfo_t sysinfo;

static uint8_t pattern_byte(uint32_t block, uint32_t pass, uint32_t i) {
  return (uint8_t)(block * 31u + pass * 7u + i * 13u + (i >> 8));
}

static uint64_t ms_to_ticks(uint64_t ms) {
  return ms * sysinfo.ticks_per_second / 1000u;
}

/* Runs n I/Os through q and checks every one moved its full length. */
static void run_ios(iospd_plat_queue_t* q, const iospd_io_t* ios, uint32_t n) {
  int32_t results[NBLOCKS];
  assert_true(n <= NBLOCKS);
  plat_test_run_ios(q, ios, n, DEPTH, results);
  for (uint32_t i = 0; i < n; i++)
    assert_int_equal(results[i], (int32_t)ios[i].length);
}

static void create_tmp(uint64_t size) {
  iospd_err_t err;
  int rc = iospd_plat_file_create(TMP_NAME, size, false, &err);
  if (rc != 0) fail_msg("file_create: %s", err.msg);
}

static void test_sysinfo(void** state) {
  (void)state;
  assert_true(sysinfo.ticks_per_second > 0);
  assert_in_range(sysinfo.page_size, 4096, 65536);
  assert_true(strlen(sysinfo.computer_name) > 0);
  assert_non_null(sysinfo.os_name);
  assert_true(strcmp(sysinfo.os_name, "linux") == 0 ||
              strcmp(sysinfo.os_name, "windows") == 0);
  uint64_t a = iospd_plat_ticks();
  uint64_t b = iospd_plat_ticks();
  assert_true(b >= a);
}

static void test_file_create_sets_size(void** state) {
  (void)state;
  iospd_err_t err;
  /* Bigger first, then smaller: creation always overwrites. */
  create_tmp(2 * NBLOCKS * BLOCK);
  create_tmp(NBLOCKS * BLOCK);
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_path_info(TMP_NAME, &info, &err), 0);
  assert_int_equal(info.size, NBLOCKS * BLOCK);
  assert_false(info.is_device);

  iospd_open_opts_t o = {TMP_NAME, IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC};
  iospd_plat_file_t* f = NULL;
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  memset(&info, 0xff, sizeof info);
  assert_int_equal(iospd_plat_file_info(f, &info, &err), 0);
  assert_int_equal(info.size, NBLOCKS * BLOCK);
  assert_false(info.is_device);
  assert_false(info.has_filesystem);
  assert_false(info.has_partitions);
  /* Sector sizes are powers of two from 512 up, when known. */
  if (info.logical_sector != 0) {
    assert_in_range(info.logical_sector, 512, 65536);
    assert_int_equal(info.logical_sector & (info.logical_sector - 1), 0);
  }
  iospd_plat_file_close(f);
}

static void test_missing_file_is_enoent(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_plat_file_t* f = NULL;
  iospd_open_opts_t o = {"iospd_no_such_file.tmp", IOSPD_OPEN_READ};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), IOSPD_ENOENT);
  assert_non_null(strstr(err.msg, "iospd_no_such_file.tmp"));
}

static void test_buffers_aligned_and_zeroed(void** state) {
  (void)state;
  /* 16 MiB is -bs's boundary; 2 MiB + 1 takes the huge-page path. */
  const size_t sizes[] = {1, BLOCK, 3 * BLOCK + 100, (2u << 20) + 1};
  const size_t aligns[] = {512, BLOCK, 65536, 16u << 20};
  for (size_t s = 0; s < 4; s++) {
    for (size_t a = 0; a < 4; a++) {
      for (unsigned flags = 0; flags <= IOSPD_BUF_LARGE_PAGES; flags++) {
        uint8_t* p = iospd_plat_buf_alloc(sizes[s], aligns[a], flags);
        /* Windows refuses large pages without "Lock pages in memory"
         * (wine always) rather than fall back; Linux falls back to THP. */
        if (p == NULL && flags == IOSPD_BUF_LARGE_PAGES &&
            iospd_plat_run_begin(&(iospd_run_needs_t){true, false}, NULL) < 0)
          continue;
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % aligns[a], 0);
        assert_int_equal((uintptr_t)p % 4096, 0);
        for (size_t i = 0; i < sizes[s]; i++) assert_int_equal(p[i], 0);
        memset(p, 0xa5, sizes[s]);
        iospd_plat_buf_free(p, sizes[s]);
      }
    }
  }
}

/* Writes NBLOCKS distinct blocks through the queue, reads them back into the
 * zeroed buffer and compares. */
static void roundtrip(unsigned cache_flags, const char* label, uint32_t pass) {
  iospd_err_t err;
  create_tmp(NBLOCKS * BLOCK);
  iospd_open_opts_t o = {TMP_NAME, IOSPD_OPEN_READ | IOSPD_OPEN_WRITE |
                                       IOSPD_OPEN_ASYNC | cache_flags};
  iospd_plat_file_t* f = NULL;
  int rc = iospd_plat_file_open(&f, &o, &err);
  if (rc != 0 && (cache_flags & IOSPD_OPEN_NO_BUFFERING) &&
      rc == IOSPD_ENOTSUP) {
    printf("skipping mode %s: %s\n", label, err.msg);
    return;
  }
  if (rc != 0) fail_msg("open (%s): %s", label, err.msg);
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_file_info(f, &info, &err), 0);
  if ((cache_flags & IOSPD_OPEN_NO_BUFFERING) && info.logical_sector > BLOCK) {
    printf("skipping mode %s: sector size %u is above the %u-byte block\n",
           label, info.logical_sector, BLOCK);
    iospd_plat_file_close(f);
    return;
  }

  iospd_plat_queue_t* q = NULL;
  rc = iospd_plat_queue_create(&q, DEPTH, 0, IOSPD_ENGINE_AUTO, &err);
  if (rc != 0) fail_msg("queue_create (%s): %s", label, err.msg);
  assert_true(strlen(iospd_plat_queue_engine(q)) > 0);
  uint32_t fi = 0;
  if (iospd_plat_queue_attach(q, f, &fi, &err) != 0)
    fail_msg("attach: %s", err.msg);

  const size_t len = NBLOCKS * BLOCK;
  uint8_t* buf = iospd_plat_buf_alloc(len, BLOCK, 0);
  assert_non_null(buf);
  if (iospd_plat_queue_register_buffers(q, buf, len, &err) != 0)
    fail_msg("register_buffers: %s", err.msg);

  iospd_io_t ios[NBLOCKS];
  for (uint32_t b = 0; b < NBLOCKS; b++) {
    for (uint32_t i = 0; i < BLOCK; i++)
      buf[b * BLOCK + i] = pattern_byte(b, pass, i);
    /* Blocks go to the file in reverse order, so a mixed-up offset or
     * buffer shows up as a mismatch. */
    ios[b] = (iospd_io_t){.tag = b,
                          .op = IOSPD_OP_WRITE,
                          .file_index = fi,
                          .offset = (uint64_t)(NBLOCKS - 1 - b) * BLOCK,
                          .length = BLOCK,
                          .buf = buf + (size_t)b * BLOCK};
  }
  run_ios(q, ios, NBLOCKS);

  memset(buf, 0, len);
  for (uint32_t b = 0; b < NBLOCKS; b++) ios[b].op = IOSPD_OP_READ;
  run_ios(q, ios, NBLOCKS);
  for (uint32_t b = 0; b < NBLOCKS; b++) {
    for (uint32_t i = 0; i < BLOCK; i++) {
      if (buf[b * BLOCK + i] != pattern_byte(b, pass, i))
        fail_msg("%s: block %u byte %u is %u, expected %u", label, b, i,
                 buf[b * BLOCK + i], pattern_byte(b, pass, i));
    }
  }

  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);

  /* The one file reader sees the same bytes: file block 0 holds the last
   * I/O's data. Asked for more than there is (-Z<size>,<file> of a short
   * file), it stops at the end of the file; asked for less, it stops at the
   * limit; without a limit it reads it all. Each buffer ends in a NUL. */
  const size_t limits[] = {len + BLOCK, BLOCK + 3, SIZE_MAX, 0};
  const size_t gots[] = {len, BLOCK + 3, len, 0};
  for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
    size_t got = 7;
    char* whole = NULL;
    assert_int_equal(
        iospd_plat_read_file(TMP_NAME, limits[k], &whole, &got, &err), 0);
    assert_non_null(whole);
    assert_int_equal(got, gots[k]);
    assert_int_equal(whole[got], '\0');
    assert_memory_equal(whole, buf + (size_t)(NBLOCKS - 1) * BLOCK,
                        IOSPD_MIN(got, (size_t)BLOCK));
    if (got > BLOCK)
      assert_memory_equal(whole + BLOCK, buf + (size_t)(NBLOCKS - 2) * BLOCK,
                          IOSPD_MIN(got - BLOCK, (size_t)BLOCK));
    iospd_free(whole);
  }
  iospd_plat_buf_free(buf, len);
}

/* The reader's message names the file, once (its callers add only the
 * switch: "cannot read the write source file (-Z): cannot open '...'"). */
static void test_read_file_missing_message(void** state) {
  (void)state;
  char* data = (char*)"untouched";
  size_t got = 5;
  iospd_err_t err;
  const char* path = "iospd_no_such_write_source.bin";
  assert_int_equal(iospd_plat_read_file(path, 16, &data, &got, &err),
                   IOSPD_ENOENT);
  assert_null(data);
  assert_int_equal(got, 0);
  assert_memory_equal(err.msg, "cannot open 'iospd_no_such_write_source.bin'",
                      strlen("cannot open 'iospd_no_such_write_source.bin'"));
  assert_null(strstr(strstr(err.msg, path) + 1, path));
}

static void test_roundtrip_cached(void** state) {
  (void)state;
  roundtrip(0, "cached", 1);
}

static void test_roundtrip_no_buffering(void** state) {
  (void)state;
  roundtrip(IOSPD_OPEN_NO_BUFFERING, "unbuffered (-Su)", 2);
}

static void test_roundtrip_write_through(void** state) {
  (void)state;
  roundtrip(IOSPD_OPEN_WRITE_THROUGH, "write-through (-Sw)", 3);
}

static void test_roundtrip_both(void** state) {
  (void)state;
  roundtrip(IOSPD_OPEN_NO_BUFFERING | IOSPD_OPEN_WRITE_THROUGH,
            "unbuffered write-through (-Sh)", 4);
}

static void set_flag(void* arg) { atomic_store((atomic_int*)arg, 42); }

static void test_thread_pinned_runs(void** state) {
  (void)state;
  iospd_err_t err;
  atomic_int flag = 0;
  /* Pin to the first CPU this process may use (CPU 0 unless a cpuset or
   * taskset says otherwise). */
  iospd_cpu_topology_t topo;
  assert_int_equal(iospd_plat_cpu_topology(&topo, &err), 0);
  iospd_thread_opts_t o = {.pin = true, .group = 0, .cpu = 0};
  for (uint32_t i = topo.cpu_count; i-- > 0;)
    if (topo.cpus[i].active) {
      o.group = topo.cpus[i].group;
      o.cpu = topo.cpus[i].number;
    }
  iospd_plat_cpu_topology_free(&topo);
  iospd_plat_thread_t* t = NULL;
  if (iospd_plat_thread_start(&t, &o, set_flag, &flag, &err) != 0)
    fail_msg("thread_start: %s", err.msg);
  assert_int_equal(iospd_plat_thread_join(t), 0);
  assert_int_equal(atomic_load(&flag), 42);

  /* Unpinned (-n). */
  atomic_store(&flag, 0);
  o.pin = false;
  assert_int_equal(iospd_plat_thread_start(&t, &o, set_flag, &flag, &err), 0);
  assert_int_equal(iospd_plat_thread_join(t), 0);
  assert_int_equal(atomic_load(&flag), 42);
}

/* ---- start gates (latches) ------------------------------------------------ */

#define GATE_THREADS 32

typedef struct gate_ctx_s {
  iospd_plat_latch_t* l;
  atomic_int arrived; /* arrivals made by the main thread so far */
  atomic_int waiting; /* threads that have reached the wait */
  atomic_int rc_sum;  /* sum of the waits' return values */
  atomic_int early;   /* threads released before the last arrival */
  int need;           /* arrivals that open the latch */
} gate_ctx_t;

static void gate_thread(void* arg) {
  gate_ctx_t* c = arg;
  atomic_fetch_add(&c->waiting, 1);
  int rc = iospd_plat_latch_wait(c->l);
  atomic_fetch_add(&c->rc_sum, rc);
  if (rc == 0 && atomic_load(&c->arrived) < c->need)
    atomic_fetch_add(&c->early, 1);
}

static void gate_start(gate_ctx_t* c, iospd_plat_thread_t** t, int n) {
  iospd_err_t err;
  iospd_thread_opts_t o = {.pin = false};
  for (int i = 0; i < n; i++)
    assert_int_equal(iospd_plat_thread_start(&t[i], &o, gate_thread, c, &err),
                     0);
  /* Let them all reach the wait, and sleep a little more there. */
  while (atomic_load(&c->waiting) < n) iospd_plat_wait(1);
  iospd_plat_wait(20);
}

/* Many waiters sleep until the last of `need` arrivals, then all go, with
 * 0; arrivals made before anybody waits count too. */
static void test_latch_opens_on_last_arrival(void** state) {
  (void)state;
  iospd_err_t err;
  gate_ctx_t c = {.need = 5};
  assert_int_equal(iospd_plat_latch_create(&c.l, 5, &err), 0);
  atomic_fetch_add(&c.arrived, 1);
  iospd_plat_latch_arrive(c.l); /* before the waiters */
  iospd_plat_thread_t* t[GATE_THREADS];
  gate_start(&c, t, GATE_THREADS);
  for (int i = 1; i < 5; i++) {
    iospd_plat_wait(5);
    atomic_fetch_add(&c.arrived, 1);
    iospd_plat_latch_arrive(c.l);
  }
  for (int i = 0; i < GATE_THREADS; i++)
    assert_int_equal(iospd_plat_thread_join(t[i]), 0);
  assert_int_equal(atomic_load(&c.rc_sum), 0);
  assert_int_equal(atomic_load(&c.early), 0);
  /* Open for good: later waits return at once; extra arrivals are
   * ignored. */
  iospd_plat_latch_arrive(c.l);
  assert_int_equal(iospd_plat_latch_wait(c.l), 0);
  iospd_plat_latch_destroy(c.l);
  /* Count 0 is open from the start. */
  assert_int_equal(iospd_plat_latch_create(&c.l, 0, &err), 0);
  assert_int_equal(iospd_plat_latch_wait(c.l), 0);
  iospd_plat_latch_destroy(c.l);
  iospd_plat_latch_destroy(NULL);
}

/* Abort releases every waiter at once with 1 (a thread start failed, or
 * Ctrl-C during the set-up), and so does any later wait. */
static void test_latch_abort_releases_waiters(void** state) {
  (void)state;
  iospd_err_t err;
  gate_ctx_t c = {.need = 1000};
  assert_int_equal(iospd_plat_latch_create(&c.l, 1000, &err), 0);
  iospd_plat_thread_t* t[GATE_THREADS];
  gate_start(&c, t, GATE_THREADS);
  iospd_plat_latch_arrive(c.l);
  uint64_t t0 = iospd_plat_ticks();
  iospd_plat_latch_abort(c.l);
  for (int i = 0; i < GATE_THREADS; i++)
    assert_int_equal(iospd_plat_thread_join(t[i]), 0);
  assert_true(iospd_plat_ticks() - t0 < ms_to_ticks(2000));
  assert_int_equal(atomic_load(&c.rc_sum), GATE_THREADS);
  assert_int_equal(iospd_plat_latch_wait(c.l), 1);
  iospd_plat_latch_destroy(c.l);
  /* Aborting an opened latch: waits say aborted from then on. */
  assert_int_equal(iospd_plat_latch_create(&c.l, 1, &err), 0);
  iospd_plat_latch_arrive(c.l);
  assert_int_equal(iospd_plat_latch_wait(c.l), 0);
  iospd_plat_latch_abort(c.l);
  assert_int_equal(iospd_plat_latch_wait(c.l), 1);
  iospd_plat_latch_destroy(c.l);
}

/* The timed wait: 2 when the time runs out with the latch shut (after
 * about that time, not at once), then 0 or 1 as the untimed wait. */
static void test_latch_wait_ms(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_plat_latch_t* l = NULL;
  assert_int_equal(iospd_plat_latch_create(&l, 1, &err), 0);
  uint64_t t0 = iospd_plat_ticks();
  assert_int_equal(iospd_plat_latch_wait_ms(l, 150), 2);
  uint64_t took = iospd_plat_ticks() - t0;
  assert_true(took >= ms_to_ticks(100));
  assert_true(took < ms_to_ticks(2000));
  assert_int_equal(iospd_plat_latch_wait_ms(l, 0), 2);
  iospd_plat_latch_arrive(l);
  assert_int_equal(iospd_plat_latch_wait_ms(l, 150), 0);
  iospd_plat_latch_abort(l);
  assert_int_equal(iospd_plat_latch_wait_ms(l, 150), 1);
  iospd_plat_latch_destroy(l);
}

static void test_topology_consistent(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_cpu_topology_t topo;
  assert_int_equal(iospd_plat_cpu_topology(&topo, &err), 0);
  assert_in_range(topo.cpu_count, 1, IOSPD_MAX_CPUS);
  assert_in_range(topo.core_count, 1, topo.cpu_count);
  assert_in_range(topo.socket_count, 1, topo.core_count);
  assert_in_range(topo.node_count, 1, topo.cpu_count);
  assert_in_range(topo.group_count, 1, IOSPD_MAX_CPUS / 64);
  assert_int_equal(topo.core_mask_count >= topo.core_count, 1);
  assert_int_equal(topo.smt, topo.core_count < topo.cpu_count);

  uint32_t active = 0, in_cores = 0, n_active = 0;
  for (uint32_t g = 0; g < topo.group_count; g++) {
    active += topo.groups[g].active_processors;
    assert_in_range(topo.groups[g].active_processors, 0,
                    topo.groups[g].max_processors);
  }
  assert_int_equal(active, topo.cpu_count);
  for (uint32_t m = 0; m < topo.core_mask_count; m++)
    for (int bit = 0; bit < 64; bit++)
      in_cores += (topo.core_masks[m].mask >> bit) & 1u;
  assert_int_equal(in_cores, topo.cpu_count);

  /* Every CPU is in exactly one core mask, one node mask and one socket
   * mask of its group, and in its group's active mask. */
  for (uint32_t i = 0; i < topo.cpu_count; i++) {
    const iospd_cpu_info_t* c = &topo.cpus[i];
    uint64_t bit = UINT64_C(1) << c->number;
    assert_true(c->number < 64);
    n_active += c->active;
    assert_in_range(c->group, 0, topo.group_count - 1);
    assert_int_equal(topo.groups[c->group].active_mask & bit, bit);
    int cores = 0, nodes = 0, sockets = 0;
    for (uint32_t m = 0; m < topo.core_mask_count; m++)
      if (topo.core_masks[m].group == c->group &&
          (topo.core_masks[m].mask & bit)) {
        cores++;
        assert_int_equal(topo.core_masks[m].id, c->core);
      }
    for (uint32_t m = 0; m < topo.node_mask_count; m++)
      if (topo.node_masks[m].group == c->group &&
          (topo.node_masks[m].mask & bit)) {
        nodes++;
        assert_int_equal(topo.node_masks[m].id, c->node);
      }
    for (uint32_t m = 0; m < topo.socket_mask_count; m++)
      if (topo.socket_masks[m].group == c->group &&
          (topo.socket_masks[m].mask & bit)) {
        sockets++;
        assert_int_equal(topo.socket_masks[m].id, c->socket);
      }
    assert_int_equal(cores, 1);
    assert_int_equal(nodes, 1);
    assert_int_equal(sockets, 1);
    if (i > 0) {
      const iospd_cpu_info_t* p = &topo.cpus[i - 1];
      assert_true(p->group < c->group ||
                  (p->group == c->group && p->number < c->number));
    }
  }
  /* At least the CPU running this test may take threads. */
  assert_in_range(n_active, 1, topo.cpu_count);
  iospd_plat_cpu_topology_free(&topo);
  assert_null(topo.cpus);
}

static void test_cpu_times_advance(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_cpu_topology_t topo;
  assert_int_equal(iospd_plat_cpu_topology(&topo, &err), 0);
  uint32_t n = topo.cpu_count;
  iospd_cpu_times_t* t0 = calloc(n, sizeof *t0);
  iospd_cpu_times_t* t1 = calloc(n, sizeof *t1);
  assert_non_null(t0);
  assert_non_null(t1);
  if (iospd_plat_cpu_times(t0, n, &err) != 0) fail_msg("%s", err.msg);
  /* Burn about 300 ms of user time on this thread. */
  uint64_t end = iospd_plat_ticks() + ms_to_ticks(300);
  volatile uint64_t sink = 0;
  while (iospd_plat_ticks() < end) sink = sink + 1;
  assert_int_equal(iospd_plat_cpu_times(t1, n, &err), 0);
  uint64_t total0 = 0, total1 = 0, user0 = 0, user1 = 0;
  for (uint32_t i = 0; i < n; i++) {
    total0 += t0[i].idle + t0[i].kernel + t0[i].user;
    total1 += t1[i].idle + t1[i].kernel + t1[i].user;
    user0 += t0[i].user;
    user1 += t1[i].user;
    assert_true(t1[i].idle >= t0[i].idle);
    assert_true(t1[i].user >= t0[i].user);
  }
  assert_true(total1 > total0);
  assert_true(user1 > user0);
  /* 300 ms of wall time on n CPUs is at most 3,000,000 * n units (with
   * slack for the counters' granularity and the test's own overhead). */
  assert_true(total1 - total0 <= (uint64_t)n * 30000000u);
  free(t0);
  free(t1);
  iospd_plat_cpu_topology_free(&topo);
}

static void test_wait_times_out(void** state) {
  (void)state;
  uint64_t t0 = iospd_plat_ticks();
  assert_int_equal(iospd_plat_wait(50), 0);
  uint64_t dt = iospd_plat_ticks() - t0;
  assert_true(dt >= ms_to_ticks(40)); /* Windows sleeps are coarse */
  assert_true(dt < ms_to_ticks(5000));
}

static void interrupter(void* arg) {
  (void)arg;
  uint64_t end = iospd_plat_ticks() + ms_to_ticks(50);
  while (iospd_plat_ticks() < end) {
  }
  iospd_plat_interrupt();
}

/* Last: the interrupt is latched for the rest of the process. A thread
 * sleeping at a gate nobody opens is released by it too, with 1. */
static void test_wait_interrupted(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_thread_opts_t o = {.pin = false};
  gate_ctx_t c = {.need = 1};
  assert_int_equal(iospd_plat_latch_create(&c.l, 1, &err), 0);
  iospd_plat_thread_t* g[4];
  gate_start(&c, g, 4);
  iospd_plat_thread_t* t = NULL;
  uint64_t t0 = iospd_plat_ticks();
  assert_int_equal(iospd_plat_thread_start(&t, &o, interrupter, NULL, &err), 0);
  assert_int_equal(iospd_plat_wait(20000), 1);
  uint64_t dt = iospd_plat_ticks() - t0;
  assert_true(dt < ms_to_ticks(10000));
  assert_int_equal(iospd_plat_thread_join(t), 0);
  for (int i = 0; i < 4; i++) assert_int_equal(iospd_plat_thread_join(g[i]), 0);
  assert_int_equal(atomic_load(&c.rc_sum), 4);
  assert_true(iospd_plat_ticks() - t0 < ms_to_ticks(10000));
  /* A gate that opened still says so. */
  iospd_plat_latch_arrive(c.l);
  assert_int_equal(iospd_plat_latch_wait(c.l), 0);
  iospd_plat_latch_destroy(c.l);
}

int main(void) {
  iospd_err_t err;
  if (iospd_plat_init(&sysinfo, &err) != 0) {
    printf("iospd_plat_init failed: %s\n", err.msg);
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sysinfo),
      cmocka_unit_test(test_file_create_sets_size),
      cmocka_unit_test(test_missing_file_is_enoent),
      cmocka_unit_test(test_buffers_aligned_and_zeroed),
      cmocka_unit_test(test_roundtrip_cached),
      cmocka_unit_test(test_roundtrip_no_buffering),
      cmocka_unit_test(test_roundtrip_write_through),
      cmocka_unit_test(test_roundtrip_both),
      cmocka_unit_test(test_thread_pinned_runs),
      cmocka_unit_test(test_latch_opens_on_last_arrival),
      cmocka_unit_test(test_latch_abort_releases_waiters),
      cmocka_unit_test(test_latch_wait_ms),
      cmocka_unit_test(test_topology_consistent),
      cmocka_unit_test(test_cpu_times_advance),
      cmocka_unit_test(test_wait_times_out),
      cmocka_unit_test(test_wait_interrupted),
      cmocka_unit_test(test_read_file_missing_message),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  remove(TMP_NAME);
  iospd_plat_shutdown();
  return failed;
}

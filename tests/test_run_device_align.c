/* SPDX-License-Identifier: MIT */
/* Cached I/O to a raw device (issue #26), on the fake platform: where the
 * platform says a device takes whole sectors even without -Su (Windows,
 * iospd_plat_cached_device_align), a 4096-byte-sector disk refuses -b512,
 * an odd -B, -T, -s/-r and an -rdabs start before any queue is made or
 * any I/O issued, with a message naming the switch; aligned values run,
 * and a platform without that need (Linux's page cache) or a regular
 * file runs -b512 as before. */
#include "fake_plat.h"
#include "iospd/alloc.h"
#include "iospd/run.h"
#include "test_util.h"

#define KB 1024u
#define DEV "/dev/fake"

typedef struct {
  iospd_profile_t p;
  iospd_results_t res;
  iospd_err_t err;
  int rc;
} run_t;

static iospd_target_t* setup(run_t* r, const char* path, bool device,
                             bool windows) {
  memset(r, 0, sizeof(*r));
  fake_reset();
  iospd_profile_init(&r->p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&r->p);
  ts->warmup = 0;
  ts->duration = 1;
  ts->cooldown = 0;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, path);
  t->block_size = 4 * KB;
  t->request_count = 1;
  fake_add_file(path, 1024 * KB, true);
  if (device) fake_set_device(path, false, false, "");
  fake_set_sector(path, 4096);
  fake_set_cached_device_align(windows);
  const uint64_t lat[] = {1000000};
  fake_set_latencies(lat, 1);
  return t;
}

static void go(run_t* r) {
  iospd_run_hooks_t hooks;
  memset(&hooks, 0, sizeof(hooks));
  hooks.cooperative = true;
  assert_int_equal(iospd_plat_init(&r->res.sys, NULL), 0);
  iospd_err_clear(&r->err);
  r->rc = iospd_run(&r->p, &hooks, &r->res, &r->err);
}

static void done(run_t* r) {
  iospd_results_destroy(&r->res);
  iospd_plat_cpu_topology_free(&r->res.topo);
  iospd_profile_destroy(&r->p);
}

static uint32_t ios_issued(void) {
  uint32_t n = 0;
  (void)fake_log(&n);
  return n;
}

/* Refused before anything ran: no queue, no I/O. */
static void refused(run_t* r, const char* msg) {
  go(r);
  assert_int_equal(r->rc, IOSPD_EALIGN);
  assert_string_equal(r->err.msg, msg);
  assert_int_equal(fake_queues_created(), 0);
  assert_int_equal(ios_issued(), 0);
  done(r);
}

static void block_size_512_on_4kn(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, DEV, true, true);
  t->block_size = 512;
  refused(&r,
          "target '" DEV "': the block size (-b) of 512 bytes is not a "
          "multiple of the logical sector size (4096 bytes), which I/O to "
          "this disk or volume, cached or not, requires; use a multiple of "
          "4096");
}

static void base_offset_thread_stride_and_align(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, DEV, true, true);
  t->base_offset = 512;
  refused(&r,
          "target '" DEV "': the base offset (-B) of 512 bytes is not a "
          "multiple of the logical sector size (4096 bytes), which I/O to "
          "this disk or volume, cached or not, requires; use a multiple of "
          "4096");

  t = setup(&r, DEV, true, true);
  t->thread_stride = 2048;
  refused(&r,
          "target '" DEV "': the thread stride (-T) of 2048 bytes is not a "
          "multiple of the logical sector size (4096 bytes), which I/O to "
          "this disk or volume, cached or not, requires; use a multiple of "
          "4096");

  t = setup(&r, DEV, true, true);
  t->stride_align = 6144; /* -s6K */
  refused(&r,
          "target '" DEV "': the alignment or stride (-r/-s) of 6144 bytes "
          "is not a multiple of the logical sector size (4096 bytes), which "
          "I/O to this disk or volume, cached or not, requires; use a "
          "multiple of 4096");
}

static void rdabs_start(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, DEV, true, true);
  t->random_ratio = 100;
  t->dist_type = IOSPD_DIST_ABSOLUTE;
  t->dist = iospd_calloc(2, sizeof *t->dist);
  assert_non_null(t->dist);
  t->dist_count = 2;
  t->dist[0] = (iospd_dist_range_t){0, 50, 0, 6144};
  t->dist[1] = (iospd_dist_range_t){50, 50, 6144, 1024 * KB};
  refused(&r,
          "target '" DEV "': -rdabs range 2 starts at 6144 bytes, which is "
          "not a multiple of the logical sector size (4096 bytes) that I/O "
          "to this disk or volume, cached or not, requires; make every "
          "range length a multiple of 4096");
}

static void aligned_and_other_cases_run(void** state) {
  (void)state;
  run_t r;
  /* Whole sectors: runs, offsets on 4096. */
  setup(&r, DEV, true, true);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n = 0;
  const fake_io_t* log = fake_log(&n);
  assert_true(n > 10);
  for (uint32_t i = 0; i < n; i++) assert_int_equal(log[i].offset % 4096, 0);
  done(&r);
  /* The platform's page cache takes any offset: -b512 runs. */
  iospd_target_t* t = setup(&r, DEV, true, false);
  t->block_size = 512;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_true(ios_issued() > 10);
  done(&r);
  /* A regular file: the file system's cache takes -b512. */
  t = setup(&r, "f.dat", false, true);
  t->block_size = 512;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_true(ios_issued() > 10);
  done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(block_size_512_on_4kn),
      cmocka_unit_test(base_offset_thread_stride_and_align),
      cmocka_unit_test(rdabs_start),
      cmocka_unit_test(aligned_and_other_cases_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

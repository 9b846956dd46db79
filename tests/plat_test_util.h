/* SPDX-License-Identifier: MIT */
/* Helpers shared by the platform tests (test_plat.c, test_plat_mmap.c):
 * driving a queue through submit/reap until every I/O has completed. */
#ifndef IOSPD_PLAT_TEST_UTIL_H
#define IOSPD_PLAT_TEST_UTIL_H

#include "iospd/platform.h"
#include "test_util.h"

/* Runs n I/Os through q (tags = indexes into ios), resubmitting what a short
 * submit left over, reaping up to `depth` at a time. Checks that every tag
 * comes back exactly once and stores each result in results[tag]. */
static inline void plat_test_run_ios(iospd_plat_queue_t* q,
                                     const iospd_io_t* ios, uint32_t n,
                                     uint32_t depth, int32_t* results) {
  uint32_t next = 0, done = 0;
  uint8_t* seen = calloc(n ? n : 1, 1);
  iospd_cqe_t* cqe = calloc(depth, sizeof *cqe);
  assert_non_null(seen);
  assert_non_null(cqe);
  while (done < n) {
    if (next < n) {
      uint32_t accepted = 0;
      assert_int_equal(
          iospd_plat_queue_submit(q, ios + next, n - next, &accepted), 0);
      assert_in_range(accepted, 0, n - next);
      next += accepted;
    }
    uint32_t got = 0;
    assert_int_equal(iospd_plat_queue_reap(q, cqe, depth, 1, 20000, &got), 0);
    assert_in_range(got, 1, depth);
    for (uint32_t i = 0; i < got; i++) {
      assert_in_range(cqe[i].tag, 0, n - 1);
      assert_int_equal(seen[cqe[i].tag], 0);
      seen[cqe[i].tag] = 1;
      results[cqe[i].tag] = cqe[i].result;
      done++;
    }
  }
  free(cqe);
  free(seen);
}

#endif

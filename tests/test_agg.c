/* SPDX-License-Identifier: MIT */
/* The per-timespan total (iospd/agg.h): computed once as the run ends,
 * kept in the results, the same numbers as merging every (thread, target)
 * again, and read by the reporters, whose output is the same whether they
 * read the kept total or merge it themselves. Fake platform, virtual
 * clock. */
#include "fake_plat.h"
#include "iospd/agg.h"
#include "iospd/hist.h"
#include "iospd/report.h"
#include "iospd/run.h"
#include "test_util.h"

#define KB 1024u

static void go(iospd_profile_t* p, iospd_results_t* res) {
  iospd_run_hooks_t hooks;
  memset(&hooks, 0, sizeof hooks);
  hooks.cooperative = true;
  memset(res, 0, sizeof *res);
  assert_int_equal(iospd_plat_init(&res->sys, NULL), 0);
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_int_equal(iospd_run(p, &hooks, res, &err), 0);
}

static void test_total_once(void** state) {
  (void)state;
  fake_reset();
  const uint64_t lat[] = {1000000ull};
  fake_set_latencies(lat, 1);
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&p);
  ts->warmup = 0;
  ts->duration = 1;
  ts->cooldown = 0;
  ts->measure_latency = true;
  ts->calc_iops_stddev = true;
  ts->thread_count = 2;
  for (int k = 0; k < 2; k++) {
    iospd_target_t* t = iospd_timespan_add_target(ts);
    iospd_target_set_path(t, k ? "b.dat" : "a.dat");
    t->block_size = 4 * KB;
    t->write_ratio = k ? 100 : 0;
    fake_add_file(k ? "b.dat" : "a.dat", 1024 * KB, true);
  }
  iospd_results_t res;
  go(&p, &res);
  assert_int_equal(res.timespan_count, 1);
  iospd_timespan_result_t* tr = &res.timespans[0];
  assert_non_null(tr->total);
  /* The kept total is the merge of every (thread, target). */
  uint64_t ios[2] = {0, 0}, bytes[2] = {0, 0};
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++)
    for (uint32_t i = 0; i < tr->threads[t].target_count; i++)
      for (int op = 0; op < 2; op++) {
        ios[op] += tr->threads[t].targets[i].stats.ios[op];
        bytes[op] += tr->threads[t].targets[i].stats.bytes[op];
      }
  assert_true(ios[0] > 0 && ios[1] > 0);
  for (int op = 0; op < 2; op++) {
    assert_int_equal(tr->total->ios[op], ios[op]);
    assert_int_equal(tr->total->bytes[op], bytes[op]);
    assert_int_equal(iospd_hist_count(tr->total->lat[op]), ios[op]);
  }
  assert_int_equal(tr->total->ios[2], ios[0] + ios[1]);
  assert_int_equal(tr->total->bytes[2], bytes[0] + bytes[1]);
  assert_int_equal(iospd_hist_count(tr->total->lat[2]), ios[0] + ios[1]);
  /* Asked for the total, the results give the kept one, not a new one. */
  iospd_agg_t scratch;
  assert_ptr_equal(iospd_timespan_total(tr, &scratch), tr->total);
  assert_null(scratch.lat[2]);
  iospd_agg_destroy(&scratch);

  /* Every report reads it: the same bytes as when each merges it itself
   * (a results tree without a kept total), twice in a row (the IOPS
   * sums' cursors start again). */
  iospd_strbuf_t kept[3], own[3];
  for (int k = 0; k < 3; k++) {
    iospd_strbuf_init(&kept[k]);
    iospd_strbuf_init(&own[k]);
  }
  iospd_report_text(&kept[0], &res);
  iospd_report_xml(&kept[1], &res);
  iospd_report_text(&kept[2], &res);
  iospd_agg_t* t = tr->total;
  tr->total = NULL;
  iospd_report_text(&own[0], &res);
  iospd_report_xml(&own[1], &res);
  iospd_report_text(&own[2], &res);
  tr->total = t;
  assert_non_null(strstr(iospd_strbuf_cstr(&kept[0]), "total:"));
  assert_non_null(strstr(iospd_strbuf_cstr(&kept[1]), "<IopsStdDev>"));
  for (int k = 0; k < 3; k++) {
    assert_string_equal(iospd_strbuf_cstr(&kept[k]), iospd_strbuf_cstr(&own[k]));
    iospd_strbuf_destroy(&kept[k]);
    iospd_strbuf_destroy(&own[k]);
  }
  iospd_results_destroy(&res);
  assert_null(res.timespans);
  iospd_plat_cpu_topology_free(&res.topo);
  iospd_profile_destroy(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_total_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

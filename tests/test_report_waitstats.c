/* SPDX-License-Identifier: MIT */
/* -vs at --diskspd=2.3: the "Wait Statistics - Completion Wait" and
 * "Lookaside" tables and the 2.3 <WaitStatistics> element, with the counts
 * of real DISKSPD 2.3 runs (diskspd-2.3-samples/results/04-waitstats,
 * 05-waitstats-lookaside, 14-throttled-waitstats) and their lines as
 * DISKSPD printed them; at 2.2 the renderer leaves the table to 2.2's. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "report/report_waitstats.h"

typedef struct {
  iospd_profile_t prof;
  iospd_timespan_t ts;
  iospd_target_t target;
  iospd_thread_result_t th[2];
  iospd_timespan_result_t tr;
  iospd_results_t res;
  iospd_strbuf_t out;
} fx_t;

static void fx_init(fx_t* f, iospd_diskspd_level_t level, uint32_t threads) {
  memset(f, 0, sizeof *f);
  f->prof.ext.diskspd = level;
  f->prof.verbose_stats = true;
  f->ts.targets = &f->target;
  f->ts.target_count = 1;
  f->tr.ts = &f->ts;
  f->tr.threads = f->th;
  f->tr.thread_count_alloc = threads;
  f->tr.thread_count = threads;
  for (uint32_t i = 0; i < threads; i++) f->th[i].id = i;
  f->res.profile = &f->prof;
  f->res.timespans = &f->tr;
  f->res.timespan_count = 1;
  iospd_strbuf_init(&f->out);
}

static void set_hist(uint64_t h[8], const uint64_t v[8]) {
  memcpy(h, v, 8 * sizeof *h);
}

/* 04-waitstats.txt: -vs, -o2, no throttle, no look-aside. */
static void test_completion_wait_table(void** state) {
  (void)state;
  fx_t f;
  fx_init(&f, IOSPD_DISKSPD_23, 1);
  f.th[0].wait.completion_wait = 1275;
  set_hist(f.th[0].wait.completion_wait_hist,
           (const uint64_t[8]){0, 0, 1275, 0, 0, 0, 0, 0});
  assert_true(iospd_rpt_waitstats_text(&f.out, &f.res, &f.tr));
  assert_string_equal(f.out.data,
                      "\n"
                      "Wait Statistics - Completion Wait\n"
                      "thread |         wait | 0 - 7+ complete per wait\n"
                      "------------------------------------------------\n"
                      "     0 |         1275 | 0 0 1275 0 0 0 0 0\n");
  iospd_strbuf_destroy(&f.out);
}

/* 14-throttled-waitstats.txt: -g200i adds the throttle columns. */
static void test_throttled_columns(void** state) {
  (void)state;
  fx_t f;
  fx_init(&f, IOSPD_DISKSPD_23, 1);
  f.target.throughput_iops = 200;
  f.target.throughput_bpms = 800;
  f.th[0].wait.completion_wait = 21;
  f.th[0].wait.throttle_wait = 40;
  f.th[0].wait.throttle_sleep = 836;
  set_hist(f.th[0].wait.completion_wait_hist,
           (const uint64_t[8]){0, 4, 0, 36, 21, 0, 0, 0});
  assert_true(iospd_rpt_waitstats_text(&f.out, &f.res, &f.tr));
  assert_string_equal(
      f.out.data,
      "\n"
      "Wait Statistics - Completion Wait\n"
      "thread |         wait | throttle wait  -  sleep | 0 - 7+ complete "
      "per wait\n"
      "------------------------------------------------------------------"
      "--------\n"
      "     0 |           21 |            40  -    836 | 0 4 0 36 21 0 0 0\n");
  iospd_strbuf_destroy(&f.out);
}

/* 05-waitstats-lookaside.txt: the Lookaside table follows when any thread
 * made look-asides; two threads, one row each. */
static void test_lookaside_table(void** state) {
  (void)state;
  fx_t f;
  fx_init(&f, IOSPD_DISKSPD_23, 2);
  f.th[0].wait.lookaside = 2855;
  set_hist(f.th[0].wait.lookaside_hist,
           (const uint64_t[8]){0, 2855, 0, 0, 0, 0, 0, 0});
  f.th[1].wait.completion_wait = 9;
  set_hist(f.th[1].wait.completion_wait_hist,
           (const uint64_t[8]){0, 1, 0, 0, 0, 0, 0, 8});
  assert_true(iospd_rpt_waitstats_text(&f.out, &f.res, &f.tr));
  assert_string_equal(
      f.out.data,
      "\n"
      "Wait Statistics - Completion Wait\n"
      "thread |         wait | 0 - 7+ complete per wait\n"
      "------------------------------------------------\n"
      "     0 |            0 | 0 0 0 0 0 0 0 0\n"
      "     1 |            9 | 0 1 0 0 0 0 0 8\n"
      "\n"
      "Wait Statistics - Lookaside\n"
      "thread |    lookaside | 0 - 7+ complete per lookaside\n"
      "-----------------------------------------------------\n"
      "     0 |         2855 | 0 2855 0 0 0 0 0 0\n"
      "     1 |            0 | 0 0 0 0 0 0 0 0\n");
  iospd_strbuf_destroy(&f.out);
}

/* 04-waitstats.xml: <WaitCompletion> between <Lookaside> and
 * <LookasideCompletion>, six spaces in (a <Thread>'s child). */
static void test_xml(void** state) {
  (void)state;
  fx_t f;
  fx_init(&f, IOSPD_DISKSPD_23, 1);
  f.th[0].wait.completion_wait = 1773;
  set_hist(f.th[0].wait.completion_wait_hist,
           (const uint64_t[8]){0, 0, 1773, 0, 0, 0, 0, 0});
  assert_true(iospd_rpt_waitstats_xml(&f.out, &f.res, &f.th[0].wait));
  assert_string_equal(f.out.data,
                      "      <WaitStatistics>\n"
                      "        <CompletionWait>1773</CompletionWait>\n"
                      "        <ThrottleWait>0</ThrottleWait>\n"
                      "        <ThrottleSleep>0</ThrottleSleep>\n"
                      "        <Lookaside>0</Lookaside>\n"
                      "        <WaitCompletion>0 0 1773 0 0 0 0 0"
                      "</WaitCompletion>\n"
                      "        <LookasideCompletion>0 0 0 0 0 0 0 0"
                      "</LookasideCompletion>\n"
                      "      </WaitStatistics>\n");
  iospd_strbuf_destroy(&f.out);
}

/* At 2.2 nothing: report_text.c / report_xml.c print 2.2's table. */
static void test_22_leaves_it(void** state) {
  (void)state;
  fx_t f;
  fx_init(&f, IOSPD_DISKSPD_22, 1);
  f.th[0].wait.completion_wait = 5;
  assert_false(iospd_rpt_waitstats_text(&f.out, &f.res, &f.tr));
  assert_false(iospd_rpt_waitstats_xml(&f.out, &f.res, &f.th[0].wait));
  assert_int_equal(f.out.len, 0);
  iospd_strbuf_destroy(&f.out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_completion_wait_table),
      cmocka_unit_test(test_throttled_columns),
      cmocka_unit_test(test_lookaside_table),
      cmocka_unit_test(test_xml),
      cmocka_unit_test(test_22_leaves_it),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* The tool's own cost (iospd/cost.h, issue #29) on the fake platform: a
 * scripted run (one thread, one I/O in flight, every I/O 1 ms, 2 s
 * measured after a 1 s warm-up; the thread's user time grows by 25 % of
 * the virtual clock and its system time by 50 %) gives exactly 250 us of
 * user and 500 us of system CPU per I/O, 0.75 busy cores, 1333.33 IOPS
 * per busy core, one completion per wait and one I/O per submit, in the
 * results, the JSON, the -vs text table and the XML's <IospdToolCost>.
 * The warm-up's CPU time is not charged. And the arithmetic alone. */
#include <math.h>

#include "fake_plat.h"
#include "iospd/alloc.h"
#include "iospd/cost.h"
#include "iospd/report.h"
#include "iospd/run.h"
#include "iospd/strbuf.h"
#include "test_util.h"

#define KB 1024u

typedef struct {
  iospd_profile_t p;
  iospd_results_t res;
  iospd_err_t err;
  int rc;
} run_t;

static void go(run_t* r) {
  memset(r, 0, sizeof(*r));
  fake_reset();
  fake_set_thread_cpu_rates(250000, 500000);
  iospd_profile_init(&r->p);
  r->p.verbose_stats = true;
  iospd_timespan_t* ts = iospd_profile_add_timespan(&r->p);
  ts->warmup = 1;
  ts->duration = 2;
  ts->cooldown = 0;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, "c.dat");
  t->block_size = 4 * KB;
  t->request_count = 1;
  fake_add_file("c.dat", 64 * KB, true);
  const uint64_t lat[] = {1000000};
  fake_set_latencies(lat, 1);
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

static void scripted_run(void** state) {
  (void)state;
  run_t r;
  go(&r);
  assert_int_equal(r.rc, 0);
  const iospd_timespan_result_t* tr = &r.res.timespans[0];
  const iospd_thread_result_t* th = &tr->threads[0];
  uint64_t ios = th->targets[0].stats.ios[0] + th->targets[0].stats.ios[1];
  assert_int_equal(ios, 2000);
  /* The measured phase only: 2 s of wall, 0.5 s user, 1 s system. */
  assert_int_equal(th->cost.wall_ns, 2000000000u);
  assert_int_equal(th->cost.user_ns, 500000000u);
  assert_int_equal(th->cost.sys_ns, 1000000000u);
  /* Every phase: one I/O per submit call, one completion per wait. */
  assert_true(th->cost.submit_calls >= 3000);
  assert_int_equal(th->cost.submitted, th->cost.submit_calls);
  assert_int_equal(th->cost.wait_completions, th->cost.waits);
  assert_int_equal(th->wait.completion_wait_hist[1], th->cost.waits);

  iospd_cost_t c;
  iospd_cost_compute(&th->cost, ios, &c);
  assert_true(fabs(c.user_us_per_io - 250.0) < 1e-9);
  assert_true(fabs(c.sys_us_per_io - 500.0) < 1e-9);
  assert_true(fabs(c.cpu_us_per_io - 750.0) < 1e-9);
  assert_true(fabs(c.busy_cores - 0.75) < 1e-12);
  assert_true(fabs(c.iops_per_core - 2000.0 / 1.5) < 1e-9);
  assert_true(fabs(c.completions_per_wait - 1.0) < 1e-12);
  assert_true(fabs(c.ios_per_submit - 1.0) < 1e-12);

  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_json(&sb, &r.res, NULL);
  /* Without the pretty-printing's spaces and newlines. */
  const char* pretty = iospd_strbuf_cstr(&sb);
  char* js = iospd_malloc(strlen(pretty) + 1);
  assert_non_null(js);
  size_t n = 0;
  for (const char* p = pretty; *p; p++)
    if (*p != ' ' && *p != '\n') js[n++] = *p;
  js[n] = '\0';
  char want[512];
  snprintf(want, sizeof want,
           "\"tool_cost\":{\"io_count\":2000,\"cpu_user_ns\":500000000,"
           "\"cpu_system_ns\":1000000000,\"wall_ns\":2000000000,"
           "\"cpu_us_per_io\":7.5e+02,\"cpu_user_us_per_io\":2.5e+02,"
           "\"cpu_system_us_per_io\":5e+02,\"busy_cores\":0.75,"
           "\"iops_per_busy_core\":1333.3333333333333,\"wait_calls\":%llu,"
           "\"completions_per_wait\":1,"
           "\"completions_per_wait_histogram\":[0,%llu,0,0,0,0,0,0],"
           "\"submit_calls\":%llu,\"ios_per_submit\":1}",
           (unsigned long long)th->cost.waits,
           (unsigned long long)th->cost.waits,
           (unsigned long long)th->cost.submit_calls);
  /* Once for the timespan total, once for the thread. */
  const char* first = strstr(js, want);
  if (first == NULL) fprintf(stderr, "want %s\nin %s\n", want, js);
  assert_non_null(first);
  assert_non_null(strstr(first + 1, want));
  iospd_free(js);
  iospd_strbuf_destroy(&sb);

  iospd_strbuf_init(&sb);
  iospd_report_text(&sb, &r.res);
  const char* tx = iospd_strbuf_cstr(&sb);
  const char* row = "     0 |         2000 |    250.000 |    500.000 |    "
                    "750.000 |  0.75 |         1333 |       1.00 |        1.00\n";
  if (strstr(tx, row) == NULL) fprintf(stderr, "%s", tx);
  assert_non_null(strstr(tx, "\nTool cost (iospd; CPU over the measured phase)\n"));
  assert_non_null(strstr(tx, row));
  assert_non_null(strstr(tx, " total |         2000 |    250.000 |"));
  iospd_strbuf_destroy(&sb);

  iospd_strbuf_init(&sb);
  iospd_report_xml(&sb, &r.res);
  const char* x = iospd_strbuf_cstr(&sb);
  assert_non_null(strstr(x, "    <IospdToolCost>\n      <Thread Id=\"0\">\n"
                            "        <IoCount>2000</IoCount>\n"
                            "        <CpuUserNs>500000000</CpuUserNs>\n"
                            "        <CpuSystemNs>1000000000</CpuSystemNs>\n"
                            "        <CpuUsPerIo>750.000</CpuUsPerIo>\n"));
  assert_non_null(strstr(x, "<IopsPerBusyCore>1333.333</IopsPerBusyCore>"));
  /* Outside DISKSPD's <Thread> elements: after the last of them. */
  assert_true(strstr(x, "<IospdToolCost>") > strstr(x, "</Thread>\n  "));
  iospd_strbuf_destroy(&sb);
  done(&r);
}

static void arithmetic(void** state) {
  (void)state;
  iospd_cost_raw_t a = {.user_ns = 3000, .sys_ns = 1000, .wall_ns = 8000,
                        .submit_calls = 4, .submitted = 10,
                        .waits = 5, .wait_completions = 12};
  iospd_cost_raw_t b = {.user_ns = 1000, .sys_ns = 3000, .wall_ns = 6000,
                        .submit_calls = 6, .submitted = 10,
                        .waits = 5, .wait_completions = 8};
  iospd_cost_raw_t t;
  memset(&t, 0, sizeof t);
  iospd_cost_add(&t, &a);
  iospd_cost_add(&t, &b);
  iospd_cost_t c;
  iospd_cost_compute(&t, 16, &c);
  assert_true(fabs(c.user_us_per_io - 0.25) < 1e-12);  /* 4000 ns / 16 */
  assert_true(fabs(c.sys_us_per_io - 0.25) < 1e-12);
  assert_true(fabs(c.cpu_us_per_io - 0.5) < 1e-12);
  assert_true(fabs(c.busy_cores - 1.0) < 1e-12);       /* 8000 / 8000 */
  assert_true(fabs(c.iops_per_core - 2e6) < 1e-6);     /* 16 / 8 us */
  assert_true(fabs(c.completions_per_wait - 2.0) < 1e-12);
  assert_true(fabs(c.ios_per_submit - 2.0) < 1e-12);
  /* Unknown CPU time, no calls: every figure NaN (null, n/a). */
  memset(&t, 0, sizeof t);
  iospd_cost_compute(&t, 16, &c);
  assert_true(isnan(c.cpu_us_per_io) && isnan(c.busy_cores) &&
              isnan(c.iops_per_core) && isnan(c.completions_per_wait) &&
              isnan(c.ios_per_submit));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(scripted_run),
      cmocka_unit_test(arithmetic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

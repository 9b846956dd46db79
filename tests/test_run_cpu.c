/* SPDX-License-Identifier: MIT */
/* The controller's CPU snapshots on the fake platform (issue #26): when
 * the platform cannot read the processors' times at the start or the end
 * of measuring, the usage is unknown, not 0 % busy: the results say
 * cpu_unknown, a cpu_unknown warning names the failure (stderr line and
 * results entry), and the text report's CPU rows say "unknown". When both
 * snapshots succeed the fake's times give exactly 50 % busy. */
#include "fake_plat.h"
#include "iospd/alloc.h"
#include "iospd/message.h"
#include "iospd/report.h"
#include "iospd/run.h"
#include "iospd/strbuf.h"
#include "iospd/warnings.h"
#include "test_util.h"

#define KB 1024u

typedef struct {
  iospd_profile_t p;
  iospd_results_t res;
  iospd_err_t err;
  int rc;
  char messages[2048];
} run_t;

/* The line as the printer writes it: the kind's prefix, then the text. */
static void on_msg(void* ctx, iospd_msg_kind_t kind, const char* text) {
  run_t* r = ctx;
  size_t n = strlen(r->messages);
  snprintf(r->messages + n, sizeof(r->messages) - n, "%s%s\n",
           iospd_msg_def(kind)->prefix, text);
}

static void go(run_t* r, uint32_t fail_nth) {
  memset(r, 0, sizeof(*r));
  fake_reset();
  fake_fail_cpu_times(fail_nth);
  iospd_profile_init(&r->p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&r->p);
  ts->warmup = 0;
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
  hooks.message = on_msg;
  hooks.ctx = r;
  assert_int_equal(iospd_plat_init(&r->res.sys, NULL), 0);
  iospd_err_clear(&r->err);
  r->rc = iospd_run(&r->p, &hooks, &r->res, &r->err);
}

static void done(run_t* r) {
  iospd_results_destroy(&r->res);
  iospd_plat_cpu_topology_free(&r->res.topo);
  iospd_profile_destroy(&r->p);
}

static uint32_t cpu_warnings(const iospd_timespan_result_t* tr,
                             const char** text) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < tr->warning_count; i++)
    if (tr->warnings[i].kind == IOSPD_WARN_CPU_UNKNOWN) {
      n++;
      *text = tr->warnings[i].text;
    }
  return n;
}

static void both_snapshots_read(void** state) {
  (void)state;
  run_t r;
  go(&r, 0);
  assert_int_equal(r.rc, 0);
  const iospd_timespan_result_t* tr = &r.res.timespans[0];
  assert_false(tr->cpu_unknown);
  assert_true(r.res.topo.cpu_count > 0);
  /* The fake's clock gives idle t/2, kernel t/4, user t/4. */
  assert_true(tr->cpu[0].usage > 49.9 && tr->cpu[0].usage < 50.1);
  const char* text = NULL;
  assert_int_equal(cpu_warnings(tr, &text), 0);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_text(&sb, &r.res);
  assert_non_null(strstr(iospd_strbuf_cstr(&sb), "|  50.00%|  25.00%|  25.00%|  50.00%"));
  assert_null(strstr(iospd_strbuf_cstr(&sb), "| unknown"));
  iospd_strbuf_destroy(&sb);
  done(&r);
}

static void failed_snapshot(uint32_t nth, const char* when) {
  run_t r;
  go(&r, nth);
  assert_int_equal(r.rc, 0); /* the I/O was measured; only CPU is lost */
  const iospd_timespan_result_t* tr = &r.res.timespans[0];
  assert_true(tr->cpu_unknown);
  assert_true(tr->seconds > 1.9);
  const char* text = NULL;
  assert_int_equal(cpu_warnings(tr, &text), 1);
  char want[256];
  snprintf(want, sizeof want,
           "the CPU usage of this run is unknown: the processors' times "
           "could not be read at the %s of measuring (fake: the "
           "processors' times are not readable); the report's CPU table "
           "says unknown",
           when);
  assert_string_equal(text, want);
  /* Said on the message hook as a warning line too. */
  char line[300];
  snprintf(line, sizeof line, "warning: %s\n", want);
  assert_non_null(strstr(r.messages, line));
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_text(&sb, &r.res);
  const char* rep = iospd_strbuf_cstr(&sb);
  assert_non_null(strstr(rep, "   0| unknown\n"));
  assert_non_null(strstr(rep, "avg.| unknown (see the cpu_unknown warning)\n"));
  /* No row claims a number. */
  assert_null(strstr(rep, "|   0.00%|"));
  assert_null(strstr(rep, "| 100.00%"));
  iospd_strbuf_destroy(&sb);
  done(&r);
}

static void start_snapshot_fails(void** state) {
  (void)state;
  failed_snapshot(1, "start");
}

static void end_snapshot_fails(void** state) {
  (void)state;
  failed_snapshot(2, "end");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(both_snapshots_read),
      cmocka_unit_test(start_snapshot_fails),
      cmocka_unit_test(end_snapshot_fails),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

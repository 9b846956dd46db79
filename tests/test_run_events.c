/* SPDX-License-Identifier: MIT */
/* The controller's -y events on the fake platform's virtual clock (DISKSPD's timespan timeline):
 * -ys is set when measuring starts and -yf when it ends; -yr holds all I/O
 * back until it is set; -yp stops the run like Ctrl-C (without the Ctrl-C
 * line), and Ctrl-C sets the -yp event; a missing event cannot stop -yr
 * from being interrupted. */
#include "fake_plat.h"
#include "iospd/alloc.h"
#include "iospd/run.h"
#include "test_util.h"

#define KB 1024u
#define START 1000000000ull /* the fake clock's first value */
#define MS 1000000ull
#define SEC 1000000000ull

typedef struct {
  iospd_profile_t p;
  iospd_results_t res;
  iospd_err_t err;
  int rc;
  uint32_t interrupts;
  char messages[1024]; /* hooks.message lines, each ending in '\n' */
} run_t;

static iospd_timespan_t* setup(run_t* r, uint32_t warm, uint32_t dur,
                               uint32_t cool) {
  memset(r, 0, sizeof(*r));
  fake_reset();
  iospd_profile_init(&r->p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&r->p);
  ts->warmup = warm;
  ts->duration = dur;
  ts->cooldown = cool;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, "e.dat");
  t->block_size = 4 * KB;
  t->request_count = 1;
  fake_add_file("e.dat", 64 * KB, true);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  return ts;
}

static char* dup(const char* s) { return iospd_strdup(s); }

static void on_int(void* ctx) { ((run_t*)ctx)->interrupts++; }

static void on_msg(void* ctx, iospd_msg_kind_t kind, const char* text) {
  run_t* r = ctx;
  size_t n = strlen(r->messages);
  snprintf(r->messages + n, sizeof(r->messages) - n, "%s%s\n",
           iospd_msg_def(kind)->prefix, text);
}

static void go(run_t* r) {
  iospd_run_hooks_t hooks;
  memset(&hooks, 0, sizeof(hooks));
  hooks.cooperative = true;
  hooks.interrupted = on_int;
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

static uint64_t first_submit(void) {
  uint32_t n = 0;
  const fake_io_t* log = fake_log(&n);
  assert_true(n > 0);
  return log[0].submit_ns;
}

/* -ys when warm-up ends, -yf when the measured time ends (before
 * cool-down). */
static void test_start_and_end_events(void** state) {
  (void)state;
  run_t r;
  setup(&r, 1, 2, 1);
  r.p.events.start_name = dup("S");
  r.p.events.end_name = dup("F");
  go(&r);
  assert_int_equal(r.rc, 0);
  uint64_t s = fake_event_set_time("S"), f = fake_event_set_time("F");
  assert_in_range(s, START + 1 * SEC, START + 1 * SEC + 2 * MS);
  assert_in_range(f, START + 3 * SEC, START + 3 * SEC + 2 * MS);
  assert_false(r.res.timespans[0].interrupted_before_measure);
  assert_in_range((uint64_t)(r.res.timespans[0].seconds * 1000 + 0.5), 1999,
                  2001);
  done(&r);
}

/* -yr: no I/O before the event is set; warm-up and measurement follow. */
static void test_ready_event_holds_start(void** state) {
  (void)state;
  run_t r;
  setup(&r, 1, 1, 0);
  r.p.events.ready_name = dup("GO");
  r.p.events.start_name = dup("S");
  fake_event_set_at("GO", START + 5 * SEC);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_in_range(first_submit(), START + 5 * SEC, START + 5 * SEC + 200 * MS);
  uint64_t s = fake_event_set_time("S");
  assert_in_range(s, START + 6 * SEC, START + 6 * SEC + 200 * MS);
  assert_false(r.res.timespans[0].interrupted_before_measure);
  done(&r);
}

/* -yp set during measurement: the run stops there, results stand, exit 0,
 * and main is not told of a Ctrl-C. */
static void test_stop_event_ends_measurement(void** state) {
  (void)state;
  run_t r;
  setup(&r, 0, 30, 5);
  r.p.events.stop_name = dup("P");
  fake_event_set_at("P", START + 1500 * MS);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.interrupts, 0);
  assert_false(r.res.timespans[0].interrupted_before_measure);
  double secs = r.res.timespans[0].seconds;
  assert_in_range((uint64_t)(secs * 1000), 1500, 1600);
  /* No cool-down after the stop. */
  assert_true(fake_now() < START + 1700 * MS);
  done(&r);
}

static void test_stop_event_in_warmup(void** state) {
  (void)state;
  run_t r;
  setup(&r, 5, 10, 0);
  r.p.events.stop_name = dup("P");
  fake_event_set_at("P", START + 2 * SEC);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_true(r.res.timespans[0].interrupted_before_measure);
  assert_true(fake_now() < START + 2200 * MS);
  done(&r);
}

/* Ctrl-C is bound to the -yp event: it gets set, for other waiters. */
static void test_ctrl_c_sets_stop_event(void** state) {
  (void)state;
  run_t r;
  setup(&r, 0, 10, 0);
  r.p.events.stop_name = dup("P");
  fake_interrupt_at(START + 500 * MS);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.interrupts, 1);
  assert_in_range(fake_event_set_time("P"), START + 500 * MS, START + 700 * MS);
  done(&r);
}

/* -yr that never comes: Ctrl-C still ends the wait; nothing was measured. */
static void test_ready_wait_interrupted(void** state) {
  (void)state;
  run_t r;
  setup(&r, 0, 1, 0);
  r.p.events.ready_name = dup("NEVER");
  r.p.events.start_name = dup("S");
  fake_interrupt_at(START + 3 * SEC);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_true(r.res.timespans[0].interrupted_before_measure);
  assert_int_equal(fake_event_set_time("S"), 0); /* opened, never set */
  /* Released workers may issue one batch before they see the stop; none
   * of it is measured, and none is issued before the interruption. */
  uint32_t n = 0;
  const fake_io_t* log = fake_log(&n);
  for (uint32_t i = 0; i < n; i++) {
    assert_false(log[i].measured);
    assert_true(log[i].submit_ns >= START + 3 * SEC);
  }
  done(&r);
}

/* An event a killed run left set is reset by the platform when opened; the
 * run says so on stderr (a WARNING line) for each such event, naming it and
 * its switch, and for no other. */
static void test_stale_event_is_reported(void** state) {
  (void)state;
  run_t r;
  setup(&r, 0, 1, 0);
  r.p.events.ready_name = dup("GO");
  r.p.events.stop_name = dup("P");
  r.p.events.start_name = dup("S");
  fake_event_left_stale("GO");
  fake_event_left_stale("P");
  fake_event_set_at("GO", START + 2 * SEC);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_string_equal(
      r.messages,
      "WARNING: the event 'GO' (-yr) was left set by a process that has "
      "ended (killed?); it was reset, so only a running process can set it "
      "now\n"
      "WARNING: the event 'P' (-yp) was left set by a process that has ended "
      "(killed?); it was reset, so only a running process can set it now\n");
  assert_in_range(first_submit(), START + 2 * SEC, START + 2 * SEC + 200 * MS);
  done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_start_and_end_events),
      cmocka_unit_test(test_ready_event_holds_start),
      cmocka_unit_test(test_stop_event_ends_measurement),
      cmocka_unit_test(test_stop_event_in_warmup),
      cmocka_unit_test(test_ctrl_c_sets_stop_event),
      cmocka_unit_test(test_ready_wait_interrupted),
      cmocka_unit_test(test_stale_event_is_reported),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* A worker whose set-up hangs (a paused CSV, a hung adapter's IOCTL) while
 * another process sets the -yp stop event: the controller must notice the
 * event while it waits for the set-ups, not only once the last one is
 * done. Ctrl-C wakes the start gate by itself; the event does not, so the
 * controller waits for the gate in slices and looks at the event between
 * them (issue #26). Real platform and threads: native Linux and wine.
 *
 * The hang is a workload of the test's own (through the session's
 * workload seam): the block workload's set-up, preceded by setting the
 * event, the way another process would, and a wait of up to HANG_MS for
 * the controller to say it saw the event. Before the controller waited in
 * slices that wait always ran out: the controller was asleep on the gate
 * and said nothing until the set-up had finished on its own. */
#include <stdatomic.h>

#include "iospd/alloc.h"
#include "iospd/run.h"
#include "iospd/workload.h"
#include "test_util.h"

#define TMP "iospd_setup_hang.tmp"
#define HANG_MS 4000u

static iospd_sysinfo_t g_sys;
static char g_event[64];
static iospd_workload_t g_hang;
static _Atomic int g_seen_stop;      /* the controller said it saw -yp */
static _Atomic int g_seen_in_setup;  /* ... while the set-up still hung */
static _Atomic int g_set_failed;

static uint64_t ms_since(uint64_t t0) {
  return (iospd_plat_ticks() - t0) * 1000u / g_sys.ticks_per_second;
}

static int hang_setup(void* state, struct iospd_worker_s* w,
                      iospd_err_t* err) {
  iospd_plat_event_t* ev = NULL;
  iospd_err_t e;
  iospd_err_clear(&e);
  if (iospd_plat_event_open(g_event, true, &ev, &e) < 0 ||
      iospd_plat_event_set(ev, &e) < 0)
    atomic_store(&g_set_failed, 1);
  iospd_plat_event_close(ev);
  uint64_t t0 = iospd_plat_ticks();
  while (!atomic_load(&g_seen_stop) && ms_since(t0) < HANG_MS)
    iospd_plat_sleep(10);
  atomic_store(&g_seen_in_setup, atomic_load(&g_seen_stop));
  return iospd_workload_block.setup(state, w, err);
}

static char g_said[512];
static void on_message(void* ctx, iospd_msg_kind_t kind, const char* text) {
  (void)ctx;
  (void)kind;
  if (strstr(text, "-yp") != NULL) {
    snprintf(g_said, sizeof g_said, "%s", text);
    atomic_store(&g_seen_stop, 1);
  }
}

static void test_stop_event_during_setup(void** state) {
  (void)state;
  snprintf(g_event, sizeof g_event, "iospd_test_yp_%lu",
           (unsigned long)iospd_plat_ticks());
  iospd_profile_t p;
  iospd_profile_init(&p);
  p.verbose = true;
  p.events.stop_name = iospd_strdup(g_event);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&p);
  ts->warmup = 0;
  ts->duration = 10;
  ts->cooldown = 0;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, TMP);
  t->block_size = 4096;
  t->create = true;
  t->file_size = 64 * 1024;

  g_hang = iospd_workload_block;
  g_hang.setup = hang_setup;
  iospd_run_session_t s;
  iospd_run_session_init(&s);
  s.workload = &g_hang;
  iospd_run_hooks_t hooks;
  memset(&hooks, 0, sizeof hooks);
  hooks.message = on_message;
  iospd_results_t res;
  memset(&res, 0, sizeof res);
  res.sys = g_sys;
  iospd_err_t err;
  iospd_err_clear(&err);
  uint64_t t0 = iospd_plat_ticks();
  int rc = iospd_run_in(&s, &p, &hooks, &res, &err);
  uint64_t took = ms_since(t0);
  if (rc != 0) print_error("iospd_run_in: %s\n", err.msg);
  assert_int_equal(rc, 0);
  assert_int_equal(atomic_load(&g_set_failed), 0);
  assert_string_equal(g_said, "the stop event (-yp) is set: stopping");
  /* Seen while the set-up hung, so well before HANG_MS ran out. */
  assert_int_equal(atomic_load(&g_seen_in_setup), 1);
  assert_true(took < HANG_MS - 1000);
  assert_int_equal(res.timespan_count, 1);
  assert_true(res.timespans[0].interrupted_before_measure);
  assert_true(res.timespans[0].seconds == 0);
  iospd_results_destroy(&res);
  iospd_plat_cpu_topology_free(&res.topo);
  iospd_profile_destroy(&p);
}

int main(void) {
  iospd_err_t err;
  if (iospd_plat_init(&g_sys, &err) < 0) {
    printf("skipped: platform init failed: %s\n", err.msg);
    return IOSPD_TEST_SKIP;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stop_event_during_setup),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  remove(TMP);
  iospd_plat_shutdown();
  return rc;
}

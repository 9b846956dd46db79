/* SPDX-License-Identifier: MIT */
/* The status line's own thread (iospd/status_drawer.h), with a writer of
 * the test's that can block as a console with a QuickEdit selection, or
 * stopped with Ctrl-S, blocks WriteConsoleW: posting never waits for it,
 * the newest line is the one drawn once it returns, and other writes wait
 * for a status write under way and bring the line back after them. Real
 * threads: natively and under wine. */
#include <stdatomic.h>

#include "iospd/platform.h"
#include "iospd/status_drawer.h"
#include "test_util.h"

typedef struct {
  _Atomic int block;   /* the writer blocks while this is 1 */
  _Atomic int entered; /* writes started */
  _Atomic int inside;  /* a write under way */
  char last[IOSPD_STATUS_LINE_MAX + 1];
  char seen[8][IOSPD_STATUS_LINE_MAX + 1];
} writer_t;

static void writer(void* ctx, const char* line, size_t len) {
  writer_t* w = ctx;
  int k = atomic_fetch_add(&w->entered, 1);
  atomic_store(&w->inside, 1);
  while (atomic_load(&w->block)) iospd_plat_sleep(1);
  memcpy(w->last, line, len);
  w->last[len] = '\0';
  if (k < 8) memcpy(w->seen[k], w->last, len + 1);
  atomic_store(&w->inside, 0);
}

/* Waits up to 5 s for cond; false if it never held. */
#define WAIT_FOR(cond)                                              \
  do {                                                              \
    for (int i_ = 0; i_ < 5000 && !(cond); i_++) iospd_plat_sleep(1); \
    assert_true(cond);                                              \
  } while (0)

static void post(iospd_status_drawer_t* d, const char* s) {
  iospd_status_drawer_post(d, s, strlen(s));
}

/* While the writer is stuck in the first line, a hundred posts return at
 * once; released, it draws the newest and none of the 99 in between. */
static void test_post_never_waits(void** state) {
  (void)state;
  writer_t w;
  memset(&w, 0, sizeof w);
  atomic_store(&w.block, 1);
  iospd_status_drawer_t* d = NULL;
  iospd_err_t err;
  assert_int_equal(iospd_status_drawer_start(&d, writer, &w, 5, &err), 0);
  post(d, "first");
  WAIT_FOR(atomic_load(&w.entered) == 1);
  char line[32];
  for (int i = 0; i < 100; i++) {
    snprintf(line, sizeof line, "line %d", i);
    post(d, line);
  }
  /* Every post has returned, and the writer is still in its first write. */
  assert_int_equal(atomic_load(&w.inside), 1);
  assert_int_equal(atomic_load(&w.entered), 1);
  assert_int_equal(iospd_status_drawer_drawn(d), 0);
  atomic_store(&w.block, 0);
  WAIT_FOR(iospd_status_drawer_drawn(d) == 2);
  iospd_plat_sleep(50); /* nothing more comes */
  assert_int_equal(iospd_status_drawer_drawn(d), 2);
  assert_string_equal(w.seen[0], "first");
  assert_string_equal(w.seen[1], "line 99");
  iospd_status_drawer_stop(d);
}

typedef struct {
  iospd_status_drawer_t* d;
  _Atomic int returned;
} quiet_arg_t;

static void quiet_thread(void* arg) {
  quiet_arg_t* q = arg;
  iospd_status_drawer_quiet_begin(q->d);
  atomic_store(&q->returned, 1);
  iospd_status_drawer_quiet_end(q->d, true);
}

/* A message's write waits for the status write under way (or the two
 * would interleave on the console), draws nothing while it lasts, and the
 * line comes back after it. */
static void test_quiet_excludes_and_redraws(void** state) {
  (void)state;
  writer_t w;
  memset(&w, 0, sizeof w);
  atomic_store(&w.block, 1);
  iospd_status_drawer_t* d = NULL;
  iospd_err_t err;
  assert_int_equal(iospd_status_drawer_start(&d, writer, &w, 5, &err), 0);
  post(d, "one");
  WAIT_FOR(atomic_load(&w.inside) == 1);
  quiet_arg_t q = {.d = d};
  iospd_plat_thread_t* t = NULL;
  iospd_thread_opts_t o = {.pin = false};
  assert_int_equal(iospd_plat_thread_start(&t, &o, quiet_thread, &q, &err), 0);
  iospd_plat_sleep(100);
  assert_int_equal(atomic_load(&q.returned), 0); /* still waiting */
  atomic_store(&w.block, 0);
  assert_int_equal(iospd_plat_thread_join(t), 0);
  assert_int_equal(atomic_load(&q.returned), 1);
  /* quiet_end asked for the line again: "one" is drawn a second time. */
  WAIT_FOR(iospd_status_drawer_drawn(d) == 2);
  assert_string_equal(w.seen[1], "one");

  /* While quiet, a new line waits; it is drawn after quiet ends. */
  iospd_status_drawer_quiet_begin(d);
  post(d, "two");
  iospd_plat_sleep(60);
  assert_int_equal(iospd_status_drawer_drawn(d), 2);
  iospd_status_drawer_quiet_end(d, false);
  WAIT_FOR(iospd_status_drawer_drawn(d) == 3);
  assert_string_equal(w.seen[2], "two");
  /* Without redraw (a -P dot) nothing new is drawn until the next post. */
  iospd_status_drawer_quiet_begin(d);
  iospd_status_drawer_quiet_end(d, false);
  iospd_plat_sleep(60);
  assert_int_equal(iospd_status_drawer_drawn(d), 3);
  iospd_status_drawer_stop(d);
  iospd_status_drawer_stop(NULL);
  iospd_status_drawer_quiet_begin(NULL);
  iospd_status_drawer_quiet_end(NULL, true);
}

/* Lines are cut to IOSPD_STATUS_LINE_MAX; an empty line draws nothing. */
static void test_long_and_empty(void** state) {
  (void)state;
  writer_t w;
  memset(&w, 0, sizeof w);
  iospd_status_drawer_t* d = NULL;
  iospd_err_t err;
  assert_int_equal(iospd_status_drawer_start(&d, writer, &w, 5, &err), 0);
  iospd_status_drawer_post(d, "", 0);
  iospd_plat_sleep(50);
  assert_int_equal(iospd_status_drawer_drawn(d), 0);
  char big[400];
  memset(big, 'x', sizeof big);
  iospd_status_drawer_post(d, big, sizeof big);
  WAIT_FOR(iospd_status_drawer_drawn(d) == 1);
  assert_int_equal(strlen(w.last), IOSPD_STATUS_LINE_MAX);
  iospd_status_drawer_stop(d);
}

int main(void) {
  iospd_sysinfo_t sys;
  iospd_err_t err;
  if (iospd_plat_init(&sys, &err) < 0) {
    printf("skipped: platform init failed: %s\n", err.msg);
    return IOSPD_TEST_SKIP;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_post_never_waits),
      cmocka_unit_test(test_quiet_excludes_and_redraws),
      cmocka_unit_test(test_long_and_empty),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  iospd_plat_shutdown();
  return rc;
}

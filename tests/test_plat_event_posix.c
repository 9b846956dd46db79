/* SPDX-License-Identifier: MIT */
/* Linux named events across processes (src/posix/event.c): an event's state
 * never outlives every process that has it open. A child that set an event
 * and was killed with SIGKILL (no clean-up ran) leaves its semaphore in
 * /dev/shm; the next opener must find it stale, reset it and say so, and an
 * open without create must find no event. A set by a live process still
 * counts, also for handles opened after the set. */
#include <signal.h>
#include <sys/wait.h>

#include "posix/internal.h"
#include "test_util.h"

static char g_name[64];

static void new_name(void) {
  static unsigned n;
  snprintf(g_name, sizeof g_name, "iospd-test-ev-%ld-%u", (long)getpid(), n++);
}

static bool shm_has(const char* prefix, const char* suffix) {
  char path[160];
  snprintf(path, sizeof path, "/dev/shm/%siospd-%s%s", prefix, g_name, suffix);
  return access(path, F_OK) == 0;
}
static bool sem_file(void) { return shm_has("sem.", ""); }
static bool holders_file(void) { return shm_has("", ".holders"); }

static iospd_plat_event_t* open_ok(bool create) {
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_plat_event_t* ev = NULL;
  int rc = iospd_plat_event_open(g_name, create, &ev, &err);
  if (rc != 0) fail_msg("event_open(%s): %s", g_name, err.msg);
  return ev;
}

/* A child opens (creating) the event, sets it and is killed at once. */
static void killed_setter(void) {
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    iospd_err_t err;
    iospd_plat_event_t* ev = NULL;
    if (iospd_plat_event_open(g_name, true, &ev, &err) != 0 ||
        iospd_plat_event_set(ev, &err) != 0)
      _exit(2);
    kill(getpid(), SIGKILL);
    _exit(3);
  }
  int st = 0;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  /* What the kill left: the set semaphore and its holders file. */
  assert_true(sem_file());
  assert_true(holders_file());
}

static void test_killed_setter_is_stale(void** state) {
  (void)state;
  new_name();
  killed_setter();
  /* -ye's open: only a dead process had it, so there is no event, and
   * the leftovers are removed. */
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_plat_event_t* ev = NULL;
  assert_int_equal(iospd_plat_event_open(g_name, false, &ev, &err),
                   IOSPD_ENOENT);
  assert_null(ev);
  assert_non_null(strstr(err.msg, g_name));
  assert_false(sem_file());
  assert_false(holders_file());

  /* A run's open (create): the event starts afresh, not set, and the open
   * reports that it reset a stale set event. */
  killed_setter();
  ev = open_ok(true);
  assert_true(iospd_plat_event_was_stale(ev));
  assert_int_equal(iospd_plat_event_wait(ev, 0), 0);
  assert_int_equal(iospd_plat_event_wait(ev, 50), 0);
  /* Only a live set releases it. */
  assert_int_equal(iospd_plat_event_set(ev, &err), 0);
  assert_int_equal(iospd_plat_event_wait(ev, 0), 1);
  iospd_plat_event_close(ev);
  assert_false(sem_file());
  assert_false(holders_file());
}

/* A killed run that never set its event: reset silently (not "stale"). */
static void test_killed_unset_holder_is_not_reported(void** state) {
  (void)state;
  new_name();
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    iospd_err_t err;
    iospd_plat_event_t* ev = NULL;
    if (iospd_plat_event_open(g_name, true, &ev, &err) != 0) _exit(2);
    kill(getpid(), SIGKILL);
    _exit(3);
  }
  assert_int_equal(waitpid(pid, NULL, 0), pid);
  assert_true(sem_file());
  iospd_plat_event_t* ev = open_ok(true);
  assert_false(iospd_plat_event_was_stale(ev));
  assert_int_equal(iospd_plat_event_wait(ev, 0), 0);
  iospd_plat_event_close(ev);
  assert_false(sem_file());
}

/* A live child set the event before we opened it: we see it set, and it is
 * not stale. When the child dies, our own handle keeps the state (we have
 * it open), and a later opener still sees it set. */
static void test_live_setter_counts(void** state) {
  (void)state;
  new_name();
  int ready[2], hold[2];
  assert_int_equal(pipe(ready), 0);
  assert_int_equal(pipe(hold), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(ready[0]);
    close(hold[1]);
    iospd_err_t err;
    iospd_plat_event_t* ev = NULL;
    if (iospd_plat_event_open(g_name, true, &ev, &err) != 0 ||
        iospd_plat_event_set(ev, &err) != 0)
      _exit(2);
    char c = 'r';
    if (write(ready[1], &c, 1) != 1) _exit(4);
    /* Hold the event until the parent kills us. */
    (void)!read(hold[0], &c, 1);
    _exit(0);
  }
  close(ready[1]);
  close(hold[0]);
  char c = 0;
  assert_int_equal(read(ready[0], &c, 1), 1);
  iospd_plat_event_t* a = open_ok(false);
  assert_false(iospd_plat_event_was_stale(a));
  assert_int_equal(iospd_plat_event_wait(a, 0), 1);

  kill(pid, SIGKILL);
  assert_int_equal(waitpid(pid, NULL, 0), pid);
  close(ready[0]);
  close(hold[1]);
  assert_int_equal(iospd_plat_event_wait(a, 0), 1);
  iospd_plat_event_t* b = open_ok(true);
  assert_false(iospd_plat_event_was_stale(b));
  assert_int_equal(iospd_plat_event_wait(b, 0), 1);
  iospd_plat_event_close(a);
  assert_true(sem_file()); /* b still holds it */
  iospd_plat_event_close(b);
  assert_false(sem_file());
  assert_false(holders_file());
}

int main(void) {
  if (access("/dev/shm", W_OK) != 0) {
    printf("skipped: /dev/shm is not writable here\n");
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_killed_setter_is_stale),
      cmocka_unit_test(test_killed_unset_holder_is_not_reported),
      cmocka_unit_test(test_live_setter_counts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

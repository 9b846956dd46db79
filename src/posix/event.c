/* SPDX-License-Identifier: MIT */
/* Named events (-ys/-yf/-yr/-yp/-ye) on Linux, as POSIX named semaphores
 * "/iospd-<name>" (visible as /dev/shm/sem.iospd-<name>). A value above 0
 * means "set": set posts only when the value is 0, and a waiter that takes
 * the semaphore posts it straight back, so the event stays set and every
 * waiter sees it (Windows manual-reset semantics; nothing ever resets it).
 * The process that created the semaphore unlinks it when it closes it, so
 * a name lives as long as its creator's run, much as a Windows event lives
 * while its creator holds a handle. A semaphore left by a killed run keeps
 * its state until removed (rm /dev/shm/sem.iospd-<name>). */
#include <semaphore.h>
#include <string.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

/* Semaphore names are file names under /dev/shm ("sem." + name). */
#define EVENT_PREFIX "/iospd-"
#define EVENT_NAME_MAX 200

struct iospd_plat_event_s {
  sem_t* sem;
  bool owner; /* created it: unlinks it at close */
  char sem_name[sizeof EVENT_PREFIX + EVENT_NAME_MAX];
};

static int check_name(const char* name, iospd_err_t* err) {
  size_t n = name != NULL ? strlen(name) : 0;
  if (n == 0) return iospd_err_set(err, IOSPD_EINVAL, "an event needs a name");
  if (n > EVENT_NAME_MAX)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "event name '%s' is too long: at most %d bytes on "
                         "Linux",
                         name, EVENT_NAME_MAX);
  if (strchr(name, '/') != NULL)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "event name '%s' contains '/', which Linux does not "
                         "allow in the names of named semaphores; choose "
                         "another name",
                         name);
  return 0;
}

int iospd_plat_event_open(const char* name, bool create,
                          iospd_plat_event_t** ev, iospd_err_t* err) {
  *ev = NULL;
  int rc = check_name(name, err);
  if (rc < 0) return rc;
  iospd_plat_event_t* e = iospd_calloc(1, sizeof *e);
  if (e == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  snprintf(e->sem_name, sizeof e->sem_name, "%s%s", EVENT_PREFIX, name);
  e->sem = SEM_FAILED;
  /* Create-or-open, and know which: the creator owns the name. Another
   * process may create or unlink it between our two calls, so retry. */
  for (int tries = 0; tries < 8 && e->sem == SEM_FAILED; tries++) {
    if (create) {
      e->sem = sem_open(e->sem_name, O_CREAT | O_EXCL, 0600, 0);
      if (e->sem != SEM_FAILED) {
        e->owner = true;
        break;
      }
      if (errno != EEXIST) break;
    }
    e->sem = sem_open(e->sem_name, 0);
    if (e->sem != SEM_FAILED || !create || errno != ENOENT) break;
  }
  if (e->sem == SEM_FAILED) {
    int en = errno;
    iospd_free(e);
    if (en == ENOENT)
      return iospd_err_set_os(err, IOSPD_ENOENT, en,
                              "there is no event named '%s' (no iospd run "
                              "that uses it is running)",
                              name);
    return iospd_posix_err(err, en, "cannot %s the event '%s'",
                           create ? "create or open" : "open", name);
  }
  *ev = e;
  return 0;
}

int iospd_plat_event_set(iospd_plat_event_t* ev, iospd_err_t* err) {
  int v = 0;
  if (sem_getvalue(ev->sem, &v) == 0 && v > 0) return 0; /* already set */
  if (sem_post(ev->sem) != 0)
    return iospd_posix_err(err, errno, "cannot set the event '%s'",
                           ev->sem_name + sizeof EVENT_PREFIX - 1);
  return 0;
}

int iospd_plat_event_wait(iospd_plat_event_t* ev, uint32_t timeout_ms) {
  int r;
  if (timeout_ms == 0) {
    do r = sem_trywait(ev->sem);
    while (r != 0 && errno == EINTR);
  } else if (timeout_ms == UINT32_MAX) {
    do r = sem_wait(ev->sem);
    while (r != 0 && errno == EINTR);
  } else {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += (time_t)(timeout_ms / 1000u);
    ts.tv_nsec += (long)(timeout_ms % 1000u) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
    do r = sem_timedwait(ev->sem, &ts);
    while (r != 0 && errno == EINTR);
  }
  if (r == 0) {
    /* Give it back: the event stays set for everyone else. */
    (void)sem_post(ev->sem);
    return 1;
  }
  if (errno == EAGAIN || errno == ETIMEDOUT) return 0;
  return iospd_posix_translate(errno);
}

void iospd_plat_event_close(iospd_plat_event_t* ev) {
  if (ev == NULL) return;
  sem_close(ev->sem);
  if (ev->owner) sem_unlink(ev->sem_name);
  iospd_free(ev);
}

/* SPDX-License-Identifier: MIT */
/* Named events (-ys/-yf/-yr/-yp/-ye) on Linux, as POSIX named semaphores
 * "/iospd-<name>" (visible as /dev/shm/sem.iospd-<name>). A value above 0
 * means "set": set posts only when the value is 0, and a waiter that takes
 * the semaphore posts it straight back, so the event stays set and every
 * waiter sees it (Windows manual-reset semantics; nothing ever resets it).
 *
 * Lifetime, as on Windows: an event's state never outlives every process
 * that has it open. A semaphore has no such rule (it stays, set, after a
 * SIGKILL), so each event has a holders file /dev/shm/iospd-<name>.holders
 * beside it, and the kernel's record locks on it say who is alive:
 *  - byte 0, the gate: write-locked (waiting) around every open and close,
 *    so those decisions are taken one at a time;
 *  - byte 1, the holders: every open handle keeps a read lock on it.
 * The locks are open-file-description locks (F_OFD_*): the kernel drops
 * them when the handle is closed or its process dies, however it dies, and
 * two handles of one process count as two holders. There are no pids to
 * keep or check, so pid reuse cannot fool it.
 * An opener that finds no other holder knows that any semaphore under the
 * name was left by processes that are gone: it removes it (and says, through
 * iospd_plat_event_was_stale, if it was set) and starts from "not set"; an
 * open without create then finds no event, as OpenEvent would. The last
 * holder to close removes the semaphore and the holders file. */
#include <semaphore.h>
#include <string.h>
#include <sys/mman.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

/* Semaphore names are file names under /dev/shm ("sem." + name); the
 * holders file is a shared-memory object, /dev/shm/iospd-<name>.holders. */
#define EVENT_PREFIX "/iospd-"
#define HOLDERS_SUFFIX ".holders"
#define EVENT_NAME_MAX 200

enum { GATE_BYTE = 0, HOLDER_BYTE = 1 };

struct iospd_plat_event_s {
  sem_t* sem;
  int holders_fd; /* holds the read lock on HOLDER_BYTE while open */
  bool was_stale; /* found set with no live holder, and reset */
  char sem_name[sizeof EVENT_PREFIX + EVENT_NAME_MAX];
  char holders_name[sizeof EVENT_PREFIX + EVENT_NAME_MAX +
                    sizeof HOLDERS_SUFFIX];
};

static const char* user_name(const iospd_plat_event_t* e) {
  return e->sem_name + sizeof EVENT_PREFIX - 1;
}

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

/* One-byte OFD record lock: type F_RDLCK/F_WRLCK/F_UNLCK; wait or not. */
static int lock_byte(int fd, int byte, short type, bool wait) {
  struct flock l;
  memset(&l, 0, sizeof l);
  l.l_type = type;
  l.l_whence = SEEK_SET;
  l.l_start = byte;
  l.l_len = 1;
  int r;
  do r = fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &l);
  while (r != 0 && errno == EINTR);
  return r;
}

/* Does another handle (any process, or another handle of this one) hold a
 * read lock on HOLDER_BYTE? Our own handle's lock never conflicts with us. */
static int other_holders(int fd, bool* any) {
  struct flock l;
  memset(&l, 0, sizeof l);
  l.l_type = F_WRLCK;
  l.l_whence = SEEK_SET;
  l.l_start = HOLDER_BYTE;
  l.l_len = 1;
  if (fcntl(fd, F_OFD_GETLK, &l) != 0) return -1;
  *any = l.l_type != F_UNLCK;
  return 0;
}

/* Opens the holders file and takes its gate. A closer may remove the file
 * while we wait for the gate: then the file we locked has no name any more,
 * and we start again with the one now under the name. */
static int enter_gate(iospd_plat_event_t* e, bool create) {
  for (;;) {
    int fd = shm_open(e->holders_name,
                      O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0),
                      0600);
    if (fd < 0) return -1;
    struct stat st;
    if (lock_byte(fd, GATE_BYTE, F_WRLCK, true) != 0 || fstat(fd, &st) != 0) {
      int en = errno;
      close(fd);
      errno = en;
      return -1;
    }
    if (st.st_nlink > 0) return fd;
    close(fd);
  }
}

static void leave_gate(int fd) {
  (void)lock_byte(fd, GATE_BYTE, F_UNLCK, false);
}

/* With the gate held and nobody else holding the event: whatever semaphore
 * is under the name belongs to processes that are gone. Remove it; note
 * whether it was left set. */
static void drop_stale(iospd_plat_event_t* e) {
  sem_t* s = sem_open(e->sem_name, 0);
  if (s == SEM_FAILED) return;
  int v = 0;
  if (sem_getvalue(s, &v) == 0 && v > 0) e->was_stale = true;
  sem_close(s);
  sem_unlink(e->sem_name);
}

static int fail_open(iospd_plat_event_t* e, const char* name, bool create,
                     int en, iospd_err_t* err) {
  iospd_free(e);
  if (en == ENOENT)
    return iospd_err_set_os(err, IOSPD_ENOENT, en,
                            "there is no event named '%s' (no iospd run "
                            "that uses it is running)",
                            name);
  return iospd_posix_err(err, en, "cannot %s the event '%s'",
                         create ? "create or open" : "open", name);
}

int iospd_plat_event_open(const char* name, bool create,
                          iospd_plat_event_t** ev, iospd_err_t* err) {
  *ev = NULL;
  int rc = check_name(name, err);
  if (rc < 0) return rc;
  iospd_plat_event_t* e = iospd_calloc(1, sizeof *e);
  if (e == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory opening the event '%s'", name);
  snprintf(e->sem_name, sizeof e->sem_name, "%s%s", EVENT_PREFIX, name);
  snprintf(e->holders_name, sizeof e->holders_name, "%s%s%s", EVENT_PREFIX,
           name, HOLDERS_SUFFIX);
  e->sem = SEM_FAILED;

  int fd = enter_gate(e, create);
  if (fd < 0) return fail_open(e, name, create, errno, err);
  bool others = true; /* until known otherwise: never remove a live event */
  int en = 0;
  if (other_holders(fd, &others) != 0) {
    en = errno;
  } else {
    if (!others) drop_stale(e);
    if (!others && !create) {
      en = ENOENT; /* only dead processes had it: there is no event */
    } else {
      e->sem = sem_open(e->sem_name, create ? O_CREAT : 0, 0600, 0);
      if (e->sem == SEM_FAILED) en = errno;
    }
  }
  if (en == 0 && lock_byte(fd, HOLDER_BYTE, F_RDLCK, false) != 0) en = errno;
  if (en != 0) {
    if (e->sem != SEM_FAILED) sem_close(e->sem);
    if (!others) {
      /* Nobody holds the event: leave nothing behind under the name. */
      sem_unlink(e->sem_name);
      shm_unlink(e->holders_name);
    }
    close(fd);
    return fail_open(e, name, create, en, err);
  }
  leave_gate(fd);
  e->holders_fd = fd;
  *ev = e;
  return 0;
}

bool iospd_plat_event_was_stale(const iospd_plat_event_t* ev) {
  return ev != NULL && ev->was_stale;
}

int iospd_plat_event_set(iospd_plat_event_t* ev, iospd_err_t* err) {
  int v = 0;
  if (sem_getvalue(ev->sem, &v) == 0 && v > 0) return 0; /* already set */
  if (sem_post(ev->sem) != 0)
    return iospd_posix_err(err, errno, "cannot set the event '%s'",
                           user_name(ev));
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
  /* The last holder removes the event. The gate keeps an opener from
   * joining between our look and the removal; one that was waiting for it
   * finds the holders file unlinked and starts afresh. */
  bool others = true;
  if (lock_byte(ev->holders_fd, GATE_BYTE, F_WRLCK, true) == 0 &&
      other_holders(ev->holders_fd, &others) == 0 && !others) {
    sem_unlink(ev->sem_name);
    shm_unlink(ev->holders_name);
  }
  close(ev->holders_fd); /* drops both locks */
  iospd_free(ev);
}

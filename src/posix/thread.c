/* SPDX-License-Identifier: MIT */
/* Threads (pthreads, pinned before the thread function runs), the start
 * gates (latches), and the interruptible wait: a latched eventfd that
 * Ctrl-C or SIGTERM (through a self-pipe and a watcher thread) or
 * iospd_plat_interrupt makes readable. */
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

/* ---- threads ---------------------------------------------------------- */

/* The signals that stop a run the way Ctrl-C does: SIGINT (Ctrl-C),
 * SIGTERM (kill, timeout(1), systemd, a container stop) and SIGHUP (the
 * terminal or the ssh session went away). Their default action ends the
 * process at once, leaving what iospd made (--ping's temporary file, -c's
 * side copy); handled, they end the run through its normal way out. */
static const int stop_signo[] = {SIGINT, SIGTERM, SIGHUP};

static const char* signo_name(int signo) {
  return signo == SIGINT ? "SIGINT" : signo == SIGTERM ? "SIGTERM" : "SIGHUP";
}

static void stop_signals(sigset_t* set) {
  sigemptyset(set);
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(stop_signo); i++)
    sigaddset(set, stop_signo[i]);
}

struct iospd_plat_thread_s {
  pthread_t th;
  void (*fn)(void*);
  void* arg;
  bool joined; /* by iospd_plat_thread_wait */
  void* stack; /* our own mapping, guard page first */
  size_t stack_len;
};

/* Worker stacks are mapped here, not by glibc: a thread on a stack of its
 * own making skips glibc's madvise of the stack at exit and its munmap at
 * join. With -t1000 those two calls per thread, all at once at the end of
 * the run, queue on the process's address-space lock for seconds. The
 * stack is unmapped at join. 1 MiB is far more than a worker uses. */
#define STACK_LEN ((size_t)1 << 20)

static int stack_map(iospd_plat_thread_t* t, pthread_attr_t* attr,
                     iospd_err_t* err) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  t->stack_len = STACK_LEN + page;
  void* p = mmap(NULL, t->stack_len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1,
                 0);
  if (p == MAP_FAILED)
    return iospd_posix_err(err, errno, "mmap (a thread's stack)");
  /* Stacks grow down: an overflow hits this page instead of memory. */
  if (mprotect(p, page, PROT_NONE) != 0) {
    int e = errno;
    munmap(p, t->stack_len);
    return iospd_posix_err(err, e, "mprotect (a thread's stack guard)");
  }
  int rc = pthread_attr_setstack(attr, (char*)p + page, STACK_LEN);
  if (rc != 0) {
    munmap(p, t->stack_len);
    return iospd_posix_err(err, rc, "pthread_attr_setstack");
  }
  t->stack = p;
  return 0;
}

static void stack_unmap(iospd_plat_thread_t* t) {
  if (t->stack != NULL) munmap(t->stack, t->stack_len);
  t->stack = NULL;
}

static void* thread_main(void* p) {
  iospd_plat_thread_t* t = p;
  t->fn(t->arg);
  return NULL;
}

int iospd_plat_thread_start(iospd_plat_thread_t** out,
                            const iospd_thread_opts_t* o, void (*fn)(void*),
                            void* arg, iospd_err_t* err) {
  iospd_plat_thread_t* t = iospd_calloc(1, sizeof *t);
  if (t == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory starting a thread");
  t->fn = fn;
  t->arg = arg;

  pthread_attr_t attr;
  int rc = pthread_attr_init(&attr);
  if (rc != 0) {
    iospd_free(t);
    return iospd_posix_err(err, rc, "pthread_attr_init");
  }
  rc = stack_map(t, &attr, err);
  if (rc < 0) {
    pthread_attr_destroy(&attr);
    iospd_free(t);
    return rc;
  }
  cpu_set_t* set = NULL;
  uint32_t linux_cpu = 0;
  bool pin = o != NULL && o->pin && o->cpu != IOSPD_CPU_ANY;
  if (pin) {
    /* The affinity is part of the attributes, so the thread never runs a
     * single instruction of fn on the wrong CPU (first-touch NUMA placement
     * of the worker's buffers depends on it). */
    linux_cpu = (uint32_t)o->group * IOSPD_POSIX_GROUP_CPUS + o->cpu;
    if (linux_cpu >= IOSPD_MAX_CPUS) {
      pthread_attr_destroy(&attr);
      stack_unmap(t);
      iospd_free(t);
      return iospd_err_set(err, IOSPD_EINVAL,
                           "cannot pin a thread to CPU %u in group %u: iospd "
                           "supports at most %u CPUs",
                           o->cpu, (unsigned)o->group, IOSPD_MAX_CPUS);
    }
    set = CPU_ALLOC(IOSPD_MAX_CPUS);
    if (set == NULL) {
      pthread_attr_destroy(&attr);
      stack_unmap(t);
      iospd_free(t);
      return iospd_err_set(err, IOSPD_ENOMEM, "out of memory (CPU set)");
    }
    size_t setsize = CPU_ALLOC_SIZE(IOSPD_MAX_CPUS);
    CPU_ZERO_S(setsize, set);
    CPU_SET_S(linux_cpu, setsize, set);
    rc = pthread_attr_setaffinity_np(&attr, setsize, set);
    if (rc != 0) {
      CPU_FREE(set);
      pthread_attr_destroy(&attr);
      stack_unmap(t);
      iospd_free(t);
      return iospd_posix_err(err, rc, "cannot pin a thread to CPU %u",
                             linux_cpu);
    }
  }

  /* New threads start with SIGINT, SIGTERM and SIGHUP blocked (they
   * inherit the mask), so those signals always land on a thread that is
   * not inside an I/O system call. */
  sigset_t block, old;
  stop_signals(&block);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  rc = pthread_create(&t->th, &attr, thread_main, t);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (set != NULL) CPU_FREE(set);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    stack_unmap(t);
    iospd_free(t);
    if (pin && rc == EINVAL)
      return iospd_posix_err(err, rc,
                             "cannot start a thread on CPU %u (is it online "
                             "and allowed for this process?)",
                             linux_cpu);
    return iospd_posix_err(err, rc, "pthread_create");
  }
  *out = t;
  return 0;
}

int iospd_plat_thread_join(iospd_plat_thread_t* t) {
  if (t == NULL) return 0;
  int rc = t->joined ? 0 : pthread_join(t->th, NULL);
  if (rc == 0) stack_unmap(t); /* else it may still run on it: leak */
  iospd_free(t);
  return rc == 0 ? 0 : iospd_posix_translate(rc);
}

int iospd_plat_thread_wait(iospd_plat_thread_t* t, uint32_t ms) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += ms / 1000;
  until.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  /* Joined here already: iospd_plat_thread_join then only frees. */
  if (t->joined || pthread_timedjoin_np(t->th, NULL, &until) == 0) {
    t->joined = true;
    return 1;
  }
  return 0;
}

/* A pread blocked on a hung device cannot be cancelled from outside (a
 * signal does not interrupt an uninterruptible sleep). */
void iospd_plat_thread_cancel_io(iospd_plat_thread_t* t) { (void)t; }

/* ---- interruptible wait and Ctrl-C ------------------------------------ */

/* The wake-up eventfd is latched: once written it stays readable, because an
 * interrupt means "stop the run" and a wait that starts after it must not
 * sleep. Nobody ever reads it. */
static pthread_once_t wake_once = PTHREAD_ONCE_INIT;
static int wake_fd = -1;
static int wake_errno;

static void wake_create(void) {
  wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd < 0) wake_errno = errno;
}

int iospd_posix_wake_init(iospd_err_t* err) {
  pthread_once(&wake_once, wake_create);
  if (wake_fd < 0)
    return iospd_posix_err(err, wake_errno, "eventfd (wake-up descriptor)");
  return 0;
}

void iospd_plat_interrupt(void) {
  pthread_once(&wake_once, wake_create);
  if (wake_fd >= 0) {
    uint64_t one = 1;
    /* Async-signal-safe; EAGAIN (counter full) still leaves it readable. */
    ssize_t w = write(wake_fd, &one, sizeof one);
    (void)w;
  }
}

static uint64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

bool iospd_posix_interrupt_pending(void) {
  pthread_once(&wake_once, wake_create);
  if (wake_fd < 0) return false;
  struct pollfd p = {.fd = wake_fd, .events = POLLIN};
  int rc;
  do rc = poll(&p, 1, 0);
  while (rc < 0 && errno == EINTR);
  return rc > 0;
}

int iospd_plat_wait(uint32_t ms) {
  pthread_once(&wake_once, wake_create);
  bool forever = ms == UINT32_MAX;
  uint64_t deadline = now_ms() + ms;
  for (;;) {
    int timeout = -1;
    if (!forever) {
      uint64_t now = now_ms();
      uint64_t left = now >= deadline ? 0 : deadline - now;
      timeout = left > INT_MAX ? INT_MAX : (int)left;
    }
    if (wake_fd < 0) {
      /* No descriptor (fd exhaustion at start-up): plain sleep, no wake-up. */
      if (timeout < 0) timeout = INT_MAX;
      struct timespec ts = {timeout / 1000, (long)(timeout % 1000) * 1000000L};
      nanosleep(&ts, NULL);
      return 0;
    }
    struct pollfd p = {.fd = wake_fd, .events = POLLIN};
    int rc = poll(&p, 1, timeout);
    if (rc > 0) return 1;
    if (rc == 0) {
      if (forever || now_ms() >= deadline) return 0;
      continue;
    }
    if (errno != EINTR) return 0;
  }
}

/* Ctrl-C and SIGTERM: the handler only writes one byte to a pipe
 * (async-signal-safe); a watcher thread reads it, calls the callback in a
 * normal thread context, then wakes the waits. The second signal only
 * writes the notice (the first has stopped the I/O, so what was measured
 * is being written: an impatient second Ctrl-C must not lose it); the
 * third ends the process the usual way, in case the run does not stop,
 * removing the temporary file of a report being written. */
static pthread_mutex_t sig_lock = PTHREAD_MUTEX_INITIALIZER;
static int sig_pipe[2] = {-1, -1};
static pthread_t sig_watcher;
static bool sig_installed;
static struct sigaction sig_old[IOSPD_ARRAY_SIZE(stop_signo)];
static void (*sig_cb)(void*);
static void* sig_cb_arg;

static volatile sig_atomic_t sig_count;
static const char* volatile sig_notice;
static const char* volatile sig_doomed_tmp;

void iospd_posix_doomed_tmp(const char* path) { sig_doomed_tmp = path; }

void iospd_plat_set_interrupt_notice(const char* text) { sig_notice = text; }

static void on_stop_signal(int signo) {
  int saved = errno;
  int n = ++sig_count;
  if (n >= 3) {
    /* Abandoned: the report being written leaves no temporary file behind
     * (unlink is async-signal-safe; the final name keeps its old file). */
    const char* tmp = sig_doomed_tmp;
    if (tmp != NULL) (void)unlink(tmp);
    signal(signo, SIG_DFL);
    raise(signo);
  } else if (n == 2) {
    const char* t = sig_notice;
    if (t != NULL) {
      ssize_t w = write(STDERR_FILENO, t, strlen(t));
      (void)w;
    }
  } else {
    char c = 'i';
    ssize_t w = write(sig_pipe[1], &c, 1);
    (void)w;
  }
  errno = saved;
}

static void* sig_watch(void* unused) {
  (void)unused;
  bool called = false;
  for (;;) {
    char c;
    ssize_t r = read(sig_pipe[0], &c, 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0 || c == 'q') return NULL;
    if (!called) {
      called = true;
      pthread_mutex_lock(&sig_lock);
      void (*cb)(void*) = sig_cb;
      void* arg = sig_cb_arg;
      pthread_mutex_unlock(&sig_lock);
      if (cb != NULL) cb(arg);
    }
    iospd_plat_interrupt();
  }
}

int iospd_plat_on_interrupt(void (*cb)(void* arg), void* arg,
                            iospd_err_t* err) {
  int rc = iospd_posix_wake_init(err);
  if (rc < 0) return rc;
  pthread_mutex_lock(&sig_lock);
  sig_cb = cb;
  sig_cb_arg = arg;
  if (sig_installed) {
    pthread_mutex_unlock(&sig_lock);
    return 0;
  }
  if (pipe2(sig_pipe, O_CLOEXEC) != 0) {
    int e = errno;
    pthread_mutex_unlock(&sig_lock);
    return iospd_posix_err(err, e, "pipe2 (Ctrl-C handler)");
  }
  sig_count = 0; /* a handler installed anew (after a shutdown) counts anew */
  /* The watcher inherits a mask with the stop signals blocked. */
  sigset_t block, old;
  stop_signals(&block);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  int prc = pthread_create(&sig_watcher, NULL, sig_watch, NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (prc != 0) {
    close(sig_pipe[0]);
    close(sig_pipe[1]);
    sig_pipe[0] = sig_pipe[1] = -1;
    pthread_mutex_unlock(&sig_lock);
    return iospd_posix_err(err, prc, "pthread_create (Ctrl-C watcher)");
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  size_t set = 0;
  for (; set < IOSPD_ARRAY_SIZE(stop_signo); set++) {
    /* An ignored SIGHUP stays ignored: nohup(1) asked for that. */
    if (stop_signo[set] == SIGHUP &&
        sigaction(SIGHUP, NULL, &sig_old[set]) == 0 &&
        sig_old[set].sa_handler == SIG_IGN)
      continue;
    if (sigaction(stop_signo[set], &sa, &sig_old[set]) != 0) break;
  }
  if (set < IOSPD_ARRAY_SIZE(stop_signo)) {
    int e = errno;
    int bad = stop_signo[set];
    while (set-- > 0) sigaction(stop_signo[set], &sig_old[set], NULL);
    char q = 'q';
    ssize_t w = write(sig_pipe[1], &q, 1);
    (void)w;
    pthread_join(sig_watcher, NULL);
    close(sig_pipe[0]);
    close(sig_pipe[1]);
    sig_pipe[0] = sig_pipe[1] = -1;
    pthread_mutex_unlock(&sig_lock);
    return iospd_posix_err(err, e, "sigaction(%s)", signo_name(bad));
  }
  sig_installed = true;
  pthread_mutex_unlock(&sig_lock);
  return 0;
}

void iospd_posix_wake_shutdown(void) {
  pthread_mutex_lock(&sig_lock);
  if (sig_installed) {
    for (size_t i = 0; i < IOSPD_ARRAY_SIZE(stop_signo); i++)
      sigaction(stop_signo[i], &sig_old[i], NULL);
    char q = 'q';
    ssize_t w = write(sig_pipe[1], &q, 1);
    (void)w;
    sig_installed = false;
    pthread_mutex_unlock(&sig_lock);
    pthread_join(sig_watcher, NULL);
    pthread_mutex_lock(&sig_lock);
    close(sig_pipe[0]);
    close(sig_pipe[1]);
    sig_pipe[0] = sig_pipe[1] = -1;
  }
  sig_cb = NULL;
  sig_cb_arg = NULL;
  pthread_mutex_unlock(&sig_lock);
}

/* ---- start gates -------------------------------------------------------- */

/* The latch is an eventfd that becomes readable (and stays so: nobody reads
 * it) when the last arrival is made or on abort. Waiters poll it together
 * with the interrupt descriptor, so they sleep until either fires: a
 * thousand workers at the gate cost nothing until it opens, and Ctrl-C
 * releases them at once. (pthread_barrier_t can be neither aborted nor
 * interrupted.) */
struct iospd_plat_latch_s {
  int fd;
  _Atomic uint32_t left; /* arrivals still missing */
  _Atomic uint32_t aborted;
};

static void latch_open(iospd_plat_latch_t* l) {
  uint64_t one = 1;
  /* Cannot fail in a way that matters: EAGAIN still leaves it readable. */
  ssize_t w = write(l->fd, &one, sizeof one);
  (void)w;
}

int iospd_plat_latch_create(iospd_plat_latch_t** out, uint32_t count,
                            iospd_err_t* err) {
  iospd_plat_latch_t* l = iospd_calloc(1, sizeof *l);
  if (l == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory (start gate)");
  l->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (l->fd < 0) {
    int e = errno;
    iospd_free(l);
    return iospd_posix_err(err, e, "eventfd (start gate)");
  }
  atomic_init(&l->left, count);
  atomic_init(&l->aborted, 0);
  if (count == 0) latch_open(l);
  *out = l;
  return 0;
}

void iospd_plat_latch_arrive(iospd_plat_latch_t* l) {
  uint32_t left = atomic_load(&l->left);
  while (left > 0 &&
         !atomic_compare_exchange_weak(&l->left, &left, left - 1)) {
  }
  if (left == 1) latch_open(l);
}

void iospd_plat_latch_abort(iospd_plat_latch_t* l) {
  atomic_store(&l->aborted, 1);
  latch_open(l);
}

/* Polls with a timeout counted down across EINTR; -1: no limit. */
static int latch_poll(iospd_plat_latch_t* l, int timeout_ms) {
  pthread_once(&wake_once, wake_create);
  struct pollfd p[2] = {{.fd = l->fd, .events = POLLIN},
                        {.fd = wake_fd, .events = POLLIN}};
  nfds_t n = wake_fd >= 0 ? 2 : 1;
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    int left = timeout_ms;
    if (timeout_ms >= 0) {
      struct timespec t1;
      clock_gettime(CLOCK_MONOTONIC, &t1);
      int64_t spent = (int64_t)(t1.tv_sec - t0.tv_sec) * 1000 +
                      (t1.tv_nsec - t0.tv_nsec) / 1000000;
      left = spent >= timeout_ms ? 0 : timeout_ms - (int)spent;
    }
    int rc = poll(p, n, left);
    if (rc < 0 && errno != EINTR) return 1; /* cannot wait: do not start */
    if (rc == 0 && timeout_ms >= 0) return 2;
    if (rc <= 0) continue;
    if (p[0].revents != 0) return atomic_load(&l->aborted) ? 1 : 0;
    if (n == 2 && p[1].revents != 0) return 1;
  }
}

int iospd_plat_latch_wait(iospd_plat_latch_t* l) { return latch_poll(l, -1); }

int iospd_plat_latch_wait_ms(iospd_plat_latch_t* l, uint32_t ms) {
  return latch_poll(l, ms > (uint32_t)INT32_MAX ? INT32_MAX : (int)ms);
}

void iospd_plat_latch_destroy(iospd_plat_latch_t* l) {
  if (l == NULL) return;
  close(l->fd);
  iospd_free(l);
}

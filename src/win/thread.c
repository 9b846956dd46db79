/* SPDX-License-Identifier: MIT */
/* Worker threads pinned with SetThreadGroupAffinity before they run (created
 * suspended), the start gates (latches on events), and the interruptible
 * wait plus Ctrl-C handling. Cf. fio
 * os/windows/cpu-affinity.c for the group-aware affinity. */
#include <limits.h>
#include <process.h>
#include <string.h>

#include "iospd/alloc.h"
#include "win/internal.h"

/* 64 on 64-bit Windows, 32 for 32-bit processes. */
#define KAFFINITY_BITS (sizeof(KAFFINITY) * 8)

/* Address space reserved for each worker's stack (pages are committed only
 * as they are touched). The image's default is 2 MiB, which lets a 32-bit
 * iospd start fewer than 1000 threads before its address space runs out.
 * A worker's deepest path, looking at a disk's partition table, needs
 * about 25 KiB (gcc -fstack-usage) plus what the system calls under it
 * use; 256 KiB leaves ample room, and 1000 threads reserve 256 MiB. */
#define WORKER_STACK_RESERVE (256u * 1024u)

/* ---- threads ------------------------------------------------------------- */

static unsigned __stdcall trampoline(void* p) {
  iospd_plat_thread_t* t = p;
  if (!InterlockedCompareExchange(&t->cancelled, 0, 0)) t->fn(t->arg);
  iospd_win_thread_timer_free();
  return 0;
}

static int set_affinity(HANDLE h, const iospd_thread_opts_t* o,
                        iospd_err_t* err) {
  GROUP_AFFINITY ga;
  /* Reserved must be zero or the call fails with ERROR_INVALID_PARAMETER. */
  memset(&ga, 0, sizeof ga);
  ga.Group = o->group;
  if (o->cpu == IOSPD_CPU_ANY) {
    /* Every active CPU of the group; the mask need not be contiguous. */
    uint64_t masks[IOSPD_WIN_MAX_GROUPS];
    uint32_t ngroups = 0;
    int rc = iospd_win_group_masks(masks, &ngroups, err);
    if (rc) return rc;
    if (o->group >= ngroups)
      return iospd_err_set(err, IOSPD_EINVAL,
                           "processor group %u does not exist: this system "
                           "has %u processor group%s",
                           (unsigned)o->group, (unsigned)ngroups,
                           ngroups == 1 ? "" : "s");
    ga.Mask = (KAFFINITY)masks[o->group];
  } else {
    if (o->cpu >= KAFFINITY_BITS)
      return iospd_err_set(err, IOSPD_EINVAL,
                           "CPU %u is out of range: a processor group holds "
                           "at most %u CPUs (0-%u)",
                           (unsigned)o->cpu, (unsigned)KAFFINITY_BITS,
                           (unsigned)KAFFINITY_BITS - 1);
    ga.Mask = (KAFFINITY)1 << o->cpu;
  }
  if (!SetThreadGroupAffinity(h, &ga, NULL))
    return iospd_win_err(err, GetLastError(),
                         "cannot pin a thread to CPU %u of group %u "
                         "(check the -a list against the system's CPUs)",
                         (unsigned)o->cpu, (unsigned)o->group);
  return 0;
}

int iospd_plat_thread_start(iospd_plat_thread_t** out,
                            const iospd_thread_opts_t* o, void (*fn)(void*),
                            void* arg, iospd_err_t* err) {
  *out = NULL;
  iospd_plat_thread_t* t = iospd_calloc(1, sizeof *t);
  if (t == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  t->fn = fn;
  t->arg = arg;
  /* _beginthreadex, not CreateThread: the thread uses the C runtime. It
   * hands its flags to CreateThread, where STACK_SIZE_PARAM_IS_A_RESERVATION
   * makes the size the reservation (without it, the size is what is
   * committed up front and the reservation stays the image's 2 MiB). */
  uintptr_t h = _beginthreadex(NULL, WORKER_STACK_RESERVE, trampoline, t,
                               CREATE_SUSPENDED |
                                   STACK_SIZE_PARAM_IS_A_RESERVATION,
                               NULL);
  if (h == 0) {
    DWORD e = GetLastError();
    iospd_free(t);
    return iospd_win_err(err, e ? e : ERROR_NOT_ENOUGH_MEMORY,
                         "cannot start a worker thread");
  }
  t->h = (HANDLE)h;
  int rc = 0;
  if (o != NULL && o->pin) rc = set_affinity(t->h, o, err);
  if (rc) InterlockedExchange(&t->cancelled, 1);
  /* Resume even on failure: the thread then returns without calling fn,
   * and we can wait for it instead of killing it. */
  ResumeThread(t->h);
  if (rc) {
    WaitForSingleObject(t->h, INFINITE);
    CloseHandle(t->h);
    iospd_free(t);
    return rc;
  }
  *out = t;
  return 0;
}

int iospd_plat_thread_join(iospd_plat_thread_t* t) {
  if (t == NULL) return 0;
  DWORD w = WaitForSingleObject(t->h, INFINITE);
  CloseHandle(t->h);
  iospd_free(t);
  return w == WAIT_OBJECT_0 ? 0 : IOSPD_EOS;
}

int iospd_plat_thread_wait(iospd_plat_thread_t* t, uint32_t ms) {
  return WaitForSingleObject(t->h, ms == UINT32_MAX ? INFINITE : ms) ==
                 WAIT_OBJECT_0
             ? 1
             : 0;
}

void iospd_plat_thread_cancel_io(iospd_plat_thread_t* t) {
  /* Fails with ERROR_NOT_FOUND when the thread is in no I/O call; the
   * handle from _beginthreadex has THREAD_TERMINATE, which it needs. */
  (void)CancelSynchronousIo(t->h);
}

/* ---- start gates ----------------------------------------------------------- */

/* The latch is a manual-reset event set by the last arrival or by abort.
 * Waiters wait for it together with the interrupt event, so they sleep
 * until either is set and Ctrl-C releases them at once. Plain events work
 * from Windows XP on and under wine; SynchronizationBarrier (Windows 8)
 * could be neither aborted nor interrupted. */
int iospd_plat_latch_create(iospd_plat_latch_t** out, uint32_t count,
                            iospd_err_t* err) {
  *out = NULL;
  if (count > (uint32_t)LONG_MAX)
    return iospd_err_set(err, IOSPD_EINVAL, "too many parties for a gate");
  iospd_plat_latch_t* l = iospd_calloc(1, sizeof *l);
  if (l == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  l->ev = CreateEventW(NULL, TRUE, count == 0, NULL);
  if (l->ev == NULL) {
    DWORD e = GetLastError();
    iospd_free(l);
    return iospd_win_err(err, e,
                         "cannot create the workers' start gate (an event)");
  }
  l->left = (LONG)count;
  *out = l;
  return 0;
}

void iospd_plat_latch_arrive(iospd_plat_latch_t* l) {
  LONG left = InterlockedCompareExchange(&l->left, 0, 0);
  for (;;) {
    if (left <= 0) return;
    LONG seen = InterlockedCompareExchange(&l->left, left - 1, left);
    if (seen == left) break;
    left = seen;
  }
  if (left == 1) SetEvent(l->ev);
}

void iospd_plat_latch_abort(iospd_plat_latch_t* l) {
  InterlockedExchange(&l->aborted, 1);
  SetEvent(l->ev);
}

static int latch_wait_for(iospd_plat_latch_t* l, DWORD ms) {
  iospd_win_once();
  HANDLE h[2] = {l->ev, iospd_win_interrupt_event};
  DWORD n = h[1] != NULL ? 2 : 1;
  /* The lowest index wins when both are set: an opened gate says so. */
  DWORD w = WaitForMultipleObjects(n, h, FALSE, ms);
  if (w == WAIT_OBJECT_0)
    return InterlockedCompareExchange(&l->aborted, 0, 0) ? 1 : 0;
  if (w == WAIT_TIMEOUT) return 2;
  return 1; /* interrupted, or the wait failed: do not start */
}

int iospd_plat_latch_wait(iospd_plat_latch_t* l) {
  return latch_wait_for(l, INFINITE);
}

int iospd_plat_latch_wait_ms(iospd_plat_latch_t* l, uint32_t ms) {
  return latch_wait_for(l, ms == INFINITE ? INFINITE - 1 : ms);
}

void iospd_plat_latch_destroy(iospd_plat_latch_t* l) {
  if (l == NULL) return;
  CloseHandle(l->ev);
  iospd_free(l);
}

/* ---- waiting and Ctrl-C -------------------------------------------------- */

static void (*volatile interrupt_cb)(void*);
static void* volatile interrupt_arg;
static volatile LONG interrupt_fired;

int iospd_plat_wait(uint32_t ms) {
  iospd_win_once();
  if (iospd_win_interrupt_event == NULL) {
    Sleep(ms);
    return 0;
  }
  DWORD timeout = ms == UINT32_MAX ? INFINITE : ms;
  return WaitForSingleObject(iospd_win_interrupt_event, timeout) ==
                 WAIT_OBJECT_0
             ? 1
             : 0;
}

void iospd_plat_interrupt(void) {
  iospd_win_once();
  if (iospd_win_interrupt_event != NULL) SetEvent(iospd_win_interrupt_event);
}

/* Runs on a thread the system creates for the console event. The first
 * Ctrl-C or Ctrl-Break stops the run; any later one is left to the next
 * handler, the system's default, which ends the process (DISKSPD removes
 * its handler after the first Ctrl-C): a run that does not stop, say on a
 * hung device, can still be ended from the keyboard. */
static const char* volatile interrupt_notice;

void iospd_plat_set_interrupt_notice(const char* text) {
  interrupt_notice = text;
}

/* The first Ctrl-C stops the run, the second only says that the results
 * are being written (so an impatient one does not lose them), the third
 * goes to the default handler, which ends the process. */
BOOL WINAPI iospd_win_ctrl_handler(DWORD type) {
  if (type != CTRL_C_EVENT && type != CTRL_BREAK_EVENT) return FALSE;
  static volatile LONG count;
  LONG n = InterlockedIncrement(&count);
  if (n >= 3) return FALSE;
  if (n == 2) {
    const char* t = interrupt_notice;
    DWORD w = 0;
    if (t != NULL)
      WriteFile(GetStdHandle(STD_ERROR_HANDLE), t, (DWORD)strlen(t), &w, NULL);
    return TRUE;
  }
  if (InterlockedExchange(&interrupt_fired, 1) != 0) return TRUE;
  void (*cb)(void*) = interrupt_cb;
  if (cb != NULL) cb(interrupt_arg);
  iospd_plat_interrupt();
  return TRUE; /* handled: the run stops and reports */
}

int iospd_plat_on_interrupt(void (*cb)(void* arg), void* arg,
                            iospd_err_t* err) {
  iospd_win_once();
  interrupt_arg = arg;
  interrupt_cb = cb;
  static volatile LONG installed;
  if (InterlockedExchange(&installed, 1) == 0 &&
      !SetConsoleCtrlHandler(iospd_win_ctrl_handler, TRUE)) {
    InterlockedExchange(&installed, 0);
    return iospd_win_err(err, GetLastError(),
                         "cannot install the Ctrl-C handler");
  }
  return 0;
}

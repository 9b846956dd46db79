/* SPDX-License-Identifier: MIT */
/* DeviceIoControl that is correct on every handle iospd holds. Targets are
 * opened with FILE_FLAG_OVERLAPPED for IOCP, and on such a handle the call
 * needs an OVERLAPPED: without one the system waits on the file handle
 * itself, which any other I/O on that handle may signal, while the status
 * block sits on the caller's stack ("fails in unpredictable ways", says
 * the DeviceIoControl contract). So every control call gets an OVERLAPPED
 * with its own event. A call that stays pending is waited for together
 * with the interrupt event (Ctrl-C, iospd_plat_interrupt) and at most
 * iospd_win_ioctl_deadline_ms, then cancelled with CancelIoEx: a hung
 * adapter or a paused CSV volume must not hold a worker's set-up for ever,
 * and CancelSynchronousIo cannot reach an overlapped call. */
#include "iospd/alloc.h"
#include "win/internal.h"

iospd_win_ioctl_hook_fn iospd_win_ioctl_hook = NULL;
uint32_t iospd_win_ioctl_deadline_ms = 30000;

/* How long a cancelled call may take to finish before its OVERLAPPED is
 * given up to the kernel (leaked, never freed under it). */
#define CANCEL_WAIT_MS 5000

typedef struct {
  OVERLAPPED ov;
  HANDLE ev;
} ioctl_op_t;

/* An op whose call returned ERROR_IO_PENDING: waits for it with the
 * interrupt event and the set-up deadline, and cancels it when either
 * comes first. Returns the call's final error (ERROR_SUCCESS when it
 * completed), with *n its byte count; *abandoned when the cancel did not
 * finish in CANCEL_WAIT_MS, so op (and the caller's buffers) stay the
 * kernel's and must be leaked, not freed. */
static DWORD finish_pending(HANDLE h, ioctl_op_t* op, DWORD* n,
                            bool* abandoned) {
  *abandoned = false;
  HANDLE waits[2] = {op->ev, iospd_win_interrupt_event};
  DWORD nw = waits[1] != NULL ? 2 : 1;
  DWORD limit = iospd_win_ioctl_deadline_ms == UINT32_MAX
                    ? INFINITE
                    : (DWORD)iospd_win_ioctl_deadline_ms;
  /* The lowest index wins when both are set: a finished call counts. */
  DWORD w = WaitForMultipleObjects(nw, waits, FALSE, limit);
  if (w == WAIT_OBJECT_0)
    return GetOverlappedResult(h, &op->ov, n, FALSE) ? ERROR_SUCCESS
                                                     : GetLastError();
  DWORD why = w == WAIT_TIMEOUT ? ERROR_TIMEOUT : ERROR_OPERATION_ABORTED;
  (void)CancelIoEx(h, &op->ov);
  if (WaitForSingleObject(op->ev, CANCEL_WAIT_MS) != WAIT_OBJECT_0) {
    *abandoned = true;
    return why;
  }
  /* Completed in the meantime: the answer stands. */
  return GetOverlappedResult(h, &op->ov, n, FALSE) ? ERROR_SUCCESS : why;
}

BOOL iospd_win_ioctl(HANDLE h, DWORD code, void* in, DWORD in_len, void* out,
                     DWORD out_len, DWORD* returned) {
  DWORD ret = 0;
  if (iospd_win_ioctl_hook != NULL) {
    int r = iospd_win_ioctl_hook(h, code, out, out_len, &ret);
    if (r >= 0) {
      if (returned != NULL) *returned = ret;
      return r > 0;
    }
  }
  iospd_win_once();
  /* On the heap: if a cancelled call never finishes, the kernel keeps
   * this OVERLAPPED, and the caller's stack must not be it. */
  ioctl_op_t* op = iospd_calloc(1, sizeof *op);
  if (op == NULL) {
    SetLastError(ERROR_NOT_ENOUGH_MEMORY);
    return FALSE;
  }
  op->ev = CreateEventW(NULL, TRUE, FALSE, NULL);
  if (op->ev == NULL) {
    DWORD e = GetLastError();
    iospd_free(op);
    SetLastError(e);
    return FALSE;
  }
  /* The low bit of hEvent keeps the completion off any I/O completion port
   * the handle is bound to (the port belongs to the worker's reap loop,
   * which would take it for one of its own I/Os). */
  op->ov.hEvent = (HANDLE)((ULONG_PTR)op->ev | 1);
  BOOL ok = DeviceIoControl(h, code, in, in_len, out, out_len, &ret, &op->ov);
  DWORD e = ok ? ERROR_SUCCESS : GetLastError();
  if (!ok && e == ERROR_IO_PENDING) {
    bool abandoned;
    e = finish_pending(h, op, &ret, &abandoned);
    ok = e == ERROR_SUCCESS;
    if (abandoned) { /* still the kernel's: leaked, never freed under it */
      SetLastError(e);
      return FALSE;
    }
  }
  CloseHandle(op->ev);
  iospd_free(op);
  if (returned != NULL) *returned = ret;
  SetLastError(e);
  return ok;
}

DWORD iospd_win_read_timed(HANDLE h, uint64_t off, void* buf, DWORD len,
                           DWORD* got, bool* abandoned) {
  *got = 0;
  *abandoned = false;
  iospd_win_once();
  ioctl_op_t* op = iospd_calloc(1, sizeof *op);
  if (op == NULL) return ERROR_NOT_ENOUGH_MEMORY;
  op->ev = CreateEventW(NULL, TRUE, FALSE, NULL);
  if (op->ev == NULL) {
    DWORD e = GetLastError();
    iospd_free(op);
    return e;
  }
  op->ov.hEvent = (HANDLE)((ULONG_PTR)op->ev | 1);
  op->ov.Offset = (DWORD)off;
  op->ov.OffsetHigh = (DWORD)(off >> 32);
  /* On a handle opened without FILE_FLAG_OVERLAPPED this is a plain
   * blocking read at the offset; on an overlapped one it may pend. */
  DWORD n = 0;
  BOOL ok = ReadFile(h, buf, len, &n, &op->ov);
  DWORD e = ok ? ERROR_SUCCESS : GetLastError();
  if (!ok && e == ERROR_IO_PENDING) {
    e = finish_pending(h, op, &n, abandoned);
    ok = e == ERROR_SUCCESS;
    if (*abandoned) return e; /* op and buf stay the kernel's */
  }
  CloseHandle(op->ev);
  iospd_free(op);
  *got = ok ? n : 0;
  return e;
}

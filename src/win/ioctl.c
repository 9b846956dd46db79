/* SPDX-License-Identifier: MIT */
/* DeviceIoControl that is correct on every handle iospd holds. Targets are
 * opened with FILE_FLAG_OVERLAPPED for IOCP, and on such a handle the call
 * needs an OVERLAPPED: without one the system waits on the file handle
 * itself, which any other I/O on that handle may signal, while the status
 * block sits on the caller's stack ("fails in unpredictable ways", says
 * the DeviceIoControl contract). So every control call gets an OVERLAPPED
 * with its own event, and waits for the result with GetOverlappedResult. */
#include "win/internal.h"

BOOL iospd_win_ioctl(HANDLE h, DWORD code, void* in, DWORD in_len, void* out,
                     DWORD out_len, DWORD* returned) {
  DWORD ret = 0;
  HANDLE ev = CreateEventW(NULL, TRUE, FALSE, NULL);
  if (ev == NULL) return FALSE;
  OVERLAPPED ov;
  ZeroMemory(&ov, sizeof ov);
  /* The low bit of hEvent keeps the completion off any I/O completion port
   * the handle is bound to (the port belongs to the worker's reap loop,
   * which would take it for one of its own I/Os). */
  ov.hEvent = (HANDLE)((ULONG_PTR)ev | 1);
  BOOL ok = DeviceIoControl(h, code, in, in_len, out, out_len, &ret, &ov);
  if (!ok && GetLastError() == ERROR_IO_PENDING)
    ok = GetOverlappedResult(h, &ov, &ret, TRUE);
  DWORD e = ok ? ERROR_SUCCESS : GetLastError();
  CloseHandle(ev);
  if (returned != NULL) *returned = ret;
  SetLastError(e);
  return ok;
}

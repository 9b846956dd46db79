/* SPDX-License-Identifier: MIT */
/* Win32 error codes to iospd error codes, and messages with the system's
 * own text (FormatMessageW, converted to UTF-8). */
#include <stdarg.h>
#include <stdio.h>

#include "win/internal.h"

int iospd_win_translate(DWORD code) {
  switch (code) {
    case ERROR_SUCCESS: return 0;
    case ERROR_INVALID_PARAMETER: return IOSPD_EINVAL;
    case ERROR_NOT_ENOUGH_MEMORY: case ERROR_OUTOFMEMORY:
    case ERROR_NO_SYSTEM_RESOURCES: return IOSPD_ENOMEM;
    case ERROR_FILE_NOT_FOUND: case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE: case ERROR_BAD_NETPATH: case ERROR_BAD_NET_NAME:
    case ERROR_INVALID_NAME: return IOSPD_ENOENT;
    case ERROR_ACCESS_DENIED: case ERROR_PRIVILEGE_NOT_HELD:
    case ERROR_SHARING_VIOLATION: case ERROR_WRITE_PROTECT:
      return IOSPD_EACCES;
    case ERROR_FILE_EXISTS: case ERROR_ALREADY_EXISTS: return IOSPD_EEXIST;
    case ERROR_DISK_FULL: case ERROR_HANDLE_DISK_FULL: return IOSPD_ENOSPC;
    case ERROR_NOT_SUPPORTED: case ERROR_CALL_NOT_IMPLEMENTED:
    case ERROR_INVALID_FUNCTION: return IOSPD_ENOTSUP;
    case ERROR_OPERATION_ABORTED: return IOSPD_ECANCELED;
    case ERROR_NOT_ALL_ASSIGNED: return IOSPD_EACCES;
    case ERROR_INVALID_HANDLE: return IOSPD_EINVAL;
    case WAIT_TIMEOUT: return IOSPD_EAGAIN;
    case ERROR_CRC: case ERROR_IO_DEVICE: case ERROR_SECTOR_NOT_FOUND:
    case ERROR_HANDLE_EOF: case ERROR_DEVICE_NOT_CONNECTED:
    /* Not "no such file": the device is there but cannot answer now (a
     * paused CSV, removable media, a disk coming online). */
    case ERROR_NOT_READY:
      return IOSPD_EIO;
    default: return IOSPD_EOS;
  }
}

void iospd_win_error_text(DWORD code, char* out, size_t size) {
  if (size == 0) return;
  WCHAR wide[160];
  char text[200] = "";
  DWORD n = FormatMessageW(
      FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code,
      0, wide, (DWORD)(sizeof wide / sizeof wide[0]), NULL);
  if (n > 0) {
    while (n > 0 && (wide[n - 1] == L'\r' || wide[n - 1] == L'\n' ||
                     wide[n - 1] == L'.' || wide[n - 1] == L' '))
      wide[--n] = 0;
    iospd_win_wide_to_utf8(wide, text, sizeof text);
  }
  snprintf(out, size, "%s (error %lu)", text[0] ? text : "system error",
           (unsigned long)code);
}

int iospd_win_err(iospd_err_t* err, DWORD code, const char* fmt, ...) {
  int rc = iospd_win_translate(code);
  if (err == NULL) return rc;
  char what[IOSPD_ERR_MSG_MAX / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  char text[220];
  iospd_win_error_text(code, text, sizeof text);
  return iospd_err_set_os(err, rc, (int64_t)code, "%s: %s", what, text);
}

DWORD iospd_win_ntstatus_to_win32(NTSTATUS status) {
  /* libuv GET_REQ_ERROR: the completion's own status, never GetLastError(),
   * which belongs to whatever the thread called last. */
  if (status == 0) return ERROR_SUCCESS;
  if (iospd_win_RtlNtStatusToDosError != NULL)
    return iospd_win_RtlNtStatusToDosError(status);
  return ERROR_MR_MID_NOT_FOUND;
}

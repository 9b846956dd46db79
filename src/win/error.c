/* SPDX-License-Identifier: MIT */
/* Win32 error codes to iospd error codes, and messages with the system's
 * own text (FormatMessageW, converted to UTF-8). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/* FormatMessageW with FORMAT_MESSAGE_ALLOCATE_BUFFER: the system sizes the
 * text, so a long (localized) message arrives whole rather than failing
 * into a fixed buffer; trailing line breaks, dots and blanks go. Returns
 * the UTF-8 length written into out (0: no text). */
size_t iospd_win_format_message(DWORD flags, const void* source, DWORD code,
                                char* out, size_t size) {
  if (size == 0) return 0;
  out[0] = '\0';
  WCHAR* wide = NULL;
  DWORD n = FormatMessageW(flags | FORMAT_MESSAGE_ALLOCATE_BUFFER |
                               FORMAT_MESSAGE_IGNORE_INSERTS,
                           source, code, 0, (LPWSTR)&wide, 0, NULL);
  if (n == 0 || wide == NULL) {
    if (wide != NULL) LocalFree(wide);
    return 0;
  }
  while (n > 0 && (wide[n - 1] == L'\r' || wide[n - 1] == L'\n' ||
                   wide[n - 1] == L'.' || wide[n - 1] == L' '))
    wide[--n] = 0;
  /* Line breaks inside a message would break the one-line error. */
  for (DWORD i = 0; i < n; i++)
    if (wide[i] == L'\r' || wide[i] == L'\n') wide[i] = L' ';
  (void)iospd_win_wide_to_utf8(wide, out, size);
  LocalFree(wide);
  return strlen(out);
}

void iospd_win_error_text(DWORD code, char* out, size_t size) {
  if (size == 0) return;
  char text[IOSPD_ERR_MSG_MAX];
  size_t n = iospd_win_format_message(FORMAT_MESSAGE_FROM_SYSTEM, NULL, code,
                                      text, sizeof text);
  snprintf(out, size, "%s (error %lu)", n > 0 ? text : "system error",
           (unsigned long)code);
}

void iospd_win_status_text(NTSTATUS status, char* out, size_t size) {
  if (size == 0) return;
  DWORD code = iospd_win_ntstatus_to_win32(status);
  if (status != 0 && code != ERROR_MR_MID_NOT_FOUND) {
    iospd_win_error_text(code, out, size);
    size_t len = strlen(out);
    if (len > 0 && out[len - 1] == ')')
      snprintf(out + len - 1, size - (len - 1), ", NTSTATUS 0x%08lX)",
               (unsigned long)(ULONG)status);
    return;
  }
  /* No Win32 code for it (many storage and cluster statuses): ntdll's
   * own message table, and the raw status, which is what to look up. */
  char text[IOSPD_ERR_MSG_MAX];
  HMODULE nt = GetModuleHandleW(L"ntdll.dll");
  size_t n = nt == NULL ? 0
                        : iospd_win_format_message(FORMAT_MESSAGE_FROM_HMODULE,
                                                   nt, (DWORD)status, text,
                                                   sizeof text);
  snprintf(out, size, "%s (NTSTATUS 0x%08lX)",
           n > 0 ? text : "a status Windows has no Win32 error for",
           (unsigned long)(ULONG)status);
}

int iospd_win_err(iospd_err_t* err, DWORD code, const char* fmt, ...) {
  int rc = iospd_win_translate(code);
  if (err == NULL) return rc;
  char what[IOSPD_ERR_MSG_MAX / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  char text[IOSPD_ERR_MSG_MAX];
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

/* SPDX-License-Identifier: MIT */
/* -I: the I/O priority hint of a target's handle. The hint structure must
 * be 8-byte aligned (FILE_IO_PRIORITY_HINT_INFO's contract); a refusal
 * fails the open, as it fails DISKSPD's thread, and so does a hint that
 * reads back other than asked, since the results would then describe I/O
 * at normal priority. */
#include "win/internal.h"

/* NtQueryInformationFile's class for the hint (wdm.h
 * FileIoPriorityHintInformation); GetFileInformationByHandleEx cannot
 * read it back. */
#define FILE_IO_PRIORITY_HINT_INFORMATION_CLASS 43

static const char* hint_name(int hint) {
  return hint == IoPriorityHintVeryLow ? "very low (-I1)"
         : hint == IoPriorityHintLow   ? "low (-I2)"
         : hint == IoPriorityHintNormal ? "normal"
                                        : "unknown";
}

int iospd_win_priority_hint_read(HANDLE h, int* hint) {
  iospd_win_once();
  iospd_win_nt_query_file_fn query = iospd_win_NtQueryInformationFile;
  if (query == NULL) return 0;
  _Alignas(8) FILE_IO_PRIORITY_HINT_INFO info;
  IO_STATUS_BLOCK iosb;
  info.PriorityHint = MaximumIoPriorityHintType;
  NTSTATUS st =
      query(h, &iosb, &info, sizeof info, FILE_IO_PRIORITY_HINT_INFORMATION_CLASS);
  if (st < 0) return 0; /* not readable here (wine: not implemented) */
  *hint = (int)info.PriorityHint;
  return 1;
}

int iospd_win_set_priority_hint(HANDLE h, unsigned flags, const char* path,
                                iospd_err_t* err) {
  if (flags & IOSPD_OPEN_PRIORITY_VERY_LOW)
    return iospd_win_apply_priority_hint(h, IoPriorityHintVeryLow, path, err);
  if (flags & IOSPD_OPEN_PRIORITY_LOW)
    return iospd_win_apply_priority_hint(h, IoPriorityHintLow, path, err);
  return 0;
}

int iospd_win_apply_priority_hint(HANDLE h, int hint, const char* path,
                                  iospd_err_t* err) {
  _Alignas(8) FILE_IO_PRIORITY_HINT_INFO want;
  want.PriorityHint = (PRIORITY_HINT)hint;
  if (!SetFileInformationByHandle(h, FileIoPriorityHintInfo, &want,
                                  sizeof want))
    return iospd_win_err(err, GetLastError(),
                         "Error setting IO priority for file: %s (-I; if "
                         "its file system or driver takes no priority "
                         "hints, run without -I)",
                         path);
  int got = 0;
  if (iospd_win_priority_hint_read(h, &got) && got != (int)want.PriorityHint)
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "the I/O priority hint %s of '%s' did not take "
                         "effect: the handle reports %s; run without -I",
                         hint_name((int)want.PriorityHint), path,
                         hint_name(got));
  return 0;
}

/* SPDX-License-Identifier: MIT */
/* BypassIO (DISKSPD 2.3's -Sy / -SY): FSCTL_MANAGE_BYPASS_IO with
 * FS_BPIO_OP_ENABLE on a worker's target handle at set-up, and the
 * decision, a pure function of the answer, of what was bypassed and
 * whether the run goes on. The layouts are the Windows SDK's (ntifs.h /
 * winioctl.h of Windows 11), which mingw-w64 does not have. */
#include <stdio.h>
#include <string.h>

#include "win/internal.h"

/* CTL_CODE(FILE_DEVICE_FILE_SYSTEM, 252, METHOD_NEITHER, FILE_ANY_ACCESS) */
#define IOSPD_FSCTL_MANAGE_BYPASS_IO 0x000903F3u
#define IOSPD_FS_BPIO_OP_ENABLE 1
/* FS_BPIO_OUTFLAGS: the storage driver stack takes BypassIO too. */
#define IOSPD_FSBPIO_OUTFL_COMPATIBLE_STORAGE_DRIVER 0x00000008u

typedef struct bpio_input_s { /* FS_BPIO_INPUT */
  int operation;
  int in_flags;
  ULONGLONG reserved1, reserved2;
} bpio_input_t;

typedef struct bpio_results_s { /* FS_BPIO_RESULTS */
  LONG op_status;               /* NTSTATUS */
  USHORT driver_len;            /* characters */
  WCHAR driver[32];             /* not NUL-terminated */
  USHORT reason_len;
  WCHAR reason[128];
} bpio_results_t;

typedef struct bpio_output_s { /* FS_BPIO_OUTPUT */
  int operation;
  unsigned out_flags;
  ULONGLONG reserved1, reserved2;
  union {
    bpio_results_t enable;
    struct { /* FS_BPIO_INFO */
      ULONG active_count;
      USHORT storage_driver_len;
      WCHAR storage_driver[32];
    } info;
  } u;
} bpio_output_t;

/* The driver and reason, as far as there are any. */
static void who_and_why(const iospd_win_bypass_answer_t* a, char* out,
                        size_t size) {
  const char* d = a->driver != NULL ? a->driver : "";
  const char* r = a->reason != NULL ? a->reason : "";
  if (d[0] && r[0])
    snprintf(out, size, "%s: %s", d, r);
  else if (d[0] || r[0])
    snprintf(out, size, "%s", d[0] ? d : r);
  else
    out[0] = '\0';
}

int iospd_win_bypass_decide(bool full_asked,
                            const iospd_win_bypass_answer_t* a,
                            const char* path, iospd_bypass_result_t* out,
                            iospd_err_t* err) {
  char why[sizeof out->note];
  memset(out, 0, sizeof *out);
  if (a->ioctl_error != 0) {
    char text[128];
    iospd_win_error_text(a->ioctl_error, text, sizeof text);
    out->state = IOSPD_BYPASS_STATE_NONE;
    snprintf(out->note, sizeof out->note,
             "FSCTL_MANAGE_BYPASS_IO failed: %s", text);
    if (full_asked)
      return iospd_err_set_os(
          err, IOSPD_ENOTSUP, (int64_t)a->ioctl_error,
          "BypassIO (-SY) cannot be enabled on '%s': %s; BypassIO needs "
          "Windows 11 and a file on NTFS; use -Sy to run with what can be "
          "bypassed",
          path, out->note);
    return 0;
  }
  who_and_why(a, why, sizeof why);
  if (a->op_status < 0) {
    out->state = IOSPD_BYPASS_STATE_NONE;
    snprintf(out->note, sizeof out->note, "refused by %s (NTSTATUS 0x%08lX)",
             why[0] ? why : "a driver", (unsigned long)(uint32_t)a->op_status);
    if (full_asked)
      return iospd_err_set_os(
          err, IOSPD_ENOTSUP, (int64_t)(uint32_t)a->op_status,
          "BypassIO (-SY) is not possible on '%s': %s; use -Sy to run "
          "without a full bypass",
          path, out->note);
    return 0;
  }
  if (!(a->out_flags & IOSPD_FSBPIO_OUTFL_COMPATIBLE_STORAGE_DRIVER)) {
    out->state = IOSPD_BYPASS_STATE_PARTIAL;
    snprintf(out->note, sizeof out->note,
             "the storage driver stack does not support BypassIO%s%s",
             why[0] ? ": " : "", why);
    if (full_asked)
      return iospd_err_set(
          err, IOSPD_ENOTSUP,
          "BypassIO (-SY) is only partial on '%s': the file system is "
          "bypassed, but %s; use -Sy to allow a partial bypass",
          path, out->note);
    return 0;
  }
  out->state = IOSPD_BYPASS_STATE_FULL;
  return 0;
}

/* UTF-16 of n characters (not terminated) -> UTF-8 into out. */
static void wide_n(const WCHAR* w, USHORT n, size_t cap, char* out,
                   size_t size) {
  WCHAR tmp[130];
  size_t k = n < cap ? n : cap;
  if (k >= IOSPD_ARRAY_SIZE(tmp)) k = IOSPD_ARRAY_SIZE(tmp) - 1;
  memcpy(tmp, w, k * sizeof *w);
  tmp[k] = 0;
  if (iospd_win_wide_to_utf8(tmp, out, size) < 0) out[size - 1] = '\0';
}

int iospd_plat_file_bypass_io(iospd_plat_file_t* f, bool full,
                              iospd_bypass_result_t* out, iospd_err_t* err) {
  bpio_input_t in;
  bpio_output_t o;
  memset(&in, 0, sizeof in);
  memset(&o, 0, sizeof o);
  in.operation = IOSPD_FS_BPIO_OP_ENABLE;
  DWORD ret = 0;
  iospd_win_bypass_answer_t a;
  memset(&a, 0, sizeof a);
  char driver[100] = "", reason[400] = "";
  if (!iospd_win_ioctl(f->h, IOSPD_FSCTL_MANAGE_BYPASS_IO, &in, sizeof in,
                       &o, sizeof o, &ret)) {
    a.ioctl_error = GetLastError();
    if (a.ioctl_error == 0) a.ioctl_error = ERROR_GEN_FAILURE;
  } else {
    a.op_status = o.u.enable.op_status;
    a.out_flags = o.out_flags;
    wide_n(o.u.enable.driver, o.u.enable.driver_len, 32, driver,
           sizeof driver);
    wide_n(o.u.enable.reason, o.u.enable.reason_len, 128, reason,
           sizeof reason);
  }
  a.driver = driver;
  a.reason = reason;
  return iospd_win_bypass_decide(full, &a, f->path, out, err);
}

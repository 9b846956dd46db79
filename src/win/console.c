/* SPDX-License-Identifier: MIT */
/* Windows side of console.h: UTF-8 argv from GetCommandLineW, output as
 * UTF-16 to consoles and UTF-8 to pipes and files, whole-file reads with
 * UTF-16 paths, and the live status line. */
#include "win/internal.h" /* windows.h first: shellapi.h needs it */

#include <errno.h>
#include <shellapi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/console.h"

/* Consoles get UTF-16 (WriteConsoleW), pipes and files get the UTF-8
 * bytes: the console's code page is never changed, so the shell that ran
 * us keeps its own (a code page set by a process outlives it, and DISKSPD's
 * and other tools' output would then be misread). NULL: not a console. */
static HANDLE g_out_console, g_err_console;

static HANDLE console_of(DWORD which) {
  HANDLE h = GetStdHandle(which);
  DWORD mode;
  if (h == NULL || h == INVALID_HANDLE_VALUE || !GetConsoleMode(h, &mode))
    return NULL;
  return h;
}

void iospd_plat_console_init(void) {
  g_out_console = console_of(STD_OUTPUT_HANDLE);
  g_err_console = console_of(STD_ERROR_HANDLE);
}

/* The bytes of a UTF-8 sequence cut by the end of one write, kept for the
 * next (-P dots and report lines come in separate writes). */
typedef struct carry_s {
  char b[4];
  size_t n;
} carry_t;
static carry_t g_out_carry, g_err_carry;
static SRWLOCK g_console_lock = SRWLOCK_INIT;

static size_t seq_len(unsigned char lead) {
  return lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
}

static bool is_cont(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* How many of the n bytes form whole UTF-8 sequences: all of them unless
 * the last sequence is cut short by the end. */
static size_t whole_utf8(const char* s, size_t n) {
  size_t back = 0;
  while (back < n && back < 3 && is_cont(s[n - 1 - back])) back++;
  if (back == n) return n; /* stray continuation bytes: let them through */
  size_t need = seq_len((unsigned char)s[n - 1 - back]);
  return need > back + 1 ? n - 1 - back : n;
}

/* Converts and writes one piece of at most 4 KiB; false if the console
 * refused it. */
static bool console_piece(HANDLE h, const char* s, size_t n) {
  WCHAR w[4096];
  int k = MultiByteToWideChar(CP_UTF8, 0, s, (int)n, w, (int)IOSPD_ARRAY_SIZE(w));
  if (k <= 0) return n == 0;
  for (int done = 0; done < k;) {
    DWORD wrote = 0;
    if (!WriteConsoleW(h, w + done, (DWORD)(k - done), &wrote, NULL) ||
        wrote == 0)
      return false;
    done += (int)wrote;
  }
  return true;
}

static bool write_console(HANDLE h, carry_t* c, const char* text, size_t len) {
  bool ok = true;
  AcquireSRWLockExclusive(&g_console_lock);
  if (c->n > 0) {
    /* Finish the sequence the last write began. */
    size_t need = seq_len((unsigned char)c->b[0]);
    while (c->n < need && len > 0 && is_cont(*text)) {
      c->b[c->n++] = *text++;
      len--;
    }
    if (c->n == need || len > 0) { /* whole, or broken: shown as is */
      ok = console_piece(h, c->b, c->n);
      c->n = 0;
    }
  }
  if (len > 0) {
    size_t whole = whole_utf8(text, len);
    for (size_t at = 0; ok && at < whole;) {
      size_t n = IOSPD_MIN(whole - at, (size_t)4096);
      size_t cut = whole_utf8(text + at, n);
      if (cut > 0) n = cut;
      ok = console_piece(h, text + at, n);
      at += n;
    }
    c->n = len - whole; /* 1-3 bytes of a sequence the next write ends */
    memcpy(c->b, text + whole, c->n);
  }
  ReleaseSRWLockExclusive(&g_console_lock);
  return ok;
}

static char* to_utf8(const WCHAR* w) {
  int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  if (n <= 0) return NULL;
  char* s = iospd_malloc((size_t)n);
  if (s != NULL) WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
  return s;
}

int iospd_plat_utf8_args(int argc, char** argv, int* out_argc,
                         const char* const** out_argv) {
  int wargc = 0;
  WCHAR** wargv = CommandLineToArgvW(GetCommandLineW(), &wargc);
  if (wargv == NULL || wargc != argc) {
    /* Fall back to the CRT's view rather than fail the whole program. */
    if (wargv != NULL) LocalFree(wargv);
    *out_argc = argc;
    *out_argv = (const char* const*)argv;
    return 0;
  }
  char** u = iospd_calloc((size_t)wargc + 1, sizeof *u);
  if (u == NULL) {
    LocalFree(wargv);
    return IOSPD_ENOMEM;
  }
  for (int i = 0; i < wargc; i++) {
    u[i] = to_utf8(wargv[i]);
    if (u[i] == NULL) u[i] = argv[i];
  }
  LocalFree(wargv);
  *out_argc = wargc;
  *out_argv = (const char* const*)u;
  return 0;
}

/* ---- the live status line ---------------------------------------------- */

/* Length of the status line on stderr's current row; 0: none. Atomic: -P
 * dots (worker threads) write through iospd_plat_write_out too.
 *
 * A console is overwritten with "\r", the text and spaces over what the
 * previous line left, then backspaces to the end of the text: the classic
 * console (conhost) and Windows Terminal both handle \r and \b in their
 * default processed-output mode, so no console mode is changed (no
 * ENABLE_VIRTUAL_TERMINAL_PROCESSING) and nothing needs restoring after
 * Ctrl-C or a kill. Lines are one column narrower than the window (main
 * asks for that), so the default wrap-at-end-of-line mode never moves the
 * cursor to the next row. A file or pipe (--progress=always) gets
 * "\r", the text and ESC [K, as on Linux. */
static atomic_uint g_status_len;

bool iospd_plat_err_is_terminal(void) {
  HANDLE h = console_of(STD_ERROR_HANDLE);
  DWORD mode = 0;
  /* The line moves with \r and \b: a console whose owner turned processed
   * output off would print them as glyphs, so it does not count. */
  return h != NULL && GetConsoleMode(h, &mode) &&
         (mode & ENABLE_PROCESSED_OUTPUT) != 0;
}

uint32_t iospd_plat_err_columns(void) {
  HANDLE h = console_of(STD_ERROR_HANDLE);
  CONSOLE_SCREEN_BUFFER_INFO bi;
  if (h == NULL || !GetConsoleScreenBufferInfo(h, &bi)) return 0;
  /* The visible window, within the buffer (which may be wider and
   * scrolled sideways). */
  int cols = bi.srWindow.Right - bi.srWindow.Left + 1;
  if (bi.dwSize.X < cols) cols = bi.dwSize.X;
  return cols > 0 ? (uint32_t)cols : 0;
}

static void status_write(const char* text, size_t len) {
  if (g_err_console != NULL)
    (void)write_console(g_err_console, &g_err_carry, text, len);
  else {
    fwrite(text, 1, len, stderr);
    fflush(stderr);
  }
}

void iospd_plat_status_show(const char* line, size_t len) {
  char buf[1 + 255 + 2 * 255];
  if (len > 255) len = 255;
  size_t n = 0;
  buf[n++] = '\r';
  memcpy(buf + n, line, len);
  n += len;
  unsigned prev = atomic_load(&g_status_len);
  if (g_err_console != NULL) {
    size_t pad = prev > len ? prev - len : 0;
    memset(buf + n, ' ', pad);
    memset(buf + n + pad, '\b', pad);
    n += 2 * pad;
  } else {
    memcpy(buf + n, "\033[K", 3);
    n += 3;
  }
  status_write(buf, n);
  atomic_store(&g_status_len, (unsigned)len);
}

void iospd_plat_status_clear(void) {
  unsigned len = atomic_exchange(&g_status_len, 0u);
  if (len == 0) return;
  if (g_err_console == NULL) {
    status_write("\r\033[K", 4);
    return;
  }
  char buf[1 + 255 + 1];
  buf[0] = '\r';
  memset(buf + 1, ' ', len);
  buf[len + 1] = '\r';
  status_write(buf, len + 2);
}

/* Why the first write to stdout failed: a Win32 error code, or (when the
 * CRT failed without one, e.g. no stdout handle at all) errno + 1 << 30. */
static atomic_uint g_out_failure;
#define CRT_ERRNO_FLAG (1u << 30)

static void out_failed(void) {
  DWORD code = GetLastError();
  unsigned why = code != 0
                     ? (unsigned)code
                     : CRT_ERRNO_FLAG | (unsigned)(errno != 0 ? errno : EIO);
  unsigned none = 0;
  atomic_compare_exchange_strong(&g_out_failure, &none, why);
}

/* Set by iospd_plat_close_out: later writes must not touch the FILE. */
static atomic_bool g_out_closed;

void iospd_plat_write_out(const char* text, size_t len) {
  iospd_plat_status_clear(); /* stdout may share the console */
  if (atomic_load(&g_out_failure) != 0 || atomic_load(&g_out_closed)) return;
  SetLastError(0);
  errno = 0;
  if (g_out_console != NULL) {
    if (!write_console(g_out_console, &g_out_carry, text, len)) out_failed();
    return;
  }
  if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) out_failed();
}

void iospd_plat_write_err(const char* text, size_t len) {
  iospd_plat_status_clear();
  if (g_err_console != NULL) {
    (void)write_console(g_err_console, &g_err_carry, text, len);
    return;
  }
  fwrite(text, 1, len, stderr);
  fflush(stderr);
}

int iospd_plat_close_out(iospd_err_t* err) {
  iospd_plat_status_clear(); /* never leave one behind at exit */
  SetLastError(0);
  errno = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) out_failed();
  SetLastError(0);
  errno = 0;
  atomic_store(&g_out_closed, true);
  if (fclose(stdout) != 0) out_failed();
  unsigned why = atomic_load(&g_out_failure);
  if (why == 0) return 0;
  if (why & CRT_ERRNO_FLAG) {
    int e = (int)(why & ~CRT_ERRNO_FLAG);
    return iospd_err_set_os(err, IOSPD_EIO, e,
                            "cannot write to standard output: %s",
                            strerror(e));
  }
  return iospd_win_err(err, (DWORD)why, "cannot write to standard output");
}

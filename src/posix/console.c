/* SPDX-License-Identifier: MIT */
/* Linux side of console.h: argv is already UTF-8; plain stdio; the live
 * status line drawn with a carriage return and ESC [K. */
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "iospd/alloc.h"
#include "iospd/console.h"
#include "posix/internal.h"

/* errno of the first failed write to stdout; 0 while all is well. */
static atomic_int g_out_errno;

static void out_failed(int e) {
  int none = 0;
  atomic_compare_exchange_strong(&g_out_errno, &none, e != 0 ? e : EIO);
}

/* A closed descriptor 0, 1 or 2 would be handed to the next open(): the
 * report would then be written into a target file or the io_uring fd. Park
 * /dev/null there instead; a closed stdout still fails the run (EBADF). */
static void keep_std_fd_open(int fd) {
  if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) return;
  int nul = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
  if (nul >= 0 && nul != fd) {
    dup2(nul, fd);
    close(nul);
  }
  if (fd == 1) out_failed(EBADF);
}

void iospd_plat_console_init(void) {
  for (int fd = 0; fd <= 2; fd++) keep_std_fd_open(fd);
  /* A reader that goes away (iospd ... | head) must not kill us silently
   * with SIGPIPE: the write fails with EPIPE, and main reports it. */
  signal(SIGPIPE, SIG_IGN);
}

int iospd_plat_utf8_args(int argc, char** argv, int* out_argc,
                         const char* const** out_argv) {
  *out_argc = argc;
  *out_argv = (const char* const*)argv;
  return 0;
}

/* ---- the live status line ---------------------------------------------- */

/* A status line is on stderr's current row. Atomic: -P dots (worker
 * threads) write through iospd_plat_write_out too. */
static atomic_bool g_status_shown;

bool iospd_plat_err_is_terminal(void) { return isatty(STDERR_FILENO) == 1; }

uint32_t iospd_plat_err_columns(void) {
  struct winsize ws;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) != 0) return 0;
  return ws.ws_col;
}

void iospd_plat_status_show(const char* line, size_t len) {
  char buf[1 + 255 + 3];
  if (len > 255) len = 255;
  buf[0] = '\r';
  memcpy(buf + 1, line, len);
  memcpy(buf + 1 + len, "\033[K", 3); /* erase what a longer line left */
  fwrite(buf, 1, len + 4, stderr);
  fflush(stderr);
  atomic_store(&g_status_shown, len > 0);
}

void iospd_plat_status_clear(void) {
  if (!atomic_exchange(&g_status_shown, false)) return;
  fwrite("\r\033[K", 1, 4, stderr);
  fflush(stderr);
}

/* Set by iospd_plat_close_out: later writes must not touch the FILE. */
static atomic_bool g_out_closed;

void iospd_plat_write_out(const char* text, size_t len) {
  iospd_plat_status_clear(); /* stdout may share the terminal */
  if (atomic_load(&g_out_errno) != 0 || atomic_load(&g_out_closed)) return;
  errno = 0;
  if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0)
    out_failed(errno);
}

void iospd_plat_write_err(const char* text, size_t len) {
  iospd_plat_status_clear();
  fwrite(text, 1, len, stderr);
  fflush(stderr);
}

int iospd_plat_close_out(iospd_err_t* err) {
  iospd_plat_status_clear(); /* never leave one behind at exit */
  errno = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) out_failed(errno);
  errno = 0;
  atomic_store(&g_out_closed, true);
  if (fclose(stdout) != 0) out_failed(errno);
  int e = atomic_load(&g_out_errno);
  if (e == 0) return 0;
  return iospd_posix_err(err, e, "cannot write to standard output");
}

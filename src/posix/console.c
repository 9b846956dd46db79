/* SPDX-License-Identifier: MIT */
/* Linux side of console.h: argv is already UTF-8; plain stdio. */
#include <stdio.h>
#include <stdlib.h>

#include "iospd/alloc.h"
#include "iospd/console.h"
#include "posix/internal.h"

void iospd_plat_console_init(void) {}

int iospd_plat_utf8_args(int argc, char** argv, int* out_argc,
                         const char* const** out_argv) {
  *out_argc = argc;
  *out_argv = (const char* const*)argv;
  return 0;
}

int iospd_plat_read_whole_file(const char* path, char** data, size_t* len,
                               iospd_err_t* err) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return iospd_posix_err(err, errno, "cannot open '%s'", path);
  size_t cap = 4096, n = 0;
  char* buf = iospd_malloc(cap + 1);
  if (buf == NULL) {
    fclose(f);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory reading '%s'", path);
  }
  for (;;) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    if (cap >= (64u << 20)) {
      iospd_free(buf);
      fclose(f);
      return iospd_err_set(err, IOSPD_ERANGE,
                           "'%s' is larger than 64 MiB; not a profile", path);
    }
    char* bigger = iospd_realloc(buf, cap * 2 + 1);
    if (bigger == NULL) {
      iospd_free(buf);
      fclose(f);
      return iospd_err_set(err, IOSPD_ENOMEM, "out of memory reading '%s'",
                           path);
    }
    buf = bigger;
    cap *= 2;
  }
  int failed = ferror(f);
  fclose(f);
  if (failed) {
    iospd_free(buf);
    return iospd_err_set(err, IOSPD_EIO, "error reading '%s'", path);
  }
  buf[n] = '\0';
  *data = buf;
  *len = n;
  return 0;
}

void iospd_plat_write_out(const char* text, size_t len) {
  fwrite(text, 1, len, stdout);
  fflush(stdout);
}

void iospd_plat_write_err(const char* text, size_t len) {
  fwrite(text, 1, len, stderr);
  fflush(stderr);
}

/* SPDX-License-Identifier: MIT */
/* iospd_mangen <file>: writes the man page iospd(1) (src/cli/manpage.c),
 * dated with the build date. A host tool run by the iospd_man target, so
 * the shipped binary carries no hidden switch for it and the page needs no
 * platform layer to be made. Exit 0, or 1 with a message. */
#include <stdio.h>

#include "iospd/cmdline.h"
#include "iospd/strbuf.h"
#include "iospd/version.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: iospd_mangen <output file>\n");
    return 1;
  }
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_cmdline_manpage(&sb, iospd_build_date());
  int rc = 0;
  FILE* f = sb.failed ? NULL : fopen(argv[1], "wb");
  if (f == NULL || fwrite(iospd_strbuf_cstr(&sb), 1, sb.len, f) != sb.len)
    rc = 1;
  if (f != NULL && fclose(f) != 0) rc = 1;
  if (rc != 0) {
    fprintf(stderr, "iospd_mangen: cannot write %s\n", argv[1]);
    remove(argv[1]);
  }
  iospd_strbuf_destroy(&sb);
  return rc;
}

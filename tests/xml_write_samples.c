/* SPDX-License-Identifier: MIT */
/* Writes generated profiles as XML documents into a directory, so the
 * xmllint test can check that everything iospd_xml_profile_write prints is
 * valid under xml/profile.xsd. Usage: xml_write_samples <dir> [count] */
#include <stdio.h>
#include <stdlib.h>

#include "iospd/strbuf.h"
#include "iospd/xml_profile.h"
#include "xml_profile_gen.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <dir> [count]\n", argv[0]);
    return 2;
  }
  unsigned count = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 200u;
  for (unsigned i = 0; i < count; i++) {
    iospd_profile_t p;
    iospd_profile_init(&p);
    if (xml_gen_profile(&p, i) != 0) {
      fprintf(stderr, "out of memory\n");
      return 1;
    }
    iospd_strbuf_t sb;
    iospd_strbuf_init(&sb);
    if (i % 2) {
      iospd_strbuf_append(&sb,
                          "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    }
    iospd_xml_profile_write(&sb, &p, i % 3);
    char path[4096];
    snprintf(path, sizeof path, "%s/written-%03u.xml", argv[1], i);
    FILE* f = fopen(path, "wb");
    if (f == NULL || fwrite(sb.data, 1, sb.len, f) != sb.len ||
        fclose(f) != 0) {
      fprintf(stderr, "cannot write %s\n", path);
      return 1;
    }
    iospd_strbuf_destroy(&sb);
    iospd_profile_destroy(&p);
  }
  printf("wrote %u profiles to %s\n", count, argv[1]);
  return 0;
}

/* SPDX-License-Identifier: MIT */
/* libFuzzer target for the XML reader and the XML profile reader/writer (not
 * part of the normal build; tests/test_xml_fuzz.c is the always-run,
 * seeded counterpart). Build and run with clang from the source root:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude \
 *     tests/fuzz/fuzz_xml_profile.c src/profile/xml_reader.c src/profile/xml_profile_read.c \
 *     src/profile/xml_profile_write.c src/profile/profile.c src/base/alloc.c src/base/error.c \
 *     src/base/strbuf.c -o fuzz_xml_profile
 *   ./fuzz_xml_profile -max_len=65536 xml/examples */
#include <stdlib.h>
#include <string.h>

#include "iospd/strbuf.h"
#include "iospd/xml.h"
#include "iospd/xml_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  iospd_err_t err;
  iospd_xml_doc_t* doc = NULL;
  if (iospd_xml_parse((const char*)data, size, &doc, &err) == 0) {
    iospd_xml_free(doc);
  } else if (err.msg[0] == '\0') {
    abort(); /* every failure explains itself */
  }
  iospd_profile_t p;
  iospd_profile_init(&p);
  if (iospd_xml_profile_parse((const char*)data, size, &p, &err) == 0) {
    /* What is accepted must write out and read back to the same text. */
    iospd_strbuf_t a, b;
    iospd_strbuf_init(&a);
    iospd_strbuf_init(&b);
    iospd_xml_profile_write(&a, &p, 0);
    iospd_profile_t back;
    iospd_profile_init(&back);
    if (iospd_xml_profile_parse(a.data, a.len, &back, &err) != 0) abort();
    iospd_xml_profile_write(&b, &back, 0);
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) abort();
    iospd_strbuf_destroy(&a);
    iospd_strbuf_destroy(&b);
    iospd_profile_destroy(&back);
  }
  iospd_profile_destroy(&p);
  return 0;
}

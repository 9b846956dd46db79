/* SPDX-License-Identifier: MIT */
/* Tests of src/base/roff_escape.c: the exact roff written for the
 * characters groff would take as requests, escapes or typography, and the
 * code/prose rule for hyphens (iospd/roff.h). The man page test
 * (tests/e2e/man_test.py) renders the whole page with groff. */
#include "test_util.h"

#include "iospd/roff.h"
#include "iospd/strbuf.h"

static void expect(const char* in, unsigned flags, const char* want) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_roff_append(&sb, in, flags);
  assert_string_equal(iospd_strbuf_cstr(&sb), want);
  iospd_strbuf_destroy(&sb);
}

#define CODE IOSPD_ROFF_CODE
#define ARG IOSPD_ROFF_ARG
#define SYN IOSPD_ROFF_SYNTAX

/* A line starting with '.' would be a request; ' a no-break request. */
static void test_line_starts(void** state) {
  (void)state;
  expect(".. and more\n'b' suffix", 0,
         "\\&.. and more\n\\(aqb\\(aq suffix\n");
  expect("  indented\n\n\nnext", 0, "indented\nnext\n");
  expect("", 0, "");
  expect("a.b. c", 0, "a.b. c\n");
}

static void test_escapes(void** state) {
  (void)state;
  expect("C:\\test `x` \"q\"", 0, "C:\\etest \\(gax\\(ga \"q\"\n");
  expect("say \"hi\"\nthere", ARG, "say \\(dqhi\\(dq there");
  expect("tab\there", 0, "tab here\n");
}

/* '-' is a minus in code words, a hyphen in prose. */
static void test_hyphens(void** state) {
  (void)state;
  expect("use -Sh or --engine=psync, round-robin", 0,
         "use \\-Sh or \\-\\-engine=psync, round-robin\n");
  expect("(-b4K, not -b 4K) 1-100 x86-64", 0,
         "(\\-b4K, not \\-b 4K) 1-100 x86-64\n");
  expect("/dev/shm/sem.iospd-<name> read-only", 0,
         "/dev/shm/sem.iospd\\-<name> read-only\n");
  expect("never-written", CODE, "never\\-written\n");
}

static void test_syntax(void** state) {
  (void)state;
  expect("-b<size>", CODE | SYN | ARG, "\\-b<\\fIsize\\fB>");
  expect("-e<q|c>\n   MORE|X>", CODE | SYN | ARG,
         "\\-e<\\fIq|\\:c\\fB> MORE|\\:X\\fB>");
}

/* groff reads ASCII: UTF-8 as \[uXXXX], bad bytes as U+FFFD. */
static void test_utf8(void** state) {
  (void)state;
  expect("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", 0,
         "caf\\[u00E9] \\[u20AC] \\[u1F600]\n");
  expect("a\xFF" "b \xC3(", 0, "a\\[uFFFD]b \\[uFFFD](\n");
  expect("\xC0\xAF \xED\xA0\x80", 0, "\\[uFFFD]\\[uFFFD] \\[uFFFD]\n");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_line_starts), cmocka_unit_test(test_escapes),
      cmocka_unit_test(test_hyphens),     cmocka_unit_test(test_syntax),
      cmocka_unit_test(test_utf8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

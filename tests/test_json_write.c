/* SPDX-License-Identifier: MIT */
/* JSON string escaping and number formatting: control characters, quotes,
 * backslash, UTF-8 passed through, malformed UTF-8 -> U+FFFD (one per
 * byte), and doubles that read back exactly, never NaN/Inf. */
#include "test_util.h"

#include <math.h>

#include "iospd/json_write.h"

static void check_str(const char* in, const char* want) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_json_append_str(&sb, in);
  assert_string_equal(iospd_strbuf_cstr(&sb), want);
  iospd_strbuf_destroy(&sb);
}

#define FFFD "\xEF\xBF\xBD"

static void test_plain_and_specials(void** state) {
  (void)state;
  check_str("", "\"\"");
  check_str(NULL, "null");
  check_str("C:\\data\\x.dat", "\"C:\\\\data\\\\x.dat\"");
  check_str("say \"hi\"", "\"say \\\"hi\\\"\"");
  check_str("a/b", "\"a/b\"");
  check_str("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
  check_str("\x01\x1f\x7f", "\"\\u0001\\u001f\x7f\"");
}

static void test_utf8_passthrough(void** state) {
  (void)state;
  check_str("caf\xC3\xA9", "\"caf\xC3\xA9\"");                  /* é */
  check_str("\xE2\x82\xAC", "\"\xE2\x82\xAC\"");                /* € */
  check_str("\xF0\x9F\x98\x80", "\"\xF0\x9F\x98\x80\"");        /* U+1F600 */
  check_str("\xE2\x80\xA8", "\"\xE2\x80\xA8\"");                /* U+2028 */
  check_str("\xF4\x8F\xBF\xBF", "\"\xF4\x8F\xBF\xBF\"");        /* U+10FFFF */
}

static void test_invalid_utf8(void** state) {
  (void)state;
  check_str("\x80", "\"" FFFD "\"");                       /* lone continuation */
  check_str("a\xFF" "b", "\"a" FFFD "b\"");                /* never valid */
  check_str("\xC3", "\"" FFFD "\"");                       /* truncated at end */
  check_str("\xC3(", "\"" FFFD "(\"");                     /* bad continuation */
  check_str("\xC0\xAF", "\"" FFFD FFFD "\"");              /* overlong '/' */
  check_str("\xE0\x80\xAF", "\"" FFFD FFFD FFFD "\"");     /* overlong */
  check_str("\xED\xA0\x80", "\"" FFFD FFFD FFFD "\"");     /* surrogate */
  check_str("\xF4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\""); /* > 10FFFF */
  check_str("\xE2\x82", "\"" FFFD FFFD "\"");              /* truncated 3-byte */
}

static void check_num(double v, const char* want) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_json_append_double(&sb, v);
  assert_string_equal(iospd_strbuf_cstr(&sb), want);
  iospd_strbuf_destroy(&sb);
}

static void test_numbers(void** state) {
  (void)state;
  check_num(0, "0");
  check_num(-0.0, "0");
  check_num(1, "1");
  check_num(0.1, "0.1");
  check_num(1.5, "1.5");
  check_num(3813.25, "3813.25");
  check_num(1e20, "1e+20");
  check_num(NAN, "null");
  check_num(INFINITY, "null");
  check_num(-INFINITY, "null");
  /* Shortest text that reads back to the same double. */
  double vals[] = {1.0 / 3, 2.0 / 3, 123456.789e-9, 1.7976931348623157e308,
                   4.9e-324, 0.30000000000000004};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(vals); i++) {
    iospd_strbuf_t sb;
    iospd_strbuf_init(&sb);
    iospd_json_append_double(&sb, vals[i]);
    assert_true(strtod(iospd_strbuf_cstr(&sb), NULL) == vals[i]);
    iospd_strbuf_destroy(&sb);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_plain_and_specials),
      cmocka_unit_test(test_utf8_passthrough),
      cmocka_unit_test(test_invalid_utf8),
      cmocka_unit_test(test_numbers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

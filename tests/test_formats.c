/* SPDX-License-Identifier: MIT */
/* The output-format table (src/profile/formats.c): each word, where it may
 * be used, the look-ups by word and by value, and the word lists the
 * messages of -R and --output are built from. */
#include "test_util.h"

#include "iospd/formats.h"

static void test_table(void** state) {
  (void)state;
  size_t n = 0;
  const iospd_format_t* t = iospd_formats(&n);
  assert_int_equal(n, 5);
  static const char* const words[] = {"text", "xml", "json", "html",
                                      "fio-json"};
  for (size_t i = 0; i < n; i++) {
    assert_string_equal(t[i].word, words[i]);
    assert_int_equal(t[i].format, (iospd_result_format_t)i);
    assert_ptr_equal(iospd_format_of(t[i].format), &t[i]);
    assert_string_equal(iospd_format_word(t[i].format), words[i]);
    /* Every format can be written to a file. */
    assert_true(t[i].uses & IOSPD_FMT_OUTPUT);
  }
  assert_int_equal(t[2].uses & (IOSPD_FMT_R | IOSPD_FMT_RP), IOSPD_FMT_R);
  assert_int_equal(t[3].uses, IOSPD_FMT_OUTPUT);
  /* fio's JSON: on stdout (-Rfio-json) or a file, never a profile's. */
  assert_int_equal(t[4].uses, IOSPD_FMT_R | IOSPD_FMT_OUTPUT);
  assert_null(iospd_format_of((iospd_result_format_t)9));
  assert_string_equal(iospd_format_word((iospd_result_format_t)9), "text");
  /* A profile records what -R can say; HTML is never a profile's. */
  assert_string_equal(iospd_format_profile_word(IOSPD_FORMAT_JSON), "json");
  assert_string_equal(iospd_format_profile_word(IOSPD_FORMAT_HTML), "text");
  assert_string_equal(iospd_format_profile_word(IOSPD_FORMAT_FIO_JSON),
                      "text");
}

static void test_find(void** state) {
  (void)state;
  assert_int_equal(iospd_format_find("xml", 3, false)->format,
                   IOSPD_FORMAT_XML);
  assert_null(iospd_format_find("XML", 3, false));
  assert_int_equal(iospd_format_find("XmL", 3, true)->format,
                   IOSPD_FORMAT_XML);
  /* len bytes only: "json:r.json" names json. */
  assert_int_equal(iospd_format_find("json:r.json", 4, false)->format,
                   IOSPD_FORMAT_JSON);
  assert_null(iospd_format_find("jso", 3, false));
  assert_null(iospd_format_find("jsonl", 5, true));
  assert_null(iospd_format_find("", 0, true));
  assert_int_equal(iospd_format_find("fio-json", 8, false)->format,
                   IOSPD_FORMAT_FIO_JSON);
}

static void test_lists(void** state) {
  (void)state;
  char b[128] = "";
  iospd_format_list(b, sizeof b, IOSPD_FMT_OUTPUT, "", false);
  assert_string_equal(b, "text, xml, json, html or fio-json");
  b[0] = '\0';
  iospd_format_list(b, sizeof b, IOSPD_FMT_RP, "-Rp", false);
  assert_string_equal(b, "-Rptext or -Rpxml");
  b[0] = '\0';
  iospd_format_list(b, sizeof b, IOSPD_FMT_R, "-R", true);
  assert_string_equal(b, "-Rtext, -Rxml, -Rjson, -Rfio-json, ");
  /* Appends to what is there, and cuts to fit. */
  char s[12] = "use ";
  iospd_format_list(s, sizeof s, IOSPD_FMT_PROFILE, "", false);
  assert_string_equal(s, "use text, x");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_find),
      cmocka_unit_test(test_lists),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

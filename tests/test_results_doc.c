/* SPDX-License-Identifier: MIT */
/* The shared loader of saved result documents (src/merge/results_doc.c):
 * each kind of bad file is refused with IOSPD_EUSAGE and a message naming
 * the file, the mode and what is wrong; a good document loads. */
#include "test_util.h"

#include "cJSON.h"
#include "iospd/results_doc.h"

#define GOOD                                                              \
  "{\"format\": \"iospd-results\", \"format_version\": 1, \"system\": {}, " \
  "\"environment\": {}, \"profile\": {}, \"timespans\": []}\n"

static void expect(const char* text, int code, const char* msg) {
  iospd_err_t err;
  iospd_err_clear(&err);
  cJSON* doc = (cJSON*)1;
  int rc = iospd_results_doc_parse("r.json", text, strlen(text), "--compare",
                                   &doc, &err);
  if (rc != code || (msg != NULL && strcmp(err.msg, msg) != 0)) {
    print_error("got  rc %d: %s\nwant rc %d: %s\n", rc, err.msg, code,
                msg ? msg : "");
    fail();
  }
  if (code == 0) {
    assert_non_null(doc);
    cJSON_Delete(doc);
  } else {
    assert_null(doc);
  }
}

static void test_a_document_loads(void** state) {
  (void)state;
  expect(GOOD, 0, NULL);
  /* Bytes without a NUL terminator: only len counts. */
  char buf[sizeof GOOD + 8];
  memcpy(buf, GOOD, sizeof GOOD - 1);
  memcpy(buf + sizeof GOOD - 1, "garbage", 8);
  iospd_err_t err;
  cJSON* doc = NULL;
  assert_int_equal(iospd_results_doc_parse("r.json", buf, sizeof GOOD - 1,
                                           "--report", &doc, &err), 0);
  assert_string_equal(
      cJSON_GetObjectItem(doc, "format")->valuestring, "iospd-results");
  cJSON_Delete(doc);
}

static void test_truncated(void** state) {
  (void)state;
  /* GOOD cut after 40 bytes: inside the document, the way a killed
   * writer leaves it. */
  char cut[41];
  memcpy(cut, GOOD, 40);
  cut[40] = '\0';
  expect(cut, IOSPD_EUSAGE,
         "'r.json' (--compare): truncated: the JSON ends after byte 40, "
         "before the document is complete (a run stopped while writing, or "
         "a partial copy?); expected the whole JSON that iospd -Rjson "
         "wrote");
  /* Cut inside a string. */
  expect("{\"format\": \"iospd-re", IOSPD_EUSAGE,
         "'r.json' (--compare): truncated: the JSON ends after byte 20, "
         "before the document is complete (a run stopped while writing, or "
         "a partial copy?); expected the whole JSON that iospd -Rjson "
         "wrote");
}

static void test_not_json(void** state) {
  (void)state;
  expect("{\"a\": 1,\n  oops}\n", IOSPD_EUSAGE,
         "'r.json' (--compare): not JSON: parsing stops near byte 13 (line 2, "
         "column 4); expected the JSON that iospd -Rjson wrote");
  expect("Total IO\nthread | bytes\n", IOSPD_EUSAGE,
         "'r.json' (--compare): not JSON: parsing stops near byte 1 (line 1, "
         "column 1); expected the JSON that iospd -Rjson wrote");
  expect(" \r\n\t", IOSPD_EUSAGE,
         "'r.json' (--compare): the file is empty; expected the JSON that "
         "iospd -Rjson (or --output=json:FILE) wrote");
  const char nul[] = "{\"a\": \0}";
  iospd_err_t err;
  cJSON* doc = NULL;
  assert_int_equal(iospd_results_doc_parse("r.json", nul, sizeof nul - 1,
                                           "--compare", &doc, &err),
                   IOSPD_EUSAGE);
  assert_null(doc);
  assert_string_equal(err.msg,
                      "'r.json' (--compare): not JSON: the file holds a NUL "
                      "byte (a binary file?); expected the JSON that iospd "
                      "-Rjson wrote");
}

static void test_another_format(void** state) {
  (void)state;
  static const char* const others[] = {
      "{\"results\": []}", "[1, 2]", "42",
      "{\"format\": \"fio\", \"format_version\": 1}"};
  for (size_t i = 0; i < 4; i++)
    expect(others[i], IOSPD_EUSAGE,
           "'r.json' (--compare): JSON, but not iospd results: it has no "
           "\"format\": \"iospd-results\" (write results with -Rjson or "
           "--output=json:FILE)");
}

static void test_versions(void** state) {
  (void)state;
  expect("{\"format\": \"iospd-results\", \"format_version\": 2}",
         IOSPD_EUSAGE,
         "'r.json' (--compare): written by a newer iospd (format_version "
         "2); this iospd reads 1 (use that iospd, or a newer one, to read "
         "it)");
  expect("{\"format\": \"iospd-results\", \"format_version\": 0.5}",
         IOSPD_EUSAGE,
         "'r.json' (--compare): iospd results with format_version 0.5; this "
         "iospd reads format_version 1 (a damaged or hand-edited file?)");
  expect("{\"format\": \"iospd-results\"}", IOSPD_EUSAGE,
         "'r.json' (--compare): iospd results with format_version absent; "
         "this iospd reads format_version 1 (a damaged or hand-edited "
         "file?)");
}

static void test_missing_parts(void** state) {
  (void)state;
  expect("{\"format\": \"iospd-results\", \"format_version\": 1, "
         "\"system\": {}, \"profile\": {}, \"timespans\": []}",
         IOSPD_EUSAGE,
         "'r.json' (--compare): iospd results without the \"environment\" "
         "object (a damaged or hand-edited file?)");
  expect("{\"format\": \"iospd-results\", \"format_version\": 1, "
         "\"system\": {}, \"environment\": {}, \"profile\": {}}",
         IOSPD_EUSAGE,
         "'r.json' (--compare): iospd results without the \"timespans\" "
         "array (a damaged or hand-edited file?)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a_document_loads),
      cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_not_json),
      cmocka_unit_test(test_another_format),
      cmocka_unit_test(test_versions),
      cmocka_unit_test(test_missing_parts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

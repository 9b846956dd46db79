/* SPDX-License-Identifier: MIT */
/* The one percentile list (iospd/percentiles.h): DISKSPD's 108 XML rows in
 * order, and the text and tree subsets with their labels. */
#include "test_util.h"
#include "iospd/percentiles.h"

static void test_list(void** state) {
  (void)state;
  size_t n = 0;
  const iospd_pct_t* r = iospd_pct_list(&n);
  assert_int_equal(n, 108);
  char want[16];
  for (size_t i = 0; i < 100; i++) {
    snprintf(want, sizeof want, "%zu", i);
    assert_string_equal(r[i].label, want);
    assert_true(r[i].p == (double)i);
  }
  static const char* const nines[] = {"99.9",     "99.99",     "99.999",
                                      "99.9999",  "99.99999",  "99.999999",
                                      "99.9999999"};
  for (size_t k = 0; k < 7; k++) {
    assert_string_equal(r[100 + k].label, nines[k]);
    assert_true(r[100 + k].p == strtod(nines[k], NULL));
  }
  assert_string_equal(r[107].label, "100");
  assert_true(r[107].p == 100.0);
  for (size_t i = 1; i < n; i++) assert_true(r[i - 1].p < r[i].p);
}

static void test_subsets(void** state) {
  (void)state;
  size_t n = 0;
  const iospd_pct_t* r = iospd_pct_list(&n);
  char text[256] = "", tree[256] = "";
  for (size_t i = 0; i < n; i++) {
    /* A row in a shorter list has its text label, and only then. */
    assert_true((r[i].text != NULL) == ((r[i].lists & IOSPD_PCT_TEXT) != 0));
    if (r[i].lists & IOSPD_PCT_TEXT)
      snprintf(text + strlen(text), sizeof text - strlen(text), "%s=%.10g ",
               r[i].text, r[i].p);
    if (r[i].lists & IOSPD_PCT_TREE)
      snprintf(tree + strlen(tree), sizeof tree - strlen(tree), "%s ",
               r[i].text);
  }
  assert_string_equal(text,
                      "min=0 25th=25 50th=50 75th=75 90th=90 95th=95 99th=99 "
                      "3-nines=99.9 4-nines=99.99 5-nines=99.999 "
                      "6-nines=99.9999 7-nines=99.99999 8-nines=99.999999 "
                      "9-nines=99.9999999 max=100 ");
  assert_string_equal(tree,
                      "min 25th 50th 75th 90th 95th 99th 3-nines 4-nines max ");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_list),
      cmocka_unit_test(test_subsets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* iospd_parse_size and iospd_parse_uint: every suffix, the 64-bit overflow
 * boundaries, continuation mode and the junk DISKSPD's parser refuses. */
#include "test_util.h"

#include "iospd/error.h"
#include "iospd/units.h"

static void test_units_size_suffixes(void** state) {
  (void)state;
  static const struct {
    const char* s;
    uint64_t unit;
    uint64_t want;
  } ok[] = {
      {"0", 65536, 0},
      {"1", 65536, 1},
      {"512", 65536, 512},
      {"4k", 65536, 4096},
      {"4K", 65536, 4096},
      {"3m", 65536, 3ull << 20},
      {"3M", 65536, 3ull << 20},
      {"2g", 65536, 2ull << 30},
      {"2G", 65536, 2ull << 30},
      {"5t", 65536, 5ull << 40},
      {"5T", 65536, 5ull << 40},
      {"2b", 65536, 131072},
      {"2B", 4096, 8192},
      {"0b", 4096, 0},
      {"007", 1, 7},
      {"18446744073709551615", 1, UINT64_MAX},
      {"18014398509481983K", 1, 18014398509481983ull * 1024},
      {"17592186044415M", 1, 17592186044415ull << 20},
      {"17179869183G", 1, 17179869183ull << 30},
      {"16777215T", 1, 16777215ull << 40},
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    uint64_t v = 99;
    int rc = iospd_parse_size(ok[i].s, ok[i].unit, &v, NULL);
    if (rc != 0 || v != ok[i].want)
      fail_msg("'%s' -> rc %d value %llu", ok[i].s, rc,
               (unsigned long long)v);
  }
}

static void test_units_size_rejects(void** state) {
  (void)state;
  static const struct {
    const char* s;
    int rc;
  } bad[] = {
      {"", IOSPD_EINVAL},
      {"K", IOSPD_EINVAL},
      {"-1", IOSPD_EINVAL},
      {"+1", IOSPD_EINVAL},
      {" 1", IOSPD_EINVAL},
      {"1 ", IOSPD_EINVAL},
      {"30KB", IOSPD_EINVAL},
      {"30 K", IOSPD_EINVAL},
      {"10a", IOSPD_EINVAL},
      {"40MB", IOSPD_EINVAL},
      {"0x10", IOSPD_EINVAL},
      {"1.5G", IOSPD_EINVAL},
      {"4KK", IOSPD_EINVAL},
      {"18446744073709551616", IOSPD_ERANGE},
      {"18014398509481984K", IOSPD_ERANGE},
      {"17592186044416M", IOSPD_ERANGE},
      {"17179869184G", IOSPD_ERANGE},
      {"16777216T", IOSPD_ERANGE},
      {"99999999999999999999999", IOSPD_ERANGE},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint64_t v = 1234;
    int rc = iospd_parse_size(bad[i].s, 65536, &v, NULL);
    if (rc != bad[i].rc) fail_msg("'%s' -> rc %d", bad[i].s, rc);
    assert_int_equal(v, 1234); /* untouched on failure */
  }
  /* Block multiplier overflow depends on the unit. */
  uint64_t v = 0;
  assert_int_equal(iospd_parse_size("281474976710655b", 65536, &v, NULL), 0);
  assert_int_equal(v, 281474976710655ull * 65536);
  assert_int_equal(iospd_parse_size("281474976710656b", 65536, &v, NULL),
                   IOSPD_ERANGE);
}

static void test_units_size_continuation(void** state) {
  (void)state;
  const char* end = NULL;
  uint64_t v = 0;
  assert_int_equal(iospd_parse_size("1G:10G", 65536, &v, &end), 0);
  assert_int_equal(v, 1ull << 30);
  assert_string_equal(end, ":10G");
  assert_int_equal(iospd_parse_size("10/20", 65536, &v, &end), 0);
  assert_int_equal(v, 10);
  assert_string_equal(end, "/20");
  assert_int_equal(iospd_parse_size("4Kx", 65536, &v, &end), 0);
  assert_int_equal(v, 4096);
  assert_string_equal(end, "x");
  assert_int_equal(iospd_parse_size("8", 65536, &v, &end), 0);
  assert_string_equal(end, "");
  assert_int_equal(iospd_parse_size(":5", 65536, &v, &end), IOSPD_EINVAL);
  assert_int_equal(iospd_parse_size(NULL, 65536, &v, &end), IOSPD_EINVAL);
}

static void test_units_uint(void** state) {
  (void)state;
  uint64_t v = 7;
  assert_int_equal(iospd_parse_uint("0", 10, &v), 0);
  assert_int_equal(v, 0);
  assert_int_equal(iospd_parse_uint("10", 10, &v), 0);
  assert_int_equal(v, 10);
  assert_int_equal(iospd_parse_uint("4294967295", UINT32_MAX, &v), 0);
  assert_int_equal(v, 4294967295u);
  v = 7;
  assert_int_equal(iospd_parse_uint("11", 10, &v), IOSPD_ERANGE);
  assert_int_equal(iospd_parse_uint("4294967296", UINT32_MAX, &v),
                   IOSPD_ERANGE);
  assert_int_equal(iospd_parse_uint("18446744073709551616", UINT64_MAX, &v),
                   IOSPD_ERANGE);
  assert_int_equal(iospd_parse_uint("", 10, &v), IOSPD_EINVAL);
  assert_int_equal(iospd_parse_uint("8x", 10, &v), IOSPD_EINVAL);
  assert_int_equal(iospd_parse_uint("-1", 10, &v), IOSPD_EINVAL);
  assert_int_equal(iospd_parse_uint("1K", UINT64_MAX, &v), IOSPD_EINVAL);
  assert_int_equal(iospd_parse_uint(" 1", 10, &v), IOSPD_EINVAL);
  assert_int_equal(v, 7);
  assert_int_equal(iospd_parse_uint("18446744073709551615", UINT64_MAX, &v),
                   0);
  assert_true(v == UINT64_MAX);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_units_size_suffixes),
      cmocka_unit_test(test_units_size_rejects),
      cmocka_unit_test(test_units_size_continuation),
      cmocka_unit_test(test_units_uint),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

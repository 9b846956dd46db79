/* SPDX-License-Identifier: MIT */
/* Error tables, the output buffer and the profile model's lifecycle. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/error.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

static void test_error_names_and_messages(void** state) {
  (void)state;
  assert_string_equal(iospd_err_name(IOSPD_EINVAL), "EINVAL");
  assert_string_equal(iospd_strerror(IOSPD_ENOMEM), "out of memory");
  assert_string_equal(iospd_err_name(0), "OK");
  assert_string_equal(iospd_err_name(12345), "EUNKNOWN");
  iospd_err_t err;
  int rc = iospd_err_set(&err, IOSPD_ERANGE, "-o%d is too large", 99);
  assert_int_equal(rc, IOSPD_ERANGE);
  assert_int_equal(err.code, IOSPD_ERANGE);
  assert_string_equal(err.msg, "-o99 is too large");
  assert_int_equal(iospd_err_set(NULL, IOSPD_EIO, "x"), IOSPD_EIO);
  iospd_err_set_os(&err, IOSPD_EOS, 5, "CreateFileW");
  assert_int_equal(err.os_code, 5);
  iospd_err_clear(&err);
  assert_int_equal(err.code, 0);
  assert_string_equal(err.msg, "");
}

static void test_strbuf_grows_and_escapes(void** state) {
  (void)state;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  assert_string_equal(iospd_strbuf_cstr(&sb), "");
  for (int i = 0; i < 1000; i++) iospd_strbuf_appendf(&sb, "%d,", i % 10);
  assert_int_equal(sb.len, 2000);
  assert_memory_equal(sb.data, "0,1,2,", 6);
  iospd_strbuf_reset(&sb);
  char big[600];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  iospd_strbuf_appendf(&sb, "[%s]", big);
  assert_int_equal(sb.len, 601);
  assert_int_equal(sb.data[600], ']');
  iospd_strbuf_reset(&sb);
  iospd_strbuf_append_xml(&sb, "a<b>&\"c'");
  assert_string_equal(sb.data, "a&lt;b&gt;&amp;&quot;c&apos;");
  iospd_strbuf_destroy(&sb);
}

static bool deny_all(size_t n) {
  (void)n;
  return false;
}

static void test_strbuf_records_allocation_failure(void** state) {
  (void)state;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_alloc_set_gate(deny_all);
  iospd_strbuf_append(&sb, "hello");
  iospd_alloc_set_gate(NULL);
  assert_true(sb.failed);
  assert_int_equal(sb.len, 0);
  iospd_strbuf_destroy(&sb);
}

static void test_profile_defaults_match_diskspd(void** state) {
  (void)state;
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&p);
  assert_non_null(ts);
  assert_int_equal(ts->duration, 10);
  assert_int_equal(ts->warmup, 5);
  assert_int_equal(ts->cooldown, 0);
  assert_int_equal(ts->io_bucket_ms, 1000);
  iospd_target_t* t = iospd_timespan_add_target(ts);
  assert_non_null(t);
  assert_int_equal(t->block_size, 65536);
  assert_int_equal(t->request_count, 2);
  assert_int_equal(t->threads_per_file, 1);
  assert_int_equal(t->io_priority, 3);
  assert_int_equal(t->weight, 1);
  assert_int_equal(iospd_target_align(t), 65536);
  t->stride_align = 4096;
  assert_int_equal(iospd_target_align(t), 4096);
  iospd_profile_destroy(&p);
  assert_int_equal(p.timespan_count, 0);
  assert_null(p.timespans);
}

static void test_target_copy_is_deep_and_equal(void** state) {
  (void)state;
  iospd_profile_t a, b;
  iospd_profile_init(&a);
  iospd_profile_init(&b);
  iospd_timespan_t* ta = iospd_profile_add_timespan(&a);
  iospd_target_t* x = iospd_timespan_add_target(ta);
  assert_int_equal(iospd_target_set_path(x, "data.bin"), 0);
  x->dist_type = IOSPD_DIST_PERCENT;
  x->dist = iospd_calloc(2, sizeof *x->dist);
  x->dist_count = 2;
  x->dist[0] = (iospd_dist_range_t){0, 90, 0, 10};
  x->dist[1] = (iospd_dist_range_t){90, 10, 10, 90};
  iospd_timespan_t* tb = iospd_profile_add_timespan(&b);
  iospd_target_t* y = iospd_timespan_add_target(tb);
  iospd_target_destroy(y);
  assert_int_equal(iospd_target_copy(y, x), 0);
  assert_ptr_not_equal(y->path, x->path);
  assert_ptr_not_equal(y->dist, x->dist);
  assert_true(iospd_profile_equal(&a, &b));
  y->dist[1].io_pct = 11;
  assert_false(iospd_profile_equal(&a, &b));
  y->dist[1].io_pct = 10;
  tb->measure_latency = true;
  assert_false(iospd_profile_equal(&a, &b));
  iospd_profile_destroy(&a);
  iospd_profile_destroy(&b);
}

static void test_target_kind_from_path(void** state) {
  (void)state;
  assert_int_equal(iospd_target_kind("#0"), IOSPD_TARGET_PHYSICAL_DRIVE);
  assert_int_equal(iospd_target_kind("#12"), IOSPD_TARGET_PHYSICAL_DRIVE);
  assert_int_equal(iospd_target_kind("#1a"), IOSPD_TARGET_FILE);
  assert_int_equal(iospd_target_kind("#"), IOSPD_TARGET_FILE);
  assert_int_equal(iospd_target_kind("E:"), IOSPD_TARGET_VOLUME);
  assert_int_equal(iospd_target_kind("E:\\x"), IOSPD_TARGET_FILE);
  assert_int_equal(iospd_target_kind("/dev/sdb"), IOSPD_TARGET_FILE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_error_names_and_messages),
      cmocka_unit_test(test_strbuf_grows_and_escapes),
      cmocka_unit_test(test_strbuf_records_allocation_failure),
      cmocka_unit_test(test_profile_defaults_match_diskspd),
      cmocka_unit_test(test_target_copy_is_deep_and_equal),
      cmocka_unit_test(test_target_kind_from_path),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

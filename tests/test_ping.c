/* SPDX-License-Identifier: MIT */
/* iospd --ping without I/O: the units, the request line, the fast/slow
 * marks, the summary's arithmetic from a known list of times (exact
 * strings), the --batch line, the JSON and XML documents, and the
 * command line of the mode. Runs natively and under wine. */
#include "test_util.h"

#include <math.h>

#include "cJSON.h"
#include "iospd/ping.h"

/* ---- units ---- */

static void check_time(double ns, const char* want) {
  char buf[64];
  assert_string_equal(iospd_ping_fmt_time(ns, buf, sizeof buf), want);
}

static void test_fmt_time(void** state) {
  (void)state;
  check_time(0, "0 ns");
  check_time(850, "850 ns");
  check_time(999.6, "1.00 us"); /* not "1000 ns" */
  check_time(4720, "4.72 us");
  check_time(63600, "63.6 us");
  check_time(104400, "104.4 us");
  check_time(254949, "254.9 us");
  check_time(999949, "999.9 us");
  check_time(999960, "1.00 ms"); /* not "1000.0 us" */
  check_time(12345678, "12.3 ms");
  check_time(2.5e9, "2.50 s");
  check_time(300.4e6, "300.4 ms");
}

static void test_fmt_bytes_count(void** state) {
  (void)state;
  char b[64];
  assert_string_equal(iospd_ping_fmt_bytes(512, b, sizeof b), "512 B");
  assert_string_equal(iospd_ping_fmt_bytes(4096, b, sizeof b), "4 KiB");
  assert_string_equal(iospd_ping_fmt_bytes(12288, b, sizeof b), "12 KiB");
  assert_string_equal(iospd_ping_fmt_bytes(1536 * 1024, b, sizeof b),
                      "1.50 MiB");
  assert_string_equal(iospd_ping_fmt_bytes(53.3 * 1024, b, sizeof b),
                      "53.3 KiB");
  assert_string_equal(iospd_ping_fmt_bytes(1024.0 * 1024 * 1024, b, sizeof b),
                      "1 GiB");
  assert_string_equal(iospd_ping_fmt_count(13, b, sizeof b), "13");
  assert_string_equal(iospd_ping_fmt_count(1.3333, b, sizeof b), "1.33");
  assert_string_equal(iospd_ping_fmt_count(13.3333, b, sizeof b), "13.3");
  assert_string_equal(iospd_ping_fmt_count(3820, b, sizeof b), "3.82 k");
  assert_string_equal(iospd_ping_fmt_count(47812, b, sizeof b), "47.8 k");
  assert_string_equal(iospd_ping_fmt_count(436000, b, sizeof b), "436 k");
  assert_string_equal(iospd_ping_fmt_count(1.2e6, b, sizeof b), "1.20 M");
}

/* ---- a known run: 100 us (warm-up), then 200, 300, 400, 1000, 100 us ---- */

static const uint64_t times_ns[] = {100000, 200000, 300000,
                                    400000, 1000000, 100000};
static const iospd_ping_mark_t marks[] = {
    IOSPD_PING_MARK_WARMUP, /* never counted */
    IOSPD_PING_MARK_NONE,   /* nothing counted before it */
    IOSPD_PING_MARK_NONE,   /* 300 vs mean 200: not over 400 */
    IOSPD_PING_MARK_NONE,   /* 400 vs mean 250: not over 500 */
    IOSPD_PING_MARK_SLOW,   /* 1000 vs mean 300: over 600 */
    IOSPD_PING_MARK_FAST};  /* 100 vs mean 475: under 237.5 */

static void feed(iospd_ping_stats_t* s) {
  assert_int_equal(iospd_ping_stats_init(s), 0);
  for (size_t i = 0; i < 6; i++)
    assert_int_equal(iospd_ping_stats_add(s, times_ns[i]), marks[i]);
  s->wall_ns = 5000000000u; /* 5 s from the first start to the end */
}

static iospd_ping_target_t target(bool write) {
  iospd_ping_target_t t;
  memset(&t, 0, sizeof t);
  t.path = "/x";
  snprintf(t.where, sizeof t.where, "ext4 /dev/sda");
  t.size = 4096;
  t.write = write;
  return t;
}

static void test_marks_edges(void** state) {
  (void)state;
  iospd_ping_stats_t s;
  assert_int_equal(iospd_ping_stats_init(&s), 0);
  assert_int_equal(iospd_ping_stats_add(&s, 5000), IOSPD_PING_MARK_WARMUP);
  assert_int_equal(iospd_ping_stats_add(&s, 1000), IOSPD_PING_MARK_NONE);
  /* Exactly half and exactly twice the mean are not "much". */
  assert_int_equal(iospd_ping_stats_add(&s, 500), IOSPD_PING_MARK_NONE);
  /* mean 750: 2 * 750 = 1500 is not over, 1501 is. */
  assert_int_equal(iospd_ping_stats_add(&s, 1501), IOSPD_PING_MARK_SLOW);
  /* mean (1000+500+1501)/3 = 1000.33: 500 is under half of it. */
  assert_int_equal(iospd_ping_stats_add(&s, 500), IOSPD_PING_MARK_FAST);
  assert_int_equal(s.requests, 5);
  assert_int_equal(s.counted, 4);
  assert_int_equal(s.sum_ns, 3501);
  iospd_ping_stats_destroy(&s);
}

static void test_summary_numbers(void** state) {
  (void)state;
  iospd_ping_stats_t s;
  feed(&s);
  iospd_ping_summary_t m;
  iospd_ping_summarize(&s, 4096, &m);
  assert_int_equal(m.requests, 6);
  assert_int_equal(m.counted, 5);
  assert_int_equal(m.time_ns, 2000000);
  assert_int_equal(m.bytes, 5 * 4096);
  assert_int_equal(m.all_bytes, 6 * 4096);
  assert_int_equal(m.min_ns, 100000);
  assert_int_equal(m.max_ns, 1000000);
  assert_true(fabs(m.avg_ns - 400000) < 1e-6);
  /* Population deviation: sqrt((4+9+16+100+1)/5 - 16) * 100 us. */
  assert_true(fabs(m.mdev_ns - sqrt(1e11)) < 1e-3);
  assert_true(fabs(m.iops - 2500) < 1e-9);
  assert_true(fabs(m.bps - 10240000) < 1e-6);
  assert_true(fabs(m.wall_iops - 1.2) < 1e-12);
  assert_true(fabs(m.wall_bps - 4915.2) < 1e-9);
  iospd_ping_stats_destroy(&s);
}

static void test_lines(void** state) {
  (void)state;
  iospd_ping_target_t t = target(false);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_ping_line(&sb, &t, 1, 104400, IOSPD_PING_MARK_WARMUP);
  iospd_ping_line(&sb, &t, 2, 254900, IOSPD_PING_MARK_NONE);
  iospd_ping_line(&sb, &t, 5, 1000000, IOSPD_PING_MARK_SLOW);
  iospd_ping_line(&sb, &t, 6, 850, IOSPD_PING_MARK_FAST);
  t.write = true;
  t.size = 65536;
  iospd_ping_line(&sb, &t, 7, 4720, IOSPD_PING_MARK_NONE);
  iospd_ping_error_line(&sb, &t, 8, "input/output error");
  assert_string_equal(
      iospd_strbuf_cstr(&sb),
      "4 KiB <<< /x (ext4 /dev/sda): request=1 time=104.4 us (warmup)\n"
      "4 KiB <<< /x (ext4 /dev/sda): request=2 time=254.9 us\n"
      "4 KiB <<< /x (ext4 /dev/sda): request=5 time=1.00 ms (slow)\n"
      "4 KiB <<< /x (ext4 /dev/sda): request=6 time=850 ns (fast)\n"
      "64 KiB >>> /x (ext4 /dev/sda): request=7 time=4.72 us\n"
      "64 KiB >>> /x (ext4 /dev/sda): request=8 failed: input/output error\n");
  iospd_strbuf_destroy(&sb);
}

static void test_summary_text(void** state) {
  (void)state;
  iospd_ping_stats_t s;
  feed(&s);
  iospd_ping_target_t t = target(false);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_ping_summary_text(&sb, &t, &s, false);
  assert_string_equal(
      iospd_strbuf_cstr(&sb),
      "\n--- /x (ext4 /dev/sda) iospd ping statistics ---\n"
      "5 requests completed in 2.00 ms, 20 KiB read, 2.50 k iops, 9.77 MiB/s\n"
      "generated 6 requests in 5.00 s, 24 KiB, 1.20 iops, 4.80 KiB/s\n"
      "min/avg/max/mdev = 100.0 us / 400.0 us / 1.00 ms / 316.2 us\n");
  /* -L: nearest rank of 100, 200, 300, 400, 1000 us. */
  iospd_strbuf_reset(&sb);
  t.write = true;
  iospd_ping_summary_text(&sb, &t, &s, true);
  assert_non_null(strstr(iospd_strbuf_cstr(&sb), ", 20 KiB written, "));
  assert_non_null(strstr(iospd_strbuf_cstr(&sb),
                         "\npercentiles: p50 = 300.0 us, p90 = 1.00 ms, "
                         "p95 = 1.00 ms, p99 = 1.00 ms, p99.9 = 1.00 ms, "
                         "p99.99 = 1.00 ms\n"));
  iospd_strbuf_destroy(&sb);
  iospd_ping_stats_destroy(&s);
}

static void test_summary_only_warmup(void** state) {
  (void)state;
  iospd_ping_stats_t s;
  assert_int_equal(iospd_ping_stats_init(&s), 0);
  iospd_ping_stats_add(&s, 7000);
  s.wall_ns = 7000;
  iospd_ping_target_t t = target(false);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_ping_summary_text(&sb, &t, &s, true);
  assert_string_equal(
      iospd_strbuf_cstr(&sb),
      "\n--- /x (ext4 /dev/sda) iospd ping statistics ---\n"
      "0 requests completed in 0 ns, 0 B read, 0 iops, 0 B/s\n"
      "generated 1 requests in 7.00 us, 4 KiB, 143 k iops, 558.0 MiB/s\n"
      "min/avg/max/mdev: no request was counted (the first one is the "
      "warm-up)\n");
  iospd_strbuf_reset(&sb);
  iospd_ping_batch_line(&sb, &s, 4096);
  assert_string_equal(iospd_strbuf_cstr(&sb), "0 0 0 0 0 0 0 0 1 7000\n");
  iospd_strbuf_destroy(&sb);
  iospd_ping_stats_destroy(&s);
}

static void test_batch(void** state) {
  (void)state;
  iospd_ping_stats_t s;
  feed(&s);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_ping_batch_line(&sb, &s, 4096);
  assert_string_equal(iospd_strbuf_cstr(&sb),
                      "5 2000000 2500 10240000 100000 400000 1000000 316228 6 "
                      "5000000000\n");
  iospd_strbuf_destroy(&sb);
  iospd_ping_stats_destroy(&s);
}

static iospd_ping_report_t report(const iospd_ping_opts_t* o,
                                  const iospd_ping_target_t* t) {
  iospd_ping_report_t r;
  memset(&r, 0, sizeof r);
  r.opts = o;
  r.target = t;
  r.kind = "directory";
  r.file = "/x/iospd-ping-abc.tmp";
  r.fs_type = "ext4";
  r.device = "/dev/sda";
  r.working_set = 1 << 20;
  return r;
}

static double num(const cJSON* o, const char* a, const char* b) {
  const cJSON* x = cJSON_GetObjectItemCaseSensitive(o, a);
  if (b != NULL) x = cJSON_GetObjectItemCaseSensitive(x, b);
  assert_non_null(x);
  assert_true(cJSON_IsNumber(x));
  return x->valuedouble;
}

static void test_json(void** state) {
  (void)state;
  iospd_ping_stats_t s;
  feed(&s);
  iospd_ping_opts_t o;
  iospd_ping_opts_init(&o);
  o.path = "/x";
  o.count = 6;
  o.percentiles = true;
  iospd_ping_target_t t = target(false);
  iospd_ping_report_t r = report(&o, &t);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_ping_json(&sb, &r, &s);
  cJSON* doc = cJSON_Parse(iospd_strbuf_cstr(&sb));
  assert_non_null(doc);
  assert_string_equal(
      cJSON_GetObjectItemCaseSensitive(doc, "format")->valuestring,
      "iospd-ping");
  assert_true(num(doc, "summary", "requests") == 6);
  assert_true(num(doc, "summary", "counted") == 5);
  assert_true(num(doc, "summary", "time_ns") == 2000000);
  assert_true(num(doc, "summary", "wall_ns") == 5e9);
  assert_true(num(doc, "summary", "min_ns") == 100000);
  assert_true(num(doc, "summary", "avg_ns") == 400000);
  assert_true(num(doc, "summary", "max_ns") == 1000000);
  assert_true(fabs(num(doc, "summary", "mdev_ns") - sqrt(1e11)) < 1e-6);
  assert_true(num(doc, "summary", "iops") == 2500);
  assert_true(num(doc, "summary", "bytes_per_second") == 10240000);
  assert_true(num(doc, "settings", "working_set_bytes") == 1 << 20);
  assert_true(num(doc, "settings", "interval_us") == 1000000);
  const cJSON* p = cJSON_GetObjectItemCaseSensitive(doc, "percentiles");
  assert_int_equal(cJSON_GetArraySize(p), 6);
  assert_true(num(cJSON_GetArrayItem(p, 0), "percentile", NULL) == 50);
  assert_true(num(cJSON_GetArrayItem(p, 0), "ns", NULL) == 300000);
  assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(doc, "error")));
  assert_string_equal(
      cJSON_GetObjectItemCaseSensitive(
          cJSON_GetObjectItemCaseSensitive(doc, "target"), "kind")
          ->valuestring,
      "directory");
  cJSON_Delete(doc);
  iospd_strbuf_destroy(&sb);
  iospd_ping_stats_destroy(&s);
}

static void test_xml(void** state) {
  (void)state;
  iospd_ping_stats_t s;
  feed(&s);
  iospd_ping_opts_t o;
  iospd_ping_opts_init(&o);
  o.path = "/x";
  iospd_ping_target_t t = target(true);
  iospd_ping_report_t r = report(&o, &t);
  r.error = "a <bad> & failed request";
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_ping_xml(&sb, &r, &s);
  const char* x = iospd_strbuf_cstr(&sb);
  assert_true(strncmp(x, "<Results><Ping Version=\"1\"><Target><Path>/x</Path>",
                      50) == 0);
  assert_non_null(strstr(x, "<Requests>6</Requests><Counted>5</Counted>"
                            "<TimeNs>2000000</TimeNs>"));
  assert_non_null(strstr(x, "<MinNs>100000</MinNs><AvgNs>400000.000</AvgNs>"
                            "<MaxNs>1000000</MaxNs>"));
  assert_non_null(strstr(x, "<Iops>2500.000</Iops>"));
  assert_null(strstr(x, "<Percentiles>")); /* no -L */
  assert_non_null(strstr(x, "<Error>a &lt;bad&gt; &amp; failed request</Error>"));
  assert_non_null(strstr(x, "</Ping></Results>\n"));
  iospd_strbuf_destroy(&sb);
  iospd_ping_stats_destroy(&s);
}

/* ---- the command line ---- */

static int parse(const char* line, iospd_ping_opts_t* o, iospd_err_t* err) {
  static char copy[512];
  const char* argv[32];
  int argc = 0;
  snprintf(copy, sizeof copy, "%s", line);
  for (char* tok = strtok(copy, " "); tok && argc < 32; tok = strtok(NULL, " "))
    argv[argc++] = tok;
  iospd_err_clear(err);
  return iospd_ping_parse(argc, argv, false, o, err);
}

static void test_parse_ok(void** state) {
  (void)state;
  iospd_ping_opts_t o;
  iospd_err_t err;
  assert_int_equal(parse("--ping /d", &o, &err), 0);
  assert_string_equal(o.path, "/d");
  assert_int_equal(o.count, 0);
  assert_int_equal(o.size, 4096);
  assert_int_equal(o.interval_us, 1000000);
  assert_false(o.write || o.sequential || o.quiet || o.batch);
  assert_true(o.direct && !o.write_through); /* unbuffered by default */
  assert_int_equal(parse("--ping=7 -b8K -w100 -s -Su -f2M -d10 -L -Rjson f",
                         &o, &err),
                   0);
  assert_int_equal(o.count, 7);
  assert_int_equal(o.size, 8192);
  assert_true(o.write && o.sequential && o.direct && !o.write_through);
  assert_int_equal(o.working_set, 2u << 20);
  assert_int_equal(o.duration_s, 10);
  assert_true(o.percentiles);
  assert_int_equal(o.format, IOSPD_FORMAT_JSON);
  assert_int_equal(parse("--ping --count=3 --size=64K --interval=100ms "
                         "--working-set=1G --direct --write --sequential "
                         "--quiet --allow-raw-write f",
                         &o, &err),
                   0);
  assert_int_equal(o.count, 3);
  assert_int_equal(o.size, 65536);
  assert_int_equal(o.interval_us, 100000);
  assert_int_equal(o.working_set, 1u << 30);
  assert_true(o.direct && o.write && o.sequential && o.quiet &&
              o.allow_raw_write);
  assert_int_equal(parse("--ping --batch -Sh -- -odd-name", &o, &err), 0);
  assert_true(o.batch && o.direct && o.write_through);
  assert_string_equal(o.path, "-odd-name");
  /* Each -S sets the whole cache mode; the last one wins. */
  assert_int_equal(parse("--ping -Sb f", &o, &err), 0);
  assert_true(!o.direct && !o.write_through);
  assert_int_equal(parse("--ping --cached f", &o, &err), 0);
  assert_true(!o.direct && !o.write_through);
  assert_int_equal(parse("--ping -Sw f", &o, &err), 0);
  assert_true(!o.direct && o.write_through);
  assert_int_equal(parse("--ping -Sh -Su f", &o, &err), 0);
  assert_true(o.direct && !o.write_through);
  assert_int_equal(parse("--ping -Sb --direct f", &o, &err), 0);
  assert_true(o.direct && !o.write_through);
  uint64_t us = 0;
  assert_int_equal(iospd_ping_parse_interval("0", &us), 0);
  assert_int_equal(us, 0);
  assert_int_equal(iospd_ping_parse_interval("0.5", &us), 0);
  assert_int_equal(us, 500000);
  assert_int_equal(iospd_ping_parse_interval("250us", &us), 0);
  assert_int_equal(us, 250);
  assert_int_equal(iospd_ping_parse_interval("2m", &us), 0);
  assert_int_equal(us, 120000000u);
}

static void check_bad(const char* line, const char* want) {
  iospd_ping_opts_t o;
  iospd_err_t err;
  assert_int_equal(parse(line, &o, &err), IOSPD_EUSAGE);
  if (strstr(err.msg, want) == NULL) fail_msg("'%s' -> '%s'", line, err.msg);
}

static void test_parse_bad(void** state) {
  (void)state;
  check_bad("--ping=x .", "'--ping=x': the count must be a whole number");
  check_bad("--ping=0 .", "'--ping=0': the count must be a whole number");
  check_bad("--ping --count=-1 .", "'--count=-1': the count");
  check_bad("--ping", "--ping needs a path");
  check_bad("--ping a b", "'b': --ping takes one path, and 'a' was given");
  check_bad("--ping -w50 .", "'-w50': --ping makes one kind of request");
  check_bad("--ping --interval=1h .", "'--interval=1h': give the time");
  check_bad("--ping --interval=-1 .", "'--interval=-1'");
  check_bad("--ping --size=0 .", "'--size=0': give a size");
  check_bad("--ping -bfoo .", "'-bfoo': give a size");
  check_bad("--ping -d0 .", "'-d0': -d takes the duration");
  check_bad("--ping -Ryaml .", "'-Ryaml': -R takes text, xml or json");
  check_bad("--ping -Sx .", "'-Sx': --ping takes -S, -Su, -Sh, -Sw or -Sb");
  check_bad("--ping -t4 .", "'-t4' is not a --ping switch");
  check_bad("--ping --threads=4 .", "'--threads=4' is not a --ping option");
  check_bad("--ping --batch -Rxml .", "--batch prints one line");
  check_bad("--ping -b8K --working-set=4K .", "smaller than one request");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fmt_time),
      cmocka_unit_test(test_fmt_bytes_count),
      cmocka_unit_test(test_marks_edges),
      cmocka_unit_test(test_summary_numbers),
      cmocka_unit_test(test_lines),
      cmocka_unit_test(test_summary_text),
      cmocka_unit_test(test_summary_only_warmup),
      cmocka_unit_test(test_batch),
      cmocka_unit_test(test_json),
      cmocka_unit_test(test_xml),
      cmocka_unit_test(test_parse_ok),
      cmocka_unit_test(test_parse_bad),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

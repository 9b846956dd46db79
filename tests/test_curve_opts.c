/* SPDX-License-Identifier: MIT */
/* --curve, --latency-limit and --expect on the command line (src/cli/
 * opt_curve.c): the values each form gives, the exact message of each
 * mistake, and what a curve refuses to be combined with
 * (iospd_curve_refusal), message by message. */
#include "test_util.h"

#include <math.h>

#include "iospd/alloc.h"
#include "iospd/cmdline.h"
#include "iospd/curve.h"
#include "iospd/error.h"
#include "iospd/profile.h"

static uint64_t no_uptime(void) { return 0; }
static const iospd_cmdline_env_t k_env = {.uptime_ms = no_uptime};

/* Splits line at spaces into argv (no quoting needed here). */
static int parse(const char* line, iospd_profile_t* p, iospd_err_t* err) {
  static char buf[1024];
  const char* argv[64];
  int argc = 0;
  snprintf(buf, sizeof buf, "%s", line);
  for (char* s = strtok(buf, " "); s != NULL && argc < 64;
       s = strtok(NULL, " "))
    argv[argc++] = s;
  iospd_profile_init(p);
  iospd_err_clear(err);
  iospd_cmdline_action_t action;
  return iospd_cmdline_parse(argc, argv, &k_env, p, &action, NULL, err);
}

static void test_values(void** state) {
  (void)state;
  iospd_profile_t p;
  iospd_err_t err;
  assert_int_equal(parse("iospd --curve -b4K t.dat", &p, &err), 0);
  assert_true(p.ext.curve.on);
  assert_int_equal(p.ext.curve.axis, IOSPD_CURVE_AXIS_O);
  assert_int_equal(p.ext.curve.value_count, 0); /* the defaults, later */
  iospd_profile_destroy(&p);

  assert_int_equal(parse("iospd --curve=o:1..64 t.dat", &p, &err), 0);
  const uint64_t o[] = {1, 2, 4, 8, 16, 32, 64};
  assert_int_equal(p.ext.curve.value_count, 7);
  for (int i = 0; i < 7; i++) assert_int_equal(p.ext.curve.values[i], o[i]);
  iospd_profile_destroy(&p);

  /* A range whose end the doubling misses ends on it. */
  assert_int_equal(parse("iospd --curve=t:3..20 t.dat", &p, &err), 0);
  const uint64_t t[] = {3, 6, 12, 20};
  assert_int_equal(p.ext.curve.axis, IOSPD_CURVE_AXIS_T);
  assert_int_equal(p.ext.curve.value_count, 4);
  for (int i = 0; i < 4; i++) assert_int_equal(p.ext.curve.values[i], t[i]);
  iospd_profile_destroy(&p);

  assert_int_equal(parse("iospd --curve=b:4K,8K,64K,1M t.dat", &p, &err), 0);
  const uint64_t b[] = {4096, 8192, 65536, 1048576};
  assert_int_equal(p.ext.curve.axis, IOSPD_CURVE_AXIS_B);
  assert_int_equal(p.ext.curve.value_count, 4);
  for (int i = 0; i < 4; i++) assert_int_equal(p.ext.curve.values[i], b[i]);
  iospd_profile_destroy(&p);

  assert_int_equal(parse("iospd --curve --latency-limit=r:p99.9<=1.5ms "
                         "--expect=iops:5000 t.dat",
                         &p, &err),
                   0);
  assert_true(p.ext.curve.limit_on);
  assert_int_equal(p.ext.curve.limit_op, IOSPD_CURVE_OP_READ);
  assert_string_equal(p.ext.curve.limit_stat, "p99.9");
  assert_true(fabs(p.ext.curve.limit_pct - 99.9) < 1e-9);
  assert_true(fabs(p.ext.curve.limit_us - 1500) < 1e-9);
  assert_int_equal(p.ext.curve.expect_kind, 1);
  assert_true(p.ext.curve.expect_value == 5000);
  iospd_profile_destroy(&p);

  assert_int_equal(parse("iospd --curve --latency-limit=mean<=800us "
                         "--expect=mibs:250.5 t.dat",
                         &p, &err),
                   0);
  assert_string_equal(p.ext.curve.limit_stat, "mean");
  assert_int_equal(p.ext.curve.limit_op, IOSPD_CURVE_OP_TOTAL);
  assert_true(p.ext.curve.limit_pct == 0);
  assert_true(p.ext.curve.limit_us == 800);
  assert_int_equal(p.ext.curve.expect_kind, 2);
  assert_true(p.ext.curve.expect_value == 250.5);
  iospd_profile_destroy(&p);
}

static const struct {
  const char* line;
  const char* msg;
} k_bad[] = {
    {"iospd --curve=x t.dat",
     "'--curve=x': the axis must be o (outstanding I/Os), t (threads) or b "
     "(block size), not 'x'; use --curve, --curve=o|t|b, --curve=o:1..256 "
     "(doubling) or --curve=b:4K,8K,64K (a list)"},
    {"iospd --curve= t.dat",
     "'--curve=': use --curve, --curve=o|t|b, --curve=o:1..256 (doubling) or "
     "--curve=b:4K,8K,64K (a list)"},
    {"iospd --curve=o:8..2 t.dat",
     "'--curve=o:8..2': the range 8..2 must rise (the second value above the "
     "first)"},
    {"iospd --curve=o:1,4,2 t.dat",
     "'--curve=o:1,4,2': the values of a curve must rise, and '2' does not"},
    {"iospd --curve=o:0..8 t.dat",
     "'--curve=o:0..8': the --curve outstanding I/O count must be a whole "
     "number from 1 to 65536, not '0'"},
    {"iospd --curve=o:1..2,4 t.dat",
     "'--curve=o:1..2,4': give a range (1..256) or a list (1,2,8), not both"},
    {"iospd --curve=b:4K,1Q t.dat",
     "'--curve=b:4K,1Q': the --curve block size must be a size"},
    {"iospd --curve --latency-limit=p99 t.dat",
     "'--latency-limit=p99': use --latency-limit=[r:|w:]<stat><=<time>, with "
     "<stat> mean or a percentile (p50, p99, p99.9 ...) and <time> with us, "
     "ms or s (quote it in a shell: '--latency-limit=p99<=1ms')"},
    {"iospd --curve --latency-limit=p100<=1ms t.dat",
     "'--latency-limit=p100<=1ms': the statistic must be mean or a "
     "percentile above 0 and below 100 (p50, p99, p99.9), not 'p100'"},
    {"iospd --curve --latency-limit=max<=1ms t.dat",
     "not 'max'"},
    {"iospd --curve --latency-limit=p99<=1 t.dat",
     "'--latency-limit=p99<=1': the bound must be a time above 0 with us, ms "
     "or s (500us, 1ms, 0.5s), not '1'"},
    {"iospd --curve --expect=5000 t.dat",
     "'--expect=5000': use --expect=iops:<n> or --expect=mibs:<n> (the figure "
     "the device or the cloud disk promises)"},
    {"iospd --curve --expect=iops:-3 t.dat",
     "'--expect=iops:-3': the expected IOPS must be a number above 0, not "
     "'-3'"},
};

static void test_mistakes(void** state) {
  (void)state;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k_bad); i++) {
    iospd_profile_t p;
    iospd_err_t err;
    int rc = parse(k_bad[i].line, &p, &err);
    if (rc != IOSPD_EUSAGE || strstr(err.msg, k_bad[i].msg) == NULL)
      fail_msg("'%s': rc %d, message '%s', expected '%s'", k_bad[i].line, rc,
               err.msg, k_bad[i].msg);
    iospd_profile_destroy(&p);
  }
}

static const struct {
  const char* line;
  const char* msg; /* NULL: accepted */
} k_refused[] = {
    {"iospd --curve -b4K t.dat", NULL},
    {"iospd -b4K t.dat", NULL},
    {"iospd --latency-limit=p99<=1ms t.dat",
     "--latency-limit needs --curve: the bound is searched along a curve "
     "(add --curve)"},
    {"iospd --expect=iops:100 t.dat",
     "--expect needs --curve: the verdict that reads it comes from a curve "
     "(add --curve)"},
    {"iospd --curve --tree=d1",
     "--curve cannot be combined with --tree: the curve varies -o, -t or -b "
     "of block I/O on targets"},
    {"iospd --curve --verify -w100 t.dat",
     "--curve cannot be combined with --verify: run the curve, then --verify "
     "on its own"},
    {"iospd --curve --verify-only t.dat",
     "--curve cannot be combined with --verify-only, which reads each block "
     "once and has no throughput to curve"},
    {"iospd --curve -Rp t.dat",
     "--curve cannot be combined with -Rp: -Rp prints one profile and a "
     "curve runs many"},
    {"iospd --curve --timeseries=s.csv t.dat",
     "--curve cannot be combined with --timeseries: the file holds one run's "
     "intervals; each point's results are in the curve's JSON (-Rjson, "
     "--output=json:FILE)"},
    {"iospd --curve -Rxml t.dat",
     "--curve writes a text or a JSON report: use -Rtext or -Rjson, not "
     "-Rxml"},
    {"iospd --curve --output=xml:r.xml t.dat",
     "--output=xml cannot be used with --curve: the curve writes "
     "--output=text:, json: or html:"},
    {"iospd --curve -F2 -O4 t.dat",
     "--curve=o cannot be combined with -O, which fixes the outstanding I/Os "
     "the curve varies: use -o"},
    {"iospd --curve=t -F2 -O4 t.dat", NULL},
    {"iospd --curve -g100 t.dat",
     "--curve cannot be combined with -g: a rate limit caps the throughput "
     "the curve measures (with --latency-limit the curve sets -g itself)"},
    {"iospd --curve --latency-limit=r:p99<=1ms -w100 t.dat",
     "--latency-limit=r:... bounds reads, and -w100 issues none: drop r: or "
     "lower -w"},
    {"iospd --curve --latency-limit=w:p99<=1ms t.dat",
     "--latency-limit=w:... bounds writes, and the profile issues none: drop "
     "w: or add -w"},
    {"iospd --curve --latency-limit=w:p99<=1ms -w30 t.dat", NULL},
    {"iospd --curve -g100i t.dat",
     "--curve cannot be combined with -g: a rate limit"},
};

static void test_refusals(void** state) {
  (void)state;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k_refused); i++) {
    iospd_profile_t p;
    iospd_err_t err;
    int rc = parse(k_refused[i].line, &p, &err);
    if (rc != 0) fail_msg("'%s': %s", k_refused[i].line, err.msg);
    iospd_strbuf_t msg;
    iospd_strbuf_init(&msg);
    rc = iospd_curve_refusal(&p, &msg);
    const char* want = k_refused[i].msg;
    if (want == NULL ? rc != 0
                     : rc != IOSPD_EUSAGE ||
                           strstr(iospd_strbuf_cstr(&msg), want) == NULL)
      fail_msg("'%s': rc %d, message '%s', expected '%s'", k_refused[i].line,
               rc, iospd_strbuf_cstr(&msg), want ? want : "(none)");
    iospd_strbuf_destroy(&msg);
    iospd_profile_destroy(&p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_values),
      cmocka_unit_test(test_mistakes),
      cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

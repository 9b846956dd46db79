/* SPDX-License-Identifier: MIT */
/* The curve's decisions (iospd/curve.h) on synthetic curves: the knee of
 * monotone, noisy, non-monotone and falling curves; a whole curve driven
 * by iospd_curve_next against a model device (an IOPS cap, a bandwidth
 * cap, a queue whose latency grows, iospd busy on its CPU) with the points
 * it chooses, the bisection and -g rate steps, the cap, Little's law and
 * the verdict sentences, every number worked out by hand in the comments. */
#include "test_util.h"

#include <math.h>

#include "iospd/curve.h"

/* ---- the knee on bare throughputs ---- */
static void test_knee(void** state) {
  (void)state;
  /* Monotone, doubling: never flat. */
  const double up[] = {100, 200, 400, 800, 1600};
  assert_int_equal(iospd_curve_knee(up, 5, 1), -1);
  /* Plateau: 1000 then 1040 (4 % more): the knee is 1000. */
  const double flat[] = {100, 200, 400, 800, 1000, 1040};
  assert_int_equal(iospd_curve_knee(flat, 6, 1), 4);
  /* ... but two points after it are needed to stop the axis. */
  assert_int_equal(iospd_curve_knee(flat, 6, 2), -1);
  /* Noisy plateau: 500, 510, 495, 515 all below 525 (500 + 5 %); 350 is
   * not (500 > 367.5). */
  const double noisy[] = {100, 190, 350, 500, 510, 495, 515};
  assert_int_equal(iospd_curve_knee(noisy, 7, 2), 3);
  /* Non-monotone: a dip then more growth: 400 is not the knee (800 >
   * 420); 800 is (780 and 820 < 840). */
  const double dip[] = {100, 400, 380, 800, 780, 820};
  assert_int_equal(iospd_curve_knee(dip, 6, 2), 3);
  /* A cliff: the peak is the knee. */
  const double cliff[] = {1000, 2000, 4000, 8000, 3000, 2500};
  assert_int_equal(iospd_curve_knee(cliff, 6, 2), 3);
  assert_int_equal(iospd_curve_knee(cliff, 1, 1), -1);
  /* Bisection between a good and a bad -o. */
  assert_int_equal(iospd_curve_bisect(4, 8), 6);
  assert_int_equal(iospd_curve_bisect(4, 5), 0);
  assert_int_equal(iospd_curve_bisect(1, 3), 2);
}

/* ---- a model device ---- */
typedef struct model_s {
  double iops_cap;   /* 0: none */
  double mibs_cap;   /* 0: none */
  double base_us;    /* latency of one I/O alone */
  double per_qd_us;  /* more latency per I/O in flight (a queue) */
  double busy_pct;   /* the worker's CPU */
  double cpu_pct;    /* the machine's CPU */
  const double* table; /* IOPS per axis point in order (a made-up curve) */
} model_t;

static void run_model(const model_t* m, iospd_curve_t* c,
                      iospd_curve_point_t* p) {
  double q = (double)p->outstanding * p->threads;
  p->in_flight = (uint64_t)q;
  double lat = m->base_us + m->per_qd_us * q;
  double iops = q / lat * 1e6;
  if (m->iops_cap > 0 && iops > m->iops_cap) iops = m->iops_cap;
  double bcap = m->mibs_cap * 1048576.0 / p->block_size;
  if (m->mibs_cap > 0 && iops > bcap) iops = bcap;
  if (m->table != NULL) iops = m->table[c->count];
  if (p->rate_iops > 0) {
    /* Held below its best: the queue is as full as the rate needs. */
    double share = p->rate_iops / iops;
    iops = p->rate_iops;
    p->mean_us = m->base_us + m->per_qd_us * q * share;
  } else {
    p->mean_us = q / iops * 1e6; /* Little's law, a full queue */
  }
  p->iops = iops;
  p->mib_per_s = iops * p->block_size / 1048576.0;
  p->seconds = 1;
  p->has_latency = true;
  p->p50_us = p->mean_us;
  p->p90_us = p->mean_us * 1.2;
  p->p99_us = p->mean_us * 1.6;
  p->p999_us = p->mean_us * 2;
  p->max_us = p->mean_us * 3;
  p->limit_us = strcmp(c->opts.limit_stat, "mean") == 0 ? p->mean_us
                                                         : p->p99_us;
  p->busiest_cpu_percent = m->busy_pct;
  p->cpu_percent = m->cpu_pct;
  p->within = iospd_curve_within(&c->opts, p->limit_us);
}

/* Runs the whole curve against the model; the points' count. */
static uint32_t drive(const model_t* m, iospd_curve_t* c) {
  iospd_curve_point_t next;
  while (iospd_curve_next(c, &next)) {
    run_model(m, c, &next);
    c->points[c->count++] = next;
  }
  return c->count;
}

static void start(iospd_curve_t* c, iospd_curve_axis_t axis,
                  const char* stat, double limit_us, int expect_kind,
                  double expect) {
  iospd_curve_opts_t o;
  memset(&o, 0, sizeof o);
  o.on = true;
  o.axis = axis;
  if (stat != NULL) {
    o.limit_on = true;
    snprintf(o.limit_stat, sizeof o.limit_stat, "%s", stat);
    o.limit_pct = strcmp(stat, "mean") == 0 ? 0 : 99;
    o.limit_us = limit_us;
  }
  o.expect_kind = expect_kind;
  o.expect_value = expect;
  iospd_curve_init(c, &o, 4096, 1, 2);
}

static char* verdict(const iospd_curve_t* c, iospd_curve_analysis_t* a) {
  iospd_curve_analyse(c, a);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_curve_verdict(c, a, &sb);
  size_t n = sb.len + 1;
  char* s = malloc(n);
  assert_non_null(s);
  memcpy(s, iospd_strbuf_cstr(&sb), n);
  iospd_strbuf_destroy(&sb);
  return s;
}

static iospd_curve_t g_curve; /* large: not on the stack */

/* An IOPS cap of 1,920 behind 1 ms per I/O: QD 1 gives 1,000, QD 2 hits
 * the cap, QD 4 and 8 stay at 1,920 (less than 2,016 = 5 % more), so the
 * axis stops after QD 8 with the knee at QD 2 (mean 2 / 1,920 = 1.04 ms,
 * p99 x 1.6 = 1.67 ms); the probe at 16K (4 x 4K) gives 1,920 IOPS again:
 * an IOPS cap. Little's law at QD 8: 8 / 1,920 = 4.17 ms, and the model's
 * full queue measures the same. 1,920 of 5,000 expected is 38 %. */
static void test_iops_cap(void** state) {
  (void)state;
  iospd_curve_t* c = &g_curve;
  start(c, IOSPD_CURVE_AXIS_O, NULL, 0, 1, 5000);
  model_t m = {.iops_cap = 1920, .base_us = 1000, .busy_pct = 20};
  assert_int_equal(drive(&m, c), 5);
  const uint64_t qd[] = {1, 2, 4, 8, 2};
  for (int i = 0; i < 5; i++) assert_int_equal(c->points[i].outstanding, qd[i]);
  assert_int_equal(c->points[4].phase, IOSPD_CURVE_PHASE_PROBE);
  assert_int_equal(c->points[4].block_size, 16384);
  iospd_curve_analysis_t a;
  char* v = verdict(c, &a);
  assert_int_equal(a.stopped, IOSPD_CURVE_STOP_PLATEAU);
  assert_string_equal(iospd_curve_stop_word(a.stopped), "plateau");
  assert_int_equal(a.knee, 1);
  assert_int_equal(a.cap, IOSPD_CURVE_CAP_IOPS);
  assert_true(fabs(a.cap_value - 1920) < 1e-9);
  assert_string_equal(a.evidence,
                      "4K and 16K points gave the same IOPS (1920 and 1920)");
  assert_int_equal(a.little_count, 3); /* QD 2, 4, 8 */
  assert_true(fabs(a.little[2].expected_us - 8e6 / 1920) < 1e-6);
  assert_string_equal(
      v,
      "The knee is at QD 2: past it more depth buys less than 5 % more "
      "throughput; there it gives 1,920 IOPS (7.50 MiB/s) at a mean latency "
      "of 1.04 ms, p99 1.67 ms.\n"
      "The plateau is an IOPS cap at about 1,920 IOPS: at 16K blocks the "
      "run gave the same IOPS (1,920), not the same MiB/s (30.00 against "
      "7.50).\n"
      "Past the knee latency grows with the queue, as Little's law says: at "
      "QD 8, 8 I/Os in flight at 1,920 IOPS should each take 4.17 ms; the "
      "mean measured was 4.17 ms.\n"
      "The run reached 1,920 of the 5,000 IOPS expected (38 %): something "
      "else caps it, such as the VM, the host or a QoS policy.\n");
  free(v);
}

/* A bandwidth cap of 6 MiB/s (1,536 IOPS of 4K): QD 1 gives 1,000, QD 2,
 * 4 and 8 1,536: knee QD 2, stop after QD 8. At 16K the same 6 MiB/s is
 * 384 IOPS: a bandwidth cap, not an IOPS one. */
static void test_bandwidth_cap(void** state) {
  (void)state;
  iospd_curve_t* c = &g_curve;
  start(c, IOSPD_CURVE_AXIS_O, NULL, 0, 0, 0);
  model_t m = {.mibs_cap = 6, .base_us = 1000, .busy_pct = 10};
  assert_int_equal(drive(&m, c), 5);
  iospd_curve_analysis_t a;
  char* v = verdict(c, &a);
  assert_int_equal(a.knee, 1);
  assert_int_equal(a.cap, IOSPD_CURVE_CAP_BANDWIDTH);
  assert_true(fabs(c->points[4].iops - 384) < 1e-9);
  assert_non_null(strstr(v, "The plateau is a bandwidth cap at about 6.00 "
                            "MiB/s: at 16K blocks the run gave the same MiB/s "
                            "(6.00), not the same IOPS (384 against 1,536).\n"));
  free(v);
}

/* p99 <= 3.3 ms with the IOPS cap model (p99 = 1.6 x mean, mean = QD /
 * 2,000 once capped): QD 4: mean 2 ms, p99 3.2 ms, within; QD 8: p99 6.4 ms,
 * over: the axis stops there. Bisection: QD 6 (p99 4.8 ms) over, QD 5 (4 ms)
 * over: bracket 4..5. No -g rate: QD 5 gives no more IOPS than QD 4. The
 * probe runs at the knee (QD 2). The answer: 2,000 IOPS, first at QD 2. */
static void test_latency_limit_bisect(void** state) {
  (void)state;
  iospd_curve_t* c = &g_curve;
  start(c, IOSPD_CURVE_AXIS_O, "p99", 3300, 0, 0);
  model_t m = {.iops_cap = 2000, .base_us = 1000, .busy_pct = 10};
  assert_int_equal(drive(&m, c), 7);
  const uint64_t qd[] = {1, 2, 4, 8, 6, 5, 2};
  const iospd_curve_phase_t ph[] = {
      IOSPD_CURVE_PHASE_CURVE,  IOSPD_CURVE_PHASE_CURVE,
      IOSPD_CURVE_PHASE_CURVE,  IOSPD_CURVE_PHASE_CURVE,
      IOSPD_CURVE_PHASE_BISECT, IOSPD_CURVE_PHASE_BISECT,
      IOSPD_CURVE_PHASE_PROBE};
  for (int i = 0; i < 7; i++) {
    assert_int_equal(c->points[i].outstanding, qd[i]);
    assert_int_equal(c->points[i].phase, ph[i]);
  }
  iospd_curve_analysis_t a;
  char* v = verdict(c, &a);
  assert_int_equal(a.stopped, IOSPD_CURVE_STOP_LIMIT);
  assert_int_equal(a.answer, 1);
  assert_true(a.have_good && a.have_bad);
  assert_int_equal(a.good_axis, 4);
  assert_int_equal(a.bad_axis, 5);
  assert_non_null(strstr(v, "Within p99 <= 3.30 ms the highest throughput is "
                            "2,000 IOPS at QD 2 (p99 1.60 ms), bracketed "
                            "between QD 4 (within) and QD 5 (over).\n"));
  free(v);
}

/* A queue without a cap: 1 ms + 0.5 ms per I/O in flight. mean <= 1.2 ms:
 * QD 1 (1.5 ms, 666.7 IOPS) already breaks it, so there is no good point
 * to bisect from and the -g rate does the work: floor(666.7 / 2) = 333
 * (1 + 0.5 x 333/666.7 = 1.25 ms, over), floor(333 / 2) = 166 (1.12 ms,
 * within), floor((166 + 333) / 2) = 249 (1.19 ms, within): 249 IOPS. */
static void test_rate_refinement(void** state) {
  (void)state;
  iospd_curve_t* c = &g_curve;
  start(c, IOSPD_CURVE_AXIS_O, "mean", 1200, 0, 0);
  model_t m = {.base_us = 1000, .per_qd_us = 500, .busy_pct = 10};
  assert_int_equal(drive(&m, c), 4);
  assert_int_equal(c->points[1].phase, IOSPD_CURVE_PHASE_RATE);
  assert_true(c->points[1].rate_iops == 333);
  assert_true(c->points[2].rate_iops == 166);
  assert_true(c->points[3].rate_iops == 249);
  assert_int_equal(c->points[1].within, 0);
  assert_int_equal(c->points[3].within, 1);
  iospd_curve_analysis_t a;
  char* v = verdict(c, &a);
  assert_int_equal(a.answer, 3);
  assert_false(a.have_good);
  assert_true(a.have_bad);
  assert_non_null(strstr(v, "Within mean <= 1.20 ms the highest throughput is "
                            "249 IOPS at QD 1 held to -g 249 IOPS (mean 1.19 "
                            "ms).\n"));
  assert_non_null(strstr(v, "Throughput was still growing at the highest "
                            "point measured (QD 1: 667 IOPS (2.60 MiB/s)): "
                            "no knee on this axis.\n"));
  free(v);
}

/* iospd on a whole CPU (the page cache): the knee is called iospd's own
 * limit, no block size probe is run, the verdict says to add threads. */
static void test_tool_limit(void** state) {
  (void)state;
  iospd_curve_t* c = &g_curve;
  start(c, IOSPD_CURVE_AXIS_O, NULL, 0, 1, 100000);
  model_t m = {.iops_cap = 50000, .base_us = 10, .busy_pct = 99.5};
  assert_int_equal(drive(&m, c), 3); /* QD 1, 2, 4: flat from QD 1 */
  iospd_curve_analysis_t a;
  char* v = verdict(c, &a);
  assert_int_equal(a.knee, 0);
  assert_int_equal(a.probe, -1);
  assert_int_equal(a.cap, IOSPD_CURVE_CAP_TOOL);
  assert_non_null(strstr(v, "iospd itself is the limit, not the storage: "
                            "thread 0 was busy on a CPU for 100 % of the "
                            "point at QD 1 (50,000 IOPS). Add threads (-t) "
                            "to measure further: this run does not show the "
                            "storage saturated.\n"));
  assert_non_null(strstr(v, "(50 %), but iospd was the limit: add threads "
                            "before comparing with the data sheet.\n"));
  assert_null(strstr(v, "Little"));
  free(v);
}

/* A made-up curve with a cliff: 1,000, 2,000, 4,000, 8,000, then 2,800
 * and 2,500: the knee at QD 8, the fall at QD 16 (65 % below, 10.94 MiB/s);
 * the probe at QD 8 reads the table's seventh entry, 8,000. */
static void test_cliff(void** state) {
  (void)state;
  iospd_curve_t* c = &g_curve;
  start(c, IOSPD_CURVE_AXIS_O, NULL, 0, 0, 0);
  const double t[] = {1000, 2000, 4000, 8000, 2800, 2500, 8000};
  model_t m = {.base_us = 100, .busy_pct = 10, .table = t};
  assert_int_equal(drive(&m, c), 7);
  iospd_curve_analysis_t a;
  char* v = verdict(c, &a);
  assert_int_equal(a.knee, 3);
  assert_int_equal(a.cliff, 4);
  assert_non_null(strstr(v, "Past the knee throughput falls: QD 16 gave 2,800 "
                            "IOPS (10.94 MiB/s), 65 % below the knee.\n"));
  free(v);
}

/* The block size axis 4K ... 256K against 4,000 IOPS (QD 4 at 1 ms) and a
 * 100 MiB/s cap: 15.6, 31.3, 62.5 MiB/s, then 100 from 32K on (3,200 IOPS):
 * the knee at 32K in MiB/s, a bandwidth cap; the axis runs to its end. */
static void test_block_axis(void** state) {
  (void)state;
  iospd_curve_t* c = &g_curve;
  start(c, IOSPD_CURVE_AXIS_B, NULL, 0, 0, 0);
  c->outstanding = 4;
  c->opts.value_count = 7;
  const uint64_t b[] = {4096, 8192, 16384, 32768, 65536, 131072, 262144};
  memcpy(c->opts.values, b, sizeof b);
  model_t m = {.mibs_cap = 100, .base_us = 1000, .busy_pct = 10};
  assert_int_equal(drive(&m, c), 7);
  iospd_curve_analysis_t a;
  char* v = verdict(c, &a);
  assert_int_equal(a.stopped, IOSPD_CURVE_STOP_END);
  assert_int_equal(a.knee, 3);
  assert_int_equal(a.cap, IOSPD_CURVE_CAP_BANDWIDTH);
  assert_non_null(strstr(v, "The plateau is a bandwidth cap at about 100.00 "
                            "MiB/s: MiB/s stopped growing with the block size "
                            "from 32K (100.00 MiB/s).\n"));
  free(v);
}

/* A worker that got 60 % of a CPU while the machine's CPUs were 99 % busy
 * wanted more than it got: iospd's limit too. At 60 % on a machine 50 %
 * busy it is not: the IOPS cap of 2,000 is found as in test_iops_cap. The
 * process's CPU counts as the worker's (io_uring's kernel workers). */
static void test_starved_worker(void** state) {
  (void)state;
  iospd_curve_t* c = &g_curve;
  start(c, IOSPD_CURVE_AXIS_O, NULL, 0, 0, 0);
  model_t m = {.iops_cap = 50000, .base_us = 10, .busy_pct = 60,
               .cpu_pct = 99};
  assert_int_equal(drive(&m, c), 3);
  iospd_curve_analysis_t a;
  char* v = verdict(c, &a);
  assert_int_equal(a.cap, IOSPD_CURVE_CAP_TOOL);
  assert_string_equal(a.evidence, "thread 0 was busy on a CPU for 60 % of "
                                  "the point, iospd used 0 % of a CPU, the "
                                  "machine's CPUs were 99 % busy");
  assert_non_null(strstr(v, "iospd itself is the limit, not the storage: the "
                            "machine's CPUs were 99 % busy and iospd used 60 "
                            "% of one at QD 1 (50,000 IOPS)."));
  free(v);
  start(c, IOSPD_CURVE_AXIS_O, NULL, 0, 0, 0);
  model_t m2 = {.iops_cap = 2000, .base_us = 1000, .busy_pct = 60,
                .cpu_pct = 50};
  assert_int_equal(drive(&m2, c), 5);
  iospd_curve_analyse(c, &a);
  assert_int_equal(a.cap, IOSPD_CURVE_CAP_IOPS);
  /* The process at 70 % of a CPU, the worker at 10 %, the machine 97 %. */
  start(c, IOSPD_CURVE_AXIS_O, NULL, 0, 0, 0);
  model_t m3 = {.iops_cap = 50000, .base_us = 10, .busy_pct = 10,
                .cpu_pct = 97};
  iospd_curve_point_t next;
  while (iospd_curve_next(c, &next)) {
    run_model(&m3, c, &next);
    next.process_cpu_percent = 70;
    c->points[c->count++] = next;
  }
  assert_int_equal(c->count, 3);
  iospd_curve_analyse(c, &a);
  assert_int_equal(a.cap, IOSPD_CURVE_CAP_TOOL);
}

static void test_words(void** state) {
  (void)state;
  assert_string_equal(iospd_curve_phase_word(IOSPD_CURVE_PHASE_PROBE),
                      "block_size_probe");
  assert_string_equal(iospd_curve_cap_word(IOSPD_CURVE_CAP_TOOL), "tool");
  assert_null(iospd_curve_cap_word(IOSPD_CURVE_CAP_UNKNOWN));
  uint64_t v[IOSPD_CURVE_MAX_VALUES];
  assert_int_equal(iospd_curve_default_values(IOSPD_CURVE_AXIS_O, v), 11);
  assert_int_equal(v[10], 1024);
  assert_int_equal(iospd_curve_default_values(IOSPD_CURVE_AXIS_B, v), 9);
  assert_int_equal(v[8], 1048576);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_curve_fmt_count(&sb, 1234567.4);
  iospd_strbuf_putc(&sb, ' ');
  iospd_curve_fmt_time(&sb, 950.2);
  iospd_strbuf_putc(&sb, ' ');
  iospd_curve_fmt_time(&sb, 8330);
  assert_string_equal(iospd_strbuf_cstr(&sb), "1,234,567 950 us 8.33 ms");
  iospd_strbuf_destroy(&sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_knee),
      cmocka_unit_test(test_iops_cap),
      cmocka_unit_test(test_bandwidth_cap),
      cmocka_unit_test(test_latency_limit_bisect),
      cmocka_unit_test(test_rate_refinement),
      cmocka_unit_test(test_tool_limit),
      cmocka_unit_test(test_cliff),
      cmocka_unit_test(test_block_axis),
      cmocka_unit_test(test_starved_worker),
      cmocka_unit_test(test_words),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

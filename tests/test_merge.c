/* SPDX-License-Identifier: MIT */
/* iospd --merge (src/merge): runs built from random latency samples, written
 * as result documents (the schema's shape, histograms in the sparse form),
 * merged, and compared with ONE histogram of all the samples: count, min,
 * max, mean, stddev and every percentile are equal exactly (==, not within
 * a tolerance). Also: counts and rates add, merge(merge(a, b), c) is
 * byte-identical to merge(a, b, c), another profile is refused naming the
 * first difference, paths may differ, and bad input is named. */
#include "test_util.h"

#include <math.h>

#include "iospd/hist.h"
#include "iospd/merge.h"
#include "merge/merge_internal.h"

static uint64_t rng_state;
static uint64_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}
static double rnd01(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

/* Latencies of several shapes: linear region, around 10 ms, log region,
 * and a few beyond 4.3 s, whose squares need the 128-bit sum. */
static uint64_t draw(int kind) {
  switch (kind) {
    case 0: return rnd() % 10000000;
    case 1: return (uint64_t)(-log(1 - rnd01()) * 200000);
    case 2: return 9990000 + rnd() % 30000;
    case 3: return 10000000 + rnd() % 990000000;
    default: return rnd() % UINT64_C(20000000000000); /* up to 5.5 h */
  }
}

static const char* const kPcts[] = {
    "0",     "1",      "25",      "50",       "75",        "90",
    "95",    "99",     "99.9",    "99.99",    "99.999",    "99.9999",
    "99.99999", "99.999999", "99.9999999", "100"};
#define NPCTS (sizeof kPcts / sizeof kPcts[0])

static double ms(double ns) { return ns / 1e6; }

static cJSON* latency_json(const iospd_hist_t* h) {
  cJSON* l = cJSON_CreateObject();
  cJSON_AddNumberToObject(l, "count", (double)iospd_hist_count(h));
  cJSON_AddNumberToObject(l, "min_ms", ms((double)iospd_hist_min_ns(h)));
  cJSON_AddNumberToObject(l, "max_ms", ms((double)iospd_hist_max_ns(h)));
  cJSON_AddNumberToObject(l, "mean_ms", ms(iospd_hist_mean_ns(h)));
  cJSON_AddNumberToObject(l, "stddev_ms", ms(iospd_hist_stddev_ns(h)));
  cJSON* p = cJSON_AddArrayToObject(l, "percentiles");
  for (size_t i = 0; i < NPCTS; i++) {
    cJSON* e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "percentile", kPcts[i]);
    cJSON_AddNumberToObject(
        e, "ms", ms(iospd_hist_percentile_ns(h, strtod(kPcts[i], NULL))));
    cJSON_AddItemToArray(p, e);
  }
  cJSON_AddItemToObject(l, "histogram", iospd_hist_to_json(h));
  return l;
}

static cJSON* direction(uint64_t ios, uint64_t block, double secs,
                        const iospd_hist_t* h) {
  cJSON* d = cJSON_CreateObject();
  cJSON_AddNumberToObject(d, "ios", (double)ios);
  cJSON_AddNumberToObject(d, "bytes", (double)(ios * block));
  cJSON_AddNumberToObject(d, "iops", (double)ios / secs);
  cJSON_AddNumberToObject(d, "mib_per_s",
                          (double)(ios * block) / secs / 1048576.0);
  /* As -Rjson: a direction without I/O has no latency object. */
  if (h != NULL && iospd_hist_count(h) > 0)
    cJSON_AddItemToObject(d, "latency", latency_json(h));
  else
    cJSON_AddNullToObject(d, "latency");
  return d;
}

static cJSON* directions(const iospd_hist_t* h, uint64_t writes,
                         uint64_t block, double secs) {
  cJSON* o = cJSON_CreateObject();
  uint64_t reads = iospd_hist_count(h);
  cJSON_AddItemToObject(o, "read", direction(reads, block, secs, h));
  cJSON_AddItemToObject(o, "write", direction(writes, block, secs, NULL));
  cJSON_AddItemToObject(o, "total", direction(reads + writes, block, secs, h));
  return o;
}

static cJSON* errors_json(uint64_t reads) {
  cJSON* e = cJSON_CreateObject();
  cJSON_AddNumberToObject(e, "read", (double)reads);
  cJSON_AddNumberToObject(e, "write", 0);
  cJSON_AddNullToObject(e, "first_error");
  cJSON_AddNullToObject(e, "first_error_offset");
  return e;
}

/* One run: reads recorded in h, `writes` writes without latency, one
 * target at `path`, one thread, the -D series of two 1 s intervals. */
static char* run_doc(const char* path, uint64_t block, const iospd_hist_t* h,
                     uint64_t writes, double secs, double cpu_pct) {
  cJSON* doc = cJSON_CreateObject();
  cJSON_AddStringToObject(doc, "format", "iospd-results");
  cJSON_AddNumberToObject(doc, "format_version", 1);
  cJSON* sys = cJSON_AddObjectToObject(doc, "system");
  cJSON_AddStringToObject(sys, "computer_name", path);
  cJSON* env = cJSON_AddObjectToObject(doc, "environment");
  cJSON_AddStringToObject(env, "cpu_model", "test cpu");
  cJSON* prof = cJSON_AddObjectToObject(doc, "profile");
  cJSON_AddStringToObject(prof, "result_format", "json");
  cJSON* pts = cJSON_AddArrayToObject(prof, "timespans");
  cJSON* pt = cJSON_CreateObject();
  cJSON_AddItemToArray(pts, pt);
  cJSON_AddNumberToObject(pt, "duration_s", 10);
  cJSON_AddTrueToObject(pt, "measure_latency");
  cJSON* ptg = cJSON_AddArrayToObject(pt, "targets");
  cJSON* t = cJSON_CreateObject();
  cJSON_AddItemToArray(ptg, t);
  cJSON_AddStringToObject(t, "path", path);
  cJSON_AddNumberToObject(t, "block_size", (double)block);

  cJSON* tss = cJSON_AddArrayToObject(doc, "timespans");
  cJSON* ts = cJSON_CreateObject();
  cJSON_AddItemToArray(tss, ts);
  cJSON_AddNumberToObject(ts, "index", 0);
  cJSON_AddNullToObject(ts, "error");
  cJSON_AddTrueToObject(ts, "measured");
  cJSON_AddNumberToObject(ts, "test_time_seconds", secs);
  cJSON_AddNumberToObject(ts, "thread_count", 1);
  cJSON* cpu = cJSON_AddObjectToObject(ts, "cpu");
  cJSON* cpus = cJSON_AddArrayToObject(cpu, "cpus");
  cJSON* c0 = cJSON_CreateObject();
  cJSON_AddNumberToObject(c0, "id", 0);
  cJSON_AddNumberToObject(c0, "usage_percent", cpu_pct);
  cJSON_AddItemToArray(cpus, c0);
  cJSON* avg = cJSON_AddObjectToObject(cpu, "average");
  cJSON_AddNumberToObject(avg, "usage_percent", cpu_pct);
  cJSON_AddItemToObject(ts, "total", directions(h, writes, block, secs));
  cJSON* tt = cJSON_AddArrayToObject(ts, "targets");
  cJSON* tg = cJSON_CreateObject();
  cJSON_AddItemToArray(tt, tg);
  cJSON_AddNumberToObject(tg, "target_index", 0);
  cJSON_AddStringToObject(tg, "path", path);
  cJSON_AddItemToObject(tg, "directions", directions(h, writes, block, secs));
  cJSON_AddItemToObject(tg, "errors", errors_json(1));
  cJSON* th = cJSON_AddArrayToObject(ts, "threads");
  cJSON* t0 = cJSON_CreateObject();
  cJSON_AddItemToArray(th, t0);
  cJSON_AddNumberToObject(t0, "id", 0);
  cJSON* t0t = cJSON_AddArrayToObject(t0, "targets");
  cJSON* x = cJSON_CreateObject();
  cJSON_AddItemToArray(t0t, x);
  uint64_t reads = iospd_hist_count(h);
  cJSON_AddNumberToObject(x, "ios", (double)(reads + writes));
  cJSON_AddNumberToObject(x, "read_ios", (double)reads);
  cJSON_AddNumberToObject(x, "write_ios", (double)writes);
  cJSON_AddItemToObject(x, "errors", errors_json(1));
  cJSON* rl = cJSON_AddObjectToObject(x, "read_latency");
  cJSON_AddNumberToObject(rl, "mean_ms", ms(iospd_hist_mean_ns(h)));
  cJSON_AddNumberToObject(rl, "stddev_ms", ms(iospd_hist_stddev_ns(h)));
  cJSON* ser = cJSON_AddObjectToObject(x, "iops_series");
  cJSON_AddNumberToObject(ser, "interval_ms", 1000);
  cJSON_AddNumberToObject(ser, "read_iops_stddev", 0);
  cJSON_AddNumberToObject(ser, "write_iops_stddev", 0);
  cJSON_AddNumberToObject(ser, "iops_stddev", 0);
  cJSON* bk = cJSON_AddArrayToObject(ser, "buckets");
  for (int i = 0; i < 2; i++) {
    cJSON* b = cJSON_CreateObject();
    uint64_t r = i == 0 ? reads / 3 : reads - reads / 3;
    cJSON_AddNumberToObject(b, "read_ios", (double)r);
    cJSON_AddNumberToObject(b, "write_ios", 0);
    cJSON_AddNumberToObject(b, "read_iops", (double)r);
    cJSON_AddItemToArray(bk, b);
  }
  char* text = cJSON_PrintUnformatted(doc);
  assert_non_null(text);
  cJSON_Delete(doc);
  return text;
}

static int merge_texts(const char* const* texts, const char* const* names,
                       size_t n, iospd_strbuf_t* out, iospd_err_t* err) {
  iospd_merge_input_t in[4];
  assert_true(n <= 4);
  for (size_t i = 0; i < n; i++) {
    in[i].name = names[i];
    in[i].text = texts[i];
    in[i].len = strlen(texts[i]);
  }
  iospd_strbuf_reset(out);
  iospd_err_clear(err);
  return iospd_merge(in, n, out, err);
}

static const cJSON* at(const cJSON* o, const char* path) {
  /* "a.b[2].c" */
  char key[64];
  while (*path && o) {
    if (*path == '.') path++;
    if (*path == '[') {
      o = cJSON_GetArrayItem(o, atoi(path + 1));
      path = strchr(path, ']') + 1;
      continue;
    }
    size_t n = strcspn(path, ".[");
    memcpy(key, path, n);
    key[n] = '\0';
    o = cJSON_GetObjectItemCaseSensitive(o, key);
    path += n;
  }
  assert_non_null(o);
  return o;
}

static double num(const cJSON* o, const char* path) {
  const cJSON* v = at(o, path);
  assert_true(cJSON_IsNumber(v));
  return v->valuedouble;
}

/* The merged latency object equals the one computed from `all`, exactly. */
static void check_latency(const cJSON* lat, const iospd_hist_t* all) {
  assert_true(num(lat, "count") == (double)iospd_hist_count(all));
  assert_true(num(lat, "min_ms") == ms((double)iospd_hist_min_ns(all)));
  assert_true(num(lat, "max_ms") == ms((double)iospd_hist_max_ns(all)));
  assert_true(num(lat, "mean_ms") == ms(iospd_hist_mean_ns(all)));
  assert_true(num(lat, "stddev_ms") == ms(iospd_hist_stddev_ns(all)));
  const cJSON* p = at(lat, "percentiles");
  assert_int_equal(cJSON_GetArraySize(p), NPCTS);
  for (size_t i = 0; i < NPCTS; i++) {
    const cJSON* e = cJSON_GetArrayItem(p, (int)i);
    assert_string_equal(at(e, "percentile")->valuestring, kPcts[i]);
    double want = ms(iospd_hist_percentile_ns(all, strtod(kPcts[i], NULL)));
    if (num(e, "ms") != want)
      fail_msg("p%s: merged %.17g ms, one histogram %.17g ms", kPcts[i],
               num(e, "ms"), want);
  }
  /* The histogram itself, as text: bucket for bucket, exact sums. */
  iospd_strbuf_t a, b;
  iospd_strbuf_init(&a);
  iospd_strbuf_init(&b);
  iospd_json_write_tree(&a, at(lat, "histogram"), 0);
  cJSON* hj = iospd_hist_to_json(all);
  iospd_json_write_tree(&b, hj, 0);
  cJSON_Delete(hj);
  assert_string_equal(iospd_strbuf_cstr(&a), iospd_strbuf_cstr(&b));
  iospd_strbuf_destroy(&a);
  iospd_strbuf_destroy(&b);
}

typedef struct runs_s {
  iospd_hist_t* h[3];
  iospd_hist_t* all;
  char* text[3];
  uint64_t writes[3];
  double secs[3];
} runs_t;

static void make_runs(runs_t* r, uint64_t seed, const char* const* paths) {
  rng_state = seed;
  r->all = iospd_hist_create();
  assert_non_null(r->all);
  for (int i = 0; i < 3; i++) {
    r->h[i] = iospd_hist_create();
    assert_non_null(r->h[i]);
    int n = 20000 + (int)(rnd() % 20000);
    for (int k = 0; k < n; k++) {
      /* Mostly kinds 0..3; one in 4000 beyond 4.3 s (128-bit squares). */
      uint64_t v = draw(rnd() % 4000 == 0 ? 4 : (int)((unsigned)(i + k) % 4));
      iospd_hist_record(r->h[i], v);
      iospd_hist_record(r->all, v);
    }
    r->writes[i] = 1000 + rnd() % 1000;
    r->secs[i] = 10.0 + 0.001 * (double)(rnd() % 50);
    r->text[i] = run_doc(paths[i], 4096, r->h[i], r->writes[i], r->secs[i],
                         10.0 + i);
  }
}

static void free_runs(runs_t* r) {
  for (int i = 0; i < 3; i++) {
    iospd_hist_destroy(r->h[i]);
    cJSON_free(r->text[i]);
  }
  iospd_hist_destroy(r->all);
}

static const char* const kSamePaths[] = {"t.dat", "t.dat", "t.dat"};
static const char* const kNames[] = {"a.json", "b.json", "c.json"};

static void test_merge_equals_one_histogram(void** state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 5; seed++) {
    runs_t r;
    make_runs(&r, seed * 0x9E3779B97F4A7C15u, kSamePaths);
    iospd_strbuf_t out;
    iospd_strbuf_init(&out);
    iospd_err_t err;
    int rc = merge_texts((const char* const*)r.text, kNames, 3, &out, &err);
    if (rc != 0) fail_msg("merge: %s", err.msg);
    cJSON* m = cJSON_Parse(iospd_strbuf_cstr(&out));
    assert_non_null(m);
    const cJSON* ts = at(m, "timespans[0]");
    check_latency(at(ts, "total.read.latency"), r.all);
    check_latency(at(ts, "total.total.latency"), r.all);
    check_latency(at(ts, "targets[0].directions.read.latency"), r.all);
    assert_true(cJSON_IsNull(at(ts, "total.write.latency")));

    /* Counts add; rates add (each run's own); the duration is the longest. */
    uint64_t reads = 0, writes = 0;
    double iops = 0, longest = 0;
    for (int i = 0; i < 3; i++) {
      reads += iospd_hist_count(r.h[i]);
      writes += r.writes[i];
      iops += (double)(iospd_hist_count(r.h[i]) + r.writes[i]) / r.secs[i];
      if (r.secs[i] > longest) longest = r.secs[i];
    }
    assert_true(num(ts, "total.read.ios") == (double)reads);
    assert_true(num(ts, "total.write.ios") == (double)writes);
    assert_true(num(ts, "total.total.bytes") == (double)((reads + writes) * 4096));
    assert_true(num(ts, "total.total.iops") == iops);
    assert_true(num(ts, "test_time_seconds") == longest);
    assert_true(num(ts, "targets[0].errors.read") == 3);
    assert_true(num(ts, "threads[0].targets[0].read_ios") == (double)reads);
    /* Per-thread latency has no histogram: not mergeable, so null. */
    assert_true(cJSON_IsNull(at(ts, "threads[0].targets[0].read_latency.mean_ms")));
    /* -D series: per interval counts add, stddev from the merged counts. */
    uint64_t b0 = 0, b1 = 0;
    for (int i = 0; i < 3; i++) {
      b0 += iospd_hist_count(r.h[i]) / 3;
      b1 += iospd_hist_count(r.h[i]) - iospd_hist_count(r.h[i]) / 3;
    }
    const cJSON* ser = at(ts, "threads[0].targets[0].iops_series");
    assert_true(num(ser, "buckets[0].read_ios") == (double)b0);
    assert_true(num(ser, "buckets[1].read_ios") == (double)b1);
    double mean = ((double)b0 + (double)b1) / 2;
    double sd = sqrt((((double)b0 - mean) * ((double)b0 - mean) +
                      ((double)b1 - mean) * ((double)b1 - mean)) / 2);
    assert_true(num(ser, "read_iops_stddev") == sd);
    /* CPU belongs to each host: kept per run in merged_from. */
    assert_int_equal(cJSON_GetArraySize(at(ts, "cpu.cpus")), 0);
    assert_true(cJSON_IsNull(at(ts, "cpu.average.usage_percent")));
    const cJSON* from = at(m, "merged_from");
    assert_int_equal(cJSON_GetArraySize(from), 3);
    for (int i = 0; i < 3; i++) {
      const cJSON* e = cJSON_GetArrayItem(from, i);
      assert_string_equal(at(e, "file")->valuestring, kNames[i]);
      assert_true(num(e, "timespans[0].test_time_seconds") == r.secs[i]);
      assert_true(num(e, "timespans[0].cpu.average.usage_percent") == 10.0 + i);
    }
    cJSON_Delete(m);
    iospd_strbuf_destroy(&out);
    free_runs(&r);
  }
}

/* merge(merge(a, b), c) and merge(a, merge(b, c))... the left fold the user
 * gets by merging a merged file again is byte-identical to merge(a, b, c);
 * merging one file reproduces its numbers. */
static void test_merge_again_is_identical(void** state) {
  (void)state;
  runs_t r;
  make_runs(&r, 42, kSamePaths);
  iospd_strbuf_t abc, ab, ab_c, one;
  iospd_strbuf_init(&abc);
  iospd_strbuf_init(&ab);
  iospd_strbuf_init(&ab_c);
  iospd_strbuf_init(&one);
  iospd_err_t err;
  assert_int_equal(merge_texts((const char* const*)r.text, kNames, 3, &abc, &err), 0);
  assert_int_equal(merge_texts((const char* const*)r.text, kNames, 2, &ab, &err), 0);
  const char* second[] = {iospd_strbuf_cstr(&ab), r.text[2]};
  const char* second_names[] = {"ab.json", "c.json"};
  assert_int_equal(merge_texts(second, second_names, 2, &ab_c, &err), 0);
  assert_string_equal(iospd_strbuf_cstr(&ab_c), iospd_strbuf_cstr(&abc));

  /* One file: the same numbers as the run itself. */
  assert_int_equal(merge_texts((const char* const*)r.text, kNames, 1, &one, &err), 0);
  cJSON* m = cJSON_Parse(iospd_strbuf_cstr(&one));
  check_latency(at(m, "timespans[0].total.read.latency"), r.h[0]);
  assert_true(num(m, "timespans[0].cpu.average.usage_percent") == 10.0);
  cJSON_Delete(m);
  iospd_strbuf_destroy(&abc);
  iospd_strbuf_destroy(&ab);
  iospd_strbuf_destroy(&ab_c);
  iospd_strbuf_destroy(&one);
  free_runs(&r);
}

/* Runs on several machines: the paths differ, the workload does not. */
static void test_merge_paths_may_differ(void** state) {
  (void)state;
  static const char* const paths[] = {"C:\\t.dat", "D:\\t.dat", "/mnt/t.dat"};
  runs_t r;
  make_runs(&r, 7, paths);
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  iospd_err_t err;
  assert_int_equal(merge_texts((const char* const*)r.text, kNames, 3, &out, &err), 0);
  cJSON* m = cJSON_Parse(iospd_strbuf_cstr(&out));
  for (int i = 0; i < 3; i++) {
    const cJSON* e = cJSON_GetArrayItem(at(m, "merged_from"), i);
    assert_string_equal(at(e, "target_paths[0][0]")->valuestring, paths[i]);
    assert_string_equal(at(e, "system.computer_name")->valuestring, paths[i]);
  }
  /* The merged profile is the first run's. */
  assert_string_equal(at(m, "profile.timespans[0].targets[0].path")->valuestring,
                      paths[0]);
  check_latency(at(m, "timespans[0].total.read.latency"), r.all);
  cJSON_Delete(m);
  iospd_strbuf_destroy(&out);
  free_runs(&r);
}

/* A run whose reads had no I/O (latency null) merges before or after one
 * that had: the latency is the other run's, the counts add. */
static void test_merge_with_an_empty_direction(void** state) {
  (void)state;
  rng_state = 11;
  iospd_hist_t* empty = iospd_hist_create();
  iospd_hist_t* h = iospd_hist_create();
  for (int i = 0; i < 5000; i++) iospd_hist_record(h, draw(i % 4));
  char* e = run_doc("t.dat", 4096, empty, 100, 10, 1);
  char* a = run_doc("t.dat", 4096, h, 200, 10, 1);
  const char* orders[2][2] = {{e, a}, {a, e}};
  for (int k = 0; k < 2; k++) {
    iospd_strbuf_t out;
    iospd_strbuf_init(&out);
    iospd_err_t err;
    assert_int_equal(merge_texts(orders[k], kNames, 2, &out, &err), 0);
    cJSON* m = cJSON_Parse(iospd_strbuf_cstr(&out));
    check_latency(at(m, "timespans[0].total.read.latency"), h);
    check_latency(at(m, "timespans[0].targets[0].directions.total.latency"), h);
    assert_true(num(m, "timespans[0].total.write.ios") == 300);
    assert_true(num(m, "timespans[0].total.read.ios") == 5000);
    cJSON_Delete(m);
    iospd_strbuf_destroy(&out);
  }
  cJSON_free(e);
  cJSON_free(a);
  iospd_hist_destroy(empty);
  iospd_hist_destroy(h);
}

static void expect_refusal(const char* const* texts, size_t n,
                           const char* want) {
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  iospd_err_t err;
  int rc = merge_texts(texts, kNames, n, &out, &err);
  assert_int_equal(rc, IOSPD_EUSAGE);
  assert_int_equal(out.len, 0);
  if (strcmp(err.msg, want) != 0)
    fail_msg("message\n  got:  %s\n  want: %s", err.msg, want);
  iospd_strbuf_destroy(&out);
}

static void test_merge_refuses_another_profile(void** state) {
  (void)state;
  rng_state = 3;
  iospd_hist_t* h = iospd_hist_create();
  for (int i = 0; i < 100; i++) iospd_hist_record(h, draw(1));
  char* a = run_doc("t.dat", 4096, h, 10, 10, 1);
  char* b = run_doc("t.dat", 8192, h, 10, 10, 1);
  const char* texts[] = {a, a, b};
  expect_refusal(texts, 3,
                 "'c.json' (--merge) is a run of another profile than "
                 "'a.json': profile.timespans[0].targets[0].block_size is "
                 "8192 in 'c.json' and 4096 in 'a.json'; only runs of the same "
                 "profile merge (target paths and the command line may "
                 "differ)");
  /* A key only one of them has. */
  cJSON* d = cJSON_Parse(a);
  cJSON_AddNumberToObject((cJSON*)at(d, "profile.timespans[0]"), "warmup_s", 5);
  char* c = cJSON_PrintUnformatted(d);
  const char* texts2[] = {a, c};
  expect_refusal(texts2, 2,
                 "'b.json' (--merge) is a run of another profile than "
                 "'a.json': profile.timespans[0].warmup_s is 5 in 'b.json' and "
                 "absent in 'a.json'; only runs of the same profile merge "
                 "(target paths and the command line may differ)");
  cJSON_Delete(d);
  cJSON_free(a);
  cJSON_free(b);
  cJSON_free(c);
  iospd_hist_destroy(h);
}

static void test_merge_names_bad_input(void** state) {
  (void)state;
  rng_state = 5;
  iospd_hist_t* h = iospd_hist_create();
  for (int i = 0; i < 100; i++) iospd_hist_record(h, draw(0));
  char* a = run_doc("t.dat", 4096, h, 10, 10, 1);

  const char* not_json[] = {a, "{\"format\": \"iospd-results\",\n  oops}"};
  expect_refusal(not_json, 2,
                 "'b.json' (--merge): not JSON: parsing stops near byte 32 "
                 "(line 2, column 4); expected the JSON that iospd -Rjson "
                 "wrote");
  const char* not_ours[] = {a, "{\"results\": []}"};
  expect_refusal(not_ours, 2,
                 "'b.json' (--merge): JSON, but not iospd results: it has no "
                 "\"format\": \"iospd-results\" (write results with -Rjson or "
                 "--output=json:FILE)");
  const char* empty[] = {"  \n"};
  expect_refusal(empty, 1,
                 "'a.json' (--merge): the file is empty; expected the JSON "
                 "that iospd -Rjson (or --output=json:FILE) wrote");

  /* A bucket that is not a bucket of the layout, deep inside. */
  cJSON* d = cJSON_Parse(a);
  cJSON* bk = (cJSON*)at(d, "timespans[0].total.read.latency.histogram.buckets[0]");
  cJSON_SetNumberHelper(cJSON_GetArrayItem(bk, 0), 501);
  char* bad = cJSON_PrintUnformatted(d);
  const char* bad_bucket[] = {a, bad};
  expect_refusal(bad_bucket, 2,
                 "'b.json': timespans[0].total.read.latency: "
                 "histogram.buckets[0]: 501 ns is not the lower bound of a "
                 "bucket of layout iospd-hist-v1");
  cJSON_Delete(d);

  /* A run with another number of threads' results. */
  d = cJSON_Parse(a);
  cJSON_AddItemToArray((cJSON*)at(d, "timespans[0].threads"),
                       cJSON_Duplicate(at(d, "timespans[0].threads[0]"), true));
  char* two = cJSON_PrintUnformatted(d);
  const char* threads[] = {a, two};
  expect_refusal(threads, 2,
                 "'b.json': timespans[0].threads: threads has 2 entries here "
                 "and 1 in 'a.json'; runs of one profile have the same (did "
                 "a run stop early?)");
  cJSON_Delete(d);

  /* A damaged count in the FIRST file: the merge holds its values, so the
   * message names it, not the good file merged onto it. */
  d = cJSON_Parse(a);
  cJSON_ReplaceItemInObjectCaseSensitive((cJSON*)at(d, "timespans[0].total.read"),
                                         "ios", cJSON_CreateString("x"));
  char* bad_first = cJSON_PrintUnformatted(d);
  const char* first_bad[] = {bad_first, a};
  expect_refusal(first_bad, 2,
                 "'a.json': timespans[0].total.read.ios: missing or not a "
                 "whole number below 2^53");
  cJSON_Delete(d);
  cJSON_free(bad_first);
  cJSON_free(bad);
  cJSON_free(two);
  cJSON_free(a);
  iospd_hist_destroy(h);

  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  iospd_err_t err;
  assert_int_equal(iospd_merge(NULL, 0, &out, &err), IOSPD_EUSAGE);
  assert_string_equal(err.msg, "--merge needs the result files to merge: "
                               "iospd --merge a.json b.json ... > all.json");
  iospd_strbuf_destroy(&out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_merge_equals_one_histogram),
      cmocka_unit_test(test_merge_again_is_identical),
      cmocka_unit_test(test_merge_paths_may_differ),
      cmocka_unit_test(test_merge_with_an_empty_direction),
      cmocka_unit_test(test_merge_refuses_another_profile),
      cmocka_unit_test(test_merge_names_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

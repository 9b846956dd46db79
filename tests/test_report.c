/* SPDX-License-Identifier: MIT */
/* Golden tests of the text and XML reporters: synthetic results trees for the
 * command lines of the real DISKSPD samples, compared byte for byte with
 * tests/data/report-*, line shapes compared with the real DISKSPD output
 * (tests/data/report-sample-*), and the XML parsed back for well-formedness.
 * Set IOSPD_UPDATE_GOLDEN=1 to rewrite the expected files (then review!). */
#include "test_util.h"

#include <math.h>

#include "iospd/alloc.h"
#include "iospd/report.h"
#include "iospd/units.h"
#include "iospd/xml.h"
#include "iospd/xml_profile.h"

/* ---- helpers ------------------------------------------------------------ */

static char* read_file(const char* name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", IOSPD_TEST_DATA_DIR, name);
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  size_t cap = 1 << 16, len = 0;
  char* s = malloc(cap);
  size_t n;
  while (s && (n = fread(s + len, 1, cap - len - 1, f)) > 0) {
    len += n;
    if (cap - len < 2) s = realloc(s, cap *= 2);
  }
  fclose(f);
  if (s) s[len] = '\0';
  return s;
}

static void write_file(const char* name, const char* text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", IOSPD_TEST_DATA_DIR, name);
  FILE* f = fopen(path, "wb");
  assert_non_null(f);
  fwrite(text, 1, strlen(text), f);
  fclose(f);
}

/* Byte-for-byte comparison with a golden file; on mismatch, the first
 * differing line is printed. */
static void expect_golden(const char* name, const char* got) {
  const char* upd = getenv("IOSPD_UPDATE_GOLDEN");
  if (upd != NULL && upd[0] == '1') write_file(name, got);
  char* exp = read_file(name);
  if (exp == NULL) {
    print_error("missing golden file %s\n", name);
    fail();
  }
  if (strcmp(exp, got) != 0) {
    const char *a = exp, *b = got;
    int line = 1;
    while (*a && *a == *b) {
      if (*a == '\n') line++;
      a++;
      b++;
    }
    print_error("%s differs at line %d:\n expected: %.80s\n got:      %.80s\n",
                name, line, a, b);
    free(exp);
    fail();
  }
  free(exp);
}

/* A line's shape: every run of digits, dots and spaces that holds a digit
 * becomes "#<length>", so fixed-width numeric fields keep their width but
 * not their value. */
static void shape_of_x(const char* s, size_t n, char* out, size_t cap,
                       bool widths) {
  size_t o = 0;
  for (size_t i = 0; i < n && o + 16 < cap;) {
    size_t j = i;
    bool digit = false;
    while (j < n && (s[j] == ' ' || s[j] == '.' || (s[j] >= '0' && s[j] <= '9'))) {
      digit |= s[j] >= '0' && s[j] <= '9';
      j++;
    }
    if (digit) {
      if (widths)
        o += (size_t)snprintf(out + o, cap - o, "#%zu", j - i);
      else
        o += (size_t)snprintf(out + o, cap - o, "#");
      i = j;
    } else if (j > i) {
      memcpy(out + o, s + i, j - i < cap - o - 16 ? j - i : 0);
      o += j - i < cap - o - 16 ? j - i : 0;
      i = j;
    } else {
      out[o++] = s[i++];
    }
  }
  out[o] = '\0';
}

static void shape_of(const char* s, size_t n, char* out, size_t cap) {
  shape_of_x(s, n, out, cap, true);
}

typedef struct lines_s {
  const char* p[4096];
  size_t len[4096];
  size_t n;
} lines_t;

static void split(const char* s, lines_t* l) {
  l->n = 0;
  while (*s && l->n < 4096) {
    const char* e = strchr(s, '\n');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    l->p[l->n] = s;
    l->len[l->n++] = n;
    s += n + (e ? 1 : 0);
  }
}

static bool starts(const char* p, size_t n, const char* pre) {
  size_t k = strlen(pre);
  return n >= k && memcmp(p, pre, k) == 0;
}

/* Compares our text report with a real DISKSPD output, line by line: every
 * line must have the same shape, and every line whose numbers we could make
 * identical (all but latency-derived values) must be byte-identical; in
 * tables with -L/-D columns the first 65 columns (through I/O per s) must be.
 * Lines of the sample that DISKSPD wrote to stderr ("WARNING: ...") are
 * skipped. */
static void compare_lines(const char* sample, const char* got,
                          const char* sample_name);
static void compare_with_sample(const char* got, const char* sample_name) {
  char* sample = read_file(sample_name);
  assert_non_null(sample);
  compare_lines(sample, got, sample_name);
  free(sample);
}

static void compare_lines(const char* sample, const char* got,
                          const char* sample_name) {
  static lines_t a, b;
  split(sample, &a);
  split(got, &b);
  size_t i = 0, j = 0;
  bool in_pct = false, in_ld = false;
  while (i < a.n && starts(a.p[i], a.len[i], "WARNING:")) i++;
  for (; i < a.n && j < b.n; i++, j++) {
    char sa[1024], sb[1024];
    shape_of(a.p[i], a.len[i], sa, sizeof sa);
    shape_of(b.p[j], b.len[j], sb, sizeof sb);
    if (strcmp(sa, sb) != 0) {
      print_error("%s line %u shape differs:\n sample: %.*s\n ours:   %.*s\n",
                  sample_name, (unsigned)(i + 1), (int)a.len[i], a.p[i], (int)b.len[j],
                  b.p[j]);
      fail();
    }
    if (a.len[i] == 0) in_pct = in_ld = false;
    if (strstr(sa, "latency distribution:") || strstr(sa, "Latency distribution"))
      in_pct = true;
    if (starts(a.p[i], a.len[i], "thread |") &&
        (strstr(sa, "AvgLat") || strstr(sa, "IopsStdDev")))
      in_ld = true;
    size_t cmp = a.len[i];
    if (in_pct) cmp = 0;
    if (in_ld && (a.p[i][0] != '-' && !starts(a.p[i], a.len[i], "thread |")))
      cmp = 65;
    if (cmp > a.len[i]) cmp = a.len[i];
    if (memcmp(a.p[i], b.p[j], cmp) != 0) {
      print_error("%s line %u differs:\n sample: %.*s\n ours:   %.*s\n",
                  sample_name, (unsigned)(i + 1), (int)a.len[i], a.p[i], (int)b.len[j],
                  b.p[j]);
      fail();
    }
  }
  assert_int_equal(a.n - i, 0);
  assert_int_equal(b.n - j, 0);
}

/* Removes the "  <Profile>" ... "  </Profile>\n" block (if any) in place. */
static void cut_profile(char* s) {
  char* a = strstr(s, "\n  <Profile>\n");
  if (a == NULL) return;
  char* e = strstr(a, "\n  </Profile>\n");
  assert_non_null(e);
  memmove(a + 1, e + strlen("\n  </Profile>\n"),
          strlen(e + strlen("\n  </Profile>\n")) + 1);
}

/* XML shape comparison with a real DISKSPD document, profile excluded. */
static void compare_xml_lines(char* sample, const char* got,
                              const char* sample_name);
static void compare_xml_with_sample(const char* got, const char* sample_name) {
  char* sample = read_file(sample_name);
  assert_non_null(sample);
  compare_xml_lines(sample, got, sample_name);
  free(sample);
}

/* sample is cut in place. */
static void compare_xml_lines(char* sample, const char* got,
                              const char* sample_name) {
  char* ours = iospd_strdup(got);
  cut_profile(sample);
  cut_profile(ours);
  static lines_t a, b;
  split(sample, &a);
  split(ours, &b);
  assert_int_equal(a.n, b.n);
  for (size_t i = 0; i < a.n; i++) {
    static char sa[4096], sb[4096];
    /* XML numbers have no fixed width: any number matches any number. */
    shape_of_x(a.p[i], a.len[i], sa, sizeof sa, false);
    shape_of_x(b.p[i], b.len[i], sb, sizeof sb, false);
    if (strcmp(sa, sb) != 0) {
      print_error("%s line %u shape differs:\n sample: %.*s\n ours:   %.*s\n",
                  sample_name, (unsigned)(i + 1), (int)a.len[i], a.p[i], (int)b.len[i],
                  b.p[i]);
      fail();
    }
  }
  /* Same ending: no newline after </Results>. */
  size_t n = strlen(ours);
  assert_true(n > 10);
  assert_string_equal(ours + n - 10, "</Results>");
  iospd_free(ours);
}

static void expect_well_formed(const char* xml) {
  iospd_xml_doc_t* doc = NULL;
  iospd_err_t err;
  iospd_err_clear(&err);
  int rc = iospd_xml_parse(xml, strlen(xml), &doc, &err);
  if (rc != 0) print_error("XML not well-formed: %s\n", err.msg);
  assert_int_equal(rc, 0);
  assert_string_equal(iospd_xml_root(doc)->name, "Results");
  iospd_xml_free(doc);
}

/* ---- synthetic trees ---------------------------------------------------- */

static uint64_t lcg;
static uint64_t rnd(void) {
  lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
  return lcg >> 33;
}

/* A latency in ns in DISKSPD's typical sample range: 20 us .. 0.2 ms, with a
 * rare tail to ~3 ms. */
static uint64_t latency(void) {
  uint64_t r = rnd();
  if (r % 2000 == 0) return 400000 + rnd() % 2600000;
  return 20000 + rnd() % 60000 + (rnd() % 4 == 0 ? rnd() % 120000 : 0);
}

typedef struct fixture_s {
  iospd_profile_t prof;
  iospd_results_t res;
  iospd_cpu_topology_t topo;
  iospd_cpu_info_t cpus[8];
  iospd_group_info_t groups[2];
  struct iospd_topo_mask_s cores[8], nodes[4], sockets[4];
} fixture_t;

static fixture_t* fixture_new(const char* cmdline) {
  fixture_t* f = calloc(1, sizeof *f);
  iospd_profile_init(&f->prof);
  /* The goldens are DISKSPD 2.2's layouts; the 2.3 fixtures say 2.3. */
  f->prof.ext.diskspd = IOSPD_DISKSPD_22;
  f->prof.cmdline = iospd_strdup(cmdline);
  f->res.profile = &f->prof;
  f->res.engine_name = "I/O Completion Ports";
  snprintf(f->res.sys.computer_name, sizeof f->res.sys.computer_name, "vm");
  f->res.sys.os_name = "windows";
  /* Two CPUs, two cores, one group/node/socket: the samples' machine. */
  iospd_cpu_topology_t* t = &f->res.topo;
  t->cpu_count = t->core_count = 2;
  t->group_count = t->node_count = t->socket_count = 1;
  t->cpus = f->cpus;
  t->groups = f->groups;
  for (uint16_t i = 0; i < 2; i++) {
    f->cpus[i] = (iospd_cpu_info_t){.number = i, .core = i, .active = true};
    f->cores[i] = (struct iospd_topo_mask_s){.id = i, .mask = 1u << i};
  }
  f->groups[0] = (iospd_group_info_t){2, 2, 0x3};
  f->nodes[0] = (struct iospd_topo_mask_s){.id = 0, .mask = 0x3};
  f->sockets[0] = (struct iospd_topo_mask_s){.id = 0, .mask = 0x3};
  t->core_masks = f->cores;
  t->core_mask_count = 2;
  t->node_masks = f->nodes;
  t->node_mask_count = 1;
  t->socket_masks = f->sockets;
  t->socket_mask_count = 1;
  return f;
}

static void fixture_free(fixture_t* f) {
  iospd_results_destroy(&f->res);
  iospd_profile_destroy(&f->prof);
  free(f);
}

static void set_time(fixture_t* f, uint32_t h, uint32_t m, uint32_t s) {
  f->res.run_time = (iospd_utc_time_t){2026, 11, 29, h, m, s};
}

static iospd_timespan_result_t* add_result(fixture_t* f, double secs,
                                           uint32_t threads,
                                           uint32_t targets_per_thread) {
  iospd_results_t* r = &f->res;
  r->timespans = iospd_realloc(r->timespans,
                               (r->timespan_count + 1) * sizeof *r->timespans);
  iospd_timespan_result_t* tr = &r->timespans[r->timespan_count];
  memset(tr, 0, sizeof *tr);
  tr->ts = &f->prof.timespans[r->timespan_count];
  r->timespan_count++;
  tr->seconds = secs;
  tr->thread_count = tr->thread_count_alloc = threads;
  tr->cpu = iospd_calloc(r->topo.cpu_count, sizeof *tr->cpu);
  tr->threads = iospd_calloc(threads, sizeof *tr->threads);
  for (uint32_t t = 0; t < threads; t++) {
    tr->threads[t].id = t;
    tr->threads[t].target_count = targets_per_thread;
    tr->threads[t].targets =
        iospd_calloc(targets_per_thread, sizeof *tr->threads[t].targets);
    for (uint32_t k = 0; k < targets_per_thread; k++) {
      iospd_thread_target_result_t* tt = &tr->threads[t].targets[k];
      tt->target_index = k;
      const iospd_timespan_t* ts = tr->ts;
      assert_int_equal(iospd_target_stats_init(&tt->stats, ts->measure_latency,
                                               ts->calc_iops_stddev,
                                               ts->io_bucket_ms,
                                               ts->duration * 1000ull),
                       0);
    }
  }
  return tr;
}

static void set_cpu(iospd_timespan_result_t* tr, int i, double usage,
                    double user, double kernel, double idle) {
  tr->cpu[i] = (iospd_cpu_usage_t){usage, user, kernel, idle};
}

/* Records `reads` and `writes` completions of bs bytes spread over the
 * timespan's duration. */
static void fill(iospd_timespan_result_t* tr, uint32_t thread, uint32_t k,
                 uint64_t file_size, uint32_t bs, uint64_t reads,
                 uint64_t writes) {
  iospd_thread_target_result_t* tt = &tr->threads[thread].targets[k];
  tt->file_size = file_size;
  uint64_t dur = tr->ts->duration * 1000000000ull;
  for (uint64_t i = 0; i < reads + writes; i++) {
    int op = i < reads ? IOSPD_OP_READ : IOSPD_OP_WRITE;
    iospd_target_stats_record(&tt->stats, op, bs, latency(), rnd() * 7 % dur);
  }
}

static iospd_target_t* add_target(iospd_timespan_t* ts, const char* path,
                                  uint32_t bs, uint64_t size) {
  iospd_target_t* t = iospd_timespan_add_target(ts);
  assert_non_null(t);
  assert_int_equal(iospd_target_set_path(t, path), 0);
  t->block_size = bs;
  t->create = true;
  t->file_size = size;
  return t;
}

#define MiB (1024ull * 1024ull)

/* -c64M -d3 -b4K -r -o8 -t2 -w25 -Sh -L -D testfile.dat */
static fixture_t* build_mixed(iospd_result_format_t fmt) {
  lcg = 1;
  fixture_t* f = fixture_new(
      "diskspd.exe -c64M -d3 -b4K -r -o8 -t2 -w25 -Sh -L -D testfile.dat");
  f->prof.format = fmt;
  iospd_timespan_t* ts = iospd_profile_add_timespan(&f->prof);
  ts->duration = 3;
  ts->measure_latency = true;
  ts->calc_iops_stddev = true;
  iospd_target_t* t = add_target(ts, "testfile.dat", 4096, 64 * MiB);
  t->random_ratio = 100;
  t->request_count = 8;
  t->threads_per_file = 2;
  t->write_ratio = 25;
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  t->write_through = true;
  set_time(f, 18, 17, 0);
  iospd_timespan_result_t* tr = add_result(f, 3.0000405531455834, 2, 1);
  set_cpu(tr, 0, 60.53, 6.39, 54.14, 39.47);
  set_cpu(tr, 1, 74.55, 9.09, 65.449, 25.45);
  fill(tr, 0, 0, 64 * MiB, 4096, 38494, 12677);
  fill(tr, 1, 0, 64 * MiB, 4096, 43989, 14452);
  return f;
}

/* -c64M -d2 -W0 -b64K -si -o4 -t1 -w100 -Sh -L seq.dat */
static fixture_t* build_seq(iospd_result_format_t fmt) {
  lcg = 2;
  fixture_t* f =
      fixture_new("diskspd.exe -c64M -d2 -W0 -b64K -si -o4 -t1 -w100 -Sh -L seq.dat");
  f->prof.format = fmt;
  iospd_timespan_t* ts = iospd_profile_add_timespan(&f->prof);
  ts->duration = 2;
  ts->warmup = 0;
  ts->measure_latency = true;
  iospd_target_t* t = add_target(ts, "seq.dat", 65536, 64 * MiB);
  t->interlocked = true;
  t->request_count = 4;
  t->write_ratio = 100;
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  t->write_through = true;
  set_time(f, 18, 18, 32);
  iospd_timespan_result_t* tr = add_result(f, 2.000107310751299, 1, 1);
  set_cpu(tr, 0, 33.54, 4.431, 29.11, 66.46);
  set_cpu(tr, 1, 25.60, 2.38, 23.21, 74.40);
  fill(tr, 0, 0, 64 * MiB, 65536, 0, 14538);
  return f;
}

/* -c32M -d2 -W0 -b8K -F4 -r -o4 -w30 -Sh -a0,1 a.dat b.dat */
static fixture_t* build_f4(void) {
  lcg = 3;
  fixture_t* f = fixture_new(
      "diskspd.exe -c32M -d2 -W0 -b8K -F4 -r -o4 -w30 -Sh -a0,1 a.dat b.dat");
  iospd_timespan_t* ts = iospd_profile_add_timespan(&f->prof);
  ts->duration = 2;
  ts->warmup = 0;
  ts->thread_count = 4;
  ts->affinity = iospd_calloc(2, sizeof *ts->affinity);
  ts->affinity[0] = (iospd_affinity_t){0, 0};
  ts->affinity[1] = (iospd_affinity_t){0, 1};
  ts->affinity_count = 2;
  for (int i = 0; i < 2; i++) {
    iospd_target_t* t = add_target(ts, i ? "b.dat" : "a.dat", 8192, 32 * MiB);
    t->random_ratio = 100;
    t->request_count = 4;
    t->write_ratio = 30;
    t->cache_mode = IOSPD_CACHE_DISABLE_OS;
    t->write_through = true;
  }
  set_time(f, 18, 26, 50);
  iospd_timespan_result_t* tr = add_result(f, 2.000241935758863, 4, 2);
  set_cpu(tr, 0, 73.74, 5.03, 68.7199, 26.26);
  set_cpu(tr, 1, 84.78, 5.43, 79.35, 15.22);
  static const uint64_t rw[4][2] = {
      {22665, 9655}, {23556, 10180}, {22681, 9711}, {23631, 10177}};
  for (uint32_t t = 0; t < 4; t++) {
    fill(tr, t, 0, 32 * MiB, 8192, rw[t][0], rw[t][1]);
    fill(tr, t, 1, 32 * MiB, 8192, 0, 0);
  }
  return f;
}

/* -c64M -d2 -W0 -b4K -r -rdpct90/10:10/90 -o4 -t1 -L -z7 c.dat */
static fixture_t* build_rdpct(void) {
  lcg = 4;
  fixture_t* f = fixture_new(
      "diskspd.exe -c64M -d2 -W0 -b4K -r -rdpct90/10:10/90 -o4 -t1 -L -z7 "
      "c.dat");
  iospd_timespan_t* ts = iospd_profile_add_timespan(&f->prof);
  ts->duration = 2;
  ts->warmup = 0;
  ts->rand_seed = 7;
  ts->measure_latency = true;
  iospd_target_t* t = add_target(ts, "c.dat", 4096, 64 * MiB);
  t->random_ratio = 100;
  t->request_count = 4;
  t->dist_type = IOSPD_DIST_PERCENT;
  t->dist = iospd_calloc(2, sizeof *t->dist);
  t->dist[0] = (iospd_dist_range_t){0, 90, 0, 10};
  t->dist[1] = (iospd_dist_range_t){90, 10, 10, 90};
  t->dist_count = 2;
  set_time(f, 18, 26, 55);
  iospd_timespan_result_t* tr = add_result(f, 2.000097104497216, 1, 1);
  set_cpu(tr, 0, 29.221, 3.249, 25.97, 70.779);
  set_cpu(tr, 1, 24.39, 1.22, 23.17, 75.61);
  fill(tr, 0, 0, 64 * MiB, 4096, 15654, 0);
  iospd_thread_target_result_t* tt = &tr->threads[0].targets[0];
  tt->dist = iospd_calloc(2, sizeof *tt->dist);
  tt->dist[0] = (iospd_eff_range_t){0, 90, 0, 6709248};
  tt->dist[1] = (iospd_eff_range_t){90, 10, 6709248, 64 * MiB - 6709248};
  tt->dist_count = 2;
  return f;
}

/* -c64M -d2 -W0 -b4K -rs30 -o2 -t2 -w50 -Sb -L -D500 -Rxml d.dat */
static fixture_t* build_rs30(void) {
  lcg = 6;
  fixture_t* f = fixture_new(
      "diskspd.exe -c64M -d2 -W0 -b4K -rs30 -o2 -t2 -w50 -Sb -L -D500 -Rxml "
      "d.dat");
  f->prof.format = IOSPD_FORMAT_XML;
  iospd_timespan_t* ts = iospd_profile_add_timespan(&f->prof);
  ts->duration = 2;
  ts->warmup = 0;
  ts->measure_latency = true;
  ts->calc_iops_stddev = true;
  ts->io_bucket_ms = 500;
  iospd_target_t* t = add_target(ts, "d.dat", 4096, 64 * MiB);
  t->random_ratio = 30;
  t->request_count = 2;
  t->threads_per_file = 2;
  t->write_ratio = 50;
  set_time(f, 18, 26, 52);
  iospd_timespan_result_t* tr = add_result(f, 2.0001, 2, 1);
  set_cpu(tr, 0, 61.33, 6.63, 54.70, 38.67);
  set_cpu(tr, 1, 72.34, 7.98, 64.36, 27.66);
  fill(tr, 0, 0, 64 * MiB, 4096, 16850, 16809);
  fill(tr, 1, 0, 64 * MiB, 4096, 19322, 19082);
  return f;
}

static char* render_text(const fixture_t* f) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_text(&sb, &f->res);
  assert_false(sb.failed);
  return sb.data;
}

static char* render_xml(const fixture_t* f) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_xml(&sb, &f->res);
  assert_false(sb.failed);
  return sb.data;
}


/* ---- DISKSPD 2.3 layouts ------------------------------------------------- */

/* The samples' machine as wine shows it to DISKSPD 2.3: its caches
 * (L1d, L1i, L2 per CPU, one L3), name and page size. */
static void add_23_system(fixture_t* f) {
  static iospd_cache_info_t caches[7];
  const iospd_cache_info_t per_cpu[3] = {
      {1, IOSPD_CACHE_TYPE_DATA, 8, 64, 32768, 0, 0},
      {1, IOSPD_CACHE_TYPE_INSTRUCTION, 8, 64, 32768, 0, 0},
      {2, IOSPD_CACHE_TYPE_UNIFIED, 8, 64, 1048576, 0, 0}};
  uint32_t n = 0;
  for (uint32_t c = 0; c < 2; c++) {
    for (uint32_t k = 0; k < 3; k++) {
      caches[n] = per_cpu[k];
      caches[n++].mask = 1u << c;
    }
    if (c == 0)
      caches[n++] = (iospd_cache_info_t){3, IOSPD_CACHE_TYPE_UNIFIED, 16, 64,
                                         33554432, 0, 0x3};
  }
  /* The fixture's topology is not freed by iospd_results_destroy. */
  f->res.topo.caches = caches;
  f->res.topo.cache_count = n;
  snprintf(f->res.topo.processor_name, sizeof f->res.topo.processor_name,
           "AMD EPYC");
  f->res.sys.page_size = 4096;
  f->prof.ext.diskspd = IOSPD_DISKSPD_23;
}

/* diskspd.exe -c1M -d1 -W0 -C0 -ac -t2 -Rtext r07.dat, DISKSPD 2.3. */
static fixture_t* build_coreaware_23(iospd_result_format_t fmt) {
  lcg = 7;
  fixture_t* f = fixture_new("diskspd.exe -c1M -d1 -W0 -C0 -ac -t2 -Rtext r07.dat");
  add_23_system(f);
  f->prof.format = fmt;
  iospd_timespan_t* ts = iospd_profile_add_timespan(&f->prof);
  ts->duration = 1;
  ts->warmup = 0;
  ts->cooldown = 0;
  ts->affinity_core_aware = true;
  iospd_target_t* t = add_target(ts, "r07.dat", 65536, MiB);
  t->threads_per_file = 2;
  t->request_count = 2;
  bool xml = fmt == IOSPD_FORMAT_XML;
  f->res.run_time = (iospd_utc_time_t){2026, 12, 2, 4, 20, xml ? 30 : 32};
  iospd_timespan_result_t* tr = add_result(f, 1.0000797, 2, 1);
  if (xml) {
    set_cpu(tr, 0, 69.23, 6.73, 62.50, 30.77);
    set_cpu(tr, 1, 67.33, 5.94, 61.39, 32.67);
    fill(tr, 0, 0, MiB, 65536, 19228, 0);
    fill(tr, 1, 0, MiB, 65536, 19566, 0);
  } else {
    set_cpu(tr, 0, 65.3465, 4.9505, 60.396, 34.6535);
    set_cpu(tr, 1, 74.2574, 4.9505, 69.3069, 25.7426);
    fill(tr, 0, 0, MiB, 65536, 17446, 0);
    fill(tr, 1, 0, MiB, 65536, 19112, 0);
  }
  return f;
}

/* Everything from "System information:" on: the Input parameters above
 * it are the profile's section (report_profile_text.c). DISKSPD's stderr
 * WARNING lines that the capture mixed in are dropped. */
static char* results_part(const char* text) {
  const char* p = strstr(text, "System information:");
  assert_non_null(p);
  char* out = iospd_strdup(p);
  char* w = out;
  for (const char* r = out; *r;) {
    const char* e = strchr(r, '\n');
    size_t n = e ? (size_t)(e - r) + 1 : strlen(r);
    if (strncmp(r, "WARNING:", 8) != 0) {
      memmove(w, r, n);
      w += n;
    }
    r += n;
  }
  *w = '\0';
  return out;
}

static void test_text_23_system_and_affinity(void** state) {
  (void)state;
  fixture_t* f = build_coreaware_23(IOSPD_FORMAT_TEXT);
  char* got = render_text(f);
  char* sample = read_file("diskspd23/07-affinity-coreaware.txt");
  assert_non_null(sample);
  char* a = results_part(sample);
  char* b = results_part(got);
  compare_lines(a, b, "diskspd23/07-affinity-coreaware.txt");
  /* The values, not only the shapes. */
  assert_non_null(strstr(got, "\n    L1d   |    32KiB |   64B |  8-way | "
                              "0-1 (per cpu)\n"));
  assert_non_null(strstr(got, "\n    L3    |    32MiB |   64B | 16-way | "
                              "0-1\n\nResults"));
  assert_non_null(strstr(got, "\n\neffective affinity (cpu): 0-1\n\nCPU |"));
  iospd_free(a);
  iospd_free(b);
  free(sample);
  iospd_free(got);
  /* At 2.2 the same results keep 2.2's system section, no affinity line. */
  f->prof.ext.diskspd = IOSPD_DISKSPD_22;
  got = render_text(f);
  assert_non_null(strstr(got, "\tcomputer name: vm\n\tstart time: "));
  assert_null(strstr(got, "processor name"));
  assert_null(strstr(got, "effective affinity"));
  assert_null(strstr(got, "cache information"));
  iospd_free(got);
  fixture_free(f);
}

/* DISKSPD 2.3 writes its "<unknown>" power scheme unescaped; ours is
 * escaped (always well-formed), so the sample is compared escaped. */
static char* escape_unknown(char* s) {
  char* p = strstr(s, "Name=\"<unknown>\"");
  if (p == NULL) return s;
  size_t head = (size_t)(p - s);
  const char* esc = "Name=\"&lt;unknown&gt;\"";
  char* out = malloc(strlen(s) + 16);
  memcpy(out, s, head);
  strcpy(out + head, esc);
  strcat(out, p + strlen("Name=\"<unknown>\""));
  free(s);
  return out;
}

static void test_xml_23_system_and_affinity(void** state) {
  (void)state;
  fixture_t* f = build_coreaware_23(IOSPD_FORMAT_XML);
  char* got = render_xml(f);
  if (getenv("IOSPD_DUMP")) fputs(got, stderr);
  expect_well_formed(got);
  char* sample = escape_unknown(read_file("diskspd23/07-affinity-coreaware.xml"));
  compare_xml_lines(sample, got, "diskspd23/07-affinity-coreaware.xml");
  assert_non_null(strstr(got, "    <ComputerName>vm</ComputerName>\n"
                              "    <ProcessorName>AMD EPYC</ProcessorName>\n"
                              "    <Tool>\n      <Version>2.3.0</Version>\n"
                              "      <VersionDate>2026/06/15</VersionDate>\n"));
  assert_non_null(strstr(got, "<PageSize>4096</PageSize>\n"));
  assert_non_null(strstr(got,
      "      <Cache Level=\"3\" Associativity=\"16\" LineSize=\"64\" "
      "CacheSize=\"33554432\" Type=\"Unified\">\n"
      "        <Group Group=\"0\" Mask=\"0x3\"/>\n      </Cache>\n"));
  assert_non_null(strstr(got,
      "    <ProcCount>2</ProcCount>\n"
      "    <EffectiveBufferSeparation>16777216</EffectiveBufferSeparation>\n"
      "    <EffectiveAffinity>\n      <Group Group=\"0\" Mask=\"0x3\"/>\n"
      "    </EffectiveAffinity>\n    <CpuUtilization>\n"));
  free(sample);
  iospd_free(got);
  /* -bsn: 0; -n: no EffectiveAffinity. */
  f->prof.timespans[0].buffer_separation = IOSPD_BUFSEP_SYSTEM_DEFAULT;
  f->prof.timespans[0].disable_affinity = true;
  got = render_xml(f);
  assert_non_null(strstr(got, "<EffectiveBufferSeparation>0</EffectiveBufferSeparation>\n"
                              "    <CpuUtilization>"));
  iospd_free(got);
  /* 2.2: none of it. */
  f->prof.ext.diskspd = IOSPD_DISKSPD_22;
  got = render_xml(f);
  assert_null(strstr(got, "ProcessorName"));
  assert_null(strstr(got, "<Cache "));
  assert_null(strstr(got, "Effective"));
  assert_non_null(strstr(got, "<Version>2.2.0</Version>"));
  iospd_free(got);
  fixture_free(f);
}

/* -Rs: the section alone, 2.3's layout whatever the level; folds on the
 * server topology. */
static void test_system_only(void** state) {
  (void)state;
  fixture_t* f = fixture_new("diskspd.exe -Rs");
  add_23_system(f);
  f->prof.ext.diskspd = IOSPD_DISKSPD_22;
  set_time(f, 1, 2, 3);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_system_text(&sb, &f->res);
  assert_string_equal(
      sb.data,
      "System information:\n\n"
      "  computer name:        vm\n"
      "  processor name:       AMD EPYC\n"
      "  start time:           2026/11/29 01:02:03 UTC\n"
      "  active power scheme:  <unknown>\n"
      "  page size:            4KiB\n\n"
      "  cpu count:            2\n"
      "  core count:           2\n"
      "  group count:          1\n"
      "  node count:           1\n"
      "  socket count:         1\n"
      "  heterogeneous cores:  n\n\n"
      "  cache information:\n\n"
      "    Cache |   Size   | Line  | Assoc  | CPU\n"
      "    -------------------------------------------------------\n"
      "    L1d   |    32KiB |   64B |  8-way | 0-1 (per cpu)\n"
      "    L1i   |    32KiB |   64B |  8-way | 0-1 (per cpu)\n"
      "    L2    |     1MiB |   64B |  8-way | 0-1 (per cpu)\n"
      "    L3    |    32MiB |   64B | 16-way | 0-1\n");
  iospd_strbuf_destroy(&sb);
  iospd_strbuf_init(&sb);
  iospd_report_system_xml(&sb, &f->res);
  assert_true(strncmp(sb.data, "<System>\n  <ComputerName>vm</ComputerName>\n"
                               "  <ProcessorName>AMD EPYC</ProcessorName>\n", 80) == 0);
  assert_non_null(strstr(sb.data, "  </ProcessorTopology>\n</System>\n"));
  iospd_xml_doc_t* doc = NULL;
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_int_equal(iospd_xml_parse(sb.data, strlen(sb.data), &doc, &err), 0);
  assert_string_equal(iospd_xml_root(doc)->name, "System");
  iospd_xml_free(doc);
  iospd_strbuf_destroy(&sb);
  /* Caches shared by core pairs and by four CPUs, in two sets each. */
  static iospd_cache_info_t c4[4] = {
      {1, IOSPD_CACHE_TYPE_DATA, 8, 64, 49152, 0, 0x3},
      {1, IOSPD_CACHE_TYPE_DATA, 8, 64, 49152, 0, 0xC},
      {2, IOSPD_CACHE_TYPE_UNIFIED, 0xFF, 128, 1310720, 0, 0xF},
      {2, IOSPD_CACHE_TYPE_UNIFIED, 0xFF, 128, 1310720, 0, 0xF0}};
  f->res.topo.caches = c4;
  f->res.topo.cache_count = 4;
  f->cores[0].mask = 0x3;
  f->cores[1].mask = 0xC;
  iospd_strbuf_init(&sb);
  iospd_report_system_text(&sb, &f->res);
  assert_non_null(strstr(sb.data,
      "    L1d   |    48KiB |   64B |  8-way | 0-3 (per core)\n"
      "    L2    |  1.25MiB |  128B |   full | 0-7 (per 4 cpus)\n"));
  iospd_strbuf_destroy(&sb);
  fixture_free(f);
}

/* ---- tests: the samples ------------------------------------------------- */

static void test_text_mixed_L_D(void** state) {
  (void)state;
  fixture_t* f = build_mixed(IOSPD_FORMAT_TEXT);
  char* s = render_text(f);
  expect_golden("report-mixed-random-4k-L-D.txt", s);
  compare_with_sample(s, "report-sample-mixed-random-4k-L-D.txt");
  iospd_free(s);
  fixture_free(f);
}

static void test_text_seq_write(void** state) {
  (void)state;
  fixture_t* f = build_seq(IOSPD_FORMAT_TEXT);
  char* s = render_text(f);
  expect_golden("report-seq-write-64k-si-L.txt", s);
  compare_with_sample(s, "report-sample-seq-write-64k-si-L.txt");
  iospd_free(s);
  fixture_free(f);
}

static void test_text_two_targets_F4(void** state) {
  (void)state;
  fixture_t* f = build_f4();
  char* s = render_text(f);
  expect_golden("report-two-targets-F4-affinity.txt", s);
  compare_with_sample(s, "report-sample-two-targets-F4-affinity.txt");
  iospd_free(s);
  fixture_free(f);
}

static void test_text_rdpct(void** state) {
  (void)state;
  fixture_t* f = build_rdpct();
  char* s = render_text(f);
  expect_golden("report-random-distribution-rdpct.txt", s);
  compare_with_sample(s, "report-sample-random-distribution-rdpct.txt");
  iospd_free(s);
  fixture_free(f);
}

/* The expected XML files hold DISKSPD's <Profile> block (from the real
 * sample). The report must be: expected head + exactly what
 * iospd_xml_profile_write prints, right after </System> + expected tail. */
static void split_profile(const char* doc, const char** a, const char** e) {
  *a = strstr(doc, "  <Profile>\n");
  assert_non_null(*a);
  *e = strstr(*a, "  </Profile>\n");
  assert_non_null(*e);
  *e += strlen("  </Profile>\n");
}

static void expect_xml_golden(const char* name, const char* got,
                              const iospd_profile_t* p,
                              const char* sample_name) {
  iospd_strbuf_t prof;
  iospd_strbuf_init(&prof);
  iospd_xml_profile_write(&prof, p, 1);
  const char* sys_end = strstr(got, "  </System>\n");
  assert_non_null(sys_end);
  sys_end += strlen("  </System>\n");
  assert_memory_equal(sys_end, iospd_strbuf_cstr(&prof), prof.len);
  const char* tail = sys_end + prof.len;
  size_t head_len = (size_t)(sys_end - got);
  const char* upd = getenv("IOSPD_UPDATE_GOLDEN");
  if (upd != NULL && upd[0] == '1') {
    char* sample = read_file(sample_name);
    assert_non_null(sample);
    const char *a, *e;
    split_profile(sample, &a, &e);
    iospd_strbuf_t sb;
    iospd_strbuf_init(&sb);
    iospd_strbuf_append_n(&sb, got, head_len);
    iospd_strbuf_append_n(&sb, a, (size_t)(e - a));
    iospd_strbuf_append(&sb, tail);
    write_file(name, sb.data);
    iospd_strbuf_destroy(&sb);
    free(sample);
  }
  char* exp = read_file(name);
  assert_non_null(exp);
  const char *a, *e;
  split_profile(exp, &a, &e);
  iospd_strbuf_t want, have;
  iospd_strbuf_init(&want);
  iospd_strbuf_init(&have);
  iospd_strbuf_append_n(&want, exp, (size_t)(a - exp));
  iospd_strbuf_append(&want, e);
  iospd_strbuf_append_n(&have, got, head_len);
  iospd_strbuf_append(&have, tail);
  assert_string_equal(iospd_strbuf_cstr(&want), iospd_strbuf_cstr(&have));
  iospd_strbuf_destroy(&want);
  iospd_strbuf_destroy(&have);
  iospd_strbuf_destroy(&prof);
  free(exp);
}

static void test_xml_mixed_L_D(void** state) {
  (void)state;
  fixture_t* f = build_mixed(IOSPD_FORMAT_XML);
  set_time(f, 18, 17, 8);
  char* s = render_xml(f);
  expect_xml_golden("report-mixed-random-4k-L-D.xml", s, &f->prof,
                    "report-sample-mixed-random-4k-L-D.xml");
  compare_xml_with_sample(s, "report-sample-mixed-random-4k-L-D.xml");
  expect_well_formed(s);
  iospd_free(s);
  fixture_free(f);
}

static void test_xml_seq_write(void** state) {
  (void)state;
  fixture_t* f = build_seq(IOSPD_FORMAT_XML);
  char* s = render_xml(f);
  expect_xml_golden("report-seq-write-64k-si-L.xml", s, &f->prof,
                    "report-sample-seq-write-64k-si-L.xml");
  compare_xml_with_sample(s, "report-sample-seq-write-64k-si-L.xml");
  expect_well_formed(s);
  iospd_free(s);
  fixture_free(f);
}

static void test_xml_mixed_rs30_D500(void** state) {
  (void)state;
  fixture_t* f = build_rs30();
  char* s = render_xml(f);
  expect_xml_golden("report-mixed-rs30-D500.xml", s, &f->prof,
                    "report-sample-mixed-rs30-D500.xml");
  compare_xml_with_sample(s, "report-sample-mixed-rs30-D500.xml");
  expect_well_formed(s);
  /* 500 ms buckets: 4 of them, rates are per second (count / 0.5). */
  assert_non_null(strstr(s, "<Bucket SampleMillisecond=\"2000\" "));
  assert_null(strstr(s, "<Bucket SampleMillisecond=\"2500\" "));
  iospd_free(s);
  fixture_free(f);
}

/* The profile writer's block must be DISKSPD's (the samples'
 * profile for these command lines). */
static void test_xml_profile_block_matches_sample(void** state) {
  (void)state;
  fixture_t* f = build_mixed(IOSPD_FORMAT_XML);
  iospd_strbuf_t prof;
  iospd_strbuf_init(&prof);
  iospd_xml_profile_write(&prof, &f->prof, 1);
  /* The writer is real: an empty block is a regression. */
  assert_true(prof.len > 0);
  char* exp = read_file("report-sample-mixed-random-4k-L-D.xml");
  char* a = strstr(exp, "  <Profile>\n");
  char* e = strstr(a, "  </Profile>\n") + strlen("  </Profile>\n");
  *e = '\0';
  assert_string_equal(a, iospd_strbuf_cstr(&prof));
  free(exp);
  iospd_strbuf_destroy(&prof);
  fixture_free(f);
}

/* ---- tests: every conditional line and layout variant ------------------- */

static fixture_t* build_kitchen_sink(void) {
  lcg = 5;
  fixture_t* f = fixture_new("iospd -everything <&> 'quoted' \"x\"");
  /* Caches and a processor name, for the JSON (the 2.2 layouts show
   * neither). */
  add_23_system(f);
  f->prof.ext.diskspd = IOSPD_DISKSPD_22;
  f->res.engine_name = "io_uring";
  f->prof.verbose = true;
  f->prof.verbose_stats = true;
  f->prof.experiment_flags = 0x11;
  snprintf(f->res.sys.computer_name, sizeof f->res.sys.computer_name,
           "host<&>\"'");
  snprintf(f->res.sys.power_scheme_name, sizeof f->res.sys.power_scheme_name,
           "Balanced");
  snprintf(f->res.sys.power_scheme_guid, sizeof f->res.sys.power_scheme_guid,
           "381b4222-f694-41f0-9685-ff5bb260df2e");
  /* 8 CPUs: 2 sockets, 2 nodes, 2 groups, SMT, two efficiency classes. */
  iospd_cpu_topology_t* t = &f->res.topo;
  t->cpu_count = 8;
  t->core_count = 4;
  t->group_count = 2;
  t->node_count = 2;
  t->socket_count = 2;
  t->heterogeneous = true;
  t->smt = true;
  for (uint16_t i = 0; i < 8; i++) {
    f->cpus[i] = (iospd_cpu_info_t){.group = i / 4,
                                    .number = i % 4,
                                    .core = (i % 4) / 2,
                                    .node = i / 4,
                                    .socket = i / 4,
                                    .efficiency_class = (uint8_t)(i < 6),
                                    .active = true};
  }
  f->groups[0] = (iospd_group_info_t){4, 4, 0xf};
  f->groups[1] = (iospd_group_info_t){4, 4, 0xf};
  for (uint16_t c = 0; c < 4; c++)
    f->cores[c] = (struct iospd_topo_mask_s){
        .id = c % 2, .group = c / 2, .efficiency_class = c < 3, .mask = 3u << (2 * (c % 2))};
  t->core_mask_count = 4;
  f->nodes[0] = (struct iospd_topo_mask_s){.id = 0, .group = 0, .mask = 0xf};
  f->nodes[1] = (struct iospd_topo_mask_s){.id = 1, .group = 1, .mask = 0xf};
  f->sockets[0] = (struct iospd_topo_mask_s){.id = 0, .group = 0, .mask = 0xf};
  f->sockets[1] = (struct iospd_topo_mask_s){.id = 0, .group = 1, .mask = 0x3};
  f->sockets[2] = (struct iospd_topo_mask_s){.id = 1, .group = 1, .mask = 0xc};
  t->node_mask_count = 2;
  t->socket_mask_count = 3;
  set_time(f, 1, 2, 3);

  /* Timespan 1: -F3 -O2 -n -Zr, -D only (no -L), several targets. */
  iospd_timespan_t* ts = iospd_profile_add_timespan(&f->prof);
  ts->duration = 2;
  ts->warmup = 1;
  ts->cooldown = 1;
  ts->disable_affinity = true;
  ts->calc_iops_stddev = true;
  ts->io_bucket_ms = 500;
  ts->thread_count = 3;
  ts->request_count = 2;
  ts->random_write_data = true;
  iospd_target_t* a = add_target(ts, "a<&>.dat", 4096, 10 * MiB);
  a->cache_mode = IOSPD_CACHE_DISABLE_LOCAL;
  a->write_through = true;
  a->memory_mapped = true;
  a->flush_type = IOSPD_FLUSH_NON_VOLATILE_NO_DRAIN;
  a->pattern = IOSPD_PATTERN_ZERO;
  a->random_ratio = 30;
  a->stride_align = 512;
  a->base_offset = 1 * MiB;
  a->max_file_size = 2000 * 1024;
  a->thread_stride = 12341234;
  a->sequential_scan = a->random_access = a->temporary = true;
  a->io_priority = 1;
  a->throughput_iops = 500;
  a->weight = 7;
  a->dist_type = IOSPD_DIST_ABSOLUTE;
  a->dist = iospd_calloc(3, sizeof *a->dist);
  a->dist[0] = (iospd_dist_range_t){0, 50, 0, 1 * MiB};
  a->dist[1] = (iospd_dist_range_t){50, 0, 1 * MiB, 1536 * 1024};
  a->dist[2] = (iospd_dist_range_t){50, 50, 2560 * 1024, 0};
  a->dist_count = 3;
  iospd_target_t* b = add_target(ts, "*2", 65536, 1ull << 30);
  b->cache_mode = IOSPD_CACHE_CACHED;
  b->write_through = true;
  b->memory_mapped = true;
  b->flush_type = IOSPD_FLUSH_VIEW_OF_FILE;
  b->pattern = IOSPD_PATTERN_RANDOM;
  b->random_data_size = 2 * MiB;
  b->random_data_path = iospd_strdup("src.bin");
  b->parallel_async = true;
  b->write_ratio = 100;
  b->io_priority = 2;
  b->throughput_bpms = 1000;

  /* Timespan 2: -t2 -o4 -L -D -x, two paths, per-path latency tables. */
  iospd_timespan_t* ts2 = iospd_profile_add_timespan(&f->prof);
  ts2->duration = 1;
  ts2->warmup = 0;
  ts2->measure_latency = true;
  ts2->calc_iops_stddev = true;
  ts2->completion_routines = true;
  ts2->rand_seed = 42;
  iospd_target_t* c = add_target(ts2, "c.dat", 8192, 1536 * MiB);
  c->memory_mapped = true;
  c->flush_type = IOSPD_FLUSH_NON_VOLATILE;
  c->write_ratio = 40;
  c->request_count = 4;
  c->threads_per_file = 2;
  iospd_target_t* d = add_target(ts2, "d.dat", 8192, 3ull << 40);
  d->write_ratio = 0;
  d->memory_mapped = true;
  d->request_count = 1;

  /* Timespan 3: interrupted before measuring. */
  iospd_timespan_t* ts3 = iospd_profile_add_timespan(&f->prof);
  add_target(ts3, "e.dat", 4096, MiB);

  iospd_timespan_result_t* tr = add_result(f, 2.5, 3, 2);
  for (int i = 0; i < 8; i++)
    set_cpu(tr, i, 10.0 * i, 1.0 * i, 9.0 * i, 100 - 10.0 * i);
  for (uint32_t th = 0; th < 3; th++) {
    fill(tr, th, 0, 10 * MiB, 4096, 1000 + th, 300);
    fill(tr, th, 1, 1ull << 30, 65536, 0, 200 * th);
    tr->threads[th].wait = (iospd_wait_stats_t){
        10 * th, 2, 1, 5 + th, {1, 2, 3, 4, 5, 6, 7, 8 + th}, {0}};
    /* Effective distributions: threads 0-2 share one on a.dat. */
    iospd_thread_target_result_t* tt = &tr->threads[th].targets[0];
    tt->dist = iospd_calloc(2, sizeof *tt->dist);
    tt->dist[0] = (iospd_eff_range_t){0, 50, 1 * MiB, 1 * MiB};
    tt->dist[1] = (iospd_eff_range_t){50, 50, 3584 * 1024, 7 * MiB - 1024};
    tt->dist_count = 2;
  }
  /* a different (trimmed) distribution for thread 1 on the second target */
  iospd_thread_target_result_t* tb = &tr->threads[1].targets[1];
  tb->dist = iospd_calloc(3, sizeof *tb->dist);
  tb->dist[0] = (iospd_eff_range_t){0, 10, 0, 512};
  tb->dist[1] = (iospd_eff_range_t){10, 20, 512, 1536};
  tb->dist[2] = (iospd_eff_range_t){30, 30, 2048, 3 * MiB};
  tb->dist_count = 3;

  iospd_timespan_result_t* tr2 = add_result(f, 1.25, 2, 2);
  for (int i = 0; i < 8; i++) set_cpu(tr2, i, 1, 0.5, 0.5, 99);
  fill(tr2, 0, 0, 1536 * MiB, 8192, 600, 400);
  fill(tr2, 0, 1, 3ull << 40, 8192, 50, 0);
  fill(tr2, 1, 0, 1536 * MiB, 8192, 0, 0);
  fill(tr2, 1, 1, 3ull << 40, 8192, 70, 0);

  iospd_timespan_result_t* tr3 = add_result(f, 0, 1, 1);
  tr3->interrupted_before_measure = true;
  return f;
}

static void test_text_every_conditional(void** state) {
  (void)state;
  fixture_t* f = build_kitchen_sink();
  char* s = render_text(f);
  expect_golden("report-all-options.txt", s);
  /* A few lines checked here too, so the intent is plain. */
  assert_non_null(strstr(s, "\n\t\tusing io_uring\n"));
  assert_non_null(strstr(s, "\nExperiment Flags: 0x11 (17)\n\n"));
  assert_non_null(strstr(s, "\n\tpath: template target '2'\n"));
  const char* hdr = strstr(s, "\nSocket | Node | Group | Core | Class | CPU "
                              "|  Usage |  User  | Kernel |  Idle\n");
  assert_non_null(hdr);
  hdr = strchr(hdr + 1, '\n') + 1;
  assert_int_equal(strspn(hdr, "-"), 9 + 7 + 8 + 7 + 8 + 40);
  assert_non_null(strstr(s, "target: a<&>.dat [thread: 0 - 2]\n"));
  assert_non_null(strstr(s, "\nThe test was interrupted before the "
                            "measurements began. No results are displayed.\n"));
  assert_non_null(strstr(s, "\ntotal test time:\t3.75s\n"));
  iospd_free(s);
  char* x = render_xml(f);
  char* xc = iospd_strdup(x);
  cut_profile(xc); /* the profile block is the profile writer's business */
  expect_golden("report-all-options.xml", xc);
  iospd_free(xc);
  expect_well_formed(x);
  assert_non_null(strstr(x, "<ComputerName>host&lt;&amp;&gt;&quot;&apos;"
                            "</ComputerName>"));
  assert_non_null(strstr(x, "<Range IO=\"0\">1572864</Range>"));
  assert_non_null(strstr(x, "<LookasideCompletion>1 2 3 4 5 6 7 9"
                            "</LookasideCompletion>"));
  iospd_free(x);
  fixture_free(f);
}

/* A failed timespan names its error in DISKSPD's <Error> place (text: the
 * "interrupted" line's place); one that failed while measuring keeps its
 * results after it, one that failed before shows only the error. */
static void test_failed_timespan_error(void** state) {
  (void)state;
  lcg = 7;
  fixture_t* f = fixture_new("iospd -d2 -W0 -b4K -r t.dat");
  for (int k = 0; k < 2; k++) {
    iospd_timespan_t* ts = iospd_profile_add_timespan(&f->prof);
    ts->duration = 2;
    ts->warmup = 0;
    add_target(ts, "t.dat", 4096, 64 * MiB);
  }
  const char* late = "read at offset 8192 of target 't<1>.dat' moved 0 of "
                     "4096 bytes (thread 0): truncated";
  const char* early = "cannot open target '/dev/nope' (thread 0): no such "
                      "file or directory";
  iospd_timespan_result_t* tr = add_result(f, 0.5, 1, 1);
  snprintf(tr->error, sizeof tr->error, "%s", late);
  fill(tr, 0, 0, 64 * MiB, 4096, 1234, 0);
  tr = add_result(f, 0, 1, 1);
  tr->interrupted_before_measure = true;
  snprintf(tr->error, sizeof tr->error, "%s", early);

  char* x = render_xml(f);
  expect_well_formed(x);
  assert_non_null(strstr(x, "<TimeSpan>\n    <Error>read at offset 8192 of "
                            "target &apos;t&lt;1&gt;.dat&apos; moved 0 of "
                            "4096 bytes "
                            "(thread 0): truncated</Error>\n    "
                            "<TestTimeSeconds>0.50</TestTimeSeconds>\n"));
  assert_non_null(strstr(x, "<IOCount>1234</IOCount>"));
  assert_non_null(strstr(x, "<TimeSpan>\n    <Error>cannot open target "
                            "&apos;/dev/nope&apos; (thread 0): no such file or "
                            "directory</Error>\n  </TimeSpan>\n"));
  assert_null(strstr(x, "interrupted before"));
  iospd_free(x);

  char* s = render_text(f);
  assert_non_null(strstr(s, "\nResults for timespan 1:\n"));
  const char* t1 = strstr(s, "*\nThe test failed: read at offset 8192 of "
                             "target 't<1>.dat' moved 0 of 4096 bytes "
                             "(thread 0): truncated\nThe results measured "
                             "before the failure follow.\n\nactual test "
                             "time:\t0.50s\n");
  assert_non_null(t1);
  assert_non_null(strstr(t1, "|         1234 |"));
  assert_non_null(strstr(s, "*\nThe test failed: cannot open target "
                            "'/dev/nope' (thread 0): no such file or "
                            "directory\n"));
  assert_null(strstr(s, "interrupted before"));
  iospd_free(s);
  fixture_free(f);
}

static void test_profile_only_and_engines(void** state) {
  (void)state;
  fixture_t* f = build_mixed(IOSPD_FORMAT_TEXT);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_profile_text(&sb, &f->prof);
  expect_golden("report-profile-only.txt", sb.data);
  assert_non_null(strstr(sb.data, "\t\tusing I/O Completion Ports\n"));
  assert_null(strstr(sb.data, "System information"));
  iospd_strbuf_reset(&sb);
  iospd_report_profile_text_ex(&sb, &f->prof, "io_uring");
  assert_non_null(strstr(sb.data, "\n\t\tthreads per file: 2\n"
                                  "\t\tusing io_uring\n\t\tIO priority"));
  iospd_strbuf_reset(&sb);
  iospd_report_profile_text_ex(&sb, &f->prof, "psync");
  assert_non_null(strstr(sb.data, "\t\tusing the psync fallback (io_uring "
                                  "unavailable)\n"));
  /* psync chosen for a depth-1 worker is not a fallback */
  iospd_strbuf_reset(&sb);
  iospd_report_profile_text_ex(&sb, &f->prof,
                               "psync (synchronous, queue depth 1)");
  assert_non_null(
      strstr(sb.data, "\t\tusing psync (synchronous, queue depth 1)\n"));
  assert_null(strstr(sb.data, "unavailable"));
  iospd_strbuf_reset(&sb);
  f->prof.timespans[0].completion_routines = true;
  iospd_report_profile_text_ex(&sb, &f->prof, "I/O Completion Ports");
  assert_non_null(strstr(sb.data, "\t\tusing completion routines "
                                  "(ReadFileEx/WriteFileEx)\n"));
  /* an empty name (no queue was ever created) is DISKSPD's text too */
  iospd_strbuf_reset(&sb);
  f->prof.timespans[0].completion_routines = false;
  iospd_report_profile_text_ex(&sb, &f->prof, "");
  assert_non_null(strstr(sb.data, "\t\tusing I/O Completion Ports\n"));
  /* -o1: no engine line at all, as DISKSPD */
  iospd_strbuf_reset(&sb);
  f->prof.timespans[0].targets[0].request_count = 1;
  iospd_report_profile_text_ex(&sb, &f->prof, "io_uring");
  assert_null(strstr(sb.data, "using io_uring"));
  iospd_strbuf_destroy(&sb);
  fixture_free(f);
}

static void test_format_size(void** state) {
  (void)state;
  char b[32];
  assert_string_equal(iospd_format_size(0, b, sizeof b), "0");
  assert_string_equal(iospd_format_size(512, b, sizeof b), "512");
  assert_string_equal(iospd_format_size(1023, b, sizeof b), "1023");
  assert_string_equal(iospd_format_size(1024, b, sizeof b), "1KiB");
  assert_string_equal(iospd_format_size(65536, b, sizeof b), "64KiB");
  assert_string_equal(iospd_format_size(1536, b, sizeof b), "1.50KiB");
  assert_string_equal(iospd_format_size(2000 * 1024, b, sizeof b), "1.95MiB");
  assert_string_equal(iospd_format_size(12341234, b, sizeof b), "11.77MiB");
  assert_string_equal(iospd_format_size(10 * MiB, b, sizeof b), "10MiB");
  assert_string_equal(iospd_format_size(1ull << 30, b, sizeof b), "1GiB");
  assert_string_equal(iospd_format_size(3ull << 40, b, sizeof b), "3TiB");
  assert_string_equal(iospd_format_size(5ull << 49, b, sizeof b), "2560TiB");
  assert_string_equal(iospd_format_size(64 * MiB, b, 4), "64M");
  /* The column form of the distribution lines: 6 wide plus a unit slot. */
  assert_string_equal(iospd_format_size_w(0, 6, b, sizeof b), "     0   ");
  assert_string_equal(iospd_format_size_w(512, 6, b, sizeof b), "   512   ");
  assert_string_equal(iospd_format_size_w(6710886, 6, b, sizeof b),
                      "  6.40MiB");
  assert_string_equal(iospd_format_size_w(64 * MiB, 6, b, sizeof b),
                      "    64MiB");
  assert_string_equal(iospd_format_size_w(1536, 0, b, sizeof b), "1.50KiB");
}

/* ---- JSON (-Rjson) -------------------------------------------------------- */

/* The kitchen sink's JSON with an environment and a command line full of
 * characters JSON must escape, and bytes that are not UTF-8. */
static char* render_json_sink(fixture_t* f) {
  static iospd_env_t env;
  memset(&env, 0, sizeof env);
  snprintf(env.os_name, sizeof env.os_name, "Linux");
  snprintf(env.os_release, sizeof env.os_release, "6.1.0-\x01\x1f");
  snprintf(env.os_version, sizeof env.os_version, "Debian \"12\"\\tab\t");
  snprintf(env.arch, sizeof env.arch, "x86_64");
  snprintf(env.cpu_model, sizeof env.cpu_model, "CPU \xff\xfe caf\xc3\xa9");
  env.sockets = 2;
  env.cores = 4;
  env.logical_cpus = 8;
  env.numa_nodes = 2;
  env.memory_bytes = 17179869184ull;
  snprintf(env.build, sizeof env.build, "gcc 12.2.0");
  static iospd_env_target_t tg[2];
  memset(tg, 0, sizeof tg);
  snprintf(tg[0].fs_type, sizeof tg[0].fs_type, "ext4");
  tg[0].fs_block_bytes = 4096;
  snprintf(tg[0].device, sizeof tg[0].device, "/dev/nvme0n1");
  tg[0].rotational = 0;
  tg[0].queue_depth = 1023;
  tg[1].rotational = -1;
  static const char* const paths[2] = {"a<&>.dat", "c.dat"};
  static const char* const argv[] = {"iospd", "-Rjson", "quote\"back\\slash",
                                     "\xc0\xaf", "new\nline"};
  iospd_json_extra_t x = {.env = &env,
                          .target_paths = paths,
                          .targets = tg,
                          .target_count = 2,
                          .argc = 5,
                          .argv = argv};
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_json(&sb, &f->res, &x);
  assert_false(sb.failed);
  char* s = iospd_strdup(iospd_strbuf_cstr(&sb));
  iospd_strbuf_destroy(&sb);
  return s;
}

static void test_json_kitchen_sink(void** state) {
  (void)state;
  fixture_t* f = build_kitchen_sink();
  char* s = render_json_sink(f);
  assert_non_null(strstr(s, "\"format\": \"iospd-results\""));
  assert_non_null(strstr(s, "\"computer_name\": \"host<&>\\\"'\""));
  assert_non_null(strstr(s, "\"os_release\": \"6.1.0-\\u0001\\u001f\""));
  assert_non_null(strstr(s, "\"os_version\": \"Debian \\\"12\\\"\\\\tab\\t\""));
  assert_non_null(strstr(s, "\"cpu_model\": \"CPU \xef\xbf\xbd\xef\xbf\xbd caf\xc3\xa9\""));
  assert_non_null(strstr(s, "\"joined\": \"iospd -Rjson quote\\\"back\\\\slash "
                            "\xef\xbf\xbd\xef\xbf\xbd new\\nline\""));
  assert_non_null(strstr(s, "\"rotational\": false"));
  assert_non_null(strstr(s, "\"rotational\": null"));
  assert_non_null(strstr(s, "\"memory_bytes\": 17179869184"));
  /* Timespan 1 has no -L: no latency at all; timespan 2 has it. */
  assert_non_null(strstr(s, "\"latency\": null"));
  assert_non_null(strstr(s, "\"layout\": \"iospd-hist-v1\""));
  assert_non_null(strstr(s, "\"measured\": false"));
  assert_non_null(strstr(s, "\"wait_statistics\""));
  assert_null(strstr(s, "nan"));
  assert_null(strstr(s, "inf"));
  iospd_free(s);
  /* CPU figures that are not numbers are null, never NaN. */
  f->res.timespans[0].cpu[0].usage = NAN;
  f->res.timespans[0].cpu[0].idle = INFINITY;
  s = render_json_sink(f);
  assert_non_null(strstr(s, "\"usage_percent\": null"));
  assert_non_null(strstr(s, "\"idle_percent\": null"));
  assert_null(strstr(s, "nan"));
  iospd_free(s);
  fixture_free(f);
}

/* The JSON's 2.3 facts: the level in system.tool, the processor name and
 * the caches (at 2.2 too: they describe the machine). */
static void test_json_23_system(void** state) {
  (void)state;
  fixture_t* f = build_coreaware_23(IOSPD_FORMAT_JSON);
  char* s = render_json_sink(f);
  /* One line: drop each newline and the indentation after it. */
  char* w = s;
  for (const char* r = s; *r;) {
    if (*r == '\n') {
      for (r++; *r == ' '; r++) {
      }
      continue;
    }
    *w++ = *r++;
  }
  *w = '\0';
  assert_non_null(strstr(s, "\"diskspd_version\": \"2.3.0\","
                            "\"diskspd_version_date\": \"2026/06/15\""));
  assert_non_null(strstr(s, "\"processor_name\": \"AMD EPYC\""));
  assert_non_null(strstr(s, "\"caches\": [{\"level\": 1,\"type\": \"Data\","
                            "\"size\": 32768,\"line_size\": 64,"
                            "\"associativity\": 8,\"group\": 0,"
                            "\"mask\": \"0x1\"},"));
  assert_non_null(strstr(s, "{\"level\": 3,\"type\": \"Unified\","
                            "\"size\": 33554432,\"line_size\": 64,"
                            "\"associativity\": 16,\"group\": 0,"
                            "\"mask\": \"0x3\"},"));
  iospd_free(s);
  f->prof.ext.diskspd = IOSPD_DISKSPD_22;
  s = render_json_sink(f);
  assert_non_null(strstr(s, "\"diskspd_version\": \"2.2.0\""));
  assert_non_null(strstr(s, "\"processor_name\": \"AMD EPYC\""));
  iospd_free(s);
  fixture_free(f);
}

/* -c64M -d5 -b4K -r -o8 -t2 -w25 -L -D1 a.dat b.dat: 5,000 one-ms
 * intervals for each of the 4 thread-targets, about 18 MB of JSON. */
static fixture_t* build_long_D1(void) {
  lcg = 7;
  fixture_t* f = fixture_new(
      "iospd -c64M -d5 -b4K -r -o8 -t2 -w25 -L -D1 a.dat b.dat");
  f->prof.format = IOSPD_FORMAT_JSON;
  iospd_timespan_t* ts = iospd_profile_add_timespan(&f->prof);
  ts->duration = 5;
  ts->measure_latency = true;
  ts->calc_iops_stddev = true;
  ts->io_bucket_ms = 1;
  add_target(ts, "a.dat", 4096, 64 * MiB)->write_ratio = 25;
  add_target(ts, "b.dat", 4096, 64 * MiB)->write_ratio = 25;
  set_time(f, 9, 30, 0);
  iospd_timespan_result_t* tr = add_result(f, 5.0, 2, 2);
  set_cpu(tr, 0, 50.5, 10.25, 40.25, 49.5);
  set_cpu(tr, 1, 40.0, 10.0, 30.0, 60.0);
  for (uint32_t t = 0; t < 2; t++)
    for (uint32_t k = 0; k < 2; k++)
      fill(tr, t, k, 64 * MiB, 4096, 15000, 5000);
  return f;
}

/* BEGIN streaming tests (need iospd_report_json_write) */
/* A sink that keeps what it is given and the largest piece. */
typedef struct {
  iospd_strbuf_t got;
  size_t pieces, largest;
  size_t fail_after; /* fail the piece after this many bytes (0: never) */
} count_sink_t;

static int count_write(void* ctx, const char* data, size_t len) {
  count_sink_t* c = ctx;
  if (c->fail_after != 0 && c->got.len + len > c->fail_after)
    return IOSPD_ENOSPC;
  c->pieces++;
  if (len > c->largest) c->largest = len;
  iospd_strbuf_append_n(&c->got, data, len);
  return 0;
}

/* The JSON of a long -D1 run goes out in pieces of about 64 KiB, never
 * more than a piece and one value held, and it is the same document as
 * the one built whole. */
static void test_json_streams_in_bounded_pieces(void** state) {
  (void)state;
  fixture_t* f = build_long_D1();
  iospd_strbuf_t whole;
  iospd_strbuf_init(&whole);
  iospd_report_json(&whole, &f->res, NULL);
  assert_false(whole.failed);
  assert_true(whole.len > 10u * 1000 * 1000); /* the -D1 lists dominate */

  count_sink_t c;
  memset(&c, 0, sizeof c);
  iospd_strbuf_init(&c.got);
  iospd_sink_t sink = {.write = count_write, .ctx = &c};
  assert_int_equal(iospd_report_json_write(&sink, &f->res, NULL, false), 0);
  assert_int_equal(c.got.len, whole.len);
  assert_memory_equal(c.got.data, whole.data, whole.len);
  /* 64 KiB and the value that passed it (an interval's fields are a few
   * dozen bytes each; nothing in this document is longer than 1 KiB). */
  assert_true(c.largest >= (size_t)64 << 10);
  assert_true(c.largest <= ((size_t)64 << 10) + 1024);
  assert_true(c.pieces >= whole.len / (((size_t)64 << 10) + 1024));
  iospd_strbuf_destroy(&c.got);

  /* Slim: without the interval lists, and the same as that document with
   * every iops_series "buckets" removed (what the HTML page embeds). */
  memset(&c, 0, sizeof c);
  iospd_strbuf_init(&c.got);
  assert_int_equal(iospd_report_json_write(&sink, &f->res, NULL, true), 0);
  assert_true(c.got.len < 200u * 1000);
  assert_null(strstr(iospd_strbuf_cstr(&c.got), "\"sample_ms\""));
  assert_non_null(strstr(iospd_strbuf_cstr(&c.got), "\"iops_stddev\""));
  assert_non_null(strstr(iospd_strbuf_cstr(&c.got), "\"histogram\""));
  iospd_strbuf_destroy(&c.got);
  iospd_strbuf_destroy(&whole);
  fixture_free(f);
}

/* A sink that fails (a full disk) part-way: the failure comes back, and
 * nothing more is handed to the sink after it. */
static void test_json_stream_failure_returned(void** state) {
  (void)state;
  fixture_t* f = build_long_D1();
  count_sink_t c;
  memset(&c, 0, sizeof c);
  iospd_strbuf_init(&c.got);
  c.fail_after = (size_t)1 << 20;
  iospd_sink_t sink = {.write = count_write, .ctx = &c};
  assert_int_equal(iospd_report_json_write(&sink, &f->res, NULL, false),
                   IOSPD_ENOSPC);
  assert_int_equal(sink.error, IOSPD_ENOSPC);
  assert_true(c.got.len <= (size_t)1 << 20);
  assert_true(c.got.len > ((size_t)1 << 20) - (((size_t)64 << 10) + 1024));
  iospd_strbuf_destroy(&c.got);
  fixture_free(f);
}
/* END streaming tests */

int main(int argc, char** argv) {
  /* `test_report --dump-json FILE`: the kitchen-sink JSON report, for the
   * schema check and the comparison with --dump-xml (tests/report.cmake). */
  if (argc == 3 && strcmp(argv[1], "--dump-json") == 0) {
    fixture_t* f = build_kitchen_sink();
    char* s = render_json_sink(f);
    FILE* o = fopen(argv[2], "wb");
    if (o == NULL) return 1;
    fwrite(s, 1, strlen(s), o);
    fclose(o);
    iospd_free(s);
    fixture_free(f);
    return 0;
  }
  /* `test_report --dump-json-long FILE`: the JSON of a long -D1 run
   * (compared before and after a change of the JSON writer). */
  if (argc == 3 && strcmp(argv[1], "--dump-json-long") == 0) {
    fixture_t* f = build_long_D1();
    iospd_strbuf_t sb;
    iospd_strbuf_init(&sb);
    iospd_report_json(&sb, &f->res, NULL);
    FILE* o = fopen(argv[2], "wb");
    if (o == NULL || sb.failed) return 1;
    fwrite(sb.data, 1, sb.len, o);
    fclose(o);
    iospd_strbuf_destroy(&sb);
    fixture_free(f);
    return 0;
  }
  /* `test_report --dump-xml FILE`: writes the kitchen-sink XML report for
   * the xmllint check registered in tests/report.cmake. */
  if (argc == 3 && strcmp(argv[1], "--dump-xml") == 0) {
    fixture_t* f = build_kitchen_sink();
    iospd_strbuf_t sb;
    iospd_strbuf_init(&sb);
    iospd_report_xml(&sb, &f->res);
    FILE* o = fopen(argv[2], "wb");
    if (o == NULL) return 1;
    fwrite(sb.data, 1, sb.len, o);
    fclose(o);
    iospd_strbuf_destroy(&sb);
    fixture_free(f);
    return 0;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_text_mixed_L_D),
      cmocka_unit_test(test_text_seq_write),
      cmocka_unit_test(test_text_two_targets_F4),
      cmocka_unit_test(test_text_rdpct),
      cmocka_unit_test(test_xml_mixed_L_D),
      cmocka_unit_test(test_xml_seq_write),
      cmocka_unit_test(test_xml_mixed_rs30_D500),
      cmocka_unit_test(test_xml_profile_block_matches_sample),
      cmocka_unit_test(test_text_every_conditional),
      cmocka_unit_test(test_failed_timespan_error),
      cmocka_unit_test(test_profile_only_and_engines),
      cmocka_unit_test(test_format_size),
      cmocka_unit_test(test_text_23_system_and_affinity),
      cmocka_unit_test(test_xml_23_system_and_affinity),
      cmocka_unit_test(test_system_only),
      cmocka_unit_test(test_json_23_system),
      cmocka_unit_test(test_json_kitchen_sink),
      cmocka_unit_test(test_json_streams_in_bounded_pieces), /* streaming */
      cmocka_unit_test(test_json_stream_failure_returned), /* streaming */
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

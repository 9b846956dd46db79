/* SPDX-License-Identifier: MIT */
/* iospd_profile_validate (DISKSPD's profile validation): each rule's error or
 * warning, the exact number of diagnostic lines, and that every problem is
 * reported rather than only the first. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/cmdline.h"
#include "iospd/error.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"
#include "iospd/xml_profile.h"

static const iospd_cmdline_env_t k_env = {false, false, NULL, NULL};
static const iospd_cmdline_env_t k_win = {true, true, NULL, NULL};

static void parse_line(const char* line, iospd_profile_t* p) {
  static char buf[512];
  const char* argv[32];
  int argc = 0;
  const iospd_cmdline_env_t* env = &k_env;
  if (strncmp(line, "W|", 2) == 0) {
    env = &k_win;
    line += 2;
  }
  snprintf(buf, sizeof buf, "%s", line);
  argv[argc++] = "iospd";
  argv[argc++] = "--diskspd=2.2"; /* DISKSPD 2.2's rules (the default is 2.3) */
  for (char* t = strtok(buf, " "); t; t = strtok(NULL, " ")) argv[argc++] = t;
  iospd_profile_init(p);
  iospd_cmdline_action_t action;
  iospd_err_t err;
  int rc = iospd_cmdline_parse(argc, argv, env, p, &action, NULL, &err);
  if (rc != 0) fail_msg("'%s' does not parse: %s", line, err.msg);
}

typedef struct vcase_s {
  const char* line;
  int rc;          /* 0 or IOSPD_EUSAGE */
  int lines;       /* number of diagnostic lines */
  const char* has[3]; /* substrings that must appear */
} vcase_t;

static const vcase_t k_cases[] = {
    {"t", 0, 0, {NULL}},
    {"-b4K -r -o32 -t4 -Sh -L t", 0, 0, {NULL}},
    {"-n -a0,1 t", IOSPD_EUSAGE, 1, {"iospd: error: -n (no affinity) and -a"}},
    {"-F4 -t2 t", IOSPD_EUSAGE, 3, {"iospd: error: t: -F (total threads) and -t"}},
    {"W|-g100 -x t", IOSPD_EUSAGE, 1, {"-g) cannot be used with completion"}},
    {"-i4 t", IOSPD_EUSAGE, 1, {"-i (burst size) and -j (think time)"}},
    {"-j4 t", IOSPD_EUSAGE, 1, {"-i (burst size) and -j (think time)"}},
    {"-i4 -j10 t", 0, 0, {NULL}},
    {"-F2 -O4 -g100 t", IOSPD_EUSAGE, 3,
     {"-g) cannot be used with -O",
      "WARNING: target access pattern will not be sequential, consider -si\n"}},
    {"-F2 -O4 -i1 -j5 t", IOSPD_EUSAGE, 3, {"think time (-j) cannot be used"}},
    {"-F2 -O4 -p -o2 t", IOSPD_EUSAGE, 3, {"-p cannot be used with -O"}},
    {"-F2 -O4 -r t", 0, 0, {NULL}},
    {"-r -T4K t", IOSPD_EUSAGE, 1, {"thread stride (-T) cannot be used with random"}},
    {"-r -p t", IOSPD_EUSAGE, 1, {"parallel sequential I/O (-p) cannot be used with random"}},
    {"-rs50 -T1M t", IOSPD_EUSAGE, 1, {"(-T) cannot be used with random"}},
    {"-rdpct90/10 t", IOSPD_EUSAGE, 1, {"random distributions (-rd) need random I/O"}},
    {"-p -o1 t", 0, 2, {"WARNING: -p does not have effect unless"}},
    {"-p -o2 t", 0, 0, {NULL}},
    {"-si -T1M -t2 t", IOSPD_EUSAGE, 1, {"(-si) cannot be used with a thread stride"}},
    {"-si -p -t2 t", IOSPD_EUSAGE, 1, {"(-si) cannot be used with -p"}},
    {"-si t", 0, 2, {"WARNING: single-threaded test, -si ignored\n"}},
    {"-si -t2 t", 0, 0, {NULL}},
    {"-si -F2 t", 0, 0, {NULL}},
    {"-t4 t", 0, 2, {"WARNING: target access pattern will not be sequential"}},
    {"-F2 t", 0, 2, {"WARNING: target access pattern will not be sequential"}},
    {"-T1M -t4 t", 0, 0, {NULL}},
    {"-T1M t", IOSPD_EUSAGE, 1, {"(-T) needs more than one thread"}},
    {"-r -rdpct10/10:10/10:0/10 t", 0, 0, {NULL}},
    {"-r -rdpct50/100 t", IOSPD_EUSAGE, 1, {"covers the whole target but only 50%"}},
    {"-r -rdpct100/10 t", IOSPD_EUSAGE, 1, {"add up to 10%; they must add up to exactly 100%"}},
    {"-r -rdpct50/60:10/60 t", IOSPD_EUSAGE, 1, {"target% values add up to more than 100%"}},
    {"-r -rdabs10/1G:10/1G:0/100G t", 0, 0, {NULL}},
    {"-r -b4K -rdabs50/1K t", IOSPD_EUSAGE, 1,
     {"distribution range 1 is 1024 bytes, smaller than the block size (4096)"}},
    {"-Z1K t", IOSPD_EUSAGE, 1, {"write buffer (-Z) of 1024 bytes is smaller than the block size (65536)"}},
    {"-Z64K t", 0, 0, {NULL}},
    /* --compress / --dedupe: generated content excludes other content. */
    {"--compress=50 --dedupe=20 -Z1M t", 0, 0, {NULL}},
    {"-Z --compress=50 t", IOSPD_EUSAGE, 1,
     {"iospd: error: t: --compress/--dedupe generate the write content and cannot "
      "be combined with -Z (zeros)"}},
    {"-Zr --dedupe=10 t", IOSPD_EUSAGE, 1, {"cannot be combined with -Zr"}},
    {"-b256 --dedupe=10 t", IOSPD_EUSAGE, 1,
     {"iospd: error: t: --compress/--dedupe need blocks of at least 512 bytes "
      "(-b256 is smaller)"}},
    {"-b512 --compress=10 t", 0, 0, {NULL}},
    {"-Z1M,src.bin --compress=10 t", IOSPD_EUSAGE, 1,
     {"cannot be combined with a -Z<size>,<file> source file"}},
    {"W|-Sm -x t", IOSPD_EUSAGE, 1, {"completion routines (-x) cannot be used with memory-mapped"}},
    {"-Sm -h t", IOSPD_EUSAGE, 1, {"unbuffered I/O (-Su, -Sh, -h) cannot be used with memory-mapped"}},
    {"-Nv t", IOSPD_EUSAGE, 1, {"the flush mode (-N) needs memory-mapped I/O (-Sm)"}},
    {"-Sm -Nv t", 0, 0, {NULL}},
    {"-B1G:0 t", IOSPD_EUSAGE, 1, {"maximum offset (1073741824, -f or -B<base>:<length>) must be greater than the base offset (1073741824, -B)"}},
    {"-B2G -f1G t", IOSPD_EUSAGE, 1, {"must be greater than the base offset"}},
    {"-B1G -f2G t", 0, 0, {NULL}},
    {"-Rp *1", 0, 0, {NULL}},
    {"*1", IOSPD_EUSAGE, 1, {"template target '*1' was not replaced"}},
    /* Several problems are all reported. */
    {"-n -a1 -F2 -t2 -T1M -r -Nv t", IOSPD_EUSAGE, 4,
     {"-n (no affinity)", "-F (total threads)", "flush mode (-N)"}},
    /* Only the first command-line target is checked (they are identical). */
    {"-Nv a b c", IOSPD_EUSAGE, 1, {"iospd: error: a: the flush mode"}},
};

static int count_lines(const char* s) {
  int n = 0;
  for (; *s; s++)
    if (*s == '\n') n++;
  return n;
}

static void test_validate_rules(void** state) {
  (void)state;
  int failures = 0;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k_cases); i++) {
    const vcase_t* c = &k_cases[i];
    iospd_profile_t p;
    parse_line(c->line, &p);
    iospd_strbuf_t d;
    iospd_strbuf_init(&d);
    int rc = iospd_profile_validate(&p, &d);
    const char* text = iospd_strbuf_cstr(&d);
    bool ok = rc == c->rc && count_lines(text) == c->lines;
    for (int k = 0; k < 3 && c->has[k]; k++)
      if (strstr(text, c->has[k]) == NULL) ok = false;
    if (!ok) {
      print_error("'%s': rc %d (want %d), diagnostics:\n%s---\n", c->line, rc,
                  c->rc, text);
      failures++;
    }
    iospd_strbuf_destroy(&d);
    iospd_profile_destroy(&p);
  }
  assert_int_equal(failures, 0);
}

/* XML-only rules need a hand-built profile. */
/* A hand-built profile (or a reader bug) with a percentage out of range. */
static void test_validate_content_range(void** state) {
  (void)state;
  iospd_profile_t p;
  parse_line("--compress=10 t", &p);
  p.timespans[0].targets[0].compress_pct = 101;
  p.timespans[0].targets[0].dedupe_pct = 200;
  iospd_strbuf_t d;
  iospd_strbuf_init(&d);
  assert_int_equal(iospd_profile_validate(&p, &d), IOSPD_EUSAGE);
  assert_string_equal(
      iospd_strbuf_cstr(&d),
      "iospd: error: t: --compress=101 is out of range: give the zlib saving as a "
      "whole percentage from 0 to 100\n"
      "iospd: error: t: --dedupe=200 is out of range: give the share of repeated "
      "blocks as a whole percentage from 0 to 100\n");
  iospd_strbuf_destroy(&d);
  iospd_profile_destroy(&p);
}

static void test_validate_xml_only_rules(void** state) {
  (void)state;
  iospd_profile_t p;
  iospd_profile_init(&p);
  iospd_strbuf_t d;
  iospd_strbuf_init(&d);
  assert_int_equal(iospd_profile_validate(&p, &d), IOSPD_EUSAGE);
  assert_string_equal(iospd_strbuf_cstr(&d),
                      "iospd: error: the profile has no timespans\n");

  iospd_strbuf_reset(&d);
  p.xml_source = iospd_strdup("p.xml");
  iospd_timespan_t* ts = iospd_profile_add_timespan(&p);
  assert_non_null(ts);
  assert_int_equal(iospd_profile_validate(&p, &d), IOSPD_EUSAGE);
  assert_string_equal(iospd_strbuf_cstr(&d),
                      "iospd: error: timespan 1 has no targets\n");

  /* Two targets; both are checked for XML profiles. */
  iospd_strbuf_reset(&d);
  iospd_target_t* a = iospd_timespan_add_target(ts);
  assert_int_equal(iospd_target_set_path(a, "a"), 0);
  iospd_target_t* b = iospd_timespan_add_target(ts);
  assert_int_equal(iospd_target_set_path(b, "b"), 0);
  ts->thread_count = 2;
  ts->request_count = 4;
  ts->targets[0].random_ratio = 100;
  ts->targets[1].random_ratio = 100;
  ts->targets[1].weight = 0;
  ts->targets[0].thread_targets = iospd_calloc(1, sizeof(iospd_thread_target_t));
  ts->targets[0].thread_targets[0].thread = 2;
  ts->targets[0].thread_target_count = 1;
  assert_int_equal(iospd_profile_validate(&p, &d), IOSPD_EUSAGE);
  assert_string_equal(iospd_strbuf_cstr(&d),
                      "iospd: error: a: ThreadTarget names thread 2 but there are "
                      "only 2 threads\n"
                      "iospd: error: b: the target weight must not be 0 with -O\n");

  /* ThreadTargets without ThreadCount and RequestCount. */
  iospd_strbuf_reset(&d);
  ts->request_count = 0;
  ts->targets[1].weight = 1;
  assert_int_equal(iospd_profile_validate(&p, &d), IOSPD_EUSAGE);
  assert_string_equal(iospd_strbuf_cstr(&d),
                      "iospd: error: a: ThreadTargets need both ThreadCount and "
                      "RequestCount in the timespan\n");

  /* Distribution IO% total over 100 (the XML reader does not stop it). */
  iospd_strbuf_reset(&d);
  iospd_free(ts->targets[0].thread_targets);
  ts->targets[0].thread_targets = NULL;
  ts->targets[0].thread_target_count = 0;
  iospd_target_t* t = &ts->targets[1];
  t->dist_type = IOSPD_DIST_ABSOLUTE;
  t->dist = iospd_calloc(3, sizeof *t->dist);
  t->dist_count = 3;
  t->dist[0] = (iospd_dist_range_t){0, 60, 0, 1u << 20};
  t->dist[1] = (iospd_dist_range_t){60, 60, 1u << 20, 0};
  t->dist[2] = (iospd_dist_range_t){120, 0, 1u << 20, 1u << 20};
  assert_int_equal(iospd_profile_validate(&p, &d), IOSPD_EUSAGE);
  assert_string_equal(
      iospd_strbuf_cstr(&d),
      "iospd: error: b: random distribution I/O% 60 is too much; at most 40 is left "
      "(the total must be 100% or less)\n"
      "iospd: error: b: a zero-length (to the end) distribution range must be the "
      "last one\n");

  /* Interlocked with random only arrives through XML. */
  iospd_strbuf_reset(&d);
  iospd_free(t->dist);
  t->dist = NULL;
  t->dist_count = 0;
  t->dist_type = IOSPD_DIST_NONE;
  t->interlocked = true;
  assert_int_equal(iospd_profile_validate(&p, &d), IOSPD_EUSAGE);
  assert_string_equal(iospd_strbuf_cstr(&d),
                      "iospd: error: b: interlocked sequential I/O (-si) cannot be "
                      "used with random I/O (-r)\n");

  /* A NULL diag still returns the verdict. */
  assert_int_equal(iospd_profile_validate(&p, NULL), IOSPD_EUSAGE);
  iospd_strbuf_destroy(&d);
  iospd_profile_destroy(&p);
}

/* DISKSPD's three validation warnings, whole text: its exact line (what it
 * prints to stderr before the report), then our note naming the target. */
static void test_validate_diskspd_warning_lines(void** state) {
  (void)state;
  static const struct {
    const char* line;
    const char* want;
  } k[] = {
      {"-p -o1 t",
       "WARNING: -p does not have effect unless outstanding I/O count (-o) "
       "is > 1\n"
       "note: t: with one I/O in flight (-o1), parallel sequential I/O (-p) "
       "is plain sequential I/O\n"},
      {"-si t",
       "WARNING: single-threaded test, -si ignored\n"
       "note: t: with one thread, interlocked sequential I/O (-si) is plain "
       "sequential I/O\n"},
      {"-t2 t",
       "WARNING: target access pattern will not be sequential, consider -si\n"
       "note: t: the threads of this target all start at the same offset; "
       "-si makes them share one sequence, -T<size> gives each its own "
       "start\n"},
      /* Two warnings for one target, in DISKSPD's order (-p before the
       * thread check); one target checked for a command line. */
      {"-p -o1 -t2 a b",
       "WARNING: -p does not have effect unless outstanding I/O count (-o) "
       "is > 1\n"
       "note: a: with one I/O in flight (-o1), parallel sequential I/O (-p) "
       "is plain sequential I/O\n"
       "WARNING: target access pattern will not be sequential, consider -si\n"
       "note: a: the threads of this target all start at the same offset; "
       "-si makes them share one sequence, -T<size> gives each its own "
       "start\n"},
      /* Errors keep our wording and DISKSPD's order around the warning. */
      {"-si -T1M -p t",
       "iospd: error: t: interlocked sequential I/O (-si) cannot be used with a "
       "thread stride (-T)\n"
       "iospd: error: t: interlocked sequential I/O (-si) cannot be used with -p\n"
       "WARNING: single-threaded test, -si ignored\n"
       "note: t: with one thread, interlocked sequential I/O (-si) is plain "
       "sequential I/O\n"},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k); i++) {
    iospd_profile_t p;
    parse_line(k[i].line, &p);
    iospd_strbuf_t d;
    iospd_strbuf_init(&d);
    (void)iospd_profile_validate(&p, &d);
    if (strcmp(iospd_strbuf_cstr(&d), k[i].want) != 0)
      fail_msg("'%s':\n%s---want:\n%s", k[i].line, iospd_strbuf_cstr(&d),
               k[i].want);
    iospd_strbuf_destroy(&d);
    iospd_profile_destroy(&p);
  }

  /* An XML profile: DISKSPD checks and warns for every target, even for
   * identical ones. */
  iospd_profile_t p;
  iospd_profile_init(&p);
  p.xml_source = iospd_strdup("p.xml");
  iospd_timespan_t* ts = iospd_profile_add_timespan(&p);
  for (int j = 0; j < 2; j++) {
    iospd_target_t* t = iospd_timespan_add_target(ts);
    assert_int_equal(iospd_target_set_path(t, j ? "b" : "a"), 0);
    t->interlocked = true;
  }
  iospd_strbuf_t d;
  iospd_strbuf_init(&d);
  assert_int_equal(iospd_profile_validate(&p, &d), 0);
  assert_string_equal(iospd_strbuf_cstr(&d),
                      "WARNING: single-threaded test, -si ignored\n"
                      "note: a: with one thread, interlocked sequential I/O "
                      "(-si) is plain sequential I/O\n"
                      "WARNING: single-threaded test, -si ignored\n"
                      "note: b: with one thread, interlocked sequential I/O "
                      "(-si) is plain sequential I/O\n");
  iospd_strbuf_destroy(&d);
  iospd_profile_destroy(&p);
}

/* Every example profile shipped in xml/examples validates once its
 * template is replaced (skipped while the XML reader is a stub). */
static void test_validate_shipped_examples(void** state) {
  (void)state;
  char list[] = IOSPD_VALIDATE_EXAMPLES;
  int count = 0;
  for (char* name = strtok(list, "|"); name; name = strtok(NULL, "|")) {
    char path[1024];
    snprintf(path, sizeof path, "%s/xml/examples/%s", IOSPD_SOURCE_DIR, name);
    FILE* f = fopen(path, "rb");
    assert_non_null(f);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_err_t err;
    int rc = iospd_xml_profile_parse(text, len, &p, &err);
    if (rc == IOSPD_ENOTSUP) {
      print_message("XML reader not available: skipping %s\n", name);
      iospd_profile_destroy(&p);
      continue;
    }
    if (rc) fail_msg("%s: %s", name, err.msg);
    const char* const target[] = {"target.dat"};
    rc = iospd_xml_profile_substitute(&p, target, 1, &err);
    if (rc) fail_msg("%s: %s", name, err.msg);
    iospd_strbuf_t d;
    iospd_strbuf_init(&d);
    rc = iospd_profile_validate(&p, &d);
    if (rc) fail_msg("%s:\n%s", name, iospd_strbuf_cstr(&d));
    iospd_strbuf_destroy(&d);
    iospd_profile_destroy(&p);
    count++;
  }
  print_message("%d example profiles validated\n", count);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_validate_rules),
      cmocka_unit_test(test_validate_xml_only_rules),
      cmocka_unit_test(test_validate_content_range),
      cmocka_unit_test(test_validate_diskspd_warning_lines),
      cmocka_unit_test(test_validate_shipped_examples),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

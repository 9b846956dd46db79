/* SPDX-License-Identifier: MIT */
/* DISKSPD 2.3 profiles (issue #25): the XML reader takes 2.3's elements and
 * both affinity forms at either level, the writer writes the chosen
 * level's form, iospd_profile_equal sees every 2.3 field, and the text
 * "Input parameters" has 2.3's lines (the real samples are compared whole
 * by tests/e2e/profiles23_test.sh). */
#include "test_util.h"

#include "iospd/diskspd23.h"
#include "iospd/report.h"
#include "iospd/strbuf.h"
#include "iospd/xml_profile.h"

static const char* const k_23 =
    "<Profile><TimeSpans><TimeSpan>\n"
    "<RandSeed>0</RandSeed>\n"
    "<IoRing><IoRingBatchSize Percent=\"false\">12</IoRingBatchSize>"
    "<UseRegBuffer>false</UseRegBuffer></IoRing>\n"
    "<DisableAffinity>false</DisableAffinity>\n"
    "<AffinityTraversal Group=\"Span\" Efficiency=\"FillEFirst\">CoreAware"
    "</AffinityTraversal>\n"
    "<Affinity><Group Group=\"1\" Mask=\"0x5\"/><Group Group=\"0\" "
    "Mask=\"0x0\"/></Affinity>\n"
    "<BufferSeparation>SystemDefault</BufferSeparation>\n"
    "<CompletionDepth>4</CompletionDepth>\n"
    "<Targets><Target><Path>a.dat</Path><DisableOSCache>true</DisableOSCache>"
    "<BypassIO>Full</BypassIO></Target></Targets>\n"
    "</TimeSpan></TimeSpans></Profile>\n";

static void parse_ok(const char* text, iospd_profile_t* p) {
  iospd_err_t err;
  iospd_profile_init(p);
  int rc = iospd_xml_profile_parse(text, strlen(text), p, &err);
  if (rc) fail_msg("%s", err.msg);
}

static void test_read_23_elements(void** state) {
  (void)state;
  iospd_profile_t p;
  parse_ok(k_23, &p);
  const iospd_timespan_t* ts = &p.timespans[0];
  assert_true(ts->ioring.enabled);
  assert_false(ts->ioring.registered_buffers);
  assert_int_equal(ts->ioring.batch, 12);
  assert_false(ts->ioring.batch_percent);
  assert_true(ts->affinity_core_aware);
  assert_true(ts->affinity_span_groups);
  assert_int_equal(ts->affinity_efficiency, IOSPD_AFF_FILL_E_FIRST);
  assert_int_equal(ts->buffer_separation, IOSPD_BUFSEP_SYSTEM_DEFAULT);
  assert_int_equal(ts->completion_depth, 4);
  assert_int_equal(ts->affinity_count, 3);
  assert_int_equal(ts->affinity[0].group, 1);
  assert_int_equal(ts->affinity[0].cpu, 0);
  assert_int_equal(ts->affinity[1].group, 1);
  assert_int_equal(ts->affinity[1].cpu, 2);
  assert_int_equal(ts->affinity[2].group, 0);
  assert_int_equal(ts->affinity[2].cpu, IOSPD_AFFINITY_WHOLE_GROUP);
  assert_int_equal(ts->targets[0].bypass_io, IOSPD_BYPASS_FULL);
  iospd_profile_destroy(&p);
}

static void write_level(const iospd_profile_t* p0, iospd_diskspd_level_t l,
                        iospd_strbuf_t* sb) {
  iospd_profile_t p = *p0;
  p.ext.diskspd = l;
  iospd_strbuf_init(sb);
  iospd_xml_profile_write(sb, &p, 0);
}

static void test_write_both_levels(void** state) {
  (void)state;
  iospd_profile_t p;
  parse_ok(k_23, &p);
  iospd_strbuf_t sb;
  write_level(&p, IOSPD_DISKSPD_23, &sb);
  const char* x = iospd_strbuf_cstr(&sb);
  static const char* const want23 =
      "      <RandSeed>0</RandSeed>\n"
      "      <IoRing>\n"
      "        <IoRingBatchSize Percent=\"false\">12</IoRingBatchSize>\n"
      "        <UseRegBuffer>false</UseRegBuffer>\n"
      "      </IoRing>\n"
      "      <DisableAffinity>false</DisableAffinity>\n"
      "      <AffinityTraversal Group=\"Span\" Efficiency=\"FillEFirst\">"
      "CoreAware</AffinityTraversal>\n"
      "      <Affinity>\n"
      "        <Group Group=\"1\" Mask=\"0x5\"/>\n"
      "        <Group Group=\"0\" Mask=\"0x0\"/>\n"
      "      </Affinity>\n"
      "      <BufferSeparation>SystemDefault</BufferSeparation>\n"
      "      <CompletionDepth>4</CompletionDepth>\n"
      "      <Targets>\n";
  if (strstr(x, want23) == NULL) fail_msg("2.3 form missing in:\n%s", x);
  assert_non_null(strstr(x, "          <DisableOSCache>true</DisableOSCache>\n"
                            "          <BypassIO>Full</BypassIO>\n"
                            "          <WriteBufferContent>\n"));
  /* 2.3 puts DisableAffinity after RandSeed only. */
  assert_null(strstr(x, "<CalculateIopsStdDev>false</CalculateIopsStdDev>\n"
                        "      <DisableAffinity>"));
  iospd_strbuf_destroy(&sb);

  write_level(&p, IOSPD_DISKSPD_22, &sb);
  x = iospd_strbuf_cstr(&sb);
  static const char* const want22 =
      "      <CalculateIopsStdDev>false</CalculateIopsStdDev>\n"
      "      <DisableAffinity>false</DisableAffinity>\n";
  assert_non_null(strstr(x, want22));
  assert_non_null(strstr(x, "      <RandSeed>0</RandSeed>\n"
                            "      <Affinity>\n"
                            "        <AffinityGroupAssignment Group=\"1\" "
                            "Processor=\"0\"/>\n"));
  static const char* const none22[] = {"IoRing", "AffinityTraversal",
                                       "<Group ", "BufferSeparation",
                                       "CompletionDepth", "BypassIO"};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(none22); i++)
    if (strstr(x, none22[i]) != NULL)
      fail_msg("2.2 form has %s:\n%s", none22[i], x);
  iospd_strbuf_destroy(&sb);
  iospd_profile_destroy(&p);
}

/* -n at 2.3: no <AffinityTraversal>; default buffer separation written as
 * PDECacheLine; no <CompletionDepth> unless given. */
static void test_write_defaults_23(void** state) {
  (void)state;
  iospd_profile_t p;
  parse_ok("<Profile><TimeSpans><TimeSpan><DisableAffinity>true"
           "</DisableAffinity><Targets><Target><Path>a</Path></Target>"
           "</Targets></TimeSpan></TimeSpans></Profile>",
           &p);
  iospd_strbuf_t sb;
  write_level(&p, IOSPD_DISKSPD_23, &sb);
  const char* x = iospd_strbuf_cstr(&sb);
  assert_non_null(strstr(x, "      <RandSeed>0</RandSeed>\n"
                            "      <DisableAffinity>true</DisableAffinity>\n"
                            "      <BufferSeparation>PDECacheLine"
                            "</BufferSeparation>\n"
                            "      <Targets>\n"));
  assert_null(strstr(x, "AffinityTraversal"));
  assert_null(strstr(x, "CompletionDepth"));
  iospd_strbuf_destroy(&sb);
  iospd_profile_destroy(&p);
}

/* Written at 2.3 and read back: the same profile (iospd_profile_equal), and
 * each 2.3 field, changed alone, makes it differ. */
static void test_round_trip_and_equal(void** state) {
  (void)state;
  iospd_profile_t a, b;
  parse_ok(k_23, &a);
  iospd_strbuf_t sb;
  write_level(&a, IOSPD_DISKSPD_23, &sb);
  parse_ok(iospd_strbuf_cstr(&sb), &b);
  assert_true(iospd_profile_equal(&a, &b));
  iospd_strbuf_destroy(&sb);
  iospd_timespan_t* t = &b.timespans[0];
#define DIFFERS(stmt, undo)                   \
  do {                                        \
    stmt;                                     \
    assert_false(iospd_profile_equal(&a, &b)); \
    undo;                                     \
    assert_true(iospd_profile_equal(&a, &b));  \
  } while (0)
  DIFFERS(t->ioring.batch = 13, t->ioring.batch = 12);
  DIFFERS(t->ioring.enabled = false, t->ioring.enabled = true);
  DIFFERS(t->ioring.batch_percent = true, t->ioring.batch_percent = false);
  DIFFERS(t->ioring.registered_buffers = true,
          t->ioring.registered_buffers = false);
  DIFFERS(t->affinity_core_aware = false, t->affinity_core_aware = true);
  DIFFERS(t->affinity_span_groups = false, t->affinity_span_groups = true);
  DIFFERS(t->affinity_efficiency = IOSPD_AFF_E_FIRST,
          t->affinity_efficiency = IOSPD_AFF_FILL_E_FIRST);
  DIFFERS(t->buffer_separation = IOSPD_BUFSEP_PDE_CACHE_LINE,
          t->buffer_separation = IOSPD_BUFSEP_SYSTEM_DEFAULT);
  DIFFERS(t->completion_depth = 5, t->completion_depth = 4);
  DIFFERS(t->targets[0].bypass_io = IOSPD_BYPASS_PARTIAL,
          t->targets[0].bypass_io = IOSPD_BYPASS_FULL);
  DIFFERS(t->affinity[2].cpu = 3,
          t->affinity[2].cpu = IOSPD_AFFINITY_WHOLE_GROUP);
#undef DIFFERS
  iospd_profile_destroy(&a);
  iospd_profile_destroy(&b);
}

static void expect_error(const char* body, const char* want) {
  char doc[2048];
  snprintf(doc, sizeof doc,
           "<Profile>\n<TimeSpans>\n<TimeSpan>\n%s\n<Targets><Target><Path>a"
           "</Path></Target></Targets></TimeSpan></TimeSpans></Profile>\n",
           body);
  iospd_profile_t p;
  iospd_err_t err;
  iospd_profile_init(&p);
  int rc = iospd_xml_profile_parse(doc, strlen(doc), &p, &err);
  if (rc == 0 || strstr(err.msg, want) == NULL)
    fail_msg("'%s': rc %d, message '%s' lacks '%s'", body, rc, err.msg, want);
  iospd_profile_destroy(&p);
}

static void test_read_errors(void** state) {
  (void)state;
  expect_error("<IoRing><IoRingBatchSize Percent=\"yes\">4</IoRingBatchSize>"
               "</IoRing>",
               "line 4: <IoRingBatchSize> attribute Percent must be false or "
               "true, got 'yes'");
  expect_error("<IoRing><IoRingBatchSize Percent=\"true\">101"
               "</IoRingBatchSize></IoRing>",
               "<IoRingBatchSize> must be a whole number from 1 to 100");
  expect_error("<IoRing><IoRingBatchSize>0</IoRingBatchSize></IoRing>",
               "<IoRingBatchSize> must be a whole number from 1 to 65536");
  expect_error("<IoRing><Batch>1</Batch></IoRing>",
               "unknown element <Batch> inside <IoRing>");
  expect_error("<AffinityTraversal>Core</AffinityTraversal>",
               "<AffinityTraversal> must be Cpu or CoreAware, got 'Core'");
  expect_error("<AffinityTraversal Group=\"fill\">Cpu</AffinityTraversal>",
               "<AffinityTraversal> attribute Group must be Fill or Span, got "
               "'fill'");
  expect_error("<AffinityTraversal Efficiency=\"P\">Cpu</AffinityTraversal>",
               "attribute Efficiency must be PFirst, Unordered, EFirst, "
               "FillPFirst or FillEFirst, got 'P'");
  expect_error("<BufferSeparation>PDE</BufferSeparation>",
               "<BufferSeparation> must be PDECacheLine or SystemDefault");
  expect_error("<CompletionDepth>17</CompletionDepth>",
               "<CompletionDepth> must be a whole number from 1 to 16");
  expect_error("<Affinity><Group Group=\"0\"/></Affinity>",
               "<Group> inside <Affinity> needs the Group and Mask");
  expect_error("<Affinity><Group Group=\"0\" Mask=\"0xZ\"/></Affinity>",
               "<Group> attribute Mask must be a 64-bit CPU mask");
  expect_error("<Affinity><Group Group=\"0\" Mask=\"0x11112222333344445\"/>"
               "</Affinity>",
               "attribute Mask must be a 64-bit CPU mask");
  expect_error("<Affinity><Group Group=\"70000\" Mask=\"0x1\"/></Affinity>",
               "<Group> attribute Group must be a whole number from 0 to "
               "65535");
  expect_error("<Affinity><Group Group=\"0\" Mask=\"0x1\"/>"
               "<AffinityGroupAssignment Group=\"0\" Processor=\"1\"/>"
               "</Affinity>",
               "unknown element <AffinityGroupAssignment> inside <Affinity>; "
               "expected <Group>");
}

static void test_bypass_read_error(void** state) {
  (void)state;
  const char* doc =
      "<Profile><TimeSpans><TimeSpan><Targets><Target><Path>a</Path>"
      "<BypassIO>partial</BypassIO></Target></Targets></TimeSpan></TimeSpans>"
      "</Profile>";
  iospd_profile_t p;
  iospd_err_t err;
  iospd_profile_init(&p);
  assert_int_not_equal(iospd_xml_profile_parse(doc, strlen(doc), &p, &err), 0);
  assert_non_null(
      strstr(err.msg, "<BypassIO> must be Partial or Full, got 'partial'"));
  iospd_profile_destroy(&p);
}

/* The text lines at 2.3 (the rest of the layout: profiles23_test.sh). */
static void test_text_23(void** state) {
  (void)state;
  iospd_profile_t p;
  parse_ok(k_23, &p);
  p.ext.diskspd = IOSPD_DISKSPD_23;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_profile_text(&sb, &p);
  const char* x = iospd_strbuf_cstr(&sb);
  char want[1024];
  snprintf(want, sizeof want,
           "  timespan:   1\n"
           "  -------------\n"
           "    duration: 10s\n"
           "    warm up time: 5s\n"
           "    cool down time: 0s\n"
           "    random seed: 0\n"
           "    using %s (batch size: 12) without registered buffers\n"
           "    affinity assignment: core-aware, span groups, fill E-cores "
           "first\n"
           "    affinity (group/cpu): 1/0,2 0/*\n"
           "    buffer separation: system default\n"
           "    completion depth: 4\n"
           "    path: 'a.dat'\n"
           "      think time: 0ms\n"
           "      burst size: 0\n"
           "      software cache disabled\n"
           "      using hardware write cache, writethrough off\n"
           "      using BypassIO (full bypass)\n"
           "      performing read test\n",
           iospd_ring_label());
  if (strstr(x, want) == NULL) fail_msg("2.3 text:\n%s\nwant:\n%s", x, want);
  /* With -u the per-target I/O Completion Ports line is gone. */
  assert_null(strstr(x, "I/O Completion Ports"));
  iospd_strbuf_destroy(&sb);

  /* Thread-optimized separation: the size from the line and page. */
  p.timespans[0].buffer_separation = IOSPD_BUFSEP_LEVEL_DEFAULT;
  p.timespans[0].disable_affinity = true;
  p.timespans[0].affinity_count = 1;
  p.timespans[0].affinity[0].group = 0;
  p.timespans[0].affinity[0].cpu = 5;
  iospd_strbuf_init(&sb);
  iospd_report_profile_text(&sb, &p);
  x = iospd_strbuf_cstr(&sb);
  assert_non_null(strstr(x, "    random seed: 0\n"
                            "    using "));
  assert_non_null(strstr(x, "    affinity disabled\n"
                            "    affinity (cpu): 5\n"
                            "    buffer separation: thread optimized (16MiB)\n"));
  iospd_strbuf_destroy(&sb);
  iospd_cache_info_t caches[2] = {{1, IOSPD_CACHE_TYPE_DATA, 8, 64, 32768, 0, 1},
                                  {2, IOSPD_CACHE_TYPE_UNIFIED, 8, 128,
                                   1 << 20, 0, 1}};
  iospd_cpu_topology_t topo;
  memset(&topo, 0, sizeof topo);
  topo.caches = caches;
  topo.cache_count = 2;
  iospd_strbuf_init(&sb);
  iospd_report_profile_text_sys(&sb, &p, NULL, NULL, NULL, &topo, 4096);
  assert_non_null(strstr(iospd_strbuf_cstr(&sb),
                         "    buffer separation: thread optimized (32MiB)\n"));
  iospd_strbuf_destroy(&sb);

  /* At 2.2 none of it: tabs, 2.2's affinity line. */
  p.ext.diskspd = IOSPD_DISKSPD_22;
  iospd_strbuf_init(&sb);
  iospd_report_profile_text(&sb, &p);
  x = iospd_strbuf_cstr(&sb);
  assert_non_null(strstr(x, "\ttimespan:   1\n\t-------------\n\tduration: "
                            "10s\n\twarm up time: 5s\n\tcool down time: 0s\n"
                            "\taffinity disabled\n\trandom seed: 0\n"
                            "\tadvanced affinity round robin (group/core): "
                            "0/5\n\tpath: 'a.dat'\n"));
  static const char* const none22[] = {"IoRing", "io_uring (batch",
                                       "affinity assignment", "buffer separ",
                                       "completion depth", "BypassIO"};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(none22); i++)
    if (strstr(x, none22[i]) != NULL) fail_msg("2.2 text has %s", none22[i]);
  iospd_strbuf_destroy(&sb);
  iospd_profile_destroy(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_read_23_elements),
      cmocka_unit_test(test_write_both_levels),
      cmocka_unit_test(test_write_defaults_23),
      cmocka_unit_test(test_round_trip_and_equal),
      cmocka_unit_test(test_read_errors),
      cmocka_unit_test(test_bypass_read_error),
      cmocka_unit_test(test_text_23),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* --compare and the DISKSPD level (issue #25): runs whose results follow
 * different DISKSPD releases (system.tool.diskspd_version 2.2.x and 2.3.x,
 * iospd's --diskspd=) are flagged and, like runs of different profiles,
 * compared only with --force, which then says why in a NOTE; the same
 * release, a patch level or a run that does not say are no difference. */
#include "test_util.h"

#include "cJSON.h"
#include "iospd/compare.h"
#include "iospd/results_doc.h"

/* A result document of one timespan, one target, 4 KiB reads at 1000
 * IOPS, its tool element naming `version` (NULL: no diskspd_version). */
static cJSON* doc(const char* name, const char* version) {
  char tool[160] = "";
  if (version != NULL)
    snprintf(tool, sizeof tool,
             ", \"tool\": {\"name\": \"iospd\", \"version\": \"0.9.0\", "
             "\"diskspd_version\": \"%s\"}",
             version);
  char text[2048];
  snprintf(text, sizeof text,
           "{\"format\": \"iospd-results\", \"format_version\": 1,\n"
           " \"system\": {\"computer_name\": \"box\", \"run_time\": "
           "\"2026-12-01T20:00:00Z\"%s},\n"
           " \"environment\": {\"os_release\": \"6.1\"},\n"
           " \"profile\": {\"timespans\": [{\"duration_s\": 1, \"targets\": "
           "[{\"path\": \"t.dat\", \"block_size\": 4096}]}]},\n"
           " \"timespans\": [{\"index\": 0, \"measured\": true, "
           "\"test_time_seconds\": 1,\n"
           "  \"total\": {\"read\": {\"ios\": 1000, \"bytes\": 4096000, "
           "\"iops\": 1000, \"mib_per_s\": 3.90625, \"latency\": null}, "
           "\"write\": {\"ios\": 0, \"bytes\": 0, \"iops\": 0, \"mib_per_s\": "
           "0, \"latency\": null}, \"total\": {\"ios\": 1000, \"bytes\": "
           "4096000, \"iops\": 1000, \"mib_per_s\": 3.90625, \"latency\": "
           "null}}}]}\n",
           tool);
  cJSON* d = NULL;
  iospd_err_t err;
  int rc = iospd_results_doc_parse(name, text, strlen(text), "--compare", &d,
                                   &err);
  if (rc != 0) print_error("%s\n", err.msg);
  assert_int_equal(rc, 0);
  return d;
}

static int build(const char* va, const char* vb, bool force,
                 iospd_compare_t* c, iospd_err_t* err) {
  cJSON* docs[2] = {doc("a.json", va), doc("b.json", vb)};
  const char* names[2] = {"a.json", "b.json"};
  iospd_compare_opts_t opts = {force, false, "--compare"};
  int rc = iospd_compare_build((const cJSON* const*)docs, names, 2, &opts, c,
                               err);
  cJSON_Delete(docs[0]);
  cJSON_Delete(docs[1]);
  return rc;
}

static void test_levels_refused_without_force(void** state) {
  (void)state;
  iospd_compare_t c;
  iospd_err_t err;
  assert_int_equal(build("2.2.0", "2.3.0", false, &c, &err), IOSPD_EUSAGE);
  assert_string_equal(
      err.msg,
      "'b.json' (--compare) is a run of another profile than 'a.json': "
      "system.tool.diskspd_version is \"2.3.0\" in 'b.json' and \"2.2.0\" in "
      "'a.json'; compare them anyway with --force (then a changed setting "
      "may explain the differences)");
  iospd_compare_free(&c);
}

static void test_levels_flagged_with_force(void** state) {
  (void)state;
  iospd_compare_t c;
  iospd_err_t err;
  assert_int_equal(build("2.2.0", "2.3.0", true, &c, &err), 0);
  assert_true(c.levels_differ);
  assert_true(c.forced);
  assert_int_equal(c.n_fields, 1);
  assert_int_equal(c.fields[0].kind, IOSPD_CMP_SETTING);
  assert_string_equal(c.fields[0].path, "system.tool.diskspd_version");
  assert_string_equal(c.fields[0].values[0], "\"2.2.0\"");
  assert_string_equal(c.fields[0].values[1], "\"2.3.0\"");
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_compare_text(&c, &sb);
  const char* t = sb.data;
  assert_non_null(strstr(
      t, "NOTE: these runs follow different DISKSPD releases "
         "(system.tool.diskspd_version below):\n2.3 changed defaults "
         "(P-cores first, separated thread buffers), and its\nnotes say "
         "results need rebaselining; compare runs of one --diskspd= "
         "level.\n"));
  assert_non_null(strstr(t, "  ! setting      system.tool.diskspd_version: "
                            "\"2.2.0\" (run 1), \"2.3.0\" (run 2)\n"));
  iospd_strbuf_destroy(&sb);
  iospd_compare_free(&c);
}

/* The same release (whatever the patch level), or a run that does not
 * name one: no flag, no refusal; the differing tool fields (a patch level,
 * a tool object only one run has: name, version, diskspd_version) are
 * listed as the environment they are. */
static void test_same_level(void** state) {
  (void)state;
  static const struct {
    const char *a, *b;
    size_t fields;
  } cases[] = {{"2.3.0", "2.3.0", 0}, {"2.3.0", "2.3.1", 1},
               {NULL, "2.3.0", 3}, {NULL, NULL, 0}};
  for (size_t i = 0; i < 4; i++) {
    iospd_compare_t c;
    iospd_err_t err;
    assert_int_equal(build(cases[i].a, cases[i].b, false, &c, &err), 0);
    assert_false(c.levels_differ);
    assert_false(c.profiles_differ);
    assert_int_equal(c.n_fields, cases[i].fields);
    for (size_t f = 0; f < c.n_fields; f++)
      assert_int_equal(c.fields[f].kind, IOSPD_CMP_ENVIRONMENT);
    iospd_strbuf_t sb;
    iospd_strbuf_init(&sb);
    iospd_compare_text(&c, &sb);
    assert_null(strstr(sb.data, "different DISKSPD releases"));
    iospd_strbuf_destroy(&sb);
    iospd_compare_free(&c);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_levels_refused_without_force),
      cmocka_unit_test(test_levels_flagged_with_force),
      cmocka_unit_test(test_same_level),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

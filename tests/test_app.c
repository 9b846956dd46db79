/* SPDX-License-Identifier: MIT */
/* The application layer (src/app): which row of the sub-command table each
 * command line reaches, the list of files a run writes for the safety
 * checks, and --report end to end on the committed runs of
 * tests/data/compare (the page written, or refused with nothing written). */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/app.h"
#include "iospd/console.h"
#include "iospd/platform.h"

#define DATA IOSPD_TEST_DATA_DIR "/compare/"
#define OUT "app-test-report.html"

static const iospd_app_command_t* named(int argc, const char* a1,
                                        const char* a2) {
  const char* argv[] = {"iospd", a1, a2};
  return iospd_app_command_named(argc, argv);
}

static void test_commands_by_name(void** state) {
  (void)state;
  assert_int_equal(named(3, "--merge", "a.json")->action, IOSPD_ACTION_MERGE);
  assert_int_equal(named(2, "--merge", NULL)->action, IOSPD_ACTION_MERGE);
  assert_int_equal(named(3, "--compare", "a")->action, IOSPD_ACTION_COMPARE);
  assert_int_equal(named(3, "--report", "a")->action, IOSPD_ACTION_REPORT);
  assert_int_equal(named(2, "--ping", NULL)->action, IOSPD_ACTION_PING);
  assert_int_equal(named(3, "--ping=5", "t")->action, IOSPD_ACTION_PING);
  assert_int_equal(named(2, "--version", NULL)->action, IOSPD_ACTION_VERSION);
  /* Not a sub-command: DISKSPD's command line, parsed. */
  assert_null(named(3, "--version", "x")); /* --version takes nothing */
  assert_null(named(2, "--pingx", NULL));
  assert_null(named(2, "--merge=a", NULL));
  assert_null(named(2, "--help", NULL)); /* a switch, found by the parse */
  assert_null(named(3, "-b4k", "t.dat"));
  assert_null(named(1, NULL, NULL));
}

static void test_commands_by_action(void** state) {
  (void)state;
  size_t n = 0;
  const iospd_app_command_t* t = iospd_app_commands(&n);
  assert_int_equal(n, 10);
  /* Every action the parse answers has its own row, with an entry. */
  for (int a = IOSPD_ACTION_RUN; a <= IOSPD_ACTION_SYSTEM_INFO; a++) {
    const iospd_app_command_t* c =
        iospd_app_command((iospd_cmdline_action_t)a);
    assert_int_equal(c->action, a);
    assert_non_null(c->entry);
  }
  assert_null(iospd_app_command(IOSPD_ACTION_RUN)->name);
  /* -Rs is reached through the parse, like a run. */
  assert_null(iospd_app_command(IOSPD_ACTION_SYSTEM_INFO)->name);
  assert_int_equal(iospd_app_command(IOSPD_ACTION_SYSTEM_INFO)->args,
                   IOSPD_APP_ARGS_SWITCHES);
  assert_string_equal(iospd_app_command(IOSPD_ACTION_USAGE)->name, "--help");
  assert_int_equal(iospd_app_command(IOSPD_ACTION_REPORT)->args,
                   IOSPD_APP_ARGS_RESULTS_FILES);
  assert_int_equal(iospd_app_command(IOSPD_ACTION_COMPARE)->args,
                   IOSPD_APP_ARGS_RESULTS_FILES);
  /* Names are unique, and every named row is found by its name. */
  for (size_t i = 0; i < n; i++) {
    for (size_t k = i + 1; k < n; k++)
      if (t[i].name != NULL && t[k].name != NULL)
        assert_string_not_equal(t[i].name, t[k].name);
    if (t[i].name != NULL && t[i].args != IOSPD_APP_ARGS_SWITCHES)
      assert_ptr_equal(named(2, t[i].name, NULL), &t[i]);
  }
}

static void test_output_paths(void** state) {
  (void)state;
  iospd_profile_t p;
  iospd_profile_init(&p);
  static const iospd_result_format_t f[] = {IOSPD_FORMAT_JSON,
                                            IOSPD_FORMAT_HTML,
                                            IOSPD_FORMAT_TEXT,
                                            IOSPD_FORMAT_XML};
  static const char* const path[] = {"r.json", "C:\\r\\r.html", "r.txt",
                                     "r.xml"};
  p.ext.outputs = iospd_calloc(4, sizeof *p.ext.outputs);
  assert_non_null(p.ext.outputs);
  for (int i = 0; i < 4; i++) {
    p.ext.outputs[i].format = f[i];
    p.ext.outputs[i].path = iospd_strdup(path[i]);
  }
  p.ext.output_count = 4;
  p.ext.timeseries_path = iospd_strdup("t.jsonl");
  iospd_out_path_t list[5];
  memset(list, 0, sizeof list);
  assert_int_equal(iospd_app_output_paths(&p, list), 5);
  static const char* const want[] = {
      "--output=json:r.json", "--output=html:C:\\r\\r.html",
      "--output=text:r.txt", "--output=xml:r.xml", "--timeseries=t.jsonl"};
  for (int i = 0; i < 5; i++) {
    assert_string_equal(list[i].option, want[i]);
    assert_string_equal(list[i].path, i < 4 ? path[i] : "t.jsonl");
    iospd_free((char*)list[i].option);
  }
  iospd_profile_destroy(&p);
}

/* The bytes of path (NULL when it does not exist); free with iospd_free. */
static char* slurp(const char* path, size_t* len) {
  char* data = NULL;
  iospd_err_t err;
  iospd_err_clear(&err);
  if (iospd_app_read_whole_file(path, &data, len, &err) < 0) return NULL;
  return data;
}

static int report(int n, const char* a0, const char* a1, const char* a2,
                  const char* a3) {
  const char* args[] = {a0, a1, a2, a3};
  return iospd_app_report_files(n, args);
}

static void test_report_writes_the_page(void** state) {
  (void)state;
  remove(OUT);
  assert_int_equal(report(3, DATA "run1.json", DATA "run1.jsonl",
                          "--output=html:" OUT, NULL),
                   IOSPD_EXIT_OK);
  size_t len = 0;
  char* page = slurp(OUT, &len);
  assert_non_null(page);
  assert_true(len > 1000);
  assert_memory_equal(page, "<!DOCTYPE html>\n", 16);
  /* The run's time series was taken with its run. */
  assert_non_null(strstr(page, "run1.jsonl"));
  iospd_free(page);
  /* Switches anywhere; the .jsonl joins the last run across them. */
  remove(OUT);
  assert_int_equal(report(4, DATA "run2.json", "--output=html:" OUT,
                          DATA "run2.jsonl", "--force"),
                   IOSPD_EXIT_OK);
  page = slurp(OUT, &len);
  assert_non_null(page);
  assert_non_null(strstr(page, "run2.jsonl"));
  iospd_free(page);
  remove(OUT);
}

static void test_report_refusals_write_nothing(void** state) {
  (void)state;
  size_t len = 0;
  remove(OUT);
  /* A time series with no run before it. */
  assert_int_equal(report(2, DATA "run1.jsonl", "--output=html:" OUT, NULL,
                          NULL),
                   IOSPD_EXIT_BAD_INPUT);
  /* Only HTML; one output; a file to write; at least one run. */
  assert_int_equal(report(2, DATA "run1.json", "--output=xml:" OUT, NULL,
                          NULL),
                   IOSPD_EXIT_BAD_INPUT);
  assert_int_equal(report(3, DATA "run1.json", "--output=html:" OUT,
                          "--output=html:b.html", NULL),
                   IOSPD_EXIT_BAD_INPUT);
  assert_int_equal(report(1, DATA "run1.json", NULL, NULL, NULL),
                   IOSPD_EXIT_BAD_INPUT);
  assert_int_equal(report(1, "--output=html:" OUT, NULL, NULL, NULL),
                   IOSPD_EXIT_BAD_INPUT);
  assert_int_equal(report(2, DATA "run1.json", "--forse", NULL, NULL),
                   IOSPD_EXIT_BAD_INPUT);
  /* An input that cannot be read ("-" is a file name here). */
  assert_int_equal(report(2, "-", "--output=html:" OUT, NULL, NULL),
                   IOSPD_EXIT_BAD_INPUT);
  assert_null(slurp(OUT, &len));
  /* The report never replaces one of its inputs. */
  FILE* f = fopen("app-test-input.jsonl", "wb");
  assert_non_null(f);
  fputs("{}\n", f);
  fclose(f);
  assert_int_equal(report(3, DATA "run1.json", "app-test-input.jsonl",
                          "--output=html:app-test-input.jsonl", NULL),
                   IOSPD_EXIT_BAD_INPUT);
  char* kept = slurp("app-test-input.jsonl", &len);
  assert_non_null(kept);
  assert_int_equal(len, 3);
  assert_memory_equal(kept, "{}\n", 3);
  iospd_free(kept);
  remove("app-test-input.jsonl");
}

int main(void) {
  iospd_sysinfo_t sys;
  iospd_err_t err;
  iospd_err_clear(&err);
  if (iospd_plat_init(&sys, &err) < 0) {
    printf("platform init failed: %s\n", err.msg);
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_commands_by_name),
      cmocka_unit_test(test_commands_by_action),
      cmocka_unit_test(test_output_paths),
      cmocka_unit_test(test_report_writes_the_page),
      cmocka_unit_test(test_report_refusals_write_nothing),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  iospd_plat_shutdown();
  return rc;
}

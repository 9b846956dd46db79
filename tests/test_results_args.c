/* SPDX-License-Identifier: MIT */
/* The results-files grammar of --compare and --report (results_args.c):
 * the class of each argument in turn under each mode's row, and which run a
 * .jsonl joins. */
#include "test_util.h"

#include "iospd/results_args.h"

static const iospd_results_grammar_t compare_g = {true, true};
static const iospd_results_grammar_t report_g = {false, false};

/* Classifies argv[0..n) and checks each class and the run count after. */
static void expect(const iospd_results_grammar_t* g, const char* const* argv,
                   const iospd_results_arg_t* kinds, size_t n, size_t runs) {
  iospd_results_args_t st;
  iospd_results_args_init(&st, g);
  for (size_t i = 0; i < n; i++) {
    iospd_results_arg_t k = iospd_results_args_next(&st, argv[i]);
    if (k != kinds[i])
      fail_msg("argument %zu ('%s'): class %d, expected %d", i, argv[i], k,
               kinds[i]);
  }
  assert_int_equal(st.runs, runs);
}

#define R IOSPD_RARG_RESULTS
#define S IOSPD_RARG_SERIES
#define F IOSPD_RARG_FORCE
#define W IOSPD_RARG_SWITCH
#define A IOSPD_RARG_SERIES_ALONE

static void test_series_names(void** state) {
  (void)state;
  assert_true(iospd_results_is_series("a.jsonl"));
  assert_true(iospd_results_is_series("A.JSONL"));
  assert_true(iospd_results_is_series(".jsonl"));
  assert_false(iospd_results_is_series("a.json"));
  assert_false(iospd_results_is_series("jsonl"));
  assert_false(iospd_results_is_series("a.jsonl.bak"));
  assert_false(iospd_results_is_series("a\x0ejsonl")); /* not a '.' */
}

static void test_both_modes_agree(void** state) {
  (void)state;
  /* The plain grammar reads the same under either row. */
  const char* argv[] = {"a.json", "a.jsonl", "b.json", "--force", "c.json",
                        "c.JSONL"};
  const iospd_results_arg_t kinds[] = {R, S, R, F, R, S};
  expect(&compare_g, argv, kinds, 6, 3);
  expect(&report_g, argv, kinds, 6, 3);
  /* A .jsonl first belongs to no run; a second .jsonl of one run neither. */
  const char* lone[] = {"a.jsonl", "a.json", "a.jsonl", "b.jsonl"};
  const iospd_results_arg_t lone_k[] = {A, R, S, A};
  expect(&compare_g, lone, lone_k, 4, 1);
  expect(&report_g, lone, lone_k, 4, 1);
  /* "--" starts a switch in both; the mode takes or refuses it. */
  const char* sw[] = {"--output=html:r.html", "a.json", "--forse"};
  const iospd_results_arg_t sw_k[] = {W, R, W};
  expect(&compare_g, sw, sw_k, 3, 1);
  expect(&report_g, sw, sw_k, 3, 1);
}

static void test_rows_differ(void** state) {
  (void)state;
  /* "-": refused by --compare, a file name (that cannot be read) for
   * --report. */
  const char* dash[] = {"-", "a.json"};
  const iospd_results_arg_t c_dash[] = {W, R}, r_dash[] = {R, R};
  expect(&compare_g, dash, c_dash, 2, 1);
  expect(&report_g, dash, r_dash, 2, 2);
  /* A switch between a run and its .jsonl: --compare wants them side by
   * side, --report gives the series to the last run. */
  const char* apart[] = {"a.json", "--force", "a.jsonl"};
  const iospd_results_arg_t c_apart[] = {R, F, A}, r_apart[] = {R, F, S};
  expect(&compare_g, apart, c_apart, 3, 1);
  expect(&report_g, apart, r_apart, 3, 1);
  const char* out[] = {"a.json", "--output=html:r.html", "a.jsonl"};
  const iospd_results_arg_t r_out[] = {R, W, S};
  expect(&report_g, out, r_out, 3, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_series_names),
      cmocka_unit_test(test_both_modes_agree),
      cmocka_unit_test(test_rows_differ),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

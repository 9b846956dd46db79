/* SPDX-License-Identifier: MIT */
/* The 32-bit iospd on a host with more than 32 logical processors in a
 * processor group (src/win/wow64.c, issue #26): the decision as a table,
 * then this process's own check under wine (two groups of at most 64 and
 * 32 here, so it passes in both builds, and the topology query that
 * calls it still works). Before the fix nothing refused: the table's
 * refusals did not exist and an x86 run on a 48-CPU group pinned and
 * measured folded masks. */
#include "test_util.h"

#include "win/internal.h"

static void table(void** state) {
  (void)state;
  static const struct {
    unsigned bits;
    uint32_t n;
    uint32_t active[4];
    int want; /* 0 fits, else group + 1 */
  } rows[] = {
      {32, 1, {2}, 0},
      {32, 1, {32}, 0},
      {32, 1, {33}, 1},
      {32, 1, {64}, 1},
      {32, 2, {32, 32}, 0},
      {32, 2, {32, 40}, 2},
      {32, 3, {16, 16, 48}, 3},
      {64, 1, {64}, 0},
      {64, 4, {64, 64, 64, 64}, 0},
      {64, 1, {65}, 1}, /* no such group exists; the rule still holds */
      {32, 0, {0}, 0},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char why[512] = "";
    int got = iospd_win_masks_fit(rows[i].bits, rows[i].n, rows[i].active,
                                  why, sizeof why);
    print_message("row %u: %d %s\n", (unsigned)i, got, why);
    assert_int_equal(got, rows[i].want);
    if (rows[i].want == 0) assert_string_equal(why, "");
  }
  char why[512];
  const uint32_t two[] = {32, 40};
  assert_int_equal(iospd_win_masks_fit(32, 2, two, why, sizeof why), 2);
  assert_string_equal(
      why,
      "this is the 32-bit iospd, and processor group 1 of this host has 40 "
      "logical processors: the 32-bit Windows API addresses only 32 per "
      "group (WoW64 folds the others onto them), so the processor "
      "topology, -a pinning and the CPU usage would be wrong; run the "
      "64-bit iospd (x64 or arm64) on this host");
  /* A message buffer is optional. */
  assert_int_equal(iospd_win_masks_fit(32, 2, two, NULL, 0), 2);
}

static void this_host(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_err_clear(&err);
  DWORD all = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
  unsigned bits = (unsigned)(sizeof(KAFFINITY) * 8);
  print_message("%u-bit masks, %lu active processors\n", bits,
                (unsigned long)all);
  int rc = iospd_win_masks_check(&err);
  if (GetActiveProcessorGroupCount() == 1 && all <= bits) {
    assert_int_equal(rc, 0);
    iospd_cpu_topology_t t;
    assert_int_equal(iospd_plat_cpu_topology(&t, &err), 0);
    assert_int_equal(t.cpu_count, all);
    iospd_plat_cpu_topology_free(&t);
  } else {
    print_message("rc %d: %s\n", rc, err.msg);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(table),
      cmocka_unit_test(this_host),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

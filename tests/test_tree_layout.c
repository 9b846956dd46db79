/* SPDX-License-Identifier: MIT */
/* The --tree layout (src/tree/tree_layout.c) against docs/tree.md: the hot
 * file count, the placement of each --assign, the generated directory
 * names and the leaves, in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "iospd/alloc.h"
#include "iospd/rand.h"
#include "iospd/tree.h"

static void hot_files(void** state) {
  (void)state;
  assert_int_equal(iospd_tree_hot_files(1000, 7, 1), 125); /* 1000/8 */
  assert_int_equal(iospd_tree_hot_files(200, 3, 1), 50);
  assert_int_equal(iospd_tree_hot_files(10, 7, 1), 1);   /* 1.25 -> 1 */
  assert_int_equal(iospd_tree_hot_files(12, 7, 1), 2);   /* 1.5 -> 2 */
  assert_int_equal(iospd_tree_hot_files(3, 1, 1), 2);    /* 1.5 -> 2 */
  assert_int_equal(iospd_tree_hot_files(5, 1, 100), 4);  /* at most N-1 */
  assert_int_equal(iospd_tree_hot_files(1, 7, 1), 1);    /* the only file */
  assert_int_equal(iospd_tree_hot_files(4, 1000000, 1), 1); /* at least 1 */
}

static void assign_even_ordered(void** state) {
  (void)state;
  uint32_t home[10];
  assert_int_equal(iospd_tree_assign(10, 4, IOSPD_ASSIGN_EVEN, 0, home), 0);
  const uint32_t even[10] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1};
  assert_memory_equal(home, even, sizeof even);
  assert_int_equal(iospd_tree_assign(10, 4, IOSPD_ASSIGN_ORDERED, 0, home), 0);
  const uint32_t ordered[10] = {0, 0, 0, 1, 1, 2, 2, 2, 3, 3};
  assert_memory_equal(home, ordered, sizeof ordered);
}

static void assign_random(void** state) {
  (void)state;
  enum { N = 100, M = 7 };
  uint32_t a[N], b[N], c[N];
  assert_int_equal(iospd_tree_assign(N, M, IOSPD_ASSIGN_RANDOM, 42, a), 0);
  assert_int_equal(iospd_tree_assign(N, M, IOSPD_ASSIGN_RANDOM, 42, b), 0);
  assert_int_equal(iospd_tree_assign(N, M, IOSPD_ASSIGN_RANDOM, 43, c), 0);
  assert_memory_equal(a, b, sizeof a);           /* the seed decides */
  assert_memory_not_equal(a, c, sizeof a);
  /* The counts of even: 15 in leaves 0 and 1, 14 in the others. */
  uint32_t count[M] = {0};
  for (int i = 0; i < N; i++) count[a[i]]++;
  for (int k = 0; k < M; k++) assert_int_equal(count[k], k < 2 ? 15 : 14);
  /* The documented shuffle, redone here: order by Fisher-Yates, then the
   * k-th file of the order goes to leaf k mod M. */
  uint32_t order[N];
  iospd_rand_t r;
  iospd_rand_seed(&r, 42);
  for (uint32_t i = 0; i < N; i++) order[i] = i;
  for (uint32_t i = N - 1; i > 0; i--) {
    uint32_t j = (uint32_t)(iospd_rand64(&r) % (i + 1));
    uint32_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (uint32_t k = 0; k < N; k++) assert_int_equal(a[order[k]], k % M);
}

static void layout_paths(void** state) {
  (void)state;
  iospd_tree_opts_t o;
  iospd_tree_opts_init(&o);
  char dirs[] = "x,y/";
  o.dirs = dirs;
  o.files = 9;
  o.depth = 2;
  o.width = 2;
  iospd_tree_layout_t l;
  assert_int_equal(iospd_tree_layout_init(&l, &o, 0, NULL), 0);
  assert_int_equal(l.dir_count, 2);
  assert_string_equal(l.dirs[1], "y"); /* the trailing '/' dropped */
  assert_int_equal(l.node_count, 12);  /* (2 + 4) per directory */
  assert_string_equal(l.nodes[0], "x/d0");
  assert_string_equal(l.nodes[1], "x/d1");
  assert_string_equal(l.nodes[2], "x/d0/d0");
  assert_string_equal(l.nodes[5], "x/d1/d1");
  assert_string_equal(l.nodes[6], "y/d0");
  assert_int_equal(l.leaf_count, 8);
  assert_string_equal(l.leaves[0], "x/d0/d0");
  assert_string_equal(l.leaves[3], "x/d1/d1");
  assert_string_equal(l.leaves[4], "y/d0/d0");
  assert_string_equal(l.leaves[7], "y/d1/d1");
  assert_int_equal(l.home[8], 0);
  assert_int_equal(l.hot_files, 1);
  char p[IOSPD_TREE_PATH_MAX];
  iospd_tree_file_path(p, sizeof p, l.leaves[l.home[5]], 5);
  assert_string_equal(p, "y/d0/d1/f00000005.dat");
  iospd_tree_layout_free(&l);

  o.depth = 0;
  assert_int_equal(iospd_tree_layout_init(&l, &o, 0, NULL), 0);
  assert_int_equal(l.leaf_count, 2);
  assert_int_equal(l.node_count, 0);
  assert_string_equal(l.leaves[1], "y");
  iospd_tree_layout_free(&l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hot_files),
      cmocka_unit_test(assign_even_ordered),
      cmocka_unit_test(assign_random),
      cmocka_unit_test(layout_paths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

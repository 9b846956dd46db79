/* SPDX-License-Identifier: MIT */
/* The Linux topology reader on fake sysfs trees (tests/data/sysfs-*, made
 * by tests/data/make_sysfs_trees.py): CPUs, cores, SMT siblings,
 * efficiency classes, caches and the processor name of a hybrid laptop, an
 * Arm big.LITTLE board and a 2-socket SMT server; then DISKSPD's affinity
 * orders (src/run/affinity.c) on those machines, as tables of CPUs. */
#include <string.h>

#include "iospd/affinity.h"
#include "posix/internal.h"
#include "run/run_internal.h"
#include "test_util.h"

static void load(const char* name, iospd_cpu_topology_t* t) {
  char root[1024];
  snprintf(root, sizeof root, "%s/sysfs-%s", IOSPD_TEST_DATA_DIR, name);
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_int_equal(iospd_posix_cpu_topology_at(root, t, &err), 0);
}

static void expect_cache(const iospd_cpu_topology_t* t, uint32_t i,
                         unsigned level, unsigned type, uint32_t size,
                         unsigned assoc, uint64_t mask) {
  assert_true(i < t->cache_count);
  const iospd_cache_info_t* c = &t->caches[i];
  if (c->level != level || c->type != type || c->size != size ||
      c->associativity != assoc || c->mask != mask)
    print_message("cache %u: L%u type %u size %u ways %u mask %#llx\n", i,
                  c->level, c->type, c->size, c->associativity,
                  (unsigned long long)c->mask);
  assert_int_equal(c->level, level);
  assert_int_equal(c->type, type);
  assert_int_equal(c->size, size);
  assert_int_equal(c->line_size, 64);
  assert_int_equal(c->associativity, assoc);
  assert_int_equal(c->group, 0);
  assert_int_equal(c->mask, mask);
}

static void test_hybrid_laptop(void** state) {
  (void)state;
  iospd_cpu_topology_t t;
  load("hybrid", &t);
  assert_int_equal(t.cpu_count, 24);
  assert_int_equal(t.core_count, 16);
  assert_int_equal(t.socket_count, 1);
  assert_int_equal(t.node_count, 1);
  assert_int_equal(t.group_count, 1);
  assert_true(t.heterogeneous);
  assert_true(t.smt);
  assert_string_equal(t.processor_name,
                      "13th Gen Intel(R) Core(TM) i7-13700HX");
  for (uint32_t c = 0; c < 24; c++) {
    assert_true(t.cpus[c].active); /* a fake tree ignores our CPU set */
    assert_int_equal(t.cpus[c].efficiency_class, c < 16 ? 1 : 0);
    assert_int_equal(t.cpus[c].core, c < 16 ? c / 2 : c - 8);
  }
  /* 8 P-cores x (L1d, L1i, L2) + the L3 + 8 E-cores x (L1d, L1i) + 2 L2
   * clusters, in CPU then index order. */
  assert_int_equal(t.cache_count, 43);
  expect_cache(&t, 0, 1, IOSPD_CACHE_TYPE_DATA, 48 << 10, 12, 0x3);
  expect_cache(&t, 1, 1, IOSPD_CACHE_TYPE_INSTRUCTION, 32 << 10, 8, 0x3);
  expect_cache(&t, 2, 2, IOSPD_CACHE_TYPE_UNIFIED, 2 << 20, 16, 0x3);
  expect_cache(&t, 3, 3, IOSPD_CACHE_TYPE_UNIFIED, 30 << 20, 12, 0xFFFFFF);
  expect_cache(&t, 4, 1, IOSPD_CACHE_TYPE_DATA, 48 << 10, 12, 0xC);
  expect_cache(&t, 25, 1, IOSPD_CACHE_TYPE_DATA, 32 << 10, 8, 1u << 16);
  expect_cache(&t, 26, 1, IOSPD_CACHE_TYPE_INSTRUCTION, 64 << 10, 8, 1u << 16);
  expect_cache(&t, 27, 2, IOSPD_CACHE_TYPE_UNIFIED, 4 << 20, 16, 0xF0000);
  expect_cache(&t, 36, 2, IOSPD_CACHE_TYPE_UNIFIED, 4 << 20, 16, 0xF00000);
  expect_cache(&t, 42, 1, IOSPD_CACHE_TYPE_INSTRUCTION, 64 << 10, 8, 1u << 23);
  iospd_plat_cpu_topology_free(&t);
}

static void test_arm_big_little(void** state) {
  (void)state;
  iospd_cpu_topology_t t;
  load("arm", &t);
  assert_int_equal(t.cpu_count, 8);
  /* core_id repeats per cluster: core_cpus_list tells the cores apart. */
  assert_int_equal(t.core_count, 8);
  assert_false(t.smt);
  assert_true(t.heterogeneous);
  for (uint32_t c = 0; c < 8; c++)
    assert_int_equal(t.cpus[c].efficiency_class, c < 4 ? 0 : 1);
  assert_string_equal(t.processor_name, "ARM part 0xd05 r2p0");
  assert_int_equal(t.cache_count, 25);
  expect_cache(&t, 0, 1, IOSPD_CACHE_TYPE_DATA, 32 << 10, 4, 0x1);
  expect_cache(&t, 2, 2, IOSPD_CACHE_TYPE_UNIFIED, 128 << 10, 4, 0x1);
  /* No ways_of_associativity file: 0, unknown. */
  expect_cache(&t, 3, 3, IOSPD_CACHE_TYPE_UNIFIED, 3 << 20, 0, 0xFF);
  expect_cache(&t, 13, 1, IOSPD_CACHE_TYPE_DATA, 64 << 10, 4, 0x10);
  expect_cache(&t, 15, 2, IOSPD_CACHE_TYPE_UNIFIED, 512 << 10, 8, 0x10);
  iospd_plat_cpu_topology_free(&t);
}

static void test_two_socket_server(void** state) {
  (void)state;
  iospd_cpu_topology_t t;
  load("server", &t);
  assert_int_equal(t.cpu_count, 16);
  assert_int_equal(t.core_count, 8);
  assert_int_equal(t.socket_count, 2);
  assert_int_equal(t.node_count, 2);
  assert_true(t.smt);
  assert_false(t.heterogeneous);
  assert_string_equal(t.processor_name,
                      "Intel(R) Xeon(R) CPU E5-2623 v4 @ 2.60GHz");
  for (uint32_t c = 0; c < 16; c++) {
    assert_int_equal(t.cpus[c].core, c % 8);
    assert_int_equal(t.cpus[c].socket, (c / 4) % 2);
    assert_int_equal(t.cpus[c].node, (c / 4) % 2);
  }
  assert_int_equal(t.core_masks[0].mask, 0x101);
  assert_int_equal(t.socket_masks[1].mask, 0xF0F0);
  assert_int_equal(t.cache_count, 26);
  expect_cache(&t, 0, 1, IOSPD_CACHE_TYPE_DATA, 32 << 10, 8, 0x101);
  expect_cache(&t, 3, 3, IOSPD_CACHE_TYPE_UNIFIED, 10 << 20, 20, 0x0F0F);
  expect_cache(&t, 15, 2, IOSPD_CACHE_TYPE_UNIFIED, 256 << 10, 8, 0x1010);
  expect_cache(&t, 16, 3, IOSPD_CACHE_TYPE_UNIFIED, 10 << 20, 20, 0xF0F0);
  iospd_plat_cpu_topology_free(&t);
}

/* ---- affinity orders --------------------------------------------------- */

/* The order as a string of "g/c" (group 0: just "c"), comma separated. */
static void order_text(const iospd_timespan_t* ts,
                       const iospd_cpu_topology_t* t,
                       iospd_diskspd_level_t level, char* out, size_t size) {
  iospd_thread_opts_t o[64];
  assert_true(iospd_affinity_order_max(ts, t) <= 64);
  uint32_t n = iospd_affinity_order(ts, t, level, o);
  size_t len = 0;
  out[0] = '\0';
  for (uint32_t i = 0; i < n; i++) {
    assert_true(o[i].pin);
    if (o[i].group)
      len += (size_t)snprintf(out + len, size - len, "%s%u/%u", i ? "," : "",
                              o[i].group, o[i].cpu);
    else
      len += (size_t)snprintf(out + len, size - len, "%s%u", i ? "," : "",
                              o[i].cpu);
  }
}

typedef struct order_case_s {
  const char* machine;
  iospd_diskspd_level_t level;
  bool core_aware, span;
  iospd_aff_efficiency_t eff;
  const char* list; /* "3,1" explicit CPUs of group 0, "g" whole group 0 */
  const char* want;
} order_case_t;

static const order_case_t kOrders[] = {
    /* The hybrid laptop: P-cores 0-15 (SMT pairs), E-cores 16-23. */
    {"hybrid", IOSPD_DISKSPD_22, false, false, IOSPD_AFF_P_FIRST, NULL,
     "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23"},
    {"hybrid", IOSPD_DISKSPD_23, false, false, IOSPD_AFF_P_FIRST, NULL,
     "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23"},
    {"hybrid", IOSPD_DISKSPD_23, false, false, IOSPD_AFF_E_FIRST, NULL,
     "16,17,18,19,20,21,22,23,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"},
    {"hybrid", IOSPD_DISKSPD_23, true, false, IOSPD_AFF_P_FIRST, NULL,
     "0,2,4,6,8,10,12,14,16,17,18,19,20,21,22,23,1,3,5,7,9,11,13,15"},
    {"hybrid", IOSPD_DISKSPD_23, true, false, IOSPD_AFF_FILL_P_FIRST, NULL,
     "0,2,4,6,8,10,12,14,1,3,5,7,9,11,13,15,16,17,18,19,20,21,22,23"},
    {"hybrid", IOSPD_DISKSPD_23, true, false, IOSPD_AFF_E_FIRST, NULL,
     "16,17,18,19,20,21,22,23,0,2,4,6,8,10,12,14,1,3,5,7,9,11,13,15"},
    {"hybrid", IOSPD_DISKSPD_23, true, false, IOSPD_AFF_FILL_E_FIRST, NULL,
     "16,17,18,19,20,21,22,23,0,2,4,6,8,10,12,14,1,3,5,7,9,11,13,15"},
    {"hybrid", IOSPD_DISKSPD_23, true, false, IOSPD_AFF_UNORDERED, NULL,
     "0,2,4,6,8,10,12,14,16,17,18,19,20,21,22,23,1,3,5,7,9,11,13,15"},
    {"hybrid", IOSPD_DISKSPD_23, false, false, IOSPD_AFF_E_FIRST, "20,3,17",
     "17,20,3"},
    /* The Arm board: little 0-3 (class 0), big 4-7 (class 1). 2.3's
     * default puts the big cores first: the rebaselining its notes warn
     * about. */
    {"arm", IOSPD_DISKSPD_22, false, false, IOSPD_AFF_P_FIRST, NULL,
     "0,1,2,3,4,5,6,7"},
    {"arm", IOSPD_DISKSPD_23, false, false, IOSPD_AFF_P_FIRST, NULL,
     "4,5,6,7,0,1,2,3"},
    {"arm", IOSPD_DISKSPD_23, false, false, IOSPD_AFF_UNORDERED, NULL,
     "0,1,2,3,4,5,6,7"},
    {"arm", IOSPD_DISKSPD_23, false, false, IOSPD_AFF_E_FIRST, NULL,
     "0,1,2,3,4,5,6,7"},
    {"arm", IOSPD_DISKSPD_23, true, false, IOSPD_AFF_FILL_P_FIRST, NULL,
     "4,5,6,7,0,1,2,3"},
    {"arm", IOSPD_DISKSPD_23, false, false, IOSPD_AFF_P_FIRST, "g",
     "4,5,6,7,0,1,2,3"},
    {"arm", IOSPD_DISKSPD_22, false, false, IOSPD_AFF_P_FIRST, "3,1,3",
     "3,1,3"},
    {"arm", IOSPD_DISKSPD_23, false, false, IOSPD_AFF_P_FIRST, "3,1,5",
     "5,1,3"},
    /* The server: siblings of 0-7 are 8-15, so core-aware changes nothing;
     * one group, so span neither. */
    {"server", IOSPD_DISKSPD_23, true, true, IOSPD_AFF_P_FIRST, NULL,
     "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"},
    {"server", IOSPD_DISKSPD_23, false, false, IOSPD_AFF_P_FIRST, "9,8,1,0",
     "0,1,8,9"},
    {"server", IOSPD_DISKSPD_23, true, false, IOSPD_AFF_P_FIRST, "9,8,1,0",
     "0,1,8,9"},
};

static void set_list(iospd_timespan_t* ts, const char* list,
                     iospd_affinity_t* buf) {
  ts->affinity = NULL;
  ts->affinity_count = 0;
  if (list == NULL) return;
  ts->affinity = buf;
  if (strcmp(list, "g") == 0) {
    buf[ts->affinity_count++] = (iospd_affinity_t){0, IOSPD_AFFINITY_WHOLE_GROUP};
    return;
  }
  for (const char* p = list; *p;) {
    char* end;
    buf[ts->affinity_count++] =
        (iospd_affinity_t){0, (uint16_t)strtoul(p, &end, 10)};
    p = *end == ',' ? end + 1 : end;
  }
}

static void test_affinity_orders(void** state) {
  (void)state;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(kOrders); i++) {
    const order_case_t* c = &kOrders[i];
    iospd_cpu_topology_t t;
    load(c->machine, &t);
    iospd_timespan_t ts;
    memset(&ts, 0, sizeof ts);
    iospd_affinity_t list[16];
    set_list(&ts, c->list, list);
    ts.affinity_core_aware = c->core_aware;
    ts.affinity_span_groups = c->span;
    ts.affinity_efficiency = c->eff;
    char got[512];
    order_text(&ts, &t, c->level, got, sizeof got);
    if (strcmp(got, c->want) != 0)
      fail_msg("case %zu (%s): got %s, want %s", i, c->machine, got, c->want);
    iospd_err_t err;
    iospd_err_clear(&err);
    assert_int_equal(iospd_run_check_affinity(&ts, &t, &err), 0);
    iospd_plat_cpu_topology_free(&t);
  }
}

/* Two groups of four CPUs (a Windows machine with more than 64 CPUs has
 * several; Linux has one per 64). */
static void two_groups(iospd_cpu_topology_t* t, iospd_cpu_info_t* cpus,
                       iospd_group_info_t* groups) {
  memset(t, 0, sizeof *t);
  for (uint32_t i = 0; i < 8; i++)
    cpus[i] = (iospd_cpu_info_t){(uint16_t)(i / 4), (uint16_t)(i % 4), i, 0, 0,
                                 0, true};
  for (uint32_t g = 0; g < 2; g++)
    groups[g] = (iospd_group_info_t){4, 4, 0xF};
  t->cpus = cpus;
  t->cpu_count = 8;
  t->groups = groups;
  t->group_count = 2;
}

static void test_affinity_groups(void** state) {
  (void)state;
  iospd_cpu_topology_t t;
  iospd_cpu_info_t cpus[8];
  iospd_group_info_t groups[2];
  two_groups(&t, cpus, groups);
  iospd_timespan_t ts;
  memset(&ts, 0, sizeof ts);
  char got[256];
  order_text(&ts, &t, IOSPD_DISKSPD_23, got, sizeof got);
  assert_string_equal(got, "0,1,2,3,1/0,1/1,1/2,1/3");
  ts.affinity_span_groups = true;
  order_text(&ts, &t, IOSPD_DISKSPD_23, got, sizeof got);
  assert_string_equal(got, "0,1/0,1,1/1,2,1/2,3,1/3");
  /* -ag1 -ag0: whole groups, in the order given; span interleaves them. */
  iospd_affinity_t list[2] = {{1, IOSPD_AFFINITY_WHOLE_GROUP},
                              {0, IOSPD_AFFINITY_WHOLE_GROUP}};
  ts.affinity = list;
  ts.affinity_count = 2;
  order_text(&ts, &t, IOSPD_DISKSPD_23, got, sizeof got);
  assert_string_equal(got, "1/0,0,1/1,1,1/2,2,1/3,3");
  ts.affinity_span_groups = false;
  order_text(&ts, &t, IOSPD_DISKSPD_23, got, sizeof got);
  assert_string_equal(got, "1/0,1/1,1/2,1/3,0,1,2,3");
  /* Threads 0-4 of that order use all of group 1 and CPU 0 of group 0. */
  uint64_t masks[2];
  assert_true(iospd_affinity_effective(&ts, &t, IOSPD_DISKSPD_23, 5, masks));
  assert_int_equal(masks[0], 0x1);
  assert_int_equal(masks[1], 0xF);
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_int_equal(iospd_run_check_affinity(&ts, &t, &err), 0);
  list[0].group = 2;
  assert_int_equal(iospd_run_check_affinity(&ts, &t, &err), IOSPD_EINVAL);
  assert_string_equal(err.msg,
                      "affinity (-ag2): group 2 does not exist: this system "
                      "has 2 processor group(s)");
  /* -n: nothing pinned, no effective affinity. */
  ts.disable_affinity = true;
  iospd_thread_opts_t o[16];
  assert_int_equal(iospd_affinity_order(&ts, &t, IOSPD_DISKSPD_23, o), 0);
  assert_false(iospd_affinity_effective(&ts, &t, IOSPD_DISKSPD_23, 5, masks));
  assert_false(iospd_run_affinity_at(&ts, &t, IOSPD_DISKSPD_23, 0).pin);
}

static void test_affinity_threads(void** state) {
  (void)state;
  iospd_cpu_topology_t t;
  load("arm", &t);
  iospd_timespan_t ts;
  memset(&ts, 0, sizeof ts);
  /* Thread i takes entry i % 8: thread 9 of the 2.3 order is CPU 5. */
  assert_int_equal(iospd_run_affinity_at(&ts, &t, IOSPD_DISKSPD_23, 9).cpu, 5);
  assert_int_equal(iospd_run_affinity_at(&ts, &t, IOSPD_DISKSPD_22, 9).cpu, 1);
  assert_int_equal(iospd_run_affinity(&ts, &t, 9).cpu, 1);
  uint64_t mask;
  assert_true(iospd_affinity_effective(&ts, &t, IOSPD_DISKSPD_23, 2, &mask));
  assert_int_equal(mask, 0x30);
  iospd_plat_cpu_topology_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hybrid_laptop),
      cmocka_unit_test(test_arm_big_little),
      cmocka_unit_test(test_two_socket_server),
      cmocka_unit_test(test_affinity_orders),
      cmocka_unit_test(test_affinity_groups),
      cmocka_unit_test(test_affinity_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

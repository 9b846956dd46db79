/* SPDX-License-Identifier: MIT */
/* The request generator against DISKSPD's unit-tested examples (DISKSPD's offset generation): the
 * sequential, thread-stride, interlocked, parallel and random offsets, the
 * effective distribution tables, the mixed mode's draw order, the offsets
 * of a -Zr thread whose refills share the generator, and statistical
 * checks of alignment, range and write ratio. */
#include "iospd/gen.h"
#include "iospd/platform.h"
#include "iospd/rand.h"
#include "diskspd_fill_model.h"
#include "test_util.h"

#define KB 1024ull
#define GB (1024ull * 1024 * 1024)

static iospd_target_t mk(uint32_t bs, uint64_t base, uint64_t align) {
  iospd_target_t t;
  iospd_target_init(&t);
  t.block_size = bs;
  t.base_offset = base;
  t.stride_align = align;
  return t;
}

/* Runs n requests and checks the offsets against want[]. */
static void expect_seq(iospd_gen_t* g, const uint64_t* want, size_t n) {
  uint64_t cursor = iospd_gen_slot_init(g);
  for (size_t i = 0; i < n; i++) {
    uint8_t op;
    uint64_t off;
    iospd_gen_next(g, &cursor, &op, &off);
    assert_int_equal(off, want[i]);
    assert_int_equal(op, IOSPD_OP_READ);
  }
}

static void test_sequential_base(void** state) {
  (void)state;
  iospd_target_t t = mk(1000, 1000, 500);
  iospd_rand_t r;
  iospd_rand_seed(&r, 0);
  iospd_gen_t g;
  assert_int_equal(iospd_gen_init(&g, &t, 0, 3000, &r, NULL, NULL), 0);
  assert_int_equal(g.rel, 2000);
  assert_int_equal(g.rel_aligned, 1500);
  const uint64_t want[] = {1000, 1500, 2000, 1000, 1500, 2000, 1000};
  expect_seq(&g, want, IOSPD_ARRAY_SIZE(want));
  iospd_gen_destroy(&g);
}

static void stride_case(uint64_t T, uint64_t A, uint32_t bs, uint32_t thread,
                        const uint64_t* want, size_t n) {
  iospd_target_t t = mk(bs, 0, A);
  t.thread_stride = T;
  t.threads_per_file = 2;
  iospd_rand_t r;
  iospd_rand_seed(&r, 0);
  iospd_gen_t g;
  assert_int_equal(iospd_gen_init(&g, &t, thread, 3000, &r, NULL, NULL), 0);
  expect_seq(&g, want, n);
  iospd_gen_destroy(&g);
}

static void test_thread_stride(void** state) {
  (void)state;
  const uint64_t t0[] = {0, 500, 1000, 1500, 2000, 0};
  stride_case(250, 500, 1000, 0, t0, IOSPD_ARRAY_SIZE(t0));
  const uint64_t t1[] = {250, 750, 1250, 1750, 250};
  stride_case(250, 500, 1000, 1, t1, IOSPD_ARRAY_SIZE(t1));
  const uint64_t t750[] = {750, 1250, 1750, 250, 750};
  stride_case(750, 500, 1000, 1, t750, IOSPD_ARRAY_SIZE(t750));
  uint64_t t500[16];
  size_t n = 0;
  for (uint64_t o = 500; o <= 2700; o += 200) t500[n++] = o;
  t500[n++] = 100;
  t500[n++] = 300;
  t500[n++] = 500;
  stride_case(500, 200, 200, 1, t500, n);
}

static void test_interlocked(void** state) {
  (void)state;
  iospd_target_t t = mk(1000, 1000, 500);
  t.interlocked = true;
  t.threads_per_file = 2;
  iospd_gen_shared_t shared;
  iospd_gen_shared_reset(&shared);
  iospd_rand_t r0, r1;
  iospd_rand_seed(&r0, 0);
  iospd_rand_seed(&r1, 1);
  iospd_gen_t a, b;
  assert_int_equal(iospd_gen_init(&a, &t, 0, 3000, &r0, &shared, NULL), 0);
  assert_int_equal(iospd_gen_init(&b, &t, 1, 3000, &r1, &shared, NULL), 0);
  assert_int_equal(a.mode, IOSPD_GEN_INTERLOCKED);
  const uint64_t want[] = {1000, 1500, 2000, 1000, 1500, 2000};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(want); i++) {
    uint8_t op;
    uint64_t off, cur = 0;
    iospd_gen_next(i % 2 ? &b : &a, &cur, &op, &off);
    assert_int_equal(off, want[i]);
  }
  iospd_gen_destroy(&a);
  iospd_gen_destroy(&b);
}

static void test_parallel(void** state) {
  (void)state;
  iospd_target_t t = mk(1000, 1000, 500);
  t.parallel_async = true;
  t.request_count = 2;
  iospd_rand_t r;
  iospd_rand_seed(&r, 0);
  iospd_gen_t g;
  assert_int_equal(iospd_gen_init(&g, &t, 0, 3000, &r, NULL, NULL), 0);
  assert_int_equal(g.mode, IOSPD_GEN_PARALLEL);
  uint64_t s0 = iospd_gen_slot_init(&g), s1 = iospd_gen_slot_init(&g);
  const uint64_t want[] = {1000, 1500, 2000, 1000, 1500};
  /* Both slots walk the same sequence, whatever the interleaving. */
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(want); i++) {
    uint8_t op;
    uint64_t off;
    iospd_gen_next(&g, &s0, &op, &off);
    assert_int_equal(off, want[i]);
    iospd_gen_next(&g, &s1, &op, &off);
    assert_int_equal(off, want[i]);
    if (i == 2) {
      iospd_gen_next(&g, &s1, &op, &off); /* s1 runs ahead by one */
      assert_int_equal(off, want[3]);
      iospd_gen_next(&g, &s0, &op, &off);
      assert_int_equal(off, want[3]);
      i++;
    }
  }
  iospd_gen_destroy(&g);
}

static void test_random_unit_example(void** state) {
  (void)state;
  iospd_target_t t = mk(1000, 1000, 500);
  t.random_ratio = 100;
  iospd_rand_t r;
  iospd_rand_seed(&r, 5);
  iospd_gen_t g;
  assert_int_equal(iospd_gen_init(&g, &t, 0, 3000, &r, NULL, NULL), 0);
  int seen[3] = {0, 0, 0};
  for (int i = 0; i < 3000; i++) {
    uint8_t op;
    uint64_t off, cur = 0;
    iospd_gen_next(&g, &cur, &op, &off);
    assert_true(off == 1000 || off == 1500 || off == 2000);
    seen[(off - 1000) / 500]++;
  }
  assert_in_range(seen[0], 800, 1200);
  assert_in_range(seen[1], 800, 1200);
  assert_in_range(seen[2], 800, 1200);
  iospd_gen_destroy(&g);
}

static void test_random_exact_draws(void** state) {
  (void)state;
  /* x = Rand64 rounded down to A, modulo the aligned relative size. */
  iospd_target_t t = mk(4096, 8192, 4096);
  t.random_ratio = 100;
  iospd_rand_t r, ref;
  iospd_rand_seed(&r, 9);
  iospd_rand_seed(&ref, 9);
  iospd_gen_t g;
  uint64_t size = 1000 * 4096 + 17;
  assert_int_equal(iospd_gen_init(&g, &t, 0, size, &r, NULL, NULL), 0);
  uint64_t rel = size - 8192;
  uint64_t ra = (rel - 4096) / 4096 * 4096 + 4096;
  assert_int_equal(g.rel_aligned, ra);
  for (int i = 0; i < 1000; i++) {
    uint64_t x = iospd_rand64(&ref);
    x -= x % 4096;
    uint8_t op;
    uint64_t off, cur = 0;
    iospd_gen_next(&g, &cur, &op, &off);
    assert_int_equal(off, 8192 + x % ra);
  }
  iospd_gen_destroy(&g);
}

/* Offsets, sizes and strides past 4 GiB stay 64-bit on every build: the
 * Windows tests run this on the 32-bit x86 build too, where a size_t or
 * unsigned long on the way would cut them to 32 bits. */
static void test_offsets_past_4gib(void** state) {
  (void)state;
  iospd_rand_t r, ref;
  iospd_gen_t g;
  /* Sequential from -B5G, wrapping at the end of a 6 GiB file back to 5G. */
  iospd_target_t t = mk(4096, 5 * GB, 4096);
  iospd_rand_seed(&r, 0);
  assert_int_equal(iospd_gen_init(&g, &t, 0, 6 * GB - 8192, &r, NULL, NULL), 0);
  const uint64_t seq[] = {5 * GB, 5 * GB + 4096, 5 * GB + 8192};
  expect_seq(&g, seq, IOSPD_ARRAY_SIZE(seq));
  iospd_gen_destroy(&g);
  t = mk(4096, 5 * GB, 4096);
  assert_int_equal(iospd_gen_init(&g, &t, 0, 5 * GB + 8192, &r, NULL, NULL), 0);
  const uint64_t wrap[] = {5 * GB, 5 * GB + 4096, 5 * GB, 5 * GB + 4096};
  expect_seq(&g, wrap, IOSPD_ARRAY_SIZE(wrap));
  iospd_gen_destroy(&g);
  /* -T4G+4K: the second thread starts past 4 GiB. */
  t = mk(4096, 0, 4096);
  t.thread_stride = 4 * GB + 4096;
  t.threads_per_file = 2;
  assert_int_equal(iospd_gen_init(&g, &t, 1, 6 * GB, &r, NULL, NULL), 0);
  const uint64_t th1[] = {4 * GB + 4096, 4 * GB + 8192};
  expect_seq(&g, th1, IOSPD_ARRAY_SIZE(th1));
  iospd_gen_destroy(&g);
  /* Random over 16 GiB: each offset is Rand64 rounded down to 4K, modulo
   * the aligned size, exactly; most land past 4 GiB. */
  t = mk(4096, 0, 4096);
  t.random_ratio = 100;
  uint64_t size = 16 * GB + 12345;
  iospd_rand_seed(&r, 5);
  iospd_rand_seed(&ref, 5);
  assert_int_equal(iospd_gen_init(&g, &t, 0, size, &r, NULL, NULL), 0);
  uint64_t ra = (size - 4096) / 4096 * 4096 + 4096;
  assert_int_equal(g.rel_aligned, ra);
  int high = 0;
  for (int i = 0; i < 10000; i++) {
    uint64_t x = iospd_rand64(&ref);
    x -= x % 4096;
    uint8_t op;
    uint64_t off, cur = 0;
    iospd_gen_next(&g, &cur, &op, &off);
    assert_int_equal(off, x % ra);
    assert_true(off + 4096 <= size);
    high += off >= 4 * GB;
  }
  assert_in_range(high, 7000, 8000); /* 3/4 of the range */
  iospd_gen_destroy(&g);
}

static void test_random_aligned_in_range(void** state) {
  (void)state;
  iospd_target_t t = mk(4096, 3 * 512, 8192);
  t.random_ratio = 100;
  t.max_file_size = 10 * 1024 * 1024 + 123;
  iospd_rand_t r;
  iospd_rand_seed(&r, 1234);
  iospd_gen_t g;
  assert_int_equal(
      iospd_gen_init(&g, &t, 0, 64ull * 1024 * 1024, &r, NULL, NULL), 0);
  uint64_t lo = UINT64_MAX, hi = 0;
  for (int i = 0; i < 100000; i++) {
    uint8_t op;
    uint64_t off, cur = 0;
    iospd_gen_next(&g, &cur, &op, &off);
    assert_int_equal((off - 1536) % 8192, 0);
    assert_true(off >= 1536);
    assert_true(off + 4096 <= t.max_file_size);
    if (off < lo) lo = off;
    if (off > hi) hi = off;
  }
  /* Both ends of the range are reached. */
  assert_int_equal(lo, 1536);
  assert_int_equal(hi,
                   1536 + (10 * 1024 * 1024 + 123 - 1536 - 4096) / 8192 * 8192);
  iospd_gen_destroy(&g);
}

static void test_write_ratio(void** state) {
  (void)state;
  iospd_target_t t = mk(4096, 0, 0);
  t.random_ratio = 100;
  t.write_ratio = 30;
  iospd_rand_t r, ref;
  iospd_rand_seed(&r, 77);
  iospd_rand_seed(&ref, 77);
  iospd_gen_t g;
  assert_int_equal(iospd_gen_init(&g, &t, 0, GB, &r, NULL, NULL), 0);
  /* Init drew the initial type: one Rand32. */
  (void)iospd_rand32(&ref);
  int writes = 0;
  for (int i = 0; i < 100000; i++) {
    uint8_t op;
    uint64_t off, cur = 0;
    iospd_gen_next(&g, &cur, &op, &off);
    /* Order: offset draw, then type draw. */
    (void)iospd_rand64(&ref);
    bool w = (iospd_rand32(&ref) % 100) + 1 <= 30;
    assert_int_equal(op, w ? IOSPD_OP_WRITE : IOSPD_OP_READ);
    writes += op == IOSPD_OP_WRITE;
  }
  assert_in_range(writes, 29000, 31000);
  iospd_gen_destroy(&g);
}

static void test_write_all_or_none(void** state) {
  (void)state;
  iospd_target_t t = mk(4096, 0, 0);
  t.write_ratio = 100;
  iospd_rand_t r, ref;
  iospd_rand_seed(&r, 1);
  iospd_rand_seed(&ref, 1);
  iospd_gen_t g;
  assert_int_equal(iospd_gen_init(&g, &t, 0, 1024 * 1024, &r, NULL, NULL), 0);
  for (int i = 0; i < 100; i++) {
    uint8_t op;
    uint64_t off, cur = 0;
    iospd_gen_next(&g, &cur, &op, &off);
    assert_int_equal(op, IOSPD_OP_WRITE);
  }
  /* Sequential -w100 never touches the generator. */
  assert_int_equal(iospd_rand64(&r), iospd_rand64(&ref));
  iospd_gen_destroy(&g);
}

static void test_same_seed_same_sequence(void** state) {
  (void)state;
  iospd_target_t t = mk(4096, 0, 0);
  t.random_ratio = 40;
  t.write_ratio = 50;
  iospd_rand_t r1, r2;
  iospd_rand_seed(&r1, 99);
  iospd_rand_seed(&r2, 99);
  iospd_gen_t a, b;
  assert_int_equal(iospd_gen_init(&a, &t, 0, GB, &r1, NULL, NULL), 0);
  assert_int_equal(iospd_gen_init(&b, &t, 0, GB, &r2, NULL, NULL), 0);
  for (int i = 0; i < 10000; i++) {
    uint8_t oa, ob;
    uint64_t fa, fb, c = 0;
    iospd_gen_next(&a, &c, &oa, &fa);
    iospd_gen_next(&b, &c, &ob, &fb);
    assert_int_equal(fa, fb);
    assert_int_equal(oa, ob);
  }
  iospd_gen_destroy(&a);
  iospd_gen_destroy(&b);
}

static void test_mixed_draw_order(void** state) {
  (void)state;
  iospd_target_t t = mk(4096, 0, 0);
  t.random_ratio = 25;
  t.write_ratio = 50;
  uint64_t size = 256 * 4096;
  uint64_t ra = size; /* (size - bs)/A*A + A */
  iospd_rand_t r, ref;
  iospd_rand_seed(&r, 11);
  iospd_rand_seed(&ref, 11);
  iospd_gen_t g;
  assert_int_equal(iospd_gen_init(&g, &t, 0, size, &r, NULL, NULL), 0);
  assert_int_equal(g.mode, IOSPD_GEN_MIXED);
  /* Init: random start for the cursor, then the initial type. */
  uint64_t x = iospd_rand64(&ref);
  uint64_t cursor = (x - x % 4096) % ra;
  uint8_t last =
      (iospd_rand32(&ref) % 100) + 1 <= 50 ? IOSPD_OP_WRITE : IOSPD_OP_READ;
  int randoms = 0;
  for (int i = 0; i < 20000; i++) {
    uint8_t op;
    uint64_t off, c = 0;
    iospd_gen_next(&g, &c, &op, &off);
    bool rnd = (iospd_rand32(&ref) % 100) + 1 <= 25;
    uint64_t want;
    if (rnd) {
      uint64_t y = iospd_rand64(&ref);
      want = (y - y % 4096) % ra;
      cursor = want + 4096;
      last =
          (iospd_rand32(&ref) % 100) + 1 <= 50 ? IOSPD_OP_WRITE : IOSPD_OP_READ;
      randoms++;
    } else {
      want = cursor;
      if (want + 4096 > size) want = 0;
      cursor = want + 4096;
    }
    assert_int_equal(off, want);
    assert_int_equal(op, last);
  }
  assert_in_range(randoms, 4500, 5500);
  iospd_gen_destroy(&g);
}

static void test_too_small(void** state) {
  (void)state;
  iospd_target_t t = mk(1000, 1000, 500);
  iospd_target_set_path(&t, "f.dat");
  iospd_rand_t r;
  iospd_rand_seed(&r, 0);
  iospd_gen_t g;
  iospd_err_t err;
  assert_int_equal(iospd_gen_init(&g, &t, 0, 1999, &r, NULL, &err),
                   IOSPD_ETOOSMALL);
  assert_string_equal(err.msg,
                      "target 'f.dat' is too small for thread 0: its usable "
                      "range (from offset 1000 bytes (-B) to 1999 bytes, the "
                      "end of the target) must hold at least one block of "
                      "1000 bytes (-b) after the thread's offset 0 "
                      "(thread 0 x stride -T 0); use a bigger file "
                      "(-c), a smaller -b or -T, or a larger -f");
  assert_int_equal(iospd_gen_init(&g, &t, 0, 2000, &r, NULL, &err), 0);
  iospd_gen_destroy(&g);
  /* Thread 2 with -T 500 needs 1000 + 1000 + 1000 bytes. */
  t.thread_stride = 500;
  assert_int_equal(iospd_gen_init(&g, &t, 2, 2999, &r, NULL, &err),
                   IOSPD_ETOOSMALL);
  assert_int_equal(iospd_gen_init(&g, &t, 2, 3000, &r, NULL, &err), 0);
  iospd_gen_destroy(&g);
  /* k x -T past 2^64 must not wrap to a small start that fits: thread 4
   * with -T 2^62 would start at 2^64, i.e. 0, and run silently. */
  t.base_offset = 0;
  t.thread_stride = 1ull << 62;
  assert_int_equal(iospd_gen_init(&g, &t, 4, GB, &r, NULL, &err),
                   IOSPD_ETOOSMALL);
  assert_non_null(strstr(err.msg, "for thread 4"));
  assert_non_null(strstr(err.msg, "after the thread's offset past 2^64 "
                                  "bytes (thread 4 x stride -T 4194304TiB)"));
  assert_int_equal(iospd_gen_init(&g, &t, 3, GB, &r, NULL, &err),
                   IOSPD_ETOOSMALL);
  /* A start just below 2^64 must not wrap when the block is added. */
  t.thread_stride = UINT64_MAX;
  assert_int_equal(iospd_gen_init(&g, &t, 1, GB, &r, NULL, &err),
                   IOSPD_ETOOSMALL);
  t.thread_stride = 500;
  t.base_offset = 1000;
  /* -f1K on a 1 MiB file: the message shows the effective limit (1 KiB),
   * not the file size. */
  t.base_offset = 0;
  t.thread_stride = 0;
  t.block_size = 64 * 1024;
  t.max_file_size = 1024;
  assert_int_equal(iospd_gen_init(&g, &t, 0, 1024 * 1024, &r, NULL, &err),
                   IOSPD_ETOOSMALL);
  assert_string_equal(err.msg,
                      "target 'f.dat' is too small for thread 0: its usable "
                      "range (from offset 0 (-B) to 1KiB, limited by -f) "
                      "must hold at least one block of 64KiB (-b) after the "
                      "thread's offset 0 (thread 0 x stride -T 0); use a "
                      "bigger file (-c), a smaller -b or -T, or a larger -f");
  iospd_target_destroy(&t);
}

/* ---- distributions ---------------------------------------------------- */

typedef struct {
  uint32_t io_base, io_pct;
  uint64_t start, len;
} er_t;

static void check_eff(iospd_dist_type_t type, const iospd_dist_range_t* in,
                      uint32_t n, uint64_t size, uint32_t bs, const er_t* want,
                      uint32_t wn, uint32_t want_span) {
  uint64_t rel = size;
  uint64_t ra = (rel - bs) / bs * bs + bs;
  iospd_eff_range_t out[16];
  uint32_t span = 0;
  uint32_t got =
      iospd_gen_effective_dist(type, in, n, rel, ra, bs, bs, out, &span);
  assert_int_equal(got, wn);
  assert_int_equal(span, want_span);
  for (uint32_t i = 0; i < wn; i++) {
    assert_int_equal(out[i].io_base, want[i].io_base);
    assert_int_equal(out[i].io_pct, want[i].io_pct);
    assert_int_equal(out[i].start, want[i].start);
    assert_int_equal(out[i].length, want[i].len);
  }
}

static void test_dist_pct_tables(void** state) {
  (void)state;
  const uint64_t sz = 100 * KB;
  const uint32_t bs = 4096;
  {
    const iospd_dist_range_t in[] = {
        {0, 10, 0, 10}, {10, 10, 10, 10}, {20, 0, 20, 10}, {20, 80, 30, 70}};
    const er_t want[] = {{0, 10, 0, 8 * KB},
                         {10, 10, 8 * KB, 12 * KB},
                         {20, 80, 28 * KB, 72 * KB}};
    check_eff(IOSPD_DIST_PERCENT, in, 4, sz, bs, want, 3, 100);
  }
  {
    const iospd_dist_range_t in[] = {
        {0, 10, 0, 10}, {10, 10, 10, 10}, {20, 10, 20, 1}, {30, 70, 21, 79}};
    const er_t want[] = {{0, 10, 0, 8 * KB},
                         {10, 10, 8 * KB, 12 * KB},
                         {20, 10, 20 * KB, 4 * KB},
                         {30, 70, 24 * KB, 76 * KB}};
    check_eff(IOSPD_DIST_PERCENT, in, 4, sz, bs, want, 4, 100);
  }
  {
    const iospd_dist_range_t in[] = {
        {0, 10, 0, 96}, {10, 10, 96, 3}, {20, 80, 99, 1}};
    const er_t want[] = {{0, 10, 0, 96 * KB}, {10, 90, 96 * KB, 4 * KB}};
    check_eff(IOSPD_DIST_PERCENT, in, 3, sz, bs, want, 2, 100);
  }
  {
    const iospd_dist_range_t in[] = {
        {0, 10, 0, 5}, {10, 10, 5, 1}, {20, 80, 6, 94}};
    const er_t want[] = {{0, 20, 0, 4 * KB}, {20, 80, 4 * KB, 96 * KB}};
    check_eff(IOSPD_DIST_PERCENT, in, 3, sz, bs, want, 2, 100);
  }
  {
    const iospd_dist_range_t in[] = {
        {0, 10, 0, 1}, {10, 10, 1, 1}, {20, 80, 2, 98}};
    const er_t want[] = {{0, 20, 0, 4 * KB}, {20, 80, 4 * KB, 96 * KB}};
    check_eff(IOSPD_DIST_PERCENT, in, 3, sz, bs, want, 2, 100);
  }
  /* Consecutive degenerate ranges (DISKSPD's -rd ranges). On 100 KiB 1% is 1024 bytes, so
   * a 1% range starting at 41% or 42% lies inside the 4 KiB unit at 40 KiB
   * and has no aligned offset of its own. Their IO% must add up in the
   * carry (not the last one overwrite the first), and a carried-into range
   * starts its IO% at the first carried range's io_base. */
  {
    /* -rdpct41/41:1/1:1/1:57/57: [0,41%) -> [0,40K). 41% and 42% are
     * degenerate at 40K, not the start of the previous range: carry 1+1.
     * 43%..100% -> [40K,100K); the previous range (41) is smaller than
     * this one (57), so the carry of 2 goes to it: 43/57, not 42/57. */
    const iospd_dist_range_t in[] = {
        {0, 41, 0, 41}, {41, 1, 41, 1}, {42, 1, 42, 1}, {43, 57, 43, 57}};
    const er_t want[] = {{0, 43, 0, 40 * KB}, {43, 57, 40 * KB, 60 * KB}};
    check_eff(IOSPD_DIST_PERCENT, in, 4, sz, bs, want, 2, 100);
  }
  {
    /* -rdpct41/41:1/1:1/1:17/17:40/40: the same carry of 2, but the next
     * range (17) is smaller than the previous (41), so it takes the carry:
     * io_base 41 (the first carried range's), 19%, [40K,60K) since
     * 60% = 61440 = 60K exactly. Then (60,40,60K,40K). */
    const iospd_dist_range_t in[] = {{0, 41, 0, 41},
                                     {41, 1, 41, 1},
                                     {42, 1, 42, 1},
                                     {43, 17, 43, 17},
                                     {60, 40, 60, 40}};
    const er_t want[] = {{0, 41, 0, 40 * KB},
                         {41, 19, 40 * KB, 20 * KB},
                         {60, 40, 60 * KB, 40 * KB}};
    check_eff(IOSPD_DIST_PERCENT, in, 5, sz, bs, want, 3, 100);
  }
  {
    /* -rdpct97/97:1/1:1/1:1/1: [0,97%) -> [0,96K) (99328 rounded down).
     * 97% and 98% are degenerate at 96K: carry 2. The last range reaches
     * the aligned end: [96K,100K); 97 > 1, so it takes the carry itself:
     * (97,3,96K,4K). */
    const iospd_dist_range_t in[] = {
        {0, 97, 0, 97}, {97, 1, 97, 1}, {98, 1, 98, 1}, {99, 1, 99, 1}};
    const er_t want[] = {{0, 97, 0, 96 * KB}, {97, 3, 96 * KB, 4 * KB}};
    check_eff(IOSPD_DIST_PERCENT, in, 4, sz, bs, want, 2, 100);
  }
}

static void test_dist_abs(void** state) {
  (void)state;
  /* -rdabs10/1G:10/1G:0/100G with its tail (20,80,102G,0). */
  const iospd_dist_range_t in[] = {{0, 10, 0, GB},
                                   {10, 10, GB, GB},
                                   {20, 0, 2 * GB, 100 * GB},
                                   {20, 80, 102 * GB, 0}};
  {
    /* Large target: everything kept, the open tail runs to the end. */
    const er_t want[] = {
        {0, 10, 0, GB}, {10, 10, GB, GB}, {20, 80, 102 * GB, 98 * GB}};
    check_eff(IOSPD_DIST_ABSOLUTE, in, 4, 200 * GB, 4096, want, 3, 100);
  }
  {
    /* 1.5G: the second range is trimmed, the tail dropped, span 20. */
    const er_t want[] = {{0, 10, 0, GB}, {10, 10, GB, GB / 2}};
    check_eff(IOSPD_DIST_ABSOLUTE, in, 4, GB + GB / 2, 4096, want, 2, 20);
  }
  {
    /* Less than a block left in the second range: the walk stops. */
    const er_t want[] = {{0, 10, 0, GB}};
    check_eff(IOSPD_DIST_ABSOLUTE, in, 4, GB + 100, 4096, want, 1, 10);
  }
}

static void test_dist_random_selection(void** state) {
  (void)state;
  /* 90% of IOs into the first 10% of a 100 MiB target. */
  iospd_dist_range_t ranges[] = {{0, 90, 0, 10}, {90, 10, 10, 90}};
  iospd_target_t t = mk(4096, 0, 0);
  t.random_ratio = 100;
  t.dist_type = IOSPD_DIST_PERCENT;
  t.dist = ranges;
  t.dist_count = 2;
  iospd_rand_t r;
  iospd_rand_seed(&r, 3);
  iospd_gen_t g;
  uint64_t size = 100 * 1024 * 1024;
  assert_int_equal(iospd_gen_init(&g, &t, 0, size, &r, NULL, NULL), 0);
  assert_int_equal(g.dist_count, 2);
  uint64_t cut = g.dist[1].start;
  assert_int_equal(cut, (size - 4096 + 4096) / 10 / 4096 * 4096);
  int low = 0;
  for (int i = 0; i < 100000; i++) {
    uint8_t op;
    uint64_t off, c = 0;
    iospd_gen_next(&g, &c, &op, &off);
    assert_int_equal(off % 4096, 0);
    assert_true(off + 4096 <= size);
    low += off < cut;
  }
  assert_in_range(low, 89000, 91000);
  iospd_gen_destroy(&g);
}

/* -Zr: a thread's generator feeds both the offsets and the write refills,
 * so the refill's draw count decides every later offset. Random -w100
 * writes of block sizes that are not multiples of 8, from a write buffer at
 * each address mod 8 (write slot i sits at (o + i) x b past a page-aligned
 * start, so odd block sizes meet every alignment), against the model of
 * DISKSPD: offset draw, then the fast refill of the slot's buffer. */
static void test_zr_refill_keeps_offsets(void** state) {
  (void)state;
  static const uint32_t sizes[] = {13, 4097, 4101};
  static _Alignas(8) unsigned char store[4101 + 8];
  static unsigned char model_buf[4101];
  for (size_t si = 0; si < IOSPD_ARRAY_SIZE(sizes); si++) {
    uint32_t bs = sizes[si];
    for (unsigned a = 0; a < 8; a++) {
      iospd_target_t t = mk(bs, 0, 0);
      t.random_ratio = 100;
      t.write_ratio = 100;
      uint64_t size = 1000ull * bs + 7;
      uint64_t seed = 42u + a;
      iospd_rand_t r;
      iospd_rand_seed(&r, seed);
      iospd_gen_t g;
      assert_int_equal(iospd_gen_init(&g, &t, 0, size, &r, NULL, NULL), 0);
      dsm_rng_t m;
      dsm_seed(&m, seed);
      /* Offsets are asserted as they come, the refilled bytes counted: a
       * wrong refill shows as the offset it moves. */
      int bad_blocks = 0;
      for (int i = 0; i < 300; i++) {
        uint8_t op;
        uint64_t off, cur = 0;
        iospd_gen_next(&g, &cur, &op, &off);
        assert_int_equal(op, IOSPD_OP_WRITE);
        assert_int_equal(off, dsm_random_offset(&m, size, bs, bs));
        iospd_rand_fill(&r, store + a, bs, true);
        dsm_fill(&m, model_buf, bs, a, true);
        bad_blocks += memcmp(store + a, model_buf, bs) != 0;
      }
      assert_int_equal(bad_blocks, 0);
      iospd_gen_destroy(&g);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sequential_base),
      cmocka_unit_test(test_offsets_past_4gib),
      cmocka_unit_test(test_thread_stride),
      cmocka_unit_test(test_interlocked),
      cmocka_unit_test(test_parallel),
      cmocka_unit_test(test_random_unit_example),
      cmocka_unit_test(test_random_exact_draws),
      cmocka_unit_test(test_random_aligned_in_range),
      cmocka_unit_test(test_write_ratio),
      cmocka_unit_test(test_write_all_or_none),
      cmocka_unit_test(test_same_seed_same_sequence),
      cmocka_unit_test(test_mixed_draw_order),
      cmocka_unit_test(test_too_small),
      cmocka_unit_test(test_dist_pct_tables),
      cmocka_unit_test(test_dist_abs),
      cmocka_unit_test(test_dist_random_selection),
      cmocka_unit_test(test_zr_refill_keeps_offsets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

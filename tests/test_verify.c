/* SPDX-License-Identifier: MIT */
/* --verify's pieces without I/O: iospd_crc32 equals zlib's crc32_z at every
 * length and alignment (and for the known "123456789" check value); the
 * state word through lone and overlapping writes, failed writes and a dead
 * run; the classification of a block (ok, bad checksum, torn, stale,
 * misdirected, zeroed, in flight, untracked) with expected and found. */
#include "iospd/strbuf.h"
#include "iospd/verify.h"
#include "test_util.h"

static void test_crc_check_value(void** st) {
  (void)st;
  /* The CRC-32/ISO-HDLC check value. */
  assert_int_equal(iospd_crc32(0, "123456789", 9), 0xCBF43926u);
  assert_int_equal(iospd_crc32_zlib(0, "123456789", 9), 0xCBF43926u);
  uint8_t big[4096];
  memset(big, 0, sizeof big);
  assert_int_equal(iospd_crc32(0, big, sizeof big),
                   iospd_crc32_zlib(0, big, sizeof big));
  printf("note: PCLMULQDQ fold %s on this CPU\n",
         iospd_crc32_accelerated() ? "used" : "not available");
}

static void test_crc_equals_zlib(void** st) {
  (void)st;
  enum { N = 5000 };
  uint8_t* b = malloc(N + 16);
  assert_non_null(b);
  uint32_t x = 12345;
  for (int i = 0; i < N + 16; i++) {
    x = x * 1103515245u + 12345u;
    b[i] = (uint8_t)(x >> 16);
  }
  for (size_t len = 0; len <= 4200; len++)
    for (size_t off = 0; off < 3; off++) {
      uint32_t seed = (uint32_t)(len * 2654435761u);
      assert_int_equal(iospd_crc32(seed, b + off, len),
                       iospd_crc32_zlib(seed, b + off, len));
    }
  /* Chained calls give the crc of the whole. */
  uint32_t c = iospd_crc32(0, b, 100);
  c = iospd_crc32(c, b + 100, N - 100);
  assert_int_equal(c, iospd_crc32_zlib(0, b, N));
  free(b);
}

static _Atomic uint64_t g_next;

static void test_word_lone_writes(void** st) {
  (void)st;
  _Atomic uint64_t e = 0;
  atomic_store(&g_next, 0);
  uint64_t g1 = iospd_vw_issue_write(&e, &g_next);
  assert_int_equal(g1, 1);
  assert_true(iospd_vw_busy(atomic_load(&e)));
  iospd_vw_complete_write(&e, g1, true);
  uint64_t w = atomic_load(&e);
  assert_false(iospd_vw_busy(w));
  assert_int_equal(iospd_vw_hi(w), 1);
  assert_int_equal(iospd_vw_lo(w), 1);
  uint64_t g2 = iospd_vw_issue_write(&e, &g_next);
  iospd_vw_complete_write(&e, g2, true);
  w = atomic_load(&e);
  assert_int_equal(iospd_vw_hi(w), 2);
  assert_int_equal(iospd_vw_lo(w), 2);
  /* A write that never went out leaves the word as it was. */
  uint64_t before = atomic_load(&e);
  (void)iospd_vw_issue_write(&e, &g_next);
  iospd_vw_cancel_write(&e);
  assert_int_equal(atomic_load(&e), before);
  /* A failed write leaves the block in flight for good. */
  uint64_t g3 = iospd_vw_issue_write(&e, &g_next);
  assert_int_equal(g3, 4);
  iospd_vw_complete_write(&e, g3, false);
  assert_true(iospd_vw_busy(atomic_load(&e)));
}

static void test_word_overlap(void** st) {
  (void)st;
  _Atomic uint64_t e = 0;
  atomic_store(&g_next, 10);
  uint64_t a0 = iospd_vw_issue_write(&e, &g_next); /* 11 */
  iospd_vw_complete_write(&e, a0, true);
  uint64_t a = iospd_vw_issue_write(&e, &g_next); /* 12 */
  uint64_t b = iospd_vw_issue_write(&e, &g_next); /* 13: overlaps a */
  assert_int_equal(iospd_vw_flight(atomic_load(&e)), 2);
  iospd_vw_complete_write(&e, b, true);
  assert_true(iospd_vw_busy(atomic_load(&e)));
  iospd_vw_complete_write(&e, a, true);
  uint64_t w = atomic_load(&e);
  assert_false(iospd_vw_busy(w));
  /* Either may be on the medium; the one before them may not. */
  assert_int_equal(iospd_vw_hi(w), 13);
  assert_int_equal(iospd_vw_lo(w), 12);
  /* A lone write that is cancelled leaves the range as it was. */
  uint64_t kept = atomic_load(&e);
  (void)iospd_vw_issue_write(&e, &g_next); /* 14, never sent */
  iospd_vw_cancel_write(&e);
  w = atomic_load(&e);
  assert_false(iospd_vw_busy(w));
  assert_int_equal(iospd_vw_lo(w), 12);
  assert_int_equal(iospd_vw_hi(w), 13);
  assert_int_equal(w & ~IOSPD_VW_EPISODE, kept & ~IOSPD_VW_EPISODE);
  /* The next lone write is exact again. */
  uint64_t c = iospd_vw_issue_write(&e, &g_next);
  iospd_vw_complete_write(&e, c, true);
  w = atomic_load(&e);
  assert_int_equal(iospd_vw_lo(w), 15);
  assert_int_equal(iospd_vw_hi(w), 15);
}

static iospd_vstamp_t k_st = {0x1122334455667788ull, 42, 3};

static void make(uint8_t* b, uint32_t bs, uint64_t off, uint64_t gen) {
  for (uint32_t i = 0; i < bs; i++) b[i] = (uint8_t)(i & 0xff);
  iospd_vblock_stamp(b, bs, &k_st, off, gen, 1000);
}

static uint64_t word_of(uint64_t gen) { return gen; /* lone, done */ }

static void test_block_kinds(void** st) {
  (void)st;
  enum { BS = 4096 };
  uint8_t b[BS], old[BS];
  iospd_vfail_t f;
  make(b, BS, 8192, 7);
  assert_int_equal(iospd_vblock_check(b, BS, k_st.target_id, 8192,
                                      word_of(7), &f),
                   IOSPD_VK_OK);
  /* Header fields are little-endian at their documented places. */
  assert_memory_equal(b, "IOSPDVB1", 8);
  assert_int_equal(b[24 + 1], 8192 >> 8);
  assert_int_equal(b[32], 7);
  assert_int_equal(b[40], 42);
  assert_int_equal(b[512], 7); /* sector stamp */

  /* One bit: bad checksum, with the stored and computed crcs. */
  b[1000] ^= 4;
  assert_int_equal(iospd_vblock_check(b, BS, k_st.target_id, 8192,
                                      word_of(7), &f),
                   IOSPD_VK_CHECKSUM);
  assert_int_not_equal(f.expected, f.found);
  b[1000] ^= 4;

  /* Stale: an intact block of generation 6 where 7 completed. */
  make(old, BS, 8192, 6);
  assert_int_equal(iospd_vblock_check(old, BS, k_st.target_id, 8192,
                                      word_of(7), &f),
                   IOSPD_VK_STALE);
  assert_int_equal(f.expected, 7);
  assert_int_equal(f.found, 6);

  /* Torn: the first half of 6, the second of 7. */
  uint8_t mix[BS];
  memcpy(mix, old, BS / 2);
  memcpy(mix + BS / 2, b + BS / 2, BS / 2);
  assert_int_equal(iospd_vblock_check(mix, BS, k_st.target_id, 8192,
                                      word_of(7), &f),
                   IOSPD_VK_TORN);
  assert_int_equal(f.expected, 6);
  assert_int_equal(f.found, 7);
  assert_int_equal(f.sector, 4);

  /* An intact block newer than the state knows (its record was lost with
   * a crashed machine): indeterminate. Only older is a lost write. A
   * block whose crc fails is a failure even with a part newer than the
   * state: bad checksum, as 9 is no generation the state knows. */
  make(old, BS, 8192, 9);
  assert_int_equal(iospd_vblock_check(old, BS, k_st.target_id, 8192,
                                      word_of(7), &f),
                   IOSPD_VK_INFLIGHT);
  memcpy(mix, b, BS / 2);
  memcpy(mix + BS / 2, old + BS / 2, BS / 2);
  assert_int_equal(iospd_vblock_check(mix, BS, k_st.target_id, 8192,
                                      word_of(7), &f),
                   IOSPD_VK_CHECKSUM);

  /* Misdirected: block of offset 4096 read at 8192; another target. */
  make(old, BS, 4096, 7);
  assert_int_equal(iospd_vblock_check(old, BS, k_st.target_id, 8192,
                                      word_of(7), &f),
                   IOSPD_VK_MISPLACED);
  assert_int_equal(f.expected, 8192);
  assert_int_equal(f.found, 4096);
  assert_int_equal(iospd_vblock_check(b, BS, 99, 8192, word_of(7), &f),
                   IOSPD_VK_MISPLACED);

  /* Zeroed, and some other data without a header. */
  memset(old, 0, BS);
  assert_int_equal(iospd_vblock_check(old, BS, k_st.target_id, 8192,
                                      word_of(7), &f),
                   IOSPD_VK_ZEROED);
  old[5] = 1;
  assert_int_equal(iospd_vblock_check(old, BS, k_st.target_id, 8192,
                                      word_of(7), &f),
                   IOSPD_VK_CHECKSUM);

  /* Judge: a write in flight at issue or between issue and completion,
   * and a block no verified write touched. */
  uint64_t busy = 7 | (UINT64_C(1) << IOSPD_VW_FLIGHT_SHIFT);
  assert_int_equal(iospd_vblock_judge(old, BS, k_st.target_id, 8192, busy,
                                      busy, &f),
                   IOSPD_VK_INFLIGHT);
  assert_int_equal(iospd_vblock_judge(old, BS, k_st.target_id, 8192, 7, 8,
                                      &f),
                   IOSPD_VK_INFLIGHT);
  assert_int_equal(iospd_vblock_judge(old, BS, k_st.target_id, 8192, 0, 0,
                                      &f),
                   IOSPD_VK_UNTRACKED);
  assert_int_equal(iospd_vblock_judge(b, BS, k_st.target_id, 8192, 7, 7, &f),
                   IOSPD_VK_OK);
}

static void test_small_block(void** st) {
  (void)st;
  /* 64 bytes: the header only, no sector stamps. */
  uint8_t b[64];
  iospd_vfail_t f;
  make(b, 64, 640, 3);
  assert_int_equal(iospd_vblock_check(b, 64, k_st.target_id, 640, 3, &f),
                   IOSPD_VK_OK);
  b[63] ^= 1;
  assert_int_equal(iospd_vblock_check(b, 64, k_st.target_id, 640, 3, &f),
                   IOSPD_VK_CHECKSUM);
}

static void test_format(void** st) {
  (void)st;
  iospd_vfail_t f = {IOSPD_VK_STALE, 0, 40960, 10, 9, 4, 0, 0, 0};
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_vfail_format(&sb, &f, "t.dat");
  assert_string_equal(iospd_strbuf_cstr(&sb),
                      "target 't.dat' offset 40960 (block 10): stale "
                      "generation (lost write): expected generation 9, "
                      "found 4");
  iospd_strbuf_destroy(&sb);
}

/* ---- how a block is judged (issue #30) ---------------------------------
 * A block whose crc fails is a failure whatever its fields say: every
 * single-bit flip of the header and of every sector stamp, and every
 * sector replaced by random bytes, at -b 512, 1K, 4K and 64K, against an
 * exact state word and one with overlapping writes. Only an intact newer
 * write is indeterminate. */

static uint64_t g_judge_rng = 0x9e3779b97f4a7c15ull;
static uint64_t judge_rand(void) {
  g_judge_rng ^= g_judge_rng << 13;
  g_judge_rng ^= g_judge_rng >> 7;
  g_judge_rng ^= g_judge_rng << 17;
  return g_judge_rng;
}

typedef struct judge_case_s {
  uint64_t w;   /* the state word */
  uint64_t gen; /* the block's generation, within the word's [lo, hi] */
} judge_case_t;

/* The block as damaged must be a failure; returns its kind. */
static iospd_vkind_t judge_fails(const uint8_t* b, uint32_t bs, uint64_t w,
                                 const char* what, uint32_t at) {
  iospd_vfail_t f;
  iospd_vkind_t k = iospd_vblock_check(b, bs, k_st.target_id, 8 * (uint64_t)bs,
                                       w, &f);
  if (k < IOSPD_VK_FIRST_FAILURE)
    fail_msg("-b%u, word 0x%016llx: %s %u judged '%s', not a failure", bs,
             (unsigned long long)w, what, at, iospd_vkind_name(k));
  /* The same through judge (word unchanged over the read). */
  assert_int_equal(iospd_vblock_judge(b, bs, k_st.target_id, 8 * (uint64_t)bs,
                                      w, w, &f),
                   k);
  return k;
}

static void judge_one(uint32_t bs, const judge_case_t* c) {
  uint64_t off = 8 * (uint64_t)bs;
  uint8_t* b = malloc(bs);
  uint8_t* orig = malloc(bs);
  assert_non_null(b);
  assert_non_null(orig);
  make(orig, bs, off, c->gen);
  iospd_vfail_t f;
  assert_int_equal(iospd_vblock_check(orig, bs, k_st.target_id, off, c->w, &f),
                   IOSPD_VK_OK);
  memcpy(b, orig, bs);
  /* Every bit of the 64-byte header. */
  for (uint32_t bit = 0; bit < IOSPD_VHDR_SIZE * 8; bit++) {
    b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    iospd_vkind_t k = judge_fails(b, bs, c->w, "header bit", bit);
    /* A generation raised past the state's hi is no second write: bad
     * checksum. */
    if (bit / 8 >= 32 && bit / 8 < 40 &&
        (c->gen ^ (1ull << (bit - 256))) > iospd_vw_hi(c->w))
      assert_int_equal(k, IOSPD_VK_CHECKSUM);
    b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
  }
  /* Every bit of every sector stamp. */
  for (uint32_t s = IOSPD_VSECTOR; s + 8 <= bs; s += IOSPD_VSECTOR)
    for (uint32_t bit = 0; bit < 64; bit++) {
      b[s + bit / 8] ^= (uint8_t)(1u << (bit % 8));
      iospd_vkind_t k = judge_fails(b, bs, c->w, "stamp bit", s * 8 + bit);
      if ((c->gen ^ (1ull << bit)) > iospd_vw_hi(c->w))
        assert_int_equal(k, IOSPD_VK_CHECKSUM);
      b[s + bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
  /* Every sector replaced by random bytes: a failure, never "torn" with a
   * garbage generation. */
  for (uint32_t s = 0; s < bs; s += IOSPD_VSECTOR) {
    uint32_t n = bs - s < IOSPD_VSECTOR ? bs - s : IOSPD_VSECTOR;
    for (uint32_t i = 0; i < n; i += 8) {
      uint64_t r = judge_rand();
      memcpy(b + s + i, &r, n - i < 8 ? n - i : 8);
    }
    assert_int_equal(judge_fails(b, bs, c->w, "random sector",
                                 s / IOSPD_VSECTOR),
                     IOSPD_VK_CHECKSUM);
    memcpy(b + s, orig + s, n);
  }
  assert_memory_equal(b, orig, bs);
  /* An intact, newer write of this block stays indeterminate. */
  make(b, bs, off, iospd_vw_hi(c->w) + 5);
  assert_int_equal(iospd_vblock_check(b, bs, k_st.target_id, off, c->w, &f),
                   IOSPD_VK_INFLIGHT);
  assert_int_equal(iospd_vblock_judge(b, bs, k_st.target_id, off, c->w, c->w,
                                      &f),
                   IOSPD_VK_INFLIGHT);
  free(b);
  free(orig);
}

static void test_judge_damage_is_failure(void** st) {
  (void)st;
  /* Exact: generation 1000 completed alone. Overlap: writes 1000 to 1002
   * overlapped, so any of them may be on the medium; the block has 1001. */
  uint64_t overlap = 1002 | IOSPD_VW_OVERLAP | (UINT64_C(3) << IOSPD_VW_GAP_SHIFT);
  assert_int_equal(iospd_vw_lo(overlap), 1000);
  const judge_case_t cases[] = {{1000, 1000}, {overlap, 1001}, {overlap, 1000}};
  const uint32_t sizes[] = {512, 1024, 4096, 65536};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (size_t j = 0; j < sizeof cases / sizeof cases[0]; j++)
      judge_one(sizes[i], &cases[j]);
}

static void test_judge_torn_kind(void** st) {
  (void)st;
  /* Two writes the state knows (5 then 7): torn, with both generations. */
  enum { BS = 4096 };
  uint8_t a[BS], b[BS];
  iospd_vfail_t f;
  make(a, BS, 0, 5);
  make(b, BS, 0, 7);
  memcpy(b + 2048, a + 2048, 2048);
  assert_int_equal(iospd_vblock_check(b, BS, k_st.target_id, 0, 7, &f),
                   IOSPD_VK_TORN);
  assert_int_equal(f.expected, 7);
  assert_int_equal(f.found, 5);
  assert_int_equal(f.sector, 4);
  /* The header's generation raised to one the state never handed out (bit
   * 39): a bad checksum with the stored and computed crcs, not torn, not
   * indeterminate. */
  make(b, BS, 0, 7);
  b[32 + 4] ^= 0x80;
  assert_int_equal(iospd_vblock_check(b, BS, k_st.target_id, 0, 7, &f),
                   IOSPD_VK_CHECKSUM);
  assert_int_not_equal(f.expected, f.found);
  assert_int_not_equal(f.expected, 0);
}

/* The kept failures name distinct blocks first (issue #30, item 4). */
static void keep_blocks(const uint64_t* blocks, size_t n, uint32_t cap,
                        iospd_vfail_t* list, uint32_t* count) {
  *count = 0;
  for (size_t i = 0; i < n; i++) {
    iospd_vfail_t f;
    memset(&f, 0, sizeof f);
    f.kind = IOSPD_VK_TORN;
    f.block = blocks[i];
    f.offset = blocks[i] * 4096;
    f.found = i; /* which failure it was */
    iospd_vfail_keep(list, count, cap, &f);
  }
}

static void test_judge_distinct_failures_first(void** st) {
  (void)st;
  iospd_vfail_t list[4];
  uint32_t n = 0;
  /* Block 1 fails again and again before the others: the list still
   * names four different blocks, each with its first failure. */
  const uint64_t a[] = {1, 1, 1, 2, 1, 3, 4, 5, 2};
  keep_blocks(a, sizeof a / sizeof a[0], 4, list, &n);
  assert_int_equal(n, 4);
  const uint64_t want_block[] = {1, 2, 3, 4}, want_which[] = {0, 3, 5, 6};
  for (int i = 0; i < 4; i++) {
    assert_int_equal(list[i].block, want_block[i]);
    assert_int_equal(list[i].found, want_which[i]);
    assert_int_equal(list[i].repeat, 0);
  }
  /* Fewer distinct blocks than room: the distinct ones, then repeats in
   * the order they came. */
  const uint64_t b[] = {7, 7, 9, 7};
  keep_blocks(b, sizeof b / sizeof b[0], 4, list, &n);
  assert_int_equal(n, 4);
  assert_int_equal(list[0].block, 7);
  assert_int_equal(list[1].block, 9);
  assert_int_equal(list[2].block, 7);
  assert_int_equal(list[2].found, 1);
  assert_int_equal(list[2].repeat, 1);
  assert_int_equal(list[3].found, 3);
  /* The same block of another target is another block. */
  iospd_vfail_t f;
  memset(&f, 0, sizeof f);
  f.block = 7;
  f.target = 1;
  iospd_vfail_t g = list[0];
  n = 0;
  iospd_vfail_keep(list, &n, 2, &g);
  iospd_vfail_keep(list, &n, 2, &f);
  assert_int_equal(n, 2);
  assert_int_equal(list[1].target, 1);
  assert_int_equal(list[1].repeat, 0);
  /* No room at all keeps nothing. */
  n = 0;
  iospd_vfail_keep(list, &n, 0, &f);
  assert_int_equal(n, 0);
}

/* ---- the state file: what iospd_vstate_check accepts (issue #30) ------
 * A buffer stands for the mapped file: len is the file's size. */

/* A whole state of n blocks of -b bs, in a buffer of len bytes (>= 4096). */
static uint8_t* state_buf(uint64_t len, uint32_t bs, uint64_t n) {
  uint8_t* b = calloc(1, (size_t)len);
  assert_non_null(b);
  iospd_vstate_hdr_t* h = (iospd_vstate_hdr_t*)b;
  memcpy(h->magic, "IOSPDVS1", 8);
  h->version = 1;
  h->block_size = bs;
  h->block_count = n;
  h->target_id = 77;
  return b;
}

/* check <buf, len, -b, target blocks, create> gives the message want. */
static void check_says(const uint8_t* b, uint64_t len, uint32_t bs,
                       uint64_t blocks, bool create, const char* want) {
  iospd_err_t e;
  iospd_err_clear(&e);
  int rc = iospd_vstate_check(b, len, "s.st", "t.dat", bs, blocks, create, &e);
  if (want == NULL) {
    assert_int_equal(rc, 0);
    return;
  }
  assert_int_equal(rc, IOSPD_EUSAGE);
  assert_string_equal(e.msg, want);
}

static void test_state_check_whole(void** st) {
  (void)st;
  uint8_t* b = state_buf(4096 + 10 * 8, 4096, 10);
  check_says(b, 4096 + 80, 4096, 10, true, NULL);
  check_says(b, 4096 + 80, 4096, 99, false, NULL); /* --verify-only */
  check_says(b, 4096 + 80, 4096, 11, true,
             "verify state file 's.st' holds 10 blocks, but target 't.dat' "
             "now has 11: the target changed size; delete the state file to "
             "start afresh");
  check_says(b, 4096 + 80, 8192, 10, true,
             "verify state file 's.st' was made for -b4096, not -b8192: "
             "verify with the block size the data was written with, or "
             "delete the file to start afresh");
  free(b);
}

static void test_state_check_not_state(void** st) {
  (void)st;
  const char* want =
      "'s.st' is not an iospd verify state file (it does not start with "
      "IOSPDVS1), and iospd leaves it as it is: name another state file "
      "with --verify-state=FILE, or delete it if it is a damaged state file "
      "(its verification history goes with it)";
  uint8_t* b = state_buf(4096 + 80, 4096, 10);
  check_says(b, 5, 4096, 10, true, want); /* shorter than the magic */
  b[7] = '2';
  check_says(b, 4096 + 80, 4096, 10, true, want);
  free(b);
}

static void test_state_check_version(void** st) {
  (void)st;
  uint8_t* b = state_buf(4096 + 80, 4096, 10);
  ((iospd_vstate_hdr_t*)b)->version = 2;
  check_says(b, 4096 + 80, 4096, 10, false,
             "verify state file 's.st' has version 2, but this iospd reads "
             "version 1: use the iospd that made it, or delete it to start "
             "afresh");
  free(b);
}

static void test_state_check_truncated(void** st) {
  (void)st;
  uint8_t* b = state_buf(4096 + 80, 4096, 10);
  /* Before: "was made for -b4096, not -b4096". */
  check_says(b, 4096 + 72, 4096, 10, true,
             "verify state file 's.st' is truncated: 4168 bytes where its "
             "header (10 blocks) needs 4176; delete it to start afresh (its "
             "verification history is lost)");
  check_says(b, 100, 4096, 10, false,
             "verify state file 's.st' is truncated: 100 bytes where its "
             "header needs 4096; delete it to start afresh (its "
             "verification history is lost)");
  free(b);
  b = state_buf(4096 + 88, 4096, 10);
  check_says(b, 4096 + 88, 4096, 10, true,
             "verify state file 's.st' is damaged: 4184 bytes where its "
             "header (10 blocks) needs 4176; delete it to start afresh (its "
             "verification history is lost)");
  free(b);
}

static void test_state_check_overflow(void** st) {
  (void)st;
  /* 4096 + n * 8 wraps for these: 2^61 gives 4096, 2^64 - 1 gives 4088,
   * so the old length check passed a 4176-byte file and the words were
   * read far past its end (SIGBUS). */
  static const uint64_t counts[] = {UINT64_C(1) << 61, UINT64_MAX,
                                    (UINT64_MAX - 4096) / 8 + 1};
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    uint8_t* b = state_buf(4096 + 80, 4096, counts[i]);
    char want[512];
    snprintf(want, sizeof want,
             "verify state file 's.st' is damaged: its header says %llu "
             "blocks of 4096 bytes, which no target has; delete it to start "
             "afresh (its verification history is lost)",
             (unsigned long long)counts[i]);
    check_says(b, 4096 + 80, 4096, 10, false, want);
    check_says(b, 4096 + 80, 4096, 10, true, want);
    free(b);
  }
  /* A block count whose bytes overflow: 2^58 blocks of 64 KiB. */
  uint8_t* b = state_buf(4096 + 80, 65536, UINT64_C(1) << 58);
  check_says(b, 4096 + 80, 65536, 10, false,
             "verify state file 's.st' is damaged: its header says "
             "288230376151711744 blocks of 65536 bytes, which no target "
             "has; delete it to start afresh (its verification history is "
             "lost)");
  /* A block size below the header's. */
  iospd_vstate_hdr_t* h = (iospd_vstate_hdr_t*)b;
  h->block_size = 0;
  h->block_count = 10;
  check_says(b, 4096 + 80, 4096, 10, false,
             "verify state file 's.st' is damaged: its header says 10 "
             "blocks of 0 bytes, which no target has; delete it to start "
             "afresh (its verification history is lost)");
  free(b);
}

static void test_state_reset(void** st) {
  (void)st;
  uint8_t* b = state_buf(4096 + 80, 4096, 10);
  iospd_vstate_t s;
  memset(&s, 0, sizeof s);
  s.hdr = (iospd_vstate_hdr_t*)b;
  s.words = (_Atomic uint64_t*)(b + IOSPD_VSTATE_HDR);
  s.block_count = 10;
  s.block_size = 4096;
  s.target_id = 77;
  s.dead = 3;
  atomic_store(&s.hdr->next_gen, 500);
  for (int i = 0; i < 10; i++) atomic_store(&s.words[i], 400u + (unsigned)i);
  iospd_vstate_reset(&s, "t.dat", 9);
  assert_memory_equal(s.hdr->magic, "IOSPDVS1", 8);
  assert_int_equal(atomic_load(&s.hdr->next_gen), 0);
  for (int i = 0; i < 10; i++) assert_int_equal(atomic_load(&s.words[i]), 0);
  assert_true(s.target_id != 77 && s.target_id != 0);
  assert_int_equal(s.hdr->target_id, s.target_id);
  assert_int_equal(s.hdr->block_count, 10);
  assert_int_equal(s.dead, 0);
  assert_string_equal(s.hdr->target, "t.dat");
  check_says(b, 4096 + 80, 4096, 10, true, NULL);
  free(b);
}


int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_crc_check_value),
      cmocka_unit_test(test_crc_equals_zlib),
      cmocka_unit_test(test_word_lone_writes),
      cmocka_unit_test(test_word_overlap),
      cmocka_unit_test(test_block_kinds),
      cmocka_unit_test(test_small_block),
      cmocka_unit_test(test_format),
  };
  const struct CMUnitTest judge_tests[] = {
      cmocka_unit_test(test_judge_damage_is_failure),
      cmocka_unit_test(test_judge_torn_kind),
      cmocka_unit_test(test_judge_distinct_failures_first),
  };
  const struct CMUnitTest state_tests[] = {
      cmocka_unit_test(test_state_check_whole),
      cmocka_unit_test(test_state_check_not_state),
      cmocka_unit_test(test_state_check_version),
      cmocka_unit_test(test_state_check_truncated),
      cmocka_unit_test(test_state_check_overflow),
      cmocka_unit_test(test_state_reset),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  failed += cmocka_run_group_tests_name("state", state_tests, NULL, NULL);
  failed += cmocka_run_group_tests_name("judge", judge_tests, NULL, NULL);
  return failed;
}

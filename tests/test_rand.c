/* SPDX-License-Identifier: MIT */
/* DISKSPD's PRNG: known first outputs for seeds 0 and 1 (computed outside
 * C from the published algorithm), agreement with an independent
 * step-by-step reference, and the buffer filler's draw order, including
 * DISKSPD's head of (address & 7) bytes for unaligned buffers. */
#include "iospd/rand.h"
#include "diskspd_fill_model.h"
#include "test_util.h"

/* Reference written out long-hand from the algorithm in 2.11, with its
 * own rotate, so a slip in rand.h cannot hide in both. */
typedef struct {
  uint64_t s[4];
} ref_t;

static uint64_t ref_rot(uint64_t x, int k) {
  uint64_t hi = x << k;
  uint64_t lo = x >> (64 - k);
  return hi | lo;
}

static uint64_t ref_step(ref_t* r) {
  uint64_t e = r->s[0] - ref_rot(r->s[1], 7);
  uint64_t a = r->s[1] ^ ref_rot(r->s[2], 13);
  uint64_t b = r->s[2] + ref_rot(r->s[3], 37);
  uint64_t c = r->s[3] + e;
  uint64_t d = e + a;
  r->s[0] = a;
  r->s[1] = b;
  r->s[2] = c;
  r->s[3] = d;
  return d;
}

static void ref_seed(ref_t* r, uint64_t seed) {
  r->s[0] = 0xf1ea5eed;
  r->s[1] = seed;
  r->s[2] = seed;
  r->s[3] = seed;
  for (int i = 0; i < 20; i++) ref_step(r);
}

static void test_known_values_seed0(void** state) {
  (void)state;
  iospd_rand_t r;
  iospd_rand_seed(&r, 0);
  assert_int_equal(iospd_rand64(&r), 0x4b39c42db38fcdf5ull);
  assert_int_equal(iospd_rand64(&r), 0xaee2c9e919833f29ull);
  assert_int_equal(iospd_rand64(&r), 0x30611cd75d0254ceull);
  assert_int_equal(iospd_rand64(&r), 0x7fcfd4f0c54692bbull);
}

static void test_known_values_seed1(void** state) {
  (void)state;
  iospd_rand_t r;
  iospd_rand_seed(&r, 1);
  assert_int_equal(iospd_rand64(&r), 0xae735ca10d060948ull);
  assert_int_equal(iospd_rand64(&r), 0x8e16aa0268563732ull);
  /* Rand32 is the low half of the next step. */
  assert_int_equal(iospd_rand32(&r), 0xeaa2da64u);
  assert_int_equal(iospd_rand32(&r), 0xe013cc82u);
}

static void test_matches_reference(void** state) {
  (void)state;
  static const uint64_t seeds[] = {0, 1, 2, 42, 0xffffffffull, 123456789};
  for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
    iospd_rand_t r;
    ref_t ref;
    iospd_rand_seed(&r, seeds[s]);
    ref_seed(&ref, seeds[s]);
    for (int i = 0; i < 10000; i++)
      assert_int_equal(iospd_rand64(&r), ref_step(&ref));
  }
}

static void test_ratio(void** state) {
  (void)state;
  iospd_rand_t r, ref;
  iospd_rand_seed(&r, 7);
  iospd_rand_seed(&ref, 7);
  for (int i = 0; i < 1000; i++) {
    uint32_t x = (uint32_t)iospd_rand64(&ref);
    bool expect = (x % 100) + 1 <= 30;
    assert_int_equal(iospd_rand_ratio(&r, 30), expect);
  }
}

static void test_fill_slow_order(void** state) {
  (void)state;
  /* 8-byte aligned buffer of 20 bytes: two whole words then a 4-byte tail
   * taken low byte first from a third step. */
  uint64_t words[4] = {0};
  unsigned char* buf = (unsigned char*)words;
  iospd_rand_t r, ref;
  iospd_rand_seed(&r, 0);
  iospd_rand_seed(&ref, 0);
  iospd_rand_fill(&r, buf, 20, false);
  uint64_t w0 = iospd_rand64(&ref), w1 = iospd_rand64(&ref);
  uint64_t w2 = iospd_rand64(&ref);
  uint64_t got0, got1;
  memcpy(&got0, buf, 8);
  memcpy(&got1, buf + 8, 8);
  assert_int_equal(got0, w0);
  assert_int_equal(got1, w1);
  for (int i = 0; i < 4; i++)
    assert_int_equal(buf[16 + i], (unsigned char)(w2 >> (8 * i)));
  assert_int_equal(buf[20], 0);
  /* Both generators consumed exactly three steps. */
  assert_int_equal(iospd_rand64(&r), iospd_rand64(&ref));
}

static void test_fill_fast_mixes(void** state) {
  (void)state;
  /* 17 words: one fast group of 16 (5 steps) then one plain word. */
  uint64_t words[17];
  iospd_rand_t r, ref;
  iospd_rand_seed(&r, 3);
  iospd_rand_seed(&ref, 3);
  iospd_rand_fill(&r, words, sizeof(words), true);
  uint64_t r1 = iospd_rand64(&ref), r2 = iospd_rand64(&ref);
  uint64_t r3 = iospd_rand64(&ref), r4 = iospd_rand64(&ref);
  uint64_t r5 = iospd_rand64(&ref);
  assert_int_equal(words[0], r1);
  assert_int_equal(words[4], r5);
  uint64_t q1 = ref_rot(r1, 7);
  assert_int_equal(words[5], q1 ^ r2);
  assert_int_equal(words[8], q1 ^ r5);
  uint64_t q2 = ref_rot(r2, 13);
  assert_int_equal(words[11], q2 ^ r5);
  uint64_t q3 = ref_rot(r3, 19);
  assert_int_equal(words[12], q3 ^ r4);
  assert_int_equal(words[14], q1 ^ q2 ^ q3);
  assert_int_equal(words[15], q1 ^ ref_rot(r4 ^ r5, 39));
  assert_int_equal(words[16], iospd_rand64(&ref));
}

/* DISKSPD's head rule spelled out by hand for one case: a 13-byte buffer at
 * an address = 3 (mod 8) takes 3 head bytes from step 1, one word (bytes
 * 3..10) from step 2 and a 2-byte tail from step 3. (The rule "up to the
 * boundary" would give 5 + 8 bytes from two steps.) */
static void test_fill_head_is_addr_mod8(void** state) {
  (void)state;
  _Alignas(8) unsigned char store[32];
  memset(store, 0xee, sizeof store);
  unsigned char* buf = store + 3;
  iospd_rand_t r, ref;
  iospd_rand_seed(&r, 11);
  iospd_rand_seed(&ref, 11);
  iospd_rand_fill(&r, buf, 13, false);
  uint64_t s1 = iospd_rand64(&ref), s2 = iospd_rand64(&ref);
  uint64_t s3 = iospd_rand64(&ref);
  for (int i = 0; i < 3; i++)
    assert_int_equal(buf[i], (unsigned char)(s1 >> (8 * i)));
  for (int i = 0; i < 8; i++)
    assert_int_equal(buf[3 + i], (unsigned char)(s2 >> (8 * i)));
  for (int i = 0; i < 2; i++)
    assert_int_equal(buf[11 + i], (unsigned char)(s3 >> (8 * i)));
  /* Neither side of the buffer touched; three steps consumed. */
  assert_int_equal(store[2], 0xee);
  assert_int_equal(buf[13], 0xee);
  assert_int_equal(iospd_rand64(&r), iospd_rand64(&ref));
}

/* A head longer than the buffer: one step, only len bytes written. */
static void test_fill_head_longer_than_buffer(void** state) {
  (void)state;
  _Alignas(8) unsigned char store[16];
  memset(store, 0xee, sizeof store);
  iospd_rand_t r, ref;
  iospd_rand_seed(&r, 5);
  iospd_rand_seed(&ref, 5);
  iospd_rand_fill(&r, store + 7, 2, true);
  uint64_t s1 = iospd_rand64(&ref);
  assert_int_equal(store[7], (unsigned char)s1);
  assert_int_equal(store[8], (unsigned char)(s1 >> 8));
  assert_int_equal(store[9], 0xee);
  assert_int_equal(iospd_rand64(&r), iospd_rand64(&ref));
}

/* Every alignment 0..7, lengths around the 8-byte and 16-word edges and
 * the odd block sizes of the issue (13, 4097), both modes: the same bytes
 * as the model of DISKSPD's fill, nothing written outside, and the same
 * next draws (so every later offset of a thread agrees too). */
static void test_fill_matches_model_all_alignments(void** state) {
  (void)state;
  static const size_t lens[] = {0,  1,   5,   7,   8,   9,    13,   16,  23,
                                127, 128, 129, 135, 136, 137, 4096, 4097,
                                4099, 4103, 8195};
  enum { MAXLEN = 8195, GUARD = 16 };
  static _Alignas(8) unsigned char store[MAXLEN + 2 * GUARD];
  static unsigned char want[MAXLEN];
  for (unsigned a = 0; a < 8; a++) {
    for (size_t li = 0; li < IOSPD_ARRAY_SIZE(lens); li++) {
      for (int fast = 0; fast <= 1; fast++) {
        size_t len = lens[li];
        uint64_t seed = 1000u + a * 100u + li;
        memset(store, 0xa5, sizeof store);
        unsigned char* buf = store + GUARD + a;
        iospd_rand_t r;
        iospd_rand_seed(&r, seed);
        iospd_rand_fill(&r, buf, len, fast != 0);
        dsm_rng_t m;
        dsm_seed(&m, seed);
        dsm_fill(&m, want, len, a, fast != 0);
        if (len > 0) assert_memory_equal(buf, want, len);
        for (size_t i = 0; i < GUARD + a; i++)
          assert_int_equal(store[i], 0xa5);
        for (size_t i = GUARD + a + len; i < sizeof store; i++)
          assert_int_equal(store[i], 0xa5);
        for (int k = 0; k < 3; k++)
          assert_int_equal(iospd_rand64(&r), dsm_step(&m));
      }
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known_values_seed0),
      cmocka_unit_test(test_known_values_seed1),
      cmocka_unit_test(test_matches_reference),
      cmocka_unit_test(test_ratio),
      cmocka_unit_test(test_fill_slow_order),
      cmocka_unit_test(test_fill_fast_mixes),
      cmocka_unit_test(test_fill_head_is_addr_mod8),
      cmocka_unit_test(test_fill_head_longer_than_buffer),
      cmocka_unit_test(test_fill_matches_model_all_alignments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

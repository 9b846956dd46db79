/* SPDX-License-Identifier: MIT */
/* The --verify state file (iospd/verify.h): a header and one state word per
 * block, mapped shared through the platform (iospd_plat_map_*). */
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/verify.h"

static const char k_smagic[8] = {'I', 'O', 'S', 'P', 'D', 'V', 'S', '1'};

char* iospd_vstate_path(const char* target, const char* override_path) {
  if (override_path != NULL && override_path[0] != '\0')
    return iospd_strdup(override_path);
  static const char k_suffix[] = ".iospd-verify";
  size_t n = strlen(target);
  char* out = iospd_malloc(n + sizeof k_suffix);
  if (out == NULL) return NULL;
  memcpy(out, target, n);
  memcpy(out + n, k_suffix, sizeof k_suffix);
  return out;
}

char* iospd_vstate_default_path(const char* target, const char* override_path) {
  if (override_path != NULL && override_path[0] != '\0')
    return iospd_strdup(override_path);
  /* Beside the file itself: a symbolic link to the target and the target
   * share one state file. */
  char* real = iospd_plat_final_path(target);
  char* out = iospd_vstate_path(real != NULL ? real : target, NULL);
  iospd_free(real);
  return out;
}

/* splitmix64: a target id that differs between state files. */
static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static void bind(iospd_vstate_t* s, void* addr) {
  s->hdr = addr;
  s->words = (_Atomic uint64_t*)((uint8_t*)addr + IOSPD_VSTATE_HDR);
  s->block_count = s->hdr->block_count;
  s->block_size = s->hdr->block_size;
  s->target_id = s->hdr->target_id;
}

/* The largest block count whose words fit in a file of 2^64 - 1 bytes. */
#define MAX_BLOCKS ((UINT64_MAX - IOSPD_VSTATE_HDR) / 8u)

int iospd_vstate_check(const void* addr, uint64_t len, const char* path,
                       const char* target, uint32_t block_size,
                       uint64_t blocks, bool create, iospd_err_t* err) {
  const iospd_vstate_hdr_t* h = addr;
  if (len < sizeof k_smagic || memcmp(h->magic, k_smagic, 8) != 0)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' is not an iospd verify state file (it does "
                         "not start with IOSPDVS1), and iospd leaves it as "
                         "it is: name another state file with "
                         "--verify-state=FILE, or delete it if it is a "
                         "damaged state file (its verification history "
                         "goes with it)", path);
  if (len < IOSPD_VSTATE_HDR)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "verify state file '%s' is truncated: %llu bytes "
                         "where its header needs %u; delete it to start "
                         "afresh (its verification history is lost)",
                         path, (unsigned long long)len, IOSPD_VSTATE_HDR);
  if (h->version != 1)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "verify state file '%s' has version %u, but this "
                         "iospd reads version 1: use the iospd that made "
                         "it, or delete it to start afresh", path,
                         h->version);
  uint64_t n = h->block_count;
  if (h->block_size < IOSPD_VMIN_BLOCK || n > MAX_BLOCKS ||
      n > UINT64_MAX / h->block_size)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "verify state file '%s' is damaged: its header "
                         "says %llu blocks of %u bytes, which no target "
                         "has; delete it to start afresh (its verification "
                         "history is lost)", path, (unsigned long long)n,
                         h->block_size);
  uint64_t need = IOSPD_VSTATE_HDR + n * 8u;
  if (len != need)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "verify state file '%s' is %s: %llu bytes where "
                         "its header (%llu blocks) needs %llu; delete it to "
                         "start afresh (its verification history is lost)",
                         path, len < need ? "truncated" : "damaged",
                         (unsigned long long)len, (unsigned long long)n,
                         (unsigned long long)need);
  if (h->block_size != block_size)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "verify state file '%s' was made for -b%u, not "
                         "-b%u: verify with the block size the data was "
                         "written with, or delete the file to start afresh",
                         path, h->block_size, block_size);
  if (create && n != blocks)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "verify state file '%s' holds %llu blocks, but "
                         "target '%s' now has %llu: the target changed "
                         "size; delete the state file to start afresh",
                         path, (unsigned long long)n, target,
                         (unsigned long long)blocks);
  return 0;
}

/* Header fields of a fresh state; the magic goes last. */
static void fill_header(iospd_vstate_hdr_t* h, const char* target,
                        uint32_t block_size, uint64_t blocks, uint64_t seed) {
  h->version = 1;
  h->block_size = block_size;
  h->block_count = blocks;
  h->created_ns = iospd_plat_unix_ns();
  h->target_id = mix(h->created_ns ^ mix(seed) ^ mix(iospd_plat_ticks()));
  if (h->target_id == 0) h->target_id = 1;
  snprintf(h->target, sizeof h->target, "%s", target);
  atomic_store(&h->next_gen, 0);
  atomic_thread_fence(memory_order_release);
  memcpy(h->magic, k_smagic, 8);
}

void iospd_vstate_reset(iospd_vstate_t* s, const char* target, uint64_t seed) {
  memset(s->hdr->magic, 0, sizeof s->hdr->magic);
  atomic_thread_fence(memory_order_release);
  for (uint64_t i = 0; i < s->block_count; i++)
    atomic_store_explicit(&s->words[i], 0, memory_order_relaxed);
  fill_header(s->hdr, target, s->block_size, s->block_count, seed);
  s->target_id = s->hdr->target_id;
  s->dead = 0;
}

/* Builds a state under a temporary name and publishes it: IOSPD_EEXIST
 * when a file appeared under the name first (the caller opens it). */
static int make_state(iospd_vstate_t* s, const char* state_path,
                      const char* target, uint32_t block_size,
                      uint64_t blocks, bool replace_empty, uint64_t seed,
                      void** addr, uint64_t* len, iospd_err_t* err) {
  if (blocks > MAX_BLOCKS)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--verify: target '%s' has too many blocks of -b%u "
                         "for a state file", target, block_size);
  uint64_t size = IOSPD_VSTATE_HDR + blocks * 8u;
  iospd_err_t e;
  iospd_err_clear(&e);
  int rc = iospd_plat_map_create(state_path, size, &s->map, addr, &e);
  if (rc == IOSPD_ENOSPC)
    return iospd_err_set(err, rc,
                         "--verify state file '%s': %s: free space there, or "
                         "put the state file elsewhere with "
                         "--verify-state=FILE", state_path, e.msg);
  if (rc < 0)
    return iospd_err_set(err, rc, "--verify state file '%s': %s", state_path,
                         e.msg[0] ? e.msg : iospd_strerror(rc));
  fill_header(*addr, target, block_size, blocks, seed);
  rc = iospd_plat_map_publish(s->map, state_path, replace_empty, &e);
  if (rc < 0) {
    iospd_plat_map_close(s->map);
    s->map = NULL;
    if (rc == IOSPD_EEXIST) return rc;
    return iospd_err_set(err, rc, "--verify state file '%s': %s", state_path,
                         e.msg[0] ? e.msg : iospd_strerror(rc));
  }
  *len = size;
  return 0;
}

static int open_state(iospd_vstate_t* s, const char* state_path,
                      const char* target, uint64_t target_size,
                      uint32_t block_size, bool create, bool named,
                      uint64_t seed, iospd_err_t* err) {
  uint64_t blocks = target_size / block_size;
  void* addr = NULL;
  uint64_t len = 0;
  int rc = 0;
  /* Twice at most: a run that published its state between our open and
   * our publish has made the file we then open. */
  for (int attempt = 0; attempt < 2; attempt++) {
    iospd_err_t e;
    iospd_err_clear(&e);
    rc = iospd_plat_map_open(state_path, IOSPD_MAP_LOCK, &s->map, &addr, &len,
                             &e);
    if (rc == IOSPD_ENOENT && !create)
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "--verify-only: no verify state file '%s' for "
                           "target '%s': nothing was written to it with "
                           "--verify (or give its place with "
                           "--verify-state=FILE)",
                           state_path, target);
    if (rc == IOSPD_ETOOSMALL && !create)
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "--verify-only: verify state file '%s' for target "
                           "'%s' is empty: no --verify run recorded anything "
                           "in it, so there is nothing to check against",
                           state_path, target);
    if (rc == IOSPD_ETOOSMALL && named)
      return iospd_err_set(err, IOSPD_EUSAGE,
                           "'%s' is empty, not an iospd verify state file: "
                           "iospd makes the state file itself; give "
                           "--verify-state= a name that does not exist yet, "
                           "or delete the empty file", state_path);
    if (rc == IOSPD_ENOENT || rc == IOSPD_ETOOSMALL) {
      /* Absent, or empty under the default name (no history to lose). */
      bool empty = rc == IOSPD_ETOOSMALL;
      rc = make_state(s, state_path, target, block_size, blocks, empty, seed,
                      &addr, &len, err);
      if (rc == IOSPD_EEXIST) continue;
      if (rc < 0) return rc;
      s->remade_empty = empty;
      break;
    }
    if (rc < 0)
      return iospd_err_set(err, rc == IOSPD_EAGAIN || rc == IOSPD_EUNSAFE
                                    ? IOSPD_EUSAGE
                                    : rc,
                           "--verify state file '%s': %s", state_path,
                           e.msg[0] ? e.msg : iospd_strerror(rc));
    rc = iospd_vstate_check(addr, len, state_path, target, block_size, blocks,
                            create, err);
    if (rc < 0) return rc;
    break;
  }
  if (s->map == NULL)
    return iospd_err_set(err, IOSPD_EAGAIN,
                         "--verify state file '%s' keeps appearing and "
                         "disappearing: is another program making it?",
                         state_path);
  bind(s, addr);
  if (create) {
    /* Writes a dead run left in flight stay indeterminate until
     * rewritten. One process holds the state (IOSPD_MAP_LOCK), so any
     * in-flight mark found now belongs to a run that is gone. */
    for (uint64_t i = 0; i < s->block_count; i++) {
      uint64_t w = atomic_load_explicit(&s->words[i], memory_order_relaxed);
      uint64_t f = iospd_vw_flight(w);
      if (f != 0) {
        s->dead++;
        if (f != IOSPD_VW_DEAD)
          atomic_store_explicit(
              &s->words[i],
              (w & ~(IOSPD_VW_FLIGHT_MASK << IOSPD_VW_FLIGHT_SHIFT)) |
                  (IOSPD_VW_DEAD << IOSPD_VW_FLIGHT_SHIFT),
              memory_order_relaxed);
      }
    }
  }
  return 0;
}

int iospd_vstate_open(iospd_vstate_t* s, const char* state_path,
                      const char* target, uint64_t target_size,
                      uint32_t block_size, bool create, bool named,
                      uint64_t seed, iospd_err_t* err) {
  memset(s, 0, sizeof(*s));
  s->path = iospd_strdup(state_path);
  if (s->path == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  int rc = open_state(s, state_path, target, target_size, block_size, create,
                      named, seed, err);
  if (rc < 0) iospd_vstate_close(s); /* frees the path too */
  return rc;
}

int iospd_vstate_flush(iospd_vstate_t* s, iospd_err_t* err) {
  return iospd_plat_map_flush(s->map, err);
}

void iospd_vstate_close(iospd_vstate_t* s) {
  iospd_plat_map_close(s->map);
  iospd_free(s->path);
  s->path = NULL;
  s->map = NULL;
  s->hdr = NULL;
  s->words = NULL;
}

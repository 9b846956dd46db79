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

static int open_state(iospd_vstate_t* s, const char* state_path,
                      const char* target, uint64_t target_size,
                      uint32_t block_size, bool create, uint64_t seed,
                      iospd_err_t* err) {
  uint64_t blocks = target_size / block_size;
  uint64_t size = IOSPD_VSTATE_HDR + blocks * 8u;
  void* addr = NULL;
  uint64_t len = 0;
  bool made = false;
  iospd_err_t e;
  iospd_err_clear(&e);
  unsigned flags = IOSPD_MAP_LOCK | (create ? IOSPD_MAP_CREATE : 0);
  int rc = iospd_plat_map_open(state_path, size, flags, &s->map, &addr, &len,
                               &made, &e);
  if (rc == IOSPD_ENOENT && !create)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "--verify-only: no verify state file '%s' for "
                         "target '%s': nothing was written to it with "
                         "--verify (or give its place with "
                         "--verify-state=FILE)",
                         state_path, target);
  if (rc < 0)
    return iospd_err_set(err, rc == IOSPD_EAGAIN ? IOSPD_EUSAGE : rc,
                         "--verify state file '%s': %s", state_path,
                         e.msg[0] ? e.msg : iospd_strerror(rc));
  iospd_vstate_hdr_t* h = addr;
  bool complete = len >= IOSPD_VSTATE_HDR && memcmp(h->magic, k_smagic, 8) == 0;
  if (!made && !complete && create) {
    /* A creation that was cut short (the magic is written last): start it
     * again. */
    iospd_plat_map_close(s->map);
    s->map = NULL;
    rc = iospd_plat_map_open(state_path, size, flags | IOSPD_MAP_RESET,
                             &s->map, &addr, &len, &made, &e);
    if (rc < 0)
      return iospd_err_set(err, rc, "--verify state file '%s': %s",
                           state_path, e.msg[0] ? e.msg : iospd_strerror(rc));
    h = addr;
  } else if (!complete && !made) {
    iospd_vstate_close(s);
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' is not an iospd verify state file (or its "
                         "creation was cut short)", state_path);
  }
  if (made) {
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
  if (h->version != 1 || h->block_size != block_size ||
      len < IOSPD_VSTATE_HDR + h->block_count * 8u) {
    uint32_t was = h->block_size;
    iospd_vstate_close(s);
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "verify state file '%s' was made for -b%u, not "
                         "-b%u: verify with the block size the data was "
                         "written with, or delete the file to start afresh",
                         state_path, was, block_size);
  }
  if (h->block_count != blocks && create) {
    uint64_t was = h->block_count;
    iospd_vstate_close(s);
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "verify state file '%s' holds %llu blocks, but "
                         "target '%s' now has %llu: the target changed "
                         "size; delete the state file to start afresh",
                         state_path, (unsigned long long)was, target,
                         (unsigned long long)blocks);
  }
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
                      uint32_t block_size, bool create, uint64_t seed,
                      iospd_err_t* err) {
  memset(s, 0, sizeof(*s));
  s->path = iospd_strdup(state_path);
  if (s->path == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  int rc = open_state(s, state_path, target, target_size, block_size, create,
                      seed, err);
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

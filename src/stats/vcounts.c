/* SPDX-License-Identifier: MIT */
/* The words of each --verify outcome, and adding up and keeping what the
 * checks found (iospd/vcounts.h). */
#include <string.h>

#include "iospd/vcounts.h"

static const char* const k_names[IOSPD_VK_COUNT] = {
    "ok", "not written by a verified run", "in flight (indeterminate)",
    "bad checksum", "stale generation (lost write)",
    "wrong offset in header (misdirected write)", "zeroed block",
    "torn block (part old, part new)"};
static const char* const k_keys[IOSPD_VK_COUNT] = {
    "ok", "untracked", "indeterminate", "badChecksum", "staleGeneration",
    "misdirected", "zeroed", "torn"};

const char* iospd_vkind_name(iospd_vkind_t k) {
  return (unsigned)k < IOSPD_VK_COUNT ? k_names[k] : "?";
}
const char* iospd_vkind_key(iospd_vkind_t k) {
  return (unsigned)k < IOSPD_VK_COUNT ? k_keys[k] : "?";
}

uint64_t iospd_vcounts_failures(const iospd_vcounts_t* c) {
  uint64_t n = 0;
  for (int k = IOSPD_VK_FIRST_FAILURE; k < IOSPD_VK_COUNT; k++)
    n += c->kinds[k];
  return n;
}

void iospd_vcounts_add(iospd_vcounts_t* dst, const iospd_vcounts_t* src) {
  dst->written += src->written;
  for (int k = 0; k < IOSPD_VK_COUNT; k++) dst->kinds[k] += src->kinds[k];
}

void iospd_vfail_keep(iospd_vfail_t* list, uint32_t* count, uint32_t cap,
                      const iospd_vfail_t* f) {
  uint32_t n = *count;
  if (n == cap && (n == 0 || !list[n - 1].repeat)) return; /* all distinct */
  uint32_t d = 0; /* the distinct entries are list[0, d) */
  bool seen = false;
  for (; d < n && !list[d].repeat; d++)
    if (list[d].block == f->block && list[d].target == f->target) seen = true;
  if (seen) {
    if (n < cap) {
      list[n] = *f;
      list[n].repeat = 1;
      *count = n + 1;
    }
    return;
  }
  /* A new block: after the distinct ones; when full, the last repeat goes. */
  uint32_t keep = n < cap ? n : n - 1;
  memmove(&list[d + 1], &list[d], (size_t)(keep - d) * sizeof(*list));
  list[d] = *f;
  list[d].repeat = 0;
  if (n < cap) *count = n + 1;
}

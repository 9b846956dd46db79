/* SPDX-License-Identifier: MIT */
/* Allocation wrappers: one place to fail allocations in tests and to catch
 * allocation on the I/O hot path in debug builds. */
#include "iospd/alloc.h"

#include <stdlib.h>
#include <string.h>

static bool (*alloc_gate)(size_t n);
static _Thread_local int hot_depth;

void iospd_alloc_set_gate(bool (*fn)(size_t n)) { alloc_gate = fn; }

void iospd_hot_enter(void) { hot_depth++; }
void iospd_hot_leave(void) { hot_depth--; }

static bool alloc_allowed(size_t n) {
#ifndef NDEBUG
  /* A worker allocating inside its measured loop is a bug, not an error. */
  if (hot_depth > 0) abort();
#endif
  return alloc_gate == NULL || alloc_gate(n);
}

void* iospd_malloc(size_t n) {
  if (!alloc_allowed(n)) return NULL;
  return malloc(n == 0 ? 1 : n);
}

void* iospd_calloc(size_t count, size_t size) {
  if (!alloc_allowed(count * size)) return NULL;
  return calloc(count == 0 ? 1 : count, size == 0 ? 1 : size);
}

void* iospd_realloc(void* p, size_t n) {
  if (!alloc_allowed(n)) return NULL;
  return realloc(p, n == 0 ? 1 : n);
}

void iospd_free(void* p) { free(p); }

char* iospd_strndup(const char* s, size_t n) {
  if (s == NULL) return NULL;
  size_t len = strlen(s);
  if (len > n) len = n;
  char* d = iospd_malloc(len + 1);
  if (d == NULL) return NULL;
  memcpy(d, s, len);
  d[len] = '\0';
  return d;
}

char* iospd_strdup(const char* s) {
  return s == NULL ? NULL : iospd_strndup(s, strlen(s));
}

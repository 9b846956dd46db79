/* SPDX-License-Identifier: MIT */
/* All heap allocation goes through these, so tests can count or fail
 * allocations and debug builds can catch allocation on the I/O hot path. */
#ifndef IOSPD_ALLOC_H
#define IOSPD_ALLOC_H

#include "iospd/common.h"

void* iospd_malloc(size_t n);
void* iospd_calloc(size_t count, size_t size);
void* iospd_realloc(void* p, size_t n);
void iospd_free(void* p);
/* Copies a NUL-terminated string; NULL in, NULL out. */
char* iospd_strdup(const char* s);
char* iospd_strndup(const char* s, size_t n);

/* Test hook: when set, every allocation calls fn first and fails (returns
 * NULL) if fn returns false. NULL restores normal behaviour. */
void iospd_alloc_set_gate(bool (*fn)(size_t n));

/* Hot-path guard: between enter and leave on one thread, debug builds abort on
 * any iospd_malloc/calloc/realloc from that thread. */
void iospd_hot_enter(void);
void iospd_hot_leave(void);

#endif

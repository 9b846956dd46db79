/* SPDX-License-Identifier: MIT */
/* Small macros every iospd file may use: array sizes, container_of, branch
 * hints, cache-line alignment and a must-check marker. No OS headers here. */
#ifndef IOSPD_COMMON_H
#define IOSPD_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IOSPD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define IOSPD_CONTAINER_OF(ptr, type, member) \
  ((type*)((char*)(ptr)-offsetof(type, member)))
#define IOSPD_STATIC_ASSERT(expr, msg) _Static_assert(expr, msg)
#define IOSPD_CACHELINE 64

#if defined(__GNUC__)
#define IOSPD_LIKELY(x) __builtin_expect(!!(x), 1)
#define IOSPD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define IOSPD_MUST_CHECK __attribute__((warn_unused_result))
#define IOSPD_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#define IOSPD_ALIGNED(n) __attribute__((aligned(n)))
#else
#define IOSPD_LIKELY(x) (x)
#define IOSPD_UNLIKELY(x) (x)
#define IOSPD_MUST_CHECK
#define IOSPD_PRINTF(f, a)
#define IOSPD_ALIGNED(n)
#endif

#define IOSPD_MIN(a, b) ((a) < (b) ? (a) : (b))
#define IOSPD_MAX(a, b) ((a) > (b) ? (a) : (b))

#endif

/* SPDX-License-Identifier: MIT */
/* What every CMocka test includes: cmocka's prerequisites in the right order,
 * and a few helpers shared by tests. */
#ifndef IOSPD_TEST_UTIL_H
#define IOSPD_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Exit code that ctest reads as "skipped" (SKIP_RETURN_CODE 77). */
#define IOSPD_TEST_SKIP 77

#endif

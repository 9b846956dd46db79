/* SPDX-License-Identifier: MIT */
/* The validation rules' one way to report a broken rule (profile layer,
 * private): an "error: ..." line in diag (NULL: only counted) and one more
 * in *errors. */
#ifndef IOSPD_VALIDATE_DIAG_H
#define IOSPD_VALIDATE_DIAG_H

#include "iospd/common.h"
#include "iospd/strbuf.h"

void iospd_validate_bad(iospd_strbuf_t* diag, int* errors, const char* fmt, ...)
    IOSPD_PRINTF(3, 4);

#endif

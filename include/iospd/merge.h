/* SPDX-License-Identifier: MIT */
/* iospd --merge: several -Rjson result documents of one profile -> one
 * document in the same schema (plus "merged_from"), which merges again.
 * The rules (what adds, what is recomputed, what must be equal) are in
 * docs/merging.md and src/merge/merge.c. The core never opens files: the
 * caller hands in each file's name and text. */
#ifndef IOSPD_MERGE_H
#define IOSPD_MERGE_H

#include "iospd/error.h"
#include "iospd/strbuf.h"

typedef struct iospd_merge_input_s {
  const char* name; /* as the user typed it; used in messages and merged_from */
  const char* text; /* the file's bytes (need not be NUL-terminated) */
  size_t len;
} iospd_merge_input_t;

/* Merges n >= 1 documents and appends the merged JSON (one document, a
 * trailing newline) to out. Returns 0, or IOSPD_EUSAGE (bad input: not
 * JSON, not iospd results, different profiles; err names the file and what
 * is wrong) or IOSPD_ENOMEM. */
int iospd_merge(const iospd_merge_input_t* in, size_t n, iospd_strbuf_t* out,
                iospd_err_t* err);

#endif

/* SPDX-License-Identifier: MIT */
/* The one loader of saved -Rjson result documents, shared by --merge,
 * --compare and --report: parses a file's text (cJSON) and checks that it
 * is whole iospd results this iospd can read. The core never opens files:
 * the caller reads the file and hands in its name and bytes. Every refusal
 * is IOSPD_EUSAGE (bad input; main.c exits 3) with a message that names the
 * file, the mode and what is wrong. */
#ifndef IOSPD_RESULTS_DOC_H
#define IOSPD_RESULTS_DOC_H

#include "iospd/error.h"

struct cJSON; /* cJSON.h; include it to walk the tree */

#define IOSPD_RESULTS_FORMAT "iospd-results"
#define IOSPD_RESULTS_FORMAT_VERSION 1 /* the newest format_version read */

/* Parses len bytes of text (no NUL terminator needed) named name (as the
 * user typed it) for mode (e.g. "--compare", used in messages as
 * "'a.json' (--compare): ..."). On success *out is the document (free it
 * with cJSON_Delete) and 0 is returned. Else *out is NULL and the return is
 * IOSPD_EUSAGE with err saying which of these it is:
 *   the file is empty / holds a NUL byte;
 *   "truncated: ... ends at byte N ..." (the JSON stops before the document
 *     is complete) or "not JSON: parsing stops near byte N (line L, column C)";
 *   "JSON, but not iospd results" (no "format": "iospd-results");
 *   "written by a newer iospd (format_version N); this iospd reads 1";
 *   an unreadable format_version; a missing system/environment/profile
 *     object or timespans array;
 * or IOSPD_ENOMEM. */
int iospd_results_doc_parse(const char* name, const char* text, size_t len,
                            const char* mode, struct cJSON** out,
                            iospd_err_t* err);

/* Attaches a --timeseries .jsonl file (text, len bytes, named name) to a
 * loaded document as its "timeseries" array (replacing one it has), the
 * way --output=html embeds the rows: one JSON object per line, each a row
 * of docs/time-series.md (with "timespan" and "phase"). Empty lines are
 * skipped. Returns 0, IOSPD_EUSAGE ("'a.jsonl' (--compare): line 3 is not
 * JSON ..." / "... is not a row of an iospd time series ...") or
 * IOSPD_ENOMEM; the document is unchanged on error. */
int iospd_results_doc_add_timeseries(struct cJSON* doc, const char* name,
                                     const char* text, size_t len,
                                     const char* mode, iospd_err_t* err);

/* The "format" of a document (iospd-results, iospd-curve, iospd-pts ...)
 * when it is its first key, as every iospd writer puts it, into word (at
 * most cap - 1 bytes); false when it is not found that way (the full
 * loader then says what is wrong). Lets --report and --compare pick the
 * reader without parsing a large file twice. */
bool iospd_results_doc_format(const char* text, size_t len, char* word,
                              size_t cap);

#endif

/* SPDX-License-Identifier: MIT */
/* The latency percentiles the reports list, in one table (src/stats/
 * percentiles.c): every whole percentile 0..99, the nines 99.9 to
 * 99.9999999, and 100, as the XML <Bucket> list and the JSON "percentiles"
 * array give them (DISKSPD's list); the text report's %-ile table and the
 * tree report take the rows marked for them, with the text's labels
 * ("min", "25th", "3-nines", "max"). Ascending, so each list is in order. */
#ifndef IOSPD_PERCENTILES_H
#define IOSPD_PERCENTILES_H

#include <stddef.h>

enum {
  IOSPD_PCT_TEXT = 1u << 0, /* a row of the text report's %-ile table */
  IOSPD_PCT_TREE = 1u << 1  /* a column of the tree report */
};

typedef struct iospd_pct_s {
  double p;          /* 0..100 */
  const char* label; /* as XML and JSON spell it: "0", "99.9", "100" */
  const char* text;  /* the text table's label, NULL when not in it */
  unsigned lists;    /* IOSPD_PCT_*: the shorter lists that show it */
} iospd_pct_t;

/* The whole list (*n rows: 108). */
const iospd_pct_t* iospd_pct_list(size_t* n);

#endif

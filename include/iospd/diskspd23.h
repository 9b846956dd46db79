/* SPDX-License-Identifier: MIT */
/* The closed word sets DISKSPD 2.3 added (issue #25), in one table each:
 * how the -a traversal, -bs buffer separation and -Sy/-SY BypassIO values
 * are written in the XML profile and in the text "Input parameters". The
 * XML reader and writer, the text report and the parser's messages read
 * them here, so no word is spelled twice. Also the buffer-separation size
 * and the explicit-affinity masks, which the writers and the run share. */
#ifndef IOSPD_DISKSPD23_H
#define IOSPD_DISKSPD23_H

#include "iospd/common.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

typedef struct iospd_d23_word_s {
  int value;
  const char* xml;  /* the XML element text or attribute value */
  const char* text; /* the words of the text report */
} iospd_d23_word_t;

/* Each list ends with {0, NULL, NULL}. */
extern const iospd_d23_word_t iospd_d23_efficiency[]; /* iospd_aff_efficiency_t */
extern const iospd_d23_word_t iospd_d23_group_order[]; /* 0 fill, 1 span */
extern const iospd_d23_word_t iospd_d23_traversal[];   /* 0 cpu, 1 core-aware */
extern const iospd_d23_word_t iospd_d23_bufsep[];      /* iospd_buffer_separation_t */
extern const iospd_d23_word_t iospd_d23_bypass[];      /* iospd_bypass_io_t */

/* The entry of list with this value / this XML word, or NULL. */
const iospd_d23_word_t* iospd_d23_by_value(const iospd_d23_word_t* list,
                                           int value);
const iospd_d23_word_t* iospd_d23_by_xml(const iospd_d23_word_t* list,
                                         const char* word);
/* "a, b or c": the XML words of list, for messages. */
void iospd_d23_xml_words(const iospd_d23_word_t* list, char* buf, size_t cap);

/* The separation -bsp gives each thread's I/O buffer, as DISKSPD 2.3
 * computes it: (largest cache line / 8) x (page size / 8) x page size
 * bytes; 0 for either means 64-byte lines / 4 KiB pages. 16 MiB for 64 and
 * 4096. */
uint64_t iospd_buffer_separation_bytes(uint32_t cache_line, uint32_t page);
/* The level's effective separation of a timespan (LEVEL_DEFAULT resolved:
 * PDE at 2.3, system default at 2.2). */
iospd_buffer_separation_t iospd_buffer_separation_of(
    const iospd_profile_t* p, const iospd_timespan_t* ts);

/* An explicit CPU list as DISKSPD 2.3 holds it: one mask per group, in the
 * order the groups first appear; mask 0 is the whole group. */
typedef struct iospd_group_mask_s {
  uint16_t group;
  uint64_t mask;
} iospd_group_mask_t;
/* Fills out (room for cap entries) from the timespan's list; returns the
 * number of groups (at most cap; every item of a group past cap is lost,
 * so pass affinity_count). */
uint32_t iospd_affinity_masks(const iospd_timespan_t* ts,
                              iospd_group_mask_t* out, uint32_t cap);
/* Rewrites the list in that canonical form: per group in first-appearance
 * order, CPUs ascending, each once, a whole group as one
 * IOSPD_AFFINITY_WHOLE_GROUP item. 0 or IOSPD_ENOMEM. */
int iospd_affinity_canonical(iospd_timespan_t* ts);
/* "0-3,7": the CPUs of a mask, runs of two and more as ranges; "*" for 0. */
void iospd_cpu_mask_text(iospd_strbuf_t* out, uint64_t mask);

/* DISKSPD 2.3's rules (src/profile/profile_validate_23.c), part of
 * iospd_profile_validate: "error: ..." lines into diag (may be NULL);
 * returns how many. */
int iospd_profile_validate_23(const iospd_profile_t* p, iospd_strbuf_t* diag);

/* The word the report uses for the ring -u selects on this platform:
 * "io_uring" where the engine table has it, else "IoRing". */
const char* iospd_ring_label(void);

#endif

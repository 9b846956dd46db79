/* SPDX-License-Identifier: MIT */
/* DISKSPD 2.3's word tables (iospd/diskspd23.h), the buffer-separation size
 * and the per-group affinity masks. */
#include "iospd/diskspd23.h"

#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"

const iospd_d23_word_t iospd_d23_efficiency[] = {
    {IOSPD_AFF_P_FIRST, "PFirst", "P-cores first"},
    {IOSPD_AFF_UNORDERED, "Unordered", "no P/E order"},
    {IOSPD_AFF_E_FIRST, "EFirst", "E-cores first"},
    {IOSPD_AFF_FILL_P_FIRST, "FillPFirst", "fill P-cores first"},
    {IOSPD_AFF_FILL_E_FIRST, "FillEFirst", "fill E-cores first"},
    {0, NULL, NULL}};
const iospd_d23_word_t iospd_d23_group_order[] = {
    {0, "Fill", "fill groups"}, {1, "Span", "span groups"}, {0, NULL, NULL}};
const iospd_d23_word_t iospd_d23_traversal[] = {
    {0, "Cpu", "cpu order"}, {1, "CoreAware", "core-aware"}, {0, NULL, NULL}};
const iospd_d23_word_t iospd_d23_bufsep[] = {
    {IOSPD_BUFSEP_PDE_CACHE_LINE, "PDECacheLine", "thread optimized"},
    {IOSPD_BUFSEP_SYSTEM_DEFAULT, "SystemDefault", "system default"},
    {0, NULL, NULL}};
const iospd_d23_word_t iospd_d23_bypass[] = {
    {IOSPD_BYPASS_PARTIAL, "Partial", "allow partial"},
    {IOSPD_BYPASS_FULL, "Full", "full bypass"},
    {0, NULL, NULL}};

const iospd_d23_word_t* iospd_d23_by_value(const iospd_d23_word_t* list,
                                           int value) {
  for (const iospd_d23_word_t* w = list; w->xml != NULL; w++)
    if (w->value == value) return w;
  return NULL;
}

const iospd_d23_word_t* iospd_d23_by_xml(const iospd_d23_word_t* list,
                                         const char* word) {
  for (const iospd_d23_word_t* w = list; w->xml != NULL; w++)
    if (strcmp(w->xml, word) == 0) return w;
  return NULL;
}

void iospd_d23_xml_words(const iospd_d23_word_t* list, char* buf,
                         size_t cap) {
  size_t len = 0;
  if (cap == 0) return;
  buf[0] = '\0';
  for (const iospd_d23_word_t* w = list; w->xml != NULL; w++) {
    const char* sep = w == list ? "" : (w[1].xml == NULL ? " or " : ", ");
    int n = snprintf(buf + len, cap - len, "%s%s", sep, w->xml);
    if (n < 0 || (size_t)n >= cap - len) return;
    len += (size_t)n;
  }
}

uint64_t iospd_buffer_separation_bytes(uint32_t cache_line, uint32_t page) {
  uint64_t line = cache_line ? cache_line : 64;
  uint64_t pg = page ? page : 4096;
  return (line / 8) * (pg / 8) * pg;
}

iospd_buffer_separation_t iospd_buffer_separation_of(
    const iospd_profile_t* p, const iospd_timespan_t* ts) {
  if (ts->buffer_separation != IOSPD_BUFSEP_LEVEL_DEFAULT)
    return ts->buffer_separation;
  return p->ext.diskspd >= IOSPD_DISKSPD_23 ? IOSPD_BUFSEP_PDE_CACHE_LINE
                                            : IOSPD_BUFSEP_SYSTEM_DEFAULT;
}

uint32_t iospd_affinity_masks(const iospd_timespan_t* ts,
                              iospd_group_mask_t* out, uint32_t cap) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < ts->affinity_count && n < cap; i++) {
    uint16_t g = ts->affinity[i].group;
    uint32_t k = 0;
    while (k < n && out[k].group != g) k++;
    if (k < n) continue;
    /* A group's CPUs, wherever they appear; a whole-group item wins. */
    uint64_t mask = 0;
    bool whole = false;
    for (uint32_t j = i; j < ts->affinity_count; j++) {
      const iospd_affinity_t* a = &ts->affinity[j];
      if (a->group != g) continue;
      if (a->cpu == IOSPD_AFFINITY_WHOLE_GROUP)
        whole = true;
      else if (a->cpu < 64)
        mask |= (uint64_t)1 << a->cpu;
    }
    out[n].group = g;
    out[n].mask = whole ? 0 : mask;
    n++;
  }
  return n;
}

int iospd_affinity_canonical(iospd_timespan_t* ts) {
  if (ts->affinity_count == 0) return 0;
  iospd_group_mask_t* g = iospd_calloc(ts->affinity_count, sizeof *g);
  if (g == NULL) return IOSPD_ENOMEM;
  uint32_t n = iospd_affinity_masks(ts, g, ts->affinity_count);
  uint32_t count = 0;
  for (uint32_t k = 0; k < n; k++) {
    if (g[k].mask == 0) {
      count++;
      continue;
    }
    for (unsigned b = 0; b < 64; b++)
      if (g[k].mask >> b & 1u) count++;
  }
  iospd_affinity_t* list = iospd_calloc(count, sizeof *list);
  if (list == NULL) {
    iospd_free(g);
    return IOSPD_ENOMEM;
  }
  uint32_t m = 0;
  for (uint32_t k = 0; k < n; k++) {
    if (g[k].mask == 0) {
      list[m].group = g[k].group;
      list[m++].cpu = IOSPD_AFFINITY_WHOLE_GROUP;
      continue;
    }
    for (unsigned b = 0; b < 64; b++)
      if (g[k].mask >> b & 1u) {
        list[m].group = g[k].group;
        list[m++].cpu = (uint16_t)b;
      }
  }
  iospd_free(g);
  iospd_free(ts->affinity);
  ts->affinity = list;
  ts->affinity_count = m;
  return 0;
}

void iospd_cpu_mask_text(iospd_strbuf_t* out, uint64_t mask) {
  if (mask == 0) {
    iospd_strbuf_append(out, "*");
    return;
  }
  bool first = true;
  for (unsigned b = 0; b < 64;) {
    if (!(mask >> b & 1u)) {
      b++;
      continue;
    }
    unsigned e = b;
    while (e + 1 < 64 && (mask >> (e + 1) & 1u)) e++;
    iospd_strbuf_appendf(out, "%s%u", first ? "" : ",", b);
    if (e > b) iospd_strbuf_appendf(out, "-%u", e);
    first = false;
    b = e + 1;
  }
}

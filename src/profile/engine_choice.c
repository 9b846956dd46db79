/* SPDX-License-Identifier: MIT */
/* The profile's --engine= choice is an index into the platform's engine
 * table (iospd_plat_engines); these read its words from there, so no word
 * is spelled here. A file of its own so that tools linking only the core
 * library (the man page and completion generators, the XML samples) pull
 * in the platform only when they name engines. */
#include <string.h>

#include "iospd/diskspd23.h"
#include "iospd/platform.h"
#include "iospd/profile.h"

const char* iospd_engine_choice_name(int engine) {
  uint32_t n = 0;
  const iospd_engine_def_t* e = iospd_plat_engines(&n);
  return engine >= 0 && (uint32_t)engine < n ? e[engine].name : NULL;
}

int iospd_engine_choice_parse(const char* name) {
  uint32_t n = 0;
  const iospd_engine_def_t* e = iospd_plat_engines(&n);
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(name, e[i].name) == 0) return (int)i;
  return -1;
}

/* Engines left out of this build are not offered (a run that names one
 * still gets the reason from the platform). */
void iospd_engine_choice_list(iospd_strbuf_t* out, const char* sep,
                              const char* last_sep) {
  uint32_t n = 0, shown = 0, left = 0;
  const iospd_engine_def_t* e = iospd_plat_engines(&n);
  for (uint32_t i = 0; i < n; i++)
    if (!(e[i].caps & IOSPD_ENGINE_CAP_ABSENT)) left++;
  for (uint32_t i = 0; i < n; i++) {
    if (e[i].caps & IOSPD_ENGINE_CAP_ABSENT) continue;
    if (shown > 0)
      iospd_strbuf_append(out, shown + 1 == left ? last_sep : sep);
    iospd_strbuf_append(out, e[i].name);
    shown++;
  }
}

void iospd_engine_choice_syntax(iospd_strbuf_t* out, const char* syntax) {
  const char* at = strstr(syntax, IOSPD_ENGINE_PLACEHOLDER);
  if (at == NULL) {
    iospd_strbuf_append(out, syntax);
    return;
  }
  iospd_strbuf_append_n(out, syntax, (size_t)(at - syntax));
  iospd_strbuf_putc(out, '<');
  iospd_engine_choice_list(out, "|", "|");
  iospd_strbuf_putc(out, '>');
  iospd_strbuf_append(out, at + strlen(IOSPD_ENGINE_PLACEHOLDER));
}

void iospd_engine_choice_help(iospd_strbuf_t* out) {
  uint32_t n = 0;
  const iospd_engine_def_t* e = iospd_plat_engines(&n);
  for (uint32_t i = 0; i < n; i++) {
    if (e[i].caps & IOSPD_ENGINE_CAP_ABSENT) continue;
    iospd_strbuf_appendf(out, "%s%s: %s", i ? "\n" : "", e[i].name,
                         e[i].summary);
  }
}

/* iospd/diskspd23.h: the ring -u selects, as the report names it. */
const char* iospd_ring_label(void) {
  return iospd_engine_choice_parse("io_uring") >= 0 ? "io_uring" : "IoRing";
}

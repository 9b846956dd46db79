/* SPDX-License-Identifier: MIT */
/* Handlers of the Windows switches with their own syntax: -e (ETW
 * providers and clock) and -y (named events). -x is a FLAG entry. */
#include <string.h>
#include "opt_handlers.h"

int sw_etw(ctx_t* c) {
  iospd_etw_t* e = &c->pp.etw;
  const char* v = c->val;
  /* The one-letter forms exactly; the provider words in any case. */
  const iospd_opt_word_t* w = NULL;
  for (const iospd_opt_word_t* k = c->opt->posval; k->word && !w; k++)
    if (k->word[1] == '\0' ? strcmp(v, k->word) == 0 : ieq(v, k->word))
      w = k;
  if (w == NULL) {
    opt_words_t words;
    return fail(c, "'%s': unknown ETW option; use %s", c->arg,
                opt_words(&words, c->opt));
  }
  /* The word's value is the offset of its bool in iospd_etw_t. */
  *(bool*)((char*)e + w->value) = true;
  e->enabled = true;
  return 0;
}

int sw_event(ctx_t* c) {
  iospd_events_t* ev = &c->pp.events;
  /* The first letter names the event; its value is the offset of that
   * event's name in iospd_events_t. */
  const iospd_opt_word_t* w =
      c->val[0] ? iospd_opt_words_find(c->opt->posval, c->val, 1, false)
                : NULL;
  if (w == NULL) {
    opt_words_t words;
    return fail(c, "'%s': -y needs %s followed by an event name, e.g. "
                   "-ysStart", c->arg, opt_words(&words, c->opt));
  }
  char** dst = (char**)((char*)ev + w->value);
  if (c->val[1] == '\0')
    return fail(c, "'%s': the event name is missing, e.g. -y%cMyEvent",
                c->arg, c->val[0]);
  return set_string(c, dst, c->val + 1);
}

/* SPDX-License-Identifier: MIT */
/* What the switch handlers share (opt_ctx.h): the refusal and warning
 * messages, numbers and sizes read with a message naming the switch, and
 * the handlers of the plain FLAG, UINT and SIZE entries, which store their
 * value at the entry's field. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/message.h"
#include "iospd/units.h"
#include "opt_handlers.h"

int iospd_opt_vfail(ctx_t* c, const char* fmt, va_list ap) {
  char buf[IOSPD_ERR_MSG_MAX];
  vsnprintf(buf, sizeof buf, fmt, ap);
  /* Arguments are quoted into the message; keep it one printable line. */
  for (char* q = buf; *q; q++)
    if ((unsigned char)*q < 0x20 || *q == 0x7f) *q = '?';
  return iospd_err_set(c->err, IOSPD_EUSAGE, "%s", buf);
}

int iospd_opt_nomem(ctx_t* c) {
  return iospd_err_set(c->err, IOSPD_ENOMEM,
                       "out of memory while reading the command line");
}

void iospd_opt_vwarn(ctx_t* c, const char* fmt, va_list ap) {
  if (c->warnings != NULL)
    iospd_msg_vlinef(c->warnings, IOSPD_MSG_WARNING, fmt, ap);
}

void* iospd_opt_field(ctx_t* c, const iospd_opt_def_t* o) {
  switch (o->scope) {
    case IOSPD_SCOPE_TARGET: return (char*)&c->tgt + o->off;
    case IOSPD_SCOPE_TIMESPAN: return (char*)&c->ts + o->off;
    case IOSPD_SCOPE_PROFILE: return (char*)&c->pp + o->off;
    default: return NULL;
  }
}

/* A whole number min..max; "what" names it in the message. */
int iospd_opt_get_uint(ctx_t* c, const char* s, uint64_t min, uint64_t max,
                       const char* what, uint64_t* out) {
  uint64_t v = 0;
  if (iospd_parse_uint(s, max, &v) != 0 || v < min)
    return fail(c,
                "'%s': the %s must be a whole number from %" PRIu64
                " to %" PRIu64 ", not '%s'",
                c->arg, what, min, max, s);
  *out = v;
  return 0;
}

int iospd_opt_get_size(ctx_t* c, const char* s, uint64_t min, uint64_t max,
                       const char* what, uint64_t* out) {
  uint64_t v = 0;
  int rc = iospd_parse_size(s, c->block_unit, &v, NULL);
  const char* why =
      max == IOSPD_MAX_OFFSET ? " (the largest file offset)" : "";
  if (rc == IOSPD_ERANGE)
    return fail(c, "'%s': the %s '%s' is too large: at most %" PRIu64
                   " bytes%s", c->arg, what, s, max, why);
  if (rc != 0)
    return fail(c, "'%s': the %s must be a size (" SIZE_HINT "), not '%s'",
                c->arg, what, s);
  if (v < min && max >= IOSPD_MAX_OFFSET)
    return fail(c, "'%s': the %s must be at least %" PRIu64 " byte%s",
                c->arg, what, min, min == 1 ? "" : "s");
  if (v < min || v > max)
    return fail(c,
                "'%s': the %s must be from %" PRIu64 " to %" PRIu64
                " bytes%s, not %" PRIu64,
                c->arg, what, min, max, why, v);
  *out = v;
  return 0;
}

int iospd_opt_set_string(ctx_t* c, char** dst, const char* s) {
  char* copy = iospd_strdup(s);
  if (copy == NULL) return nomem(c);
  iospd_free(*dst);
  *dst = copy;
  return 0;
}

/* ---- the entries without a handler ---- */

int sw_flag(ctx_t* c) {
  const iospd_opt_def_t* o = c->opt;
  if (c->val[0] != '\0')
    return fail(c, "'%s': -%s takes no value", c->arg, o->name);
  *(bool*)field(c, o) = true;
  return 0;
}

int sw_uint(ctx_t* c) {
  const iospd_opt_def_t* o = c->opt;
  uint64_t v = o->bare_value;
  if (c->val[0] == '\0') {
    if (!(o->flags & IOSPD_OPTF_BARE_OK))
      return fail(c, "'-%s' needs a value: the %s, a whole number from "
                     "%" PRIu64 " to %" PRIu64,
                  o->name, o->what, o->min, o->max);
  } else {
    int rc = get_uint(c, c->val, o->min, o->max, o->what, &v);
    if (rc) return rc;
  }
  *(uint32_t*)field(c, o) = (uint32_t)v;
  return 0;
}

int sw_size(ctx_t* c) {
  const iospd_opt_def_t* o = c->opt;
  uint64_t v = 0;
  if (c->val[0] == '\0')
    return fail(c, "'-%s' needs a value: the %s (" SIZE_HINT ")", o->name,
                o->what);
  int rc = get_size(c, c->val, o->min, o->max, o->what, &v);
  if (rc) return rc;
  *(uint64_t*)field(c, o) = v;
  return 0;
}

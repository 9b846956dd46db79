/* SPDX-License-Identifier: MIT */
/* Handlers of -X<file> (the profile is read after pass 1, in cmdline.c),
 * of the other iospd long options (--allow-raw-write, --engine, --compress,
 * --dedupe) and of the modes (--merge, --report, --compare, --ping,
 * --version), which reach the parse loop only when misplaced. */
#include <string.h>
#include "opt_handlers.h"

int sw_engine(ctx_t* c) {
  const char* v = c->val;
  bool empty = *v != '=' || v[1] == '\0';
  int engine = empty ? -1 : iospd_engine_choice_parse(v + 1);
  if (engine >= 0) {
    c->pp.ext.engine = engine;
    return 0;
  }
  /* A word this platform lacks is refused with the words it has. */
  iospd_strbuf_t words;
  iospd_strbuf_init(&words);
  iospd_engine_choice_list(&words, ", ", " or ");
  int rc = empty ? fail(c, "'%s': use --engine=%s", c->arg,
                        iospd_strbuf_cstr(&words))
                 : fail(c, "'%s': unknown engine '%s'; use %s", c->arg, v + 1,
                        iospd_strbuf_cstr(&words));
  iospd_strbuf_destroy(&words);
  return rc;
}

/* --compress=PCT, --dedupe=PCT: a whole percentage 0..100. */
static int sw_content_pct(ctx_t* c, const char* name, const char* what,
                          int32_t* dst) {
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --%s=PCT with PCT the %s, a whole number "
                   "from 0 to 100", c->arg, name, what);
  v++;
  uint64_t n = 0;
  const char* p = v;
  for (; *p >= '0' && *p <= '9' && n <= 100; p++) n = n * 10 + (uint64_t)(*p - '0');
  if (*p != '\0' || p == v || n > 100)
    return fail(c, "'%s': --%s takes the %s as a whole number from 0 to "
                   "100, not '%s'", c->arg, name, what, v);
  *dst = (int32_t)n;
  return 0;
}

int sw_allow_raw_write(ctx_t* c) {
  c->pp.ext.allow_raw_write = true;
  return 0;
}

int sw_compress(ctx_t* c) {
  return sw_content_pct(c, "compress", "zlib saving", &c->tgt.compress_pct);
}

int sw_dedupe(ctx_t* c) {
  return sw_content_pct(c, "dedupe", "share of repeated blocks",
                        &c->tgt.dedupe_pct);
}

/* The modes: iospd_cmdline_parse takes them as the first (or only)
 * argument; anywhere else they come here and are refused. */
int sw_report(ctx_t* c) {
  return fail(c, "'%s' is a mode of its own and must be the first "
                 "argument: iospd --report a.json [b.json ...] "
                 "--output=html:FILE", c->arg);
}

int sw_merge(ctx_t* c) {
  return fail(c, "'%s' is a mode of its own and must be the first "
                 "argument: iospd --merge a.json b.json ...", c->arg);
}

int sw_compare(ctx_t* c) {
  return fail(c, "'%s' is a mode of its own and must be the first "
                 "argument: iospd --compare a.json b.json ...", c->arg);
}

int sw_ping(ctx_t* c) {
  return fail(c, "'%s' is a mode and must be the first argument: "
                 "iospd --ping[=COUNT] [switches] PATH", c->arg);
}

int sw_version(ctx_t* c) {
  return fail(c, "'%s' must be the only argument: iospd --version", c->arg);
}

/* -X<file>: the profile is read after pass 1 (cmdline.c read_xml). */
int sw_xml(ctx_t* c) {
  if (c->val[0] == '\0') {
    /* "-X file.xml": as in DISKSPD the name must be glued to -X, and
     * the separate word was taken as a target. Show the right form. */
    if (c->target_count > 0 && c->arg == c->last_switch)
      return fail(c, "'%s' needs the profile file name glued to it, "
                     "with no space: %.1sX%s", c->arg, c->arg,
                  c->targets[0]);
    return fail(c, "'-X' needs the profile file name glued to it, e.g. "
                   "-Xprofile.xml");
  }
  c->xml_path = c->val;
  return 0;
}

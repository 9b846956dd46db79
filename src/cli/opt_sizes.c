/* SPDX-License-Identifier: MIT */
/* Handlers of the size and offset switches: -b (block size and the 'b'
 * suffix), -B (base offset and length), -c (file to create) and -f (maximum
 * offset or access hints). -T is a plain SIZE entry. */
#include <inttypes.h>
#include <string.h>

#include "iospd/units.h"
#include "opt_handlers.h"

int sw_block(ctx_t* c) {
  const iospd_opt_def_t* o = c->opt;
  uint64_t v = 0;
  if (c->val[0] == '\0')
    return fail(c, "'-b' needs a size, e.g. -b4K or -b64K");
  int rc = get_size(c, c->val, o->min, o->max, o->what, &v);
  if (rc) return rc;
  c->tgt.block_size = (uint32_t)v;
  c->block_unit = v;
  return 0;
}

int sw_base(ctx_t* c) {
  if (c->base_given)
    return fail(c, "'%s': the base offset (-B) may be given only once",
                c->arg);
  if (c->val[0] == '\0')
    return fail(c, "'-B' needs a base offset, e.g. -B1G or -B1G:10G");
  const char* end;
  uint64_t base, len = 0;
  int rc = iospd_parse_size(c->val, c->block_unit, &base, &end);
  if (rc != 0)
    return fail(c, "'%s': the base offset must be a size (" SIZE_HINT ")",
                c->arg);
  bool has_len = false;
  if (*end == ':') {
    has_len = true;
    if (end[1] == '\0')
      return fail(c, "'%s': no length after ':'; use -B<base>:<length>",
                  c->arg);
    if (iospd_parse_size(end + 1, c->block_unit, &len, NULL) != 0)
      return fail(c, "'%s': the length after ':' must be a size (" SIZE_HINT
                     ")", c->arg);
    if (len > UINT64_MAX - base)
      return fail(c, "'%s': base plus length is too large", c->arg);
    if (c->max_given)
      return fail(c, "'%s': the end of the target was already limited by -f; "
                     "use either -B<base>:<length> or -f<size>", c->arg);
  } else if (*end != '\0') {
    return fail(c, "'%s': unexpected '%s' after the base offset; use ':' to "
                   "add a length (-B<base>:<length>)", c->arg, end);
  }
  c->base_given = true;
  c->tgt.base_offset = base;
  if (has_len) {
    c->max_given = true;
    c->tgt.max_file_size = base + len;
  }
  return 0;
}

int sw_create(ctx_t* c) {
  if (c->val[0] == '\0')
    return fail(c, "'-c' needs the size of the file to create, e.g. -c1G");
  uint64_t v = 0;
  int rc = get_size(c, c->val, 0, UINT64_MAX, "file size", &v);
  if (rc) return rc;
  c->tgt.create = true;
  c->tgt.file_size = v;
  return 0;
}

int sw_f(ctx_t* c) {
  const char* v = c->val;
  if (v[0] == '\0')
    return fail(c, "'-f' needs a maximum size (-f<size>) or access hints "
                   "(-fr, -fs, -ft)");
  if (is_digit(v[0])) {
    if (c->max_given)
      return fail(c, "'%s': the end of the target may be limited only once "
                     "(by -f<size> or -B<base>:<length>)", c->arg);
    uint64_t size;
    int rc = get_size(c, v, 0, UINT64_MAX, "maximum target size", &size);
    if (rc) return rc;
    c->max_given = true;
    c->tgt.max_file_size = size;
    return 0;
  }
  for (const char* p = v; *p; p++) {
    switch (*p) {
      case 'r': c->tgt.random_access = true; break;
      case 's': c->tgt.sequential_scan = true; break;
      case 't': c->tgt.temporary = true; break;
      default:
        return fail(c, "'%s': unknown access hint '%c'; use r (random), s "
                       "(sequential) or t (temporary), or -f<size>",
                    c->arg, *p);
    }
  }
  return 0;
}

/* SPDX-License-Identifier: MIT */
/* Handlers of the caching switches: -S (cache mode letters), -h (old -Sh)
 * and -N (memory-mapped flush). The -S/-h state stays UNSET until given, so
 * a property set twice is refused; the parse loop turns it into the
 * target's fields at the end. */
#include <string.h>

#include "opt_handlers.h"

int sw_h(ctx_t* c) {
  if (c->val[0] != '\0')
    return fail(c, "'%s': -h takes no value (it is the old spelling of -Sh)",
                c->arg);
  if (c->cache != UNSET || c->write_through != UNSET)
    return fail(c, "'-h' conflicts with an earlier cache or write-through "
                   "switch (-S...)");
  c->cache = IOSPD_CACHE_DISABLE_OS;
  c->write_through = 1;
  return 0;
}

int sw_cache(ctx_t* c) {
  const char* v = c->val;
  if (v[0] == '\0') {
    if (c->cache != UNSET || c->mmap != UNSET)
      return fail(c, "'-S' conflicts with an earlier cache mode or -Sm");
    c->cache = IOSPD_CACHE_DISABLE_OS;
    return 0;
  }
  bool unbuffered_here = false; /* u or h in this -S (for y and Y) */
  const char* bypass_letter = NULL;
  for (const char* p = v; *p; p++) {
    if (*p == 'u' || *p == 'h') unbuffered_here = true;
    switch (*p) {
      case 'y':
      case 'Y':
        if (!is_23(c))
          return iospd_opt_needs_23(c, *p == 'y' ? "-Sy (BypassIO)"
                                                 : "-SY (BypassIO)");
        if (!c->env->windows)
          return fail(c, "'%s': -S%c (BypassIO) exists only on Windows; on "
                         "Linux -Su already bypasses the page cache", c->arg,
                      *p);
        if (c->bypass != UNSET)
          return fail(c, "'%s': BypassIO was already asked for; give one of "
                         "y (partial bypass allowed) or Y (full bypass), "
                         "once", c->arg);
        c->bypass = *p == 'y' ? IOSPD_BYPASS_PARTIAL : IOSPD_BYPASS_FULL;
        bypass_letter = p;
        break;
      case 'b':
        if (c->cache != UNSET)
          return fail(c, "'%s': 'b' (cached) conflicts with an earlier cache "
                         "mode; the cache mode may be set only once", c->arg);
        c->cache = IOSPD_CACHE_CACHED;
        break;
      case 'r':
        if (!c->env->windows)
          return fail(c, "'%s': -Sr (disable local caching of a Windows "
                         "remote share) does not exist on this platform",
                      c->arg);
        if (c->cache != UNSET)
          return fail(c, "'%s': 'r' (no local cache) conflicts with an "
                         "earlier cache mode; the cache mode may be set only "
                         "once", c->arg);
        c->cache = IOSPD_CACHE_DISABLE_LOCAL;
        break;
      case 'u':
        if (c->cache != UNSET || c->mmap != UNSET)
          return fail(c, "'%s': 'u' (unbuffered) conflicts with an earlier "
                         "cache mode or with memory-mapped I/O (m)", c->arg);
        c->cache = IOSPD_CACHE_DISABLE_OS;
        break;
      case 'w':
        if (c->write_through != UNSET)
          return fail(c, "'%s': 'w' (write-through) was already set earlier",
                      c->arg);
        c->write_through = 1;
        break;
      case 'm':
        if (c->mmap != UNSET || c->cache == IOSPD_CACHE_DISABLE_OS)
          return fail(c, "'%s': 'm' (memory-mapped) conflicts with earlier "
                         "memory-mapped or unbuffered I/O (-Su, -Sh, -h)", c->arg);
        c->mmap = 1;
        break;
      case 'h':
        if (c->cache != UNSET || c->write_through != UNSET ||
            c->mmap != UNSET)
          return fail(c, "'%s': 'h' (unbuffered + write-through) conflicts "
                         "with an earlier cache, write-through or "
                         "memory-mapped setting", c->arg);
        c->cache = IOSPD_CACHE_DISABLE_OS;
        c->write_through = 1;
        break;
      default:
        /* -Sr is refused on Linux, so it is not offered there. */
        if (c->env->windows && is_23(c))
          return fail(c, "'%s': unknown -S letter '%c'; use b, h, m, r, u, "
                         "w, y or Y", c->arg, *p);
        return fail(c, "'%s': unknown -S letter '%c'; use b, h, m, %su or w",
                    c->arg, *p, c->env->windows ? "r, " : "");
    }
  }
  if (bypass_letter != NULL && !unbuffered_here)
    return fail(c, "'%s': BypassIO (-S%c) needs unbuffered I/O in the same "
                   "-S: use -Su%c or -Sh%c", c->arg, *bypass_letter,
                *bypass_letter, *bypass_letter);
  return 0;
}

int sw_flush(ctx_t* c) {
  const char* v = c->val;
  /* One letter of the entry's list, in any case. */
  const iospd_opt_word_t* w =
      iospd_opt_words_find(c->opt->posval, v, strlen(v), true);
  if (w == NULL) {
    opt_words_t words;
    return fail(c, "'%s': -N needs exactly one letter: %s", c->arg,
                opt_words(&words, c->opt));
  }
  iospd_flush_type_t f = (iospd_flush_type_t)w->value;
  if (!c->env->windows && f != IOSPD_FLUSH_VIEW_OF_FILE)
    return fail(c, "'%s': non-volatile memory flushes (-Nn, -Ni) exist only "
                   "on Windows; use -Nv", c->arg);
  c->tgt.flush_type = f;
  return 0;
}

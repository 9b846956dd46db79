/* SPDX-License-Identifier: MIT */
/* Handlers of the I/O pattern switches: -r, -rs, -rd (random offsets and
 * their skew), -s (sequential stride), -Z (write data) and -z (seed). */
#include <inttypes.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/units.h"
#include "opt_handlers.h"

int sw_seq(ctx_t* c) {
  const char* v = c->val;
  if (v[0] == 'i') {
    c->tgt.interlocked = true;
    v++;
  }
  uint64_t stride = c->tgt.block_size;
  if (v[0] != '\0') {
    int rc =
        get_size(c, v, 0, IOSPD_MAX_OFFSET, "sequential stride", &stride);
    if (rc) return rc;
  }
  uint32_t r = c->tgt.random_ratio;
  if (r == 100)
    return fail(c, "'%s': sequential I/O (-s) conflicts with random I/O (-r)",
                c->arg);
  if (r > 0)
    return fail(c, "'%s': with -rs, set the alignment with -r<align>, not -s",
                c->arg);
  if (c->tgt.stride_align != 0)
    return fail(c, "'%s': the sequential stride (-s) was already given",
                c->arg);
  c->tgt.stride_align = stride;
  return 0;
}

int sw_random(ctx_t* c) {
  uint64_t align = c->tgt.block_size;
  if (c->val[0] != '\0') {
    int rc = get_size(c, c->val, 1, IOSPD_MAX_OFFSET, "random alignment",
                      &align);
    if (rc) return rc;
  }
  if (c->tgt.random_ratio == 0) {
    c->tgt.random_ratio = 100;
  } else if (c->tgt.random_ratio == 100 && c->tgt.stride_align != 0) {
    return fail(c, "'%s': random I/O (-r) was already given", c->arg);
  }
  if (c->tgt.stride_align != 0)
    return fail(c, "'%s': random I/O (-r) conflicts with the earlier "
                   "sequential stride (-s)", c->arg);
  c->tgt.stride_align = align;
  return 0;
}

int sw_mixed(ctx_t* c) {
  const iospd_opt_def_t* o = c->opt;
  if (c->val[0] == '\0')
    return fail(c, "'-rs' needs the random percentage, 1-100, e.g. -rs30");
  uint64_t pct = 0;
  int rc = get_uint(c, c->val, o->min, o->max, o->what, &pct);
  if (rc) return rc;
  uint32_t r = c->tgt.random_ratio;
  if (r == 0 && c->tgt.stride_align != 0)
    return fail(c, "'%s': -rs conflicts with the earlier sequential stride "
                   "(-s); set the alignment with -r<align>", c->arg);
  if (r != 0 && r != 100)
    return fail(c, "'%s': the random percentage (-rs) was already given",
                c->arg);
  c->tgt.random_ratio = (uint32_t)pct;
  return 0;
}

static int dist_add(ctx_t* c, uint32_t io_base, uint32_t io, uint64_t sbase,
                    uint64_t span) {
  iospd_target_t* t = &c->tgt;
  iospd_dist_range_t* d =
      iospd_realloc(t->dist, (t->dist_count + 1) * sizeof *d);
  if (d == NULL) return nomem(c);
  d[t->dist_count].io_base = io_base;
  d[t->dist_count].io_pct = io;
  d[t->dist_count].span_base = sbase;
  d[t->dist_count].span = span;
  t->dist = d;
  t->dist_count++;
  return 0;
}

/* The n digits at p as a percentage; anything over 100 (however many
 * digits) reads as 101. Leading zeros are fine, as in DISKSPD ("010"). */
static uint32_t pct_digits(const char* p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; i++) {
    v = v * 10 + (uint32_t)(p[i] - '0');
    if (v > 100) return 101;
  }
  return v;
}

int sw_dist(ctx_t* c) {
  if (c->dist_given)
    return fail(c, "'%s': a random distribution (-rd) may be given only once",
                c->arg);
  const char* v = c->val;
  /* The type is a word of the entry's list glued to the pairs. */
  const iospd_opt_word_t* type = NULL;
  for (const iospd_opt_word_t* w = c->opt->posval; w->word && !type; w++)
    if (strncmp(v, w->word, strlen(w->word)) == 0) type = w;
  if (type == NULL) {
    opt_words_t words;
    return fail(c, "'%s': the distribution type must be %s, e.g. "
                   "-rdpct90/10 or -rdabs90/1G", c->arg,
                opt_words(&words, c->opt));
  }
  bool pct = type->value == IOSPD_DIST_PERCENT;
  const char* p = v + strlen(type->word);
  uint32_t io_sum = 0;
  uint64_t span_sum = 0;
  for (;;) {
    size_t n = strspn(p, "0123456789");
    if (n == 0)
      return fail(c, "'%s': expected an I/O percentage (0-100) at '%s'",
                  c->arg, p);
    uint32_t io = pct_digits(p, n);
    if (io > 100 - io_sum)
      return fail(c, "'%s': I/O percentage %.*s brings the total over "
                     "100%% (at most %" PRIu32 " is left)",
                  c->arg, (int)n, p, 100 - io_sum);
    p += n;
    if (*p != '/')
      return fail(c, "'%s': expected '/' after the I/O percentage %" PRIu32,
                  c->arg, io);
    p++;
    uint64_t span;
    if (pct) {
      n = strspn(p, "0123456789");
      span = pct_digits(p, n);
      if (n == 0 || span < 1 || span > 100)
        return fail(c, "'%s': expected a target percentage (1-100) at '%s'",
                    c->arg, p);
      p += n;
    } else {
      const char* end;
      int rc = iospd_parse_size(p, c->block_unit, &span, &end);
      if (rc != 0)
        return fail(c, "'%s': expected a target range size (" SIZE_HINT
                       ") at '%s'", c->arg, p);
      if (span == 0)
        return fail(c, "'%s': a target range may not have zero length",
                    c->arg);
      if (span > UINT64_MAX - span_sum)
        return fail(c, "'%s': the target ranges add up to more than 2^64 "
                       "bytes", c->arg);
      p = end;
    }
    int rc = dist_add(c, io_sum, io, span_sum, span);
    if (rc) return rc;
    io_sum += io;
    span_sum += span;
    if (*p == '\0') break;
    if (*p != ':')
      return fail(c, "'%s': unexpected '%s'; separate <io%%>/<range> pairs "
                     "with ':'", c->arg, p);
    p++;
  }
  /* Tail completion (DISKSPD's -rd rules): leftover I/O goes to the rest. */
  if (io_sum < 100) {
    if (!pct) {
      int rc = dist_add(c, io_sum, 100 - io_sum, span_sum, 0);
      if (rc) return rc;
    } else if (span_sum < 100) {
      int rc = dist_add(c, io_sum, 100 - io_sum, span_sum, 100 - span_sum);
      if (rc) return rc;
    }
  }
  c->tgt.dist_type = (iospd_dist_type_t)type->value;
  c->dist_given = true;
  return 0;
}

int sw_writebuf(ctx_t* c) {
  const char* v = c->val;
  if (v[0] == '\0') {
    c->tgt.pattern = IOSPD_PATTERN_ZERO;
    return 0;
  }
  if (strcmp(v, "r") == 0) {
    c->ts.random_write_data = true;
    return 0;
  }
  const char* end;
  uint64_t size;
  if (iospd_parse_size(v, c->block_unit, &size, &end) != 0 || size == 0 ||
      (*end != '\0' && *end != ','))
    return fail(c, "'%s': use -Z (zeros), -Zr (fresh random data) or "
                   "-Z<size>[,<file>] with a size of at least 1 byte",
                c->arg);
  char* path = NULL;
  if (*end == ',' && end[1] != '\0') {
    path = iospd_strdup(end + 1);
    if (path == NULL) return nomem(c);
  }
  iospd_free(c->tgt.random_data_path);
  c->tgt.random_data_path = path;
  c->tgt.random_data_size = size;
  /* DISKSPD keeps -Z and -Z<size> apart: with both, the profile says "zero"
   * while writes still come from the -Z<size> source buffer. */
  if (c->tgt.pattern != IOSPD_PATTERN_ZERO)
    c->tgt.pattern = IOSPD_PATTERN_RANDOM;
  return 0;
}

int sw_seed(ctx_t* c) {
  if (c->val[0] == '\0') {
    /* DISKSPD seeds from the tick count; the clock comes from env. */
    uint64_t ms = c->env->uptime_ms ? c->env->uptime_ms() : 0;
    c->ts.rand_seed = (uint32_t)ms;
    c->ts.rand_seed_from_clock = true;
    return 0;
  }
  uint64_t v = 0;
  if (iospd_parse_uint(c->val, UINT32_MAX, &v) != 0)
    return fail(c,
                "'%s': the random seed must be a whole number from 0 to "
                "4294967295 (or -z alone to seed from the clock)",
                c->arg);
  c->ts.rand_seed = (uint32_t)v;
  c->ts.rand_seed_from_clock = false;
  return 0;
}

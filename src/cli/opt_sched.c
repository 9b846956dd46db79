/* SPDX-License-Identifier: MIT */
/* Handlers of the thread placement and rate switches: -a (CPU affinity)
 * and -g (throughput limit in bytes/ms or I/Os per second). -t -o -F -O -n
 * -I -i -j are plain UINT/FLAG entries. */
#include <inttypes.h>
#include <string.h>

#include "iospd/alloc.h"
#include "opt_handlers.h"

static int affinity_add(ctx_t* c, uint32_t group, uint32_t cpu) {
  iospd_timespan_t* ts = &c->ts;
  iospd_affinity_t* a =
      iospd_realloc(ts->affinity, (ts->affinity_count + 1) * sizeof *a);
  if (a == NULL) return nomem(c);
  a[ts->affinity_count].group = (uint16_t)group;
  a[ts->affinity_count].cpu = (uint16_t)cpu;
  ts->affinity = a;
  ts->affinity_count++;
  return 0;
}

/* A DISKSPD 2.3 form of -a, refused at 2.2 with a pointer to 2.3. */
static const char* form_23(const char* s) {
  if (strchr("csPpeEu", s[0]) != NULL && s[0] != '\0')
    return "-a with letters (c, s, p, P, e, E, -aup)";
  for (const char* q = s; *q; q++)
    if (*q == '-' && q > s && is_digit(q[-1]) && is_digit(q[1]))
      return "a CPU range (N-M) in -a";
  size_t n = strspn(s + 1, "0123456789");
  if (s[0] == 'g' && n > 0 && s[1 + n] == '\0')
    return "a whole processor group (-ag<n>)";
  return NULL;
}

int sw_affinity(ctx_t* c) {
  const char* s = c->val;
  if (is_23(c)) return iospd_opt_affinity_23(c);
  /* -a and -ag keep the default round-robin assignment. */
  if (s[0] == '\0' || strcmp(s, "g") == 0) return 0;
  const char* f23 = form_23(s);
  if (f23 != NULL) return iospd_opt_needs_23(c, f23);
  uint32_t group = 0;
  bool need_cpu = false; /* a g<n> waits for its first CPU */
  const char* p = s;
  for (;;) {
    bool is_group = false;
    const char* item = p;
    if (*p == 'g') {
      is_group = true;
      p++;
    }
    if (!is_digit(*p)) {
      if (*p == '\0')
        return fail(c,
                    "'%s': the affinity list ends early; expected %s at "
                    "the end",
                    c->arg, is_group ? "a group number after 'g'"
                                     : "a CPU number");
      return fail(c,
                  "'%s': unexpected '%c' at position %d of the affinity "
                  "list; expected %s (items are CPU numbers 0-255 or "
                  "g<group>, separated by commas)",
                  c->arg, *p, (int)(p - s) + 1,
                  is_group ? "a group number after 'g'"
                           : (*p == ',' ? "a CPU number, not an empty item"
                                        : "a CPU number"));
    }
    uint64_t v = 0;
    while (is_digit(*p)) {
      v = v * 10 + (uint64_t)(*p - '0');
      if (v > 0xFFFFFFFFull) break;
      p++;
    }
    if (is_group) {
      if (v > 65535)
        return fail(c, "'%s': processor group %.*s is out of range (0-65535)",
                    c->arg, (int)strspn(item + 1, "0123456789"), item + 1);
      group = (uint32_t)v;
      need_cpu = true;
    } else {
      if (v > 255)
        return fail(c, "'%s': CPU %.*s is out of range (0-255 within a group)",
                    c->arg, (int)strspn(item, "0123456789"), item);
      int rc = affinity_add(c, group, (uint32_t)v);
      if (rc) return rc;
      need_cpu = false;
    }
    if (*p == '\0') break;
    if (*p != ',')
      return fail(c,
                  "'%s': unexpected '%c' at position %d of the affinity list; "
                  "separate items with commas",
                  c->arg, *p, (int)(p - s) + 1);
    p++;
    if (*p == '\0')
      return fail(c, "'%s': the affinity list ends with a comma", c->arg);
  }
  if (need_cpu)
    return fail(c, "'%s': processor group given without a CPU after it",
                c->arg);
  return 0;
}

/* ---- -a at DISKSPD 2.3 ---------------------------------------------------
 * Either letters for the default placement (c s, one of p P e E; or -aup)
 * or an explicit list: CPUs 0-63, ranges N-M, g<n> switching the group of
 * what follows, a lone g<n> meaning the whole group. Several -a switches
 * add up, in order; the list is put in its per-group form at the end of the
 * parse (iospd_opt_finish_23). */

static int order_letter(ctx_t* c, iospd_aff_efficiency_t e, char letter) {
  if (c->aff_order_arg != NULL) {
    if (c->aff_order_arg == c->arg)
      return fail(c, "'%s': only one efficiency order (p, P, e or E) may be "
                     "given; '%c' is a second one", c->arg, letter);
    return fail(c, "'%s' conflicts with the efficiency order of '%s'; give "
                   "one of p, P, e, E or -aup once", c->arg,
                c->aff_order_arg);
  }
  c->aff_order_arg = c->arg;
  c->ts.affinity_efficiency = e;
  return 0;
}

static int affinity_letters(ctx_t* c, const char* s) {
  if (s[0] == 'u') {
    if (s[1] != 'p')
      return fail(c, "'%s': -au must be -aup (no P/E efficiency order)",
                  c->arg);
    if (s[2] != '\0')
      return fail(c, "'%s': nothing may follow -aup; give other letters in "
                     "their own -a switch", c->arg);
    return order_letter(c, IOSPD_AFF_UNORDERED, 'u');
  }
  for (const char* p = s; *p; p++) {
    int rc = 0;
    switch (*p) {
      case 'c': c->ts.affinity_core_aware = true; break;
      case 's': c->ts.affinity_span_groups = true; break;
      case 'p': rc = order_letter(c, IOSPD_AFF_P_FIRST, *p); break;
      case 'P': rc = order_letter(c, IOSPD_AFF_FILL_P_FIRST, *p); break;
      case 'e': rc = order_letter(c, IOSPD_AFF_E_FIRST, *p); break;
      case 'E': rc = order_letter(c, IOSPD_AFF_FILL_E_FIRST, *p); break;
      default:
        if (is_digit(*p) || *p == 'g')
          return fail(c, "'%s': give the -a letters and a CPU list in "
                         "separate -a switches", c->arg);
        return fail(c, "'%s': unknown -a letter '%c'; use c, s and one of "
                       "p, P, e, E (or -aup), or a CPU list", c->arg, *p);
    }
    if (rc) return rc;
  }
  return 0;
}

/* A number at *p (digits); *p moves past it. */
static uint64_t list_number(const char** p) {
  uint64_t v = 0;
  while (is_digit(**p)) {
    if (v <= 0xFFFFFFFFull) v = v * 10 + (uint64_t)(**p - '0');
    (*p)++;
  }
  return v;
}

static int list_cpu(ctx_t* c, uint64_t v) {
  if (v > 63)
    return fail(c, "'%s': CPU %" PRIu64 " is out of range: DISKSPD 2.3 "
                   "numbers the CPUs of a group 0-63", c->arg, v);
  return 0;
}

int iospd_opt_affinity_23(ctx_t* c) {
  const char* s = c->val;
  if (s[0] == '\0' || strcmp(s, "g") == 0) return 0; /* as at 2.2 */
  if (!is_digit(s[0]) && s[0] != 'g') return affinity_letters(c, s);
  const char* p = s;
  /* -ag<n> alone: every CPU of the group. */
  if (p[0] == 'g' && is_digit(p[1])) {
    const char* q = p + 1;
    uint64_t g = list_number(&q);
    if (*q == '\0') {
      if (g > 65535)
        return fail(c, "'%s': processor group %" PRIu64 " is out of range "
                       "(0-65535)", c->arg, g);
      return affinity_add(c, (uint32_t)g, IOSPD_AFFINITY_WHOLE_GROUP);
    }
  }
  uint32_t group = 0;
  bool need_cpu = false;
  for (;;) {
    bool is_group = *p == 'g';
    if (is_group) p++;
    if (!is_digit(*p)) {
      if (*p == '\0')
        return fail(c, "'%s': the affinity list ends early; expected %s at "
                       "the end", c->arg,
                    is_group ? "a group number after 'g'" : "a CPU number");
      return fail(c, "'%s': unexpected '%c' at position %d of the affinity "
                     "list; expected %s (items are CPUs 0-63, ranges N-M or "
                     "g<group>, separated by commas)",
                  c->arg, *p, (int)(p - s) + 1,
                  is_group ? "a group number after 'g'"
                           : (*p == ',' ? "a CPU number, not an empty item"
                                        : "a CPU number"));
    }
    uint64_t v = list_number(&p);
    if (is_group) {
      if (need_cpu)
        return fail(c, "'%s': processor group %" PRIu32 " has no CPUs in the "
                       "list; for a whole group use a separate -ag%" PRIu32,
                    c->arg, group, group);
      if (v > 65535)
        return fail(c, "'%s': processor group %" PRIu64 " is out of range "
                       "(0-65535)", c->arg, v);
      group = (uint32_t)v;
      need_cpu = true;
    } else {
      int rc = list_cpu(c, v);
      if (rc) return rc;
      uint64_t last = v;
      if (*p == '-') {
        p++;
        if (!is_digit(*p))
          return fail(c, "'%s': the range after CPU %" PRIu64 " needs its "
                         "last CPU (N-M)", c->arg, v);
        last = list_number(&p);
        if ((rc = list_cpu(c, last)) != 0) return rc;
        if (last < v)
          return fail(c, "'%s': the CPU range %" PRIu64 "-%" PRIu64 " is "
                         "inverted; write the lower CPU first (%" PRIu64
                         "-%" PRIu64 ")", c->arg, v, last, last, v);
      }
      for (uint64_t k = v; k <= last; k++)
        if ((rc = affinity_add(c, group, (uint32_t)k)) != 0) return rc;
      need_cpu = false;
    }
    if (*p == '\0') break;
    if (*p != ',')
      return fail(c, "'%s': unexpected '%c' at position %d of the affinity "
                     "list; separate items with commas",
                  c->arg, *p, (int)(p - s) + 1);
    p++;
    if (*p == '\0')
      return fail(c, "'%s': the affinity list ends with a comma", c->arg);
  }
  if (need_cpu)
    return fail(c, "'%s': processor group %" PRIu32 " has no CPUs in the "
                   "list; for a whole group use a separate -ag%" PRIu32,
                c->arg, group, group);
  return 0;
}

int sw_throughput(ctx_t* c) {
  const iospd_opt_def_t* o = c->opt;
  const char* v = c->val;
  size_t n = strspn(v, "0123456789");
  bool iops = false;
  if (n == 0 || (v[n] != '\0' && strcmp(v + n, "i") != 0))
    return fail(c, "'%s': the throughput limit must be bytes per millisecond "
                   "(-g<n>) or I/Os per second (-g<n>i), n at least 1",
                c->arg);
  if (v[n] == 'i') iops = true;
  /* Leading zeros do not count against the length ("-g0008"). */
  while (n > 1 && v[0] == '0') v++, n--;
  char num[32];
  if (n >= sizeof num)
    return fail(c, "'%s': the throughput limit must be at most %" PRIu64,
                c->arg, o->max);
  memcpy(num, v, n);
  num[n] = '\0';
  uint64_t x = 0;
  int rc = get_uint(c, num, o->min, o->max,
                    iops ? "I/Os per second" : "bytes per millisecond", &x);
  if (rc) return rc;
  if (!iops) {
    c->tgt.throughput_bpms = (uint32_t)x;
    c->tgt.throughput_iops = 0;
    return 0;
  }
  /* DISKSPD keeps whole bytes per millisecond (truncating). */
  uint64_t bpms = x * c->tgt.block_size / 1000;
  if (bpms == 0)
    return fail(c, "'%s': %" PRIu64 " I/Os per second of %" PRIu32
                   " bytes is less than 1 byte per millisecond, the smallest "
                   "limit iospd can apply",
                c->arg, x, c->tgt.block_size);
  if (bpms > UINT32_MAX)
    return fail(c, "'%s': the throughput limit is too large", c->arg);
  c->tgt.throughput_bpms = (uint32_t)bpms;
  c->tgt.throughput_iops = (uint32_t)x;
  return 0;
}

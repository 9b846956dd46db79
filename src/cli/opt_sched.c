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

int sw_affinity(ctx_t* c) {
  const char* s = c->val;
  /* -a and -ag keep the default round-robin assignment. */
  if (s[0] == '\0' || strcmp(s, "g") == 0) return 0;
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

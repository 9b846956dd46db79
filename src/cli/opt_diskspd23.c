/* SPDX-License-Identifier: MIT */
/* --diskspd=2.2|2.3 and the switches DISKSPD 2.3 added: -u (ring
 * submission), -oc (completion depth), -bs (buffer separation), plus what
 * the parse does once every switch is read at 2.3 (-Rs alone, the -l/-bsp
 * warning, the CPU list in its per-group form). The -S letters y/Y, the -a
 * forms and -Rs are read by their switches' handlers (opt_cache.c,
 * opt_sched.c, opt_output.c), which call iospd_opt_needs_23 at 2.2.
 * The rules between switches are in src/profile/profile_validate_23.c. */
#include <inttypes.h>
#include <string.h>

#include "iospd/diskspd23.h"
#include "opt_handlers.h"

int iospd_opt_needs_23(ctx_t* c, const char* what) {
  return fail(c, "'%s': %s is a DISKSPD 2.3 switch; add --diskspd=2.3 to "
                 "use it (this command line follows DISKSPD 2.2)",
              c->arg, what);
}

int sw_diskspd(ctx_t* c) {
  const char* v = c->val;
  if (v[0] == '=') v++;
  const iospd_opt_word_t* w =
      iospd_opt_words_find(c->opt->posval, v, strlen(v), false);
  if (w == NULL) {
    opt_words_t words;
    return fail(c, "'%s': unknown DISKSPD level '%s'; use %s",
                c->arg, v, opt_words(&words, c->opt));
  }
  c->pp.ext.diskspd = (iospd_diskspd_level_t)w->value;
  return 0;
}

/* Leading digits as a number capped at cap + 1 (so "too large" shows);
 * *n is how many digits there were. */
static uint64_t leading_number(const char* s, uint64_t cap, size_t* n) {
  uint64_t v = 0;
  size_t i = 0;
  for (; is_digit(s[i]); i++)
    if (v <= cap) v = v * 10 + (uint64_t)(s[i] - '0');
  *n = i;
  return v > cap ? cap + 1 : v;
}

/* -u[n][<batch>[p]] */
int sw_ioring(ctx_t* c) {
  if (!is_23(c)) return iospd_opt_needs_23(c, "-u (IoRing submission)");
  iospd_ioring_t r = {true, true, IOSPD_IORING_DEFAULT_BATCH_PCT, true};
  const char* s = c->val;
  if (*s == 'n') {
    r.registered_buffers = false;
    s++;
  }
  if (*s != '\0') {
    size_t n = 0;
    uint64_t v = leading_number(s, IOSPD_IORING_BATCH_MAX, &n);
    if (n == 0)
      return fail(c, "'%s': unexpected '%s' after -u%s; give the batch as "
                     "I/Os per submit (1-%u) or a percentage of -o with p "
                     "(1p-100p), e.g. -u8 or -un50p",
                  c->arg, s, r.registered_buffers ? "" : "n",
                  IOSPD_IORING_BATCH_MAX);
    const char* rest = s + n;
    r.batch_percent = *rest == 'p';
    if (r.batch_percent) rest++;
    if (*rest != '\0')
      return fail(c, "'%s': unexpected '%s' after the batch size; -u takes "
                     "[n][<batch>[p]]", c->arg, rest);
    uint64_t max = r.batch_percent ? 100 : IOSPD_IORING_BATCH_MAX;
    if (v < 1 || v > max)
      return fail(c, "'%s': the IoRing batch %s must be from 1 to %" PRIu64
                     "%s", c->arg,
                  r.batch_percent ? "percentage" : "size", max,
                  v > max ? " (it exceeds the maximum)" : "");
    r.batch = (uint32_t)v;
  }
  c->ts.ioring = r;
  return 0;
}

/* -oc<n>: read as DISKSPD reads its integers (leading digits, "-oc8x" is
 * 8), then 1..16. */
int sw_completion_depth(ctx_t* c) {
  if (!is_23(c)) return iospd_opt_needs_23(c, "-oc (completion depth)");
  const char* s = c->val;
  bool neg = false;
  if (*s == '+' || *s == '-') neg = *s++ == '-';
  size_t n = 0;
  uint64_t v = leading_number(s, IOSPD_COMPLETION_DEPTH_MAX, &n);
  if (neg && v > 0) v = 0;
  if (v < 1 || v > IOSPD_COMPLETION_DEPTH_MAX)
    return fail(c, "'%s': the completion depth must be from 1 to %u "
                   "(completions taken per wait)",
                c->arg, IOSPD_COMPLETION_DEPTH_MAX);
  c->ts.completion_depth = (uint32_t)v;
  return 0;
}

/* -bs<p|n> */
int sw_bufsep(ctx_t* c) {
  if (!is_23(c)) return iospd_opt_needs_23(c, "-bs (buffer separation)");
  const char* v = c->val;
  const iospd_opt_word_t* w =
      iospd_opt_words_find(c->opt->posval, v, strlen(v), false);
  if (w == NULL)
    return fail(c, "'%s': -bs takes one letter: -bsp (thread-optimized "
                   "separation) or -bsn (system default); -bs is never a "
                   "block size", c->arg);
  c->ts.buffer_separation = (iospd_buffer_separation_t)w->value;
  c->bufsep_given = true;
  return 0;
}

int iospd_opt_system_only(ctx_t* c, const char* const* sw, int nsw) {
  const char* rs = NULL;
  for (int i = 0; i < nsw; i++) {
    const iospd_opt_def_t* o = iospd_options_find(sw[i] + 1);
    bool level = strncmp(sw[i], "--diskspd", 9) == 0;
    if (!level && o != NULL && iospd_opt_id(o) == IOSPD_OID_R &&
        rs == NULL && (sw[i][2] == 's' || sw[i][2] == 'S' ||
                       ((sw[i][2] == 'p' || sw[i][2] == 'P') &&
                        (sw[i][3] == 's' || sw[i][3] == 'S'))))
      rs = sw[i];
  }
  for (int i = 0; i < nsw; i++) {
    if (sw[i] == rs || strncmp(sw[i], "--diskspd", 9) == 0) continue;
    c->arg = sw[i];
    return fail(c, "'%s' cannot be combined with '%s': -Rs prints the system "
                   "information only and must be the only switch",
                sw[i], rs ? rs : "-Rs");
  }
  if (c->target_count > 0)
    return fail(c, "'%s': -Rs prints the system information only and takes "
                   "no target ('%s')", rs ? rs : "-Rs", c->targets[0]);
  return 0;
}

int iospd_opt_finish_23(ctx_t* c) {
  if (!is_23(c)) return 0;
  if (c->ts.disable_affinity && iospd_opt_given(&c->pp, IOSPD_OID_a))
    return fail(c, "-n (no affinity) cannot be combined with -a at DISKSPD "
                   "2.3 (a CPU list or the -a letters): give one or the "
                   "other");
  if (c->bufsep_given && c->tgt.large_pages &&
      c->ts.buffer_separation == IOSPD_BUFSEP_PDE_CACHE_LINE)
    warn(c, "-bsp has no effect with -l: large pages take priority for the "
            "I/O buffers");
  if (iospd_affinity_canonical(&c->ts) != 0) return nomem(c);
  return 0;
}

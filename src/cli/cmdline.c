/* SPDX-License-Identifier: MIT */
/* The DISKSPD 2.2 command line -> iospd_profile_t: the one walker over the
 * switch table in options.c, in DISKSPD's two passes (reference 1.1-1.9),
 * plus -X<file> profiles with their overrides.
 *
 * Deliberate differences from DISKSPD 2.2 (also in docs/compat-differences.md;
 * keep the two lists in step). DISKSPD silently accepts the first group; iospd
 * refuses it with a message naming the switch:
 *  - Numbers must be whole decimal numbers: DISKSPD reads "-o8x" as 8 and
 *    "-wabc" as 0 (atoi); iospd refuses trailing junk, signs and spaces.
 *  - Numbers over 2147483647 for the switches DISKSPD reads with atoi (-o,
 *    -t, -F, -O, -i, -j, -d, -W, -C, -D, -P, -:, -g) are refused: the MSVC
 *    atoi saturates them to 2147483647. -z over 4294967295 (strtoul
 *    saturates) and -a numbers over 32 bits (DISKSPD wraps) are refused.
 *  - -b0 is refused (DISKSPD accepts it and divides by zero at run time).
 *  - -T, -s and -r over 2^63 - 1 (the largest file offset) are refused;
 *    DISKSPD's offset arithmetic wraps around 2^64.
 *  - Negative values are refused everywhere (-z-1, -a-1, -d-5 ...).
 *  - -a: a negative number, an empty item ("-a1,,2", also "-ag1,,2"), a
 *    CPU number running into g ("-a1g0,1": DISKSPD's group 10), a trailing
 *    comma, or g<n> with no CPU after it is refused (DISKSPD refuses most of
 *    these too, with a caret on a second line; iospd's one-line message
 *    names the position).
 *  - Sizes over 2^64 - 1 (DISKSPD's overflow check misses some) and -rdabs
 *    ranges adding up past 2^64.
 *  - An empty -y event name ("-ys").
 *  - -g<n>i that works out to less than 1 byte per millisecond (e.g.
 *    -b512 -g1i) is refused; DISKSPD silently turns it into "no limit". A
 *    value over 32 bits after conversion is refused rather than truncated.
 *  - -e: the one-letter forms (q, c, s, p) must be exactly one letter, and
 *    the provider words are matched whole and case-insensitively, so
 *    -eprocess means the PROCESS provider (DISKSPD took it as -ep).
 *  - -rd may be given only once; the I/O% running total is checked while
 *    parsing (over 100% is a parse error naming the pair).
 *  - An empty argument ("") is refused instead of becoming a target.
 *  - An argument starting with an en dash, em dash or minus sign (a switch
 *    pasted from a word processor) is refused with a hint, never a target.
 *  - '/' starts a switch only on Windows (env->slash_switches), so
 *    /dev/sdb is a target on Linux.
 *  - Unknown switch letters are reported before -X compatibility, so
 *    "-q -Xp.xml" says "-q is unknown" rather than "multiple XML profiles".
 *  - -ye<name> does not need a target (the parse returns
 *    IOSPD_ACTION_SET_EVENT; main sets the event and exits with 1). The
 *    event is set only when the whole line is valid; DISKSPD set it as soon
 *    as it reached -ye, even if a later switch was wrong.
 *  - -R accepts its words in any case (-RXML, -RpText).
 * Harmless odd input is accepted with a warning:
 *  - -O without -F (DISKSPD ignores -O silently).
 *  - -d with no value (means 0 seconds, as in DISKSPD).
 * Linux (env->windows false):
 *  - -Sr (remote-share local cache) and -x (completion routines) are
 *    refused; -Nn and -Ni (non-volatile memory flushes) are refused, -Nv is
 *    accepted (msync); -e (ETW) is refused; -I, -l, -Sm, -y are accepted.
 * iospd additions: --allow-raw-write, --engine=<a word of the platform's
 * engine table>, --progress=auto|always|never, --timeseries=FILE, --output=
 * FORMAT:FILE (repeatable), --help, the --merge mode (first argument
 * only) and --version (only argument). */
#include "iospd/cmdline.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/options.h"
#include "iospd/series_out.h"
#include "iospd/units.h"
#include "iospd/xml_profile.h"

enum { XML_UNKNOWN = 0, XML_YES, XML_NO };
enum { UNSET = -1 };

typedef struct ctx_s {
  const iospd_cmdline_env_t* env;
  iospd_strbuf_t* warnings;
  iospd_err_t* err;
  iospd_cmdline_action_t* action;
  const char* arg; /* the argument being handled, as typed */
  const char* val; /* its text after the switch name */

  /* Scratch objects; moved into the caller's profile at the end. */
  iospd_profile_t pp;
  iospd_timespan_t ts;
  iospd_target_t tgt;
  uint64_t block_unit; /* the 'b' suffix: the final -b */

  /* Which pass-1 values were given (overrides for -X). */
  bool d_set, W_set, C_set, z_set, format_set, colon_set;

  /* -S/-h state (1.5): UNSET or the value. */
  int cache, write_through, mmap;
  bool base_given, max_given, dist_given;

  int xml_state;
  const char* xml_path;
  const char* first_non_xml; /* the first switch that rules out -X */

  const char** targets;
  uint32_t target_count;
  bool t_set;                /* -t given (--tree defaults it to 16) */
  bool o_set;                /* -o given (--tree defaults it to 1) */
  bool b_set;                /* -b given (--tree defaults it to 4K) */
  const char* tree_companion; /* the first --files, --skew... given */
  const char* last_switch; /* the switch just before the first target */
} ctx_t;

/* ---- messages ------------------------------------------------------------ */

static int fail(ctx_t* c, const char* fmt, ...) IOSPD_PRINTF(2, 3);
static int fail(ctx_t* c, const char* fmt, ...) {
  char buf[IOSPD_ERR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  /* Arguments are quoted into the message; keep it one printable line. */
  for (char* q = buf; *q; q++)
    if ((unsigned char)*q < 0x20 || *q == 0x7f) *q = '?';
  return iospd_err_set(c->err, IOSPD_EUSAGE, "%s", buf);
}

static int nomem(ctx_t* c) {
  return iospd_err_set(c->err, IOSPD_ENOMEM,
                       "out of memory while reading the command line");
}

static void warn(ctx_t* c, const char* fmt, ...) IOSPD_PRINTF(2, 3);
static void warn(ctx_t* c, const char* fmt, ...) {
  if (c->warnings == NULL) return;
  char buf[IOSPD_ERR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  iospd_strbuf_appendf(c->warnings, "warning: %s\n", buf);
}

#define SIZE_HINT "digits with an optional K, M, G, T or b (blocks) suffix"

/* ---- small helpers ------------------------------------------------------- */

static void* field(ctx_t* c, const iospd_opt_def_t* o) {
  switch (o->scope) {
    case IOSPD_SCOPE_TARGET: return (char*)&c->tgt + o->off;
    case IOSPD_SCOPE_TIMESPAN: return (char*)&c->ts + o->off;
    case IOSPD_SCOPE_PROFILE: return (char*)&c->pp + o->off;
    default: return NULL;
  }
}

static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static char lower(char ch) {
  return (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : ch;
}

static bool ieq(const char* a, const char* b) {
  while (*a && *b && lower(*a) == lower(*b)) a++, b++;
  return *a == '\0' && *b == '\0';
}

/* A whole number min..max; "what" names it in the message. */
static int get_uint(ctx_t* c, const char* s, uint64_t min, uint64_t max,
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

static int get_size(ctx_t* c, const char* s, uint64_t min, uint64_t max,
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

static int set_string(ctx_t* c, char** dst, const char* s) {
  char* copy = iospd_strdup(s);
  if (copy == NULL) return nomem(c);
  iospd_free(*dst);
  *dst = copy;
  return 0;
}

/* ---- switches with their own syntax ------------------------------------ */

static int sw_block(ctx_t* c, const iospd_opt_def_t* o) {
  uint64_t v = 0;
  if (c->val[0] == '\0')
    return fail(c, "'-b' needs a size, e.g. -b4K or -b64K");
  int rc = get_size(c, c->val, o->min, o->max, o->what, &v);
  if (rc) return rc;
  c->tgt.block_size = (uint32_t)v;
  c->block_unit = v;
  return 0;
}

static int sw_seed(ctx_t* c) {
  c->z_set = true;
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

/* DISKSPD (1.4): a leading 'p' only turns on profile-only; the format word,
 * if any, sets the format. So "-Rxml -Rp" keeps XML, and a bare -R is
 * accepted (changing nothing) once an earlier -Rp turned profile-only on. */
static int sw_format(ctx_t* c) {
  const char* v = c->val;
  if (v[0] == '\0') {
    if (c->pp.profile_only) return 0;
    return fail(c, "'-R' needs a format: -Rtext, -Rxml, -Rjson, -Rp, -Rptext "
                   "or -Rpxml");
  }
  /* Case does not matter: "-RXML" is as clear as "-Rxml". */
  bool p = false;
  if (lower(v[0]) == 'p') {
    p = true;
    v++;
  }
  if (v[0] != '\0') {
    if (ieq(v, "text")) {
      c->pp.format = IOSPD_FORMAT_TEXT;
    } else if (ieq(v, "xml")) {
      c->pp.format = IOSPD_FORMAT_XML;
    } else if (ieq(v, "json") && !p) {
      c->pp.format = IOSPD_FORMAT_JSON; /* iospd: docs/results-json.md */
    } else if (ieq(v, "json")) {
      return fail(c, "'%s': the profile alone is printed as text or XML "
                     "only; use -Rptext or -Rpxml (JSON holds results: "
                     "-Rjson)", c->arg);
    } else {
      return fail(c, "'%s': unknown result format; use -Rtext, -Rxml, -Rjson, "
                     "-Rp, -Rptext or -Rpxml", c->arg);
    }
    c->format_set = true;
  }
  if (p) c->pp.profile_only = true;
  return 0;
}

static int sw_verbose(ctx_t* c) {
  if (c->val[0] == '\0') {
    c->pp.verbose = true;
  } else if (strcmp(c->val, "s") == 0) {
    c->pp.verbose_stats = true;
  } else {
    return fail(c, "'%s': unknown verbose mode; use -v (progress messages) "
                   "or -vs (wait statistics)", c->arg);
  }
  return 0;
}

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

static int sw_affinity(ctx_t* c) {
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

static int sw_base(ctx_t* c) {
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

static int sw_create(ctx_t* c) {
  if (c->val[0] == '\0')
    return fail(c, "'-c' needs the size of the file to create, e.g. -c1G");
  uint64_t v = 0;
  int rc = get_size(c, c->val, 0, UINT64_MAX, "file size", &v);
  if (rc) return rc;
  c->tgt.create = true;
  c->tgt.file_size = v;
  return 0;
}

static int sw_f(ctx_t* c) {
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

static int sw_throughput(ctx_t* c, const iospd_opt_def_t* o) {
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

static int sw_h(ctx_t* c) {
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

static int sw_cache(ctx_t* c) {
  const char* v = c->val;
  if (v[0] == '\0') {
    if (c->cache != UNSET || c->mmap != UNSET)
      return fail(c, "'-S' conflicts with an earlier cache mode or -Sm");
    c->cache = IOSPD_CACHE_DISABLE_OS;
    return 0;
  }
  for (const char* p = v; *p; p++) {
    switch (*p) {
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
        return fail(c, "'%s': unknown -S letter '%c'; use b, h, m, %su or w",
                    c->arg, *p, c->env->windows ? "r, " : "");
    }
  }
  return 0;
}

static int sw_seq(ctx_t* c) {
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

static int sw_random(ctx_t* c) {
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

static int sw_mixed(ctx_t* c, const iospd_opt_def_t* o) {
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

static int sw_dist(ctx_t* c) {
  if (c->dist_given)
    return fail(c, "'%s': a random distribution (-rd) may be given only once",
                c->arg);
  const char* v = c->val;
  bool pct;
  if (strncmp(v, "pct", 3) == 0) {
    pct = true;
  } else if (strncmp(v, "abs", 3) == 0) {
    pct = false;
  } else {
    return fail(c, "'%s': the distribution type must be pct or abs, e.g. "
                   "-rdpct90/10 or -rdabs90/1G", c->arg);
  }
  const char* p = v + 3;
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
  /* Tail completion (DISKSPD 1.7): leftover I/O goes to the rest. */
  if (io_sum < 100) {
    if (!pct) {
      int rc = dist_add(c, io_sum, 100 - io_sum, span_sum, 0);
      if (rc) return rc;
    } else if (span_sum < 100) {
      int rc = dist_add(c, io_sum, 100 - io_sum, span_sum, 100 - span_sum);
      if (rc) return rc;
    }
  }
  c->tgt.dist_type = pct ? IOSPD_DIST_PERCENT : IOSPD_DIST_ABSOLUTE;
  c->dist_given = true;
  return 0;
}

static int sw_bucket(ctx_t* c, const iospd_opt_def_t* o) {
  c->ts.calc_iops_stddev = true;
  if (c->val[0] == '\0') return 0;
  uint64_t v = 0;
  int rc = get_uint(c, c->val, 0, o->max, "IOPS interval in ms", &v);
  if (rc) return rc;
  if (v > 0) c->ts.io_bucket_ms = (uint32_t)v;
  return 0;
}

static int sw_progress(ctx_t* c, const iospd_opt_def_t* o) {
  uint64_t v = 0;
  if (c->val[0] != '\0') {
    int rc = get_uint(c, c->val, 0, o->max, "progress interval", &v);
    if (rc) return rc;
  }
  c->pp.progress = v ? (uint32_t)v : IOSPD_DEFAULT_PROGRESS_PERIOD;
  return 0;
}

static int sw_etw(ctx_t* c) {
  iospd_etw_t* e = &c->pp.etw;
  const char* v = c->val;
  if (strcmp(v, "q") == 0) e->use_perf_timer = true;
  else if (strcmp(v, "c") == 0) e->use_cycles_counter = true;
  else if (strcmp(v, "s") == 0) e->use_system_timer = true;
  else if (strcmp(v, "p") == 0) e->use_paged_memory = true;
  else if (ieq(v, "PROCESS")) e->process = true;
  else if (ieq(v, "THREAD")) e->thread = true;
  else if (ieq(v, "IMAGE_LOAD")) e->image_load = true;
  else if (ieq(v, "DISK_IO")) e->disk_io = true;
  else if (ieq(v, "MEMORY_PAGE_FAULTS")) e->memory_page_faults = true;
  else if (ieq(v, "MEMORY_HARD_FAULTS")) e->memory_hard_faults = true;
  else if (ieq(v, "NETWORK")) e->network = true;
  else if (ieq(v, "REGISTRY")) e->registry = true;
  else
    return fail(c, "'%s': unknown ETW option; use q, c, s, p, PROCESS, "
                   "THREAD, IMAGE_LOAD, DISK_IO, MEMORY_PAGE_FAULTS, "
                   "MEMORY_HARD_FAULTS, NETWORK or REGISTRY", c->arg);
  e->enabled = true;
  return 0;
}

static int sw_event(ctx_t* c) {
  iospd_events_t* ev = &c->pp.events;
  char** dst;
  switch (c->val[0]) {
    case 's': dst = &ev->start_name; break;
    case 'f': dst = &ev->end_name; break;
    case 'r': dst = &ev->ready_name; break;
    case 'p': dst = &ev->stop_name; break;
    case 'e': dst = &ev->set_name; break;
    default:
      return fail(c, "'%s': -y needs s, f, r, p or e followed by an event "
                     "name, e.g. -ysStart", c->arg);
  }
  if (c->val[1] == '\0')
    return fail(c, "'%s': the event name is missing, e.g. -y%cMyEvent",
                c->arg, c->val[0]);
  return set_string(c, dst, c->val + 1);
}

static int sw_flush(ctx_t* c) {
  const char* v = c->val;
  iospd_flush_type_t f;
  if (v[0] == '\0' || v[1] != '\0')
    return fail(c, "'%s': -N needs exactly one letter: v, n or i", c->arg);
  switch (lower(v[0])) {
    case 'v': f = IOSPD_FLUSH_VIEW_OF_FILE; break;
    case 'n': f = IOSPD_FLUSH_NON_VOLATILE; break;
    case 'i': f = IOSPD_FLUSH_NON_VOLATILE_NO_DRAIN; break;
    default:
      return fail(c, "'%s': -N needs exactly one letter: v, n or i", c->arg);
  }
  if (!c->env->windows && f != IOSPD_FLUSH_VIEW_OF_FILE)
    return fail(c, "'%s': non-volatile memory flushes (-Nn, -Ni) exist only "
                   "on Windows; use -Nv", c->arg);
  c->tgt.flush_type = f;
  return 0;
}

static int sw_writebuf(ctx_t* c) {
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

/* --engine=WORD: an index into the platform's table; a word this
 * platform lacks is refused with the words it has. */
/* The engine words joined by '|', for messages that offer --engine=. */
static const char* engine_words(char* buf, size_t size) {
  iospd_strbuf_t words;
  iospd_strbuf_init(&words);
  iospd_engine_choice_list(&words, "|", "|");
  snprintf(buf, size, "%s", iospd_strbuf_cstr(&words));
  iospd_strbuf_destroy(&words);
  return buf;
}

static int sw_engine(ctx_t* c) {
  const char* v = c->val;
  bool empty = *v != '=' || v[1] == '\0';
  int engine = empty ? -1 : iospd_engine_choice_parse(v + 1);
  if (engine >= 0) {
    c->pp.ext.engine = engine;
    return 0;
  }
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

/* --output=FORMAT:FILE. FORMAT ends at the first ':', so FILE may hold
 * colons ("json:C:\\r\\run.json"). */
static int sw_output(ctx_t* c) {
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --output=FORMAT:FILE with FORMAT text, xml, "
                   "json or html", c->arg);
  v++;
  const char* colon = strchr(v, ':');
  size_t n = colon ? (size_t)(colon - v) : strlen(v);
  iospd_result_format_t f;
  if (n == 4 && strncmp(v, "text", 4) == 0) {
    f = IOSPD_FORMAT_TEXT;
  } else if (n == 3 && strncmp(v, "xml", 3) == 0) {
    f = IOSPD_FORMAT_XML;
  } else if (n == 4 && strncmp(v, "json", 4) == 0) {
    f = IOSPD_FORMAT_JSON;
  } else if (n == 4 && strncmp(v, "html", 4) == 0) {
    f = IOSPD_FORMAT_HTML;
  } else {
    return fail(c, "'%s': unknown output format '%.*s'; use "
                   "--output=FORMAT:FILE with FORMAT text, xml, json or html",
                c->arg, (int)n, v);
  }
  if (colon == NULL || colon[1] == '\0')
    return fail(c, "'%s': no file name; use --output=%.*s:FILE", c->arg,
                (int)n, v);
  iospd_ext_t* x = &c->pp.ext;
  iospd_output_spec_t* a =
      iospd_realloc(x->outputs, (x->output_count + 1) * sizeof *a);
  if (a == NULL) return nomem(c);
  x->outputs = a;
  a[x->output_count].format = f;
  a[x->output_count].path = iospd_strdup(colon + 1);
  if (a[x->output_count].path == NULL) return nomem(c);
  x->output_count++;
  return 0;
}

static int sw_status(ctx_t* c) {
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --progress=auto, always or never", c->arg);
  v++;
  int* mode = &c->pp.ext.status_line;
  if (strcmp(v, "auto") == 0) *mode = IOSPD_STATUS_AUTO;
  else if (strcmp(v, "always") == 0) *mode = IOSPD_STATUS_ALWAYS;
  else if (strcmp(v, "never") == 0) *mode = IOSPD_STATUS_NEVER;
  else
    return fail(c, "'%s': unknown --progress value '%s'; use auto, always "
                   "or never", c->arg, v);
  return 0;
}

/* --timeseries=FILE: the extension picks the format (iospd/series_out.h). */
static int sw_timeseries(ctx_t* c) {
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --timeseries=FILE with FILE ending in .csv or "
                   ".jsonl", c->arg);
  v++;
  if (iospd_series_format_of(v) == IOSPD_SERIES_NONE)
    return fail(c, "'%s': --timeseries takes a file ending in .csv or .jsonl "
                   "(the extension picks the format)", c->arg);
  /* One run writes one series: a second file would be silently dropped. */
  if (c->pp.ext.timeseries_path != NULL)
    return fail(c, "'%s': --timeseries is given twice (first '%s'); a run "
                   "writes one time series: keep one --timeseries=FILE",
                c->arg, c->pp.ext.timeseries_path);
  char* path = iospd_strdup(v);
  if (path == NULL) return nomem(c);
  c->pp.ext.timeseries_path = path;
  return 0;
}

/* --tree=DIR[,DIR...] and its companions (docs/tree.md). */
static int tree_uint(ctx_t* c, const iospd_opt_def_t* o, uint32_t* out) {
  if (c->val[0] != '=' || c->val[1] == '\0')
    return fail(c, "'%s' needs a value: --%s=N, the %s, a whole number from "
                   "%" PRIu64 " to %" PRIu64, c->arg, o->name, o->what,
                o->min, o->max);
  uint64_t v = 0;
  int rc = get_uint(c, c->val + 1, o->min, o->max, o->what, &v);
  if (rc) return rc;
  *out = (uint32_t)v;
  return 0;
}

static int sw_tree(ctx_t* c, const iospd_opt_def_t* o) {
  iospd_tree_opts_t* t = &c->pp.ext.tree;
  const char* v = c->val;
  bool bare = o->kind == IOSPD_OPT_SPECIAL &&
              (strcmp(o->name, "append") == 0 ||
               strcmp(o->name, "cleanup") == 0);
  if (bare && v[0] != '\0')
    return fail(c, "'%s': --%s takes no value", c->arg, o->name);
  if (strcmp(o->name, "tree") != 0 && c->tree_companion == NULL)
    c->tree_companion = c->arg;
  if (strcmp(o->name, "tree") == 0) {
    if (v[0] != '=' || v[1] == '\0')
      return fail(c, "'%s': name the directories: --tree=DIR[,DIR...]",
                  c->arg);
    v++;
    if (v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,") != NULL)
      return fail(c, "'%s': an empty directory name in the list; separate "
                     "the directories with single commas", c->arg);
    char* d = iospd_strdup(v);
    if (d == NULL) return nomem(c);
    iospd_free(t->dirs);
    t->dirs = d;
    return 0;
  }
  if (strcmp(o->name, "files") == 0) return tree_uint(c, o, &t->files);
  if (strcmp(o->name, "depth") == 0) return tree_uint(c, o, &t->depth);
  if (strcmp(o->name, "width") == 0) return tree_uint(c, o, &t->width);
  if (strcmp(o->name, "append") == 0) {
    t->append = true;
    return 0;
  }
  if (strcmp(o->name, "cleanup") == 0) {
    t->cleanup = true;
    return 0;
  }
  if (strcmp(o->name, "relocate") == 0) {
    if (v[0] == '\0') {
      t->relocate_rate = IOSPD_TREE_DEFAULT_RELOCATE;
      return 0;
    }
    return tree_uint(c, o, &t->relocate_rate);
  }
  if (strcmp(o->name, "file-size") == 0) {
    if (v[0] != '=' || v[1] == '\0')
      return fail(c, "'%s' needs a value: --file-size=SIZE (" SIZE_HINT ")",
                  c->arg);
    return get_size(c, v + 1, o->min, o->max, o->what, &t->file_size);
  }
  if (strcmp(o->name, "assign") == 0) {
    int a = v[0] == '=' ? iospd_tree_assign_parse(v + 1) : -1;
    if (a < 0)
      return fail(c, "'%s': use --assign=even, ordered or random", c->arg);
    t->assign = (iospd_tree_assign_t)a;
    return 0;
  }
  /* --skew=HOT:COLD */
  const char* colon = v[0] == '=' ? strchr(v, ':') : NULL;
  uint64_t hot = 0, cold = 0;
  char hot_text[32];
  if (colon != NULL && (size_t)(colon - v - 1) < sizeof hot_text) {
    memcpy(hot_text, v + 1, (size_t)(colon - v - 1));
    hot_text[colon - v - 1] = '\0';
  } else {
    hot_text[0] = '\0';
  }
  if (colon == NULL || iospd_parse_uint(hot_text, 1000000, &hot) != 0 ||
      iospd_parse_uint(colon + 1, 1000000, &cold) != 0 || hot == 0 ||
      cold == 0)
    return fail(c, "'%s': use --skew=HOT:COLD with two whole numbers from 1 "
                   "to 1000000, e.g. --skew=7:1", c->arg);
  t->skew_hot = (uint32_t)hot;
  t->skew_cold = (uint32_t)cold;
  return 0;
}

/* --verify, --verify-only, --verify-errors=N, --verify-state=FILE
 * (docs/verify.md). */
static int sw_verify(ctx_t* c, const iospd_opt_def_t* o) {
  if (strcmp(o->name, "verify-only") == 0)
    c->pp.ext.verify_only = true;
  else
    c->pp.ext.verify = true;
  return 0;
}

static int sw_verify_errors(ctx_t* c) {
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --verify-errors=N, N the number of failures "
                   "to print (0 to 4294967295)", c->arg);
  uint64_t n = 0;
  int rc = get_uint(c, v + 1, 0, UINT32_MAX, "number of failures printed", &n);
  if (rc) return rc;
  c->pp.ext.verify_errors = (uint32_t)n;
  c->pp.ext.verify_errors_set = true;
  return 0;
}

static int sw_verify_state(ctx_t* c) {
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --verify-state=FILE", c->arg);
  char* path = iospd_strdup(v + 1);
  if (path == NULL) return nomem(c);
  iospd_free(c->pp.ext.verify_state);
  c->pp.ext.verify_state = path;
  return 0;
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

/* ---- the generic walker -------------------------------------------------- */

static int handle(ctx_t* c, const iospd_opt_def_t* o) {
  char engines[160];
  if ((o->flags & IOSPD_OPTF_WIN_ONLY) && !c->env->windows)
    return fail(c, "'%s': -%s (%s) exists only on Windows%s%s", c->arg,
                o->name, o->what,
                o->special == IOSPD_SP_NONE
                    ? "; on Linux choose how I/O is issued with --engine="
                    : "",
                o->special == IOSPD_SP_NONE
                    ? engine_words(engines, sizeof engines)
                    : "");
  if ((o->flags & IOSPD_OPTF_LONG) && !(o->flags & IOSPD_OPTF_VALUE) &&
      c->val[0] != '\0')
    return fail(c, "'%s': --%s takes no value", c->arg, o->name);

  switch (o->kind) {
    case IOSPD_OPT_FLAG:
      if (c->val[0] != '\0')
        return fail(c, "'%s': -%s takes no value", c->arg, o->name);
      *(bool*)field(c, o) = true;
      return 0;
    case IOSPD_OPT_UINT: {
      uint64_t v = o->bare_value;
      if (c->val[0] == '\0') {
        if (!(o->flags & IOSPD_OPTF_BARE_OK))
          return fail(c, "'-%s' needs a value: the %s, a whole number from "
                         "%" PRIu64 " to %" PRIu64,
                      o->name, o->what, o->min, o->max);
        if (strcmp(o->name, "d") == 0)
          warn(c, "'-d' without a value means a 0-second test");
      } else {
        int rc = get_uint(c, c->val, o->min, o->max, o->what, &v);
        if (rc) return rc;
      }
      *(uint32_t*)field(c, o) = (uint32_t)v;
      if (strcmp(o->name, "d") == 0) c->d_set = true;
      if (strcmp(o->name, "W") == 0) c->W_set = true;
      if (strcmp(o->name, "C") == 0) c->C_set = true;
      if (strcmp(o->name, ":") == 0) c->colon_set = true;
      if (strcmp(o->name, "t") == 0) c->t_set = true;
      if (strcmp(o->name, "o") == 0) c->o_set = true;
      return 0;
    }
    case IOSPD_OPT_SIZE: {
      uint64_t v = 0;
      if (c->val[0] == '\0')
        return fail(c, "'-%s' needs a value: the %s (" SIZE_HINT ")", o->name,
                    o->what);
      int rc = get_size(c, c->val, o->min, o->max, o->what, &v);
      if (rc) return rc;
      *(uint64_t*)field(c, o) = v;
      return 0;
    }
    case IOSPD_OPT_SPECIAL:
      break;
  }

  switch (o->special) {
    case IOSPD_SP_HELP:
      /* DISKSPD looks only at the '?': "-?x" is help too. */
      *c->action = IOSPD_ACTION_USAGE;
      return 0;
    case IOSPD_SP_BLOCK:
      c->b_set = true;
      return sw_block(c, o);
    case IOSPD_SP_XML:
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
    case IOSPD_SP_SEED: return sw_seed(c);
    case IOSPD_SP_FORMAT: return sw_format(c);
    case IOSPD_SP_VERBOSE: return sw_verbose(c);
    case IOSPD_SP_AFFINITY: return sw_affinity(c);
    case IOSPD_SP_BASE: return sw_base(c);
    case IOSPD_SP_CREATE: return sw_create(c);
    case IOSPD_SP_MAXSIZE: return sw_f(c);
    case IOSPD_SP_THROUGHPUT: return sw_throughput(c, o);
    case IOSPD_SP_H: return sw_h(c);
    case IOSPD_SP_CACHE: return sw_cache(c);
    case IOSPD_SP_SEQ: return sw_seq(c);
    case IOSPD_SP_RANDOM: return sw_random(c);
    case IOSPD_SP_MIXED: return sw_mixed(c, o);
    case IOSPD_SP_DIST: return sw_dist(c);
    case IOSPD_SP_BUCKET: return sw_bucket(c, o);
    case IOSPD_SP_PROGRESS: return sw_progress(c, o);
    case IOSPD_SP_ETW: return sw_etw(c);
    case IOSPD_SP_EVENT: return sw_event(c);
    case IOSPD_SP_FLUSH: return sw_flush(c);
    case IOSPD_SP_WRITEBUF: return sw_writebuf(c);
    case IOSPD_SP_RAW_WRITE: c->pp.ext.allow_raw_write = true; return 0;
    case IOSPD_SP_ENGINE: return sw_engine(c);
    case IOSPD_SP_OUTPUT: return sw_output(c);
    case IOSPD_SP_REPORT:
      return fail(c, "'%s' is a mode of its own and must be the first "
                     "argument: iospd --report a.json [b.json ...] "
                     "--output=html:FILE", c->arg);
    case IOSPD_SP_MERGE:
      /* Only reached when --merge is not the first argument. */
      return fail(c, "'%s' is a mode of its own and must be the first "
                     "argument: iospd --merge a.json b.json ...", c->arg);
    case IOSPD_SP_COMPARE:
      return fail(c, "'%s' is a mode of its own and must be the first "
                     "argument: iospd --compare a.json b.json ...", c->arg);
    case IOSPD_SP_PING:
      /* Only reached when --ping is not the first argument. */
      return fail(c, "'%s' is a mode and must be the first argument: "
                     "iospd --ping[=COUNT] [switches] PATH", c->arg);
    case IOSPD_SP_VERSION:
      /* Only reached when --version is not the only argument. */
      return fail(c, "'%s' must be the only argument: iospd --version",
                  c->arg);
    case IOSPD_SP_STATUS: return sw_status(c);
    case IOSPD_SP_TIMESERIES: return sw_timeseries(c);
    case IOSPD_SP_TREE: return sw_tree(c, o);
    case IOSPD_SP_VERIFY: return sw_verify(c, o);
    case IOSPD_SP_VERIFY_ERRORS: return sw_verify_errors(c);
    case IOSPD_SP_VERIFY_STATE: return sw_verify_state(c);
    case IOSPD_SP_COMPRESS:
      return sw_content_pct(c, "compress", "zlib saving",
                            &c->tgt.compress_pct);
    case IOSPD_SP_DEDUPE:
      return sw_content_pct(c, "dedupe", "share of repeated blocks",
                            &c->tgt.dedupe_pct);
    case IOSPD_SP_NONE: break;
  }
  return fail(c, "'%s': internal error: switch not handled", c->arg);
}

static bool is_switch(const ctx_t* c, const char* a) {
  return a[0] == '-' || (c->env->slash_switches && a[0] == '/');
}

/* UTF-8 en dash, em dash, minus sign: what word processors make of '-'. */
static bool wrong_dash(const char* a) {
  const unsigned char* u = (const unsigned char*)a;
  if (u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0x93 || u[2] == 0x94))
    return true;
  return u[0] == 0xE2 && u[1] == 0x88 && u[2] == 0x92;
}

/* Finds the table entry for a switch argument; sets c->arg and c->val. */
/* The long option whose name is nearest to the typed one (the part before
 * '='), by edit distance, when it is near enough to be a typo: at most 2
 * edits, or 3 for names of 8 letters and more. NULL when none is. */
static const char* nearest_long_option(const char* typed) {
  char name[40];
  size_t n = strcspn(typed, "=");
  if (n == 0 || n >= sizeof name) return NULL;
  memcpy(name, typed, n);
  name[n] = '\0';
  const char* best = NULL;
  size_t best_d = n >= 8 ? 4 : 3;
  for (size_t i = 0; i < iospd_options_count; i++) {
    if (!(iospd_options[i].flags & IOSPD_OPTF_LONG)) continue;
    const char* cand = iospd_options[i].name;
    size_t m = strlen(cand);
    if (m >= sizeof name) continue;
    /* Levenshtein distance, two rows. */
    size_t prev[40], cur[40];
    for (size_t j = 0; j <= m; j++) prev[j] = j;
    for (size_t k = 1; k <= n; k++) {
      cur[0] = k;
      for (size_t j = 1; j <= m; j++) {
        size_t sub = prev[j - 1] + (name[k - 1] != cand[j - 1]);
        size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
        cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
      }
      memcpy(prev, cur, (m + 1) * sizeof prev[0]);
    }
    if (prev[m] < best_d) {
      best_d = prev[m];
      best = cand;
    }
  }
  return best;
}

static int lookup(ctx_t* c, const char* a, const iospd_opt_def_t** out) {
  c->arg = a;
  const iospd_opt_def_t* o;
  if (a[0] == '-' && a[1] == '-') {
    o = iospd_options_find_long(a + 2);
    if (o == NULL) {
      /* Too many long options to list in one line: name the closest one
       * from the table (a typo); the caller points at -?. */
      const char* near = nearest_long_option(a + 2);
      if (near != NULL)
        return fail(c, "unknown option '%s'; did you mean --%s?", a, near);
      return fail(c, "unknown option '%s' (the iospd long options are at "
                     "the end of -?)", a);
    }
    c->val = a + 2 + strlen(o->name);
  } else {
    o = iospd_options_find(a + 1);
    if (o == NULL) {
      if (a[1] == '\0')
        return fail(c, "'%s' is not a switch: a switch letter must follow "
                       "'%c' (see -? for the list)", a, a[0]);
      return fail(c, "unknown switch '%s' (see -? for the list of switches)",
                  a);
    }
    c->val = a + 1 + strlen(o->name);
  }
  *out = o;
  return 0;
}

static char* join_argv(int argc, const char* const* argv) {
  size_t n = 1;
  for (int i = 0; i < argc; i++) n += strlen(argv[i] ? argv[i] : "") + 1;
  char* s = iospd_malloc(n);
  if (s == NULL) return NULL;
  char* p = s;
  for (int i = 0; i < argc; i++) {
    const char* a = argv[i] ? argv[i] : "";
    size_t len = strlen(a);
    if (i > 0) *p++ = ' ';
    memcpy(p, a, len);
    p += len;
  }
  *p = '\0';
  return s;
}

/* Whether a is a switch that lookup() would refuse as unknown. */
static bool is_unknown(const char* a) {
  if (a[0] == '-' && a[1] == '-') return iospd_options_find_long(a + 2) == NULL;
  return iospd_options_find(a + 1) == NULL;
}

/* Pass 1 (DISKSPD 1.2): the composable switches and the -X state machine. */
static int pass1(ctx_t* c, const char* const* sw, int nsw) {
  bool help_seen = false;
  for (int i = 0; i < nsw; i++) {
    const iospd_opt_def_t* o;
    if (help_seen && is_unknown(sw[i])) {
      /* DISKSPD meets unknown switches only in its second pass, where an
       * earlier -? prints the usage and exits 0 first: "-? -q" is help.
       * Pass 2 stops at that -? before it reaches this switch (and -?
       * already ruled out -X). */
      continue;
    }
    int rc = lookup(c, sw[i], &o);
    if (rc) return rc;
    if (o->special == IOSPD_SP_HELP) help_seen = true;
    if (o->special == IOSPD_SP_XML) {
      if (c->xml_state == XML_YES)
        return fail(c, "'%s': only one XML profile (-X) may be given",
                    c->arg);
      if (c->xml_state == XML_NO)
        return fail(c, "'%s': -X cannot be combined with '%s'; with -X only "
                       "-d, -W, -C, -z, -R, -v, -vs, -: and the iospd long "
                       "options are allowed", c->arg, c->first_non_xml);
      c->xml_state = XML_YES;
    } else if (!(o->flags & IOSPD_OPTF_XML_OK)) {
      if (c->xml_state == XML_YES)
        return fail(c, "'%s' cannot be combined with -X: the profile sets "
                       "it; with -X only -d, -W, -C, -z, -R, -v, -vs, -: and "
                       "the iospd long options are allowed", c->arg);
      if (c->xml_state == XML_UNKNOWN) {
        c->xml_state = XML_NO;
        c->first_non_xml = c->arg;
      }
    }
    if (o->flags & IOSPD_OPTF_PASS1) {
      rc = handle(c, o);
      if (rc) return rc;
    }
  }
  return 0;
}

static int read_xml(ctx_t* c, iospd_profile_t* p) {
  char* data = NULL;
  size_t len = 0;
  c->arg = c->xml_path;
  if (c->env->read_file == NULL)
    return fail(c, "cannot read XML profile '%s': no file reader", c->xml_path);
  int rc = c->env->read_file(c->xml_path, &data, &len, c->err);
  if (rc != 0) {
    if (c->err != NULL && c->err->msg[0] == '\0')
      iospd_err_set(c->err, rc, "cannot read XML profile '%s'", c->xml_path);
    return rc;
  }
  rc = iospd_xml_profile_parse(data ? data : "", data ? len : 0, p, c->err);
  iospd_free(data);
  if (rc == 0 && c->target_count > 0)
    rc = iospd_xml_profile_substitute(p, c->targets, c->target_count, c->err);
  if (rc != 0) {
    /* The reader's messages say "line N: ..."; add which file. */
    if (c->err != NULL) {
      char msg[IOSPD_ERR_MSG_MAX];
      snprintf(msg, sizeof msg, "%s", c->err->msg);
      iospd_err_set(c->err, rc, "%s: %s", c->xml_path, msg);
    }
    return rc;
  }
  /* Overrides: timing and seed for every timespan; verbose only turns on. */
  for (uint32_t i = 0; i < p->timespan_count; i++) {
    iospd_timespan_t* ts = &p->timespans[i];
    if (c->d_set) ts->duration = c->ts.duration;
    if (c->W_set) ts->warmup = c->ts.warmup;
    if (c->C_set) ts->cooldown = c->ts.cooldown;
    if (c->z_set) {
      ts->rand_seed = c->ts.rand_seed;
      ts->rand_seed_from_clock = c->ts.rand_seed_from_clock;
    }
  }
  if (c->format_set) p->format = c->pp.format;
  if (c->pp.profile_only) p->profile_only = true;
  if (c->pp.verbose) p->verbose = true;
  if (c->pp.verbose_stats) p->verbose_stats = true;
  if (c->colon_set) p->experiment_flags = c->pp.experiment_flags;
  iospd_tree_opts_t tree = p->ext.tree; /* <Tree>: the profile's */
  p->ext = c->pp.ext;
  p->ext.tree = tree;
  c->pp.ext.outputs = NULL; /* moved to p */
  c->pp.ext.output_count = 0;
  c->pp.ext.timeseries_path = NULL; /* moved into p */
  c->pp.ext.verify_state = NULL;    /* moved into p */
  iospd_free(p->xml_source);
  p->xml_source = iospd_strdup(c->xml_path);
  if (p->xml_source == NULL) return nomem(c);
  return 0;
}

/* Moves the scratch profile, timespan and target into p. */
static int build(ctx_t* c, iospd_profile_t* p, bool with_targets) {
  iospd_target_t* t = &c->tgt;
  t->cache_mode = c->cache == UNSET ? IOSPD_CACHE_CACHED
                                    : (iospd_cache_mode_t)c->cache;
  t->write_through = c->write_through == 1;
  t->memory_mapped = c->mmap == 1;
  t->burst_set = t->burst_size != 0;
  t->think_set = t->think_time != 0;

  char* cmdline = p->cmdline;
  *p = c->pp;
  p->cmdline = cmdline;
  iospd_profile_init(&c->pp);
  if (!with_targets) return 0;

  iospd_timespan_t* ts = iospd_profile_add_timespan(p);
  if (ts == NULL) return nomem(c);
  *ts = c->ts;
  ts->targets = NULL;
  ts->target_count = 0;
  iospd_timespan_init(&c->ts); /* ownership of the affinity list moved */
  for (uint32_t i = 0; i < c->target_count; i++) {
    iospd_target_t* nt = iospd_timespan_add_target(ts);
    if (nt == NULL) return nomem(c);
    /* On failure the target stays in the array for profile_destroy. */
    if (iospd_target_copy(nt, t) != 0 ||
        iospd_target_set_path(nt, c->targets[i]) != 0)
      return nomem(c);
  }
  return 0;
}

int iospd_cmdline_parse(int argc, const char* const* argv,
                        const iospd_cmdline_env_t* env, iospd_profile_t* p,
                        iospd_cmdline_action_t* action,
                        iospd_strbuf_t* warnings, iospd_err_t* err) {
  iospd_err_clear(err);
  *action = IOSPD_ACTION_RUN;
  if (argc < 2) {
    *action = IOSPD_ACTION_USAGE_ERROR;
    return 0;
  }
  /* --merge: a mode, not a run; what follows are file names, which main.c
   * reads (the core never opens files). */
  if (argv[1] != NULL && strcmp(argv[1], "--merge") == 0) {
    *action = IOSPD_ACTION_MERGE;
    return 0;
  }
  if (argv[1] != NULL && strcmp(argv[1], "--compare") == 0) {
    *action = IOSPD_ACTION_COMPARE;
    return 0;
  }
  /* --ping: a mode with its own switches (src/ping/ping_args.c). */
  if (argv[1] != NULL && (strcmp(argv[1], "--ping") == 0 ||
                          strncmp(argv[1], "--ping=", 7) == 0)) {
    *action = IOSPD_ACTION_PING;
    return 0;
  }
  /* --report: likewise; main.c reads its files and --output=html:FILE. */
  if (argv[1] != NULL && strcmp(argv[1], "--report") == 0) {
    *action = IOSPD_ACTION_REPORT;
    return 0;
  }
  if (argc == 2 && argv[1] != NULL && strcmp(argv[1], "--version") == 0) {
    *action = IOSPD_ACTION_VERSION;
    return 0;
  }
  static const iospd_cmdline_env_t no_env = {false, false, NULL, NULL};
  ctx_t cx;
  ctx_t* c = &cx;
  memset(c, 0, sizeof *c);
  c->env = env ? env : &no_env;
  c->warnings = warnings;
  c->err = err;
  c->action = action;
  iospd_profile_init(&c->pp);
  iospd_timespan_init(&c->ts);
  iospd_target_init(&c->tgt);
  c->block_unit = c->tgt.block_size;
  c->cache = c->write_through = c->mmap = UNSET;
  int rc = 0;

  /* Split argv into switches and targets; switches must come first. */
  c->targets = iospd_calloc((size_t)argc, sizeof *c->targets);
  if (c->targets == NULL) return nomem(c);
  int nsw = 0;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i] ? argv[i] : "";
    if (wrong_dash(a)) {
      rc = fail(c, "'%s' looks like a switch typed with the wrong dash; use "
                   "'-%s'", a, a + 3);
      goto done;
    }
    if (a[0] == '\0') {
      rc = fail(c, "argument %d is empty; a target needs a name", i);
      goto done;
    }
    if (is_switch(c, a)) {
      if (c->target_count > 0) {
        /* "-X file.xml -Rp t": the real mistake is the space after -X. */
        const char* before = nsw > 0 ? argv[nsw] : "";
        if (is_switch(c, before) && strcmp(before + 1, "X") == 0)
          rc = fail(c, "'%s' needs the profile file name glued to it, with "
                       "no space: %sX%s", before, before[0] == '/' ? "/" : "-",
                    c->targets[0]);
        else
          rc = fail(c, "'%s' comes after the target '%s'; put all switches "
                       "before the targets", a, c->targets[0]);
        goto done;
      }
      nsw++;
    } else {
      c->targets[c->target_count++] = a;
    }
  }
  const char* const* sw = argv + 1;
  if (nsw > 0) c->last_switch = sw[nsw - 1];

  rc = pass1(c, sw, nsw);
  if (rc) goto done;

  char* cmdline = join_argv(argc, argv);
  if (cmdline == NULL) {
    rc = nomem(c);
    goto done;
  }
  if (c->xml_state == XML_YES) {
    /* The tree options are let through pass 1 (they are long options) to
     * be refused here with the right advice: the profile holds them. */
    for (int i = 0; i < nsw; i++) {
      const iospd_opt_def_t* o;
      if (lookup(c, sw[i], &o) == 0 && o->special == IOSPD_SP_TREE) {
        rc = fail(c, "'%s' cannot be combined with -X: the profile's <Tree> "
                     "element holds the file-tree settings (docs/tree.md)",
                  sw[i]);
        iospd_free(cmdline);
        goto done;
      }
    }
    rc = read_xml(c, p);
    iospd_free(p->cmdline);
    p->cmdline = cmdline;
    goto done;
  }

  /* Pass 2: everything else, left to right. */
  for (int i = 0; i < nsw; i++) {
    const iospd_opt_def_t* o;
    rc = lookup(c, sw[i], &o);
    if (rc) break;
    if (o->flags & IOSPD_OPTF_PASS1) continue;
    rc = handle(c, o);
    if (rc || *action == IOSPD_ACTION_USAGE) break;
  }
  if (rc || *action == IOSPD_ACTION_USAGE) {
    iospd_free(cmdline);
    goto done;
  }

  if (c->ts.request_count != 0 && c->ts.thread_count == 0)
    warn(c, "-O (outstanding I/Os per thread) has no effect without -F; "
            "it is ignored");

  iospd_free(p->cmdline);
  p->cmdline = cmdline;
  if (c->pp.events.set_name != NULL) {
    /* -ye: main sets the event and exits; no target is needed. */
    *action = IOSPD_ACTION_SET_EVENT;
    rc = build(c, p, false);
    goto done;
  }
  if (c->pp.ext.tree.dirs == NULL && c->tree_companion != NULL) {
    rc = fail(c, "'%s' belongs to the file-tree mode: add --tree=DIR[,DIR...]",
              c->tree_companion);
    goto done;
  }
  if (c->pp.ext.tree.dirs != NULL) {
    /* File-tree mode: the directories are the workload's one target. */
    if (c->target_count > 0) {
      rc = fail(c, "'%s': --tree takes no targets; the files are made in the "
                   "--tree directories", c->targets[0]);
      goto done;
    }
    if (!c->t_set) c->tgt.threads_per_file = IOSPD_TREE_DEFAULT_THREADS;
    if (!c->o_set) c->tgt.request_count = 1;
    if (!c->b_set) c->tgt.block_size = 4096;
    /* Offsets are random in this mode (-r is implied; -s is refused). */
    if (c->tgt.random_ratio == 0 && c->tgt.stride_align == 0)
      c->tgt.random_ratio = 100;
    c->targets[0] = c->pp.ext.tree.dirs;
    c->target_count = 1;
  }
  if (c->target_count == 0) {
    rc = fail(c, "no target given: name at least one file, disk (#<n>) or "
                 "volume (<letter>:) after the switches");
    goto done;
  }
  rc = build(c, p, true);

done:
  iospd_profile_destroy(&c->pp);
  iospd_free(c->ts.affinity);
  iospd_target_destroy(&c->tgt);
  iospd_free(c->targets);
  return rc;
}

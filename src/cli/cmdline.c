/* SPDX-License-Identifier: MIT */
/* The DISKSPD 2.2 / 2.3 command line -> iospd_profile_t: the one walker over the
 * switch table in options.c, in DISKSPD's two passes (DISKSPD's command-line rules),
 * plus -X<file> profiles with their overrides. Each table entry names its
 * handler (src/cli/opt_*.c); this file finds the entry for an argument,
 * applies the rules all entries share, sets the entry's bit in the
 * profile's "was it given" bitmap and calls the handler.
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
 * DISKSPD 2.3 (--diskspd=2.3, read before every other switch): its
 * switches and rules as 2.3 has them (src/cli/opt_diskspd23.c,
 * src/profile/profile_validate_23.c); the differences are in
 * docs/compat-differences.md, "DISKSPD 2.3". At 2.2 each 2.3 form is refused
 * as DISKSPD 2.3's.
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
#include "iospd/xml_profile.h"
#include "opt_handlers.h"

enum { XML_UNKNOWN = 0, XML_YES, XML_NO };

/* ---- the walker ---------------------------------------------------------- */

/* The handler of the entries without one: by kind, at the entry's field. */
static const iospd_opt_cb_t k_kind_handlers[] = {
    [IOSPD_OPT_FLAG] = sw_flag,
    [IOSPD_OPT_UINT] = sw_uint,
    [IOSPD_OPT_SIZE] = sw_size,
    [IOSPD_OPT_SPECIAL] = NULL,
};

/* One switch (c->arg, c->val) of entry o: the rules every entry shares,
 * then the "was it given" bit, then the entry's handler. */
static int handle(ctx_t* c, const iospd_opt_def_t* o) {
  if ((o->flags & IOSPD_OPTF_WIN_ONLY) && !c->env->windows) {
    /* Completion routines are a way to issue I/O: offer this platform's. */
    bool x = iospd_opt_id(o) == IOSPD_OID_x;
    iospd_strbuf_t words;
    iospd_strbuf_init(&words);
    if (x) iospd_engine_choice_list(&words, "|", "|");
    int rc = fail(c, "'%s': -%s (%s) exists only on Windows%s%s", c->arg,
                  o->name, o->what,
                  x ? "; on Linux choose how I/O is issued with --engine="
                    : "",
                  iospd_strbuf_cstr(&words));
    iospd_strbuf_destroy(&words);
    return rc;
  }
  if ((o->flags & IOSPD_OPTF_LONG) && !(o->flags & IOSPD_OPTF_VALUE) &&
      c->val[0] != '\0')
    return fail(c, "'%s': --%s takes no value", c->arg, o->name);
  iospd_opt_set_given(&c->pp, iospd_opt_id(o));
  iospd_opt_cb_t cb = o->cb ? o->cb : k_kind_handlers[o->kind];
  if (cb == NULL)
    return fail(c, "'%s': internal error: switch not handled", c->arg);
  c->opt = o;
  return cb(c);
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
                       "'%c'", a, a[0]);
      /* The list of switches is the hint line's (main.c), said once. */
      return fail(c, "unknown switch '%s'", a);
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

/* Before pass 1: --diskspd=, so that every other switch, limit and
 * message can follow the level (the last one given counts). */
static int pass0(ctx_t* c, const char* const* sw, int nsw) {
  for (int i = 0; i < nsw; i++) {
    if (strncmp(sw[i], "--", 2) != 0) continue;
    const iospd_opt_def_t* o = iospd_options_find_long(sw[i] + 2);
    if (o == NULL || iospd_opt_id(o) != IOSPD_OID_diskspd) continue;
    c->arg = sw[i];
    c->val = sw[i] + 2 + strlen(o->name);
    int rc = handle(c, o);
    if (rc) return rc;
  }
  return 0;
}

/* Pass 1 (DISKSPD's two-pass parse): the composable switches and the -X state machine. */
static int pass1(ctx_t* c, const char* const* sw, int nsw) {
  bool help_seen = false;
  int rc0 = pass0(c, sw, nsw);
  if (rc0) return rc0;
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
    if (o->cb == sw_help) help_seen = true;
    if (iospd_opt_id(o) == IOSPD_OID_X) {
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
    if ((o->flags & IOSPD_OPTF_PASS1) && iospd_opt_id(o) != IOSPD_OID_diskspd) {
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
  const iospd_profile_t* given = &c->pp; /* its opt_given bitmap */
  for (uint32_t i = 0; i < p->timespan_count; i++) {
    iospd_timespan_t* ts = &p->timespans[i];
    if (iospd_opt_given(given, IOSPD_OID_d)) ts->duration = c->ts.duration;
    if (iospd_opt_given(given, IOSPD_OID_W)) ts->warmup = c->ts.warmup;
    if (iospd_opt_given(given, IOSPD_OID_C)) ts->cooldown = c->ts.cooldown;
    if (iospd_opt_given(given, IOSPD_OID_z)) {
      ts->rand_seed = c->ts.rand_seed;
      ts->rand_seed_from_clock = c->ts.rand_seed_from_clock;
    }
  }
  if (c->format_set) p->format = c->pp.format;
  if (c->pp.profile_only) p->profile_only = true;
  if (c->pp.verbose) p->verbose = true;
  if (c->pp.verbose_stats) p->verbose_stats = true;
  if (iospd_opt_given(given, IOSPD_OID_colon))
    p->experiment_flags = c->pp.experiment_flags;
  /* The bitmap says what the command line gave, not the profile. */
  memcpy(p->opt_given, c->pp.opt_given, sizeof p->opt_given);
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
  t->bypass_io = c->bypass == UNSET ? IOSPD_BYPASS_NONE
                                    : (iospd_bypass_io_t)c->bypass;
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
  c->cache = c->write_through = c->mmap = c->bypass = UNSET;
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
  if (c->pp.system_only) {
    /* -Rs (DISKSPD 2.3): alone on the line; the app prints the system. */
    rc = iospd_opt_system_only(c, sw, nsw);
    if (rc == 0) {
      *action = IOSPD_ACTION_SYSTEM_INFO;
      char* line = join_argv(argc, argv);
      if (line == NULL) {
        rc = nomem(c);
        goto done;
      }
      iospd_free(p->cmdline);
      p->cmdline = line;
      rc = build(c, p, false);
    }
    goto done;
  }

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
      if (lookup(c, sw[i], &o) == 0 && (o->flags & IOSPD_OPTF_TREE)) {
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

  rc = iospd_opt_finish_23(c);
  if (rc) {
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
    const iospd_profile_t* given = &c->pp; /* its opt_given bitmap */
    if (!iospd_opt_given(given, IOSPD_OID_t))
      c->tgt.threads_per_file = IOSPD_TREE_DEFAULT_THREADS;
    if (!iospd_opt_given(given, IOSPD_OID_o)) c->tgt.request_count = 1;
    if (!iospd_opt_given(given, IOSPD_OID_b)) c->tgt.block_size = 4096;
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

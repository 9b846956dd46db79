/* SPDX-License-Identifier: MIT */
/* DISKSPD 2.3's command line (issue #25): --diskspd=, every new switch's
 * parsed values, every error and edge of diskspd-2.3-behaviour.md with the
 * message naming the switch, the rules between switches (validation), the
 * 2.2 refusals, and -Rs. */
#include "test_util.h"

#include "iospd/cmdline.h"
#include "iospd/diskspd23.h"
#include "iospd/options.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

static uint64_t no_uptime(void) { return 0; }
static const iospd_cmdline_env_t k_linux = {false, false, NULL, no_uptime};
static const iospd_cmdline_env_t k_windows = {true, true, NULL, no_uptime};

typedef struct args_s {
  char buf[1024];
  const char* argv[64];
  int argc;
  const iospd_cmdline_env_t* env;
} args_t;

/* "W|" first: the Windows environment. "--diskspd=2.3" is added first,
 * or "--diskspd=2.2" when the line says "2.2|" (neither when the line names
 * a level itself); "D|": no level switch, the default. */
static void split(args_t* a, const char* line) {
  a->env = &k_linux;
  const char* level = "--diskspd=2.3";
  for (;;) {
    if (strncmp(line, "W|", 2) == 0) {
      a->env = &k_windows;
      line += 2;
    } else if (strncmp(line, "2.2|", 4) == 0) {
      level = "--diskspd=2.2";
      line += 4;
    } else if (strncmp(line, "D|", 2) == 0) {
      level = NULL;
      line += 2;
    } else {
      break;
    }
  }
  snprintf(a->buf, sizeof a->buf, "%s", line);
  a->argc = 0;
  a->argv[a->argc++] = "iospd";
  if (strstr(line, "--diskspd") != NULL) level = NULL;
  if (level != NULL) a->argv[a->argc++] = level;
  char* p = a->buf;
  while (*p) {
    while (*p == ' ') p++;
    if (!*p) break;
    char* s = p;
    while (*p && *p != ' ') p++;
    if (*p) *p++ = '\0';
    a->argv[a->argc++] = s;
  }
}

/* Parses line; returns the parse's code. err, warnings and action are the
 * parse's. */
static int parse(const char* line, iospd_profile_t* p, iospd_err_t* err,
                 iospd_strbuf_t* warn, iospd_cmdline_action_t* action) {
  args_t a;
  split(&a, line);
  iospd_profile_init(p);
  iospd_err_clear(err);
  return iospd_cmdline_parse(a.argc, a.argv, a.env, p, action, warn, err);
}

static const iospd_timespan_t* ok_ts(const char* line, iospd_profile_t* p) {
  iospd_err_t err;
  iospd_cmdline_action_t action;
  int rc = parse(line, p, &err, NULL, &action);
  if (rc != 0) fail_msg("'%s': %s", line, err.msg);
  assert_int_equal(action, IOSPD_ACTION_RUN);
  assert_int_equal(p->timespan_count, 1);
  return &p->timespans[0];
}

/* ---- --diskspd= ------------------------------------------------------- */

static void test_level_switch(void** state) {
  (void)state;
  iospd_profile_t p;
  ok_ts("t", &p);
  assert_int_equal(p.ext.diskspd, IOSPD_DISKSPD_23);
  iospd_profile_destroy(&p);
  ok_ts("D|t", &p);
  assert_int_equal(p.ext.diskspd, IOSPD_DISKSPD_LEVEL_DEFAULT);
  assert_int_equal(p.ext.diskspd, IOSPD_DISKSPD_23);
  iospd_profile_destroy(&p);
  ok_ts("2.2|--diskspd=2.2 t", &p);
  assert_int_equal(p.ext.diskspd, IOSPD_DISKSPD_22);
  iospd_profile_destroy(&p);
  /* Read before every other switch: a 2.3 switch before it is fine. */
  const iospd_timespan_t* ts = ok_ts("2.2|-u8 --diskspd=2.3 t", &p);
  assert_true(ts->ioring.enabled);
  assert_int_equal(ts->ioring.batch, 8);
  assert_true(iospd_opt_given(&p, IOSPD_OID_diskspd));
  iospd_profile_destroy(&p);
  /* The last one counts. */
  ok_ts("2.2|--diskspd=2.3 --diskspd=2.2 t", &p);
  assert_int_equal(p.ext.diskspd, IOSPD_DISKSPD_22);
  iospd_profile_destroy(&p);

  iospd_err_t err;
  iospd_cmdline_action_t action;
  static const char* const bad[] = {"2.2|--diskspd=2.4 t", "2.2|--diskspd t",
                                    "2.2|--diskspd=23 t",
                                    "2.2|--diskspd=2.3x t"};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(bad); i++) {
    assert_int_equal(parse(bad[i], &p, &err, NULL, &action), IOSPD_EUSAGE);
    assert_non_null(strstr(err.msg, "'--diskspd"));
    assert_non_null(strstr(err.msg, "unknown DISKSPD level"));
    assert_non_null(strstr(err.msg, "use 2.2 or 2.3"));
    iospd_profile_destroy(&p);
  }
}

/* ---- -u ---------------------------------------------------------------- */

static void test_ioring(void** state) {
  (void)state;
  static const struct {
    const char* line;
    bool reg;
    uint32_t batch;
    bool pct;
  } k[] = {
      {"-u t", true, 25, true},       {"-un t", false, 25, true},
      {"-u8 t", true, 8, false},      {"-un50p t", false, 50, true},
      {"-u007 t", true, 7, false},    {"-u08p t", true, 8, true},
      {"-u65536 t", true, 65536, false}, {"-u100p t", true, 100, true},
      {"-u1p t", true, 1, true},      {"-un1 t", false, 1, false},
      {"-u4 -u t", true, 25, true},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k); i++) {
    iospd_profile_t p;
    const iospd_timespan_t* ts = ok_ts(k[i].line, &p);
    assert_true(ts->ioring.enabled);
    if (ts->ioring.registered_buffers != k[i].reg ||
        ts->ioring.batch != k[i].batch ||
        ts->ioring.batch_percent != k[i].pct)
      fail_msg("'%s': got reg %d batch %u pct %d", k[i].line,
               ts->ioring.registered_buffers, ts->ioring.batch,
               ts->ioring.batch_percent);
    iospd_profile_destroy(&p);
  }
  iospd_profile_t p;
  const iospd_timespan_t* ts = ok_ts("t", &p);
  assert_false(ts->ioring.enabled);
  iospd_profile_destroy(&p);
}

/* ---- -oc, -bs ---------------------------------------------------------- */

static void test_completion_depth_and_bufsep(void** state) {
  (void)state;
  static const struct {
    const char* line;
    uint32_t depth;
  } k[] = {{"-oc1 t", 1}, {"-oc16 t", 16}, {"-oc8x t", 8}, {"-oc08 t", 8},
           {"-oc+4 t", 4}, {"-oc4 -oc2 t", 2}, {"t", 0}};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k); i++) {
    iospd_profile_t p;
    const iospd_timespan_t* ts = ok_ts(k[i].line, &p);
    if (ts->completion_depth != k[i].depth)
      fail_msg("'%s': depth %u, want %u", k[i].line, ts->completion_depth,
               k[i].depth);
    iospd_profile_destroy(&p);
  }
  iospd_profile_t p;
  const iospd_timespan_t* ts = ok_ts("-bsn -b4K t", &p);
  assert_int_equal(ts->buffer_separation, IOSPD_BUFSEP_SYSTEM_DEFAULT);
  assert_int_equal(ts->targets[0].block_size, 4096); /* -bs is not -b */
  iospd_profile_destroy(&p);
  ts = ok_ts("-bsp t", &p);
  assert_int_equal(ts->buffer_separation, IOSPD_BUFSEP_PDE_CACHE_LINE);
  assert_int_equal(ts->targets[0].block_size, 65536);
  iospd_profile_destroy(&p);
  ts = ok_ts("t", &p);
  assert_int_equal(ts->buffer_separation, IOSPD_BUFSEP_LEVEL_DEFAULT);
  assert_int_equal(iospd_buffer_separation_of(&p, ts),
                   IOSPD_BUFSEP_PDE_CACHE_LINE);
  iospd_profile_destroy(&p);
  ts = ok_ts("2.2|t", &p);
  assert_int_equal(iospd_buffer_separation_of(&p, ts),
                   IOSPD_BUFSEP_SYSTEM_DEFAULT);
  iospd_profile_destroy(&p);

  /* -l with an explicit -bsp: a warning that large pages win. */
  iospd_strbuf_t w;
  iospd_strbuf_init(&w);
  iospd_err_t err;
  iospd_cmdline_action_t action;
  assert_int_equal(parse("-bsp -l t", &p, &err, &w, &action), 0);
  assert_non_null(strstr(iospd_strbuf_cstr(&w),
                         "warning: -bsp has no effect with -l: large pages "
                         "take priority"));
  iospd_profile_destroy(&p);
  iospd_strbuf_reset(&w);
  assert_int_equal(parse("-l t", &p, &err, &w, &action), 0);
  assert_string_equal(iospd_strbuf_cstr(&w), "");
  iospd_profile_destroy(&p);
  iospd_strbuf_destroy(&w);
}

/* ---- -a ---------------------------------------------------------------- */

typedef struct aff_case_s {
  const char* line;
  bool core, span;
  iospd_aff_efficiency_t eff;
  const char* list; /* "g/c g/c ..." ('*' whole group), canonical */
} aff_case_t;

static void list_text(const iospd_timespan_t* ts, char* buf, size_t cap) {
  size_t n = 0;
  buf[0] = '\0';
  for (uint32_t i = 0; i < ts->affinity_count && n < cap; i++) {
    const iospd_affinity_t* a = &ts->affinity[i];
    if (a->cpu == IOSPD_AFFINITY_WHOLE_GROUP)
      n += (size_t)snprintf(buf + n, cap - n, "%s%u/*", i ? " " : "",
                            a->group);
    else
      n += (size_t)snprintf(buf + n, cap - n, "%s%u/%u", i ? " " : "",
                            a->group, a->cpu);
  }
}

static void test_affinity(void** state) {
  (void)state;
  static const aff_case_t k[] = {
      {"t", false, false, IOSPD_AFF_P_FIRST, ""},
      {"-a t", false, false, IOSPD_AFF_P_FIRST, ""},
      {"-ac t", true, false, IOSPD_AFF_P_FIRST, ""},
      {"-as t", false, true, IOSPD_AFF_P_FIRST, ""},
      {"-acs t", true, true, IOSPD_AFF_P_FIRST, ""},
      {"-acsE t", true, true, IOSPD_AFF_FILL_E_FIRST, ""},
      {"-aPc t", true, false, IOSPD_AFF_FILL_P_FIRST, ""},
      {"-ae t", false, false, IOSPD_AFF_E_FIRST, ""},
      {"-aE t", false, false, IOSPD_AFF_FILL_E_FIRST, ""},
      {"-ap t", false, false, IOSPD_AFF_P_FIRST, ""},
      {"-aup t", false, false, IOSPD_AFF_UNORDERED, ""},
      {"-aup -ac t", true, false, IOSPD_AFF_UNORDERED, ""},
      {"-ac -aup t", true, false, IOSPD_AFF_UNORDERED, ""},
      {"-a0 t", false, false, IOSPD_AFF_P_FIRST, "0/0"},
      {"-a0,2-5,7 t", false, false, IOSPD_AFF_P_FIRST, "0/0 0/2 0/3 0/4 0/5 0/7"},
      {"-ag0,0-10 t", false, false, IOSPD_AFF_P_FIRST,
       "0/0 0/1 0/2 0/3 0/4 0/5 0/6 0/7 0/8 0/9 0/10"},
      {"-ag0,0-1,3-3 t", false, false, IOSPD_AFF_P_FIRST, "0/0 0/1 0/3"},
      {"-ag1 t", false, false, IOSPD_AFF_P_FIRST, "1/*"},
      {"-ag1 -ag0 t", false, false, IOSPD_AFF_P_FIRST, "1/* 0/*"},
      {"-ag1,2 -a0 t", false, false, IOSPD_AFF_P_FIRST, "1/2 0/0"},
      {"-a3,1,2 t", false, false, IOSPD_AFF_P_FIRST, "0/1 0/2 0/3"},
      {"-a1 -a1 t", false, false, IOSPD_AFF_P_FIRST, "0/1"},
      {"-ag0,1 -ag0 t", false, false, IOSPD_AFF_P_FIRST, "0/*"},
      {"-a0,g2,5 t", false, false, IOSPD_AFF_P_FIRST, "0/0 2/5"},
      {"-a63 t", false, false, IOSPD_AFF_P_FIRST, "0/63"},
      {"-a007 t", false, false, IOSPD_AFF_P_FIRST, "0/7"},
      {"-ac -a0,1 t", true, false, IOSPD_AFF_P_FIRST, "0/0 0/1"},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k); i++) {
    iospd_profile_t p;
    const iospd_timespan_t* ts = ok_ts(k[i].line, &p);
    char got[512];
    list_text(ts, got, sizeof got);
    if (ts->affinity_core_aware != k[i].core ||
        ts->affinity_span_groups != k[i].span ||
        ts->affinity_efficiency != k[i].eff || strcmp(got, k[i].list) != 0)
      fail_msg("'%s': core %d span %d eff %d list '%s'; want %d %d %d '%s'",
               k[i].line, ts->affinity_core_aware, ts->affinity_span_groups,
               (int)ts->affinity_efficiency, got, k[i].core, k[i].span,
               (int)k[i].eff, k[i].list);
    iospd_profile_destroy(&p);
  }
}

/* ---- errors ------------------------------------------------------------ */

typedef struct bad_s {
  const char* line;
  const char* msg; /* substring of the parse's message */
} bad_t;

static const bad_t k_bad[] = {
    /* -u */
    {"-u0 t", "'-u0': the IoRing batch size must be from 1 to 65536"},
    {"-u65537 t", "'-u65537': the IoRing batch size must be from 1 to 65536 "
                  "(it exceeds the maximum)"},
    {"-u99999999999999999999 t", "exceeds the maximum"},
    {"-u0p t", "'-u0p': the IoRing batch percentage must be from 1 to 100"},
    {"-u101p t", "batch percentage must be from 1 to 100"},
    {"-u-1 t", "'-u-1': unexpected '-1' after -u"},
    {"-u+1 t", "'-u+1': unexpected '+1' after -u"},
    {"-u8x t", "'-u8x': unexpected 'x' after the batch size"},
    {"-u1.5 t", "'-u1.5': unexpected '.5'"},
    {"-u50% t", "'-u50%': unexpected '%'"},
    {"-up t", "'-up': unexpected 'p' after -u"},
    {"-unn t", "'-unn': unexpected 'n' after -un"},
    {"-u8pp t", "'-u8pp': unexpected 'p'"},
    {"-nu t", "'-nu': -n takes no value"},
    /* -oc */
    {"-oc0 t", "'-oc0': the completion depth must be from 1 to 16"},
    {"-oc17 t", "'-oc17': the completion depth must be from 1 to 16"},
    {"-oc t", "'-oc': the completion depth must be from 1 to 16"},
    {"-ocx t", "'-ocx': the completion depth"},
    {"-oc-1 t", "'-oc-1': the completion depth"},
    {"-oc99999999999999999999 t", "completion depth must be from 1 to 16"},
    /* -bs */
    {"-bs t", "'-bs': -bs takes one letter"},
    {"-bsx t", "'-bsx': -bs takes one letter"},
    {"-bsnn t", "'-bsnn'"},
    {"-bsp4K t", "'-bsp4K'"},
    {"-bsP t", "'-bsP'"},
    /* -a letters */
    {"-ae -aE t", "'-aE' conflicts with the efficiency order of '-ae'"},
    {"-aPE t", "'-aPE': only one efficiency order (p, P, e or E)"},
    {"-aep t", "'-aep': only one efficiency order"},
    {"-ap -aup t", "'-aup' conflicts with the efficiency order of '-ap'"},
    {"-aup -aE t", "'-aE' conflicts with the efficiency order of '-aup'"},
    {"-au t", "'-au': -au must be -aup"},
    {"-aux t", "'-aux': -au must be -aup"},
    {"-aupc t", "'-aupc': nothing may follow -aup"},
    {"-acx t", "'-acx': unknown -a letter 'x'"},
    {"-aq t", "'-aq': unknown -a letter 'q'"},
    {"-ac0 t", "'-ac0': give the -a letters and a CPU list in separate"},
    /* -a lists */
    {"-a64 t", "'-a64': CPU 64 is out of range: DISKSPD 2.3 numbers the CPUs "
               "of a group 0-63"},
    {"-a0-64 t", "CPU 64 is out of range"},
    {"-a5-2 t", "'-a5-2': the CPU range 5-2 is inverted; write the lower CPU "
                "first (2-5)"},
    {"-a2- t", "'-a2-': the range after CPU 2 needs its last CPU"},
    {"-a2-x t", "the range after CPU 2 needs its last CPU"},
    {"-a0,,1 t", "a CPU number, not an empty item"},
    {"-a0, t", "ends with a comma"},
    {"-ag0,g1,0 t", "processor group 0 has no CPUs in the list; for a whole "
                    "group use a separate -ag0"},
    {"-a0,g1 t", "processor group 1 has no CPUs in the list; for a whole "
                 "group use a separate -ag1"},
    {"-ag65536 t", "processor group 65536 is out of range"},
    {"-ag65536,0 t", "processor group 65536 is out of range"},
    {"-a0x t", "'-a0x': unexpected 'x'"},
    /* -S y and Y */
    {"W|-Sy t", "'-Sy': BypassIO (-Sy) needs unbuffered I/O in the same -S"},
    {"W|-SY t", "'-SY': BypassIO (-SY) needs unbuffered I/O"},
    {"W|-Su -Sy t", "'-Sy': BypassIO (-Sy) needs unbuffered I/O in the same"},
    {"W|-Suyy t", "'-Suyy': BypassIO was already asked for"},
    {"W|-SuyY t", "'-SuyY': BypassIO was already asked for"},
    {"W|-Suy -SY t", "'-SY': BypassIO was already asked for"},
    {"-Suy t", "'-Suy': -Sy (BypassIO) exists only on Windows; on Linux -Su "
               "already bypasses the page cache"},
    {"-ShY t", "'-ShY': -SY (BypassIO) exists only on Windows"},
    {"W|-Sq t", "unknown -S letter 'q'; use b, h, m, r, u, w, y or Y"},
    /* -Rs */
    {"-Rs -b4K", "'-b4K' cannot be combined with '-Rs': -Rs prints the system "
                 "information only"},
    {"-d5 -Rsxml", "'-d5' cannot be combined with '-Rsxml'"},
    {"-Rs t", "'-Rs': -Rs prints the system information only and takes no "
              "target ('t')"},
    {"-Rsjson", "'-Rsjson': the system information is printed as text or XML"},
    {"-Rsfoo", "'-Rsfoo'"},
    /* -n with -a forms at 2.3 */
    {"-n -ac t", "-n (no affinity) cannot be combined with -a at DISKSPD 2.3"},
    {"-aup -n t", "-n (no affinity) cannot be combined with -a"},
    {"-n -a t", "-n (no affinity) cannot be combined with -a"},
    {"-n -ag0 t", "-n (no affinity) cannot be combined with -a"},
    /* At 2.2 every 2.3 form is DISKSPD 2.3's */
    {"2.2|-u t", "'-u': -u (IoRing submission) is a DISKSPD 2.3 switch; add "
                 "--diskspd=2.3 to use it"},
    {"2.2|-un8p t", "'-un8p': -u (IoRing submission) is a DISKSPD 2.3 switch"},
    {"2.2|-oc8 t", "'-oc8': -oc (completion depth) is a DISKSPD 2.3 switch"},
    {"2.2|-bsn t", "'-bsn': -bs (buffer separation) is a DISKSPD 2.3 switch"},
    {"2.2|-ac t", "'-ac': -a with letters (c, s, p, P, e, E, -aup) is a "
                  "DISKSPD 2.3 switch"},
    {"2.2|-aup t", "'-aup': -a with letters"},
    {"2.2|-a0,2-5 t", "'-a0,2-5': a CPU range (N-M) in -a is a DISKSPD 2.3"},
    {"2.2|-ag1 t", "'-ag1': a whole processor group (-ag<n>) is a DISKSPD 2.3"},
    {"2.2|W|-Suy t", "'-Suy': -Sy (BypassIO) is a DISKSPD 2.3 switch"},
    {"2.2|-SuY t", "'-SuY': -SY (BypassIO) is a DISKSPD 2.3 switch"},
    {"2.2|-Rs", "'-Rs': -Rs (system information) is a DISKSPD 2.3 switch"},
    {"2.2|-Rpsxml", "'-Rpsxml': -Rs (system information) is a DISKSPD 2.3"},
    /* 2.2's -a stays 2.2's */
    {"2.2|-a-1 t", "unexpected '-' at position 1"},
    {"2.2|-a256 t", "CPU 256 is out of range (0-255 within a group)"},
};

static void test_errors(void** state) {
  (void)state;
  int failures = 0;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k_bad); i++) {
    iospd_profile_t p;
    iospd_err_t err;
    iospd_cmdline_action_t action;
    int rc = parse(k_bad[i].line, &p, &err, NULL, &action);
    if (rc != IOSPD_EUSAGE) {
      print_error("'%s': expected IOSPD_EUSAGE, got %d (%s)\n", k_bad[i].line,
                  rc, err.msg);
      failures++;
    } else if (strstr(err.msg, k_bad[i].msg) == NULL) {
      print_error("'%s': message '%s' lacks '%s'\n", k_bad[i].line, err.msg,
                  k_bad[i].msg);
      failures++;
    }
    iospd_profile_destroy(&p);
  }
  assert_int_equal(failures, 0);
}

/* 2.2 still reads 2.2's -a as before (the 256-CPU range, no letters). */
static void test_level_22_unchanged(void** state) {
  (void)state;
  iospd_profile_t p;
  const iospd_timespan_t* ts = ok_ts("2.2|-a255,3,1 -n -a t", &p);
  (void)ts;
  iospd_profile_destroy(&p);
  ts = ok_ts("2.2|-a255,3,1 t", &p);
  char got[128];
  list_text(ts, got, sizeof got);
  assert_string_equal(got, "0/255 0/3 0/1"); /* order kept, not masks */
  assert_int_equal(ts->buffer_separation, IOSPD_BUFSEP_LEVEL_DEFAULT);
  assert_false(ts->ioring.enabled);
  iospd_profile_destroy(&p);
  /* -o above 65536 is fine at 2.2 (validation below). */
  ts = ok_ts("2.2|-o70000 t", &p);
  assert_int_equal(iospd_profile_validate(&p, NULL), 0);
  iospd_profile_destroy(&p);
}

/* ---- validation: the rules between switches ----------------------------- */

static void test_rules(void** state) {
  (void)state;
  static const bad_t k[] = {
      {"-u -Sm t", "iospd: error: t: -u (IoRing) cannot be used with memory-mapped "
                   "I/O (-Sm)"},
      {"W|-u -x t", "iospd: error: -u (IoRing) cannot be used with -x (completion "
                    "routines)"},
      {"W|-oc4 -x t", "iospd: error: -oc (completion depth) cannot be used with -x"},
      {"-oc4 -Sm t", "iospd: error: -oc (completion depth) has no effect when every "
                     "target is memory-mapped (-Sm)"},
      {"-o65537 t", "iospd: error: t: -o65537 exceeds DISKSPD 2.3's maximum of 65536 "
                    "outstanding I/Os per thread"},
      {"-F2 -O65537 t", "iospd: error: -O65537 exceeds DISKSPD 2.3's maximum of "
                        "65536"},
      {"W|-Suy -w30 t", "iospd: error: t: BypassIO (-Sy) cannot be used with writes "
                        "(-w30)"},
      {"W|-SuY -w1 t", "iospd: error: t: BypassIO (-SY) cannot be used with writes "
                       "(-w1)"},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k); i++) {
    iospd_profile_t p;
    iospd_err_t err;
    iospd_cmdline_action_t action;
    int rc = parse(k[i].line, &p, &err, NULL, &action);
    if (rc != 0) fail_msg("'%s': parse: %s", k[i].line, err.msg);
    iospd_strbuf_t diag;
    iospd_strbuf_init(&diag);
    rc = iospd_profile_validate(&p, &diag);
    if (rc != IOSPD_EUSAGE || strstr(iospd_strbuf_cstr(&diag), k[i].msg) == NULL)
      fail_msg("'%s': validate %d: '%s' lacks '%s'", k[i].line, rc,
               iospd_strbuf_cstr(&diag), k[i].msg);
    iospd_strbuf_destroy(&diag);
    iospd_profile_destroy(&p);
  }
  /* The edges that pass: -oc with one target not -Sm, -o65536, -u with
   * -Sh, BypassIO reads. */
  static const char* const good[] = {"-oc4 -Sm t", "-o65536 t",
                                     "-u -Sh t", "W|-Suy -w0 t",
                                     "W|-ShY t", "-F2 -O65536 -T4K t"};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(good); i++) {
    if (i == 0) continue; /* one target, all -Sm: refused above */
    iospd_profile_t p;
    ok_ts(good[i], &p);
    iospd_strbuf_t diag;
    iospd_strbuf_init(&diag);
    if (iospd_profile_validate(&p, &diag) != 0)
      fail_msg("'%s': %s", good[i], iospd_strbuf_cstr(&diag));
    iospd_strbuf_destroy(&diag);
    iospd_profile_destroy(&p);
  }
  iospd_profile_t p;
  const iospd_timespan_t* ts = ok_ts("W|-ShY t", &p);
  assert_int_equal(ts->targets[0].bypass_io, IOSPD_BYPASS_FULL);
  iospd_profile_destroy(&p);
  ts = ok_ts("W|-Syuw t", &p);
  assert_int_equal(ts->targets[0].bypass_io, IOSPD_BYPASS_PARTIAL);
  assert_int_equal(ts->targets[0].cache_mode, IOSPD_CACHE_DISABLE_OS);
  assert_true(ts->targets[0].write_through);
  iospd_profile_destroy(&p);
}

/* ---- -Rs ----------------------------------------------------------------- */

static void test_system_only(void** state) {
  (void)state;
  static const struct {
    const char* line;
    iospd_result_format_t fmt;
    bool rp;
  } k[] = {{"-Rs", IOSPD_FORMAT_TEXT, false},
           {"-Rstext", IOSPD_FORMAT_TEXT, false},
           {"-Rsxml", IOSPD_FORMAT_XML, false},
           {"-RsXML", IOSPD_FORMAT_XML, false},
           {"-Rpsxml", IOSPD_FORMAT_XML, true},
           {"-Rps", IOSPD_FORMAT_TEXT, true}};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(k); i++) {
    iospd_profile_t p;
    iospd_err_t err;
    iospd_cmdline_action_t action;
    int rc = parse(k[i].line, &p, &err, NULL, &action);
    if (rc != 0) fail_msg("'%s': %s", k[i].line, err.msg);
    assert_int_equal(action, IOSPD_ACTION_SYSTEM_INFO);
    assert_true(p.system_only);
    assert_int_equal(p.format, k[i].fmt);
    assert_int_equal(p.profile_only, k[i].rp);
    assert_int_equal(p.timespan_count, 0);
    assert_int_equal(p.ext.diskspd, IOSPD_DISKSPD_23);
    assert_non_null(p.cmdline);
    iospd_profile_destroy(&p);
  }
}

/* ---- the shared helpers -------------------------------------------------- */

static void test_helpers(void** state) {
  (void)state;
  assert_int_equal(iospd_buffer_separation_bytes(64, 4096), 16u << 20);
  assert_int_equal(iospd_buffer_separation_bytes(0, 0), 16u << 20);
  assert_int_equal(iospd_buffer_separation_bytes(128, 4096), 32u << 20);
  assert_int_equal(iospd_buffer_separation_bytes(64, 16384),
                   (uint64_t)8 * 2048 * 16384);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_cpu_mask_text(&sb, 0xBD); /* 0,2-5,7 */
  assert_string_equal(iospd_strbuf_cstr(&sb), "0,2-5,7");
  iospd_strbuf_reset(&sb);
  iospd_cpu_mask_text(&sb, 0);
  assert_string_equal(iospd_strbuf_cstr(&sb), "*");
  iospd_strbuf_reset(&sb);
  iospd_cpu_mask_text(&sb, 0x8000000000000003ull);
  assert_string_equal(iospd_strbuf_cstr(&sb), "0-1,63");
  iospd_strbuf_reset(&sb);
  iospd_cpu_mask_text(&sb, 0x5);
  assert_string_equal(iospd_strbuf_cstr(&sb), "0,2");
  iospd_strbuf_destroy(&sb);

  iospd_timespan_t ts;
  iospd_timespan_init(&ts);
  iospd_affinity_t list[] = {{1, 3}, {0, 5}, {1, 1}, {0, IOSPD_AFFINITY_WHOLE_GROUP},
                             {2, 0}, {0, 5}};
  ts.affinity = list;
  ts.affinity_count = IOSPD_ARRAY_SIZE(list);
  iospd_group_mask_t m[8];
  assert_int_equal(iospd_affinity_masks(&ts, m, 8), 3);
  assert_int_equal(m[0].group, 1);
  assert_int_equal(m[0].mask, 0xA);
  assert_int_equal(m[1].group, 0);
  assert_int_equal(m[1].mask, 0); /* whole group wins */
  assert_int_equal(m[2].group, 2);
  assert_int_equal(m[2].mask, 1);
  assert_int_equal(iospd_affinity_masks(&ts, m, 2), 2);

  const iospd_d23_word_t* w = iospd_d23_by_xml(iospd_d23_efficiency,
                                               "FillEFirst");
  assert_non_null(w);
  assert_int_equal(w->value, IOSPD_AFF_FILL_E_FIRST);
  assert_string_equal(w->text, "fill E-cores first");
  assert_null(iospd_d23_by_xml(iospd_d23_efficiency, "pfirst"));
  char words[128];
  iospd_d23_xml_words(iospd_d23_bypass, words, sizeof words);
  assert_string_equal(words, "Partial or Full");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_level_switch),
      cmocka_unit_test(test_ioring),
      cmocka_unit_test(test_completion_depth_and_bufsep),
      cmocka_unit_test(test_affinity),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_level_22_unchanged),
      cmocka_unit_test(test_rules),
      cmocka_unit_test(test_system_only),
      cmocka_unit_test(test_helpers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Randomised command lines (fixed seed, so failures reproduce): switch
 * fragments glued to random text and random bytes. The parser must never
 * crash, must return 0 or a negative code with a one-line message, and every
 * profile it accepts must validate without crashing. Iterations:
 * IOSPD_FUZZ_ITERATIONS (default 20000). */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/cmdline.h"
#include "iospd/error.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void) {
  /* xorshift64*: small, deterministic on every platform */
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return g_rng * 2685821657736338717ull;
}

static uint32_t below(uint32_t n) { return (uint32_t)(rnd() % n); }

static const char* const k_frag[] = {
    "-b", "-B", "-c", "-C", "-d", "-D", "-e", "-f", "-F", "-g", "-h", "-i",
    "-I", "-j", "-l", "-L", "-n", "-N", "-o", "-O", "-p", "-P", "-r", "-rs",
    "-rd", "-rdpct", "-rdabs", "-R", "-Rp", "-s", "-si", "-S", "-t", "-T",
    "-v", "-vs", "-w", "-W", "-x", "-X", "-y", "-ys", "-ye", "-z", "-Z",
    "-Zr", "-a", "-ag", "-:", "-?", "--allow-raw-write", "--engine=",
    "--help", "--", "-", "/", "/b", "/r", "#", "C:", "*1", "-Sh", "-Su",
    "-Sm", "-Sw", "-Sb", "-Sr", "-Nv", "-Ni", "-g10i", "-rdpct10/10:",
    "-rdabs10/1G:", "-a0,g1,", "-B1G:", "-Z1M,", "-eDISK_IO", "-Rpxml",
    "\xe2\x80\x93", "\xe2\x88\x92", "-Xp.xml", "-Xbad.xml",
};

static const char k_alpha[] =
    "0123456789000111KkMmGgTtBbi:/,%-+. gxrsuwhmpqcdnvefz\xff\x80";

static const char* const k_xml[] = {
    "<?xml version=\"1.0\"?><Profile><TimeSpans><TimeSpan><Targets><Target>"
    "<Path>*1</Path></Target></Targets></TimeSpan></TimeSpans></Profile>",
    "<Profile><TimeSpans>",
    "",
    "<?xml version=\"1.0\"?><Profile><TimeSpans><TimeSpan><Targets><Target>"
    "<Path>*2</Path><Random>4096</Random><Distribution><Percent><Range IO=\"90\">"
    "10</Range></Percent></Distribution></Target></Targets></TimeSpan>"
    "</TimeSpans></Profile>",
};

static int fake_read(const char* path, char** data, size_t* len,
                     iospd_err_t* err) {
  if (strcmp(path, "p.xml") != 0)
    return iospd_err_set(err, IOSPD_ENOENT, "cannot open '%s'", path);
  const char* x = k_xml[below(IOSPD_ARRAY_SIZE(k_xml))];
  *len = strlen(x);
  *data = iospd_strdup(x);
  return *data ? 0 : IOSPD_ENOMEM;
}

static uint64_t fake_uptime(void) { return rnd(); }

static void make_arg(char* buf, size_t cap) {
  size_t n = 0;
  uint32_t kind = below(10);
  if (kind < 7) {
    const char* f = k_frag[below(IOSPD_ARRAY_SIZE(k_frag))];
    n = strlen(f);
    if (n >= cap) n = cap - 1;
    memcpy(buf, f, n);
  }
  uint32_t extra = kind == 9 ? below(24) : below(8);
  for (uint32_t i = 0; i < extra && n + 1 < cap; i++) {
    char ch;
    if (kind == 9 && below(3) == 0)
      ch = (char)(1 + below(255)); /* any byte but NUL */
    else
      ch = k_alpha[below(sizeof k_alpha - 1)];
    buf[n++] = ch;
  }
  if (n == 0 && below(2)) buf[n++] = 't';
  buf[n] = '\0';
}

/* Valid lines to mutate, so that deep parser states are reached too. */
static const char* const k_seed[] = {
    "-c64M -d3 -b4K -r -o8 -t2 -w25 -Sh -L -D t",
    "-b4K -r -rdpct10/10:10/10:0/10 -z7 t",
    "-b4K -r -rdabs10/1G:10/1G:0/100G -g100i t",
    "-F4 -O8 -ag0,0,1,g1,2 -Zr -rs30 -r8K t",
    "-B1M:1G -T1M -t4 -si -Z1M,f.bin -Suw t",
    "-Sm -Nv -i4 -j10 -ysA -yfB -P100 -:1 t",
    "-Xp.xml -d5 -W1 -C1 -z -Rpxml -v -vs t",
    "--engine=psync --allow-raw-write -h -p -o4 #1",
};

/* Copies a seed line into argv, then changes a few bytes or arguments. */
static int mutate(const char** argv, char store[16][96]) {
  const char* line = k_seed[below(IOSPD_ARRAY_SIZE(k_seed))];
  int argc = 1;
  const char* p = line;
  while (*p && argc < 15) {
    size_t n = strcspn(p, " ");
    if (n > 90) n = 90;
    memcpy(store[argc], p, n);
    store[argc][n] = '\0';
    argv[argc] = store[argc];
    argc++;
    p += n;
    while (*p == ' ') p++;
  }
  uint32_t edits = 1 + below(3);
  for (uint32_t e = 0; e < edits; e++) {
    int i = 1 + (int)below((uint32_t)argc - 1);
    char* a = store[i];
    size_t n = strlen(a);
    switch (below(4)) {
      case 0: /* replace a byte */
        if (n) a[below((uint32_t)n)] = k_alpha[below(sizeof k_alpha - 1)];
        break;
      case 1: /* cut the argument short */
        a[below((uint32_t)n + 1)] = '\0';
        break;
      case 2: /* append a byte */
        if (n + 1 < 96) {
          a[n] = k_alpha[below(sizeof k_alpha - 1)];
          a[n + 1] = '\0';
        }
        break;
      default: { /* swap two arguments */
        int j = 1 + (int)below((uint32_t)argc - 1);
        const char* t = argv[i];
        argv[i] = argv[j];
        argv[j] = t;
        break;
      }
    }
  }
  return argc;
}

/* Every line of a diagnostics buffer starts with one of the prefixes and
 * the buffer ends with a newline. */
/* Diagnostics are whole lines: "warning: ...", and for validation also
 * "iospd: error: ..." and DISKSPD's "WARNING: ..." lines, each of those followed by
 * our "note: ...". */
static bool lines_ok(const iospd_strbuf_t* sb, bool validation) {
  const char* s = iospd_strbuf_cstr(sb);
  if (*s == '\0') return true;
  if (s[strlen(s) - 1] != '\n') return false;
  while (*s) {
    if (validation && strncmp(s, "WARNING: ", 9) == 0) {
      s = strchr(s, '\n') + 1;
      if (strncmp(s, "note: ", 6) != 0) return false;
    } else if (strncmp(s, "warning: ", 9) != 0 &&
               !(validation && strncmp(s, "iospd: error: ", 14) == 0)) {
      return false;
    }
    s = strchr(s, '\n') + 1;
  }
  return true;
}

static void test_cmdline_fuzz(void** state) {
  (void)state;
  long iterations = 20000;
  const char* env_it = getenv("IOSPD_FUZZ_ITERATIONS");
  if (env_it && atol(env_it) > 0) iterations = atol(env_it);
  iospd_cmdline_env_t envs[2] = {{false, false, fake_read, fake_uptime},
                                 {true, true, fake_read, fake_uptime}};
  long ok = 0, bad = 0;
  static char store[16][96];
  for (long it = 0; it < iterations; it++) {
    const char* argv[16];
    int argc;
    argv[0] = "iospd";
    if (below(3) == 0) {
      argc = mutate(argv, store);
    } else {
      argc = 1 + (int)below(8);
      for (int i = 1; i < argc; i++) {
        make_arg(store[i], sizeof store[i]);
        argv[i] = store[i];
      }
      /* Usually end with a target so the switches get fully checked. */
      if (below(4) != 0 && argc < 15) argv[argc++] = below(2) ? "t" : "#1";
    }
    iospd_profile_t p;
    iospd_profile_init(&p);
    iospd_strbuf_t warn, diag;
    iospd_strbuf_init(&warn);
    iospd_strbuf_init(&diag);
    iospd_err_t err;
    memset(&err, 0, sizeof err);
    iospd_cmdline_action_t action = IOSPD_ACTION_RUN;
    int rc = iospd_cmdline_parse(argc, argv, &envs[below(2)], &p, &action,
                                 &warn, &err);
    if (!lines_ok(&warn, false)) fail_msg("bad warnings: %s", warn.data);
    if (rc == 0) {
      ok++;
      if (action == IOSPD_ACTION_RUN) {
        assert_non_null(p.cmdline);
        assert_true(p.timespan_count >= 1);
        int vrc = iospd_profile_validate(&p, &diag);
        assert_true(vrc == 0 || vrc == IOSPD_EUSAGE);
        if (vrc != 0) assert_true(diag.len > 0);
        if (!lines_ok(&diag, true)) fail_msg("bad diagnostics: %s", diag.data);
      }
    } else {
      bad++;
      if (rc >= 0 || err.msg[0] == '\0' || strchr(err.msg, '\n') != NULL) {
        fprintf(stderr, "iteration %ld: rc %d msg '%s'; argv:", it, rc,
                err.msg);
        for (int i = 0; i < argc; i++) fprintf(stderr, " [%s]", argv[i]);
        fprintf(stderr, "\n");
        fail();
      }
    }
    iospd_strbuf_destroy(&warn);
    iospd_strbuf_destroy(&diag);
    iospd_profile_destroy(&p);
  }
  print_message("%ld command lines: %ld accepted, %ld refused\n", iterations,
                ok, bad);
  /* The generator must exercise both outcomes. */
  assert_true(ok > iterations / 100);
  assert_true(bad > iterations / 100);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cmdline_fuzz),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

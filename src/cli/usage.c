/* SPDX-License-Identifier: MIT */
/* The usage text (-?, --help, no arguments), in our own words. The switch
 * lines come from the option table in options.c, grouped by topic, so every
 * switch the parser knows is documented. */
#include "iospd/cmdline.h"

#include <string.h>

#include "usage_text.h"
#include "iospd/options.h"
#include "iospd/profile.h"
#include "iospd/version.h"

const char iospd_usage_targets[] =
    "A target is a file, a physical disk or a volume. All switches come\n"
    "before the first target and apply to every target.";
const char iospd_usage_switches_dash[] =
    "Switches are one token: the value follows the letter directly\n"
    "(-b4K, not -b 4K). Only '-' starts a switch, so paths beginning\n"
    "with '/' are targets.";
const char iospd_usage_switches_slash[] =
    "Switches are one token: the value follows the letter directly\n"
    "(-b4K, not -b 4K). '-' or '/' starts a switch.";
const char iospd_usage_sizes[] =
    "A <size> is a whole number of bytes with an optional suffix: K, M,\n"
    "G, T (powers of 1024) or b (blocks of the -b size). Examples: 4K,\n"
    "1G, 8b. Other numbers are plain whole decimal numbers.";
const iospd_usage_example_target_t iospd_usage_targets_posix[] = {
    {"/mnt/test.dat", "a file"},
    {"/dev/nvme0n1", "a block device"},
};
const size_t iospd_usage_targets_posix_count =
    IOSPD_ARRAY_SIZE(iospd_usage_targets_posix);
static const iospd_usage_example_target_t k_targets_windows[] = {
    {"C:\\test.dat", "a file"},
    {"#1", "physical drive 1 (\\\\.\\PhysicalDrive1)"},
    {"E:", "volume E:"},
};

const char* iospd_usage_topic_title(int topic, bool windows) {
  if (topic < 0 || topic >= IOSPD_TOPIC_COUNT) return "";
  if (topic == IOSPD_TOPIC_WINDOWS && !windows)
    return "Windows-only switches (limited support on this platform)";
  return iospd_topic_titles[topic];
}

/* Descriptions go under the syntax, indented, so they can be long. */
#define HELP_COL 6

static void put_lines(iospd_strbuf_t* out, const char* text, int first_col,
                      int indent) {
  int col = first_col;
  const char* p = text;
  while (*p) {
    const char* nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    for (; col < indent; col++) iospd_strbuf_putc(out, ' ');
    iospd_strbuf_append_n(out, p, n);
    iospd_strbuf_putc(out, '\n');
    col = 0;
    p += n;
    if (*p == '\n') p++;
  }
}

static void put_option(iospd_strbuf_t* out, const iospd_opt_def_t* o,
                       const iospd_cmdline_env_t* env) {
  /* --engine: its words and their lines come from the platform's table. */
  iospd_strbuf_t engines;
  iospd_strbuf_init(&engines);
  const char* s = o->syntax;
  if (iospd_opt_id(o) == IOSPD_OID_engine) {
    iospd_engine_choice_syntax(&engines, o->syntax);
    s = iospd_strbuf_cstr(&engines);
  }
  /* Multi-line syntax: every line but the last stands alone. */
  const char* nl;
  while ((nl = strchr(s, '\n')) != NULL) {
    iospd_strbuf_append(out, "  ");
    iospd_strbuf_append_n(out, s, (size_t)(nl - s));
    iospd_strbuf_putc(out, '\n');
    s = nl + 1;
  }
  iospd_strbuf_append(out, "  ");
  iospd_strbuf_append(out, s);
  iospd_strbuf_putc(out, '\n');
  put_lines(out, o->help, 0, HELP_COL);
  if (iospd_opt_id(o) == IOSPD_OID_engine) {
    iospd_strbuf_reset(&engines);
    iospd_engine_choice_help(&engines);
    put_lines(out, iospd_strbuf_cstr(&engines), 0, HELP_COL + 2);
  }
  iospd_strbuf_destroy(&engines);
  bool windows = env != NULL && env->windows;
  if (!windows && o->posix_note != NULL) put_lines(out, o->posix_note, 0, HELP_COL);
}

void iospd_cmdline_usage(iospd_strbuf_t* out, const char* argv0,
                         const iospd_cmdline_env_t* env) {
  const char* prog = (argv0 && argv0[0]) ? argv0 : "iospd";
  bool windows = env != NULL && env->windows;
  bool slash = env != NULL && env->slash_switches;

  iospd_strbuf_appendf(out,
                       "\nUsage: %s [switches] target1 [target2 ...]\n", prog);
  iospd_strbuf_appendf(out, "iospd %s, compatible with the DISKSPD %s "
                            "command line\n", IOSPD_VERSION,
                       IOSPD_DISKSPD_VERSION);
  iospd_strbuf_append(out, "\nTargets\n");
  put_lines(out, iospd_usage_targets, 0, 2);
  const iospd_usage_example_target_t* ex =
      windows ? k_targets_windows : iospd_usage_targets_posix;
  size_t nex = windows ? IOSPD_ARRAY_SIZE(k_targets_windows)
                       : iospd_usage_targets_posix_count;
  for (size_t i = 0; i < nex; i++)
    iospd_strbuf_appendf(out, "    %-17s %s\n", ex[i].name, ex[i].what);
  put_lines(out, slash ? iospd_usage_switches_slash : iospd_usage_switches_dash,
            0, 2);
  iospd_strbuf_append(out, "\nSizes\n");
  put_lines(out, iospd_usage_sizes, 0, 2);

  for (int topic = 0; topic < IOSPD_TOPIC_COUNT; topic++) {
    iospd_strbuf_appendf(out, "\n%s\n",
                         iospd_usage_topic_title(topic, windows));
    for (size_t i = 0; i < iospd_options_count; i++) {
      const iospd_opt_def_t* o = &iospd_options[i];
      if ((int)o->topic == topic) put_option(out, o, env);
    }
  }

  iospd_strbuf_append(
      out,
      "\nExamples\n"
      "  Random 4K reads, 8 outstanding I/Os, 4 threads, no OS cache, with\n"
      "  latency, for 30 seconds on a 10G file created first:\n");
  iospd_strbuf_appendf(out, "    %s -c10G -b4K -r -o8 -t4 -Sh -L -d30 %s\n",
                       prog, windows ? "C:\\test.dat" : "/mnt/test.dat");
  iospd_strbuf_append(
      out, "  Sequential 1M writes on a disk (destroys its data):\n");
  iospd_strbuf_appendf(out, "    %s -b1M -s -w100 -o4 -Sh %s\n", prog,
                       windows ? "#2" : "--allow-raw-write /dev/sdb");
  iospd_strbuf_append(out, "  70% reads / 30% writes, 90% of the I/O on the "
                           "first 10% of the file:\n");
  iospd_strbuf_appendf(out, "    %s -b8K -r -w30 -rdpct90/10 -Sh %s\n", prog,
                       windows ? "C:\\test.dat" : "/mnt/test.dat");
  iospd_strbuf_append(out, "  Print the profile as XML without running:\n");
  iospd_strbuf_appendf(out, "    %s -Rpxml -b4K -r %s\n", prog,
                       windows ? "C:\\test.dat" : "/mnt/test.dat");
  iospd_strbuf_append(out, "  Run an XML profile on two targets (*1, *2):\n");
  iospd_strbuf_appendf(out, "    %s -Xprofile.xml -d60 %s\n", prog,
                       windows ? "C:\\a.dat D:\\b.dat"
                               : "/mnt/a.dat /mnt/b.dat");
}

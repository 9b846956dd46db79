/* SPDX-License-Identifier: MIT */
/* The DISKSPD 2.2 command line: argv -> profile (two passes, as DISKSPD),
 * including -X<file> profiles with overrides, and the usage text. */
#ifndef IOSPD_CMDLINE_H
#define IOSPD_CMDLINE_H

#include "iospd/profile.h"
#include "iospd/strbuf.h"

/* Hooks the parser needs from outside the core (reading the -X file, the
 * clock for a bare -z, platform rules). main.c fills them from the platform;
 * tests fill them with fakes. */
typedef struct iospd_cmdline_env_s {
  bool slash_switches; /* '/' starts a switch (Windows) */
  bool windows;        /* Windows-only switches are fully supported */
  /* Reads a whole file into a new buffer (iospd_malloc); 0 or IOSPD_E*. */
  int (*read_file)(const char* path, char** data, size_t* len,
                   iospd_err_t* err);
  uint64_t (*uptime_ms)(void);
} iospd_cmdline_env_t;

typedef enum iospd_cmdline_action {
  IOSPD_ACTION_RUN = 0,     /* run the profile (or print it with -Rp) */
  IOSPD_ACTION_USAGE,       /* -? : print usage, exit 0 */
  IOSPD_ACTION_USAGE_ERROR, /* no arguments: print usage, exit 3 */
  IOSPD_ACTION_SET_EVENT,   /* -ye<name> */
  IOSPD_ACTION_MERGE,       /* --merge <file.json>...: argv[2..] are the files */
  IOSPD_ACTION_VERSION,     /* --version: print iospd_cmdline_version, exit 0 */
  IOSPD_ACTION_COMPARE,     /* --compare <file.json>...: argv[2..] (iospd_compare_mode) */
  IOSPD_ACTION_PING,        /* --ping[=COUNT] ...: argv[1..] go to
                               iospd_ping_main (iospd/ping.h) */
  IOSPD_ACTION_REPORT,      /* --report <file.json>... --output=html:FILE */
  /* -Rs, -Rstext, -Rsxml (DISKSPD 2.3, alone on the line): print the
   * system information in p->format (text or xml) and exit 0. The profile
   * holds no timespan; p->system_only is true. */
  IOSPD_ACTION_SYSTEM_INFO
} iospd_cmdline_action_t;

/* Parses argv into p (initialised by the caller). On success returns 0 and
 * *action. On bad input returns IOSPD_EUSAGE (or the XML error) with err
 * naming the switch or value and saying what is allowed. Warnings that do not
 * stop the run (e.g. -O without -F) are appended to warnings, one per line. */
int iospd_cmdline_parse(int argc, const char* const* argv,
                        const iospd_cmdline_env_t* env, iospd_profile_t* p,
                        iospd_cmdline_action_t* action, iospd_strbuf_t* warnings,
                        iospd_err_t* err);

/* iospd --version: version, commit, build date, engines and platform, one
 * "name: value" line each after the first ("iospd 0.1.0"). */
struct iospd_plat_build_s;
void iospd_cmdline_version(iospd_strbuf_t* out,
                           const struct iospd_plat_build_s* build);

/* The man page, iospd(1), as roff (man(7) macros), dated date
 * ("2026-12-01"): the same options and words as the usage text on Linux. */
void iospd_cmdline_manpage(iospd_strbuf_t* out, const char* date);

/* The usage text, in our own words, grouped by topic with examples. */
void iospd_cmdline_usage(iospd_strbuf_t* out, const char* argv0,
                         const iospd_cmdline_env_t* env);

#endif

/* SPDX-License-Identifier: MIT */
/* The application: what main.c dispatches to. A sub-command table
 * ({name, argument rule, entry}) holds every mode iospd has, from the normal
 * run to --merge; main.c finds the row (by the first argument for the modes
 * that take their own arguments, by the parsed command line for the rest),
 * calls its entry and exits with what it returns. */
#ifndef IOSPD_APP_H
#define IOSPD_APP_H

#include "iospd/app_print.h"
#include "iospd/cmdline.h"
#include "iospd/output_paths.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

/* What an entry gets. */
typedef struct iospd_app_s {
  int argc;
  const char* const* argv; /* UTF-8, argv[0] the program */
  const iospd_sysinfo_t* sys;
  const iospd_cmdline_env_t* env;
  /* The parsed command line (rows reached through the parse; otherwise as
   * iospd_profile_init left it) and its warnings, kept for the reports. */
  iospd_profile_t* profile;
  iospd_strbuf_t* warned;
} iospd_app_t;

/* What follows a sub-command's name, which also says how main.c finds it. */
typedef enum iospd_app_args {
  /* DISKSPD's switches and targets: found through iospd_cmdline_parse (the
   * run, -?/--help, -ye). */
  IOSPD_APP_ARGS_SWITCHES = 0,
  /* Nothing: "iospd --version" alone (anything after it is a command line
   * to parse, which refuses it). */
  IOSPD_APP_ARGS_NONE,
  /* File names, each read whole (--merge a.json b.json ...). */
  IOSPD_APP_ARGS_FILES,
  /* The results-files grammar "a.json [a.jsonl] ... [--force]" and the
   * mode's own switches (iospd/results_args.h). */
  IOSPD_APP_ARGS_RESULTS_FILES,
  /* The mode's own switches, after "name" or "name=VALUE" (--ping). */
  IOSPD_APP_ARGS_OWN
} iospd_app_args_t;

typedef struct iospd_app_command_s {
  /* What iospd_cmdline_parse answers for the row. */
  iospd_cmdline_action_t action;
  /* As typed; NULL for the run, which has no name. */
  const char* name;
  iospd_app_args_t args;
  /* Runs the mode; returns the exit code (IOSPD_EXIT_*). */
  int (*entry)(const iospd_app_t* app);
} iospd_app_command_t;

/* The row of a mode that takes its own arguments and is named by argv[1]
 * (every rule but IOSPD_APP_ARGS_SWITCHES); NULL when argv names none, and
 * the command line is then DISKSPD's, for iospd_cmdline_parse. */
const iospd_app_command_t* iospd_app_command_named(int argc,
                                                   const char* const* argv);

/* The row for what iospd_cmdline_parse answered (never NULL: an action
 * without a row is the run). */
const iospd_app_command_t* iospd_app_command(iospd_cmdline_action_t action);

/* The table itself, for the tests and the documentation. */
const iospd_app_command_t* iospd_app_commands(size_t* count);

/* Every file a run of p will write, as (the switch as written, path), for
 * the output-path checks: the --output files ("--output=json:r.json") then
 * the --timeseries file. list has room for p->ext.output_count + 1 entries.
 * Returns the count, or -1 on ENOMEM; free each option with iospd_free. */
int iospd_app_output_paths(const iospd_profile_t* p, iospd_out_path_t* list);

/* A whole file: iospd_plat_read_file without a limit, in the shape the -X
 * reader (iospd_cmdline_env_t.read_file) and --compare take. */
int iospd_app_read_whole_file(const char* path, char** data, size_t* len,
                              iospd_err_t* err);

/* --merge: args are the file names; the merged JSON on stdout. */
int iospd_app_merge_files(int nfiles, const char* const* files);

/* --report: args are what follows "--report"; the HTML page written whole
 * to --output=html:FILE. */
int iospd_app_report_files(int nargs, const char* const* args);

#endif

/* SPDX-License-Identifier: MIT */
/* The sub-command table: every mode of iospd as {name, argument rule,
 * entry}, and the entries of the modes too small for a file of their own.
 * A new mode is one row here and its entry (iospd/app.h). */
#include <stdio.h>
#include <string.h>

#include "app_curve.h"
#include "app_internal.h"
#include "iospd/app.h"
#include "iospd/compare.h"
#include "iospd/console.h"
#include "iospd/ping.h"

/* -ye<name>: set an existing event (another iospd waits on it) and exit.
 * DISKSPD exits with 1 even on success, and scripts key on that; the two
 * lines are our own wording. */
static int set_event(const char* name) {
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_plat_event_t* ev = NULL;
  int rc = iospd_plat_event_open(name, false, &ev, &err);
  if (rc == 0) rc = iospd_plat_event_set(ev, &err);
  iospd_plat_event_close(ev);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  if (rc < 0) {
    iospd_strbuf_appendf(&sb, "cannot set the event '%s' (-ye): %s", name,
                         err.msg[0] ? err.msg : iospd_strerror(rc));
    err_line(iospd_strbuf_cstr(&sb));
  } else {
    iospd_strbuf_appendf(&sb,
                         "Set event '%s'.\nExiting without running a test "
                         "(exit code 1, as with -ye in DISKSPD).\n",
                         name);
    out_sb(&sb);
  }
  iospd_strbuf_destroy(&sb);
  return EXIT_RUN_FAILED;
}

static int cmd_set_event(const iospd_app_t* app) {
  return set_event(app->profile->events.set_name);
}

/* -? and --help print the usage and exit 0; no arguments at all print it
 * and exit 3. */
static int usage(const iospd_app_t* app, int exit_code) {
  iospd_strbuf_t usage;
  iospd_strbuf_init(&usage);
  iospd_cmdline_usage(&usage, app->argv[0], app->env);
  out_sb(&usage);
  iospd_strbuf_destroy(&usage);
  return exit_code;
}

static int cmd_usage(const iospd_app_t* app) { return usage(app, EXIT_OK); }

static int cmd_usage_error(const iospd_app_t* app) {
  return usage(app, EXIT_BAD_INPUT);
}

static int cmd_version(const iospd_app_t* app) {
  (void)app;
  iospd_plat_build_t build;
  iospd_plat_build(&build);
  iospd_strbuf_t text;
  iospd_strbuf_init(&text);
  iospd_cmdline_version(&text, &build);
  out_sb(&text);
  iospd_strbuf_destroy(&text);
  return EXIT_OK;
}

static int cmd_system_info(const iospd_app_t* app) {
  return iospd_app_system_info(app->profile, app->sys);
}

static int cmd_merge(const iospd_app_t* app) {
  return iospd_app_merge_files(app->argc - 2, app->argv + 2);
}

static int cmd_report(const iospd_app_t* app) {
  return iospd_app_report_files(app->argc - 2, app->argv + 2);
}

static int cmd_compare(const iospd_app_t* app) {
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  int rc = iospd_compare_mode(app->argc - 2, app->argv + 2,
                              iospd_app_read_whole_file, &out, &err);
  if (rc < 0) err_line(err.msg[0] ? err.msg : iospd_strerror(rc));
  else out_sb(&out);
  iospd_strbuf_destroy(&out);
  return rc == 0 ? EXIT_OK : rc == IOSPD_EUSAGE ? EXIT_BAD_INPUT
                                                : EXIT_RUN_FAILED;
}

static int cmd_ping(const iospd_app_t* app) {
  static const iospd_ping_print_t pr = {iospd_plat_write_out,
                                        iospd_plat_write_err};
  return iospd_ping_main(app->argc, app->argv, app->env->windows,
                         app->sys->ticks_per_second, &pr);
}

/* The run: the profile validated, then printed (-Rp), checked
 * (--verify-only) or run (a file tree with --tree). */
static int cmd_run(const iospd_app_t* app) {
  iospd_profile_t* p = app->profile;
  iospd_strbuf_t diag;
  iospd_strbuf_init(&diag);
  int rc = iospd_profile_validate(p, &diag);
  err_sb(&diag);
  iospd_strbuf_append(app->warned, iospd_strbuf_cstr(&diag));
  iospd_strbuf_destroy(&diag);
  if (rc < 0) return EXIT_BAD_INPUT;
  if (iospd_app_curve_wanted(p)) { /* --curve (docs/curve.md) */
    cmdline_args_t args = {app->argc, app->argv};
    return iospd_app_curve(p, app->sys, &args, iospd_strbuf_cstr(app->warned));
  }
  int exit_code;
  if (p->profile_only) {
    if (p->ext.output_count > 0)
      iospd_app_message(p, IOSPD_MSG_WARNING,
                        "-Rp prints the profile and runs nothing, so the "
                        "--output files are not written");
    exit_code = iospd_app_print_profile(p, app->sys);
  } else if (p->ext.verify_only) {
    if ((exit_code = iospd_app_check_output_paths(p, false)) == EXIT_OK)
      exit_code = iospd_app_verify_only(p, app->sys);
  } else if ((exit_code = iospd_app_check_output_paths(p, true)) == EXIT_OK) {
    cmdline_args_t args = {app->argc, app->argv};
    const char* warned = iospd_strbuf_cstr(app->warned);
    exit_code = iospd_app_run_profile(p, app->sys, &args, warned);
  }
  return exit_code;
}

static const iospd_app_command_t commands[] = {
    {IOSPD_ACTION_RUN, NULL, IOSPD_APP_ARGS_SWITCHES, cmd_run},
    {IOSPD_ACTION_USAGE, "--help", IOSPD_APP_ARGS_SWITCHES, cmd_usage},
    {IOSPD_ACTION_USAGE_ERROR, NULL, IOSPD_APP_ARGS_SWITCHES,
     cmd_usage_error},
    {IOSPD_ACTION_SET_EVENT, "-ye", IOSPD_APP_ARGS_SWITCHES, cmd_set_event},
    {IOSPD_ACTION_MERGE, "--merge", IOSPD_APP_ARGS_FILES, cmd_merge},
    {IOSPD_ACTION_COMPARE, "--compare", IOSPD_APP_ARGS_RESULTS_FILES,
     cmd_compare},
    {IOSPD_ACTION_REPORT, "--report", IOSPD_APP_ARGS_RESULTS_FILES,
     cmd_report},
    {IOSPD_ACTION_PING, "--ping", IOSPD_APP_ARGS_OWN, cmd_ping},
    {IOSPD_ACTION_VERSION, "--version", IOSPD_APP_ARGS_NONE, cmd_version},
    {IOSPD_ACTION_SYSTEM_INFO, NULL, IOSPD_APP_ARGS_SWITCHES,
     cmd_system_info},
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

const iospd_app_command_t* iospd_app_commands(size_t* count) {
  *count = COMMAND_COUNT;
  return commands;
}

/* Does a, the first argument, name c by c's argument rule? */
static bool names(const iospd_app_command_t* c, int argc, const char* a) {
  size_t n = strlen(c->name);
  switch (c->args) {
    case IOSPD_APP_ARGS_NONE: return argc == 2 && strcmp(a, c->name) == 0;
    case IOSPD_APP_ARGS_FILES:
    case IOSPD_APP_ARGS_RESULTS_FILES: return strcmp(a, c->name) == 0;
    case IOSPD_APP_ARGS_OWN:
      return strncmp(a, c->name, n) == 0 && (a[n] == '\0' || a[n] == '=');
    default: return false; /* switches: the parse finds them */
  }
}

const iospd_app_command_t* iospd_app_command_named(int argc,
                                                   const char* const* argv) {
  if (argc < 2 || argv[1] == NULL) return NULL;
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    if (commands[i].name != NULL && names(&commands[i], argc, argv[1]))
      return &commands[i];
  return NULL;
}

const iospd_app_command_t* iospd_app_command(iospd_cmdline_action_t action) {
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    if (commands[i].action == action) return &commands[i];
  return &commands[0];
}

int iospd_app_read_whole_file(const char* path, char** data, size_t* len,
                              iospd_err_t* err) {
  return iospd_plat_read_file(path, SIZE_MAX, data, len, err);
}

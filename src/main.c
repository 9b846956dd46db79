/* SPDX-License-Identifier: MIT */
/* iospd entry point: the command line read, the mode found in the
 * sub-command table (iospd/app.h), its entry called, the exit code:
 *   0 success (also after Ctrl-C), 1 run failure, 3 bad input (DISKSPD's).
 * Everything a mode does lives in the tested core (src/app and below). */
#include <string.h>

#include "iospd/app.h"
#include "iospd/app_print.h"
#include "iospd/cmdline.h"
#include "iospd/console.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

int main(int argc, char** argv) {
  iospd_plat_console_init();
  int uargc = 0;
  const char* const* uargv = NULL;
  if (iospd_plat_utf8_args(argc, argv, &uargc, &uargv) < 0) {
    iospd_app_err_line(IOSPD_MSG_ERROR, "out of memory reading the command line");
    return IOSPD_EXIT_RUN_FAILED;
  }

  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_sysinfo_t sys;
  if (iospd_plat_init(&sys, &err) < 0) {
    iospd_app_err_line(IOSPD_MSG_ERROR, err.msg);
    return IOSPD_EXIT_RUN_FAILED;
  }
  /* The first Ctrl-C stops the I/O; the second must not lose what was
   * measured (only a third, or a kill, abandons it). */
  iospd_plat_set_interrupt_notice(
      "\n*** Ctrl-C again: the results measured so far are being written; "
      "a third Ctrl-C abandons them. ***\n");
  bool windows = strcmp(sys.os_name, "windows") == 0;
  iospd_cmdline_env_t env = {
      .slash_switches = windows,
      .windows = windows,
      .read_file = iospd_app_read_whole_file,
      .uptime_ms = iospd_plat_uptime_ms,
  };

  iospd_profile_t profile;
  iospd_profile_init(&profile);
  /* Warnings of the command line (and of the validation), for the
   * reports. */
  iospd_strbuf_t warned;
  iospd_strbuf_init(&warned);
  iospd_app_t app = {uargc, uargv, &sys, &env, &profile, &warned};
  int exit_code = IOSPD_EXIT_OK;

  /* A mode with arguments of its own (--merge, --ping, ...) is named by
   * the first argument; anything else is DISKSPD's command line. */
  const iospd_app_command_t* cmd = iospd_app_command_named(uargc, uargv);
  if (cmd == NULL) {
    iospd_cmdline_action_t action = IOSPD_ACTION_RUN;
    int rc = iospd_cmdline_parse(uargc, uargv, &env, &profile, &action,
                                 &warned, &err);
    iospd_app_err_sb(&warned);
    if (rc < 0) {
      iospd_app_err_line(IOSPD_MSG_ERROR, err.msg[0] ? err.msg : iospd_strerror(rc));
      iospd_app_err_line(IOSPD_MSG_HINT, "Run 'iospd -?' for the list of switches.");
      exit_code = IOSPD_EXIT_BAD_INPUT;
    } else {
      cmd = iospd_app_command(action);
    }
  }
  if (cmd != NULL) exit_code = cmd->entry(&app);

  /* Results that did not reach their file or pipe are a failed run, not a
   * success with a truncated report. */
  if (iospd_plat_close_out(&err) < 0) {
    iospd_app_err_line(IOSPD_MSG_ERROR, err.msg);
    iospd_app_err_line(IOSPD_MSG_HINT, "What iospd printed on standard output is "
                           "incomplete.");
    if (exit_code == IOSPD_EXIT_OK) exit_code = IOSPD_EXIT_RUN_FAILED;
  }
  iospd_strbuf_destroy(&warned);
  iospd_profile_destroy(&profile);
  iospd_plat_shutdown();
  return exit_code;
}

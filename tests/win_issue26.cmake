# SPDX-License-Identifier: MIT
# Windows second pass (issue #26), under wine: completion-port bookkeeping,
# teardown on a failing port, whole system messages; raw-write decisions;
# interruptible set-up ioctls; the -c stale-copy sweep on shared folders.
if(WIN32)
  iospd_add_test(test_win_completion SOURCES test_win_completion.c TIMEOUT 120)
  iospd_add_test(test_win_rawwrite SOURCES test_win_rawwrite.c TIMEOUT 120)
  iospd_add_test(test_win_hang SOURCES test_win_hang.c TIMEOUT 60)
  iospd_add_test(test_win_sweep SOURCES test_win_sweep.c TIMEOUT 60)
endif()

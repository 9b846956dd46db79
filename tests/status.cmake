# SPDX-License-Identifier: MIT
# The live status line (--progress, issue #13): the formatter and the
# tracker (pure core code; natively and under wine).
iospd_add_test(test_status SOURCES test_status.c)
# The line's own thread: posting never waits for a blocked console.
iospd_add_test(test_status_drawer SOURCES test_status_drawer.c)
# The run's clock for it (iospd_run_hooks_t.tick) on the fake platform.
iospd_add_test(test_run_tick SOURCES test_run_tick.c FAKE_PLATFORM)
# iospd itself: on a pty from script(1) the line appears and is erased
# before the report and around -v lines; through a pipe auto shows nothing
# and always writes it to stderr only; stdout is the same either way
# (tests/e2e/status_test.sh). Under wine: stderr redirected to a file is
# not a terminal for auto, and always writes the line to stderr only.
find_program(IOSPD_BASH bash)
find_program(IOSPD_PYTHON3 python3)
if(IOSPD_BASH AND IOSPD_PYTHON3 AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_status COMMAND ${IOSPD_BASH} ${PROJECT_SOURCE_DIR}/tests/e2e/status_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_status PROPERTIES TIMEOUT 180)
  # A stderr that blocks its writer (a full pipe nobody reads, as a console
  # selection or Ctrl-S does) stalls only the line's thread, not the run.
  add_test(NAME e2e_status_stall COMMAND ${IOSPD_PYTHON3}
           ${PROJECT_SOURCE_DIR}/tests/e2e/status_stall_test.py $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_status_stall PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
elseif(IOSPD_BASH AND IOSPD_PYTHON3 AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_status_wine COMMAND ${IOSPD_BASH} ${PROJECT_SOURCE_DIR}/tests/e2e/status_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_status_wine PROPERTIES TIMEOUT 300 ENVIRONMENT "${iospd_test_env}")
endif()
iospd_add_test(test_run_many SOURCES test_run_many.c FAKE_PLATFORM)

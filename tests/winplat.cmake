# SPDX-License-Identifier: MIT
# Tests of the Windows platform layer (src/win), run under wine: paths,
# IOCP and completion-routine round trips, topology, CPU times, threads.
if(WIN32)
  iospd_add_test(test_plat_win SOURCES test_plat_win.c TIMEOUT 120)
endif()
if(WIN32)
  iospd_add_test(test_win_paths SOURCES test_win_paths.c TIMEOUT 120)
endif()
# Console output needs a console: wine gives one only to a process on a
# terminal, so the test runs under script(1) (util-linux) when it can.
if(WIN32)
  iospd_add_test(test_win_console SOURCES test_win_console.c TIMEOUT 60)
  find_program(IOSPD_SCRIPT script)
  if(CMAKE_CROSSCOMPILING_EMULATOR AND IOSPD_SCRIPT)
    add_test(NAME test_win_console_tty COMMAND ${IOSPD_SCRIPT} -qec
             "${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:test_win_console>"
             /dev/null)
    set_tests_properties(test_win_console_tty PROPERTIES TIMEOUT 60
      SKIP_RETURN_CODE 77 ENVIRONMENT "${iospd_test_env}")
  endif()
endif()

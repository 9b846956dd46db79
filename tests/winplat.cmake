# SPDX-License-Identifier: MIT
# Tests of the Windows platform layer (src/win), run under wine: paths,
# IOCP and completion-routine round trips, topology, CPU times, threads.
if(WIN32)
  iospd_add_test(test_plat_win SOURCES test_plat_win.c TIMEOUT 120)
  # File or device, the write guard failing closed, -c creation.
  iospd_add_test(test_plat_win_safety SOURCES test_plat_win_safety.c TIMEOUT 120)
  # iospd.exe -c under strace: size, pattern, the NOTE, and the fill's flush.
  find_program(IOSPD_BASH bash)
  if(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
    add_test(NAME e2e_win_create_wine COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/e2e/win_create_test.sh $<TARGET_FILE:iospd>)
    set_tests_properties(e2e_win_create_wine PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                         ENVIRONMENT "${iospd_test_env}")
    # -c over an existing file on a 16 MiB volume (a tmpfs given to wine
    # as a drive letter): side copy, in place, refused with nothing touched.
    add_test(NAME e2e_win_create_space_wine COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/e2e/win_create_space_test.sh $<TARGET_FILE:iospd>)
    set_tests_properties(e2e_win_create_space_wine PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                         ENVIRONMENT "${iospd_test_env}" RUN_SERIAL TRUE)
  endif()
endif()
if(WIN32)
  iospd_add_test(test_plat_win_run SOURCES test_plat_win_run.c TIMEOUT 120)
endif()
# iospd.exe under wine: -l without the privilege, -I, -g and -j runs.
find_program(IOSPD_BASH bash)
if(WIN32 AND IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_win_run_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/win_run_test.sh $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_win_run_wine PROPERTIES TIMEOUT 120 ENVIRONMENT "${iospd_test_env}")
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
# iospd.exe itself under wine: PE flags, manifest, long and two-case names,
# Win32 error numbers, -t1000 on x86 (tests/e2e/win_names_test.sh).
if(WIN32 AND CMAKE_CROSSCOMPILING_EMULATOR AND IOSPD_BASH AND CMAKE_OBJDUMP)
  add_test(NAME e2e_win_names COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/win_names_test.sh
           $<TARGET_FILE:iospd> ${CMAKE_OBJDUMP})
  set_tests_properties(e2e_win_names PROPERTIES TIMEOUT 300
    ENVIRONMENT "${iospd_test_env}")
endif()
# -c over a symbolic link (a replaced probe: wine makes no links): the
# link's target is replaced, never the link (issue #26).
if(WIN32)
  iospd_add_test(test_win_create_link SOURCES test_win_create_link.c TIMEOUT 60)
endif()
# The 32-bit iospd on a group of more than 32 processors: refused, as a
# table of the decision (issue #26).
if(WIN32)
  iospd_add_test(test_win_wow64 SOURCES test_win_wow64.c TIMEOUT 60)
endif()

# SPDX-License-Identifier: MIT
# Tests of the Windows platform layer (src/win), run under wine: paths,
# IOCP and completion-routine round trips, topology, CPU times, threads.
if(WIN32)
  iospd_add_test(test_plat_win SOURCES test_plat_win.c TIMEOUT 120)
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

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
  endif()
endif()

# SPDX-License-Identifier: MIT
# Memory-mapped I/O (-Sm, -N) and named events (-y). test_plat_mmap is
# portable (platform.h only) and runs natively and under wine;
# test_run_events drives the controller's -yr/-ys/-yf/-yp handling on the
# fake platform's virtual clock; mm_events_test.sh runs the iospd binary
# (natively, or iospd.exe under wine).
iospd_add_test(test_plat_mmap SOURCES test_plat_mmap.c TIMEOUT 120)
iospd_add_test(test_run_events SOURCES test_run_events.c FAKE_PLATFORM
               TIMEOUT 120)
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_mm_events COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/mm_events_test.sh
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_mm_events PROPERTIES TIMEOUT 300)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_mm_events_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/mm_events_test.sh
           $<TARGET_FILE:iospd> --wine)
  set_tests_properties(e2e_mm_events_wine PROPERTIES TIMEOUT 300
                       ENVIRONMENT "${iospd_test_env}")
endif()

# SPDX-License-Identifier: MIT
# Memory-mapped I/O (-Sm, -N) and named events (-y). test_plat_mmap is
# portable (platform.h only) and runs natively and under wine;
# test_run_events drives the controller's -yr/-ys/-yf/-yp handling on the
# fake platform's virtual clock; mm_events_test.sh runs the iospd binary
# (natively, or iospd.exe under wine); event_lifetime_test.sh checks on
# Linux that no event state outlives the processes that hold it.
iospd_add_test(test_plat_mmap SOURCES test_plat_mmap.c TIMEOUT 120)
iospd_add_test(test_run_events SOURCES test_run_events.c FAKE_PLATFORM
               TIMEOUT 120)
# Linux: events across processes (a killed holder, a live setter); it
# includes src/posix/internal.h, so it needs the platform's defines.
if(NOT WIN32)
  iospd_add_test(test_plat_event_posix SOURCES test_plat_event_posix.c
                 TIMEOUT 60)
  target_compile_definitions(test_plat_event_posix PRIVATE _GNU_SOURCE
    _FILE_OFFSET_BITS=64)
  set_tests_properties(test_plat_event_posix PROPERTIES SKIP_RETURN_CODE 77)
endif()
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_mm_events COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/mm_events_test.sh
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_mm_events PROPERTIES TIMEOUT 300)
  # Linux only: kill -9 and /dev/shm.
  add_test(NAME e2e_event_lifetime COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/event_lifetime_test.sh
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_event_lifetime PROPERTIES TIMEOUT 300
                       SKIP_RETURN_CODE 77)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_mm_events_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/mm_events_test.sh
           $<TARGET_FILE:iospd> --wine)
  set_tests_properties(e2e_mm_events_wine PROPERTIES TIMEOUT 300
                       ENVIRONMENT "${iospd_test_env}")
endif()
# A CPU snapshot that fails: the usage is reported unknown with a
# cpu_unknown warning, never as 0 % busy (issue #26).
iospd_add_test(test_run_cpu SOURCES test_run_cpu.c FAKE_PLATFORM)
# Cached I/O to a device that takes whole sectors only (Windows): refused
# before any thread starts, naming the switch (issue #26).
iospd_add_test(test_run_device_align SOURCES test_run_device_align.c
               FAKE_PLATFORM)
iospd_add_test(test_cost SOURCES test_cost.c FAKE_PLATFORM)

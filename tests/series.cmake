# SPDX-License-Identifier: MIT
# The per-interval producer (hooks->interval) against the fake platform.
iospd_add_test(test_series SOURCES test_series.c FAKE_PLATFORM)
iospd_add_test(test_series_out SOURCES test_series_out.c)

# --timeseries end to end (tests/e2e/timeseries_test.sh): bad extensions,
# a real run checked against its own -Rxml report, SIGKILL (native).
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_timeseries COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/timeseries_test.sh $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_timeseries PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_timeseries_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/timeseries_test.sh $<TARGET_FILE:iospd> --wine)
  set_tests_properties(e2e_timeseries_wine PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${iospd_test_env}")
endif()

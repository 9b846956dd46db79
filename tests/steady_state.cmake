# SPDX-License-Identifier: MIT
# The PTS steady-state test (src/stats/steady_state.c), issue #28. CMocka,
# also under wine.
iospd_add_test(test_steady_state SOURCES test_steady_state.c)
# --steady-state on ordinary runs (tests/e2e/steady_state_test.sh): the
# rounds against the time series, the stop, text, XML and JSON.
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_steady_state COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/steady_state_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_steady_state PROPERTIES TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endif()

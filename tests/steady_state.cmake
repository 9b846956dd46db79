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
# --pts on the fake platform (tests/test_pts.c): WIPC's writes counted, the
# rounds of a reduced matrix, the 25-round cap, the refusals.
iospd_add_test(test_pts SOURCES test_pts.c FAKE_PLATFORM)
# --pts with the binary (tests/e2e/pts_test.sh): a file and (as root) a
# loop device; WIPC counted, the rounds, the window arithmetic, schema.
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_pts COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/pts_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_pts PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
endif()

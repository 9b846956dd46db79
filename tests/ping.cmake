# SPDX-License-Identifier: MIT
# iospd --ping: units, lines, marks, the summary's arithmetic, --batch,
# the JSON/XML documents and the mode's command line (CMocka, also under
# wine), and the probe end to end with the binary (natively, and the .exe
# under wine).
iospd_add_test(test_ping SOURCES test_ping.c)

find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_ping COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/ping_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_ping PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77)
  # The free-space check before the temporary file, SIGHUP (issue #30).
  add_test(NAME e2e_ping_safety COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/ping_safety_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_ping_safety PROPERTIES TIMEOUT 120)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_ping_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/ping_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_ping_wine PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${iospd_test_env}")
  # The free-space check (GetDiskFreeSpaceExW); SIGHUP is native only.
  add_test(NAME e2e_ping_safety_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/ping_safety_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_ping_safety_wine PROPERTIES TIMEOUT 180
                       ENVIRONMENT "${iospd_test_env}")
endif()

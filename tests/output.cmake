# SPDX-License-Identifier: MIT
# Output that is always well-formed and never claims a success it did not
# have: the XML escaper (unit test), and end to end (tests/e2e/output_test.sh)
# write errors on stdout, notices kept off an XML stdout, odd target names.
iospd_add_test(test_xml_escape SOURCES test_xml_escape.c)

find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_output COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/output_test.sh $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_output PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77)
  # Report files never land where nobody asked (links, /dev/stdout, a
  # state file or output that is the target or the -X profile).
  add_test(NAME e2e_output_safety COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/output_safety_test.sh $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_output_safety PROPERTIES TIMEOUT 120)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_output_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/output_test.sh $<TARGET_FILE:iospd> --wine)
  set_tests_properties(e2e_output_wine PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${iospd_test_env}")
endif()

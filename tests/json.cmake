# SPDX-License-Identifier: MIT
# JSON results (-Rjson, --output) and report-file safety:
#  - test_hist_sparse / test_json_write (tests/report.cmake): the sparse
#    histogram and the string/number writer;
#  - json_report_schema: the kitchen-sink report fixture as JSON validates
#    against schema/iospd-results.schema.json and equals its XML, number by
#    number (the Windows build's test_report.exe under wine, validated
#    natively);
#  - e2e_json: real runs (-Rjson, --output=FORMAT:FILE) validated and
#    compared with the XML of the same run, and every output-path check
#    (tests/e2e/json_test.sh), natively and under wine.
find_program(IOSPD_BASH bash)
find_program(IOSPD_PYTHON3 python3)
if(IOSPD_BASH AND IOSPD_PYTHON3)
  if(NOT CMAKE_CROSSCOMPILING)
    add_test(NAME json_report_schema COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/json/report_dump_check.sh
             ${PROJECT_SOURCE_DIR} $<TARGET_FILE:test_report>)
    set_tests_properties(json_report_schema PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
    add_test(NAME e2e_json COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/e2e/json_test.sh ${PROJECT_SOURCE_DIR}
             $<TARGET_FILE:iospd>)
    set_tests_properties(e2e_json PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
  elseif(CMAKE_CROSSCOMPILING_EMULATOR)
    add_test(NAME json_report_schema_wine COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/json/report_dump_check.sh
             ${PROJECT_SOURCE_DIR} $<TARGET_FILE:test_report>
             ${CMAKE_CROSSCOMPILING_EMULATOR})
    set_tests_properties(json_report_schema_wine PROPERTIES TIMEOUT 180
                         SKIP_RETURN_CODE 77 ENVIRONMENT "${iospd_test_env}")
    add_test(NAME e2e_json_wine COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/e2e/json_test.sh ${PROJECT_SOURCE_DIR}
             $<TARGET_FILE:iospd> --wine)
    set_tests_properties(e2e_json_wine PROPERTIES TIMEOUT 400 SKIP_RETURN_CODE 77
                         ENVIRONMENT "${iospd_test_env}")
  endif()
endif()

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
# Report files through the real platform (probe, whole write, same file),
# natively and under wine.
iospd_add_test(test_outfile SOURCES test_outfile.c)

find_program(IOSPD_BASH bash)
# The validator is Debian's python3-jsonschema: prefer the system python3
# (/usr/bin) when it has the module, else the first python3 on PATH.
find_program(IOSPD_PYTHON3 python3)
if(EXISTS /usr/bin/python3)
  execute_process(COMMAND /usr/bin/python3 -c "import jsonschema"
                  RESULT_VARIABLE iospd_sys_jsonschema OUTPUT_QUIET ERROR_QUIET)
  if(iospd_sys_jsonschema EQUAL 0)
    set(IOSPD_PYTHON3 /usr/bin/python3)
  endif()
endif()
if(IOSPD_BASH AND IOSPD_PYTHON3)
  if(NOT CMAKE_CROSSCOMPILING)
    add_test(NAME json_report_schema COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/json/report_dump_check.sh
             ${PROJECT_SOURCE_DIR} $<TARGET_FILE:test_report>)
    set_tests_properties(json_report_schema PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77
                         ENVIRONMENT "IOSPD_PYTHON=${IOSPD_PYTHON3}")
    add_test(NAME e2e_json COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/e2e/json_test.sh ${PROJECT_SOURCE_DIR}
             $<TARGET_FILE:iospd>)
    set_tests_properties(e2e_json PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                         ENVIRONMENT "IOSPD_PYTHON=${IOSPD_PYTHON3}")
  elseif(CMAKE_CROSSCOMPILING_EMULATOR)
    add_test(NAME json_report_schema_wine COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/json/report_dump_check.sh
             ${PROJECT_SOURCE_DIR} $<TARGET_FILE:test_report>
             ${CMAKE_CROSSCOMPILING_EMULATOR})
    set_tests_properties(json_report_schema_wine PROPERTIES TIMEOUT 180
                         SKIP_RETURN_CODE 77
                         ENVIRONMENT "${iospd_test_env};IOSPD_PYTHON=${IOSPD_PYTHON3}")
    add_test(NAME e2e_json_wine COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/e2e/json_test.sh ${PROJECT_SOURCE_DIR}
             $<TARGET_FILE:iospd> --wine)
    set_tests_properties(e2e_json_wine PROPERTIES TIMEOUT 400 SKIP_RETURN_CODE 77
                         ENVIRONMENT "${iospd_test_env};IOSPD_PYTHON=${IOSPD_PYTHON3}")
  endif()
endif()

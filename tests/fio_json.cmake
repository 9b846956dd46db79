# SPDX-License-Identifier: MIT
# fio's JSON (--output=fio-json:FILE, -Rfio-json): field by field against
# Debian's fio on the same throttled workload, and checked against
# schema/iospd-fio-json.schema.json (tests/e2e/fio_json_test.py; skipped,
# saying why, without fio or python3-jsonschema).
find_program(IOSPD_PYTHON3 python3)
if(EXISTS /usr/bin/python3)
  set(IOSPD_FIO_PYTHON /usr/bin/python3)
else()
  set(IOSPD_FIO_PYTHON ${IOSPD_PYTHON3})
endif()
if(IOSPD_FIO_PYTHON AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_fio_json COMMAND ${IOSPD_FIO_PYTHON}
           ${PROJECT_SOURCE_DIR}/tests/e2e/fio_json_test.py $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR}/schema/iospd-fio-json.schema.json)
  set_tests_properties(e2e_fio_json PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()

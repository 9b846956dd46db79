# SPDX-License-Identifier: MIT
# The man page (target iospd_man, <build>/iospd.1) against -?, its roff
# rendered without warnings, its examples parsed (tests/e2e/man_test.py).
# Native Linux builds only, where the page is made.
if(TARGET iospd_man)
  find_program(IOSPD_PYTHON3 python3)
  if(IOSPD_PYTHON3)
    add_test(NAME man_page COMMAND ${IOSPD_PYTHON3}
             ${PROJECT_SOURCE_DIR}/tests/e2e/man_test.py $<TARGET_FILE:iospd>
             ${iospd_man_page})
    set_tests_properties(man_page PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
  else()
    message(STATUS "iospd: python3 not found; man_page test not added")
  endif()
endif()
# The roff escaping the man page is written with (every build).
iospd_add_test(test_roff SOURCES test_roff.c FAKE_PLATFORM)

# SPDX-License-Identifier: MIT
# The layout of real iospd --diskspd=2.3 runs (text and -Rxml) against real
# DISKSPD 2.3 output (tests/data/diskspd23), natively and under wine
# (tests/e2e/layout23_test.py; exit 77 while --diskspd is not parsed).
find_program(IOSPD_PYTHON3 python3)
if(IOSPD_PYTHON3)
  if(NOT CMAKE_CROSSCOMPILING)
    add_test(NAME e2e_layout23 COMMAND ${IOSPD_PYTHON3}
             ${PROJECT_SOURCE_DIR}/tests/e2e/layout23_test.py
             ${PROJECT_SOURCE_DIR} $<TARGET_FILE:iospd>)
    set_tests_properties(e2e_layout23 PROPERTIES TIMEOUT 300
                         SKIP_RETURN_CODE 77)
  elseif(CMAKE_CROSSCOMPILING_EMULATOR)
    add_test(NAME e2e_layout23_wine COMMAND ${IOSPD_PYTHON3}
             ${PROJECT_SOURCE_DIR}/tests/e2e/layout23_test.py
             ${PROJECT_SOURCE_DIR} $<TARGET_FILE:iospd> --wine)
    set_tests_properties(e2e_layout23_wine PROPERTIES TIMEOUT 400
                         SKIP_RETURN_CODE 77
                         ENVIRONMENT "${iospd_test_env}")
  endif()
endif()

# SPDX-License-Identifier: MIT
# Differential test of `iospd -Rpxml` against an independent Python model of
# DISKSPD 2.2's command line -> profile XML (tests/e2e/profile_diff_test.py).
if(NOT CMAKE_CROSSCOMPILING)
  find_program(IOSPD_PYTHON3 python3)
  if(IOSPD_PYTHON3)
    add_test(NAME diskspd_profile_diff
             COMMAND ${IOSPD_PYTHON3} ${PROJECT_SOURCE_DIR}/tests/e2e/profile_diff_test.py
                     $<TARGET_FILE:iospd>)
    set_tests_properties(diskspd_profile_diff PROPERTIES TIMEOUT 300)
  endif()
endif()

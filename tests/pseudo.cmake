# SPDX-License-Identifier: MIT
# Targets on /proc, /sys and the other kernel pseudo file systems refused
# with exit 3 (issue #30; Linux only: Windows has no such files).
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_pseudo_target COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/pseudo_target_test.sh
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_pseudo_target PROPERTIES TIMEOUT 120)
endif()

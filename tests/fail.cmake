# SPDX-License-Identifier: MIT
# Runs that fail (tests/e2e/fail_test.sh): a target truncated under the run
# (buffered, -Su, -Sm), and the real error in -Rxml's <Error> for a missing
# device, ENOSPC and a full loop device (root only; skipped otherwise).
# Under wine: the truncation cases with iospd.exe.
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_fail COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/fail_test.sh $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_fail PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_fail_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/fail_test.sh $<TARGET_FILE:iospd>
           --wine)
  set_tests_properties(e2e_fail_wine PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${iospd_test_env}")
endif()

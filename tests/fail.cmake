# SPDX-License-Identifier: MIT
# Runs that fail (tests/e2e/fail_test.sh): a target truncated under the run
# (buffered, -Su, -Sm), and the real error in -Rxml's <Error> for a missing
# device, ENOSPC and a full loop device (root only; skipped otherwise).
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_fail COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/fail_test.sh $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_fail PROPERTIES TIMEOUT 180 SKIP_RETURN_CODE 77)
endif()

# The raw-device write guard end to end on a loop device (Linux, root and
# losetup; the script skips with 77 and says why otherwise).
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_raw_guard_loop COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/raw_guard_loop.sh
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_raw_guard_loop PROPERTIES TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endif()

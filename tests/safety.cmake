# The raw-device write guard end to end on a loop device (Linux, root and
# losetup; the script skips with 77 and says why otherwise).
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_raw_guard_loop COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/raw_guard_loop.sh
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_raw_guard_loop PROPERTIES TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endif()

# -c under full disks, EFBIG, Ctrl-C, SIGTERM and kill -9, SIGTERM during a
# run, and the warning for sparse or fallocated files (issue #10). The
# full-disk parts mount a small tmpfs and an ext4 image: as root only; the
# script prints why it skips them otherwise and runs the rest.
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_create_safety COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/create_safety_test.sh
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_create_safety PROPERTIES TIMEOUT 180)
endif()

# SPDX-License-Identifier: MIT
# iospd --merge: exactness against one histogram of all samples, merging a
# merged file again, profile refusals (CMocka, also under wine).
iospd_add_test(test_merge SOURCES test_merge.c)

# End to end with real runs (tests/e2e/merge_test.sh, checked by
# merge_check.py and the JSON Schema), and the committed runs in
# tests/data/merge merged to the committed bytes: natively and with
# iospd.exe under wine, so both builds print the same merged document.
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_merge COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/merge_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_merge PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_merge_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/merge_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_merge_wine PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${iospd_test_env}")
endif()

# SPDX-License-Identifier: MIT
# The shared loader of saved results (--merge, --compare, --report) and
# iospd --compare: CMocka (also under wine) and end to end.
iospd_add_test(test_results_doc SOURCES test_results_doc.c)
iospd_add_test(test_compare SOURCES test_compare.c)

# End to end (tests/e2e/compare_test.sh): the committed runs in
# tests/data/compare compared to the committed tables, natively and with
# iospd.exe under wine (both builds print the same table); real runs,
# a run against itself, another profile with and without --force, bad files.
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_compare COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/compare_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_compare PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_compare_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/compare_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_compare_wine PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${iospd_test_env}")
endif()
iospd_add_test(test_compare_level SOURCES test_compare_level.c)

# End-to-end tests of the iospd binary (tests/e2e/cli_test.sh): exit codes,
# messages, profile output against DISKSPD samples, round trips, real runs;
# DISKSPD's WARNING lines and their places (tests/e2e/warnings_test.sh).
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_cli COMMAND ${IOSPD_BASH} ${PROJECT_SOURCE_DIR}/tests/e2e/cli_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR} --run)
  set_tests_properties(e2e_cli PROPERTIES TIMEOUT 300)
  add_test(NAME e2e_warnings COMMAND ${IOSPD_BASH} ${PROJECT_SOURCE_DIR}/tests/e2e/warnings_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_warnings PROPERTIES TIMEOUT 120)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_cli_wine COMMAND ${IOSPD_BASH} ${PROJECT_SOURCE_DIR}/tests/e2e/cli_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR} --wine --run)
  set_tests_properties(e2e_cli_wine PROPERTIES TIMEOUT 300 ENVIRONMENT "${iospd_test_env}")
  add_test(NAME e2e_warnings_wine COMMAND ${IOSPD_BASH} ${PROJECT_SOURCE_DIR}/tests/e2e/warnings_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_warnings_wine PROPERTIES TIMEOUT 300 ENVIRONMENT "${iospd_test_env}")
endif()
if(WIN32 AND IOSPD_BASH)
  add_test(NAME exe_imports_system_dlls_only COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/scripts/check-imports.sh $<TARGET_FILE:iospd>)
endif()
# The example profiles run exactly as their comments say (xml/examples).
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_examples COMMAND ${IOSPD_BASH} ${PROJECT_SOURCE_DIR}/tests/e2e/examples_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR})
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_examples_wine COMMAND ${IOSPD_BASH} ${PROJECT_SOURCE_DIR}/tests/e2e/examples_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_examples_wine PROPERTIES TIMEOUT 120 ENVIRONMENT "${iospd_test_env}")
endif()
# DISKSPD 2.3's real -Rpxml / -Rptext samples (tests/data/diskspd23-profiles)
# against iospd --diskspd=2.3, natively and under wine (issue #25).
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_profiles23 COMMAND ${IOSPD_BASH} ${PROJECT_SOURCE_DIR}/tests/e2e/profiles23_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_profiles23 PROPERTIES TIMEOUT 120)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_profiles23_wine COMMAND ${IOSPD_BASH} ${PROJECT_SOURCE_DIR}/tests/e2e/profiles23_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_profiles23_wine PROPERTIES TIMEOUT 600 ENVIRONMENT "${iospd_test_env}")
endif()

# Warnings about misleading set-ups (iospd/warnings.h, docs/warnings.md):
# the rules and the after-the-run checks on hand-made results (also under
# wine); the set-ups made for real (tests/e2e/trust_warnings_test.sh).
iospd_add_test(test_warnings SOURCES test_warnings.c FAKE_PLATFORM)
find_program(IOSPD_BASH bash)
find_package(Python3 COMPONENTS Interpreter)
if(IOSPD_BASH AND Python3_FOUND AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME e2e_trust_warnings COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/trust_warnings_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_trust_warnings PROPERTIES TIMEOUT 300)
elseif(IOSPD_BASH AND Python3_FOUND AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_trust_warnings_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/trust_warnings_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_trust_warnings_wine PROPERTIES TIMEOUT 600
                       ENVIRONMENT "${iospd_test_env}")
endif()

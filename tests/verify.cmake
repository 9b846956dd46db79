# SPDX-License-Identifier: MIT
# --verify and --verify-only (tests/e2e/verify_test.sh): real files, real
# runs; each injected corruption found with its kind and offset, every Linux
# engine and cache mode, threads sharing a target, kill -9. Under wine:
# the round trip, the injections and the refusals with iospd.exe.
find_program(IOSPD_BASH bash)
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_verify COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/verify_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_verify PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
  # The state file's safety (tests/e2e/verify_state_test.sh): files that are
  # not state files left alone, long paths, links, no SIGBUS, damage named.
  add_test(NAME e2e_verify_state COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/verify_state_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_verify_state PROPERTIES TIMEOUT 300
                       SKIP_RETURN_CODE 77)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_verify_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/verify_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_verify_wine PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${iospd_test_env}")
  add_test(NAME e2e_verify_state_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/verify_state_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_verify_state_wine PROPERTIES TIMEOUT 600
                       SKIP_RETURN_CODE 77 ENVIRONMENT "${iospd_test_env}")
endif()
# How a block is judged (tests/e2e/verify_judge_test.sh): a flipped
# generation bit is a failure, -Sm with two writers is refused, a check
# that could not run is no pass.
if(IOSPD_BASH AND NOT CMAKE_CROSSCOMPILING AND NOT WIN32)
  add_test(NAME e2e_verify_judge COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/verify_judge_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR})
  set_tests_properties(e2e_verify_judge PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
elseif(IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_verify_judge_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/verify_judge_test.sh $<TARGET_FILE:iospd>
           ${PROJECT_SOURCE_DIR} --wine)
  set_tests_properties(e2e_verify_judge_wine PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${iospd_test_env}")
endif()
# The pieces without I/O: crc32 against zlib, the state word, the kinds.
iospd_add_test(test_verify SOURCES test_verify.c FAKE_PLATFORM)
# The SSE fold on a CPU that would take the 512-bit one.
add_test(NAME test_verify_sse_fold COMMAND test_verify)
set_tests_properties(test_verify_sse_fold PROPERTIES TIMEOUT 120
                     ENVIRONMENT "${iospd_test_env};IOSPD_CRC32_NO_AVX512=1")

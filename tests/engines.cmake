# SPDX-License-Identifier: MIT
# Issue #12: the Linux engines inside a container-like seccomp filter
# (tests/no_uring_exec.c refuses io_uring with EPERM, as Docker does), and
# the depth each engine really keeps on a slow loop device (root only).
if(NOT WIN32 AND NOT CMAKE_CROSSCOMPILING)
  add_executable(no_uring_exec no_uring_exec.c)
  target_compile_options(no_uring_exec PRIVATE ${iospd_cflags})
  find_program(IOSPD_BASH_ENG bash)
  if(IOSPD_BASH_ENG)
    add_test(NAME e2e_engines COMMAND ${IOSPD_BASH_ENG}
             ${PROJECT_SOURCE_DIR}/tests/e2e/engines_test.sh
             $<TARGET_FILE:iospd> $<TARGET_FILE:no_uring_exec>)
    set_tests_properties(e2e_engines PROPERTIES TIMEOUT 300
      SKIP_RETURN_CODE 77)
  endif()
endif()
if(NOT WIN32 AND NOT CMAKE_CROSSCOMPILING AND IOSPD_BASH_ENG)
  add_test(NAME e2e_engine_depth COMMAND ${IOSPD_BASH_ENG}
           ${PROJECT_SOURCE_DIR}/tests/e2e/depth_loop_test.sh
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_engine_depth PROPERTIES TIMEOUT 120
    SKIP_RETURN_CODE 77)
endif()
# --engine=null (issue #24): the target untouched, the counts exact, the
# engine in --version, -?, the reports and the man page.
if(NOT WIN32 AND NOT CMAKE_CROSSCOMPILING AND IOSPD_BASH_ENG)
  add_test(NAME e2e_null_engine COMMAND ${IOSPD_BASH_ENG}
           ${PROJECT_SOURCE_DIR}/tests/e2e/null_engine_test.sh
           $<TARGET_FILE:iospd> ${PROJECT_BINARY_DIR}/iospd.1)
endif()
if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(IOSPD_BASH_NULL bash)
  if(IOSPD_BASH_NULL)
    add_test(NAME e2e_null_engine_wine COMMAND ${IOSPD_BASH_NULL}
             ${PROJECT_SOURCE_DIR}/tests/e2e/null_engine_test.sh
             $<TARGET_FILE:iospd> --wine)
    set_tests_properties(e2e_null_engine_wine PROPERTIES ENVIRONMENT "${iospd_test_env}")
  endif()
endif()
# -u (DISKSPD 2.3, issue #25): io_uring keeps -o I/Os in flight whatever
# the batch; -u with another --engine= is refused.
if(NOT WIN32 AND NOT CMAKE_CROSSCOMPILING AND IOSPD_BASH_ENG)
  add_test(NAME e2e_ring_depth COMMAND ${IOSPD_BASH_ENG}
           ${PROJECT_SOURCE_DIR}/tests/e2e/ring_depth_test.sh
           $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_ring_depth PROPERTIES TIMEOUT 120
    SKIP_RETURN_CODE 77)
endif()
# -Sy/-SY never pass silently (issue #25): a partial or failed BypassIO is a
# bypass_io warning in every report; -SY fails the run (tests/e2e/bypass_warn_test.sh).
if(NOT WIN32 AND NOT CMAKE_CROSSCOMPILING AND IOSPD_BASH_ENG)
  add_test(NAME e2e_bypass_warn COMMAND ${IOSPD_BASH_ENG}
           ${PROJECT_SOURCE_DIR}/tests/e2e/bypass_warn_test.sh $<TARGET_FILE:iospd>)
endif()

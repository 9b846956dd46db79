# SPDX-License-Identifier: MIT
# The environment fingerprint (issue #13, iospd/envinfo.h): env_print shows
# what the platform fills; the e2e scripts compare it with what the OS says
# through other tools, and the unit tests feed the parsers samples.
add_executable(env_print env_print.c)
target_compile_options(env_print PRIVATE ${iospd_cflags})
target_link_libraries(env_print PRIVATE iospd_core iospd_plat)
if(WIN32)
  target_link_options(env_print PRIVATE -static -static-libgcc)
endif()
find_program(IOSPD_BASH_ENV bash)
if(NOT WIN32 AND NOT CMAKE_CROSSCOMPILING)
  iospd_add_test(test_env_posix SOURCES test_env_posix.c)
  target_compile_definitions(test_env_posix PRIVATE _GNU_SOURCE
                             _FILE_OFFSET_BITS=64)
  if(IOSPD_BASH_ENV)
    add_test(NAME e2e_env COMMAND ${IOSPD_BASH_ENV}
             ${PROJECT_SOURCE_DIR}/tests/e2e/env_test.sh $<TARGET_FILE:env_print>)
    set_tests_properties(e2e_env PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
  endif()
endif()
if(WIN32)
  iospd_add_test(test_env_win SOURCES test_env_win.c)
  if(IOSPD_BASH_ENV AND CMAKE_CROSSCOMPILING_EMULATOR)
    add_test(NAME e2e_env_wine COMMAND ${IOSPD_BASH_ENV}
             ${PROJECT_SOURCE_DIR}/tests/e2e/env_wine_test.sh
             $<TARGET_FILE:env_print> ${CMAKE_CROSSCOMPILING_EMULATOR})
    set_tests_properties(e2e_env_wine PROPERTIES TIMEOUT 120
      SKIP_RETURN_CODE 77 ENVIRONMENT "${iospd_test_env}")
  endif()
endif()

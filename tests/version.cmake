# SPDX-License-Identifier: MIT
# iospd --version, natively and under wine (tests/e2e/version_test.sh), with
# the lines this build must print: its engines and platform.
find_program(IOSPD_BASH bash)
if(IOSPD_BASH)
  if(WIN32)
    set(iospd_want_engines "iocp, routines, null, ioring")
    if(CMAKE_SIZEOF_VOID_P EQUAL 4)
      set(iospd_want_platform "windows x86")
    else()
      set(iospd_want_platform "windows x86_64")
    endif()
  else()
    set(iospd_want_engines "libaio, threads, psync, null")
    if(IOSPD_HAVE_URING)
      set(iospd_want_engines "io_uring, ${iospd_want_engines}")
    endif()
    set(iospd_want_platform "linux ${CMAKE_SYSTEM_PROCESSOR}")
  endif()
  set(iospd_version_args $<TARGET_FILE:iospd> ${PROJECT_SOURCE_DIR}
      ${iospd_commit_header} ${iospd_want_engines} ${iospd_want_platform})
  if(NOT CMAKE_CROSSCOMPILING)
    add_test(NAME e2e_version COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/e2e/version_test.sh ${iospd_version_args})
  elseif(CMAKE_CROSSCOMPILING_EMULATOR)
    add_test(NAME e2e_version_wine COMMAND ${IOSPD_BASH}
             ${PROJECT_SOURCE_DIR}/tests/e2e/version_test.sh ${iospd_version_args} --wine)
    set_tests_properties(e2e_version_wine PROPERTIES ENVIRONMENT "${iospd_test_env}")
  endif()
endif()

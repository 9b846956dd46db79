# SPDX-License-Identifier: MIT
# Tests of the real platform layer. test_plat is portable (platform.h and the
# C library only) and runs natively and under wine; test_plat_posix checks
# Linux-only behaviour, and its "uring" mode exercises io_uring explicitly
# (exit 77 = skipped when the kernel refuses io_uring).
iospd_add_test(test_plat SOURCES test_plat.c TIMEOUT 120)
if(NOT WIN32)
  iospd_add_test(test_plat_posix SOURCES test_plat_posix.c TIMEOUT 120)
  # It includes src/posix/internal.h, so it needs the platform's defines.
  target_compile_definitions(test_plat_posix PRIVATE _GNU_SOURCE
    _FILE_OFFSET_BITS=64)
  add_test(NAME test_plat_posix_uring COMMAND test_plat_posix uring)
  set_tests_properties(test_plat_posix_uring PROPERTIES TIMEOUT 120
    SKIP_RETURN_CODE 77)
  # The same engine tests on kernel AIO and on the thread pool.
  foreach(e libaio threads)
    add_test(NAME test_plat_posix_${e} COMMAND test_plat_posix ${e})
    set_tests_properties(test_plat_posix_${e} PROPERTIES TIMEOUT 120
      SKIP_RETURN_CODE 77)
  endforeach()
endif()

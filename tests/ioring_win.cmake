# SPDX-License-Identifier: MIT
# The Windows IoRing engine (src/win/ioring.c) under wine, driven through
# a fake ring injected in place of kernelbase.dll's calls; and wine's own
# kernelbase (no IoRing): the refusal names the missing piece.
if(WIN32)
  iospd_add_test(test_ioring_win SOURCES test_ioring_win.c TIMEOUT 120)
endif()
# iospd.exe under wine: --engine=ioring (and -u) fails with exit 1 and the
# missing piece named before any I/O, the target's bytes unchanged.
find_program(IOSPD_BASH bash)
if(WIN32 AND IOSPD_BASH AND CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME e2e_win_ioring_wine COMMAND ${IOSPD_BASH}
           ${PROJECT_SOURCE_DIR}/tests/e2e/win_ioring_test.sh $<TARGET_FILE:iospd>)
  set_tests_properties(e2e_win_ioring_wine PROPERTIES TIMEOUT 300
    ENVIRONMENT "${iospd_test_env}")
endif()
# BypassIO (-Sy/-SY): the decision from FSCTL_MANAGE_BYPASS_IO's answer (a
# table), and the call on a wine file (no BypassIO there).
if(WIN32)
  iospd_add_test(test_bypass_win SOURCES test_bypass_win.c TIMEOUT 120)
endif()

# SPDX-License-Identifier: MIT
# The Windows IoRing engine (src/win/ioring.c) under wine, driven through
# a fake ring injected in place of kernelbase.dll's calls; and wine's own
# kernelbase (no IoRing): the refusal names the missing piece.
if(WIN32)
  iospd_add_test(test_ioring_win SOURCES test_ioring_win.c TIMEOUT 120)
endif()

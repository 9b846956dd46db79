# SPDX-License-Identifier: MIT
# Tests of the Windows platform layer (src/win), run under wine: paths,
# IOCP and completion-routine round trips, topology, CPU times, threads.
if(WIN32)
  iospd_add_test(test_plat_win SOURCES test_plat_win.c TIMEOUT 120)
  # File or device, the write guard failing closed, -c creation.
  iospd_add_test(test_plat_win_safety SOURCES test_plat_win_safety.c TIMEOUT 120)
endif()

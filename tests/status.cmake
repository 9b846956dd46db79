# SPDX-License-Identifier: MIT
# The live status line (--progress, issue #13): the formatter and the
# tracker (pure core code; natively and under wine).
iospd_add_test(test_status SOURCES test_status.c)
# The run's clock for it (iospd_run_hooks_t.tick) on the fake platform.
iospd_add_test(test_run_tick SOURCES test_run_tick.c FAKE_PLATFORM)

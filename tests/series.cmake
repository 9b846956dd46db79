# SPDX-License-Identifier: MIT
# The per-interval producer (hooks->interval) against the fake platform.
iospd_add_test(test_series SOURCES test_series.c FAKE_PLATFORM)

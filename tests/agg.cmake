# SPDX-License-Identifier: MIT
# The per-timespan total computed once for every reporter (src/stats/agg.c).
# CMocka, fake platform, also under wine.
iospd_add_test(test_agg SOURCES test_agg.c FAKE_PLATFORM)

# SPDX-License-Identifier: MIT
# Statistics and reporters: histogram, interval buckets, per-target stats,
# and the text/XML reports against golden files.
iospd_add_test(test_hist SOURCES test_hist.c)
iospd_add_test(test_buckets SOURCES test_buckets.c)
iospd_add_test(test_stats SOURCES test_stats.c)

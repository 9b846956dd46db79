# SPDX-License-Identifier: MIT
# The one percentile list of the reports (src/stats/percentiles.c). CMocka,
# also under wine.
iospd_add_test(test_percentiles SOURCES test_percentiles.c)
